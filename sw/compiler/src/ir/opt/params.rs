//! Block-parameter clean-up: redundant parameters (the classic redundant-phi
//! elimination) and straight-line block chains.
//!
//! The lowering gives a loop header one parameter per variable in scope, so
//! kernel arguments, ids and base addresses travel around every loop; the
//! back end would copy each of them on every back edge. A parameter whose
//! incoming values are all one value `v` (or the parameter itself, on a back
//! edge that passes it unchanged) is `v`: `v` reaches the block on every path,
//! so it dominates the block and can replace the parameter.

use std::collections::HashMap;

use crate::ir::{Block, Function, InstKind, Value};

fn resolve(replace: &HashMap<Value, Value>, mut v: Value) -> Value {
    while let Some(&n) = replace.get(&v) {
        v = n;
    }
    v
}

/// Removes block parameters whose incoming values are all the same value or
/// the parameter itself, repeating until none is left (removing one can
/// make another redundant). Returns how many were removed.
pub fn remove_redundant_params(f: &mut Function) -> usize {
    let mut removed = 0;
    loop {
        // Incoming values per (block, parameter index), from every branch.
        let mut incoming: HashMap<Block, Vec<Vec<Value>>> = HashMap::new();
        for &b in f.blocks() {
            let Some(&t) = f.block(b).insts.last() else {
                continue;
            };
            let mut calls = Vec::new();
            let mut k = f.inst(t).kind.clone();
            k.for_each_block_call_mut(|c| calls.push(c.clone()));
            for c in calls {
                let slots = incoming
                    .entry(c.block)
                    .or_insert_with(|| vec![Vec::new(); c.args.len()]);
                for (s, &v) in slots.iter_mut().zip(&c.args) {
                    s.push(v);
                }
            }
        }
        let mut replace: HashMap<Value, Value> = HashMap::new();
        let mut dropped: HashMap<Block, Vec<usize>> = HashMap::new();
        for &b in f.blocks() {
            if Some(b) == f.entry() {
                continue;
            }
            let Some(slots) = incoming.get(&b) else {
                continue;
            };
            for (j, &p) in f.block(b).params.iter().enumerate() {
                let mut only: Option<Value> = None;
                let mut unique = true;
                for &v in &slots[j] {
                    let v = resolve(&replace, v);
                    if v == p || only == Some(v) {
                        continue;
                    }
                    if only.is_some() {
                        unique = false;
                        break;
                    }
                    only = Some(v);
                }
                let Some(v) = only.filter(|_| unique) else {
                    continue;
                };
                // `v` may itself be a parameter replaced this round; a
                // chain that comes back to `p` would be a cycle.
                if resolve(&replace, v) == p {
                    continue;
                }
                replace.insert(p, v);
                dropped.entry(b).or_default().push(j);
            }
        }
        if replace.is_empty() {
            return removed;
        }
        removed += replace.len();
        for b in f.blocks().to_vec() {
            let Some(&t) = f.block(b).insts.last() else {
                continue;
            };
            f.inst_mut(t).kind.for_each_block_call_mut(|c| {
                if let Some(js) = dropped.get(&c.block) {
                    for &j in js.iter().rev() {
                        c.args.remove(j);
                    }
                }
            });
        }
        for (b, js) in &dropped {
            for &j in js.iter().rev() {
                f.remove_block_param(*b, j);
            }
        }
        for b in f.blocks().to_vec() {
            for i in f.block(b).insts.clone() {
                f.inst_mut(i).kind.map_operands(|v| resolve(&replace, v));
            }
        }
    }
}

/// Merges a block into its predecessor when that predecessor ends in a jump
/// to it and is its only predecessor (the block's parameters become the
/// jump's arguments). Straight-line code — the lowering's chains of blocks,
/// the copies of an unrolled loop body — becomes one block. Returns how many
/// blocks were merged away.
pub fn merge_straight_blocks(f: &mut Function) -> usize {
    let mut merged = 0;
    let mut replace: HashMap<Value, Value> = HashMap::new();
    let mut preds = f.predecessors();
    for a in f.blocks().to_vec() {
        // `a` may have been merged into an earlier block already.
        if !f.blocks().contains(&a) {
            continue;
        }
        while let Some(&jump) = f.block(a).insts.last() {
            let InstKind::Jump { dest } = &f.inst(jump).kind else {
                break;
            };
            let (b, args) = (dest.block, dest.args.clone());
            if b == a || Some(b) == f.entry() || preds[b.index()] != [a] {
                break;
            }
            for (&p, &v) in f.block(b).params.clone().iter().zip(&args) {
                replace.insert(p, v);
            }
            for s in f.successors(b) {
                for p in preds[s.index()].iter_mut() {
                    if *p == b {
                        *p = a;
                    }
                }
            }
            f.remove_inst(jump);
            let moved = std::mem::take(f.block_insts_mut(b));
            for &i in &moved {
                f.inst_mut(i).block = Some(a);
            }
            f.block_insts_mut(a).extend(moved);
            f.remove_block(b);
            f.unroll_hints.retain(|(h, _)| *h != b);
            merged += 1;
        }
    }
    if !replace.is_empty() {
        for b in f.blocks().to_vec() {
            for i in f.block(b).insts.clone() {
                f.inst_mut(i).kind.map_operands(|v| resolve(&replace, v));
            }
        }
    }
    merged
}
