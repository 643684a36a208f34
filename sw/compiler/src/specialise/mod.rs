//! Dispatch-time specialisation (seed 002): recompiling a kernel when it
//! is dispatched, with the driver's pointer-argument metadata as facts
//! (docs/compiler.md "Seed 002"). The IR analyses live here ([`deps`],
//! [`reach`], the loop rewrite [`unroll`]); the machine-code merge they
//! prepare is a back-end pass, [`crate::backend::wide_merge`].
//!
//! The driver (`sw::driver::alias`) classifies every pair of pointer
//! arguments; pairs that are not identical become [`Facts`]. [`recompile`]
//! takes the kernel's kept IR ([`crate::Compiled::ir`]) and:
//! 1. unrolls each innermost counted loop with loads and stores by `U`
//!    ([`unroll`]), `U` = the largest of 4, 3, 2 for which every copy's
//!    loads may go before every copy's stores — with `out = in + d`
//!    elements and `0 < d < 4` that is `d` (spec 002 §4's hazard), 4 when
//!    no dependence is in the way; when not even 2 is allowed, 4 with the
//!    dependent accesses kept in order;
//! 2. schedules the copies: loads (and everything else) before stores, the
//!    copies of one access side by side, every dependence the facts cannot
//!    rule out kept — without a fact no load passes a store;
//! 3. merges the side-by-side dword accesses into `dwordx2/x3/x4`
//!    ([`crate::backend::wide_merge`], a machine-code pass run through
//!    [`backend::compile_with`]).
//!
//! [`VariantCache`] keeps one compiled variant per kernel and fact
//! signature and counts analyses, recompilations, hits and compile time.

pub mod deps;
pub mod reach;
pub mod unroll;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::backend::{self, wide_merge, BackendError, CompiledKernel};
use crate::ir::Function;

pub use crate::backend::wide_merge::WideReport;
pub use unroll::{LoopReport, MAX_UNROLL};

/// What the driver found out about two pointer parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// The regions they can reach share no byte.
    Disjoint,
    /// They overlap; the second's base is `delta` bytes after the first's.
    Overlap {
        /// `base(second) − base(first)` in bytes.
        delta: i64,
    },
}

/// A fact about parameters `first < second` (kernel parameter indices).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PairFact {
    /// Lower parameter index.
    pub first: u32,
    /// Higher parameter index.
    pub second: u32,
    /// Their relation.
    pub relation: Relation,
}

/// Every fact of one dispatch. Pairs not listed may alias (identical
/// regions have no metadata, spec 002 §3).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Facts {
    /// The facts, any order.
    pub pairs: Vec<PairFact>,
}

impl Facts {
    /// How parameters `p` and `q` relate, seen from `p` (`delta` is
    /// `base(q) − base(p)`); `None` when nothing is known.
    pub fn relation(&self, p: u32, q: u32) -> Option<Relation> {
        self.pairs.iter().find_map(|f| {
            if (f.first, f.second) == (p, q) {
                Some(f.relation)
            } else if (f.first, f.second) == (q, p) {
                Some(match f.relation {
                    Relation::Overlap { delta } => Relation::Overlap { delta: -delta },
                    r => r,
                })
            } else {
                None
            }
        })
    }

    /// The cache key: the facts in parameter order (`0-2:disjoint;…`).
    pub fn signature(&self) -> String {
        let mut v: Vec<PairFact> = self
            .pairs
            .iter()
            .map(|f| {
                if f.first <= f.second {
                    *f
                } else {
                    PairFact {
                        first: f.second,
                        second: f.first,
                        relation: match f.relation {
                            Relation::Overlap { delta } => Relation::Overlap { delta: -delta },
                            r => r,
                        },
                    }
                }
            })
            .collect();
        v.sort_by_key(|f| (f.first, f.second));
        v.iter()
            .map(|f| match f.relation {
                Relation::Disjoint => format!("{}-{}:disjoint", f.first, f.second),
                Relation::Overlap { delta } => format!("{}-{}:overlap{delta:+}", f.first, f.second),
            })
            .collect::<Vec<_>>()
            .join(";")
    }
}

