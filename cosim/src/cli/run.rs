//! `gpusim run WORKLOAD.yaml`: load a workload, run it on a model through the
//! driver, check the results.

use std::path::Path;

#[cfg(test)]
use sw::driver::DriverError;

use super::error::CliError;
use crate::channels::ChannelView;
use crate::model::ModelDevice;
use crate::session::{self, RunError, Session, SessionOptions, Statistics, Threads};
use crate::workload::{self, Workload};
use golden::stats::GoldenStats;
use hw::GpuConfig;

/// What `gpusim run` prints stats as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum StatsFormat {
    /// One JSON object on the last line of stdout.
    Json,
    /// Human-readable lines.
    Text,
}

pub use crate::model::Model;

/// Maps a driver error to the CLI's exit-code classes (see
/// [`RunError::kind`]): GPU faults, watchdogs and deadlocked queues are exit
/// 3, everything else is bad input (exit 2).
#[cfg(test)]
fn driver_error(path: &Path, source: DriverError) -> CliError {
    CliError::from(RunError::Driver {
        context: path.to_path_buf(),
        source,
    })
}

/// What `gpusim run` was asked to do.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// The model.
    pub model: Model,
    /// `--stats`.
    pub stats: Option<StatsFormat>,
    /// `--watchdog`: golden instructions / clocked cycles per run call.
    pub watchdog: Option<u64>,
    /// `--wave-watchdog`: golden instructions / clocked resident cycles per wave.
    pub wave_watchdog: Option<u64>,
    /// `--config GPU.yaml` (clocked models; default: the embedded configuration).
    pub config: Option<std::path::PathBuf>,
    /// `--preset NAME` (clocked models; a name from `hw::config::PRESETS`).
    pub preset: Option<String>,
    /// `--vcd FILE`.
    pub vcd: Option<std::path::PathBuf>,
    /// `--trace GLOB[,GLOB...]`.
    pub trace: Option<String>,
    /// `--from CYCLE`.
    pub from: Option<u64>,
    /// `--to CYCLE`.
    pub to: Option<u64>,
    /// `--device`: the GPU's ISA (default gfx1030; gfx803 code is translated).
    pub device: Option<arch::isa::Isa>,
    /// `--mismatch-vcd FILE`: the waveform written after a lockstep mismatch.
    pub mismatch_vcd: std::path::PathBuf,
    /// `--mismatch-cycles N`: cycles before the mismatch it covers.
    pub mismatch_cycles: u64,
    /// `--inject-valu-lane WG_X,WAVE,LANE` (hidden, tests of the mismatch path).
    pub inject_valu_lane: Option<String>,
    /// `--printf-buffer BYTES`.
    pub printf_buffer: Option<u32>,
    /// `--timeline FILE`: a Trace Event Format file (or an SVG picture).
    pub timeline: Option<std::path::PathBuf>,
    /// `--detail`: `--stats text` also lists every counter.
    pub detail: bool,
    /// `--dump DIR`: every buffer's final contents.
    pub dump: Option<std::path::PathBuf>,
    /// `--dump-format`.
    pub dump_format: DumpFormatArg,
    /// `--path DIR`: code object search directories before `GPUSIM_PATH`'s.
    pub search: Vec<std::path::PathBuf>,
    /// `--threads N|auto|auto:N`: worker threads of the clocked GPU.
    pub threads: Threads,
    /// `--parallel-min-busy N` (hidden): see `ClockedGpu::set_parallel_min_busy_cus`.
    pub parallel_min_busy: Option<usize>,
    /// `--jit on`: the functional model compiles hot blocks (`golden::jit`).
    pub jit: bool,
}

/// `--threads`: as given (`N`, `auto`, `auto:N`), or `auto`: adaptive over
/// every core the process may use.
pub(crate) fn threads(given: Option<&str>) -> Result<Threads, CliError> {
    match given {
        Some(s) => s.parse().map_err(CliError::BadInput),
        None => Ok(Threads::auto()),
    }
}

/// `--dump-format`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum DumpFormatArg {
    /// Raw little-endian elements, `NAME.bin`.
    #[default]
    Raw,
    /// NumPy arrays, `NAME.npy`.
    Npy,
}

