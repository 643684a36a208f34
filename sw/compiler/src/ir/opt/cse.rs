//! Common-subexpression elimination: global value numbering over the
//! dominator tree.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::apply_replacements;
use crate::ir::cfg::Cfg;
use crate::ir::{Block, Function, InstKind, Type, Value};

/// A multiply-rotate hash (the "Fx" hash of rustc) for the value-number
/// table: its keys are small instructions hashed once each, where SipHash
/// cost half of the pass; no untrusted input reaches it.
#[derive(Default)]
struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            self.write_u64(u64::from_le_bytes(w));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

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
    let mut seen: FxMap<(Type, InstKind), Vec<(Block, Value)>> = FxMap::default();
    let mut replace: FxMap<Value, Value> = FxMap::default();
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
