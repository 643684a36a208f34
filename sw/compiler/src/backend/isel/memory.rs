//! Instruction selection: addresses and memory — 64-bit pointer
//! arithmetic, global/constant loads (scalar when safe), stores and atomics,
//! LDS accesses.

use arch::isa::{Family, Opcode};

use super::{Isel, Loc};
use crate::backend::minst::{special, MInst, MOp, RegClass, VReg};
use crate::backend::BackendError;
use crate::ir::*;

fn unsupported(what: String) -> BackendError {
    BackendError::Unsupported(what)
}

/// Immediate offsets the encodings take: GLOBAL's signed 12 bits, DS's
/// unsigned 16 bits.
fn offset_fits(space: AddrSpace, c: i64) -> bool {
    match space {
        AddrSpace::Global | AddrSpace::Constant => (-2048..=2047).contains(&c),
        AddrSpace::Local => (0..=65535).contains(&c),
        // The scratch instructions' signed 12-bit offset.
        AddrSpace::Private => (0..=2047).contains(&c),
    }
}

/// Address-mode folding: a `ptr_add(base, constant)` whose every use is the
/// address of a load or store becomes those instructions' immediate
/// `offset:` and is not selected itself.
pub(in crate::backend) fn fold_addresses(isel: &mut Isel) {
    let f = isel.f;
    // A value used anywhere but as a load/store address cannot be folded.
    let mut other_use = vec![false; f.value_count()];
    for &b in f.blocks() {
        for &i in &f.block(b).insts {
            match &f.inst(i).kind {
                InstKind::Load { .. } => {}
                InstKind::Store { value, .. } => other_use[value.index()] = true,
                k => k.for_each_operand(|v| other_use[v.index()] = true),
            }
        }
    }
    for &b in f.blocks() {
        for &i in &f.block(b).insts {
            let d = f.inst(i);
            let (Some(r), InstKind::PtrAdd { base, offset }) = (d.result, &d.kind) else {
                continue;
            };
            let Some(space) = space_of(f.ty(r)) else {
                continue;
            };
            // `__local` array + index: the array's LDS offset, a constant
            // known here, goes into `offset:` and the index is the address
            // (`ds_read_b32 v, v_index offset:0x400`, no `v_add`).
            if let Some(InstKind::LocalAddr { var }) = f.def_inst(*base) {
                let at = i64::from(isel.lds_offsets[var.index()]);
                if !other_use[r.index()]
                    && space == AddrSpace::Local
                    && f.ty(*offset) == Type::I32
                    && f.iconst_value(*offset).is_none()
                    && offset_fits(space, at)
                {
                    isel.folded[r.index()] = Some((*offset, at as i32));
                    isel.deferred[i.index()] = true;
                    continue;
                }
            }
            let Some(c) = f.iconst_value(*offset) else {
                continue;
            };
            if !other_use[r.index()] && offset_fits(space, c) {
                isel.folded[r.index()] = Some((*base, c as i32));
                isel.deferred[i.index()] = true;
            }
        }
    }
}

