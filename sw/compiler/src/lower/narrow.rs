//! `char` and `short` arithmetic (`char4 + char4`, `short2 * short2`,
//! `ch++` on a `char`): the hardware has no 8- or 16-bit ALU operations
//! gpusim selects, so each operation is done in 32 bits on operands
//! extended by their signedness and the result truncated back — what
//! clang's type legalisation does for gfx1030. Scalar `char`/`short`
//! operands are promoted to `int` by C's rules already; vectors are not
//! (OpenCL 6.3), and neither is the update of `++`/`--`.

use super::{unsupported, Lowerer, R};
use crate::front::ast::BinaryOp as B;
use crate::front::diag::Loc;
use crate::front::types::Scalar;
use crate::ir::{BinaryOp, ConvertOp, Type, Value};

impl Lowerer<'_> {
    /// `x` (an `i8` or `i16`) extended to `i32` by `signed`.
    pub(super) fn widen32(&mut self, x: Value, signed: bool) -> Value {
        let op = if signed {
            ConvertOp::Sext
        } else {
            ConvertOp::Zext
        };
        self.b().convert(op, x, Type::I32)
    }

    /// `a op b` on `char`/`short` components of scalar type `s` (C's
    /// wrap-around on the type's width; the shift count is taken modulo
    /// the width, as OpenCL says).
    pub(super) fn narrow_binary(
        &mut self,
        op: B,
        s: Scalar,
        a: Value,
        b: Value,
        loc: Loc,
    ) -> R<Value> {
        let t = super::scalar_type(s);
        let signed = s.is_signed();
        let (x, y) = (self.widen32(a, signed), self.widen32(b, signed));
        let irop = match op {
            B::Add => BinaryOp::Iadd,
            B::Sub => BinaryOp::Isub,
            B::Mul => BinaryOp::Imul,
            B::Div if signed => BinaryOp::Sdiv,
            B::Div => BinaryOp::Udiv,
            B::Rem if signed => BinaryOp::Srem,
            B::Rem => BinaryOp::Urem,
            B::Shl => BinaryOp::Shl,
            B::Shr if signed => BinaryOp::Ashr,
            B::Shr => BinaryOp::Lshr,
            B::BitAnd => BinaryOp::And,
            B::BitOr => BinaryOp::Or,
            B::BitXor => BinaryOp::Xor,
            _ => return unsupported(loc, format!("`{}` here", op.text())),
        };
        let mut bld = self.b();
        let y = if matches!(op, B::Shl | B::Shr) {
            let m = bld.iconst(Type::I32, i64::from(t.bits() - 1));
            bld.binary(BinaryOp::And, y, m)
        } else {
            y
        };
        let r = bld.binary(irop, x, y);
        Ok(bld.convert(ConvertOp::Trunc, r, t))
    }

    /// `x ± 1` for `++`/`--` on a component of IR type `t` (`s` its
    /// OpenCL scalar).
    pub(super) fn step_one(&mut self, x: Value, t: Type, s: Scalar, inc: bool) -> R<Value> {
        let mut b = self.b();
        Ok(match t {
            Type::F32 | Type::F64 => {
                let one = b.fconst(t, 1.0);
                let op = if inc { BinaryOp::Fadd } else { BinaryOp::Fsub };
                b.binary(op, x, one)
            }
            Type::I32 | Type::I64 => {
                let one = b.iconst(t, 1);
                let op = if inc { BinaryOp::Iadd } else { BinaryOp::Isub };
                b.binary(op, x, one)
            }
            _ => {
                let one = self.b().iconst(t, 1);
                let op = if inc { B::Add } else { B::Sub };
                return self.narrow_binary(op, s, x, one, Loc::default());
            }
        })
    }
}
