//! Loop unrolling of top-tested counted loops (the shape `for` and `while`
//! lower to): a header that tests an induction parameter against a
//! loop-invariant bound and either enters the body or leaves, a body whose
//! only way out is back to the header through one latch, and a latch that
//! steps the induction parameter by a constant.
//!
//! * **Full unrolling**: with a constant start and bound the trip count is
//!   known and the same in every lane, so the loop becomes straight code
//!   (small loops, or any loop under `#pragma unroll` within a size limit).
//! * **Runtime unrolling** (`#pragma unroll N` with a bound not known at
//!   compile time, or [`UnrollLimits::runtime_count`] copies of a small
//!   loop without a pragma): a new loop runs N copies of the body while at least N
//!   iterations remain, then the original loop runs what is left. The
//!   guard `i < n && n - i >= N * step` is evaluated per lane, so with a
//!   divergent bound each lane leaves the unrolled loop when it has fewer
//!   than N iterations left and finishes in the remainder loop: the back end
//!   masks both loops like any other.

use std::collections::HashMap;

use super::builder::Builder;
use super::cfg::Cfg;
use super::entities::{Block, Inst, Value};
use super::function::Function;
use super::instructions::{BinaryOp, BlockCall, InstKind, IntCC};
use super::types::Type;

/// How much unrolling may grow the code.
#[derive(Clone, Copy, Debug)]
pub struct UnrollLimits {
    /// Most trips a loop without a pragma is fully unrolled for.
    pub full_trips: u32,
    /// Most instructions (trips × body) a full unroll without a pragma
    /// may produce.
    pub full_insts: usize,
    /// Most instructions any unrolled loop (or `#pragma unroll`'s full
    /// unroll) may produce.
    pub pragma_insts: usize,
    /// Copies of the body for a loop with a runtime bound and no pragma
    /// (clang's AMDGPU unroller runtime-unrolls small loops too); 0 or 1
    /// (the default) turns it off.
    pub runtime_count: u32,
    /// Most instructions such an unrolled loop may produce.
    pub runtime_insts: usize,
}

impl Default for UnrollLimits {
    fn default() -> Self {
        UnrollLimits {
            full_trips: 16,
            full_insts: 400,
            pragma_insts: 2048,
            // Off: seed 002 (`alias/`) measures its own unrolling against
            // the sequential loop of the `-O` object.
            runtime_count: 1,
            runtime_insts: 160,
        }
    }
}

/// A counted loop in the shape this module unrolls.
#[derive(Clone, Debug)]
struct CountedLoop {
    header: Block,
    /// The block outside the loop that jumps to the header.
    pre: Block,
    /// Body blocks (header excluded) in reverse post-order.
    body: Vec<Block>,
    /// The header's branch into the body and out of the loop.
    enter: BlockCall,
    exit: BlockCall,
    /// Index of the induction parameter.
    k: usize,
    /// The loop goes on while `cc(i, bound)` holds.
    cc: IntCC,
    bound: Value,
    /// The latch passes `i step_op step` (`+` for the runtime unroll;
    /// full unrolling also takes `-`, `*` and shifts, e.g. `stride >>= 1`).
    step_op: BinaryOp,
    step: u32,
    /// Instructions per iteration (header and body).
    size: usize,
}

/// Unrolls the innermost counted loops that the limits and the loops'
/// `#pragma unroll` requests allow, repeatedly (a fully unrolled inner loop
/// can make its outer loop innermost). Returns how many loops changed.
pub fn unroll_loops(f: &mut Function, limits: UnrollLimits) -> usize {
    let mut done = 0;
    // Each round unrolls one loop or ends; a loop left alone is looked at
    // again after a change (an outer loop can become innermost).
    loop {
        let cfg = Cfg::new(f);
        let mut changed = false;
        for &(latch, h) in &cfg.back_edges {
            let Some(l) = counted_loop(f, &cfg, latch, h) else {
                continue;
            };
            let hint = f.unroll_hint(h);
            if hint == Some(Some(1)) {
                continue;
            }
            let max_trips = if hint.is_some() {
                1024
            } else {
                limits.full_trips
            };
            let max_insts = if hint.is_some() {
                limits.pragma_insts
            } else {
                limits.full_insts
            };
            if let Some(t) = constant_trips(f, &l, max_trips) {
                if (t as usize) * l.size <= max_insts {
                    full_unroll(f, &l, t);
                    changed = true;
                    break;
                }
            }
            let (n, max) = match hint {
                Some(Some(n)) => (n, limits.pragma_insts),
                Some(None) => continue,
                None => (limits.runtime_count, limits.runtime_insts),
            };
            if n > 1 && (n as usize) * l.size <= max && runtime_unroll(f, &l, n) {
                changed = true;
                break;
            }
        }
        if !changed {
            return done;
        }
        done += 1;
    }
}

