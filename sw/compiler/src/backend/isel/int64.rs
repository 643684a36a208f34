//! Instruction selection: 64-bit integers (`long`/`ulong`) as
//! register pairs, low dword first. Every operation runs on the VALU —
//! `v_add_co_u32` + `v_add_co_ci_u32`, `v_lshlrev_b64`, the 64-bit
//! `v_cmp_*_u64/i64` — and a uniform result is read back from the first
//! active lane (all lanes hold the same value), which keeps one selection
//! per operation instead of a SALU and a VALU one.

use arch::isa::{Family, Opcode};

use super::{Isel, Loc};
use crate::backend::minst::{special, MOp, RegClass, VReg};
use crate::backend::BackendError;
use crate::ir::*;

fn unsupported(what: String) -> BackendError {
    BackendError::Unsupported(what)
}

/// The 64-bit VALU comparison for `cc`.
fn vcmp64(cc: IntCC) -> Opcode {
    match cc {
        IntCC::Eq => Opcode::V_CMP_EQ_U64,
        IntCC::Ne => Opcode::V_CMP_NE_U64,
        IntCC::Slt => Opcode::V_CMP_LT_I64,
        IntCC::Sle => Opcode::V_CMP_LE_I64,
        IntCC::Sgt => Opcode::V_CMP_GT_I64,
        IntCC::Sge => Opcode::V_CMP_GE_I64,
        IntCC::Ult => Opcode::V_CMP_LT_U64,
        IntCC::Ule => Opcode::V_CMP_LE_U64,
        IntCC::Ugt => Opcode::V_CMP_GT_U64,
        IntCC::Uge => Opcode::V_CMP_GE_U64,
    }
}

