//! Dead-code elimination: pure instructions whose results nobody reads.

use crate::ir::{Function, ValueDef};

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
                if let ValueDef::Inst(di) = f.value(v).def {
                    work.push(di);
                }
            }
        }
    }
    removed
}