/// Reads `--config`, or the embedded default.
pub(crate) fn gpu_config(path: Option<&Path>) -> Result<GpuConfig, CliError> {
    Ok(session::gpu_config(path)?)
}

/// The configuration named by `--preset` (an error lists the names).
pub(crate) fn preset_config(name: &str) -> Result<GpuConfig, CliError> {
    Ok(session::preset_config(name)?)
}

/// `--preset` alone or `--preset list`: each preset and what it is.
pub(crate) fn preset_list() -> String {
    let mut out = String::from("presets (--preset NAME; values and sources: docs/config.md):\n");
    for (name, _, what) in hw::config::PRESETS {
        out.push_str(&format!("  {name:<8} {what}\n"));
    }
    out
}

/// Runs one workload; returns the text to print (results, then stats).
pub(crate) fn run(path: &Path, o: &RunOptions) -> Result<String, CliError> {
    golden::jit::set_default(o.jit);
    // In lockstep, --trace also selects what the mismatch waveform shows.
    let traced = o.trace.is_some() && o.model != Model::Lockstep;
    if o.vcd.is_none() && (traced || o.from.is_some() || o.to.is_some()) {
        return Err(CliError::BadInput(
            "--trace, --from and --to select what --vcd writes; give --vcd FILE".into(),
        ));
    }
    let search = workload::SearchPath::from_env().with_first(&o.search);
    let workload = Workload::load_with(path, &search).map_err(RunError::from)?;
    let prepared = workload.prepare().map_err(RunError::from)?;
    let mut session = Session::new(&session_options(path, &prepared, o)?)?;
    let executed = session.run(&workload, &prepared);
    // The waveform is closed on every path, so a fault still leaves a valid file.
    let closed = session.finish_trace();
    let run = executed.map_err(|e| {
        let cycle = e.fault_cycle();
        match (CliError::from(e), cycle, session.device()) {
            (CliError::Mismatch(message), Some(cycle), ModelDevice::Lockstep(l, _)) => {
                CliError::Mismatch(message + &mismatch_waveform(l, cycle, o))
            }
            (error, ..) => error,
        }
    })?;
    closed.map_err(|e| CliError::BadInput(format!("--vcd/--timeline: {e}")))?;
    let mut out = String::new();
    if let Some(dir) = &o.dump {
        let format = match o.dump_format {
            DumpFormatArg::Raw => workload::dump::DumpFormat::Raw,
            DumpFormatArg::Npy => workload::dump::DumpFormat::Npy,
        };
        let files = workload::dump::dump(dir, &run.program.finals, format).map_err(|source| {
            CliError::Io {
                path: dir.clone(),
                source,
            }
        })?;
        out.push_str(&format!(
            "dumped {} buffers to {}\n",
            files.len(),
            dir.display()
        ));
    }
    if !prepared.steps.is_empty() {
        out.push_str(&format!(
            "{} steps, {} dispatches\n",
            prepared.steps.len(),
            run.program.dispatches
        ));
    }
    let report = session.check(&workload, &prepared, &run)?;
    let work_problems = results_text(&mut out, &run, &report);
    out.push_str(&stats_output(&session.statistics(), o.stats, o.detail));
    if o.stats.is_some() {
        out.push_str(&host_stats(&mut session));
    }
    if report.passed() && work_problems.is_empty() {
        Ok(out)
    } else {
        // The results were computed; print them, then fail with exit 1.
        print!("{out}");
        let first = report
            .first_mismatch()
            .map(|m| m.to_string())
            .or_else(|| work_problems.first().cloned())
            .unwrap_or_default();
        Err(RunError::CheckFailed {
            context: path.to_path_buf(),
            first,
        }
        .into())
    }
}

/// Appends the work-creation reports and every check's outcome to `out`;
/// returns the problems of launches that created work (seed 001: refused
/// reservations or allocations fail the run even if the checks pass).
fn results_text(
    out: &mut String,
    run: &session::WorkloadRun,
    report: &workload::CheckReport,
) -> Vec<String> {
    let mut work_problems = Vec::new();
    for r in &run.work {
        out.push_str(&format!(
            "work queue launch {}: g0 {}, {} reservations ({} entries), terminal block at entry {}\n",
            r.epoch, r.g0, r.reservations, r.entries_reserved, r.terminal_entry
        ));
        if r.has_errors() {
            out.push_str(&format!(
                "FAIL work queue launch {}: {}\n",
                r.epoch,
                r.problems()
            ));
            work_problems.push(r.problems());
        }
    }
    for outcome in &report.outcomes {
        match &outcome.mismatch {
            None => out.push_str(&format!("PASS {}\n", outcome.description)),
            Some(m) => {
                out.push_str(&format!("FAIL {}: {m}\n", outcome.description));
                if let Some(r) = &m.report {
                    out.push_str(&format!("{r}\n"));
                }
            }
        }
    }
    work_problems
}

