//! Program-scope variables (`__constant float w[5] = {…};`, `__constant
//! int4 t = (int4)(…);`, arrays of structs): their initial bytes, computed
//! at compile time as clang's constant evaluator does, become a
//! [`ir::DataObject`] of the kernel; a use of the variable is memory at
//! [`ir::InstKind::DataAddr`], which the back end computes PC-relatively
//! and the code-object writer places in `.rodata` (clang's layout).
//!
//! A writable `__global` program-scope variable (OpenCL 2.0) is the same
//! with a `ptr.global` address, placed in the code object's `.data` (the
//! read-write segment), part of the loaded program's image.

use super::{Lowerer, R};
use crate::front::ast::BinaryOp as B;
use crate::front::diag::Loc;
use crate::front::tast::{CastKind, Expr, ExprKind, GlobalId, Init, UnaryOp};
use crate::front::types::{AddrSpace, Records, Scalar, Type};
use crate::ir;

/// One component of a constant: an integer (its mathematical value in
/// the type's range) or a floating value (already rounded to its type).
#[derive(Clone, Copy, Debug, PartialEq)]
enum C {
    Int(i128),
    Flt(f64),
}

/// `x` rounded to floating type `s` (round to nearest even).
fn round(s: Scalar, x: f64) -> Option<f64> {
    match s {
        Scalar::Float => Some(f64::from(x as f32)),
        Scalar::Double => Some(x),
        _ => None,
    }
}

/// The components of constant expression `e` (None: not a constant gpusim
/// evaluates).
fn eval(e: &Expr) -> Option<Vec<C>> {
    let s = e.ty.elem_scalar()?;
    let width = e.ty.width().max(1) as usize;
    Some(match &e.kind {
        ExprKind::IntConst(bits) => vec![C::Int(s.wrap(i128::from(*bits)))],
        ExprKind::FloatConst(x) => vec![C::Flt(*x)],
        ExprKind::VectorLiteral(parts) => {
            let mut out = Vec::new();
            for p in parts {
                out.extend(eval(p)?);
            }
            out
        }
        ExprKind::Cast(kind, a) => {
            let v = eval(a)?;
            match kind {
                CastKind::Splat => vec![v[0]; width],
                CastKind::IntToInt | CastKind::ToBool => v
                    .iter()
                    .map(|c| match c {
                        C::Int(i) => Some(C::Int(s.wrap(*i))),
                        C::Flt(x) => Some(C::Int(i128::from(*x != 0.0))),
                    })
                    .collect::<Option<_>>()?,
                CastKind::IntToFloat | CastKind::FloatToFloat => v
                    .iter()
                    .map(|c| match c {
                        C::Int(i) => round(
                            s,
                            if s == Scalar::Float {
                                f64::from(*i as f32)
                            } else {
                                *i as f64
                            },
                        )
                        .map(C::Flt),
                        C::Flt(x) => round(s, *x).map(C::Flt),
                    })
                    .collect::<Option<_>>()?,
                CastKind::FloatToInt => v
                    .iter()
                    .map(|c| match c {
                        // Out of range is undefined in C; NaN gives 0 here.
                        C::Flt(x) if x.is_finite() => Some(C::Int(s.wrap(x.trunc() as i128))),
                        _ => None,
                    })
                    .collect::<Option<_>>()?,
                _ => return None,
            }
        }
        ExprKind::Unary(op, a) => {
            let v = eval(a)?;
            v.iter()
                .map(|c| match (op, *c) {
                    (UnaryOp::Neg, C::Int(i)) => Some(C::Int(s.wrap(-i))),
                    (UnaryOp::Neg, C::Flt(x)) => Some(C::Flt(-x)),
                    (UnaryOp::BitNot, C::Int(i)) => Some(C::Int(s.wrap(!i))),
                    (UnaryOp::LogNot, C::Int(i)) if width == 1 => Some(C::Int(i128::from(i == 0))),
                    (UnaryOp::LogNot, C::Flt(x)) if width == 1 => {
                        Some(C::Int(i128::from(x == 0.0)))
                    }
                    _ => None,
                })
                .collect::<Option<_>>()?
        }
        ExprKind::Binary(op, a, b) => {
            let (x, y) = (eval(a)?, eval(b)?);
            let os = a.ty.elem_scalar()?;
            let vector = width > 1;
            x.iter()
                .zip(&y)
                .map(|(&p, &q)| binary(*op, s, os, vector, p, q))
                .collect::<Option<_>>()?
        }
        ExprKind::Cond { cond, then, els } if cond.ty.width() <= 1 => {
            let c = eval(cond)?;
            let t = match c[0] {
                C::Int(i) => i != 0,
                C::Flt(x) => x != 0.0,
            };
            eval(if t { then } else { els })?
        }
        _ => return None,
    })
}

