//! Instruction selection, part 3: addresses and memory — 64-bit pointer
//! arithmetic, global/constant loads (scalar when safe), stores and atomics,
//! LDS accesses.

use arch::isa::{Family, Opcode};

use super::isel::{Isel, Loc};
use super::minst::{special, MInst, MOp, RegClass, VReg};
use super::BackendError;
use crate::ir::*;

fn unsupported(what: String) -> BackendError {
    BackendError::Unsupported(what)
}

impl Isel<'_> {
    pub(super) fn ptr_add(
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

    pub(super) fn load(&mut self, r: Value, ty: Type, addr: Value) -> Result<(), BackendError> {
        if !matches!(ty, Type::I8 | Type::I16) && ty.bits() != 32 {
            return Err(unsupported(format!(
                "loads of {ty} are not supported by the back end yet"
            )));
        }
        let space = space_of(self.f.ty(addr)).expect("verified");
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
                    self.push(
                        Opcode::S_LOAD_DWORD,
                        Family::Smem,
                        1,
                        &[MOp::Reg(d, 0), MOp::Reg(base, 0), MOp::Phys(special::NULL)],
                    );
                    return Ok(());
                }
                let a = self.vaddr64(addr)?;
                let dst = if let Loc::V(_) = l {
                    d
                } else {
                    self.mc.vreg(RegClass::Vgpr, 1)
                };
                let op = match ty.bits() {
                    8 => Opcode::GLOBAL_LOAD_UBYTE,
                    16 => Opcode::GLOBAL_LOAD_USHORT,
                    _ => Opcode::GLOBAL_LOAD_DWORD,
                };
                self.push(
                    op,
                    Family::Global,
                    1,
                    &[MOp::Reg(dst, 0), MOp::Reg(a, 0), MOp::Off],
                );
                if let Loc::S(_) = l {
                    self.readfirstlane(d, MOp::Reg(dst, 0));
                }
            }
            AddrSpace::Local => {
                let a = self.vreg_of(addr, 0)?;
                let dst = if let Loc::V(_) = l {
                    d
                } else {
                    self.mc.vreg(RegClass::Vgpr, 1)
                };
                let op = match ty.bits() {
                    8 => Opcode::DS_READ_U8,
                    16 => Opcode::DS_READ_U16,
                    _ => Opcode::DS_READ_B32,
                };
                self.push(op, Family::Ds, 1, &[MOp::Reg(dst, 0), a]);
                if let Loc::S(_) = l {
                    self.readfirstlane(d, MOp::Reg(dst, 0));
                }
            }
            AddrSpace::Private => {
                return Err(unsupported(
                    "private memory is not supported by the back end yet".into(),
                ))
            }
        }
        Ok(())
    }

    pub(super) fn store(&mut self, addr: Value, value: Value) -> Result<(), BackendError> {
        let ty = self.f.ty(value);
        if !matches!(ty, Type::I8 | Type::I16) && ty.bits() != 32 {
            return Err(unsupported(format!(
                "stores of {ty} are not supported by the back end yet"
            )));
        }
        let space = space_of(self.f.ty(addr)).expect("verified");
        match space {
            AddrSpace::Global => {
                let a = self.vaddr64(addr)?;
                let v = self.vreg_of(value, 0)?;
                let op = match ty.bits() {
                    8 => Opcode::GLOBAL_STORE_BYTE,
                    16 => Opcode::GLOBAL_STORE_SHORT,
                    _ => Opcode::GLOBAL_STORE_DWORD,
                };
                self.push(op, Family::Global, 0, &[MOp::Reg(a, 0), v, MOp::Off]);
            }
            AddrSpace::Local => {
                let a = self.vreg_of(addr, 0)?;
                let v = self.vreg_of(value, 0)?;
                let op = match ty.bits() {
                    8 => Opcode::DS_WRITE_B8,
                    16 => Opcode::DS_WRITE_B16,
                    _ => Opcode::DS_WRITE_B32,
                };
                self.push(op, Family::Ds, 0, &[a, v]);
            }
            s => return Err(unsupported(format!("stores to {} memory", s.name()))),
        }
        Ok(())
    }

    pub(super) fn atomic(
        &mut self,
        r: Value,
        op: AtomicOp,
        addr: Value,
        value: Value,
    ) -> Result<(), BackendError> {
        let space = space_of(self.f.ty(addr)).expect("verified");
        let (_, d) = self.dst(r);
        let v = self.vreg_of(value, 0)?;
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
                };
                let a = self.vaddr64(addr)?;
                let mut i = MInst::new(
                    o,
                    Family::Global,
                    1,
                    &[MOp::Reg(d, 0), MOp::Reg(a, 0), v, MOp::Off],
                );
                i.modifiers.glc = true;
                self.mc.push(i);
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
                };
                let a = self.vreg_of(addr, 0)?;
                self.push(o, Family::Ds, 1, &[MOp::Reg(d, 0), a, v]);
            }
            _ => unreachable!("verified"),
        }
        Ok(())
    }
}
