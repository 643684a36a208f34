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
//! * **Single-block loops** ([`unroll_counted_loops`], run first): a header
//!   that is its own latch, with a constant start and bound, becomes
//!   straight code.
//!
//! Which loops are counted is decided by the shared recogniser,
//! [`crate::ir::counted_loop`]; the limits each unroller adds sit beside it.

use std::collections::HashMap;

use super::apply_replacements;
use crate::ir::cfg::Cfg;
use crate::ir::counted_loop::{self, step_eval, CountedLoop};
use crate::ir::{
    BinaryOp, Block, BlockCall, Builder, Function, Inst, InstKind, IntCC, Type, Value,
};

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
            // Off: seed 002 (`specialise/`) measures its own unrolling against
            // the sequential loop of the `-O` object.
            runtime_count: 1,
            runtime_insts: 160,
        }
    }
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

/// The loop of back edge `(latch, h)` if this module unrolls it: a counted
/// loop ([`counted_loop::recognise`]) with a body apart from the header,
/// testing a 32-bit induction parameter itself against a bound that is
/// loop-invariant or a constant, and a step that moves it.
fn counted_loop(f: &Function, cfg: &Cfg, latch: Block, h: Block) -> Option<CountedLoop> {
    if latch == h {
        return None;
    }
    let l = counted_loop::recognise(f, cfg, latch, h)?;
    if l.next_step.is_some() {
        return None;
    }
    // A constant bound may sit in the loop (the unrolled loop's guard
    // makes its own copy).
    let i = f.block(h).params[l.k];
    if f.ty(i) != Type::I32 || (l.defines(f, l.bound) && f.iconst_value(l.bound).is_none()) {
        return None;
    }
    if l.step_op == BinaryOp::Iadd && l.step == 0 {
        return None;
    }
    Some(l)
}

/// The trip count when the start and the bound are constants, up to `max`.
fn constant_trips(f: &Function, l: &CountedLoop, max: u32) -> Option<u32> {
    let mut i = f.iconst_value(*l.entry.args.get(l.k)?)? as u32;
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
        let Some((l, trips)) = cfg
            .back_edges
            .iter()
            .filter(|(l, h)| l == h)
            .find_map(|&(_, h)| trip_count(f, &cfg, h, max_trips, max_insts))
        else {
            return done;
        };
        unroll(f, &l, trips);
        done += 1;
    }
}

/// The single-block counted loop at `h` ([`counted_loop::recognise`]) with
/// its trip count, if this pass takes it: at most `max_insts` instructions,
/// a compare of the induction parameter `i` (or of `i + step`, the value
/// the back edge passes) on the left with a constant bound, at most 32
/// bits, a step `i + c`, a constant start and at most `max_trips` trips.
fn trip_count(
    f: &Function,
    cfg: &Cfg,
    h: Block,
    max_trips: u32,
    max_insts: usize,
) -> Option<(CountedLoop, u32)> {
    if f.block(h).insts.len() > max_insts {
        return None;
    }
    let l = counted_loop::recognise(f, cfg, h, h)?;
    if l.swapped || l.step_op != BinaryOp::Iadd || f.ty(l.tested).bits() > 32 {
        return None;
    }
    let i = f.block(h).params[l.k];
    if !matches!(f.def_inst(l.back.args[l.k]), Some(InstKind::Binary { args: [x, _], .. }) if *x == i)
    {
        return None;
    }
    if l.next_step.is_some_and(|s| s != l.step) {
        return None;
    }
    let bound = f.iconst_value(l.bound)? as u32;
    let mut i = f.iconst_value(*l.entry.args.get(l.k)?)? as u32;
    for trips in 1..=max_trips {
        let tested = if l.next_step.is_some() {
            i.wrapping_add(l.step)
        } else {
            i
        };
        if !l.cc.eval32(tested, bound) {
            return Some((l, trips));
        }
        i = i.wrapping_add(l.step);
    }
    None
}

fn unroll(f: &mut Function, l: &CountedLoop, trips: u32) {
    let h = l.header;
    let pre_term = *f.block(l.pre).insts.last().expect("has a terminator");
    let (entry, back, exit) = (&l.entry, &l.back, &l.exit);
    let params = f.block(h).params.clone();
    let body: Vec<Inst> = {
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
            dest: BlockCall {
                block: exit.block,
                args: exit_args,
            },
        },
        None,
    );
    f.inst_mut(pre_term).kind = InstKind::Jump {
        dest: BlockCall {
            block: straight,
            args: Vec::new(),
        },
    };
    f.remove_block(h);
    // Values of the loop used after it are the last iteration's.
    apply_replacements(f, &map);
}
