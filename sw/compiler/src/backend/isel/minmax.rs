//! `a > b ? a : b` as `v_max_i32`/`s_max_i32` (and the min, unsigned and
//! reversed forms): a select of a compare of its own two operands is one
//! instruction instead of a compare and a `v_cndmask_b32` (or `s_cmp` and
//! `s_cselect`), as clang selects it.
//!
//! Integers only: for floats, `fcmp` and `v_max_f32` disagree on NaN
//! operands (`a > NaN ? a : NaN` is NaN, `v_max_f32(a, NaN)` is `a`).

use super::Isel;
use crate::ir::{BinaryOp, InstKind, IntCC, Type, ValueDef};

/// The min/max a select of `cc(a, b)` with arms `a, b` (or `b, a` when
/// `swapped`) computes.
fn min_max_of(cc: IntCC, swapped: bool) -> Option<BinaryOp> {
    use BinaryOp::*;
    let op = match cc {
        IntCC::Sgt | IntCC::Sge => Smax,
        IntCC::Slt | IntCC::Sle => Smin,
        IntCC::Ugt | IntCC::Uge => Umax,
        IntCC::Ult | IntCC::Ule => Umin,
        IntCC::Eq | IntCC::Ne => return None,
    };
    Some(match (op, swapped) {
        (op, false) => op,
        (Smax, true) => Smin,
        (Smin, true) => Smax,
        (Umax, true) => Umin,
        (Umin, true) => Umax,
        _ => unreachable!("only min/max above"),
    })
}

impl Isel<'_> {
    /// Finds the selects that are a min or max of their compare's operands;
    /// the compare (used by nothing else) is not selected.
    pub(in crate::backend) fn find_min_max(&mut self) {
        for &b in self.f.blocks() {
            for &i in &self.f.block(b).insts {
                let d = self.f.inst(i);
                let (Some(r), InstKind::Select { cond, args }) = (d.result, &d.kind) else {
                    continue;
                };
                if self.f.ty(r) != Type::I32 || self.deferred[i.index()] {
                    continue;
                }
                let ValueDef::Inst(ci) = self.f.value(*cond).def else {
                    continue;
                };
                let InstKind::Icmp {
                    cond: cc,
                    args: cargs,
                } = self.f.inst(ci).kind
                else {
                    continue;
                };
                if cargs[0] == cargs[1] || self.uses[cond.index()] != 1 || self.deferred[ci.index()]
                {
                    continue;
                }
                let swapped = if *args == cargs {
                    false
                } else if *args == [cargs[1], cargs[0]] {
                    true
                } else {
                    continue;
                };
                if let Some(op) = min_max_of(cc, swapped) {
                    self.deferred[ci.index()] = true;
                    self.min_max[i.index()] = Some(op);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        assert_eq!(min_max_of(IntCC::Sgt, false), Some(BinaryOp::Smax));
        assert_eq!(min_max_of(IntCC::Sge, true), Some(BinaryOp::Smin));
        assert_eq!(min_max_of(IntCC::Ult, false), Some(BinaryOp::Umin));
        assert_eq!(min_max_of(IntCC::Ule, true), Some(BinaryOp::Umax));
        assert_eq!(min_max_of(IntCC::Eq, false), None);
    }
}
