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

use super::{unsupported, Lowerer, R};
use crate::front::diag::Loc;
use crate::front::types::Scalar;
use crate::ir::{ConvertOp, InstKind, Type, Value};

impl Lowerer<'_> {
    /// `x` (a component of scalar type `fs`) converted to `ts`, where at
    /// least one of the two is a float type.
    pub(super) fn float_convert(&mut self, x: Value, fs: Scalar, ts: Scalar, loc: Loc) -> R<Value> {
        if fs == Scalar::Half || ts == Scalar::Half {
            return unsupported(
                loc,
                format!("conversion from {} to {}", fs.name(), ts.name()),
            );
        }
        let (from, to) = (super::scalar_type(fs), super::scalar_type(ts));
        if let Some(c) = self.fconst_value(x) {
            // Folded as clang folds it (and `(float)0.5` needs no f64 code).
            if to.is_float() {
                return Ok(self.b().fconst(to, c));
            }
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
            _ => None,
        }
    }
}
