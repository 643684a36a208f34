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
        let Some(irop) = super::expr::int_binary_op(op, signed) else {
            return unsupported(loc, format!("`{}` here", op.text()));
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
            Type::F16 | Type::F32 | Type::F64 => {
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

impl Lowerer<'_> {
    /// `as_T` between element sizes (`as_uint(uchar4)`, `as_uchar4(uint)`,
    /// `as_ulong(int2)`, `as_float2(double)`): the bits of `v` (components
    /// of IR type `from`, little-endian) regrouped into components of IR
    /// type `to`, by shifts and ORs on integers.
    pub(super) fn regroup_bits(
        &mut self,
        v: &[Value],
        to: Type,
        n_to: usize,
        loc: Loc,
    ) -> R<Vec<Value>> {
        let from = match v.first() {
            Some(&x) => self.func.ty(x),
            None => return unsupported(loc, "as_T of an empty value"),
        };
        let (a, b) = (from.bits(), to.bits());
        if v.len() * a as usize != n_to * b as usize
            || !matches!(a, 8 | 16 | 32 | 64)
            || !matches!(b, 8 | 16 | 32 | 64)
        {
            return unsupported(loc, "as_T between types of different sizes");
        }
        let (ia, ib) = (Type::int_of_bits(a), Type::int_of_bits(b));
        // The components as integers of their width.
        let ints: Vec<Value> = v
            .iter()
            .map(|&x| {
                if from.is_float() {
                    self.b().convert(ConvertOp::Bitcast, x, ia)
                } else {
                    x
                }
            })
            .collect();
        let mut out = Vec::with_capacity(n_to);
        if a < b {
            let per = (b / a) as usize;
            for group in ints.chunks(per) {
                let mut acc: Option<Value> = None;
                for (j, &x) in group.iter().enumerate() {
                    // Zero-extend through 32 bits (the back end widens to 64
                    // from 32 only).
                    let mut w = x;
                    if a < 32 {
                        w = self.widen32(w, false);
                    }
                    if b == 64 {
                        w = self.b().convert(ConvertOp::Zext, w, Type::I64);
                    }
                    let part = if j == 0 {
                        w
                    } else {
                        let mut bl = self.b();
                        let st = if b == 64 { Type::I64 } else { Type::I32 };
                        let sh = bl.iconst(st, i64::from(a) * j as i64);
                        bl.binary(BinaryOp::Shl, w, sh)
                    };
                    acc = Some(match acc {
                        None => part,
                        Some(p) => self.b().binary(BinaryOp::Or, p, part),
                    });
                }
                let wide = acc.expect("a group has components");
                let narrowed = if b < 32 {
                    self.b().convert(ConvertOp::Trunc, wide, ib)
                } else {
                    wide
                };
                out.push(narrowed);
            }
        } else {
            let per = (a / b) as usize;
            for &x in &ints {
                // A `short` lives in the low bits of a 32-bit register:
                // shift it zero-extended.
                let x = if a < 32 { self.widen32(x, false) } else { x };
                let st = if a == 64 { Type::I64 } else { Type::I32 };
                for j in 0..per {
                    let mut bl = self.b();
                    let shifted = if j == 0 {
                        x
                    } else {
                        let sh = bl.iconst(st, i64::from(b) * j as i64);
                        bl.binary(BinaryOp::Lshr, x, sh)
                    };
                    // Narrow through 32 bits (the back end truncates 64 to 32 only).
                    let mut p = shifted;
                    if a == 64 {
                        p = bl.convert(ConvertOp::Trunc, p, Type::I32);
                    }
                    if b < 32 {
                        p = bl.convert(ConvertOp::Trunc, p, ib);
                    }
                    out.push(p);
                }
            }
        }
        if to.is_float() {
            for x in &mut out {
                *x = self.b().convert(ConvertOp::Bitcast, *x, to);
            }
        }
        Ok(out)
    }
}
