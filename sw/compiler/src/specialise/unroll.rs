//! Seed 002's loop rewrite: unroll an innermost counted loop by `U`, put
//! the copies' loads before their stores where the dependences allow, and
//! address every copy's access from copy 0's address plus a constant so the
//! back end can merge them into wide memory operations
//! (docs/compiler.md "Seed 002").
//!
//! The loop shape (what the lowering makes of a `for`): a header `H` with
//! block parameters, entered from one preheader by a jump, ending in
//! `brif (iv < bound) body, exit`; a straight chain of blocks from the body
//! back to `H`, the latch passing `iv + 1`. The rewrite:
//!
//! ```text
//! pre: jump H4(args)                        H4(p…): t = iv + (U−1)
//!                                                   brif t < bound && t > iv, B4, H(p…)
//! B4: U copies of the body (scheduled)      jump H4(next…)
//! H:  the original loop, now the remainder (< U iterations)
//! ```

use std::collections::HashMap;

use super::deps::{independent, Access, AffineCache};
use super::Facts;
use crate::ir::cfg::Cfg;
use crate::ir::counted_loop::{self, def_block};
use crate::ir::{
    space_of, BinaryOp, Block, BlockCall, Function, Inst, InstKind, IntCC, Type, Value, ValueDef,
};

/// What was done to one loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopReport {
    /// Unroll factor (1: left alone).
    pub unroll: u32,
    /// True when every copy's loads come before every copy's stores.
    pub grouped: bool,
    /// The largest factor the dependences allow for full grouping (0 when
    /// even 2 is not allowed); `unroll` is this, or 4 when it is 0.
    pub legal_group: u32,
}

/// The unroll factor the spec's example uses and the widest access
/// (`dwordx4`) can take.
pub const MAX_UNROLL: u32 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ult,
    Slt,
    Ne,
}

struct Shape {
    pre: Block,
    header: Block,
    chain: Vec<Block>,
    latch: Block,
    iv: usize,
    bound: Value,
    kind: Kind,
}

/// Recognises the loop of back edge `(latch, header)`: a counted loop
/// ([`counted_loop::recognise`]) whose body is a straight chain of blocks
/// from the header's branch to the latch, counting a 32-bit parameter up
/// by one while it is `<` (signed or not) or `!=` a bound defined before
/// the loop, with no barrier inside.
fn shape(f: &Function, cfg: &Cfg, latch: Block, header: Block) -> Option<Shape> {
    if latch == header {
        return None;
    }
    let l = counted_loop::recognise(f, cfg, latch, header)?;
    if !l.enter.args.is_empty() {
        return None;
    }
    // A straight chain of blocks from the body start to the latch.
    let mut chain = vec![l.enter.block];
    loop {
        let last = *chain.last().expect("non-empty");
        if !f.block(last).params.is_empty() || cfg.preds[last.index()].len() != 1 {
            return None;
        }
        let InstKind::Jump { dest } = f.terminator(last)? else {
            return None;
        };
        if dest.block == header {
            break;
        }
        if chain.contains(&dest.block) || !dest.args.is_empty() {
            return None;
        }
        chain.push(dest.block);
    }
    if *chain.last().expect("non-empty") != latch || chain.len() + 1 != l.blocks.len() {
        return None;
    }
    let iv = f.block(header).params[l.k];
    if l.next_step.is_some() || l.step_op != BinaryOp::Iadd || l.step != 1 || f.ty(iv) != Type::I32
    {
        return None;
    }
    let kind = match l.cc {
        IntCC::Ult => Kind::Ult,
        IntCC::Slt => Kind::Slt,
        IntCC::Ne => Kind::Ne,
        _ => return None,
    };
    let outside = def_block(f, l.bound).is_some_and(|b| !l.blocks.contains(&b));
    if !outside {
        return None;
    }
    for &b in &l.blocks {
        for &i in &f.block(b).insts {
            if matches!(f.inst(i).kind, InstKind::Barrier) {
                return None;
            }
        }
    }
    Some(Shape {
        pre: l.pre,
        header,
        chain,
        latch,
        iv: l.k,
        bound: l.bound,
        kind,
    })
}

