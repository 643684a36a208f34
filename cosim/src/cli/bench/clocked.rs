//! `gpusim bench --model cycle|lockstep`: throughput of the clocked GPU.
//!
//! Every gfx1030 and gfx1030-w64 corpus workload runs repeatedly, each run on
//! a freshly built device (building it is not timed, nor is loading the YAML
//! or preparing the buffers). Two clocks per run:
//!
//! * **run**: [`Driver::new`] plus [`workload::execute`] — what a user's run
//!   costs once the device exists: the driver programming the channel,
//!   loading the code object, uploading buffers, writing the command ring,
//!   waiting, downloading and freeing, and every cycle of the model. The
//!   headline rates use this clock.
//! * **device**: only the time inside [`Device::run`], i.e. the clocked model
//!   stepping cycles.
//!
//! Both are wall-clock times. The run is also timed in this thread's CPU time
//! (where the OS provides it): on a shared, loaded machine the wall clock
//! also counts the time other processes held the CPU, the CPU time does not,
//! so the rates (cycles/s, active-lane instructions/s) are computed from the
//! CPU time when it is known and from the wall clock otherwise; the report
//! says which, and gives both times.
//!
//! Runs repeat until both `min_runs` runs and `min_time` of measured time
//! are reached; each figure is the median of its runs (the runs are
//! deterministic, so the spread is the host's noise). The first run's
//! results are checked against the workload's checks (untimed): a throughput
//! figure for a run that computed the wrong answer would be meaningless.
//!
//! For `lockstep` the cycle model is measured on the same workload first and
//! the ratio of the medians reported; with `vcd_overhead` the same model is
//! measured again while writing every signal to a VCD file in a temporary
//! directory (flushing and closing the file is timed too).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use arch::code_object::CodeObject;
use serde_json::{json, Value};
use sw::driver::Driver;
use traces::VcdOptions;

use super::{geometric_mean, load_average, median, thread_cpu_time, Timed};
use crate::cli::run::Model;
use crate::cli::CliError;
use crate::model::{ModelDevice, ModelOptions};
use crate::workload::{self, Workload};
use hw::GpuConfig;

/// What to measure.
pub(crate) struct ClockedOptions<'a> {
    /// `cycle` or `lockstep`.
    pub model: Model,
    /// The clocked GPU's configuration.
    pub config: GpuConfig,
    /// How the configuration was named (`1cu`, `default`, a file).
    pub config_name: String,
    /// Minimum measured time per workload and measurement.
    pub min_time: Duration,
    /// Minimum runs per workload and measurement.
    pub min_runs: u32,
    /// Also measure the run with every signal traced to a VCD file.
    pub vcd_overhead: bool,
    /// The workload files, each with its target name.
    pub files: &'a [(String, PathBuf)],
    /// Print JSON instead of the table.
    pub json: bool,
    /// Worker threads of the clocked GPU (when a run used them, the rates
    /// come from the wall clock: one thread's CPU time no longer covers it).
    pub threads: crate::session::Threads,
    /// Event skipping on (the default) or off.
    pub event_skipping: bool,
}

/// The medians of one measurement.
#[derive(Clone, Copy, Debug)]
struct Timing {
    /// `Driver::new` + `workload::execute`.
    run: Duration,
    /// Inside `Device::run`.
    device: Duration,
    /// This thread's CPU time over the same span as `run`, if known.
    cpu: Option<Duration>,
    runs: u32,
}

impl Timing {
    /// The time rates and ratios are computed from: CPU time when known.
    fn basis(&self) -> Duration {
        self.cpu.unwrap_or(self.run)
    }
}

/// One benchmarked workload.
struct Row {
    name: String,
    ubench: bool,
    /// What ran and how long it took, or why it failed.
    outcome: Result<Measured, String>,
}

struct Measured {
    cycles: u64,
    instructions: u64,
    lanes: u64,
    timing: Timing,
    /// Lockstep only: the cycle model on the same workload.
    cycle_model: Option<Timing>,
    /// With `vcd_overhead`: the same model tracing every signal.
    traced: Option<Timing>,
    /// The functional model's active-lane instructions on the same
    /// workload, when they differ from `lanes`: the kernel's work depends on
    /// timing (a compare-and-swap retry loop runs as often as it loses).
    functional_lanes: Option<u64>,
}

