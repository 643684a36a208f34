//! CFG clean-up the back end relies on: one exit block and one latch per
//! loop (run at every optimisation level, and by seed 002's recompilation).

use crate::ir::cfg::Cfg;
use crate::ir::{Block, BlockCall, Function, Inst, InstKind, Value};

/// Gives the function a single `ret` block: every other `ret` becomes a jump
/// to it (LLVM's UnifyFunctionExitNodes). An early `return` inside a
/// conditional (`if (gid >= n) return;`) then is an ordinary branch to the
/// join, which the back end masks like any other. Returns whether anything
/// changed.
pub fn unify_returns(f: &mut Function) -> bool {
    let rets: Vec<(Block, Inst)> = f
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
            dest: BlockCall {
                block: exit,
                args: Vec::new(),
            },
        };
    }
    true
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
                dest: BlockCall {
                    block: h,
                    args: params,
                },
            },
            None,
        );
    }
    headers.len()
}
