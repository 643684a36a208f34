//! Loop-invariant code motion into the loop's preheader.

use super::cse::cse_candidate;
use crate::ir::cfg::Cfg;
use crate::ir::{Block, Function, InstKind, Value, ValueDef};

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
                ValueDef::Param(b, _) => Some(b),
                ValueDef::Inst(i) => f.inst(i).block,
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
