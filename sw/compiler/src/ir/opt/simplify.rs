//! Strength reduction, algebraic identities and the reassociations that
//! move constants outwards (to instructions' offset fields).

use std::collections::HashMap;

use super::{apply_replacements, insert_before, wrap};
use crate::ir::{AddrSpace, BinaryOp, Function, Inst, InstKind, Type, Value};

/// Strength reduction and algebraic identities on integers:
/// `x * 2^k` → `x << k`, `x udiv 2^k` → `x >> k`, `x urem 2^k` → `x & (2^k - 1)`,
/// `x + 0`, `x - 0`, `x * 1`, `x | 0`, `x ^ 0`, `x << 0` → `x`, `x * 0`,
/// `x & 0` → `0`; on 32-bit (and narrower) integers also the reassociations
/// that move constants outwards: `(x + c1) + c2` → `x + (c1 + c2)`,
/// `(x + c1) << c2` and `(x + c1) * c2` distributed, and the pointer forms of
/// `reassociate_ptr_add`. Returns how many instructions changed.
pub fn simplify(f: &mut Function) -> usize {
    let mut changed = 0;
    let uses = f.use_counts();
    let mut replace: HashMap<Value, Value> = HashMap::new();
    for b in f.blocks().to_vec() {
        for i in f.block(b).insts.clone() {
            let d = f.inst(i).clone();
            let Some(r) = d.result else { continue };
            if let InstKind::PtrAdd { base, offset } = d.kind {
                changed += usize::from(reassociate_ptr_add(f, i, base, offset));
                continue;
            }
            let InstKind::Binary { op, args } = d.kind else {
                continue;
            };
            let ty = f.ty(r);
            if !ty.is_int() {
                continue;
            }
            // 64-bit values get the identities and powers of two only.
            let narrow = ty.bits() <= 32;
            // Identities first: `(x + 0) * 1` is `x`, not `x * 1 + 0`.
            let single_use =
                uses.get(args[0].index()) == Some(&1) && !replace.contains_key(&args[0]);
            let in_range = |c: i64| match op {
                BinaryOp::Imul => c as u32 > 1,
                _ => (1..i64::from(ty.bits())).contains(&c),
            };
            if narrow && matches!(op, BinaryOp::Shl | BinaryOp::Imul) && single_use {
                if let (Some((x, c1)), Some(c2)) = (
                    constant_add(f, args[0]).filter(|&(_, c1)| wrap(ty, c1) != 0),
                    f.iconst_value(args[1]).filter(|&c| in_range(c)),
                ) {
                    // `(x + c1) << c2` → `(x << c2) + (c1 << c2)` (and the
                    // same for `*`, exact modulo 2^n): the constant part of an
                    // address moves out where the offset field can take it.
                    let folded = if op == BinaryOp::Shl {
                        (c1 as u32).wrapping_shl(c2 as u32)
                    } else {
                        (c1 as u32).wrapping_mul(c2 as u32)
                    };
                    let scaled = insert_before(
                        f,
                        i,
                        InstKind::Binary {
                            op,
                            args: [x, args[1]],
                        },
                        ty,
                    );
                    let k = insert_before(
                        f,
                        i,
                        InstKind::Iconst {
                            ty,
                            imm: wrap(ty, i64::from(folded as i32)),
                        },
                        ty,
                    );
                    f.inst_mut(i).kind = InstKind::Binary {
                        op: BinaryOp::Iadd,
                        args: [scaled, k],
                    };
                    changed += 1;
                    continue;
                }
            }
            if narrow && op == BinaryOp::Iadd {
                if let Some((x, sum)) = nested_constant_add(f, args) {
                    // `(x + c1) + c2` → `x + (c1 + c2)`: an unrolled
                    // induction variable steps once per copy otherwise.
                    let (ci, cv) = f.append_inst(
                        b,
                        InstKind::Iconst {
                            ty,
                            imm: wrap(ty, sum),
                        },
                        Some(ty),
                    );
                    f.move_before(ci, i);
                    f.inst_mut(i).kind = InstKind::Binary {
                        op,
                        args: [x, cv.expect("a constant has a result")],
                    };
                    changed += 1;
                    continue;
                }
            }
            let c = |v: Value| f.iconst_value(v);
            let (a, k) = match (c(args[0]), c(args[1])) {
                (None, Some(k)) => (args[0], k),
                (Some(k), None) if op.is_commutative() => (args[1], k),
                _ => continue,
            };
            let k = if narrow {
                u64::from(k as u32)
            } else {
                k as u64
            };
            match (op, k) {
                (BinaryOp::Iadd | BinaryOp::Isub | BinaryOp::Or | BinaryOp::Xor, 0)
                | (BinaryOp::Shl | BinaryOp::Lshr | BinaryOp::Ashr, 0)
                | (BinaryOp::Imul | BinaryOp::Udiv | BinaryOp::Sdiv, 1) => {
                    // Only commutative ops reach here with the constant first.
                    replace.insert(r, a);
                    changed += 1;
                }
                (BinaryOp::Imul | BinaryOp::And, 0) => {
                    f.inst_mut(i).kind = InstKind::Iconst { ty, imm: 0 };
                    changed += 1;
                }
                (BinaryOp::Urem, k) if k.is_power_of_two() => {
                    let mask = insert_before(
                        f,
                        i,
                        InstKind::Iconst {
                            ty,
                            imm: wrap(ty, (k - 1) as i64),
                        },
                        ty,
                    );
                    f.inst_mut(i).kind = InstKind::Binary {
                        op: BinaryOp::And,
                        args: [a, mask],
                    };
                    changed += 1;
                }
                (BinaryOp::Imul | BinaryOp::Udiv, k) if k.is_power_of_two() => {
                    // The shift amount is a new constant placed before `i`.
                    let (ci, cv) = f.append_inst(
                        b,
                        InstKind::Iconst {
                            ty,
                            imm: i64::from(k.trailing_zeros()),
                        },
                        Some(ty),
                    );
                    f.move_before(ci, i);
                    let cv = cv.expect("a constant has a result");
                    let new_op = if op == BinaryOp::Imul {
                        BinaryOp::Shl
                    } else {
                        BinaryOp::Lshr
                    };
                    f.inst_mut(i).kind = InstKind::Binary {
                        op: new_op,
                        args: [a, cv],
                    };
                    changed += 1;
                }
                _ => {}
            }
        }
    }
    apply_replacements(f, &replace);
    changed
}