/// The `--stats` lines of the host side: alias analyses (seed 002) and
/// run-time translation (seed 003), each when it happened.
fn host_stats(session: &mut Session) -> String {
    let mut out = String::new();
    let a = crate::workload::alias::stats();
    if a.analyses > 0 {
        out.push_str(&format!(
            "alias (seed 002): {} analyses, {} ran the original, {} recompilations, {} cache hits, {:.3} ms recompiling\n",
            a.analyses,
            a.unchanged,
            a.recompilations,
            a.cache_hits,
            a.compile_time.as_secs_f64() * 1e3
        ));
    }
    let x = session.driver().xlate_stats();
    if x.translations + x.hits > 0 {
        out.push_str(&format!(
            "translation: {} translated, {} cache hits, {} -> {} instructions (expansion {:.3}), {:.3} ms\n",
            x.translations,
            x.hits,
            x.instructions_in,
            x.instructions_out,
            x.expansion_ratio(),
            x.nanos as f64 / 1e6
        ));
    }
    out
}

/// The session `gpusim run` asks for: the device ISA the code needs, the
/// configuration, the outputs.
fn session_options(
    path: &Path,
    prepared: &workload::Prepared,
    o: &RunOptions,
) -> Result<SessionOptions, CliError> {
    // Legacy code runs on the gfx1030 GPU through the run-time translator
    // unless the native gfx803 GPU is asked for.
    let isa = session::device_isa(prepared, o.device)?;
    let config = match &o.preset {
        Some(name) => preset_config(name)?,
        None => gpu_config(o.config.as_deref())?,
    };
    let mut s = SessionOptions::new(o.model, config);
    s.isa = isa;
    s.watchdog = o.watchdog;
    s.wave_watchdog = o.wave_watchdog;
    s.threads = o.threads;
    s.parallel_min_busy = o.parallel_min_busy;
    s.vcd = o.vcd.as_ref().map(|vcd| {
        let options = traces::VcdOptions {
            filter: o.trace.clone(),
            from: o.from,
            to: o.to,
            ..traces::VcdOptions::default()
        };
        (vcd.clone(), options)
    });
    s.timeline = o.timeline.clone();
    s.inject = o.inject_valu_lane.as_deref().map(injection).transpose()?;
    s.interrupt = true;
    s.label = path.to_path_buf();
    s.printf_buffer = o.printf_buffer;
    Ok(s)
}