impl Measured {
    fn cycles_per_second(&self) -> f64 {
        self.cycles as f64 / self.timing.basis().as_secs_f64().max(1e-9)
    }
    fn lanes_per_second(&self) -> f64 {
        self.lanes as f64 / self.timing.basis().as_secs_f64().max(1e-9)
    }
    fn lockstep_ratio(&self) -> Option<f64> {
        self.cycle_model
            .map(|c| ratio(self.timing.basis(), c.basis()))
    }
    fn vcd_ratio(&self) -> Option<f64> {
        self.traced.map(|t| ratio(t.basis(), self.timing.basis()))
    }
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(1e-9)
}

/// Runs the measurement; returns the report, or an error naming the failed
/// workloads after printing the report (exit 1), like `gpusim run` does.
pub(crate) fn bench(o: &ClockedOptions) -> Result<String, CliError> {
    let load_before = load_average();
    let scratch = std::env::temp_dir().join(format!("gpusim-bench-{}", std::process::id()));
    if o.vcd_overhead {
        std::fs::create_dir_all(&scratch).map_err(|source| CliError::Io {
            path: scratch.clone(),
            source,
        })?;
    }
    let vcd = scratch.join("trace.vcd");
    // A long measurement shows where it is, but only to a person watching.
    let progress = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let mut rows = Vec::new();
    for (target, file) in o.files {
        let stem = file
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        if progress {
            eprint!("\r\x1b[Kmeasuring {target}/{stem} ...");
        }
        let outcome = bench_one(file, o, o.vcd_overhead.then_some(vcd.as_path()));
        rows.push(Row {
            ubench: stem.starts_with("ubench_"),
            name: format!("{target}/{stem}"),
            outcome,
        });
    }
    if o.vcd_overhead {
        // Best effort: the trace is overwritten by every run, so at most one
        // file is left if removal fails.
        let _ = std::fs::remove_dir_all(&scratch);
    }
    if progress {
        eprint!("\r\x1b[K");
    }
    let load_after = load_average();
    let text = if o.json {
        let mut s = serde_json::to_string_pretty(&json_report(o, &rows, load_before, load_after))
            .unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
        s.push('\n');
        s
    } else {
        text_report(o, &rows, load_before, load_after)
    };
    let failed: Vec<String> = rows
        .iter()
        .filter_map(|r| r.outcome.as_ref().err().map(|e| format!("{}: {e}", r.name)))
        .collect();
    if failed.is_empty() {
        Ok(text)
    } else {
        print!("{text}");
        Err(CliError::CheckFailed(failed.join("; ")))
    }
}

fn bench_one(file: &Path, o: &ClockedOptions, vcd: Option<&Path>) -> Result<Measured, String> {
    let w = Workload::load(file).map_err(|e| e.to_string())?;
    let prepared = w.prepare().map_err(|e| e.to_string())?;
    let isa = CodeObject::parse(&prepared.code_object)
        .map_err(|e| e.to_string())?
        .isa()
        .ok_or("processor not modelled")?;
    let options = ModelOptions {
        model: o.model,
        isa,
        config: o.config.clone(),
        watchdog: None,
        wave_watchdog: None,
    };
    let (timing, stats) = measure(&w, &prepared, &options, None, o)?;
    let cycle_model = if o.model == Model::Lockstep {
        let cycle = ModelOptions {
            model: Model::Cycle,
            ..options.clone()
        };
        Some(measure(&w, &prepared, &cycle, None, o)?.0)
    } else {
        None
    };
    let traced = match vcd {
        Some(path) => Some(measure(&w, &prepared, &options, Some(path), o)?.0),
        None => None,
    };
    // Best effort: a workload the functional model cannot run is not flagged.
    let functional = functional_lanes(&prepared, &options).ok();
    Ok(Measured {
        cycles: stats.cycles,
        instructions: stats.instructions.total(),
        lanes: stats.active_lane_instructions,
        timing,
        cycle_model,
        traced,
        functional_lanes: functional.filter(|&f| f != stats.active_lane_instructions),
    })
}