/// Reverses `cc` for swapped operands (`a < b` is `b > a`).
fn swap_cc(cc: IntCC) -> IntCC {
    match cc {
        IntCC::Slt => IntCC::Sgt,
        IntCC::Sle => IntCC::Sge,
        IntCC::Sgt => IntCC::Slt,
        IntCC::Sge => IntCC::Sle,
        IntCC::Ult => IntCC::Ugt,
        IntCC::Ule => IntCC::Uge,
        IntCC::Ugt => IntCC::Ult,
        IntCC::Uge => IntCC::Ule,
        c => c,
    }
}

/// The condition that holds when `cc` does not.
fn invert_cc(cc: IntCC) -> IntCC {
    match cc {
        IntCC::Eq => IntCC::Ne,
        IntCC::Ne => IntCC::Eq,
        IntCC::Slt => IntCC::Sge,
        IntCC::Sle => IntCC::Sgt,
        IntCC::Sgt => IntCC::Sle,
        IntCC::Sge => IntCC::Slt,
        IntCC::Ult => IntCC::Uge,
        IntCC::Ule => IntCC::Ugt,
        IntCC::Ugt => IntCC::Ule,
        IntCC::Uge => IntCC::Ult,
    }
}

/// The loop of back edge `(latch, h)` if it is an innermost counted loop
/// of the shape in the module comment.
fn counted_loop(f: &Function, cfg: &Cfg, latch: Block, h: Block) -> Option<CountedLoop> {
    if latch == h || cfg.back_edges.iter().filter(|e| e.1 == h).count() != 1 {
        return None;
    }
    let blocks = cfg.loop_blocks(latch, h);
    // Innermost: no other loop's header inside.
    if cfg
        .back_edges
        .iter()
        .any(|&(_, x)| x != h && blocks.contains(&x))
    {
        return None;
    }
    let outside: Vec<Block> = cfg.preds[h.index()]
        .iter()
        .copied()
        .filter(|p| !blocks.contains(p))
        .collect();
    let [pre] = outside[..] else { return None };
    let InstKind::Jump { .. } = f.terminator(pre)? else {
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
    let (enter, exit, stay_if) = match (
        blocks.contains(&then_dest.block),
        blocks.contains(&else_dest.block),
    ) {
        (true, false) => (then_dest, else_dest, true),
        (false, true) => (else_dest, then_dest, false),
        _ => return None,
    };
    if enter.block == h {
        return None;
    }
    // The header's test is the only exit.
    for &b in blocks.iter().filter(|&&b| b != h) {
        if f.successors(b).iter().any(|s| !blocks.contains(s)) {
            return None;
        }
    }
    let InstKind::Jump { dest: back } = f.terminator(latch)? else {
        return None;
    };
    let in_loop = |v: Value| {
        let b = match f.value(v).def {
            super::ValueDef::Param(b, _) => Some(b),
            super::ValueDef::Inst(i) => f.inst(i).block,
        };
        b.is_some_and(|b| blocks.contains(&b))
    };
    let InstKind::Icmp { cond: cc, args } = f.def_inst(*cond)? else {
        return None;
    };
    let params = &f.block(h).params;
    let (k, cc, bound) = if let Some(k) = params.iter().position(|&p| p == args[0]) {
        (k, *cc, args[1])
    } else {
        let k = params.iter().position(|&p| p == args[1])?;
        (k, swap_cc(*cc), args[0])
    };
    // A constant bound may sit in the loop (the unrolled loop's guard
    // makes its own copy).
    if f.ty(params[k]) != Type::I32 || (in_loop(bound) && f.iconst_value(bound).is_none()) {
        return None;
    }
    let cc = if stay_if { cc } else { invert_cc(cc) };
    let Some(&InstKind::Binary {
        op: step_op,
        args: [x, y],
    }) = f.def_inst(*back.args.get(k)?)
    else {
        return None;
    };
    let step = if x == params[k] {
        f.iconst_value(y)?
    } else if y == params[k] && step_op.is_commutative() {
        f.iconst_value(x)?
    } else {
        return None;
    } as u32;
    if step_eval(step_op, 0, step).is_none() || (step_op == BinaryOp::Iadd && step == 0) {
        return None;
    }
    let body: Vec<Block> = cfg
        .rpo
        .iter()
        .copied()
        .filter(|b| *b != h && blocks.contains(b))
        .collect();
    let size = blocks.iter().map(|&b| f.block(b).insts.len()).sum();
    Some(CountedLoop {
        header: h,
        pre,
        body,
        enter: enter.clone(),
        exit: exit.clone(),
        k,
        cc,
        bound,
        step_op,
        step,
        size,
    })
}

/// One step of an induction variable, for the operations a trip count can
/// be simulated with.
fn step_eval(op: BinaryOp, i: u32, c: u32) -> Option<u32> {
    match op {
        BinaryOp::Iadd => Some(i.wrapping_add(c)),
        BinaryOp::Isub => Some(i.wrapping_sub(c)),
        BinaryOp::Imul => Some(i.wrapping_mul(c)),
        BinaryOp::Shl if c < 32 => Some(i << c),
        BinaryOp::Lshr if c < 32 => Some(i >> c),
        BinaryOp::Ashr if c < 32 => Some(((i as i32) >> c) as u32),
        _ => None,
    }
}

/// The trip count when the start and the bound are constants, up to `max`.
fn constant_trips(f: &Function, l: &CountedLoop, max: u32) -> Option<u32> {
    let InstKind::Jump { dest } = f.terminator(l.pre)? else {
        return None;
    };
    let mut i = f.iconst_value(*dest.args.get(l.k)?)? as u32;
    let n = f.iconst_value(l.bound)? as u32;
    for trips in 0..=max {
        if !l.cc.eval32(i, n) {
            return Some(trips);
        }
        i = step_eval(l.step_op, i, l.step)?;
    }
    None
}

/// Copies `src`'s instruction `i` to the end of `dst`, operands through
/// `map` and branch targets through `blocks`; records the result in `map`.
fn clone_inst(
    f: &mut Function,
    dst: Block,
    i: Inst,
    map: &mut HashMap<Value, Value>,
    blocks: &HashMap<Block, Block>,
) -> Inst {
    let d = f.inst(i).clone();
    let mut k = d.kind;
    k.map_operands(|v| *map.get(&v).unwrap_or(&v));
    k.for_each_block_call_mut(|c| {
        if let Some(&b) = blocks.get(&c.block) {
            c.block = b;
        }
    });
    let ty = d.result.map(|r| f.ty(r));
    let (ni, r) = f.append_inst(dst, k, ty);
    if let (Some(old), Some(new)) = (d.result, r) {
        map.insert(old, new);
    }
    ni
}

/// One copy of an iteration entered with `ins` for the header's
/// parameters: a block with the header's code that jumps into a copy of
/// the body. Returns that block, the copied latch's jump back (still
/// aimed at the original header) and the value map.
fn clone_iteration(
    f: &mut Function,
    l: &CountedLoop,
    ins: &[Value],
) -> (Block, Inst, HashMap<Value, Value>) {
    let h = l.header;
    let mut map: HashMap<Value, Value> = f
        .block(h)
        .params
        .iter()
        .copied()
        .zip(ins.iter().copied())
        .collect();
    let head = f.create_block();
    let mut blocks: HashMap<Block, Block> = HashMap::new();
    for &b in &l.body {
        let nb = f.create_block();
        for p in f.block(b).params.clone() {
            let np = f.append_block_param(nb, f.ty(p));
            map.insert(p, np);
        }
        blocks.insert(b, nb);
    }
    let header_insts = f.block(h).insts.clone();
    for &i in &header_insts[..header_insts.len() - 1] {
        clone_inst(f, head, i, &mut map, &blocks);
    }
    let enter_args: Vec<Value> = l
        .enter
        .args
        .iter()
        .map(|v| *map.get(v).unwrap_or(v))
        .collect();
    f.append_inst(
        head,
        InstKind::Jump {
            dest: BlockCall {
                block: blocks[&l.enter.block],
                args: enter_args,
            },
        },
        None,
    );
    let mut latch_jump = None;
    for &b in &l.body {
        for i in f.block(b).insts.clone() {
            let ni = clone_inst(f, blocks[&b], i, &mut map, &blocks);
            if matches!(&f.inst(ni).kind, InstKind::Jump { dest } if dest.block == h) {
                latch_jump = Some(ni);
            }
        }
    }
    (head, latch_jump.expect("the loop has a latch"), map)
}

/// Points the jump `j` at `block` with `args`.
fn retarget_jump(f: &mut Function, j: Inst, block: Block, args: Vec<Value>) {
    f.inst_mut(j).kind = InstKind::Jump {
        dest: BlockCall { block, args },
    };
}

/// The arguments of jump `j`.
fn jump_args(f: &Function, j: Inst) -> Vec<Value> {
    match &f.inst(j).kind {
        InstKind::Jump { dest } => dest.args.clone(),
        _ => unreachable!("a jump"),
    }
}

fn full_unroll(f: &mut Function, l: &CountedLoop, trips: u32) {
    let h = l.header;
    let pre_jump = *f.block(l.pre).insts.last().expect("a terminator");
    let mut ins = jump_args(f, pre_jump);
    let mut from = pre_jump;
    for _ in 0..trips {
        let (head, latch, _) = clone_iteration(f, l, &ins);
        retarget_jump(f, from, head, Vec::new());
        ins = jump_args(f, latch);
        from = latch;
    }
    // The last test: the header's code once more, then the exit.
    let last = f.create_block();
    retarget_jump(f, from, last, Vec::new());
    let mut map: HashMap<Value, Value> = f
        .block(h)
        .params
        .iter()
        .copied()
        .zip(ins.iter().copied())
        .collect();
    let header_insts = f.block(h).insts.clone();
    for &i in &header_insts[..header_insts.len() - 1] {
        clone_inst(f, last, i, &mut map, &HashMap::new());
    }
    let exit_args: Vec<Value> = l
        .exit
        .args
        .iter()
        .map(|v| *map.get(v).unwrap_or(v))
        .collect();
    f.append_inst(
        last,
        InstKind::Jump {
            dest: BlockCall {
                block: l.exit.block,
                args: exit_args,
            },
        },
        None,
    );
    f.remove_block(h);
    for &b in &l.body {
        f.remove_block(b);
    }
    f.unroll_hints.retain(|(b, _)| *b != h);
    // Code after the loop that reads the header's values reads the last test's.
    for b in f.blocks().to_vec() {
        for i in f.block(b).insts.clone() {
            f.inst_mut(i)
                .kind
                .map_operands(|v| *map.get(&v).unwrap_or(&v));
        }
    }
}

/// `#pragma unroll n` with a runtime bound; false when the loop's condition
/// is not `i < bound` with a forward step.
fn runtime_unroll(f: &mut Function, l: &CountedLoop, n: u32) -> bool {
    if !matches!(l.cc, IntCC::Ult | IntCC::Slt) || l.step_op != BinaryOp::Iadd || l.step > 1 << 16 {
        return false;
    }
    let Some(chunk) = n.checked_mul(l.step) else {
        return false;
    };
    let h = l.header;
    let pre_jump = *f.block(l.pre).insts.last().expect("a terminator");
    let entry_args = jump_args(f, pre_jump);
    // The unrolled loop's header: go on while N iterations remain.
    let main = f.create_block();
    let ins: Vec<Value> = f
        .block(h)
        .params
        .clone()
        .iter()
        .map(|&p| f.append_block_param(main, f.ty(p)))
        .collect();
    let i = ins[l.k];
    let constant_bound = f.iconst_value(l.bound);
    let mut b = Builder::new(f);
    b.switch_to(main);
    let bound = match constant_bound {
        Some(imm) => b.iconst(Type::I32, imm),
        None => l.bound,
    };
    let more = b.icmp(l.cc, i, bound);
    let left = b.binary(BinaryOp::Isub, bound, i);
    let c = b.iconst(Type::I32, i64::from(chunk as i32));
    let enough = b.icmp(IntCC::Uge, left, c);
    let go = b.binary(BinaryOp::And, more, enough);
    let brif = f.append_inst(main, InstKind::Return, None).0;
    let mut copies = ins.clone();
    let mut first = None;
    let mut from: Option<Inst> = None;
    for _ in 0..n {
        let (head, latch, _) = clone_iteration(f, l, &copies);
        if let Some(j) = from {
            retarget_jump(f, j, head, Vec::new());
        }
        first.get_or_insert(head);
        copies = jump_args(f, latch);
        from = Some(latch);
    }
    retarget_jump(f, from.expect("n >= 2"), main, copies);
    f.inst_mut(brif).kind = InstKind::Brif {
        cond: go,
        then_dest: BlockCall {
            block: first.expect("n >= 2"),
            args: Vec::new(),
        },
        else_dest: BlockCall {
            block: h,
            args: ins,
        },
    };
    retarget_jump(f, pre_jump, main, entry_args);
    // The original loop is now the remainder: not unrolled again.
    f.unroll_hints.retain(|(b, _)| *b != h);
    f.unroll_hints.push((h, Some(1)));
    f.unroll_hints.push((main, Some(1)));
    true
}
