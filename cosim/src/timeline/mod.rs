//! `--timeline FILE`: what the clocked GPU did, as a Trace Event Format file
//! that Perfetto (ui.perfetto.dev, `trace_processor_shell`) and
//! chrome://tracing open, or as an SVG picture when FILE ends in `.svg`
//! (docs/timeline.md).
//!
//! The recorder reads the GPU through the same probe the VCD writer uses
//! (`traces::Tracer` walking `ClockedGpu`'s registers every cycle, only the
//! scopes holding the signals below), so it needs nothing from `hw` beyond
//! what a waveform shows and costs nothing when it is off:
//! - `gpu.cuN.schedS.issue_*`, `stall`: issue and stall intervals per SIMD,
//!   and each wave's issue intervals;
//! - `gpu.cuN.waveK.valid`, `age`, `wg`: a span per wave (launch to end);
//! - `gpu.cuN.wgK.valid` with `gpu.dispatch.launch_*`: workgroup spans;
//! - `gpu.frontend.chN.phase`, `entries_done`: front-end channel activity;
//! - `gpu.cuN.resident` and, every [`COUNTER_INTERVAL`] cycles, the run's
//!   statistics: occupancy, L2 hit rate, crossbar utilisation counters.
//!
//! One cycle is one microsecond of trace time (`ts`, `dur`).

mod record;
mod svg;
mod write;

pub use record::{Recorder, Track};
pub use write::validate;

impl Recorder {
    /// Ends every open span, adds the dispatches and writes the file: a
    /// Trace Event Format file, or an SVG picture for a path ending in `.svg`.
    pub fn finish(mut self, gpu: &hw::ClockedGpu, partial: bool) -> Result<(), String> {
        self.close_all(gpu);
        let path = self.path().to_path_buf();
        if path.extension().is_some_and(|e| e == "svg") {
            svg::draw(&self, &path)
        } else {
            write::write(&self, &path, partial)
        }
    }
}

/// Cycles between counter samples (occupancy, L2 hit rate, crossbar).
pub const COUNTER_INTERVAL: u64 = 256;

/// Spans kept at most: about 100 MB while recording and what trace viewers
/// still open. A longer run's timeline covers its start and says where it
/// stops (`otherData.truncated_at`); use a shorter workload, or `--to` on a
/// VCD, for the rest.
pub const MAX_SPANS: usize = 1_000_000;

/// CPU seconds `rsvg-convert` spends drawing `svg` to a PNG (the figure
/// the timeline tests bound; the child's own CPU time from `wait4`, which a
/// loaded machine or other tests' processes do not inflate as they would
/// wall time). `None` when `rsvg-convert` is not installed, unless
/// `GPUSIM_REQUIRE_RSVG` is set (CI installs it): then a missing tool panics.
#[doc(hidden)]
#[cfg(unix)]
pub fn render_cpu_seconds(svg: &std::path::Path) -> Option<f64> {
    let png = svg.with_extension("png");
    let child = std::process::Command::new("rsvg-convert")
        .arg("-o")
        .arg(&png)
        .arg(svg)
        .spawn();
    let Ok(child) = child else {
        assert!(
            std::env::var_os("GPUSIM_REQUIRE_RSVG").is_none(),
            "rsvg-convert is missing and GPUSIM_REQUIRE_RSVG is set"
        );
        return None;
    };
    let mut status = 0;
    // SAFETY: wait4 reaps our own child and writes only the two outputs.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut u) };
    assert!(pid > 0, "wait4 on rsvg-convert failed");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "rsvg-convert failed on {}",
        svg.display()
    );
    let _ = std::fs::remove_file(&png);
    let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
    Some(t(u.ru_utime) + t(u.ru_stime))
}