/// A kernel recompiled with facts.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The compiled kernel.
    pub kernel: CompiledKernel,
    /// Its code object (one kernel).
    pub code_object: Vec<u8>,
    /// One report per rewritten loop.
    pub loops: Vec<LoopReport>,
    /// The wide accesses made.
    pub wide: WideReport,
    /// The facts' signature.
    pub signature: String,
    /// How long the recompilation took.
    pub compile_time: Duration,
}

/// Recompiles `ir` (a kernel's kept IR) with `facts`.
pub fn recompile(
    ir: &Function,
    facts: &Facts,
    opts: &backend::CompileOptions,
) -> Result<Variant, BackendError> {
    let t0 = Instant::now();
    let mut f = ir.clone();
    // The back end's own normalisation first, so loops have one latch.
    crate::ir::opt::unify_returns(&mut f);
    crate::ir::opt::unify_latches(&mut f);
    let loops = unroll::transform_loops(&mut f, facts);
    crate::ir::verify(&f)?;
    let mut wide = WideReport::default();
    let kernel = backend::compile_with(&f, opts, &mut |mc| {
        let r = wide_merge::merge(mc);
        wide.loads.extend(r.loads);
        wide.stores.extend(r.stores);
    })?;
    let code_object = backend::code_object(std::slice::from_ref(&kernel))?;
    Ok(Variant {
        kernel,
        code_object,
        loops,
        wide,
        signature: facts.signature(),
        compile_time: t0.elapsed(),
    })
}

/// Counters of the dispatch-time recompilation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AliasStats {
    /// Dispatches whose arguments were analysed.
    pub analyses: u64,
    /// Dispatches that ran the original binary (no facts: every pair identical, or one pointer).
    pub unchanged: u64,
    /// Variants compiled.
    pub recompilations: u64,
    /// Dispatches served by a variant compiled before.
    pub cache_hits: u64,
    /// Time spent recompiling.
    pub compile_time: Duration,
}

/// What a dispatch should run.
#[derive(Clone, Debug)]
pub enum Choice {
    /// The original binary (no facts).
    Original,
    /// A variant, fresh or from the cache.
    Variant {
        /// The variant.
        variant: Arc<Variant>,
        /// True when it came from the cache.
        hit: bool,
    },
}

/// A kernel's IR and the variant compiled from it.
type KernelVariant = (Function, Arc<Variant>);

/// One compiled variant per (kernel, fact signature). Kernels are told
/// apart by their IR, not only their name: applications build many
/// programs whose kernels share one (PyOpenCL's `axpb` for every element
/// type), and a variant of one must never run for another.
#[derive(Default)]
pub struct VariantCache {
    /// By (name and options, fact signature): the kernels of that name
    /// compiled so far, each with its variant.
    variants: HashMap<(String, String), Vec<KernelVariant>>,
    stats: AliasStats,
}

impl VariantCache {
    /// An empty cache.
    pub fn new() -> VariantCache {
        VariantCache::default()
    }

    /// The counters so far.
    pub fn stats(&self) -> AliasStats {
        self.stats
    }

    /// Decides what a dispatch of `ir` with `facts` runs, recompiling on a
    /// miss (the caller holds the dispatch until this returns: spec 002
    /// §6 behaviour 1).
    pub fn select(
        &mut self,
        ir: &Function,
        facts: &Facts,
        opts: &backend::CompileOptions,
    ) -> Result<Choice, BackendError> {
        self.stats.analyses += 1;
        if facts.pairs.is_empty() {
            self.stats.unchanged += 1;
            return Ok(Choice::Original);
        }
        let key = (format!("{}/{opts:?}", ir.name), facts.signature());
        let same = self.variants.entry(key).or_default();
        if let Some((_, v)) = same.iter().find(|(f, _)| f == ir) {
            self.stats.cache_hits += 1;
            return Ok(Choice::Variant {
                variant: v.clone(),
                hit: true,
            });
        }
        let v = Arc::new(recompile(ir, facts, opts)?);
        self.stats.recompilations += 1;
        self.stats.compile_time += v.compile_time;
        same.push((ir.clone(), v.clone()));
        Ok(Choice::Variant {
            variant: v,
            hit: false,
        })
    }
}
