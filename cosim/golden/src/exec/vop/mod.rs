//! Shared vector-ALU machinery: operand fetch with every source modifier
//! (VOP3 `abs`/`neg`/`op_sel`, SDWA selects and sign extension, DPP16/DPP8
//! lane permutes), result write-back (EXEC masking, SDWA `dst_sel` /
//! `dst_unused`, 16-bit destinations, `omod` and `clamp`), and lane loops.
//!
//! The family files (`vop1.rs`, `vop2.rs`, `vopc.rs`, `vop3.rs`, `vop3p.rs`)
//! hold the semantics; an opcode means the same thing in its 32-bit and its
//! VOP3 encoding, so `vop3.rs` hands promoted VOP1/VOP2/VOPC opcodes back to
//! those files. Operands are found by their table field (`vdst`, `src0`, ...),
//! never by position, so one semantic serves every encoding's layout.

mod lanes;
pub mod rare;
mod saturate;
pub mod vop1;
pub mod vop2;
pub mod vop3;
pub mod vop3p;
pub mod vopc;

use arch::device::Fault;
use arch::isa::operand::VGPR_BASE;
use arch::isa::tables::Field;
use arch::isa::{Instruction, Isa, OpInfo, Operand, OperandType, Variant};

use super::{illegal, not_implemented, Wave};
use crate::fp::{self, Format, FpMode, Mode};

/// One VALU instruction in flight: the wave, the decoded instruction and the
/// lanes it writes.
pub struct Valu<'a> {
    /// The executing wave.
    pub w: &'a mut Wave,
    /// The instruction.
    pub inst: &'a Instruction,
    /// Its table row (operand fields and types).
    pub info: &'static OpInfo,
    /// Lanes whose results are written: EXEC, narrowed by DPP row/bank masks
    /// and invalid DPP sources.
    pub exec: u64,
    /// The floating-point MODE.
    pub mode: Mode,
    /// Operand index per [`slot`] (`u8::MAX` when absent), found once.
    slots: [u8; 8],
}

/// The slot of the `n`th operand in `field` (`vcc` has two: carry-out/in).
#[inline]
fn slot(field: Field, n: usize) -> Option<usize> {
    Some(match (field, n) {
        (Field::Vdst, 0) => 0,
        (Field::Sdst, 0) => 1,
        (Field::Vcc, 0) => 2,
        (Field::Vcc, 1) => 3,
        (Field::Src0, 0) => 4,
        (Field::Src1, 0) => 5,
        (Field::Src2, 0) => 6,
        (Field::K, 0) => 7,
        _ => return None,
    })
}

/// Iterates over the set bits of a lane mask.
#[inline]
pub fn each_lane(mut mask: u64, mut f: impl FnMut(usize)) {
    // Full waves (the common case) as plain counted loops the compiler can unroll.
    if mask == u64::MAX {
        (0..64).for_each(f);
        return;
    }
    if mask == 0xffff_ffff {
        (0..32).for_each(f);
        return;
    }
    while mask != 0 {
        let l = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        f(l);
    }
}

/// The table row of a VOP-family instruction, from a table built once
/// (`Instruction::info` scans the whole ISA table; this runs per instruction).
pub(crate) fn row(inst: &Instruction) -> Option<&'static OpInfo> {
    use arch::isa::tables::tables;
    use arch::isa::{Family, Opcode};
    use std::sync::OnceLock;
    const FAMILIES: [Family; 5] = [
        Family::Vop1,
        Family::Vop2,
        Family::Vopc,
        Family::Vop3,
        Family::Vop3p,
    ];
    type Rows = Vec<Option<&'static OpInfo>>;
    static ROWS: OnceLock<[Rows; 2]> = OnceLock::new();
    let rows = ROWS.get_or_init(|| {
        [Isa::Gfx803, Isa::Gfx1030].map(|isa| {
            let mut v = vec![None; FAMILIES.len() * Opcode::ALL.len()];
            for r in tables(isa).rows {
                if let Some(f) = FAMILIES.iter().position(|&f| f == r.family) {
                    v[f * Opcode::ALL.len() + r.opcode as usize] = Some(r);
                }
            }
            v
        })
    });
    let f = FAMILIES.iter().position(|&f| f == inst.family)?;
    let isa = usize::from(inst.target.isa == Isa::Gfx1030);
    *rows[isa].get(f * Opcode::ALL.len() + inst.opcode as usize)?
}