impl Isel<'_> {
    /// A 64-bit operand: the value's register pair, or a constant moved
    /// into a VGPR pair (64-bit literals cannot be encoded).
    fn pair(&mut self, v: Value) -> Result<MOp, BackendError> {
        match self.loc(v)? {
            Loc::S(r) | Loc::V(r) => Ok(MOp::Reg(r, 0)),
            _ => {
                let t = self.mc.vreg(RegClass::Vgpr, 2);
                for k in 0..2 {
                    let s = self.src_part(v, k)?;
                    self.vop1(Opcode::V_MOV_B32, MOp::Reg(t, k), s);
                }
                Ok(MOp::Reg(t, 0))
            }
        }
    }

    /// Where a 64-bit result is computed: its own VGPR pair, or a
    /// temporary pair when it is uniform (copied to its SGPRs by
    /// [`Isel::finish_wide`]).
    fn wide_dst(&mut self, r: Value) -> (VReg, Option<VReg>) {
        match self.dst(r) {
            (Loc::V(d), _) => (d, None),
            (_, s) => (self.mc.vreg(RegClass::Vgpr, 2), Some(s)),
        }
    }

    fn finish_wide(&mut self, v: VReg, s: Option<VReg>) {
        if let Some(s) = s {
            for k in 0..2 {
                self.readfirstlane_part(s, k, MOp::Reg(v, k));
            }
        }
    }

    fn readfirstlane_part(&mut self, s: VReg, k: u8, src: MOp) {
        self.push(
            Opcode::V_READFIRSTLANE_B32,
            Family::Vop1,
            1,
            &[MOp::Reg(s, k), src],
        );
    }

    /// `r = op(a, b)` on `i64`.
    pub(in crate::backend) fn binary64(
        &mut self,
        r: Value,
        op: BinaryOp,
        [a, b]: [Value; 2],
    ) -> Result<(), BackendError> {
        let (d, s) = self.wide_dst(r);
        let (d0, d1) = (MOp::Reg(d, 0), MOp::Reg(d, 1));
        let vcc = MOp::Phys(special::VCC);
        match op {
            BinaryOp::Iadd | BinaryOp::Isub => {
                let (x0, x1) = (self.src_part(a, 0)?, self.src_part(a, 1)?);
                let (y0, y1) = (self.src_part(b, 0)?, self.src_part(b, 1)?);
                let (lo, hi) = if op == BinaryOp::Iadd {
                    (Opcode::V_ADD_CO_U32, Opcode::V_ADD_CO_CI_U32)
                } else {
                    (Opcode::V_SUB_CO_U32, Opcode::V_SUB_CO_CI_U32)
                };
                self.vop3_defs(lo, 2, &[d0, vcc, x0, y0]);
                // The carry-in form's src1 must be a VGPR; src0 may be anything.
                let y1 = self.in_vgpr(y1);
                self.push(hi, Family::Vop2, 2, &[d1, vcc, x1, y1, vcc]);
            }
            BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => {
                let o = match op {
                    BinaryOp::And => Opcode::V_AND_B32,
                    BinaryOp::Or => Opcode::V_OR_B32,
                    _ => Opcode::V_XOR_B32,
                };
                for k in 0..2 {
                    let (x, y) = (self.src_part(a, k)?, self.src_part(b, k)?);
                    self.vop2(o, MOp::Reg(d, k), x, y, true);
                }
            }
            BinaryOp::Shl | BinaryOp::Lshr | BinaryOp::Ashr => {
                let o = match op {
                    BinaryOp::Shl => Opcode::V_LSHLREV_B64,
                    BinaryOp::Lshr => Opcode::V_LSHRREV_B64,
                    _ => Opcode::V_ASHRREV_I64,
                };
                // The hardware takes the amount modulo 64, as OpenCL defines.
                let amount = self.src_part(b, 0)?;
                let x = self.pair(a)?;
                self.vop3(o, &[d0, amount, x]);
            }
            BinaryOp::Imul => {
                // lo(a) * lo(b) in full, plus the two cross products in the
                // high dword (the high * high product is beyond 64 bits).
                let (x0, x1) = (self.src_part(a, 0)?, self.src_part(a, 1)?);
                let (y0, y1) = (self.src_part(b, 0)?, self.src_part(b, 1)?);
                let t = self.mc.vreg(RegClass::Vgpr, 3);
                self.vop3(Opcode::V_MUL_HI_U32, &[MOp::Reg(t, 0), x0, y0]);
                self.vop3(Opcode::V_MUL_LO_U32, &[MOp::Reg(t, 1), x0, y1]);
                self.vop3(Opcode::V_MUL_LO_U32, &[MOp::Reg(t, 2), x1, y0]);
                self.vop3(Opcode::V_MUL_LO_U32, &[d0, x0, y0]);
                self.vop3(
                    Opcode::V_ADD3_U32,
                    &[d1, MOp::Reg(t, 0), MOp::Reg(t, 1), MOp::Reg(t, 2)],
                );
            }
            BinaryOp::Smin | BinaryOp::Smax | BinaryOp::Umin | BinaryOp::Umax => {
                let cc = match op {
                    BinaryOp::Smin => IntCC::Slt,
                    BinaryOp::Smax => IntCC::Sgt,
                    BinaryOp::Umin => IntCC::Ult,
                    _ => IntCC::Ugt,
                };
                let m = self.new_mask();
                let (x, y) = (self.pair(a)?, self.pair(b)?);
                self.vop3(vcmp64(cc), &[MOp::Reg(m, 0), x, y]);
                for k in 0..2 {
                    let (x, y) = (self.src_part(a, k)?, self.src_part(b, k)?);
                    self.vop3(
                        Opcode::V_CNDMASK_B32,
                        &[MOp::Reg(d, k), y, x, MOp::Reg(m, 0)],
                    );
                }
            }
            _ => {
                return Err(unsupported(format!(
                    "{} on long is not supported by the back end yet",
                    op.opencl()
                )))
            }
        }
        self.finish_wide(d, s);
        Ok(())
    }

    /// `r = op(a)` on `i64`.
    pub(in crate::backend) fn unary64(
        &mut self,
        r: Value,
        op: UnaryOp,
        a: Value,
    ) -> Result<(), BackendError> {
        let (d, s) = self.wide_dst(r);
        match op {
            UnaryOp::Not => {
                for k in 0..2 {
                    let x = self.src_part(a, k)?;
                    self.vop1(Opcode::V_NOT_B32, MOp::Reg(d, k), x);
                }
            }
            UnaryOp::Ineg => {
                let vcc = MOp::Phys(special::VCC);
                let (x0, x1) = (self.src_part(a, 0)?, self.src_part(a, 1)?);
                self.vop3_defs(
                    Opcode::V_SUB_CO_U32,
                    2,
                    &[MOp::Reg(d, 0), vcc, MOp::Imm(0), x0],
                );
                let x1 = self.in_vgpr(x1);
                self.push(
                    Opcode::V_SUB_CO_CI_U32,
                    Family::Vop2,
                    2,
                    &[MOp::Reg(d, 1), vcc, MOp::Imm(0), x1, vcc],
                );
            }
            _ => {
                return Err(unsupported(format!(
                    "{} on long is not supported by the back end yet",
                    op.opencl()
                )))
            }
        }
        self.finish_wide(d, s);
        Ok(())
    }

    /// `r = a cc b` on `i64`: a lane mask, or for a uniform `r` the mask
    /// tested against zero (every active lane agrees).
    pub(in crate::backend) fn icmp64(
        &mut self,
        r: Value,
        cc: IntCC,
        [a, b]: [Value; 2],
    ) -> Result<(), BackendError> {
        let (x, y) = (self.pair(a)?, self.pair(b)?);
        match self.def_loc(r) {
            Loc::Mask(m) => self.vop3(vcmp64(cc), &[MOp::Reg(m, 0), x, y]),
            Loc::SBool(d) => {
                let m = self.new_mask();
                self.vop3(vcmp64(cc), &[MOp::Reg(m, 0), x, y]);
                let test = if self.opts.wave64 {
                    Opcode::S_CMP_LG_U64
                } else {
                    Opcode::S_CMP_LG_U32
                };
                self.push(test, Family::Sopc, 0, &[MOp::Reg(m, 0), MOp::Imm(0)]);
                self.push(
                    Opcode::S_CSELECT_B32,
                    Family::Sop2,
                    1,
                    &[MOp::Reg(d, 0), MOp::Imm(1), MOp::Imm(0)],
                );
            }
            l => return Err(BackendError::Internal(format!("icmp into {l:?}"))),
        }
        Ok(())
    }
}