/// Replaces the header parameters that every iteration passes on
/// unchanged by the value the preheader gives them, so bounds and pointers
/// are visibly loop-invariant. Returns true when anything changed.
fn forward_invariant_params(f: &mut Function, cfg: &Cfg, latch: Block, header: Block) -> bool {
    let preds = &cfg.preds[header.index()];
    let [a, b] = preds[..] else { return false };
    let pre = if a == latch { b } else { a };
    let (Some(InstKind::Jump { dest: entry }), Some(InstKind::Jump { dest: back })) =
        (f.terminator(pre).cloned(), f.terminator(latch).cloned())
    else {
        return false;
    };
    let params = f.block(header).params.clone();
    let mut map = HashMap::new();
    for (k, &p) in params.iter().enumerate() {
        if back.args.get(k) == Some(&p) && entry.block == header {
            map.insert(p, entry.args[k]);
        }
    }
    if map.is_empty() {
        return false;
    }
    let mut changed = false;
    for b in f.blocks().to_vec() {
        for i in f.block(b).insts.clone() {
            let is_back = b == latch && f.block(b).insts.last() == Some(&i);
            f.inst_mut(i).kind.map_operands(|v| match map.get(&v) {
                // The back edge keeps passing the parameter to itself.
                Some(&n) if !is_back => {
                    changed = true;
                    n
                }
                _ => v,
            });
        }
    }
    changed
}

fn access_of(f: &Function, aff: &mut AffineCache, i: Inst) -> Option<Access> {
    let (addr, ty, writes, fence) = match &f.inst(i).kind {
        InstKind::Load { ty, addr } => (*addr, *ty, false, false),
        InstKind::Store { addr, value } => (*addr, f.ty(*value), true, false),
        InstKind::Atomic { addr, value, .. } => (*addr, f.ty(*value), true, true),
        _ => return None,
    };
    Some(Access {
        addr: aff.of(f, addr),
        size: i64::from(ty.bytes().max(1)),
        space: space_of(f.ty(addr))?,
        writes,
        fence,
    })
}

/// The largest `u ≤ MAX_UNROLL` for which putting all `u` copies' loads
/// before their stores keeps every dependence: no store of copy `i` may
/// touch what a load of a later copy `j` reads (spec 002 §4's hazard: with
/// `out = in + d`, `j − i = d`), no store may pass another that writes the
/// same bytes, and no load may pass a store of its own copy. 0 when not
/// even 2 is allowed.
fn legal_group(accesses: &[(usize, Access)], iv: Value, facts: &Facts) -> u32 {
    'u: for u in (2..=MAX_UNROLL).rev() {
        for (px, x) in accesses {
            for (py, y) in accesses {
                for i in 0..u as i64 {
                    for j in 0..u as i64 {
                        // Sequential order: (copy, position). Grouped order:
                        // loads first, then stores, each by (position, copy).
                        let before = (i, *px) < (j, *py);
                        let key = |a: &Access, p: usize, c: i64| (a.writes, p, c);
                        let after_grouping = key(x, *px, i) < key(y, *py, j);
                        if before
                            && !after_grouping
                            && !independent(&x.shifted(iv, i), &y.shifted(iv, j), facts)
                        {
                            continue 'u;
                        }
                    }
                }
            }
        }
        return u;
    }
    0
}

/// Unrolls, groups and prepares for wide accesses every loop of `f` that
/// has the shape above and both loads and stores. Returns one report per
/// rewritten loop.
pub fn transform_loops(f: &mut Function, facts: &Facts) -> Vec<LoopReport> {
    let mut done: Vec<Block> = Vec::new();
    let mut reports = Vec::new();
    loop {
        let cfg = Cfg::new(f);
        let mut found = None;
        for &(latch, header) in &cfg.back_edges {
            if done.contains(&header) {
                continue;
            }
            if forward_invariant_params(f, &cfg, latch, header) {
                found = Some(None);
                break;
            }
            if let Some(s) = shape(f, &cfg, latch, header) {
                found = Some(Some(s));
                break;
            }
        }
        match found {
            None => return reports,
            Some(None) => continue,
            Some(Some(s)) => {
                done.push(s.header);
                if let Some((r, h4)) = rewrite(f, &s, facts) {
                    done.push(h4);
                    reports.push(r);
                }
            }
        }
    }
}

