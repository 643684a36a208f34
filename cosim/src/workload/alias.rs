//! Seed 002 in the workload runner: a `kernel: { source: K.cl }` is
//! compiled by gpusim's compiler, and before each dispatch of it the driver
//! analyses the pointer arguments and the JIT's variant cache picks (and,
//! on a miss, compiles) what runs; the dispatch waits for both
//! (docs/compiler.md "Seed 002", docs/workloads.md `source`).
//!
//! The cache and its counters are per process (one `gpusim run` or test
//! binary), so a repeated dispatch with the same layout is a hit.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use arch::device::Device;
use compiler::specialise::reach::{reach, Dispatch, ReachBounds};
use compiler::specialise::{AliasStats, Choice, Facts, PairFact, Relation, VariantCache};
use compiler::{compile, CompileOptions, Compiled, Source};
use sw::driver::alias::{AliasReport, Relation as DriverRelation};
use sw::driver::{Arg, Driver, DriverError, LaunchDims, LoadedKernel, Program};

use super::WorkloadError;

/// How a `source:` kernel is built and dispatched: the workload's compiler
/// options (`options:` and `defines:`, plus any a sweep point adds) and
/// whether seed 002's dispatch-time alias analysis runs (`alias_analysis:`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SourceBuild {
    /// `gpusim compile` options, one word each (`-DTILE=16`).
    pub options: Vec<String>,
    /// Analyse each dispatch's pointer arguments and pick (or compile) a
    /// variant; `false`: every dispatch runs the kernel as compiled.
    pub alias_analysis: bool,
}

impl Default for SourceBuild {
    fn default() -> Self {
        SourceBuild {
            options: Vec::new(),
            alias_analysis: true,
        }
    }
}

impl SourceBuild {
    /// The compiler options: `-O` and wave32 unless the words say otherwise.
    pub fn compile_options(&self) -> Result<CompileOptions, String> {
        crate::cli::compile::parse_options(&self.options)
    }
}

/// Compiles a workload's source kernel with its options.
pub fn compile_source(path: &Path, build: &SourceBuild) -> Result<Compiled, WorkloadError> {
    let fail = |message: String| WorkloadError::CodeObject {
        path: path.to_path_buf(),
        message,
    };
    let opts = build
        .compile_options()
        .map_err(|e| fail(format!("options: {e}")))?;
    compile(Source::Path(path), &opts).map_err(|d| fail(format!("compiling: {d}")))
}

/// A source kernel as the JIT keeps it: the compiled object with its IR, and
/// each kernel's pointer reach (it depends on the kernel, not the dispatch).
pub struct SourceKernels {
    /// What the compiler produced.
    pub compiled: Compiled,
    /// `reach(ir)` for each of `compiled.ir`, in the same order.
    pub reach: Vec<ReachBounds>,
}

impl SourceKernels {
    /// The compiled source with each kernel's reach.
    pub fn new(compiled: Compiled) -> SourceKernels {
        let reach = compiled.ir.iter().map(reach).collect();
        SourceKernels { compiled, reach }
    }
}

/// The source kernel compiled once per process, path and options: the
/// workload's preparation loads its code object, and the JIT needs its kept
/// IR and reach at every dispatch (a `steps:` program dispatches it many
/// times).
pub fn compiled_source(
    path: &Path,
    build: &SourceBuild,
) -> Result<Arc<SourceKernels>, WorkloadError> {
    type Key = (PathBuf, Vec<String>);
    static COMPILED: OnceLock<Mutex<HashMap<Key, Arc<SourceKernels>>>> = OnceLock::new();
    let map = COMPILED.get_or_init(Default::default);
    let key = (path.to_path_buf(), build.options.clone());
    if let Some(c) = map.lock().ok().and_then(|m| m.get(&key).cloned()) {
        return Ok(c);
    }
    let c = Arc::new(SourceKernels::new(compile_source(path, build)?));
    if let Ok(mut m) = map.lock() {
        m.insert(key, c.clone());
    }
    Ok(c)
}

/// The driver's metadata as the compiler's facts (pairs by explicit
/// argument index, which is the kernel parameter index).
pub fn facts_from(report: &AliasReport) -> Facts {
    Facts {
        pairs: report
            .pairs
            .iter()
            .map(|p| PairFact {
                first: p.first.arg as u32,
                second: p.second.arg as u32,
                relation: match p.relation {
                    DriverRelation::Disjoint { .. } => Relation::Disjoint,
                    DriverRelation::PartialOverlap { .. } => Relation::Overlap { delta: p.delta() },
                },
            })
            .collect(),
    }
}

fn cache() -> &'static Mutex<VariantCache> {
    static CACHE: OnceLock<Mutex<VariantCache>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(VariantCache::new()))
}