/// The functional model's active-lane instructions on `prepared` (one run;
/// the functional model is cheap next to the clocked one).
fn functional_lanes(prepared: &workload::Prepared, options: &ModelOptions) -> Result<u64, String> {
    let device = ModelDevice::new(&ModelOptions {
        model: Model::Functional,
        ..options.clone()
    })?;
    let mut driver = Driver::new(device).map_err(|e| e.to_string())?;
    workload::execute(&mut driver, prepared).map_err(|e| format!("functional model: {e}"))?;
    match driver.device() {
        ModelDevice::Functional(g, _) => Ok(g.stats().active_lane_instructions),
        _ => Err("the functional model did not run".into()),
    }
}

/// The note under a table with timing-dependent rows (marked `*`).
const TIMING_NOTE: &str =
    "* timing-dependent work: the functional model executes a different number of \
active-lane instructions (shown); a retry loop (compare-and-swap, a spin on a flag) runs as often \
as its waves lose races, which depends on timing, so the models legitimately differ\n";

/// Repeats one configuration of one workload; returns the medians and the
/// clocked GPU's statistics of the last run.
fn measure(
    w: &Workload,
    prepared: &workload::Prepared,
    options: &ModelOptions,
    vcd: Option<&Path>,
    o: &ClockedOptions,
) -> Result<(Timing, hw::stats::GpuStats), String> {
    let (mut runs, mut devices, mut cpus) = (Vec::new(), Vec::new(), Vec::new());
    let mut spent = Duration::ZERO;
    let mut stats = None;
    while runs.len() < o.min_runs as usize || spent < o.min_time {
        let mut device = ModelDevice::new(options)?;
        device.set_thread_policy(o.threads);
        device.set_event_skipping(o.event_skipping);
        if let Some(path) = vcd {
            device.trace_to(path, VcdOptions::default())?;
        }
        let timed = Timed {
            inner: device,
            in_run: Duration::ZERO,
        };
        let cpu_start = thread_cpu_time();
        let start = Instant::now();
        let mut driver = Driver::new(timed).map_err(|e| e.to_string())?;
        let executed = workload::execute(&mut driver, prepared);
        let closed = driver.device_mut().inner.finish_trace();
        let took = start.elapsed();
        let cpu = thread_cpu_time()
            .zip(cpu_start)
            .map(|(end, start)| end.saturating_sub(start))
            .filter(|_| {
                // Worker threads' time is not in this thread's CPU time.
                let gpu = driver.device().inner.clocked();
                gpu.map_or(true, |g| g.parallel_edges() == 0)
            });
        let finals = executed.map_err(|e| e.to_string())?;
        closed.map_err(|e| format!("VCD: {e}"))?;
        if runs.is_empty() {
            let report = workload::check(w, prepared, &finals).map_err(|e| e.to_string())?;
            if let Some(m) = report.first_mismatch() {
                return Err(format!("check failed: {m}"));
            }
        }
        runs.push(took);
        devices.push(driver.device().in_run);
        cpus.push(cpu);
        spent += took;
        stats = driver.device().inner.clocked().map(|gpu| gpu.stats());
    }
    let stats = stats.ok_or("the model has no clocked GPU")?;
    let mut cpus: Option<Vec<Duration>> = cpus.into_iter().collect();
    Ok((
        Timing {
            run: median(&mut runs),
            device: median(&mut devices),
            cpu: cpus.as_mut().map(|c| median(c)),
            runs: runs.len() as u32,
        },
        stats,
    ))
}

/// Geometric means over the successful rows of one group.
struct Means {
    count: usize,
    cycles_per_second: f64,
    lanes_per_second: f64,
    run_ms: f64,
    lockstep_ratio: Option<f64>,
    vcd_ratio: Option<f64>,
}