/// `p op q` in operand type `os`, result type `s` (comparisons give 1 or,
/// component-wise on vectors, -1 for true).
fn binary(op: B, s: Scalar, os: Scalar, vector: bool, p: C, q: C) -> Option<C> {
    let truth = |t: bool| {
        C::Int(if t {
            if vector {
                -1
            } else {
                1
            }
        } else {
            0
        })
    };
    Some(match (p, q) {
        (C::Int(a), C::Int(b)) => {
            let bits = 8 * os.size() as i128;
            match op {
                B::Add => C::Int(s.wrap(a + b)),
                B::Sub => C::Int(s.wrap(a - b)),
                B::Mul => C::Int(s.wrap(a.wrapping_mul(b))),
                B::Div if b != 0 => C::Int(s.wrap(a / b)),
                B::Rem if b != 0 => C::Int(s.wrap(a % b)),
                // OpenCL: the shift count is taken modulo the width.
                B::Shl => C::Int(s.wrap(a << (b.rem_euclid(bits)))),
                B::Shr => C::Int(s.wrap(a >> (b.rem_euclid(bits)))),
                B::BitAnd => C::Int(s.wrap(a & b)),
                B::BitOr => C::Int(s.wrap(a | b)),
                B::BitXor => C::Int(s.wrap(a ^ b)),
                B::Lt => truth(a < b),
                B::Gt => truth(a > b),
                B::Le => truth(a <= b),
                B::Ge => truth(a >= b),
                B::Eq => truth(a == b),
                B::Ne => truth(a != b),
                B::LogAnd => truth(a != 0 && b != 0),
                B::LogOr => truth(a != 0 || b != 0),
                _ => return None,
            }
        }
        (C::Flt(a), C::Flt(b)) => {
            // Each operation rounded in its own type, no contraction.
            let f = |v: f64| round(os, v).map(C::Flt);
            let single = os == Scalar::Float;
            let (a32, b32) = (a as f32, b as f32);
            match op {
                B::Add if single => f(f64::from(a32 + b32))?,
                B::Sub if single => f(f64::from(a32 - b32))?,
                B::Mul if single => f(f64::from(a32 * b32))?,
                B::Div if single => f(f64::from(a32 / b32))?,
                B::Add => f(a + b)?,
                B::Sub => f(a - b)?,
                B::Mul => f(a * b)?,
                B::Div => f(a / b)?,
                B::Lt => truth(a < b),
                B::Gt => truth(a > b),
                B::Le => truth(a <= b),
                B::Ge => truth(a >= b),
                B::Eq => truth(a == b),
                B::Ne => truth(a != b),
                _ => return None,
            }
        }
        _ => return None,
    })
}

/// Writes the scalar `c` of type `s` at `out[at..]`.
fn put(out: &mut [u8], at: usize, s: Scalar, c: C) -> Option<()> {
    let n = s.size() as usize;
    let bytes: Vec<u8> = match (s, c) {
        (Scalar::Float, C::Flt(x)) => (x as f32).to_le_bytes().to_vec(),
        (Scalar::Double, C::Flt(x)) => x.to_le_bytes().to_vec(),
        (Scalar::Half, _) => return None,
        (_, C::Int(i)) => i.to_le_bytes()[..n].to_vec(),
        _ => return None,
    };
    out.get_mut(at..at + n)?.copy_from_slice(&bytes);
    Some(())
}

/// Writes initializer `init` of an object of type `ty` at `out[at..]`;
/// the error is the location and what is not a constant.
pub(super) fn write_init(
    records: &Records,
    ty: &Type,
    init: &Init,
    out: &mut [u8],
    at: usize,
) -> Result<(), (Loc, &'static str)> {
    match (init, ty) {
        (Init::Zero, _) => Ok(()),
        (Init::List(items), Type::Array(elem, _)) => {
            let stride = records.size_of(elem) as usize;
            for (k, it) in items.iter().enumerate() {
                write_init(records, elem, it, out, at + k * stride)?;
            }
            Ok(())
        }
        (Init::List(items), Type::Record(r)) => {
            for (it, f) in items.iter().zip(&records.get(*r).fields) {
                write_init(records, &f.ty, it, out, at + f.offset as usize)?;
            }
            Ok(())
        }
        (Init::Expr(e), Type::Scalar(s) | Type::Vector(s, _)) => {
            let what = "a value computed at run time";
            let v = eval(e).ok_or((e.loc, what))?;
            let stride = s.size() as usize;
            for (k, &c) in v.iter().enumerate() {
                put(out, at + k * stride, *s, c).ok_or((e.loc, what))?;
            }
            Ok(())
        }
        (Init::Expr(e), Type::Pointer(_)) => Err((e.loc, "an address")),
        (Init::Expr(e), _) => Err((e.loc, "a struct or array copied from another object")),
        (Init::List(_), _) => Err((Loc::default(), "a brace list for this type")),
    }
}

impl Lowerer<'_> {
    /// The address of program-scope variable `id` (its data object is
    /// added to the kernel on first use).
    pub(super) fn global_addr(&mut self, id: GlobalId, _loc: Loc) -> R<ir::Value> {
        let g = &self.tu.globals[id.0 as usize];
        let writable = g.space == AddrSpace::Global && !g.konst;
        let index = match self.func.data.iter().position(|d| d.name == g.name) {
            Some(i) => i,
            None => {
                let size = self.tu.records.size_of(&g.ty) as usize;
                let mut bytes = vec![0u8; size];
                if let Some(init) = &g.init {
                    write_init(&self.tu.records, &g.ty, init, &mut bytes, 0).map_err(
                        |(at, what)| {
                            let at = if at == Loc::default() { g.loc } else { at };
                            super::Error {
                                loc: at,
                                msg: format!(
                                    "unsupported: {what} in the initializer of program-scope variable `{}`",
                                    g.name
                                ),
                            }
                        },
                    )?;
                }
                self.func.data.push(ir::DataObject {
                    name: g.name.clone(),
                    bytes,
                    align: self.tu.records.align_of(&g.ty).max(4),
                    writable,
                });
                self.func.data.len() - 1
            }
        };
        Ok(self.b().data_addr(index as u32))
    }
}
