//! Optimisation passes (`-O`): constant folding, common-subexpression
//! elimination over the dominator tree, dead-code elimination. Each is linear
//! (or linear times the dominator depth) in the function.

use std::collections::HashMap;

use super::cfg::Cfg;
use super::entities::{Block, Value};
use super::function::Function;
use super::instructions::{BinaryOp, InstKind, UnaryOp};
use super::types::Type;
use super::{params, unroll};

/// Runs the `-O` pipeline: fold, simplify (strength reduction), CSE, LICM,
/// unrolling of small counted loops, then fold/CSE/DCE again.
pub fn optimize(f: &mut Function) {
    // Values passed unchanged around loops stop being loop parameters first,
    // so the loop analyses below see them as invariant.
    params::remove_redundant_params(f);
    params::merge_straight_blocks(f);
    fold_constants(f);
    simplify(f);
    share_division(f);
    cse(f);
    licm(f);
    let unrolled =
        unroll_counted_loops(f, 16, 64) + unroll::unroll_loops(f, unroll::UnrollLimits::default());
    if unrolled > 0 {
        params::remove_redundant_params(f);
        params::merge_straight_blocks(f);
        fold_constants(f);
        simplify(f);
        cse(f);
        licm(f);
    }
    dce(f);
}

/// Wraps `x` to the width of `ty` (sign-extended, as `Iconst` stores it).
fn wrap(ty: Type, x: i64) -> i64 {
    match ty.bits() {
        1 => x & 1,
        8 => x as i8 as i64,
        16 => x as i16 as i64,
        32 => x as i32 as i64,
        _ => x,
    }
}

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

fn apply_replacements(f: &mut Function, replace: &HashMap<Value, Value>) {
    if replace.is_empty() {
        return;
    }
    let resolve = |mut v: Value| {
        while let Some(&n) = replace.get(&v) {
            v = n;
        }
        v
    };
    for b in f.blocks().to_vec() {
        for i in f.block(b).insts.clone() {
            f.inst_mut(i).kind.map_operands(resolve);
        }
    }
}

/// True for instructions CSE may merge: pure, and not reading memory that a
/// store in between could change.
fn cse_candidate(k: &InstKind) -> bool {
    !k.has_side_effects()
        && !matches!(
            k,
            InstKind::Load { .. } | InstKind::Atomic { .. } | InstKind::AtomicCas { .. }
        )
        && !matches!(k, InstKind::Call { builtin, .. } if builtin.reads_exec())
}

/// Global value numbering over the dominator tree: a pure instruction equal
/// to one in a dominating position reuses that one's result. Returns how
/// many were merged (their instructions are left for [`dce`]).
pub fn cse(f: &mut Function) -> usize {
    let cfg = Cfg::new(f);
    let mut seen: HashMap<String, Vec<(Block, Value)>> = HashMap::new();
    let mut replace: HashMap<Value, Value> = HashMap::new();
    for &b in &cfg.rpo {
        for &i in &f.block(b).insts {
            let d = f.inst(i);
            let Some(r) = d.result else { continue };
            if !cse_candidate(&d.kind) {
                continue;
            }
            let mut k = d.kind.clone();
            k.map_operands(|v| *replace.get(&v).unwrap_or(&v));
            // The key includes the result type (iconst 1 as i1 vs i32).
            let key = format!("{:?}:{:?}", f.ty(r), k);
            let entry = seen.entry(key).or_default();
            if let Some(&(_, v)) = entry.iter().find(|(db, _)| cfg.dominates(*db, b)) {
                replace.insert(r, v);
            } else {
                entry.push((b, r));
            }
        }
    }
    let n = replace.len();
    apply_replacements(f, &replace);
    n
}

