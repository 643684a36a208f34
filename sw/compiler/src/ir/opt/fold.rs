//! Constant folding: integer operations on 32-bit (and narrower)
//! constants, and selects on constant conditions.

use std::collections::HashMap;

use super::{apply_replacements, wrap};
use crate::ir::{BinaryOp, Function, InstKind, Type, UnaryOp, Value};

/// Folds integer operations on 32-bit (and narrower) constants, and selects
/// on constant conditions, in place: the instruction becomes an `iconst` (or
/// its result is replaced by the chosen arm). Returns how many folded.
pub fn fold_constants(f: &mut Function) -> usize {
    let mut folded = 0;
    let mut replace: HashMap<Value, Value> = HashMap::new();
    for b in f.blocks().to_vec() {
        for i in f.block(b).insts.clone() {
            let d = f.inst(i).clone();
            let Some(r) = d.result else { continue };
            let ty = f.ty(r);
            let c = |v: Value| f.iconst_value(*replace.get(&v).unwrap_or(&v));
            let new = match &d.kind {
                InstKind::Binary { op, args } if ty.bits() <= 32 && ty.is_int() => {
                    match (c(args[0]), c(args[1])) {
                        (Some(x), Some(y)) => {
                            let (ux, uy) = (x as u32, y as u32);
                            let v: Option<i64> = match op {
                                BinaryOp::Iadd => Some(x.wrapping_add(y)),
                                BinaryOp::Isub => Some(x.wrapping_sub(y)),
                                BinaryOp::Imul => Some(x.wrapping_mul(y)),
                                BinaryOp::And => Some(x & y),
                                BinaryOp::Or => Some(x | y),
                                BinaryOp::Xor => Some(x ^ y),
                                BinaryOp::Shl => Some(i64::from(ux.wrapping_shl(uy))),
                                BinaryOp::Lshr => Some(i64::from(ux.wrapping_shr(uy))),
                                BinaryOp::Ashr => Some(i64::from((ux as i32).wrapping_shr(uy))),
                                BinaryOp::Smin => Some(x.min(y)),
                                BinaryOp::Smax => Some(x.max(y)),
                                BinaryOp::Umin => Some(i64::from(ux.min(uy))),
                                BinaryOp::Umax => Some(i64::from(ux.max(uy))),
                                // Division by zero is left for the program to meet.
                                BinaryOp::Sdiv if y != 0 => {
                                    Some(i64::from((x as i32).wrapping_div(y as i32)))
                                }
                                BinaryOp::Udiv if y != 0 => Some(i64::from(ux / uy)),
                                BinaryOp::Srem if y != 0 => {
                                    Some(i64::from((x as i32).wrapping_rem(y as i32)))
                                }
                                BinaryOp::Urem if y != 0 => Some(i64::from(ux % uy)),
                                _ => None,
                            };
                            v.map(|v| InstKind::Iconst {
                                ty,
                                imm: wrap(ty, v),
                            })
                        }
                        _ => None,
                    }
                }
                InstKind::Unary { op, arg }
                    if ty.bits() <= 32 && (ty.is_int() || ty == Type::I1) =>
                {
                    c(*arg).and_then(|x| match op {
                        UnaryOp::Ineg => Some(InstKind::Iconst {
                            ty,
                            imm: wrap(ty, x.wrapping_neg()),
                        }),
                        UnaryOp::Not => Some(InstKind::Iconst {
                            ty,
                            imm: wrap(ty, !x),
                        }),
                        _ => None,
                    })
                }
                InstKind::Icmp { cond, args } if f.ty(args[0]).bits() <= 32 => {
                    match (c(args[0]), c(args[1])) {
                        (Some(x), Some(y)) => Some(InstKind::Iconst {
                            ty: Type::I1,
                            imm: i64::from(cond.eval32(x as u32, y as u32)),
                        }),
                        _ => None,
                    }
                }
                InstKind::Select { cond, args } => {
                    if let Some(x) = c(*cond) {
                        replace.insert(r, if x & 1 != 0 { args[0] } else { args[1] });
                        folded += 1;
                    }
                    None
                }
                _ => None,
            };
            if let Some(k) = new {
                f.inst_mut(i).kind = k;
                folded += 1;
            }
        }
    }
    apply_replacements(f, &replace);
    folded
}
