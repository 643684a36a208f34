//! Workloads: YAML files naming a kernel, its launch, its buffers and
//! arguments, and what to check afterwards (format: `docs/workloads.md`).
//!
//! [`Workload::load`] parses and validates a file; [`Workload::prepare`]
//! materialises the code object and the initial buffers; [`execute`] runs
//! that on any device through the driver; [`check`] compares the final
//! buffers and reports the first mismatch.
//!
//! ```
//! use cosim::workload::Workload;
//! let text = "
//! kernel: { corpus: saxpy, target: gfx1030 }
//! grid: 2048
//! workgroup: 256
//! buffers:
//!   - { name: x, type: f32, length: 2048, init: { iota: { start: 0, step: 1 } } }
//!   - { name: y, type: f32, length: 2048 }
//! args: [ { u32: 2048 }, { f32: 2.0 }, { buffer: x }, { buffer: y } ]
//! checks: [ { reference: corpus } ]
//! ";
//! let w = Workload::parse(text, "inline.yaml".as_ref()).unwrap();
//! let p = w.prepare().unwrap();
//! assert_eq!(p.buffers[0].bytes[4..8], 1.0f32.to_le_bytes());
//! ```

pub mod alias;
mod check;
pub mod corpus_files;
mod data;
pub mod dump;
mod located;
mod mismatch;
mod prepare;
mod reference;
mod run;
mod search;
mod steps;
mod yaml;

use std::fmt;
use std::path::{Path, PathBuf};

use sw::driver::LaunchDims;
use thiserror::Error;

pub use alias::SourceBuild;

pub use check::{actual_path, check, check_run, CheckOutcome, CheckReport, MISMATCHES_LISTED};
pub use data::{Draw, ElemType, Init, Number};
pub use mismatch::{Mismatch, MismatchReport};
pub use run::{execute, execute_program, execute_reporting, run_checked};
pub use search::{SearchPath, SEARCH_PATH_VAR};
pub use steps::{PreparedStep, ProgramRun, Step, Until};
pub use yaml::HostWrite;
pub use yaml::{
    target_name, Arg, ArgKind, Buffer, Check, Elements, KernelRef, Mask, Signal, Tolerance, Wait,
    TARGET_NAMES,
};

/// Why a workload could not be loaded, prepared or checked.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum WorkloadError {
    /// A file could not be read.
    #[error("{}: {message}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        message: String,
    },
    /// The YAML is malformed or does not follow the schema.
    #[error("{}:{line}:{column}: {message}", path.display())]
    Yaml {
        /// The workload file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The YAML is well-formed but inconsistent (unknown buffer names, ...).
    #[error("{}: {message}", path.display())]
    Invalid {
        /// The workload file.
        path: PathBuf,
        /// What is wrong, naming the item.
        message: String,
    },
    /// The kernel's code object is unusable.
    #[error("{}: {message}", path.display())]
    CodeObject {
        /// The code object file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The corpus reference could not run on these arguments.
    #[error("corpus reference for `{kernel}`: {message}")]
    Reference {
        /// Corpus kernel.
        kernel: String,
        /// What is wrong.
        message: String,
    },
}

/// A parsed, validated workload.
#[derive(Clone, Debug, PartialEq)]
pub struct Workload {
    /// The file it came from (for messages and relative paths).
    pub path: PathBuf,
    /// The kernel (a code object path here is already resolved).
    pub kernel: KernelRef,
    /// Grid size in work-items.
    pub grid: [u32; 3],
    /// Workgroup size.
    pub workgroup: [u32; 3],
    /// Buffers (file paths in `Init::File` already resolved).
    pub buffers: Vec<Buffer>,
    /// Arguments in kernel order.
    pub args: Vec<Arg>,
    /// Checks (file paths already resolved).
    pub checks: Vec<Check>,
    /// Semaphore acquires before the dispatch (buffers already validated).
    pub wait: Vec<Wait>,
    /// Semaphore releases after the dispatch.
    pub signal: Vec<Signal>,
    /// Set when the kernel creates work through a GPU-owned channel (seed 001).
    pub work_queue: Option<WorkQueue>,
    /// `subvector_mode:`: the issue-order indication the driver writes into
    /// the dispatch packet (seed 000 §4); `None` without the key.
    pub subvector_hint: arch::command::SubvectorHint,
    /// `shared_vgprs:`: VGPRs the parts of a wave share in sub-vector order
    /// (seed 000 §2); `None` without the key (the code object's note decides).
    pub shared_vgprs: Option<u8>,
    /// A multi-dispatch program (`steps:`); empty: one dispatch of `kernel`.
    pub steps: Vec<Step>,
}

/// `work_queue:`: the kernel creates work on a GPU-owned channel
/// (`docs/work-creation.md`); the driver passes the work-queue descriptor as
/// its first argument, before `args`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkQueue {
    /// Kernels the threads may dispatch, in the device library's index order.
    pub children: Vec<String>,
    /// The channel's settings.
    pub config: sw::driver::GpuChannelConfig,
    /// Launches in a row on the same channel (buffers keep their contents).
    pub launches: u32,
}