/// Removes pure instructions whose results are unused (repeatedly, with a
/// worklist). Returns how many were removed.
pub fn dce(f: &mut Function) -> usize {
    let mut uses = f.use_counts();
    let mut removed = 0;
    let mut work: Vec<_> = f
        .blocks()
        .iter()
        .flat_map(|&b| f.block(b).insts.clone())
        .collect();
    while let Some(i) = work.pop() {
        let d = f.inst(i);
        if d.block.is_none() || d.kind.has_side_effects() {
            continue;
        }
        let Some(r) = d.result else { continue };
        if uses[r.index()] != 0 {
            continue;
        }
        let ops = d.kind.operands();
        f.remove_inst(i);
        removed += 1;
        for v in ops {
            uses[v.index()] -= 1;
            if uses[v.index()] == 0 {
                if let super::ValueDef::Inst(di) = f.value(v).def {
                    work.push(di);
                }
            }
        }
    }
    removed
}

/// Gives the function a single `ret` block: every other `ret` becomes a jump
/// to it (LLVM's UnifyFunctionExitNodes). An early `return` inside a
/// conditional (`if (gid >= n) return;`) then is an ordinary branch to the
/// join, which the back end masks like any other. Returns whether anything
/// changed.
pub fn unify_returns(f: &mut Function) -> bool {
    let rets: Vec<(Block, super::Inst)> = f
        .blocks()
        .iter()
        .filter_map(|&b| {
            let &last = f.block(b).insts.last()?;
            matches!(f.inst(last).kind, InstKind::Return).then_some((b, last))
        })
        .collect();
    if rets.len() < 2 {
        return false;
    }
    let exit = f.create_block();
    f.append_inst(exit, InstKind::Return, None);
    for (_, i) in rets {
        f.inst_mut(i).kind = InstKind::Jump {
            dest: super::BlockCall {
                block: exit,
                args: Vec::new(),
            },
        };
    }
    true
}

/// Strength reduction and algebraic identities on integers:
/// `x * 2^k` → `x << k`, `x udiv 2^k` → `x >> k`, `x urem 2^k` → `x & (2^k - 1)`,
/// `x + 0`, `x - 0`, `x * 1`, `x | 0`, `x ^ 0`, `x << 0` → `x`, `x * 0`,
/// `x & 0` → `0`; on 32-bit (and narrower) integers also the reassociations
/// that move constants outwards: `(x + c1) + c2` → `x + (c1 + c2)`,
/// `(x + c1) << c2` and `(x + c1) * c2` distributed, and the pointer forms of
/// [`reassociate_ptr_add`]. Returns how many instructions changed.
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

/// `x % y` where the program also computes `x / y` becomes `x - (x / y) * y`
/// with its own `x / y` (the division expands into a long sequence, and
/// [`cse`] then keeps one of the two), as clang does. Returns how many
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

