//! Signal registry, streaming VCD writer and reader, trace diff.
//!
//! Hardware blocks describe their registers and ports once, with
//! [`signals!`]; the simulator walks the whole design with a [`Tracer`] after
//! every clock edge. The first walk declares the signals (hierarchical names,
//! widths); every later walk only compares values by position, so tracing costs
//! no string work per cycle. [`VcdTrace`] streams the walks into a VCD file
//! (optionally a window of cycles and a subset of signals), and
//! [`read::Waveform`] reads a file back for tests and [`read::diff`]s.
//!
//! ```
//! use arbitrary_int::u5;
//! use traces::read::Waveform;
//! use traces::{Probe, VcdOptions, VcdTrace};
//!
//! traces::signals! {
//!     /// A counter with an enable.
//!     #[derive(Default)]
//!     pub struct Counter {
//!         /// Counts while set.
//!         pub enable: bool,
//!         /// The count (wraps at 32).
//!         pub count: u5,
//!     }
//! }
//!
//! # fn main() -> Result<(), traces::TraceError> {
//! let dir = std::env::temp_dir().join(format!("traces-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let path = dir.join("counter.vcd");
//!
//! let mut c = Counter::default();
//! let mut trace = VcdTrace::create(&path, VcdOptions::default())?;
//! for cycle in 0..40 {
//!     c.enable = cycle % 4 != 0;
//!     if c.enable {
//!         c.count = c.count.wrapping_add(u5::new(1));
//!     }
//!     trace.sample(cycle, |t| c.probe("top", t))?;
//! }
//! trace.finish()?;
//!
//! let wave = Waveform::load(&path)?;
//! assert_eq!(wave.width("top.count"), Some(5));
//! assert_eq!(wave.u64_at("top.enable", 8), Some(0));
//! assert_eq!(wave.u64_at("top.count", 39), Some(30 % 32)); // 30 enabled cycles
//! assert_eq!(wave.u64_at("top.count", 39 + 100), Some(30)); // holds after the end
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok(())
//! # }
//! ```
//!
//! Time: a VCD timestamp is the cycle number passed to [`VcdTrace::sample`];
//! the `$timescale` says how many nanoseconds a cycle lasts
//! ([`VcdOptions::timescale_ns`]).
//!
//! Cost: after the first walk, sampling compares each value with the last one
//! by position and formats only the changed, selected ones. A
//! [`signals!`] block of fixed shape ([`Probe::FLAT`]) writes its values as one
//! run of words that is compared in bulk ([`Tracer::flat_scope`]; a vector of
//! such blocks is one run, [`Tracer::flat_run`]), and a row of slots
//! ([`Tracer::slots`]) steps over the slots that stay idle; given a change
//! generation per slot that the model bumps on every write
//! ([`Tracer::slots_hinted`]), also over the live slots nothing wrote. The ignored
//! benchmark in `tests/integration/bench.rs` (5,000 signals, 5% changing per
//! cycle) measured about 10 µs per walk and 30 µs per written sample on the
//! development machine (lightly loaded) with per-signal calls. Outside the
//! `from`..`to` window the walk is skipped altogether, and with a filter the
//! walk steps over every scope that holds no selected signal (1 block of 100
//! selected: about 5 µs per sample, most of it the benchmark's own updates).
//!
//! Limits: hierarchical names are ASCII without spaces and every signal sits in
//! at least one scope; signals of more than 64 bits go through
//! [`Tracer::wide`]; values are two-state (no `x`/`z`).
#![deny(missing_docs)]

use std::path::PathBuf;

mod filter;
mod header;
mod line;
mod probe;
pub mod read;
mod tracer;
mod writer;

pub use filter::Filter;
pub use probe::{Leaf, Probe};
pub use tracer::{SignalDecl, Tracer};
pub use writer::{VcdOptions, VcdTrace};

/// Why a trace could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A waveform file could not be parsed.
    #[error("{path}: cannot read the waveform: {message}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What the reader said.
        message: String,
    },
    /// The filter text is not a list of globs.
    #[error("trace filter `{filter}`: expected comma-separated globs such as `gpu.cu0.*,*.valid`")]
    BadFilter {
        /// The filter as given.
        filter: String,
    },
    /// A glob of the filter selects no signal.
    #[error(
        "trace filter glob `{glob}` matches no signal{}",
        filter::close_list(close)
    )]
    NoMatch {
        /// The glob.
        glob: String,
        /// Names close to it (the scopes and signals under the longest part
        /// of the glob that does match), for the message.
        close: Vec<String>,
    },
    /// `from` is after `to`.
    #[error("trace window: from cycle {from} is after to cycle {to}")]
    BadWindow {
        /// First cycle.
        from: u64,
        /// Last cycle.
        to: u64,
    },
    /// The timescale is zero.
    #[error("trace timescale must be at least 1 ns per cycle")]
    BadTimescale,
    /// A sample's cycle is not after the previous sample's.
    #[error("trace sample at cycle {cycle} after cycle {last}: cycles must increase")]
    TimeWentBack {
        /// The cycle given.
        cycle: u64,
        /// The previous sample's cycle.
        last: u64,
    },
    /// A signal's width is 0, more than 64 for [`Tracer::signal`], or does not
    /// match the words given to [`Tracer::wide`].
    #[error("signal `{path}`: bad width {width}")]
    BadWidth {
        /// Hierarchical name.
        path: String,
        /// Width given.
        width: u32,
    },
    /// A hierarchical name is empty, has an empty component, a space or a
    /// non-ASCII character, or is not inside any scope.
    #[error("signal name `{path}` is not a dotted path of printable ASCII names inside a scope")]
    BadName {
        /// Hierarchical name.
        path: String,
    },
    /// Two signals have the same hierarchical name.
    #[error("signal `{path}` is declared twice")]
    DuplicateName {
        /// Hierarchical name.
        path: String,
    },
    /// A sampling walk visited a different set of signals than the declaring
    /// walk (the design's structure must not change while traced).
    #[error(
        "traced design changed shape: {declared} signals declared, {visited} visited \
         (or a signal changed between narrow and wide)"
    )]
    StructureChanged {
        /// Signals in the declaring walk.
        declared: usize,
        /// Signals visited by this walk.
        visited: usize,
    },
}
