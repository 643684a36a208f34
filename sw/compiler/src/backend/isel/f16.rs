//! Instruction selection: `half` (cl_khr_fp16) on the gfx1030 VALU's
//! 16-bit float instructions. A `half` lives in the low 16 bits of a
//! VGPR (the high bits unspecified, as for `char`/`short`); every f16
//! instruction reads only the low half of its sources. The sequences are
//! clang-19's for the same LLVM operations, so the bits agree:
//! `v_add/sub/mul/min/max_f16`, `v_fma_f16` for a contracted `a * b + c`,
//! `v_cmp_*_f16`, `v_cvt_f32_f16`/`v_cvt_f16_f32`, negation and `fabs` as
//! sign-bit operations, and division as LLVM's `LowerFDIV16`: the
//! quotient `x * rcp((float)y)` formed in f32 by `v_fma_mixlo_f16` (one
//! rounding to half) and fixed up by `v_div_fixup_f16` for zeros,
//! infinities and NaN.

use arch::isa::{Family, Opcode};

use super::{Isel, Loc};
use crate::backend::minst::{MInst, MOp, RegClass, VReg};
use crate::backend::BackendError;
use crate::ir::*;

fn vcmp_f16(cc: FloatCC) -> Opcode {
    match cc {
        FloatCC::Oeq => Opcode::V_CMP_EQ_F16,
        FloatCC::Une => Opcode::V_CMP_NEQ_F16,
        FloatCC::Olt => Opcode::V_CMP_LT_F16,
        FloatCC::Ole => Opcode::V_CMP_LE_F16,
        FloatCC::Ogt => Opcode::V_CMP_GT_F16,
        FloatCC::Oge => Opcode::V_CMP_GE_F16,
    }
}

fn unsupported(what: String) -> BackendError {
    BackendError::Unsupported(format!("{what} is not supported by the back end yet"))
}

impl Isel<'_> {
    /// Selects `i` when it computes on a `half` or converts between `half`
    /// and `float`; false when it is not such an instruction.
    pub(in crate::backend) fn lower_f16(&mut self, i: Inst) -> Result<bool, BackendError> {
        let data = self.f.inst(i);
        let (kind, result) = (data.kind.clone(), data.result);
        let Some(r) = result else {
            return Ok(false);
        };
        let half = self.f.ty(r) == Type::F16;
        match kind {
            InstKind::Binary { op, args } if half => self.binary_f16(r, op, args)?,
            InstKind::Unary { op, arg } if half => {
                let d = self.f16_dst(r);
                let (o, k) = match op {
                    UnaryOp::Fneg => (Opcode::V_XOR_B32, 0x8000),
                    UnaryOp::Fabs => (Opcode::V_AND_B32, 0x7fff),
                    _ => return Err(unsupported(format!("{} on half", op.name()))),
                };
                let x = self.src(arg)?;
                self.vop2(o, d, MOp::Imm(k), x, true);
            }
            InstKind::Ternary {
                op: TernaryOp::Fma,
                args,
            } if half => {
                let d = self.f16_dst(r);
                let s = [self.src(args[0])?, self.src(args[1])?, self.src(args[2])?];
                self.vop3(Opcode::V_FMA_F16, &[d, s[0], s[1], s[2]]);
            }
            InstKind::Ternary { op, .. } if half => {
                return Err(unsupported(format!("{} on half", op.name())))
            }
            InstKind::Fcmp { cond, args } if self.f.ty(args[0]) == Type::F16 => {
                let m = match self.def_loc(r) {
                    Loc::Mask(m) => m,
                    _ => {
                        let m = self.new_mask();
                        self.locs[r.index()] = Some(Loc::Mask(m));
                        m
                    }
                };
                let (x, y) = (self.src(args[0])?, self.src(args[1])?);
                self.vop3(vcmp_f16(cond), &[MOp::Reg(m, 0), x, y]);
            }
            InstKind::Convert { op, arg, to } if half || self.f.ty(arg) == Type::F16 => {
                let from = self.f.ty(arg);
                let o = match (op, from, to) {
                    (ConvertOp::FpExt, Type::F16, Type::F32) => Opcode::V_CVT_F32_F16,
                    (ConvertOp::FpTrunc, Type::F32, Type::F16) => Opcode::V_CVT_F16_F32,
                    // Bits only (`as_half`, the double -> half expansion).
                    (ConvertOp::Bitcast, _, _) => return Ok(false),
                    _ => return Err(unsupported(op.opencl(from, to))),
                };
                let d = self.f16_dst(r);
                let x = self.src(arg)?;
                self.vop1(o, d, x);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The VGPR a `half` (or a float converted from one) is defined into.
    fn f16_dst(&mut self, r: Value) -> MOp {
        match self.def_loc(r) {
            Loc::V(d) => MOp::Reg(d, 0),
            _ => {
                let d = self.mc.vreg(RegClass::Vgpr, 1);
                self.locs[r.index()] = Some(Loc::V(d));
                MOp::Reg(d, 0)
            }
        }
    }

    fn binary_f16(
        &mut self,
        r: Value,
        op: BinaryOp,
        [a, b]: [Value; 2],
    ) -> Result<(), BackendError> {
        let d = self.f16_dst(r);
        let (x, y) = (self.src(a)?, self.src(b)?);
        let (o, commutes) = match op {
            BinaryOp::Fadd => (Opcode::V_ADD_F16, true),
            BinaryOp::Fsub => (Opcode::V_SUB_F16, false),
            BinaryOp::Fmul => (Opcode::V_MUL_F16, true),
            BinaryOp::Fmin => (Opcode::V_MIN_F16, true),
            BinaryOp::Fmax => (Opcode::V_MAX_F16, true),
            BinaryOp::Fdiv => {
                let (x, y) = (self.in_vgpr(x), self.in_vgpr(y));
                self.fdiv_f16(d, x, y);
                return Ok(());
            }
            _ => return Err(unsupported(format!("{} on half", op.opencl()))),
        };
        self.vop2(o, d, x, y, commutes);
        Ok(())
    }

    /// `d = x / y` on halves in VGPRs, clang-19's sequence.
    fn fdiv_f16(&mut self, d: MOp, x: MOp, y: MOp) {
        let fresh = |s: &mut Self| -> VReg { s.mc.vreg(RegClass::Vgpr, 1) };
        let yf = fresh(self);
        self.vop1(Opcode::V_CVT_F32_F16, MOp::Reg(yf, 0), y);
        let rcp = fresh(self);
        self.vop1(Opcode::V_RCP_F32, MOp::Reg(rcp, 0), MOp::Reg(yf, 0));
        // q = half(fma((float)x, rcp, 0)): source 0 is a half
        // (op_sel_hi bit 0), sources 1 and 2 floats.
        let q = fresh(self);
        let mut mi = MInst::new(
            Opcode::V_FMA_MIXLO_F16,
            Family::Vop3p,
            1,
            &[MOp::Reg(q, 0), x, MOp::Reg(rcp, 0), MOp::Imm(0)],
        );
        mi.modifiers.op_sel_hi = 0b001;
        self.mc.push(mi);
        self.vop3(Opcode::V_DIV_FIXUP_F16, &[d, MOp::Reg(q, 0), y, x]);
    }
}