/// The process's seed 002 counters (what `gpusim run --stats` prints).
pub fn stats() -> AliasStats {
    cache().lock().map(|c| c.stats()).unwrap_or_default()
}

/// The driver's analysis of one dispatch, each pointer's region cut to
/// the reach the compiler bounds for this launch (`compiler::specialise::reach`;
/// an unbounded pointer reaches to the end of its allocation).
pub fn analyse<D: Device>(
    driver: &Driver<D>,
    reach: &ReachBounds,
    kernel: &LoadedKernel,
    args: &[Arg],
    dims: LaunchDims,
) -> Result<AliasReport, DriverError> {
    analyse_bounded(driver, reach, kernel, args, dims, &[])
}

/// As [`analyse`], each pointer argument `i` also cut to `bounds[i]` bytes
/// where the caller knows the buffer it passed is smaller than the
/// allocation holding it (an OpenCL sub-buffer: its region ends where the
/// sub-buffer does, not at the end of its parent).
pub fn analyse_bounded<D: Device>(
    driver: &Driver<D>,
    reach: &ReachBounds,
    kernel: &LoadedKernel,
    args: &[Arg],
    dims: LaunchDims,
    bounds: &[Option<u64>],
) -> Result<AliasReport, DriverError> {
    let dispatch = Dispatch {
        args: args
            .iter()
            .map(|a| match a {
                Arg::Value(bytes) if bytes.len() <= 8 => {
                    let mut raw = [0u8; 8];
                    raw[..bytes.len()].copy_from_slice(bytes);
                    Some(u64::from_le_bytes(raw))
                }
                _ => None,
            })
            .collect(),
        global_size: dims.grid.map(u64::from),
        local_size: dims.workgroup.map(u64::from),
    };
    let mut bytes = reach.eval(&dispatch, args.len());
    for (i, b) in bounds.iter().enumerate() {
        if let (Some(b), Some(slot)) = (b, bytes.get_mut(i)) {
            *slot = Some(slot.map_or(*b, |r| r.min(*b)));
        }
    }
    Ok(sw::driver::alias::analyse(
        &driver.alias_regions(kernel, args, &bytes)?,
    ))
}

/// Before a dispatch of `kernel` (loaded from `source`'s code object, built
/// as `build` says) with `args` and `dims`: analyse, pick the variant, load
/// it. Returns the kernel to dispatch and the program to unload afterwards
/// (`None`: the original).
pub fn select<D: Device>(
    driver: &mut Driver<D>,
    source: &Path,
    build: &SourceBuild,
    kernel: &LoadedKernel,
    args: &[Arg],
    dims: LaunchDims,
) -> Result<(LoadedKernel, Option<Program>), DriverError> {
    let fail = |reason: String| DriverError::BadLaunch {
        kernel: kernel.name().to_string(),
        reason: format!("seed 002 recompilation: {reason}"),
    };
    let source = compiled_source(source, build).map_err(|e| fail(e.to_string()))?;
    let opts = build.compile_options().map_err(fail)?;
    select_compiled(driver, &source, &opts.backend, kernel, args, dims, &[])
}

/// As [`select`], for a source compiled by the caller with `backend`
/// options (the OpenCL platform's `clBuildProgram`), the pointer regions
/// cut to `bounds` as [`analyse_bounded`] does.
pub fn select_compiled<D: Device>(
    driver: &mut Driver<D>,
    source: &SourceKernels,
    backend: &compiler::backend::CompileOptions,
    kernel: &LoadedKernel,
    args: &[Arg],
    dims: LaunchDims,
    bounds: &[Option<u64>],
) -> Result<(LoadedKernel, Option<Program>), DriverError> {
    let fail = |reason: String| DriverError::BadLaunch {
        kernel: kernel.name().to_string(),
        reason: format!("seed 002 recompilation: {reason}"),
    };
    let index = source
        .compiled
        .ir
        .iter()
        .position(|f| f.name == kernel.name())
        .ok_or_else(|| fail(format!("no IR for `{}`", kernel.name())))?;
    let ir = &source.compiled.ir[index];
    let report = analyse_bounded(driver, &source.reach[index], kernel, args, dims, bounds)?;
    let choice = cache()
        .lock()
        .map_err(|_| fail("the variant cache is poisoned".into()))?
        .select(ir, &facts_from(&report), backend)
        .map_err(|e| fail(e.to_string()))?;
    match choice {
        Choice::Original => Ok((kernel.clone(), None)),
        Choice::Variant { variant, .. } => {
            let program = driver.load(&variant.code_object)?;
            let k = program.kernel(kernel.name())?.clone();
            Ok((k, Some(program)))
        }
    }
}
