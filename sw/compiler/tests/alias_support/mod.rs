//! Shared by the seed 002 tests: compile a corpus kernel from source, lay
//! out buffers whose pointer arguments may alias (`offset` bytes into a
//! buffer), and dispatch either the original binary or — the driver's
//! analysis and the JIT's variant cache in between, the dispatch held until
//! both are done — the variant the facts select.

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use arch::device::Device;
use compiler::specialise::{Choice, Facts, PairFact, Relation, Variant, VariantCache};
use compiler::{compile, CompileOptions, Compiled, Source};
use sw::driver::alias::{AliasReport, Relation as DriverRelation};
use sw::driver::{Allocation, Arg, Driver, LaunchDims, LoadedKernel};

/// The repository root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Compiles `tests/kernels/NAME.cl` with `-O`.
pub fn compile_corpus(name: &str) -> Compiled {
    let mut opts = CompileOptions::default();
    opts.backend.optimize = true;
    let path = repo().join(format!("tests/kernels/alias/{name}.cl"));
    compile(Source::Path(&path), &opts).unwrap_or_else(|d| panic!("{name}:\n{d}"))
}

/// The back-end options [`compile_corpus`] used (the variants use them too).
pub fn backend_opts() -> compiler::backend::CompileOptions {
    compiler::backend::CompileOptions {
        optimize: true,
        ..Default::default()
    }
}

/// A kernel argument.
#[derive(Clone, Copy, Debug)]
pub enum A {
    /// Buffer `buf` plus `offset` bytes.
    Buf(usize, u64),
    /// A 32-bit integer.
    U32(u32),
    /// A float.
    F32(f32),
}

/// The driver's metadata as the compiler's facts.
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

/// What one dispatch ran.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The driver's analysis.
    pub report: AliasReport,
    /// The variant, when one ran.
    pub variant: Option<Arc<Variant>>,
    /// True when the variant came from the cache.
    pub hit: bool,
}

/// A driver with buffers, the original kernel and the JIT's cache.
pub struct Session<D: Device> {
    /// The driver (and its device).
    pub driver: Driver<D>,
    /// The buffers, in the order given.
    pub bufs: Vec<Allocation>,
    /// The variant cache.
    pub cache: VariantCache,
    compiled: Compiled,
    original: LoadedKernel,
    loaded: HashMap<String, LoadedKernel>,
}

impl<D: Device> Session<D> {
    /// Loads `compiled` and creates `buffers` (dwords).
    pub fn new(gpu: D, compiled: Compiled, buffers: &[Vec<u32>]) -> Session<D> {
        let mut driver = Driver::new(gpu).unwrap();
        let p = driver.load(&compiled.code_object).unwrap();
        let original = p.kernels[0].clone();
        let bufs = buffers
            .iter()
            .map(|b| {
                let bytes: Vec<u8> = b.iter().flat_map(|x| x.to_le_bytes()).collect();
                driver.create_buffer(&bytes).unwrap()
            })
            .collect();
        Session {
            driver,
            bufs,
            cache: VariantCache::new(),
            compiled,
            original,
            loaded: HashMap::new(),
        }
    }

    fn args(&self, args: &[A]) -> Vec<Arg> {
        args.iter()
            .map(|a| match *a {
                A::Buf(b, off) => Arg::Buffer(self.bufs[b].address + off),
                A::U32(x) => Arg::u32(x),
                A::F32(x) => Arg::f32(x),
            })
            .collect()
    }

    /// Dispatches and waits. With `jit`, the driver analyses the pointer
    /// arguments and the cache picks (compiling if needed) what runs.
    pub fn dispatch(&mut self, grid: u32, wg: u32, args: &[A], jit: bool) -> Outcome {
        let dargs = self.args(args);
        let report = self.driver.analyse_aliases(&self.original, &dargs).unwrap();
        let mut out = Outcome {
            report: report.clone(),
            variant: None,
            hit: false,
        };
        let mut kernel = self.original.clone();
        if jit {
            let facts = facts_from(&report);
            match self
                .cache
                .select(&self.compiled.ir[0], &facts, &backend_opts())
                .unwrap()
            {
                Choice::Original => {}
                Choice::Variant { variant, hit } => {
                    let key = variant.signature.clone();
                    if !self.loaded.contains_key(&key) {
                        let p = self.driver.load(&variant.code_object).unwrap();
                        self.loaded.insert(key.clone(), p.kernels[0].clone());
                    }
                    kernel = self.loaded[&key].clone();
                    out.variant = Some(variant);
                    out.hit = hit;
                }
            }
        }
        self.driver
            .launch(&kernel, LaunchDims::linear(grid, wg), &dargs)
            .unwrap();
        out
    }

    /// Every buffer's contents.
    pub fn read(&self) -> Vec<Vec<u32>> {
        self.bufs
            .iter()
            .map(|&b| {
                self.driver
                    .download(b)
                    .unwrap()
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect()
            })
            .collect()
    }
}

/// A deterministic pseudo-random sequence (xorshift), values below `bound`.
pub fn data(seed: u32, n: usize, bound: u32) -> Vec<u32> {
    let mut x = seed.wrapping_mul(2_654_435_761).max(1);
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x % bound
        })
        .collect()
}

/// Floats in [-1, 1) as bits.
pub fn float_data(seed: u32, n: usize) -> Vec<u32> {
    data(seed, n, 1 << 20)
        .into_iter()
        .map(|x| (x as f32 / (1 << 19) as f32 - 1.0).to_bits())
        .collect()
}

/// Counts the lines of `listing` that are exactly the opcode `op` (the
/// first word).
pub fn count_op(listing: &str, op: &str) -> usize {
    listing
        .lines()
        .filter(|l| l.split_whitespace().next() == Some(op))
        .count()
}
