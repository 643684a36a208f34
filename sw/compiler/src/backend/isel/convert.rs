//! Instruction selection: conversions between integer and float types
//! and widths.

use arch::isa::{Family, Opcode};

use super::{Isel, Loc};
use crate::backend::minst::{MOp, RegClass};
use crate::backend::BackendError;
use crate::ir::*;

impl Isel<'_> {
    /// `r = op(a)` converted to `to` (integer widths, integer↔float, float widths).
    pub(super) fn convert(
        &mut self,
        r: Value,
        op: ConvertOp,
        a: Value,
        to: Type,
    ) -> Result<(), BackendError> {
        let from = self.f.ty(a);
        let l = self.def_loc(r);
        let d = match l {
            Loc::S(d) | Loc::V(d) | Loc::SBool(d) | Loc::Mask(d) => d,
            Loc::Const(..) => unreachable!(),
        };
        let is_v = matches!(l, Loc::V(_));
        match op {
            ConvertOp::Zext | ConvertOp::Sext if from == Type::I1 => {
                let one = if op == ConvertOp::Zext { 1 } else { u32::MAX };
                if is_v {
                    let m = self.mask(a)?;
                    self.vop3(
                        Opcode::V_CNDMASK_B32,
                        &[MOp::Reg(d, 0), MOp::Imm(0), MOp::Imm(one), MOp::Reg(m, 0)],
                    );
                } else {
                    let c = self.sbool(a)?;
                    self.push(
                        Opcode::S_CMP_LG_U32,
                        Family::Sopc,
                        0,
                        &[MOp::Reg(c, 0), MOp::Imm(0)],
                    );
                    self.push(
                        Opcode::S_CSELECT_B32,
                        Family::Sop2,
                        1,
                        &[MOp::Reg(d, 0), MOp::Imm(one), MOp::Imm(0)],
                    );
                }
                if to.bits() == 64 {
                    let hi = if op == ConvertOp::Zext {
                        MOp::Imm(0)
                    } else {
                        MOp::Reg(d, 0)
                    };
                    self.mov(is_v, MOp::Reg(d, 1), hi);
                }
            }
            ConvertOp::Zext | ConvertOp::Sext if to.bits() == 64 && from.bits() == 32 => {
                let lo = self.src_part(a, 0)?;
                self.mov(is_v, MOp::Reg(d, 0), lo);
                if op == ConvertOp::Zext {
                    self.mov(is_v, MOp::Reg(d, 1), MOp::Imm(0));
                } else if is_v {
                    self.vop2(
                        Opcode::V_ASHRREV_I32,
                        MOp::Reg(d, 1),
                        MOp::Imm(31),
                        lo,
                        false,
                    );
                } else {
                    self.sop2(Opcode::S_ASHR_I32, MOp::Reg(d, 1), lo, MOp::Imm(31));
                }
            }
            // i8 -> i16 too: a narrow value lives in a 32-bit register,
            // extended to 32 bits, so the wider narrow type is the same bits.
            ConvertOp::Zext | ConvertOp::Sext
                if matches!(from, Type::I8 | Type::I16) && to.bits() <= 32 =>
            {
                let x = self.src(a)?;
                let bits = from.bits();
                match (op, is_v) {
                    (ConvertOp::Zext, true) => self.vop2(
                        Opcode::V_AND_B32,
                        MOp::Reg(d, 0),
                        MOp::Imm((1 << bits) - 1),
                        x,
                        true,
                    ),
                    (ConvertOp::Zext, false) => self.sop2(
                        Opcode::S_AND_B32,
                        MOp::Reg(d, 0),
                        x,
                        MOp::Imm((1 << bits) - 1),
                    ),
                    (_, true) => self.vop3(
                        Opcode::V_BFE_I32,
                        &[MOp::Reg(d, 0), x, MOp::Imm(0), MOp::Imm(bits)],
                    ),
                    (_, false) => {
                        let o = if bits == 8 {
                            Opcode::S_SEXT_I32_I8
                        } else {
                            Opcode::S_SEXT_I32_I16
                        };
                        self.push(o, Family::Sop1, 1, &[MOp::Reg(d, 0), x]);
                    }
                }
            }
            ConvertOp::Trunc if to.bits() <= 32 && to != Type::I1 && from.bits() <= 32 => {
                let x = self.src(a)?;
                self.mov(is_v, MOp::Reg(d, 0), x);
            }
            ConvertOp::Trunc if to.bits() <= 32 && to != Type::I1 => {
                let lo = self.src_part(a, 0)?;
                self.mov(is_v, MOp::Reg(d, 0), lo);
            }
            ConvertOp::Bitcast if to.bits() == 64 => {
                // i64 <-> 64-bit pointer: the same two dwords.
                for k in 0..2 {
                    let x = self.src_part(a, k)?;
                    if is_v {
                        self.vop1(Opcode::V_MOV_B32, MOp::Reg(d, k), x);
                    } else if self.is_vgpr(x) {
                        self.push(
                            Opcode::V_READFIRSTLANE_B32,
                            Family::Vop1,
                            1,
                            &[MOp::Reg(d, k), x],
                        );
                    } else {
                        self.push(Opcode::S_MOV_B32, Family::Sop1, 1, &[MOp::Reg(d, k), x]);
                    }
                }
            }
            ConvertOp::Bitcast if matches!(to.bits(), 16 | 32) => {
                let x = self.src(a)?;
                if is_v {
                    self.vop1(Opcode::V_MOV_B32, MOp::Reg(d, 0), x);
                } else if self.is_vgpr(x) {
                    self.readfirstlane(d, x);
                } else {
                    self.push(Opcode::S_MOV_B32, Family::Sop1, 1, &[MOp::Reg(d, 0), x]);
                }
            }
            ConvertOp::SiToFp | ConvertOp::UiToFp | ConvertOp::FpToSi | ConvertOp::FpToUi
                if from.bits() == 32 && to.bits() == 32 =>
            {
                let o = match op {
                    ConvertOp::SiToFp => Opcode::V_CVT_F32_I32,
                    ConvertOp::UiToFp => Opcode::V_CVT_F32_U32,
                    ConvertOp::FpToSi => Opcode::V_CVT_I32_F32,
                    _ => Opcode::V_CVT_U32_F32,
                };
                let x = self.src(a)?;
                if is_v {
                    self.vop1(o, MOp::Reg(d, 0), x);
                } else {
                    let t = self.mc.vreg(RegClass::Vgpr, 1);
                    self.vop1(o, MOp::Reg(t, 0), x);
                    self.readfirstlane(d, MOp::Reg(t, 0));
                }
            }
            _ => {
                return Err(BackendError::Unsupported(format!(
                    "{} is not supported by the back end yet",
                    op.opencl(from, to)
                )))
            }
        }
        Ok(())
    }
}
