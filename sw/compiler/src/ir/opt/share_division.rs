//! A remainder whose division the program also computes reuses it.

use super::insert_before;
use crate::ir::{BinaryOp, Function, InstKind, Value};

/// `x % y` where the program also computes `x / y` becomes `x - (x / y) * y`
/// with its own `x / y` (the division expands into a long sequence, and
/// [`cse`](super::cse) then keeps one of the two), as clang does. Returns how many
/// remainders changed.
pub fn share_division(f: &mut Function) -> usize {
    let mut divisions: Vec<(BinaryOp, [Value; 2])> = Vec::new();
    for &b in f.blocks() {
        for &i in &f.block(b).insts {
            if let InstKind::Binary {
                op: op @ (BinaryOp::Udiv | BinaryOp::Sdiv),
                args,
            } = f.inst(i).kind
            {
                divisions.push((op, args));
            }
        }
    }
    let mut changed = 0;
    for b in f.blocks().to_vec() {
        for i in f.block(b).insts.clone() {
            let InstKind::Binary { op, args } = f.inst(i).kind else {
                continue;
            };
            let div = match op {
                BinaryOp::Urem => BinaryOp::Udiv,
                BinaryOp::Srem => BinaryOp::Sdiv,
                _ => continue,
            };
            let Some(r) = f.inst(i).result else { continue };
            let ty = f.ty(r);
            if !ty.is_int() || ty.bits() > 32 || !divisions.contains(&(div, args)) {
                continue;
            }
            let q = insert_before(f, i, InstKind::Binary { op: div, args }, ty);
            let qy = insert_before(
                f,
                i,
                InstKind::Binary {
                    op: BinaryOp::Imul,
                    args: [q, args[1]],
                },
                ty,
            );
            f.inst_mut(i).kind = InstKind::Binary {
                op: BinaryOp::Isub,
                args: [args[0], qy],
            };
            changed += 1;
        }
    }
    changed
}
