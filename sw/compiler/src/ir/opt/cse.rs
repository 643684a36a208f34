//! Common-subexpression elimination: global value numbering over the
//! dominator tree.

use std::collections::HashMap;

use super::apply_replacements;
use crate::ir::cfg::Cfg;
use crate::ir::{Block, Function, InstKind, Type, Value};

/// True for instructions CSE may merge: pure, and not reading memory that a
/// store in between could change.
pub(super) fn cse_candidate(k: &InstKind) -> bool {
    !k.has_side_effects()
        && !matches!(
            k,
            InstKind::Load { .. } | InstKind::Atomic { .. } | InstKind::AtomicCas { .. }
        )
        && !matches!(k, InstKind::Call { builtin, .. } if builtin.reads_exec())
}

/// Global value numbering over the dominator tree: a pure instruction equal
/// to one in a dominating position reuses that one's result. Returns how
/// many were merged (their instructions are left for [`dce`](super::dce)).
pub fn cse(f: &mut Function) -> usize {
    let cfg = Cfg::new(f);
    let mut seen: HashMap<(Type, InstKind), Vec<(Block, Value)>> = HashMap::new();
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
            // (Structural equality: what the Debug text compared before,
            // without formatting every instruction.)
            let key = (f.ty(r), k);
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