/// A 32-bit lane value as a `fmt` operand (an `f16` is the low half).
#[inline]
pub fn narrow(fmt: Format, x: u32) -> u64 {
    if fmt == fp::F16 {
        u64::from(x & 0xffff)
    } else {
        u64::from(x)
    }
}

impl<'a> Valu<'a> {
    /// Prepares an instruction (fails when its row is missing).
    pub fn new(w: &'a mut Wave, inst: &'a Instruction) -> Result<Valu<'a>, Fault> {
        let info = row(inst).ok_or_else(|| not_implemented(inst))?;
        let exec = w.exec();
        let mode = Mode::from_register(w.mode);
        let mut slots = [u8::MAX; 8];
        let mut vccs = 0;
        for (i, spec) in info.operands.iter().enumerate() {
            let n = if spec.field == Field::Vcc {
                vccs += 1;
                vccs - 1
            } else {
                0
            };
            if let Some(s) = slot(spec.field, n) {
                slots[s] = i as u8;
            }
        }
        Ok(Valu {
            w,
            inst,
            info,
            exec,
            mode,
            slots,
        })
    }

    /// The ISA.
    #[inline]
    pub fn isa(&self) -> Isa {
        self.inst.target.isa
    }

    /// Index of the `n`th operand in `field`, if present.
    #[inline]
    fn index(&self, field: Field, n: usize) -> Option<usize> {
        let i = self.slots[slot(field, n)?];
        (i != u8::MAX).then_some(usize::from(i))
    }

    /// True when the row has an operand in `field`.
    #[inline]
    pub fn has(&self, field: Field) -> bool {
        self.index(field, 0).is_some()
    }

    /// The `n`th operand in `field` and its table type.
    pub fn operand(&self, field: Field, n: usize) -> Result<(Operand, OperandType), Fault> {
        let i = self
            .index(field, n)
            .ok_or_else(|| illegal(format!("{}: no `{}` operand", self.inst, field.name())))?;
        let op = *self
            .inst
            .operands()
            .get(i)
            .ok_or_else(|| illegal(format!("{}: operand {i} is missing", self.inst)))?;
        let ty = self.info.operands[i].ty;
        if self.w.gpr_idx_enabled {
            return Ok((self.gpr_indexed(field, op), ty));
        }
        Ok((op, ty))
    }

    /// gfx803 VGPR indexing mode (`s_set_gpr_idx_on`): `M0[7:0]` is added to
    /// the VGPR number of src0/src1/src2/vdst when `M0[12..15]` selects it.
    fn gpr_indexed(&self, field: Field, op: Operand) -> Operand {
        let m0 = self.w.m0();
        let bit = match field {
            Field::Src0 => 12,
            Field::Src1 => 13,
            Field::Src2 => 14,
            Field::Vdst => 15,
            _ => return op,
        };
        match op {
            Operand::Src { code, ty } if code >= VGPR_BASE && m0 >> bit & 1 != 0 => Operand::Src {
                code: code + (m0 & 0xff) as u16,
                ty,
            },
            _ => op,
        }
    }

    /// Source field `i` (0..=2).
    fn src_field(i: usize) -> Field {
        match i {
            0 => Field::Src0,
            1 => Field::Src1,
            _ => Field::Src2,
        }
    }

    /// The float MODE fields for `fmt`.
    #[inline]
    pub fn fp(&self, fmt: Format) -> FpMode {
        self.mode.of(fmt)
    }

    /// Source `i` for every lane, 32 bits (16-bit sources in the low half),
    /// with DPP, SDWA and VOP3 modifiers applied.
    pub fn src(&mut self, i: usize) -> Result<[u32; 64], Fault> {
        let (op, ty) = self.operand(Self::src_field(i), 0)?;
        let mut v = self.w.read_lanes(&op)?;
        let m = self.inst.modifiers;
        match self.inst.variant {
            Variant::Dpp16 | Variant::Dpp8 if i == 0 => {
                self.exec &= lanes::dpp(self.inst, &mut v, self.w.exec());
            }
            Variant::Sdwa => {
                let sel = if i == 0 { m.src0_sel } else { m.src1_sel };
                let sext = m.sext >> i & 1 != 0;
                for x in v.iter_mut() {
                    *x = lanes::sdwa_select(*x, sel, sext && !ty.is_float());
                }
            }
            _ => {}
        }
        if self.inst.variant == Variant::Plain && self.isa() == Isa::Gfx1030 {
            // VOP3 op_sel on 16-bit sources picks the high half.
            if matches!(ty, OperandType::B16 | OperandType::F16) && m.op_sel >> i & 1 != 0 {
                for x in v.iter_mut() {
                    *x >>= 16;
                }
            }
        }
        if (m.neg | m.abs) >> i & 1 != 0 {
            let (abs, neg) = self.sign_modifiers(i);
            let sign: u32 = if ty.element_bits() == 16 {
                0x8000
            } else {
                0x8000_0000
            };
            for x in v.iter_mut() {
                if abs {
                    *x &= !sign;
                }
                if neg {
                    *x ^= sign;
                }
            }
        }
        Ok(v)
    }

    /// Source `i` for every lane, 64 bits (VGPR pair or 64-bit scalar), with
    /// VOP3 `abs`/`neg` on bit 63.
    pub fn src64(&mut self, i: usize) -> Result<[u64; 64], Fault> {
        let (op, _) = self.operand(Self::src_field(i), 0)?;
        let mut v = self.w.read_lanes64(&op)?;
        let m = self.inst.modifiers;
        if (m.neg | m.abs) >> i & 1 != 0 {
            let (abs, neg) = self.sign_modifiers(i);
            for x in v.iter_mut() {
                if abs {
                    *x &= !(1 << 63);
                }
                if neg {
                    *x ^= 1 << 63;
                }
            }
        }
        Ok(v)
    }

    /// Source `i`'s (`abs`, `neg`) as applied: a bit counts only where LLVM's
    /// tables make it a float sign modifier for this opcode and encoding —
    /// a property of the opcode, not of the operand's type (`v_cndmask_b32`
    /// reads untyped bits and takes both; the byte source of
    /// `v_cvt_f32_ubyte0` is typed f32 for its inline constants and takes neither).
    fn sign_modifiers(&self, i: usize) -> (bool, bool) {
        let m = self.inst.modifiers;
        let takes = arch::isa::family::float_input_modifiers(self.inst, i);
        (
            takes.abs && m.abs >> i & 1 != 0,
            takes.neg && m.neg >> i & 1 != 0,
        )
    }

    /// A lane-mask source: `src2` in VOP3, the second `vcc` operand otherwise
    /// (VOP2 carry-in and `v_cndmask` condition).
    pub fn mask_in(&self) -> Result<u64, Fault> {
        let (op, _) = if self.has(Field::Src2) {
            self.operand(Field::Src2, 0)?
        } else {
            let n = usize::from(self.has(Field::Vdst) && self.vcc_count() == 2);
            self.operand(Field::Vcc, n)?
        };
        Ok(self.w.read_mask(&op)? & self.w.full_mask())
    }

    fn vcc_count(&self) -> usize {
        usize::from(self.slots[2] != u8::MAX) + usize::from(self.slots[3] != u8::MAX)
    }

    /// Writes a lane-mask result (carry-out, compare result) to `sdst`, or to
    /// the first `vcc` operand; bits of lanes not written are 0.
    pub fn write_mask_out(&mut self, mask: u64) -> Result<(), Fault> {
        let (op, _) = if self.has(Field::Sdst) {
            self.operand(Field::Sdst, 0)?
        } else {
            self.operand(Field::Vcc, 0)?
        };
        self.w.write_mask(&op, mask & self.exec)
    }

    /// The destination VGPR number.
    pub fn vdst(&self) -> Result<u16, Fault> {
        let (op, _) = self.operand(Field::Vdst, 0)?;
        match op {
            Operand::Src { code, .. } if code >= VGPR_BASE => Ok(code - VGPR_BASE),
            _ => Err(illegal(format!("{}: vdst is not a VGPR", self.inst))),
        }
    }

    /// Writes 32-bit results to the active lanes of `vdst`, applying SDWA
    /// destination selects and the 16-bit destination rules (gfx803 zeroes the
    /// high half; gfx1030 keeps the other half, `op_sel[3]` picks the high one).
    pub fn write(&mut self, r: &[u32; 64]) -> Result<(), Fault> {
        let (_, ty) = self.operand(Field::Vdst, 0)?;
        let n = self.vdst()?;
        let m = self.inst.modifiers;
        let exec = self.exec;
        let sdwa = self.inst.variant == Variant::Sdwa;
        let half = matches!(ty, OperandType::B16 | OperandType::F16) && !sdwa;
        let gfx10 = self.isa() == Isa::Gfx1030;
        let hi = gfx10 && self.inst.variant == Variant::Plain && m.op_sel & 8 != 0;
        let dst = self.w.vgpr_mut(n)?;
        if !sdwa && !half {
            // The common case: a full 32-bit result.
            if exec == u64::MAX || exec == 0xffff_ffff {
                let lanes = if exec == u64::MAX { 64 } else { 32 };
                dst[..lanes].copy_from_slice(&r[..lanes]);
            } else {
                each_lane(exec, |l| dst[l] = r[l]);
            }
            return Ok(());
        }
        each_lane(exec, |l| {
            dst[l] = if sdwa {
                lanes::sdwa_dst(dst[l], r[l], m.dst_sel, m.dst_unused)
            } else if !half {
                r[l]
            } else if !gfx10 {
                r[l] & 0xffff
            } else if hi {
                (dst[l] & 0xffff) | r[l] << 16
            } else {
                (dst[l] & 0xffff_0000) | (r[l] & 0xffff)
            };
        });
        Ok(())
    }

    /// Writes 64-bit results to the active lanes of the `vdst` pair.
    pub fn write64(&mut self, r: &[u64; 64]) -> Result<(), Fault> {
        let n = self.vdst()?;
        let exec = self.exec;
        // Check the pair exists before writing either half.
        self.w.vgpr(n + 1)?;
        let lo = self.w.vgpr_mut(n)?;
        each_lane(exec, |l| lo[l] = r[l] as u32);
        let hi = self.w.vgpr_mut(n + 1)?;
        each_lane(exec, |l| hi[l] = (r[l] >> 32) as u32);
        Ok(())
    }

    /// Applies `omod` and `clamp` to a float result (gfx803 SDWA has no omod:
    /// those bits are ignored there).
    #[inline]
    pub fn post(&self, fmt: Format, x: u64) -> u64 {
        let m = self.inst.modifiers;
        if m.omod == 0 && !m.clamp {
            return x;
        }
        let omod = if self.inst.variant == Variant::Sdwa && self.isa() == Isa::Gfx803 {
            0
        } else {
            m.omod
        };
        let mut x = x;
        if omod != 0 && !fmt.is_nan(x) {
            let n = [0, 1, 2, -1][usize::from(omod & 3)];
            x = fp::ldexp(fmt, x, n, self.fp(fmt));
        }
        if m.clamp {
            x = fp::clamp01(fmt, x);
        }
        x
    }

    /// Lane loop: `r = f(a)` over 32-bit source 0.
    pub fn map1(&mut self, f: impl Fn(u32) -> u32) -> Result<(), Fault> {
        let a = self.src(0)?;
        let mut r = [0u32; 64];
        each_lane(self.exec, |l| r[l] = f(a[l]));
        self.write(&r)
    }

    /// Lane loop: `r = f(a, b)` over 32-bit sources 0 and 1.
    pub fn map2(&mut self, f: impl Fn(u32, u32) -> u32) -> Result<(), Fault> {
        let a = self.src(0)?;
        let b = self.src(1)?;
        let mut r = [0u32; 64];
        each_lane(self.exec, |l| r[l] = f(a[l], b[l]));
        self.write(&r)
    }

    /// Lane loop: `r = f(a, b, c)` over 32-bit sources 0, 1 and 2.
    pub fn map3(&mut self, f: impl Fn(u32, u32, u32) -> u32) -> Result<(), Fault> {
        let a = self.src(0)?;
        let b = self.src(1)?;
        let c = self.src(2)?;
        let mut r = [0u32; 64];
        each_lane(self.exec, |l| r[l] = f(a[l], b[l], c[l]));
        self.write(&r)
    }

    /// Float lane loop over one source of format `fmt` (≤ 32 bits), with omod/clamp.
    pub fn fmap1(&mut self, fmt: Format, f: impl Fn(u64, FpMode) -> u64) -> Result<(), Fault> {
        let m = self.fp(fmt);
        let a = self.src(0)?;
        let mut r = [0u32; 64];
        each_lane(self.exec, |l| {
            r[l] = self.post(fmt, f(narrow(fmt, a[l]), m)) as u32;
        });
        self.write(&r)
    }

    /// Float lane loop over two sources of format `fmt` (≤ 32 bits), with omod/clamp.
    pub fn fmap2(&mut self, fmt: Format, f: impl Fn(u64, u64, FpMode) -> u64) -> Result<(), Fault> {
        let m = self.fp(fmt);
        let a = self.src(0)?;
        let b = self.src(1)?;
        let mut r = [0u32; 64];
        each_lane(self.exec, |l| {
            r[l] = self.post(fmt, f(narrow(fmt, a[l]), narrow(fmt, b[l]), m)) as u32;
        });
        self.write(&r)
    }

    /// Float lane loop over three sources of format `fmt` (≤ 32 bits), with omod/clamp.
    pub fn fmap3(
        &mut self,
        fmt: Format,
        f: impl Fn(u64, u64, u64, FpMode) -> u64,
    ) -> Result<(), Fault> {
        let m = self.fp(fmt);
        let a = self.src(0)?;
        let b = self.src(1)?;
        let c = self.src(2)?;
        let mut r = [0u32; 64];
        each_lane(self.exec, |l| {
            let x = f(narrow(fmt, a[l]), narrow(fmt, b[l]), narrow(fmt, c[l]), m);
            r[l] = self.post(fmt, x) as u32;
        });
        self.write(&r)
    }

    /// `f64` lane loop over `n` sources (1..=3), with omod/clamp.
    pub fn dmap(
        &mut self,
        n: usize,
        f: impl Fn(u64, u64, u64, FpMode) -> u64,
    ) -> Result<(), Fault> {
        let m = self.fp(fp::F64);
        let a = self.src64(0)?;
        let b = if n > 1 { self.src64(1)? } else { [0; 64] };
        let c = if n > 2 { self.src64(2)? } else { [0; 64] };
        let mut r = [0u64; 64];
        each_lane(self.exec, |l| {
            r[l] = self.post(fp::F64, f(a[l], b[l], c[l], m));
        });
        self.write64(&r)
    }

    /// Integer `clamp`: saturate instead of wrapping (gfx9+ semantics, honoured
    /// on both ISAs for the add/sub family).
    #[inline]
    pub fn clamp(&self) -> bool {
        self.inst.modifiers.clamp
    }
}