/// A semaphore command resolved for the driver: a 32-bit word of a buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PreparedSemaphore {
    /// Index into [`Prepared::buffers`].
    pub buffer: usize,
    /// Byte offset of the word in that buffer.
    pub offset: u64,
    /// Acquire: the value compared against; release: the value written.
    pub payload: u32,
    /// Acquire: the comparison; `None` for a release.
    pub compare: Option<arch::command::SemaphoreCompare>,
}

/// An argument resolved for the driver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PreparedArg {
    /// Index into [`Prepared::buffers`].
    Buffer(usize),
    /// A pointer `offset` bytes into buffer `buffer` (`offset:`; seed 002's
    /// overlapping arguments).
    BufferAt {
        /// Index into [`Prepared::buffers`].
        buffer: usize,
        /// Bytes from the buffer's start.
        offset: u64,
    },
    /// Little-endian bytes of a scalar.
    Value(Vec<u8>),
    /// Bytes of LDS.
    Local(u32),
}

/// A buffer's contents on the host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostBuffer {
    /// Buffer name.
    pub name: String,
    /// Element type.
    pub elem: ElemType,
    /// Little-endian contents (`length × elem.size()` bytes).
    pub bytes: Vec<u8>,
}

impl HostBuffer {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.bytes.len() / self.elem.size()
    }

    /// True when the buffer has no elements.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

/// Everything the driver needs to run a workload.
#[derive(Clone, Debug, PartialEq)]
pub struct Prepared {
    /// The code object's bytes.
    pub code_object: Vec<u8>,
    /// Where they came from.
    pub code_object_path: PathBuf,
    /// The kernel to launch.
    pub kernel_name: String,
    /// Launch geometry.
    pub dims: LaunchDims,
    /// Initial buffer contents, in declaration order.
    pub buffers: Vec<HostBuffer>,
    /// Arguments in kernel order.
    pub args: Vec<PreparedArg>,
    /// Semaphore acquires submitted ahead of the dispatch.
    pub waits: Vec<PreparedSemaphore>,
    /// Semaphore releases submitted behind the dispatch.
    pub signals: Vec<PreparedSemaphore>,
    /// The GPU-owned channel, for a kernel that creates work.
    pub work_queue: Option<WorkQueue>,
    /// The issue-order indication for the dispatch packet (seed 000 §4).
    pub subvector_hint: arch::command::SubvectorHint,
    /// The shared-VGPR count for the dispatch packet (seed 000 §2).
    pub shared_vgprs: Option<u8>,
    /// How the kernel was built when it came from `source:` (seed 002's
    /// analysis runs at its dispatch when the build says so).
    pub source: Option<SourceBuild>,
    /// Code objects of the steps (path, bytes); empty without `steps:`.
    pub objects: Vec<(PathBuf, Vec<u8>)>,
    /// For each of `objects`, its build when it came from `source:`.
    pub object_sources: Vec<Option<SourceBuild>>,
    /// The steps; empty: one dispatch of `kernel_name` with `args`.
    pub steps: Vec<PreparedStep>,
}