fn rewrite(f: &mut Function, s: &Shape, facts: &Facts) -> Option<(LoopReport, Block)> {
    let h = s.header;
    let mut body: Vec<Inst> = f.block(h).insts.clone();
    body.pop();
    for &b in &s.chain {
        let insts = &f.block(b).insts;
        body.extend_from_slice(&insts[..insts.len() - 1]);
    }
    let params = f.block(h).params.clone();
    let iv = params[s.iv];
    let mut aff = AffineCache::new();
    let accesses: Vec<(usize, Access)> = body
        .iter()
        .enumerate()
        .filter_map(|(p, &i)| access_of(f, &mut aff, i).map(|a| (p, a)))
        .collect();
    if !accesses.iter().any(|(_, a)| a.writes) || !accesses.iter().any(|(_, a)| !a.writes) {
        return None;
    }
    let legal = legal_group(&accesses, iv, facts);
    let u = if legal >= 2 { legal } else { MAX_UNROLL };
    let Some(InstKind::Jump { dest: back }) = f.terminator(s.latch).cloned() else {
        return None;
    };

    // H4: the ×u loop, entered instead of H.
    let h4 = f.create_block();
    let p4: Vec<Value> = params
        .iter()
        .map(|&p| {
            let ty = f.ty(p);
            f.append_block_param(h4, ty)
        })
        .collect();
    let pre_term = *f.block(s.pre).insts.last().expect("terminator");
    if let InstKind::Jump { dest } = &mut f.inst_mut(pre_term).kind {
        dest.block = h4;
    }
    let iv4 = p4[s.iv];
    let i1 = Some(Type::I1);
    let i32t = Some(Type::I32);
    let (_, um1) = f.append_inst(
        h4,
        InstKind::Iconst {
            ty: Type::I32,
            imm: i64::from(u - 1),
        },
        i32t,
    );
    let um1 = um1.expect("result");
    let inst = |f: &mut Function, k: InstKind, ty: Option<Type>| {
        f.append_inst(h4, k, ty).1.expect("result")
    };
    let ok = match s.kind {
        Kind::Ult | Kind::Slt => {
            let (lt, gt) = if s.kind == Kind::Ult {
                (IntCC::Ult, IntCC::Ugt)
            } else {
                (IntCC::Slt, IntCC::Sgt)
            };
            let t = inst(
                f,
                InstKind::Binary {
                    op: BinaryOp::Iadd,
                    args: [iv4, um1],
                },
                i32t,
            );
            let below = inst(
                f,
                InstKind::Icmp {
                    cond: lt,
                    args: [t, s.bound],
                },
                i1,
            );
            // `t > iv`: the last copy's index did not wrap around.
            let no_wrap = inst(
                f,
                InstKind::Icmp {
                    cond: gt,
                    args: [t, iv4],
                },
                i1,
            );
            inst(
                f,
                InstKind::Binary {
                    op: BinaryOp::And,
                    args: [below, no_wrap],
                },
                i1,
            )
        }
        Kind::Ne => {
            let left = inst(
                f,
                InstKind::Binary {
                    op: BinaryOp::Isub,
                    args: [s.bound, iv4],
                },
                i32t,
            );
            inst(
                f,
                InstKind::Icmp {
                    cond: IntCC::Ugt,
                    args: [left, um1],
                },
                i1,
            )
        }
    };
    let b4 = f.create_block();
    f.append_inst(
        h4,
        InstKind::Brif {
            cond: ok,
            then_dest: BlockCall {
                block: b4,
                args: Vec::new(),
            },
            else_dest: BlockCall {
                block: h,
                args: p4.clone(),
            },
        },
        None,
    );

    // B4: u copies, each instruction tagged (position, phase, copy).
    let mut tags: HashMap<Inst, (usize, u8, u32)> = HashMap::new();
    let mut cur = p4.clone();
    let mut first_copy: HashMap<usize, Inst> = HashMap::new();
    for c in 0..u {
        let mut map: HashMap<Value, Value> = params.iter().copied().zip(cur.clone()).collect();
        for (pos, &i) in body.iter().enumerate() {
            let d = f.inst(i).clone();
            let mut k = d.kind.clone();
            k.map_operands(|v| *map.get(&v).unwrap_or(&v));
            let ty = d.result.map(|r| f.ty(r));
            let (ni, r) = f.append_inst(b4, k, ty);
            if let (Some(old), Some(new)) = (d.result, r) {
                map.insert(old, new);
            }
            tags.insert(ni, (pos, 1, c));
            if c == 0 {
                first_copy.insert(pos, ni);
            } else if let Some(&i0) = first_copy.get(&pos) {
                rebase_address(f, &mut aff, b4, i0, ni, &mut tags, (pos, c));
            }
        }
        cur = back.args.iter().map(|v| *map.get(v).unwrap_or(v)).collect();
    }
    let (term, _) = f.append_inst(
        b4,
        InstKind::Jump {
            dest: BlockCall {
                block: h4,
                args: cur,
            },
        },
        None,
    );
    let order = schedule(f, b4, term, &tags, facts, &mut aff);
    *f.block_insts_mut(b4) = order;
    Some((
        LoopReport {
            unroll: u,
            grouped: legal >= 2,
            legal_group: legal,
        },
        h4,
    ))
}

