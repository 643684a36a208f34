//! The translation cache: one translation per (program bytes, binding).
//! A program bound identically in two dispatches is translated once; a
//! different binding (descriptor fields, private size) is a new translation.
//! The key holds the bytes themselves, not a hash, so two programs never
//! share a translation by collision.

use std::collections::HashMap;
use std::sync::Arc;

use super::{translate_code, Binding, Translated, XlateError};

/// What identifies a translation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CacheKey {
    /// The legacy kernel's code.
    pub code: Arc<[u8]>,
    /// Its binding.
    pub binding: Binding,
}

/// Cache counters (`gpusim run --stats` shows them).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// Translations made (misses).
    pub translations: u64,
    /// Look-ups answered from the cache.
    pub hits: u64,
    /// Legacy instructions decoded by all translations.
    pub instructions_in: u64,
    /// gfx1030 instructions emitted by all translations.
    pub instructions_out: u64,
    /// Nanoseconds spent translating.
    pub nanos: u64,
}

impl Stats {
    /// Instructions out per instruction in (0 before any translation).
    pub fn expansion_ratio(&self) -> f64 {
        if self.instructions_in == 0 {
            0.0
        } else {
            self.instructions_out as f64 / self.instructions_in as f64
        }
    }

    /// Legacy instructions translated per second.
    pub fn instructions_per_second(&self) -> f64 {
        if self.nanos == 0 {
            0.0
        } else {
            self.instructions_in as f64 * 1e9 / self.nanos as f64
        }
    }
}

/// Translations by key.
#[derive(Debug, Default)]
pub struct Cache {
    entries: HashMap<CacheKey, Arc<Translated>>,
    stats: Stats,
}

impl Cache {
    /// An empty cache.
    pub fn new() -> Cache {
        Cache::default()
    }

    /// The translation of `code` under `binding`, translating on a miss.
    /// Returns it and whether it was a hit.
    pub fn get_or_translate(
        &mut self,
        code: &[u8],
        binding: Binding,
    ) -> Result<(Arc<Translated>, bool), XlateError> {
        let key = CacheKey {
            code: Arc::from(code),
            binding,
        };
        if let Some(t) = self.entries.get(&key) {
            self.stats.hits += 1;
            return Ok((Arc::clone(t), true));
        }
        let t = Arc::new(translate_code(code, &binding)?);
        self.stats.translations += 1;
        self.stats.instructions_in += t.counts.instructions_in;
        self.stats.instructions_out += t.counts.instructions_out;
        self.stats.nanos += t.counts.nanos;
        self.entries.insert(key, Arc::clone(&t));
        Ok((t, false))
    }

    /// Forgets the translation of `code` under `binding`, returning it.
    pub fn remove(&mut self, code: &[u8], binding: Binding) -> Option<Arc<Translated>> {
        let key = CacheKey {
            code: Arc::from(code),
            binding,
        };
        self.entries.remove(&key)
    }

    /// Counters so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Translations held.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when nothing was translated yet.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}
