//! Float shrinking, as LLVM's InstCombine does it: C's double literals make
//! `y = x * 0.5` (x a `float`) a double multiply between two conversions,
//! `(float)((double)x * 0.5)`; when every operand is a `float` widened (or a
//! double constant that is exactly a `float`), the operation is done in
//! `float` instead, `x * 0.5f`: two f64 conversions and an f64 VALU
//! operation (quarter rate on gfx1030) become one f32 operation.
//!
//! Why the bits do not change: for `+`, `-` and `*` the double result
//! rounded to float equals the float operation's correctly rounded result,
//! because double has at least 2·24+2 significand bits (Figueroa, "When is
//! double rounding innocuous?", 1995); `min`/`max`, negation and `fabs`
//! select or flip a sign and are exact in any width; comparing two widened
//! floats (or a widened float with a constant that is exactly a float) in
//! double gives the same answer as comparing them in float, NaNs included,
//! since widening is exact and monotonic. gfx1030 keeps f32 denormals (the
//! kernel descriptor's FLOAT_DENORM_MODE_32 is 3), so no flushing differs.
//! Division is not shrunk: `float` division is expanded by the lowering to
//! the precision the options ask for, which is not the correctly rounded
//! division this rule needs.

use crate::ir::{BinaryOp, ConvertOp, Function, InstKind, Type, UnaryOp, Value};

use super::insert_before;

/// An f64 operand as an f32 one: the float a `fpext` widened, or a constant
/// that is exactly a float (`Err(bits)`: the f32 constant to create).
fn narrow(f: &Function, v: Value) -> Option<Result<Value, u32>> {
    match f.def_inst(v)? {
        InstKind::Convert {
            op: ConvertOp::FpExt,
            arg,
            ..
        } if f.ty(*arg) == Type::F32 => Some(Ok(*arg)),
        InstKind::Fconst {
            ty: Type::F64,
            bits,
        } => {
            let d = f64::from_bits(*bits);
            let s = d as f32;
            (!d.is_nan() && f64::from(s).to_bits() == *bits).then_some(Err(s.to_bits()))
        }
        _ => None,
    }
}

/// Shrinks `(float)(op (double)a, (double)b)` to `op a, b` in `float`, and
/// f64 comparisons of widened floats to f32 comparisons; returns how many.
/// The f64 instructions left without uses are for the dead-code pass.
pub fn shrink_float(f: &mut Function) -> usize {
    let mut shrunk = 0;
    for b in f.blocks().to_vec() {
        for i in f.block(b).insts.clone() {
            let kind = f.inst(i).kind.clone();
            let new = match kind {
                InstKind::Convert {
                    op: ConvertOp::FpTrunc,
                    arg,
                    to: Type::F32,
                } if f.ty(arg) == Type::F64 => match f.def_inst(arg).cloned() {
                    Some(InstKind::Binary { op, args })
                        if matches!(
                            op,
                            BinaryOp::Fadd
                                | BinaryOp::Fsub
                                | BinaryOp::Fmul
                                | BinaryOp::Fmin
                                | BinaryOp::Fmax
                        ) =>
                    {
                        match (narrow(f, args[0]), narrow(f, args[1])) {
                            (Some(x), Some(y)) => {
                                let x = materialise(f, i, x);
                                let y = materialise(f, i, y);
                                Some(InstKind::Binary { op, args: [x, y] })
                            }
                            _ => None,
                        }
                    }
                    Some(InstKind::Unary { op, arg })
                        if matches!(op, UnaryOp::Fneg | UnaryOp::Fabs) =>
                    {
                        narrow(f, arg).map(|x| InstKind::Unary {
                            op,
                            arg: materialise(f, i, x),
                        })
                    }
                    _ => None,
                },
                InstKind::Fcmp { cond, args } if f.ty(args[0]) == Type::F64 => {
                    match (narrow(f, args[0]), narrow(f, args[1])) {
                        // Two constants are the folder's; one widened value
                        // at least makes this a comparison of floats.
                        (Some(x), Some(y)) if x.is_ok() || y.is_ok() => {
                            let x = materialise(f, i, x);
                            let y = materialise(f, i, y);
                            Some(InstKind::Fcmp { cond, args: [x, y] })
                        }
                        _ => None,
                    }
                }
                _ => None,
            };
            if let Some(k) = new {
                f.inst_mut(i).kind = k;
                shrunk += 1;
            }
        }
    }
    shrunk
}

/// The f32 value of a narrowed operand, creating its constant before `at`.
fn materialise(f: &mut Function, at: crate::ir::Inst, x: Result<Value, u32>) -> Value {
    match x {
        Ok(v) => v,
        Err(bits) => insert_before(
            f,
            at,
            InstKind::Fconst {
                ty: Type::F32,
                bits: u64::from(bits),
            },
            Type::F32,
        ),
    }
}