/// Readdresses copy `c`'s access `ni` as copy 0's address (`i0`) plus a
/// constant when the two differ by one that fits GLOBAL's 12-bit offset:
/// the back end then folds the constant into `offset:` and the accesses
/// share one address register, which is what merging needs.
fn rebase_address(
    f: &mut Function,
    aff: &mut AffineCache,
    b4: Block,
    i0: Inst,
    ni: Inst,
    tags: &mut HashMap<Inst, (usize, u8, u32)>,
    (pos, c): (usize, u32),
) {
    let addr_of = |k: &InstKind| match k {
        InstKind::Load { addr, .. } | InstKind::Store { addr, .. } => Some(*addr),
        _ => None,
    };
    let (Some(a0), Some(ac)) = (addr_of(&f.inst(i0).kind), addr_of(&f.inst(ni).kind)) else {
        return;
    };
    let (x0, xc) = (aff.of(f, a0), aff.of(f, ac));
    let diff = xc.offset - x0.offset;
    if x0.root != xc.root || x0.terms != xc.terms || diff == 0 || !(-2048..=2047).contains(&diff) {
        return;
    }
    let (ci, k) = f.append_inst(
        b4,
        InstKind::Iconst {
            ty: Type::I32,
            imm: diff,
        },
        Some(Type::I32),
    );
    let ty = f.ty(a0);
    let (pi, p) = f.append_inst(
        b4,
        InstKind::PtrAdd {
            base: a0,
            offset: k.expect("result"),
        },
        Some(ty),
    );
    tags.insert(ci, (pos, 0, c));
    tags.insert(pi, (pos, 0, c));
    // Keep the arena order: the access must come after its new address.
    let list = f.block_insts_mut(b4);
    list.retain(|&x| x != ni);
    list.push(ni);
    let p = p.expect("result");
    match &mut f.inst_mut(ni).kind {
        InstKind::Load { addr, .. } | InstKind::Store { addr, .. } => *addr = p,
        _ => unreachable!("checked"),
    }
}

/// List-schedules the body of `b` (all but `term`): data dependences and
/// every memory dependence the facts cannot rule out are edges; among the
/// ready instructions, non-stores go before stores, then by (position in
/// the body, phase, copy) — so the copies of one access sit together.
fn schedule(
    f: &Function,
    b: Block,
    term: Inst,
    tags: &HashMap<Inst, (usize, u8, u32)>,
    facts: &Facts,
    aff: &mut AffineCache,
) -> Vec<Inst> {
    let insts: Vec<Inst> = f
        .block(b)
        .insts
        .iter()
        .copied()
        .filter(|&i| i != term)
        .collect();
    let n = insts.len();
    let index: HashMap<Inst, usize> = insts.iter().enumerate().map(|(k, &i)| (i, k)).collect();
    let mut preds = vec![0usize; n];
    let mut succs: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut edge = |a: usize, b: usize, preds: &mut Vec<usize>| {
        if !succs[a].contains(&b) {
            succs[a].push(b);
            preds[b] += 1;
        }
    };
    for (k, &i) in insts.iter().enumerate() {
        f.inst(i).kind.for_each_operand(|v| {
            if let ValueDef::Inst(d) = f.value(v).def {
                if let Some(&j) = index.get(&d) {
                    edge(j, k, &mut preds);
                }
            }
        });
    }
    // Memory: in the sequential order (copy, position) — the order the
    // copies were made in — an access depends on every earlier one it may
    // conflict with.
    let mut seq: Vec<usize> = (0..n).collect();
    seq.sort_by_key(|&k| {
        let (p, ph, c) = tags[&insts[k]];
        (c, p, ph)
    });
    let acc: Vec<Option<Access>> = insts.iter().map(|&i| access_of(f, aff, i)).collect();
    for (x, &a) in seq.iter().enumerate() {
        for &bb in &seq[x + 1..] {
            if let (Some(p), Some(q)) = (&acc[a], &acc[bb]) {
                if !independent(p, q, facts) {
                    edge(a, bb, &mut preds);
                }
            }
        }
    }
    let key = |k: usize| {
        let (p, ph, c) = tags[&insts[k]];
        let store = matches!(f.inst(insts[k]).kind, InstKind::Store { .. });
        (store, p, ph, c)
    };
    let mut ready: Vec<usize> = (0..n).filter(|&k| preds[k] == 0).collect();
    let mut out = Vec::with_capacity(n + 1);
    while !ready.is_empty() {
        let (at, _) = ready
            .iter()
            .enumerate()
            .min_by_key(|(_, &k)| key(k))
            .expect("non-empty");
        let k = ready.swap_remove(at);
        out.push(insts[k]);
        for &s in &succs[k] {
            preds[s] -= 1;
            if preds[s] == 0 {
                ready.push(s);
            }
        }
    }
    debug_assert_eq!(out.len(), n, "the dependence graph is acyclic");
    out.push(term);
    out
}