/// Parses `--inject-valu-lane WG_X,WAVE,LANE`.
fn injection(spec: &str) -> Result<hw::inject::Injection, CliError> {
    let bad = || {
        CliError::BadInput(format!(
            "--inject-valu-lane {spec}: expected WG_X,WAVE,LANE"
        ))
    };
    let v: Vec<u32> = spec
        .split(',')
        .map(|x| x.trim().parse().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    let [x, wave, lane] = v[..] else {
        return Err(bad());
    };
    let lane = u8::try_from(lane)
        .ok()
        .filter(|l| *l < 64)
        .ok_or_else(bad)?;
    Ok(hw::inject::Injection {
        wave: arch::device::WaveId {
            dispatch: 0,
            workgroup: [x, 0, 0],
            wave,
        },
        kind: hw::inject::InjectKind::ValuLane { lane, bit: 0 },
    })
}

/// Replays a lockstep run that stopped on a mismatch at `cycle`, writing the
/// waveform of the cycles before it; returns the line telling where it is.
fn mismatch_waveform(l: &crate::lockstep::LockstepGpu, cycle: u64, o: &RunOptions) -> String {
    if o.vcd.as_deref() == Some(o.mismatch_vcd.as_path()) {
        // The run's own waveform is that file: keep it rather than overwrite it.
        return format!(
            "\nwaveform: {} (--vcd; the mismatch is at cycle {cycle})",
            o.mismatch_vcd.display()
        );
    }
    match l.replay_waveform(&o.mismatch_vcd, cycle, o.mismatch_cycles, o.trace.clone()) {
        Ok(w) => format!(
            "\nwaveform of cycles {}..={} (the mismatch is at the last): {}",
            w.from,
            w.to,
            o.mismatch_vcd.display()
        ),
        Err(e) => format!("\nno waveform of the cycles before the mismatch: {e}"),
    }
}

/// The `--stats` text for whichever model ran.
fn stats_output(stats: &Statistics, format: Option<StatsFormat>, detail: bool) -> String {
    let Some(format) = format else {
        return String::new();
    };
    match (stats, format) {
        (Statistics::Functional(g), StatsFormat::Json) => json_line(g),
        (Statistics::Functional(g), StatsFormat::Text) => stats_text(g),
        (Statistics::Cycle { stats, .. }, StatsFormat::Json) => json_line(stats),
        (Statistics::Cycle { stats, config }, StatsFormat::Text) => {
            cycle_stats_text(stats, config, detail)
        }
        (
            Statistics::Lockstep {
                stats, lockstep, ..
            },
            StatsFormat::Json,
        ) => json_line(&serde_json::json!({
            "cycle": stats,
            "lockstep": lockstep,
        })),
        (
            Statistics::Lockstep {
                stats,
                config,
                lockstep: s,
            },
            StatsFormat::Text,
        ) => format!(
            "{}lockstep: {} instructions compared, {} waves, {} bytes of final memory compared\n",
            cycle_stats_text(stats, config, detail),
            s.compared,
            s.waves,
            s.memory_bytes_compared
        ),
    }
}

/// The clocked model's statistics as text: the summary a person reads first
/// (ratios rounded; JSON keeps full precision), a line per CU and per
/// dispatch, the channels, and with `--detail` every counter as `dotted.name
/// value` (the same names as the JSON), occupancy samples omitted.
fn cycle_stats_text(s: &hw::stats::GpuStats, config: &GpuConfig, detail: bool) -> String {
    let m = crate::sweep::result::Summary::of(s, config);
    let pct = |f: f64| format!("{:.1} %", f * 100.0);
    let rate = |r: Option<f64>| r.map_or("-".to_string(), pct);
    let stalls: Vec<String> = m
        .stalls
        .iter()
        .filter(|(_, f)| *f >= 0.0005)
        .take(4)
        .map(|(n, f)| format!("{} {}", n.replace('_', " "), pct(*f)))
        .collect();
    let slots = config.cus * config.cu.simds * config.cu.wave_slots;
    let mut out = format!(
        "summary\n  cycles            {}\n  instructions      {} (IPC {:.2} for the GPU, {:.2} per CU)\n  VALU utilisation  {}\n  occupancy         {} of {slots} wave slots\n  top stalls        {} (of SIMD-cycles)\n  hit rates         L0 {}, L2 {}, instruction {}, scalar {}\n  DRAM              {:.1} bytes/cycle ({} bytes read, {} written)\n  crossbar          {} of output-cycles carry a packet\n",
        m.cycles,
        m.instructions,
        m.ipc,
        m.ipc / f64::from(config.cus.max(1)),
        pct(m.valu_utilisation),
        pct(m.occupancy),
        if stalls.is_empty() { "none".to_string() } else { stalls.join(", ") },
        rate(m.l0_hit_rate),
        rate(m.l2_hit_rate),
        rate(m.icache_hit_rate),
        rate(m.scache_hit_rate),
        m.dram_bytes_per_cycle,
        s.memory.dram_bytes_read,
        s.memory.dram_bytes_written,
        pct(m.xbar_utilisation),
    );
    out.push_str("per CU (IPC: that CU's instructions per cycle)\n    cu    IPC   VALU  waves  workgroups  instructions\n");
    for (i, c) in s.cus.iter().enumerate() {
        out.push_str(&format!(
            "  {i:>4}  {:>5.2}  {:>5.1}%  {:>5}  {:>10}  {:>12}\n",
            c.ipc,
            c.valu_utilisation * 100.0,
            c.waves,
            c.workgroups,
            c.instructions.total()
        ));
    }
    for d in &s.dispatches {
        out.push_str(&format!(
            "dispatch {}: {} ({}..{}), {}, {}\n",
            d.number,
            count(d.cycles, "cycle", "cycles"),
            d.start,
            d.end,
            count(d.workgroups, "workgroup", "workgroups"),
            count(d.waves, "wave", "waves")
        ));
    }
    for c in &s.channels {
        channel_text(&mut out, &ChannelView::from(c), "cycles");
    }
    if detail {
        out.push_str("every counter\n");
        let mut value = serde_json::to_value(s).unwrap_or_default();
        if let Some(map) = value.as_object_mut() {
            map.remove("occupancy");
            // Channels read as the lines above, not one counter per GP_GET value.
            map.remove("channels");
        }
        flatten("", &value, &mut out);
    }
    out
}

fn flatten(prefix: &str, v: &serde_json::Value, out: &mut String) {
    match v {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                let name = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&name, v, out);
            }
        }
        serde_json::Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                flatten(&format!("{prefix}.{i}"), v, out);
            }
        }
        other => out.push_str(&format!("  {prefix} {other}\n")),
    }
}