impl Prepared {
    /// Driver arguments, given the device address of each buffer.
    pub fn driver_args(&self, addresses: &[u64]) -> Vec<sw::driver::Arg> {
        driver_args(&self.args, addresses)
    }
}

/// Driver arguments for `args`, given the device address bound to each buffer.
fn driver_args(args: &[PreparedArg], addresses: &[u64]) -> Vec<sw::driver::Arg> {
    args.iter()
        .map(|a| match a {
            PreparedArg::Buffer(i) => {
                sw::driver::Arg::Buffer(addresses.get(*i).copied().unwrap_or(0))
            }
            PreparedArg::BufferAt { buffer, offset } => {
                sw::driver::Arg::Buffer(addresses.get(*buffer).copied().unwrap_or(0) + offset)
            }
            PreparedArg::Value(v) => sw::driver::Arg::Value(v.clone()),
            PreparedArg::Local(n) => sw::driver::Arg::Local(*n),
        })
        .collect()
}

impl Workload {
    /// The value of the unsigned scalar argument called `name` (the measuring
    /// argument of a microbenchmark), if there is one.
    pub fn u32_arg(&self, name: &str) -> Option<u64> {
        self.args.iter().find_map(|a| match (&a.name, &a.kind) {
            (
                Some(n),
                ArgKind::Scalar {
                    value: Number::UInt(v),
                    ..
                },
            ) if n == name => Some(*v),
            _ => None,
        })
    }

    /// This workload with the scalar argument `name` set to `value`.
    pub fn with_u32_arg(&self, name: &str, value: u64) -> Workload {
        let mut w = self.clone();
        for a in &mut w.args {
            if a.name.as_deref() == Some(name) {
                if let ArgKind::Scalar { value: v, .. } = &mut a.kind {
                    *v = Number::UInt(value);
                }
            }
        }
        w
    }

    /// Reads and validates a workload file; relative code object paths not
    /// found next to it are looked up on the `GPUSIM_PATH` search path.
    pub fn load(path: &Path) -> Result<Workload, WorkloadError> {
        Workload::load_with(path, &SearchPath::from_env())
    }