/// Places `kind` (with a result of `ty`) just before `at`; returns the result.
fn insert_before(f: &mut Function, at: super::Inst, kind: InstKind, ty: Type) -> Value {
    let b = f.inst(at).block.expect("placed");
    let (i, v) = f.append_inst(b, kind, Some(ty));
    f.move_before(i, at);
    v.expect("a result")
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
fn reassociate_ptr_add(f: &mut Function, i: super::Inst, base: Value, offset: Value) -> bool {
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
    if pty != Type::Ptr(super::types::AddrSpace::Local) || f.ty(offset) != Type::I32 {
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

/// Loop-invariant code motion: a pure, non-trapping instruction of a loop
/// whose operands are all defined outside the loop (or hoisted already)
/// moves to the end of the loop's preheader (the header's single
/// predecessor outside the loop, ending in a jump). Loads stay (a store in
/// the loop may change memory). Returns how many moved.
pub fn licm(f: &mut Function) -> usize {
    let cfg = Cfg::new(f);
    let mut moved = 0;
    for &(latch, header) in &cfg.back_edges {
        let body = cfg.loop_blocks(latch, header);
        let outside: Vec<Block> = cfg.preds[header.index()]
            .iter()
            .copied()
            .filter(|p| !body.contains(p))
            .collect();
        let [pre] = outside[..] else { continue };
        let Some(&pre_term) = f.block(pre).insts.last() else {
            continue;
        };
        if !matches!(f.inst(pre_term).kind, InstKind::Jump { .. }) {
            continue;
        }
        let in_loop = |f: &Function, v: Value| -> bool {
            let b = match f.value(v).def {
                super::ValueDef::Param(b, _) => Some(b),
                super::ValueDef::Inst(i) => f.inst(i).block,
            };
            b.is_some_and(|b| body.contains(&b))
        };
        // Blocks in RPO so definitions are visited before their uses.
        for &b in cfg.rpo.iter().filter(|b| body.contains(b)) {
            for i in f.block(b).insts.clone() {
                let k = &f.inst(i).kind;
                // A division may trap, so it moves only from the header,
                // which runs whenever the loop is entered.
                let hoistable = cse_candidate(k)
                    && (b == header || !matches!(k, InstKind::Binary { op, .. } if op.may_trap()))
                    && !k.operands().iter().any(|&v| in_loop(f, v));
                if hoistable && f.inst(i).result.is_some() {
                    f.remove_inst(i);
                    let list = &mut f.block_insts_mut(pre);
                    let at = list.len() - 1;
                    list.insert(at, i);
                    f.inst_mut(i).block = Some(pre);
                    moved += 1;
                }
            }
        }
    }
    moved
}

/// Unrolls counted single-block loops completely: a header that is its own
/// latch, entered by a jump from one preheader with a constant for the
/// induction parameter, stepping it by a constant and leaving when a
/// comparison with a constant bound fails. Loops of at most `max_trips`
/// iterations and `max_insts` instructions per iteration become straight
/// code (uniform or not, the trip count is the same in every lane). Returns
/// how many loops were unrolled.
pub fn unroll_counted_loops(f: &mut Function, max_trips: u32, max_insts: usize) -> usize {
    let mut done = 0;
    loop {
        let cfg = Cfg::new(f);
        let Some(header) = cfg
            .back_edges
            .iter()
            .filter(|(l, h)| l == h)
            .map(|&(_, h)| h)
            .find(|&h| trip_count(f, &cfg, h, max_trips, max_insts).is_some())
        else {
            return done;
        };
        let trips = trip_count(f, &cfg, header, max_trips, max_insts).expect("checked");
        unroll(f, &cfg, header, trips);
        done += 1;
    }
}

/// The trip count of a counted single-block loop at `h`, if it is one.
fn trip_count(f: &Function, cfg: &Cfg, h: Block, max_trips: u32, max_insts: usize) -> Option<u32> {
    let data = f.block(h);
    if data.insts.len() > max_insts {
        return None;
    }
    let preds = &cfg.preds[h.index()];
    let [a, b] = preds[..] else { return None };
    let pre = if a == h { b } else { a };
    let InstKind::Jump { dest: entry } = f.terminator(pre)? else {
        return None;
    };
    let InstKind::Brif {
        cond,
        then_dest,
        else_dest,
    } = f.terminator(h)?
    else {
        return None;
    };
    let (back, stay_if) = if then_dest.block == h && else_dest.block != h {
        (then_dest, true)
    } else if else_dest.block == h && then_dest.block != h {
        (else_dest, false)
    } else {
        return None;
    };
    let InstKind::Icmp { cond: cc, args } = f.def_inst(*cond)? else {
        return None;
    };
    if f.ty(args[0]).bits() > 32 {
        return None;
    }
    let bound = f.iconst_value(args[1])? as u32;
    // The compared value is `param + step` (or the parameter itself).
    let (k, step, compare_next) = match f.def_inst(args[0]) {
        Some(InstKind::Binary {
            op: BinaryOp::Iadd,
            args: [p, s],
        }) => {
            let k = data.params.iter().position(|x| x == p)?;
            (k, f.iconst_value(*s)? as u32, true)
        }
        _ => (data.params.iter().position(|x| *x == args[0])?, 0, false),
    };
    // The back edge must pass `param + step` for that parameter.
    let next = back.args.get(k)?;
    let Some(InstKind::Binary {
        op: BinaryOp::Iadd,
        args: [p, s],
    }) = f.def_inst(*next)
    else {
        return None;
    };
    if *p != data.params[k] {
        return None;
    }
    let step_back = f.iconst_value(*s)? as u32;
    if compare_next && step != step_back {
        return None;
    }
    let mut i = f.iconst_value(*entry.args.get(k)?)? as u32;
    for trips in 1..=max_trips {
        let tested = if compare_next {
            i.wrapping_add(step)
        } else {
            i
        };
        if cc.eval32(tested, bound) != stay_if {
            return Some(trips);
        }
        i = i.wrapping_add(step_back);
    }
    None
}

fn unroll(f: &mut Function, cfg: &Cfg, h: Block, trips: u32) {
    let preds = &cfg.preds[h.index()];
    let pre = if preds[0] == h { preds[1] } else { preds[0] };
    let pre_term = *f.block(pre).insts.last().expect("has a terminator");
    let InstKind::Jump { dest: entry } = f.inst(pre_term).kind.clone() else {
        unreachable!()
    };
    let InstKind::Brif {
        then_dest,
        else_dest,
        ..
    } = f.terminator(h).cloned().expect("checked")
    else {
        unreachable!()
    };
    let (back, exit) = if then_dest.block == h {
        (then_dest, else_dest)
    } else {
        (else_dest, then_dest)
    };
    let params = f.block(h).params.clone();
    let body: Vec<super::Inst> = {
        let insts = &f.block(h).insts;
        insts[..insts.len() - 1].to_vec()
    };
    let straight = f.create_block();
    let mut map: HashMap<Value, Value> = params
        .iter()
        .copied()
        .zip(entry.args.iter().copied())
        .collect();
    for t in 0..trips {
        if t > 0 {
            let next: Vec<Value> = back.args.iter().map(|v| *map.get(v).unwrap_or(v)).collect();
            for (p, v) in params.iter().zip(next) {
                map.insert(*p, v);
            }
        }
        for &i in &body {
            let d = f.inst(i).clone();
            let mut k = d.kind.clone();
            k.map_operands(|v| *map.get(&v).unwrap_or(&v));
            let ty = d.result.map(|r| f.ty(r));
            let (_, r) = f.append_inst(straight, k, ty);
            if let (Some(old), Some(new)) = (d.result, r) {
                map.insert(old, new);
            }
        }
    }
    let exit_args: Vec<Value> = exit.args.iter().map(|v| *map.get(v).unwrap_or(v)).collect();
    f.append_inst(
        straight,
        InstKind::Jump {
            dest: super::BlockCall {
                block: exit.block,
                args: exit_args,
            },
        },
        None,
    );
    f.inst_mut(pre_term).kind = InstKind::Jump {
        dest: super::BlockCall {
            block: straight,
            args: Vec::new(),
        },
    };
    f.remove_block(h);
    // Values of the loop used after it are the last iteration's.
    apply_replacements(f, &map);
}

/// Gives every loop a single latch: when several branches go back to a
/// header (`continue`), they go to a new block with the header's parameters
/// that jumps to the header. A `continue` inside a conditional then is an
/// ordinary if whose join is that latch. Returns how many loops changed.
pub fn unify_latches(f: &mut Function) -> usize {
    let cfg = Cfg::new(f);
    let mut headers: Vec<Block> = Vec::new();
    for &(_, h) in &cfg.back_edges {
        if cfg.back_edges.iter().filter(|&&(_, x)| x == h).count() > 1 && !headers.contains(&h) {
            headers.push(h);
        }
    }
    for &h in &headers {
        let latch = f.create_block();
        let params: Vec<Value> = f
            .block(h)
            .params
            .clone()
            .iter()
            .map(|&p| {
                let ty = f.ty(p);
                f.append_block_param(latch, ty)
            })
            .collect();
        for &(src, _) in cfg.back_edges.iter().filter(|&&(_, x)| x == h) {
            let Some(&term) = f.block(src).insts.last() else {
                continue;
            };
            f.inst_mut(term).kind.for_each_block_call_mut(|c| {
                if c.block == h {
                    c.block = latch;
                }
            });
        }
        f.append_inst(
            latch,
            InstKind::Jump {
                dest: super::BlockCall {
                    block: h,
                    args: params,
                },
            },
            None,
        );
    }
    headers.len()
}
