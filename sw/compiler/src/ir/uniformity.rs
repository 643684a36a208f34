//! Uniformity (divergence) analysis: which values are the same in every
//! active lane of a wave (they live in SGPRs and may use scalar memory) and
//! which branches are divergent (they need EXEC masking).
//!
//! A forward data-flow to a fixed point, as Mesa ACO's divergence analysis
//! and LLVM's uniformity analysis do:
//! * sources of divergence: `local_id`, `global_id`, atomics (each lane gets
//!   its own old value), private-memory loads;
//! * an instruction with a divergent operand is divergent;
//! * sync dependence: at the join of a divergent branch (its immediate
//!   post-dominator) every block parameter is divergent — lanes arrive from
//!   different sides;
//! * temporal divergence: a value defined inside a loop with a divergent exit
//!   and used outside it is divergent (lanes leave at different iterations).

use super::cfg::Cfg;
use super::entities::{Block, Value};
use super::function::{Function, ValueDef};
use super::instructions::InstKind;
use super::types::{AddrSpace, Type};

/// The result of the analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Uniformity {
    divergent: Vec<bool>,
    divergent_branch: Vec<bool>,
}

impl Uniformity {
    /// Analyses `f`.
    pub fn analyze(f: &Function, cfg: &Cfg) -> Uniformity {
        let mut u = Uniformity {
            divergent: vec![false; f.value_count()],
            divergent_branch: vec![false; f.block_count()],
        };
        let loops: Vec<Vec<Block>> = cfg
            .back_edges
            .iter()
            .map(|&(latch, header)| cfg.loop_blocks(latch, header))
            .collect();
        // Each round is linear in the function; rounds repeat only while
        // divergence still spreads through block parameters or loops.
        let mut changed = true;
        while changed {
            changed = false;
            for &b in &cfg.rpo {
                for &i in &f.block(b).insts {
                    let d = f.inst(i);
                    let mut div = match &d.kind {
                        InstKind::WorkItem { query, .. } => query.is_divergent(),
                        InstKind::Atomic { .. } | InstKind::AtomicCas { .. } => true,
                        InstKind::Call { builtin, .. } => builtin.is_cross_lane(),
                        InstKind::Load { addr, .. } => f.ty(*addr) == Type::Ptr(AddrSpace::Private),
                        _ => false,
                    };
                    let reads_one_lane = matches!(
                        &d.kind,
                        InstKind::Call { builtin, .. } if builtin.is_wave_uniform()
                    );
                    if !reads_one_lane {
                        d.kind.for_each_operand(|v| div |= u.divergent[v.index()]);
                    }
                    if let Some(r) = d.result {
                        changed |= u.mark(r, div);
                    }
                    match &d.kind {
                        InstKind::Jump { dest } => {
                            changed |= u.pass_args(f, dest.block, &dest.args);
                        }
                        InstKind::Brif {
                            cond,
                            then_dest,
                            else_dest,
                        } => {
                            changed |= u.pass_args(f, then_dest.block, &then_dest.args);
                            changed |= u.pass_args(f, else_dest.block, &else_dest.args);
                            if u.divergent[cond.index()] && !u.divergent_branch[b.index()] {
                                u.divergent_branch[b.index()] = true;
                                changed = true;
                            }
                        }
                        _ => {}
                    }
                }
                if u.divergent_branch[b.index()] {
                    changed |= u.sync_dependence(f, cfg, &loops, b);
                }
            }
        }
        u
    }

    fn mark(&mut self, v: Value, div: bool) -> bool {
        if div && !self.divergent[v.index()] {
            self.divergent[v.index()] = true;
            return true;
        }
        false
    }

    fn pass_args(&mut self, f: &Function, block: Block, args: &[Value]) -> bool {
        let mut changed = false;
        for (&p, &a) in f.block(block).params.iter().zip(args) {
            let d = self.divergent[a.index()];
            changed |= self.mark(p, d);
        }
        changed
    }

    fn sync_dependence(&mut self, f: &Function, cfg: &Cfg, loops: &[Vec<Block>], b: Block) -> bool {
        let mut changed = false;
        if let Some(join) = cfg.ipdom[b.index()] {
            for &p in &f.block(join).params {
                changed |= self.mark(p, true);
            }
        }
        for body in loops.iter().filter(|l| l.contains(&b)) {
            let exits = cfg.succs[b.index()].iter().any(|s| !body.contains(s));
            if !exits {
                continue;
            }
            // Values of the loop used outside it.
            for &ob in f.blocks().iter().filter(|x| !body.contains(x)) {
                for &i in &f.block(ob).insts {
                    let mut uses = Vec::new();
                    f.inst(i).kind.for_each_operand(|v| uses.push(v));
                    for v in uses {
                        let def_block = match f.value(v).def {
                            ValueDef::Param(db, _) => Some(db),
                            ValueDef::Inst(di) => f.inst(di).block,
                        };
                        if def_block.is_some_and(|db| body.contains(&db)) {
                            changed |= self.mark(v, true);
                        }
                    }
                }
            }
        }
        changed
    }

    /// True if `v` may differ between active lanes.
    pub fn is_divergent(&self, v: Value) -> bool {
        self.divergent[v.index()]
    }

    /// True if `v` is the same in every active lane.
    pub fn is_uniform(&self, v: Value) -> bool {
        !self.divergent[v.index()]
    }

    /// True if the branch ending `b` is divergent.
    pub fn is_divergent_branch(&self, b: Block) -> bool {
        self.divergent_branch[b.index()]
    }
}