    /// [`Workload::load`] with an explicit code object search path.
    pub fn load_with(path: &Path, search: &SearchPath) -> Result<Workload, WorkloadError> {
        let text = std::fs::read_to_string(path).map_err(|e| WorkloadError::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        Workload::parse_with(&text, path, search)
    }

    /// Parses workload text; `path` names it in messages and anchors
    /// relative paths (the search path is `GPUSIM_PATH`'s).
    pub fn parse(text: &str, path: &Path) -> Result<Workload, WorkloadError> {
        Workload::parse_with(text, path, &SearchPath::from_env())
    }

    /// [`Workload::parse`] with an explicit code object search path.
    pub fn parse_with(
        text: &str,
        path: &Path,
        search: &SearchPath,
    ) -> Result<Workload, WorkloadError> {
        // Enums are written as one-key maps (`init: { iota: {...} }`) or plain
        // names (`init: zero`) rather than YAML tags.
        let de = serde_norway::Deserializer::from_str(text);
        let raw: yaml::RawWorkload = serde_norway::with::singleton_map_recursive::deserialize(de)
            .map_err(|e: serde_norway::Error| {
            let (line, column) = e.location().map_or((0, 0), |l| (l.line(), l.column()));
            let mut message = e.to_string();
            // serde_norway says " at line L column C" of the error's own
            // location, which the prefix gives; other positions it names (where
            // an unclosed flow sequence started, say) stay.
            let own = format!(" at line {line} column {column}");
            if let Some(i) = message.find(&own) {
                message.replace_range(i..i + own.len(), "");
            }
            WorkloadError::Yaml {
                path: path.to_path_buf(),
                line,
                column,
                message,
            }
        })?;
        let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
        let invalid = |message: String| WorkloadError::Invalid {
            path: path.to_path_buf(),
            message,
        };
        let mut buffers = raw.buffers;
        for (i, b) in buffers.iter().enumerate() {
            if buffers[..i].iter().any(|o| o.name == b.name) {
                return Err(invalid(format!(
                    "buffers[{i}]: a second buffer called `{}`",
                    b.name
                )));
            }
        }
        for b in &mut buffers {
            if let Init::File(p) = &mut b.init {
                *p = dir.join(&*p);
            }
        }
        let names = || {
            buffers
                .iter()
                .map(|b| b.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let known = |name: &str| buffers.iter().any(|b| b.name == name);
        for (i, a) in raw.args.iter().enumerate() {
            if let ArgKind::Buffer(name) = &a.kind {
                if !known(name) {
                    return Err(invalid(format!(
                        "args[{i}]: unknown buffer `{name}` (buffers: {})",
                        names()
                    )));
                }
            }
        }
        let mut checks = raw.checks;
        for (i, c) in checks.iter_mut().enumerate() {
            if let Check::File {
                buffer, expected, ..
            } = c
            {
                if !known(buffer) {
                    return Err(invalid(format!(
                        "checks[{i}]: unknown buffer `{buffer}` (buffers: {})",
                        names()
                    )));
                }
                *expected = dir.join(&*expected);
            }
            if let Check::File {
                elements:
                    Elements {
                        mask: Some(Mask::File(m)),
                        ..
                    },
                ..
            } = c
            {
                *m = dir.join(&*m);
            }
        }
        let waits = raw
            .wait
            .iter()
            .enumerate()
            .map(|(i, w)| ("wait", i, w.buffer.as_str(), w.index));
        let signals = raw
            .signal
            .iter()
            .enumerate()
            .map(|(i, s)| ("signal", i, s.buffer.as_str(), s.index));
        // A semaphore is a 32-bit word inside a declared buffer.
        for (what, i, buffer, index) in waits.chain(signals) {
            let item = format!("{what}[{i}]");
            let Some(b) = buffers.iter().find(|b| b.name == buffer) else {
                return Err(invalid(format!(
                    "{item}: unknown buffer `{buffer}` (buffers: {})",
                    names()
                )));
            };
            if b.elem.size() != 4 {
                return Err(invalid(format!(
                    "{item}: buffer `{buffer}` holds {} elements; a semaphore is a 32-bit word",
                    b.elem
                )));
            }
            if index >= b.length {
                return Err(invalid(format!(
                    "{item}: index {index} is past the end of `{buffer}` ({} elements)",
                    b.length
                )));
            }
        }
        let resolve_kernel = |k: KernelRef| -> Result<KernelRef, String> {
            Ok(match k {
                KernelRef::CodeObject { path: p, name } => KernelRef::CodeObject {
                    path: search.resolve(&dir, &p, "code_object")?,
                    name,
                },
                KernelRef::Source {
                    path: p,
                    name,
                    build,
                } => KernelRef::Source {
                    path: search.resolve(&dir, &p, "source")?,
                    name,
                    build,
                },
                k => k,
            })
        };
        let kernel = resolve_kernel(raw.kernel).map_err(invalid)?;
        let element = |b: &str| {
            buffers
                .iter()
                .find(|x| x.name == b)
                .map(|x| (x.elem, x.length))
        };
        let mut steps = Vec::new();
        for (i, r) in raw.steps.into_iter().flatten().enumerate() {
            let step = steps::resolve(
                i,
                r,
                (&kernel, raw.grid.0, raw.workgroup.0, &raw.args),
                &element,
                &resolve_kernel,
            )
            .map_err(invalid)?;
            if steps.iter().any(|s: &Step| s.name == step.name) {
                return Err(invalid(format!(
                    "steps[{i}]: a second step called `{}`",
                    step.name
                )));
            }
            steps.push(step);
        }
        if !steps.is_empty()
            && (raw.work_queue.is_some() || !raw.wait.is_empty() || !raw.signal.is_empty())
        {
            return Err(invalid(
                "`steps` cannot be combined with `work_queue`, `wait` or `signal`".into(),
            ));
        }
        for (i, c) in checks.iter().enumerate() {
            if let Some(after) = c.after() {
                if !steps.iter().any(|s| s.name == after) {
                    let known: Vec<&str> = steps.iter().map(|s| s.name.as_str()).collect();
                    return Err(invalid(format!(
                        "checks[{i}]: after: no step called `{after}` (steps: {})",
                        if known.is_empty() {
                            "none".to_string()
                        } else {
                            known.join(", ")
                        }
                    )));
                }
            }
            if let Check::File {
                elements:
                    Elements {
                        mask: Some(Mask::Buffer(m)),
                        ..
                    },
                ..
            } = c
            {
                if !known(m) {
                    return Err(invalid(format!(
                        "checks[{i}]: mask: unknown buffer `{m}` (buffers: {})",
                        names()
                    )));
                }
            }
        }
        let work_queue = match raw.work_queue {
            None => {
                if let KernelRef::Work { name, .. } = &kernel {
                    return Err(invalid(format!(
                        "`{name}` creates work: it needs a `work_queue:` section"
                    )));
                }
                None
            }
            Some(q) => {
                Some(work_queue(&kernel, q).map_err(|m| invalid(format!("work_queue: {m}")))?)
            }
        };
        if work_queue.is_some() && !(raw.wait.is_empty() && raw.signal.is_empty()) {
            return Err(invalid(
                "`wait` and `signal` cannot be combined with `work_queue`".into(),
            ));
        }
        if checks
            .iter()
            .any(|c| matches!(c, Check::CorpusReference { .. }))
        {
            let kernels: Vec<&KernelRef> = if steps.is_empty() {
                vec![&kernel]
            } else {
                steps.iter().map(|s| &s.kernel).collect()
            };
            for k in kernels {
                if corpus_kernel_of(k).is_none() {
                    return Err(invalid(format!(
                        "`reference: corpus` needs a corpus kernel, and `{}` is not one",
                        kernel_label(k)
                    )));
                }
            }
        }
        Ok(Workload {
            path: path.to_path_buf(),
            kernel,
            grid: raw.grid.0,
            workgroup: raw.workgroup.0,
            buffers,
            args: raw.args,
            checks,
            wait: raw.wait,
            signal: raw.signal,
            work_queue,
            subvector_hint: raw
                .subvector_mode
                .map_or_else(Default::default, |m| m.hint()),
            shared_vgprs: raw.shared_vgprs,
            steps,
        })
    }

    /// Launch geometry.
    pub fn dims(&self) -> LaunchDims {
        LaunchDims {
            grid: self.grid,
            workgroup: self.workgroup,
        }
    }

    /// Adds compiler options (a sweep point's `defines.TILE`) to every
    /// `source:` kernel, after the workload's own so they win; an error if
    /// there are options and no source kernel to take them.
    pub fn add_compile_options(&mut self, words: &[String]) -> Result<(), WorkloadError> {
        if words.is_empty() {
            return Ok(());
        }
        let mut found = false;
        let kernels =
            std::iter::once(&mut self.kernel).chain(self.steps.iter_mut().map(|s| &mut s.kernel));
        for k in kernels {
            if let KernelRef::Source { build, .. } = k {
                build.options.extend(words.iter().cloned());
                found = true;
            }
        }
        if !found {
            return Err(self.invalid(format!(
                "compiler options `{}` need a `source:` kernel; this workload's kernels are compiled already",
                words.join(" ")
            )));
        }
        // Checked like the workload's own `options:`.
        let build = SourceBuild {
            options: words.to_vec(),
            alias_analysis: true,
        };
        build
            .compile_options()
            .map_err(|e| self.invalid(format!("options: {e}")))?;
        Ok(())
    }

    /// The corpus kernel this workload runs (by corpus name, or a code
    /// object kernel whose name is a corpus kernel's).
    pub fn corpus_kernel(&self) -> Option<&'static corpus::CorpusKernel> {
        corpus_kernel_of(&self.kernel)
    }

    pub(crate) fn invalid(&self, message: String) -> WorkloadError {
        WorkloadError::Invalid {
            path: self.path.clone(),
            message,
        }
    }
}

impl fmt::Display for Workload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (grid {:?}, workgroup {:?})",
            kernel_label(&self.kernel),
            self.grid,
            self.workgroup
        )
    }
}