fn json_line<T: serde::Serialize>(v: &T) -> String {
    let mut s = serde_json::to_string(v).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    s.push('\n');
    s
}

fn stats_text(s: &GoldenStats) -> String {
    let mut out = format!(
        "dispatches {}\nworkgroups {}\nwaves {}\ninstructions {}\nactive-lane instructions {}\n",
        s.dispatches, s.workgroups, s.waves, s.instructions, s.active_lane_instructions
    );
    for (class, n) in &s.instructions_by_class {
        out.push_str(&format!("  {class:<8} {n}\n"));
    }
    for c in &s.channels {
        channel_text(&mut out, &ChannelView::from(c), "steps");
    }
    out
}

/// `n` and the noun, singular for 1 ("1 entry", "2 entries").
fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// GP_GET values shown per channel in the text statistics (JSON has them all).
const GP_GET_SHOWN: usize = 32;

/// One channel's lines; `unit` names the waits' unit (steps or cycles).
fn channel_text(out: &mut String, c: &ChannelView, unit: &str) {
    out.push_str(&format!(
        "channel {}: {}, {}, {}, {} ({} waited, {} {}), {}, {} ({} {})\n",
        c.channel,
        count(c.entries, "entry", "entries"),
        count(c.commands, "command", "commands"),
        count(c.dispatches, "dispatch", "dispatches"),
        count(c.acquires, "acquire", "acquires"),
        c.acquires_waited,
        c.acquire_wait,
        unit,
        count(c.releases, "release", "releases"),
        count(c.idle_waits, "idle wait", "idle waits"),
        c.idle_wait,
        unit
    ));
    let shown: Vec<String> = c
        .history
        .iter()
        .take(GP_GET_SHOWN)
        .map(u32::to_string)
        .collect();
    let more = c.history.len() > GP_GET_SHOWN || c.truncated;
    out.push_str(&format!(
        "  GP_GET {}{} ({} values{})\n",
        shown.join(" "),
        if more { " …" } else { "" },
        c.history.len(),
        if c.truncated { ", more not kept" } else { "" }
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use arch::command::SemaphoreCompare;
    use arch::device::BlockedChannel;

    /// A deadlocked queue is a GPU-side failure (exit 3) whose message keeps the
    /// front end's report; a driver misuse is bad input (exit 2).
    #[test]
    fn blocked_front_end_is_exit_3_with_the_report() {
        let blocked = DriverError::Blocked {
            fence: 1,
            address: 0x1000,
            channels: vec![BlockedChannel {
                channel: 0,
                entry: 2,
                address: 0x2000,
                payload: 7,
                compare: SemaphoreCompare::GreaterOrEqual,
                current: 0,
            }],
        };
        let e = driver_error(Path::new("w.yaml"), blocked);
        assert_eq!(e.exit_code(), 3);
        let text = e.to_string();
        assert!(
            text.contains("front end blocked on channel 0 at entry 2"),
            "{text}"
        );
        assert!(text.contains("[0x2000] >= 7"), "{text}");
        let misuse = driver_error(Path::new("w.yaml"), DriverError::BadAlignment(3));
        assert_eq!(misuse.exit_code(), 2);
    }
}