fn means<'a>(rows: impl Iterator<Item = &'a Measured> + Clone) -> Means {
    let opt = |v: Vec<Option<f64>>| -> Option<f64> {
        let v: Option<Vec<f64>> = v.into_iter().collect();
        v.filter(|v| !v.is_empty()).map(|v| geometric_mean(&v))
    };
    Means {
        count: rows.clone().count(),
        cycles_per_second: geometric_mean(
            &rows
                .clone()
                .map(|m| m.cycles_per_second())
                .collect::<Vec<_>>(),
        ),
        lanes_per_second: geometric_mean(
            &rows
                .clone()
                .map(|m| m.lanes_per_second())
                .collect::<Vec<_>>(),
        ),
        run_ms: geometric_mean(
            &rows
                .clone()
                .map(|m| m.timing.run.as_secs_f64() * 1e3)
                .collect::<Vec<_>>(),
        ),
        lockstep_ratio: opt(rows.clone().map(|m| m.lockstep_ratio()).collect()),
        vcd_ratio: opt(rows.map(|m| m.vcd_ratio()).collect()),
    }
}

fn groups(rows: &[Row]) -> [(&'static str, Vec<&Row>); 2] {
    [
        ("corpus", rows.iter().filter(|r| !r.ubench).collect()),
        ("ubench", rows.iter().filter(|r| r.ubench).collect()),
    ]
}

fn ok_rows<'a>(rows: &'a [&'a Row]) -> impl Iterator<Item = &'a Measured> + Clone {
    rows.iter().filter_map(|r| r.outcome.as_ref().ok())
}

fn text_report(o: &ClockedOptions, rows: &[Row], before: String, after: String) -> String {
    let mut out = format!(
        "model {} on config {} with {} worker thread(s){}; medians of >= {} runs and >= {} ms per measurement; \
         load average {before} (start) {after} (end)\n\
         run = Driver::new + workload execution (driver work and every cycle), wall clock; \
         cpu = the same in thread CPU time; device = wall time inside Device::run; \
         rates and ratios from {}\n",
        o.model,
        o.config_name,
        o.threads,
        if o.event_skipping { "" } else { ", event skipping off" },
        o.min_runs,
        o.min_time.as_millis(),
        if cpu_known(rows) {
            "CPU time"
        } else {
            "wall time"
        }
    );
    let lockstep = o.model == Model::Lockstep;
    for (group, members) in groups(rows) {
        if members.is_empty() {
            continue;
        }
        out.push_str(&format!(
            "\n{:<30} {:>9} {:>10} {:>5} {:>9} {:>9} {:>9} {:>10} {:>10}",
            group,
            "cycles",
            "lane-insts",
            "runs",
            "run ms",
            "cpu ms",
            "dev ms",
            "Mcycles/s",
            "M lane-i/s"
        ));
        if lockstep {
            out.push_str(&format!(" {:>9}", "vs cycle"));
        }
        if o.vcd_overhead {
            out.push_str(&format!(" {:>9}", "vcd all"));
        }
        out.push('\n');
        for r in &members {
            let m = match &r.outcome {
                Ok(m) => m,
                Err(e) => {
                    out.push_str(&format!("{:<30} FAILED: {e}\n", r.name));
                    continue;
                }
            };
            let name = if m.functional_lanes.is_some() {
                format!("{}*", r.name)
            } else {
                r.name.clone()
            };
            out.push_str(&format!(
                "{:<30} {:>9} {:>10} {:>5} {:>9.3} {:>9} {:>9.3} {:>10.3} {:>10.2}",
                name,
                m.cycles,
                m.lanes,
                m.timing.runs,
                m.timing.run.as_secs_f64() * 1e3,
                m.timing
                    .cpu
                    .map(|c| format!("{:.3}", c.as_secs_f64() * 1e3))
                    .unwrap_or_else(|| "-".into()),
                m.timing.device.as_secs_f64() * 1e3,
                m.cycles_per_second() / 1e6,
                m.lanes_per_second() / 1e6
            ));
            if let Some(x) = m.lockstep_ratio() {
                out.push_str(&format!(" {x:>8.2}x"));
            }
            if let Some(x) = m.vcd_ratio() {
                out.push_str(&format!(" {x:>8.2}x"));
            }
            if let Some(f) = m.functional_lanes {
                out.push_str(&format!(" (functional: {f} lane-insts)"));
            }
            out.push('\n');
        }
        if members.iter().any(|r| {
            r.outcome
                .as_ref()
                .is_ok_and(|m| m.functional_lanes.is_some())
        }) {
            out.push_str(TIMING_NOTE);
        }
        let mean = means(ok_rows(&members));
        if mean.count == 0 {
            continue;
        }
        out.push_str(&format!(
            "geometric mean over {} {group} workloads: {:.3} M simulated cycles/s, \
             {:.2} M active-lane instructions/s, {:.3} ms per run (wall)",
            mean.count,
            mean.cycles_per_second / 1e6,
            mean.lanes_per_second / 1e6,
            mean.run_ms
        ));
        if let Some(x) = mean.lockstep_ratio {
            out.push_str(&format!(", lockstep {x:.2}x the cycle model"));
        }
        if let Some(x) = mean.vcd_ratio {
            out.push_str(&format!(", tracing every signal {x:.2}x"));
        }
        out.push('\n');
    }
    out
}

/// Whether every measured run had a CPU time (so the rates use it).
fn cpu_known(rows: &[Row]) -> bool {
    rows.iter()
        .filter_map(|r| r.outcome.as_ref().ok())
        .all(|m| {
            m.timing.cpu.is_some()
                && m.cycle_model.map_or(true, |t| t.cpu.is_some())
                && m.traced.map_or(true, |t| t.cpu.is_some())
        })
}

fn timing_json(t: &Timing) -> Value {
    json!({
        "run_ms": t.run.as_secs_f64() * 1e3,
        "device_ms": t.device.as_secs_f64() * 1e3,
        "cpu_ms": t.cpu.map(|c| c.as_secs_f64() * 1e3),
        "runs": t.runs,
    })
}

fn json_report(o: &ClockedOptions, rows: &[Row], before: String, after: String) -> Value {
    let row_json = |r: &Row| match &r.outcome {
        Err(e) => json!({ "workload": r.name, "ubench": r.ubench, "error": e }),
        Ok(m) => json!({
            "workload": r.name,
            "ubench": r.ubench,
            "cycles": m.cycles,
            "instructions": m.instructions,
            "active_lane_instructions": m.lanes,
            "timing_dependent": m.functional_lanes.is_some(),
            "functional_active_lane_instructions": m.functional_lanes.unwrap_or(m.lanes),
            "timing": timing_json(&m.timing),
            "cycles_per_second": m.cycles_per_second(),
            "active_lane_instructions_per_second": m.lanes_per_second(),
            "cycle_model": m.cycle_model.as_ref().map(timing_json),
            "lockstep_ratio": m.lockstep_ratio(),
            "traced": m.traced.as_ref().map(timing_json),
            "vcd_ratio": m.vcd_ratio(),
        }),
    };
    let mut summary = serde_json::Map::new();
    for (group, members) in groups(rows) {
        let m = means(ok_rows(&members));
        summary.insert(
            group.to_string(),
            json!({
                "workloads": m.count,
                "failed": members.len() - m.count,
                "cycles_per_second": (m.count > 0).then_some(m.cycles_per_second),
                "active_lane_instructions_per_second": (m.count > 0).then_some(m.lanes_per_second),
                "run_ms": (m.count > 0).then_some(m.run_ms),
                "lockstep_ratio": m.lockstep_ratio,
                "vcd_ratio": m.vcd_ratio,
            }),
        );
    }
    json!({
        "model": o.model.to_string(),
        "config": o.config_name,
        "threads": o.threads.to_string(),
        "event_skipping": o.event_skipping,
        "min_runs": o.min_runs,
        "min_ms": o.min_time.as_secs_f64() * 1e3,
        "load_average": { "start": before, "end": after },
        "rate_basis": if cpu_known(rows) { "cpu" } else { "wall" },
        "rows": rows.iter().map(row_json).collect::<Vec<_>>(),
        "geometric_mean": summary,
    })
}
