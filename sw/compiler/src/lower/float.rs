//! Numeric conversions that involve a float: every integer type to and from
//! `float` and `double`, and `float` <-> `double` (clang-19's meaning:
//! round to nearest even into a float, toward zero into an integer).
//!
//! Integers narrower than 32 bits go through `int` (sign- or zero-extended
//! by their signedness), as clang's promotion does; float to a narrow
//! integer converts to `int` and truncates (out-of-range values are
//! undefined in OpenCL, so any result is allowed). 64-bit integers and
//! `double` reach the IR as they are: the back end expands them with
//! clang's instruction sequences.

use super::{Lowerer, R};
use crate::front::ast::BinaryOp as B;
use crate::front::diag::Loc;
use crate::front::types::Scalar;
use crate::ir::{ConvertOp, InstKind, Type, UnaryOp, Value};

impl Lowerer<'_> {
    /// `x` (a component of scalar type `fs`) converted to `ts`, where at
    /// least one of the two is a float type.
    pub(super) fn float_convert(&mut self, x: Value, fs: Scalar, ts: Scalar, loc: Loc) -> R<Value> {
        let (from, to) = (super::scalar_type(fs), super::scalar_type(ts));
        if let Some(c) = self.fconst_value(x) {
            // Folded as clang folds it (and `(float)0.5` needs no f64 code).
            if to.is_float() {
                return Ok(self.b().fconst(to, c));
            }
        }
        if fs == Scalar::Half || ts == Scalar::Half {
            return self.half_convert(x, fs, ts, loc);
        }
        let mut b = self.b();
        Ok(if fs.is_float() && ts.is_float() {
            let op = if to.bits() > from.bits() {
                ConvertOp::FpExt
            } else {
                ConvertOp::FpTrunc
            };
            b.convert(op, x, to)
        } else if ts.is_float() {
            // Integer (or bool) to float.
            let (x, signed) = if from.bits() < 32 {
                let op = if fs.is_signed() {
                    ConvertOp::Sext
                } else {
                    ConvertOp::Zext
                };
                (b.convert(op, x, Type::I32), fs.is_signed())
            } else {
                (x, fs.is_signed())
            };
            let op = if signed {
                ConvertOp::SiToFp
            } else {
                ConvertOp::UiToFp
            };
            b.convert(op, x, to)
        } else {
            // Float to integer, toward zero.
            let (op, wide) = match (ts.is_signed() || to.bits() < 32, to.bits() < 32) {
                (true, true) => (ConvertOp::FpToSi, Type::I32),
                (true, false) => (ConvertOp::FpToSi, to),
                (false, _) => (ConvertOp::FpToUi, to),
            };
            let v = b.convert(op, x, wide);
            if wide == to {
                v
            } else {
                b.convert(ConvertOp::Trunc, v, to)
            }
        })
    }

    /// `a op b` on two float constants of type `t`, folded as clang folds
    /// it (IEEE, round to nearest even, so a constant `1.0f / 3.0f` is
    /// correctly rounded whatever the division options); None when an
    /// operand is not a constant or the result is a NaN (whose payload
    /// the hardware would choose).
    pub(super) fn fold_float(&mut self, op: B, t: Type, a: Value, b: Value) -> Option<Value> {
        let (x, y) = (self.fconst_value(a)?, self.fconst_value(b)?);
        let r = match (t, op) {
            (Type::F64, B::Add) => x + y,
            (Type::F64, B::Sub) => x - y,
            (Type::F64, B::Mul) => x * y,
            (Type::F64, B::Div) => x / y,
            (Type::F32, B::Add) => f64::from(x as f32 + y as f32),
            (Type::F32, B::Sub) => f64::from(x as f32 - y as f32),
            (Type::F32, B::Mul) => f64::from(x as f32 * y as f32),
            (Type::F32, B::Div) => f64::from(x as f32 / y as f32),
            // Exact in double, then rounded once to half: the same as
            // rounding the exact result (53 >= 2 * 11 + 2 bits).
            (Type::F16, B::Add) => x + y,
            (Type::F16, B::Sub) => x - y,
            (Type::F16, B::Mul) => x * y,
            (Type::F16, B::Div) => x / y,
            _ => return None,
        };
        if r.is_nan() {
            return None;
        }
        Some(self.b().fconst(t, r))
    }

    /// `-u + b` as `b - u`, `a + -v` as `a - v` and `a - -v` as `a + v`
    /// (floats), as clang's InstCombine does at every -O: the result
    /// differs only in the sign of a NaN, which then matches clang's
    /// (`v_sub_f16` passes the NaN operand through with its own sign).
    pub(super) fn absorb_fneg(&mut self, op: B, a: Value, b: Value) -> Option<Value> {
        let neg_of = |v: Value| match self.func.def_inst(v) {
            Some(InstKind::Unary {
                op: UnaryOp::Fneg,
                arg,
            }) => Some(*arg),
            _ => None,
        };
        if !self.func.ty(a).is_float() {
            return None;
        }
        let (irop, x, y) = match (op, neg_of(a), neg_of(b)) {
            (B::Add, _, Some(v)) => (crate::ir::BinaryOp::Fsub, a, v),
            (B::Add, Some(u), None) => (crate::ir::BinaryOp::Fsub, b, u),
            (B::Sub, _, Some(v)) => (crate::ir::BinaryOp::Fadd, a, v),
            _ => return None,
        };
        Some(self.b().binary(irop, x, y))
    }

    /// `-v` for a float: a constant is negated at compile time.
    pub(super) fn fneg(&mut self, v: Value) -> Value {
        match self.fconst_value(v) {
            Some(c) => {
                let t = self.func.ty(v);
                self.b().fconst(t, -c)
            }
            None => self.b().unary(UnaryOp::Fneg, v),
        }
    }

    /// The value of a float constant (`f32` or `f64`), exactly.
    pub(super) fn fconst_value(&self, v: Value) -> Option<f64> {
        match self.func.def_inst(v)? {
            InstKind::Fconst {
                ty: Type::F32,
                bits,
            } => Some(f64::from(f32::from_bits(*bits as u32))),
            InstKind::Fconst {
                ty: Type::F64,
                bits,
            } => Some(f64::from_bits(*bits)),
            InstKind::Fconst {
                ty: Type::F16,
                bits,
            } => Some(crate::ir::half::f16_bits_to_f64(*bits as u16)),
            _ => None,
        }
    }
}