impl Isel<'_> {
    /// The base and immediate offset of an address (see [`fold_addresses`]).
    fn addr_parts(&self, addr: Value) -> (Value, i32) {
        self.folded[addr.index()].unwrap_or((addr, 0))
    }
    pub(in crate::backend) fn ptr_add(
        &mut self,
        r: Value,
        base: Value,
        offset: Value,
    ) -> Result<(), BackendError> {
        let (l, d) = self.dst(r);
        let wide = self.f.ty(base).bits() == 64;
        if !wide {
            return self.binary_into(l, BinaryOp::Iadd, base, offset);
        }
        let off64 = self.f.ty(offset) == Type::I64;
        match l {
            Loc::S(_) => {
                let lo = self.ssrc_part(offset, 0)?;
                let hi = if off64 {
                    self.ssrc_part(offset, 1)?
                } else if let MOp::Imm(x) = lo {
                    MOp::Imm(((x as i32) >> 31) as u32)
                } else {
                    let h = self.mc.vreg(RegClass::Sgpr, 1);
                    self.sop2(Opcode::S_ASHR_I32, MOp::Reg(h, 0), lo, MOp::Imm(31));
                    MOp::Reg(h, 0)
                };
                let (blo, bhi) = (self.ssrc_part(base, 0)?, self.ssrc_part(base, 1)?);
                self.sop2(Opcode::S_ADD_U32, MOp::Reg(d, 0), blo, lo);
                self.sop2(Opcode::S_ADDC_U32, MOp::Reg(d, 1), bhi, hi);
            }
            Loc::V(_) => {
                let lo = self.src_part(offset, 0)?;
                let hi = if off64 {
                    self.src_part(offset, 1)?
                } else if let MOp::Imm(x) = lo {
                    MOp::Imm(((x as i32) >> 31) as u32)
                } else if let Some(&(_, h)) = self.sext_memo.iter().find(|(v, _)| *v == offset) {
                    h
                } else if self.is_vgpr(lo) {
                    let h = self.mc.vreg(RegClass::Vgpr, 1);
                    self.vop2(
                        Opcode::V_ASHRREV_I32,
                        MOp::Reg(h, 0),
                        MOp::Imm(31),
                        lo,
                        false,
                    );
                    self.sext_memo.push((offset, MOp::Reg(h, 0)));
                    MOp::Reg(h, 0)
                } else {
                    let h = self.mc.vreg(RegClass::Sgpr, 1);
                    self.sop2(Opcode::S_ASHR_I32, MOp::Reg(h, 0), lo, MOp::Imm(31));
                    MOp::Reg(h, 0)
                };
                let (blo, bhi) = (self.src_part(base, 0)?, self.src_part(base, 1)?);
                // The VGPR-only source slot (src1 of the carry-in add) takes
                // whichever high half is a VGPR.
                let (x0, x1, y0, y1) = if self.is_vgpr(bhi) {
                    (lo, hi, blo, bhi)
                } else {
                    (blo, bhi, lo, hi)
                };
                let y1 = self.in_vgpr(y1);
                let vcc = MOp::Phys(special::VCC);
                self.vop3_defs(Opcode::V_ADD_CO_U32, 2, &[MOp::Reg(d, 0), vcc, x0, y0]);
                self.push(
                    Opcode::V_ADD_CO_CI_U32,
                    Family::Vop2,
                    2,
                    &[MOp::Reg(d, 1), vcc, x1, y1, vcc],
                );
            }
            _ => unreachable!("pointers are integers"),
        }
        Ok(())
    }

    /// A 64-bit address in VGPRs (for global memory instructions).
    fn vaddr64(&mut self, addr: Value) -> Result<VReg, BackendError> {
        match self.loc(addr)? {
            Loc::V(r) => Ok(r),
            _ => {
                let r = self.mc.vreg(RegClass::Vgpr, 2);
                for k in 0..2 {
                    let s = self.src_part(addr, k)?;
                    self.vop1(Opcode::V_MOV_B32, MOp::Reg(r, k), s);
                }
                Ok(r)
            }
        }
    }

    pub(in crate::backend) fn load(
        &mut self,
        r: Value,
        ty: Type,
        addr: Value,
    ) -> Result<(), BackendError> {
        if !matches!(ty, Type::I8 | Type::I16 | Type::F16) && !matches!(ty.bits(), 32 | 64) {
            return Err(unsupported(format!(
                "loads of {} are not supported by the back end yet",
                ty.opencl_name()
            )));
        }
        // A uniform 64-bit result is loaded per lane and read back.
        let dwords = if ty.bits() == 64 { 2 } else { 1 };
        let space = space_of(self.f.ty(addr)).expect("verified");
        let (addr, imm) = self.addr_parts(addr);
        let (l, d) = self.dst(r);
        match space {
            AddrSpace::Global | AddrSpace::Constant => {
                let scalar_ok =
                    ty.bits() == 32 && (space == AddrSpace::Constant || !self.writes_global);
                if let (Loc::S(_), true) = (l, scalar_ok) {
                    let a = self.ssrc_part(addr, 0)?;
                    let MOp::Reg(base, 0) = a else {
                        return Err(unsupported("a load from a constant address".into()));
                    };
                    let mut i = MInst::new(
                        Opcode::S_LOAD_DWORD,
                        Family::Smem,
                        1,
                        &[MOp::Reg(d, 0), MOp::Reg(base, 0), MOp::Phys(special::NULL)],
                    );
                    i.modifiers.offset = imm;
                    self.mc.push(i);
                    return Ok(());
                }
                let a = self.vaddr64(addr)?;
                let dst = if let Loc::V(_) = l {
                    d
                } else {
                    self.mc.vreg(RegClass::Vgpr, dwords)
                };
                let op = match ty.bits() {
                    8 => Opcode::GLOBAL_LOAD_UBYTE,
                    16 => Opcode::GLOBAL_LOAD_USHORT,
                    64 => Opcode::GLOBAL_LOAD_DWORDX2,
                    _ => Opcode::GLOBAL_LOAD_DWORD,
                };
                let mut i = MInst::new(
                    op,
                    Family::Global,
                    1,
                    &[MOp::Reg(dst, 0), MOp::Reg(a, 0), MOp::Off],
                );
                i.modifiers.offset = imm;
                self.mc.push(i);
                if let Loc::S(_) = l {
                    self.read_back(d, dst, dwords);
                }
            }
            AddrSpace::Local => {
                let a = self.vreg_of(addr, 0)?;
                let dst = if let Loc::V(_) = l {
                    d
                } else {
                    self.mc.vreg(RegClass::Vgpr, dwords)
                };
                let op = match ty.bits() {
                    8 => Opcode::DS_READ_U8,
                    16 => Opcode::DS_READ_U16,
                    64 => Opcode::DS_READ_B64,
                    _ => Opcode::DS_READ_B32,
                };
                let mut i = MInst::new(op, Family::Ds, 1, &[MOp::Reg(dst, 0), a]);
                i.modifiers.offset = imm;
                self.mc.push(i);
                if let Loc::S(_) = l {
                    self.read_back(d, dst, dwords);
                }
            }
            AddrSpace::Private => {
                // The address is the byte offset in this work-item's private
                // segment; the hardware swizzles it per lane.
                let a = self.vreg_of(addr, 0)?;
                let dst = if let Loc::V(_) = l {
                    d
                } else {
                    self.mc.vreg(RegClass::Vgpr, dwords)
                };
                let op = match ty.bits() {
                    8 => Opcode::SCRATCH_LOAD_UBYTE,
                    16 => Opcode::SCRATCH_LOAD_USHORT,
                    64 => Opcode::SCRATCH_LOAD_DWORDX2,
                    _ => Opcode::SCRATCH_LOAD_DWORD,
                };
                let mut i = MInst::new(op, Family::Scratch, 1, &[MOp::Reg(dst, 0), a, MOp::Off]);
                i.modifiers.offset = imm;
                self.mc.push(i);
                if let Loc::S(_) = l {
                    self.read_back(d, dst, dwords);
                }
            }
        }
        Ok(())
    }

    pub(in crate::backend) fn store(
        &mut self,
        addr: Value,
        value: Value,
    ) -> Result<(), BackendError> {
        let ty = self.f.ty(value);
        if !matches!(ty, Type::I8 | Type::I16 | Type::F16) && !matches!(ty.bits(), 32 | 64) {
            return Err(unsupported(format!(
                "stores of {} are not supported by the back end yet",
                ty.opencl_name()
            )));
        }
        let space = space_of(self.f.ty(addr)).expect("verified");
        let (addr, imm) = self.addr_parts(addr);
        match space {
            AddrSpace::Global => {
                let a = self.vaddr64(addr)?;
                let v = self.store_data(value, ty)?;
                let op = match ty.bits() {
                    8 => Opcode::GLOBAL_STORE_BYTE,
                    16 => Opcode::GLOBAL_STORE_SHORT,
                    64 => Opcode::GLOBAL_STORE_DWORDX2,
                    _ => Opcode::GLOBAL_STORE_DWORD,
                };
                let mut i = MInst::new(op, Family::Global, 0, &[MOp::Reg(a, 0), v, MOp::Off]);
                i.modifiers.offset = imm;
                self.mc.push(i);
            }
            AddrSpace::Local => {
                let a = self.vreg_of(addr, 0)?;
                let v = self.store_data(value, ty)?;
                let op = match ty.bits() {
                    8 => Opcode::DS_WRITE_B8,
                    16 => Opcode::DS_WRITE_B16,
                    64 => Opcode::DS_WRITE_B64,
                    _ => Opcode::DS_WRITE_B32,
                };
                let mut i = MInst::new(op, Family::Ds, 0, &[a, v]);
                i.modifiers.offset = imm;
                self.mc.push(i);
            }
            AddrSpace::Private => {
                let a = self.vreg_of(addr, 0)?;
                let v = self.store_data(value, ty)?;
                let op = match ty.bits() {
                    8 => Opcode::SCRATCH_STORE_BYTE,
                    16 => Opcode::SCRATCH_STORE_SHORT,
                    64 => Opcode::SCRATCH_STORE_DWORDX2,
                    _ => Opcode::SCRATCH_STORE_DWORD,
                };
                let mut i = MInst::new(op, Family::Scratch, 0, &[a, v, MOp::Off]);
                i.modifiers.offset = imm;
                self.mc.push(i);
            }
            s => return Err(unsupported(format!("stores to __{} memory", s.name()))),
        }
        Ok(())
    }

    pub(in crate::backend) fn atomic(
        &mut self,
        r: Value,
        op: AtomicOp,
        addr: Value,
        value: Value,
    ) -> Result<(), BackendError> {
        let space = space_of(self.f.ty(addr)).expect("verified");
        let (_, d) = self.dst(r);
        let ty = self.f.ty(value);
        let v = self.store_data(value, ty)?;
        if ty == Type::I64 {
            // The 64-bit forms: a VGPR pair in and out.
            let o = match (space, op) {
                (AddrSpace::Global, AtomicOp::Add) => Opcode::GLOBAL_ATOMIC_ADD_X2,
                (AddrSpace::Global, AtomicOp::Sub) => Opcode::GLOBAL_ATOMIC_SUB_X2,
                (AddrSpace::Global, AtomicOp::Xchg) => Opcode::GLOBAL_ATOMIC_SWAP_X2,
                (AddrSpace::Global, AtomicOp::Smin) => Opcode::GLOBAL_ATOMIC_SMIN_X2,
                (AddrSpace::Global, AtomicOp::Smax) => Opcode::GLOBAL_ATOMIC_SMAX_X2,
                (AddrSpace::Global, AtomicOp::And) => Opcode::GLOBAL_ATOMIC_AND_X2,
                (AddrSpace::Global, AtomicOp::Or) => Opcode::GLOBAL_ATOMIC_OR_X2,
                (AddrSpace::Global, AtomicOp::Umin) => Opcode::GLOBAL_ATOMIC_UMIN_X2,
                (AddrSpace::Global, AtomicOp::Umax) => Opcode::GLOBAL_ATOMIC_UMAX_X2,
                (AddrSpace::Global, AtomicOp::Xor) => Opcode::GLOBAL_ATOMIC_XOR_X2,
                (_, AtomicOp::Add) => Opcode::DS_ADD_RTN_U64,
                (_, AtomicOp::Sub) => Opcode::DS_SUB_RTN_U64,
                (_, AtomicOp::Xchg) => Opcode::DS_WRXCHG_RTN_B64,
                (_, AtomicOp::Smin) => Opcode::DS_MIN_RTN_I64,
                (_, AtomicOp::Smax) => Opcode::DS_MAX_RTN_I64,
                (_, AtomicOp::And) => Opcode::DS_AND_RTN_B64,
                (_, AtomicOp::Or) => Opcode::DS_OR_RTN_B64,
                (_, AtomicOp::Umin) => Opcode::DS_MIN_RTN_U64,
                (_, AtomicOp::Umax) => Opcode::DS_MAX_RTN_U64,
                (_, AtomicOp::Xor) => Opcode::DS_XOR_RTN_B64,
            };
            if space == AddrSpace::Global {
                self.global_atomic_rtn(o, d, addr, v)?;
            } else {
                let a = self.vreg_of(addr, 0)?;
                self.push(o, Family::Ds, 1, &[MOp::Reg(d, 0), a, v]);
            }
            return Ok(());
        }
        match space {
            AddrSpace::Global => {
                let o = match op {
                    AtomicOp::Add => Opcode::GLOBAL_ATOMIC_ADD,
                    AtomicOp::Sub => Opcode::GLOBAL_ATOMIC_SUB,
                    AtomicOp::Xchg => Opcode::GLOBAL_ATOMIC_SWAP,
                    AtomicOp::Smin => Opcode::GLOBAL_ATOMIC_SMIN,
                    AtomicOp::Smax => Opcode::GLOBAL_ATOMIC_SMAX,
                    AtomicOp::And => Opcode::GLOBAL_ATOMIC_AND,
                    AtomicOp::Or => Opcode::GLOBAL_ATOMIC_OR,
                    AtomicOp::Umin => Opcode::GLOBAL_ATOMIC_UMIN,
                    AtomicOp::Umax => Opcode::GLOBAL_ATOMIC_UMAX,
                    AtomicOp::Xor => Opcode::GLOBAL_ATOMIC_XOR,
                };
                self.global_atomic_rtn(o, d, addr, v)?;
            }
            AddrSpace::Local => {
                let o = match op {
                    AtomicOp::Add => Opcode::DS_ADD_RTN_U32,
                    AtomicOp::Sub => Opcode::DS_SUB_RTN_U32,
                    AtomicOp::Xchg => Opcode::DS_WRXCHG_RTN_B32,
                    AtomicOp::Smin => Opcode::DS_MIN_RTN_I32,
                    AtomicOp::Smax => Opcode::DS_MAX_RTN_I32,
                    AtomicOp::And => Opcode::DS_AND_RTN_B32,
                    AtomicOp::Or => Opcode::DS_OR_RTN_B32,
                    AtomicOp::Umin => Opcode::DS_MIN_RTN_U32,
                    AtomicOp::Umax => Opcode::DS_MAX_RTN_U32,
                    AtomicOp::Xor => Opcode::DS_XOR_RTN_B32,
                };
                let a = self.vreg_of(addr, 0)?;
                self.push(o, Family::Ds, 1, &[MOp::Reg(d, 0), a, v]);
            }
            _ => unreachable!("verified"),
        }
        Ok(())
    }

    /// The data operand of a store: a VGPR (a VGPR pair for `i64`).
    /// A global atomic at `addr` returning the memory's old value in `d`
    /// (`glc`), with data operand `data`.
    fn global_atomic_rtn(
        &mut self,
        op: Opcode,
        d: VReg,
        addr: Value,
        data: MOp,
    ) -> Result<(), BackendError> {
        let a = self.vaddr64(addr)?;
        let mut i = MInst::new(
            op,
            Family::Global,
            1,
            &[MOp::Reg(d, 0), MOp::Reg(a, 0), data, MOp::Off],
        );
        i.modifiers.glc = true;
        self.mc.push(i);
        Ok(())
    }

    fn store_data(&mut self, value: Value, ty: Type) -> Result<MOp, BackendError> {
        if ty.bits() != 64 {
            return self.vreg_of(value, 0);
        }
        if let Loc::V(r) = self.loc(value)? {
            return Ok(MOp::Reg(r, 0));
        }
        let t = self.mc.vreg(RegClass::Vgpr, 2);
        for k in 0..2 {
            let s = self.src_part(value, k)?;
            self.vop1(Opcode::V_MOV_B32, MOp::Reg(t, k), s);
        }
        Ok(MOp::Reg(t, 0))
    }

    /// Copies a value loaded per lane into its SGPRs (a uniform load).
    fn read_back(&mut self, d: VReg, loaded: VReg, dwords: u8) {
        for k in 0..dwords {
            self.push(
                Opcode::V_READFIRSTLANE_B32,
                Family::Vop1,
                1,
                &[MOp::Reg(d, k), MOp::Reg(loaded, k)],
            );
        }
    }

    /// Compare-and-swap: `global_atomic_cmpswap` takes the new value and
    /// the expected one as a register pair (new first); `ds_cmpst_rtn_b32`
    /// takes the expected one first.
    pub(in crate::backend) fn atomic_cas(
        &mut self,
        r: Value,
        addr: Value,
        cmp: Value,
        value: Value,
    ) -> Result<(), BackendError> {
        let space = space_of(self.f.ty(addr)).expect("verified");
        let (_, d) = self.dst(r);
        if self.f.ty(value) == Type::I64 {
            // Global: new then expected as four VGPRs; LDS: expected, new
            // as two pairs.
            if space == AddrSpace::Global {
                let quad = self.mc.vreg(RegClass::Vgpr, 4);
                for (k, (x, part)) in [(value, 0), (value, 1), (cmp, 0), (cmp, 1)]
                    .into_iter()
                    .enumerate()
                {
                    let s = self.src_part(x, part)?;
                    self.vop1(Opcode::V_MOV_B32, MOp::Reg(quad, k as u8), s);
                }
                self.global_atomic_rtn(
                    Opcode::GLOBAL_ATOMIC_CMPSWAP_X2,
                    d,
                    addr,
                    MOp::Reg(quad, 0),
                )?;
            } else {
                let a = self.vreg_of(addr, 0)?;
                let c = self.store_data(cmp, Type::I64)?;
                let v = self.store_data(value, Type::I64)?;
                self.push(
                    Opcode::DS_CMPST_RTN_B64,
                    Family::Ds,
                    1,
                    &[MOp::Reg(d, 0), a, c, v],
                );
            }
            return Ok(());
        }
        let (c, v) = (self.src(cmp)?, self.src(value)?);
        match space {
            AddrSpace::Global => {
                let pair = self.mc.vreg(RegClass::Vgpr, 2);
                self.push(Opcode::V_MOV_B32, Family::Vop1, 1, &[MOp::Reg(pair, 0), v]);
                self.push(Opcode::V_MOV_B32, Family::Vop1, 1, &[MOp::Reg(pair, 1), c]);
                self.global_atomic_rtn(Opcode::GLOBAL_ATOMIC_CMPSWAP, d, addr, MOp::Reg(pair, 0))?;
            }
            AddrSpace::Local => {
                let a = self.vreg_of(addr, 0)?;
                let (c, v) = (self.in_vgpr(c), self.in_vgpr(v));
                self.push(
                    Opcode::DS_CMPST_RTN_B32,
                    Family::Ds,
                    1,
                    &[MOp::Reg(d, 0), a, c, v],
                );
            }
            _ => unreachable!("verified"),
        }
        Ok(())
    }
}