fn kernel_label(k: &KernelRef) -> String {
    match k {
        KernelRef::Corpus { name, target } | KernelRef::Work { name, target } => {
            format!("{name} [{}]", target_name(*target))
        }
        KernelRef::CodeObject { path, name } | KernelRef::Source { path, name, .. } => match name {
            Some(n) => format!("{n} in {}", path.display()),
            None => path.display().to_string(),
        },
    }
}

fn corpus_kernel_of(k: &KernelRef) -> Option<&'static corpus::CorpusKernel> {
    // Work-creation kernels have references too (`corpus::work`).
    let any = |n: &str| corpus::find(n).or_else(|| corpus::work::find(n).map(|w| &w.kernel));
    match k {
        KernelRef::Corpus { name, .. } => corpus::find(name),
        KernelRef::Work { name, .. } => corpus::work::find(name).map(|w| &w.kernel),
        KernelRef::CodeObject { name, path } => match name {
            Some(n) => any(n),
            None => path.file_stem().and_then(|s| s.to_str()).and_then(any),
        },
        KernelRef::Source { .. } => None,
    }
}

/// Fills `work_queue:` defaults: from the work registry for a `work:`
/// kernel, otherwise from `GpuChannelConfig::default()`.
fn work_queue(kernel: &KernelRef, q: yaml::RawWorkQueue) -> Result<WorkQueue, String> {
    let registered = match kernel {
        KernelRef::Work { name, .. } => corpus::work::find(name),
        KernelRef::CodeObject { name: Some(n), .. } => corpus::work::find(n),
        _ => None,
    };
    let defaults = sw::driver::GpuChannelConfig::default();
    let children = match (q.children, registered) {
        (Some(c), _) => c,
        (None, Some(r)) => r.children.iter().map(|c| c.to_string()).collect(),
        (None, None) => {
            return Err(
                "`children` lists the kernels the threads dispatch (may be empty: [])".into(),
            )
        }
    };
    let config = sw::driver::GpuChannelConfig {
        index: q.channel.unwrap_or(defaults.index),
        entries: q
            .entries
            .or(registered.map(|r| r.entries))
            .unwrap_or(defaults.entries),
        priority: q.priority.unwrap_or(defaults.priority),
        heap_bytes: q
            .heap_bytes
            .or(registered.map(|r| r.heap_bytes))
            .unwrap_or(defaults.heap_bytes),
        first_entry: q.first_entry.unwrap_or(defaults.first_entry),
    };
    if !(4..=65536).contains(&config.entries) {
        return Err(format!("entries {} not in 4..=65536", config.entries));
    }
    if config.first_entry >= config.entries {
        return Err(format!(
            "first_entry {} is not below entries {}",
            config.first_entry, config.entries
        ));
    }
    if config.index == 0 {
        return Err("channel 0 is the driver's own channel; use another".into());
    }
    let launches = q.launches.unwrap_or(1);
    if launches == 0 {
        return Err("launches must be at least 1".into());
    }
    Ok(WorkQueue {
        children,
        config,
        launches,
    })
}

pub(crate) fn read(path: &Path) -> Result<Vec<u8>, WorkloadError> {
    std::fs::read(path).map_err(|e| WorkloadError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}