/// `x + c` (either order, `x` not constant): `x` and `c`.
fn constant_add(f: &Function, v: Value) -> Option<(Value, i64)> {
    let Some(InstKind::Binary {
        op: BinaryOp::Iadd,
        args: [p, q],
    }) = f.def_inst(v)
    else {
        return None;
    };
    match (f.iconst_value(*p), f.iconst_value(*q)) {
        (None, Some(c)) => Some((*p, c)),
        (Some(c), None) => Some((*q, c)),
        _ => None,
    }
}

/// Moves constant offsets of pointer arithmetic outwards, so the variable
/// part is shared (CSE) and the constant can become an instruction's offset
/// field: `(p + c1) + c2` → `p + (c1 + c2)`, `(p + c) + x` → `(p + x) + c`,
/// and for 32-bit LDS pointers `p + (x + c)` → `(p + x) + c` (exact there:
/// both wrap modulo 2^32; a global pointer sign-extends a 32-bit offset, so
/// `x + c` overflowing would differ). Returns whether `i` changed.
fn reassociate_ptr_add(f: &mut Function, i: Inst, base: Value, offset: Value) -> bool {
    let pty = f.ty(base);
    let inner = match f.def_inst(base) {
        Some(&InstKind::PtrAdd {
            base: p,
            offset: c1,
        }) => f.iconst_value(c1).map(|k| (p, c1, k)),
        _ => None,
    };
    if let Some((p, c1, k1)) = inner {
        let oty = f.ty(offset);
        if let Some(k2) = f.iconst_value(offset) {
            if oty != f.ty(c1) {
                return false;
            }
            let sum = insert_before(
                f,
                i,
                InstKind::Iconst {
                    ty: oty,
                    imm: wrap(oty, k1.wrapping_add(k2)),
                },
                oty,
            );
            f.inst_mut(i).kind = InstKind::PtrAdd {
                base: p,
                offset: sum,
            };
        } else {
            let moved = insert_before(f, i, InstKind::PtrAdd { base: p, offset }, pty);
            f.inst_mut(i).kind = InstKind::PtrAdd {
                base: moved,
                offset: c1,
            };
        }
        return true;
    }
    if pty != Type::Ptr(AddrSpace::Local) || f.ty(offset) != Type::I32 {
        return false;
    }
    let Some((x, c)) = constant_add(f, offset) else {
        return false;
    };
    let moved = insert_before(f, i, InstKind::PtrAdd { base, offset: x }, pty);
    let k = insert_before(
        f,
        i,
        InstKind::Iconst {
            ty: Type::I32,
            imm: wrap(Type::I32, c),
        },
        Type::I32,
    );
    f.inst_mut(i).kind = InstKind::PtrAdd {
        base: moved,
        offset: k,
    };
    true
}

/// `(x + c1) + c2` (in either operand order): `x` and `c1 + c2`.
fn nested_constant_add(f: &Function, args: [Value; 2]) -> Option<(Value, i64)> {
    let c = |v: Value| f.iconst_value(v);
    let (inner, c2) = match (c(args[0]), c(args[1])) {
        (None, Some(k)) => (args[0], k),
        (Some(k), None) => (args[1], k),
        _ => return None,
    };
    let Some(InstKind::Binary {
        op: BinaryOp::Iadd,
        args: [p, q],
    }) = f.def_inst(inner)
    else {
        return None;
    };
    match (c(*p), c(*q)) {
        (None, Some(c1)) => Some((*p, c1.wrapping_add(c2))),
        (Some(c1), None) => Some((*q, c1.wrapping_add(c2))),
        _ => None,
    }
}
