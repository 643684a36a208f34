//! What a job leaves behind: its result file (the point, the workload, the
//! status and exit code, the full stats and a summary of them) and, in a
//! separate file, its wall and CPU time. The result file holds only what the
//! simulation determines, so it has the same bytes whatever `-j` is or
//! whichever machine ran it; the timing file does not.

use std::path::{Path, PathBuf};

use hw::stats::GpuStats;
use hw::GpuConfig;
use serde::{Deserialize, Serialize};

/// How a job ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Ran and every check passed (exit 0).
    Passed,
    /// Ran, a check failed (exit 1).
    CheckFailed,
    /// The workload or configuration could not be used (exit 2).
    BadInput,
    /// GPU fault, watchdog or deadlock (exit 3).
    Fault,
    /// Lockstep found the models disagreeing (exit 4).
    Mismatch,
    /// Stopped by SIGINT/SIGTERM (a Slurm time limit): the stats are partial.
    Interrupted,
    /// The job's process died without writing a result (written by the runner).
    Crashed,
}

impl Status {
    /// True when the job did not pass.
    pub fn failed(self) -> bool {
        self != Status::Passed
    }

    /// The status's name as in the result file.
    pub fn name(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::CheckFailed => "check-failed",
            Status::BadInput => "bad-input",
            Status::Fault => "fault",
            Status::Mismatch => "mismatch",
            Status::Interrupted => "interrupted",
            Status::Crashed => "crashed",
        }
    }
}

/// One job's result file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobResult {
    /// The sweep's name.
    pub sweep: String,
    /// Job index.
    pub job: usize,
    /// Point index.
    pub point: usize,
    /// The point's overrides, field path → value.
    pub overrides: serde_json::Map<String, serde_json::Value>,
    /// The workload, as the sweep file names it.
    pub workload: String,
    /// The model.
    pub model: String,
    /// How it ended.
    pub status: Status,
    /// The exit code `gpusim run` would have given.
    pub exit_code: u8,
    /// The run did not finish (interrupted): the stats cover the cycles run.
    pub partial: bool,
    /// Why it failed, if it did.
    pub message: Option<String>,
    /// The headline figures (see [`Summary`]).
    pub summary: Option<Summary>,
    /// The clocked GPU's full statistics (as `gpusim run --stats json`).
    pub stats: Option<serde_json::Value>,
    /// Lockstep's own counters (model lockstep).
    pub lockstep: Option<serde_json::Value>,
}

/// A job's wall and CPU time (kept out of the result file: they differ from
/// run to run).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Job index.
    pub job: usize,
    /// Wall-clock seconds of the job's process.
    pub wall_seconds: f64,
    /// User + system CPU seconds of the job's process.
    pub cpu_seconds: f64,
}

/// The headline figures of a clocked run, ratios as fractions.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Cycles since reset.
    pub cycles: u64,
    /// Instructions issued.
    pub instructions: u64,
    /// Instructions per cycle, whole GPU.
    pub ipc: f64,
    /// VALU busy SIMD-cycles / (SIMDs × cycles), whole GPU.
    pub valu_utilisation: f64,
    /// Mean resident waves over the occupancy samples / wave slots of the GPU.
    pub occupancy: f64,
    /// Stalled SIMD-cycles by reason / all SIMD-cycles, largest first.
    pub stalls: Vec<(String, f64)>,
    /// Instruction cache hits / lookups (None: no lookups).
    pub icache_hit_rate: Option<f64>,
    /// Scalar cache hit rate.
    pub scache_hit_rate: Option<f64>,
    /// Vector L0 hit rate (cached reads).
    pub l0_hit_rate: Option<f64>,
    /// L2 hit rate.
    pub l2_hit_rate: Option<f64>,
    /// DRAM bytes read and written per cycle.
    pub dram_bytes_per_cycle: f64,
    /// Crossbar packets per cycle / crossbar outputs (both networks).
    pub xbar_utilisation: f64,
}

fn rate(hits: u64, misses: u64) -> Option<f64> {
    let n = hits + misses;
    (n > 0).then(|| hits as f64 / n as f64)
}

impl Summary {
    /// The summary of `s`, a run on `config`.
    pub fn of(s: &GpuStats, config: &GpuConfig) -> Summary {
        let cycles = s.cycles.max(1) as f64;
        let simd_cycles = cycles * f64::from(config.cus) * f64::from(config.cu.simds);
        let valu_busy: u64 = s.cus.iter().map(|c| c.valu_busy_cycles).sum();
        let slots = f64::from(config.cus * config.cu.simds * config.cu.wave_slots);
        let occupancy = if s.occupancy.is_empty() {
            0.0
        } else {
            let sum: u64 = s.occupancy.iter().map(|&(_, w)| u64::from(w)).sum();
            sum as f64 / s.occupancy.len() as f64 / slots
        };
        let st = &s.stalls;
        let mut stalls: Vec<(String, f64)> = [
            ("dependency", st.dependency),
            ("waitcnt", st.waitcnt),
            ("barrier", st.barrier),
            ("bank_conflict", st.bank_conflict),
            ("no_ready_wave", st.no_ready_wave),
            ("fetch", st.fetch),
            ("backpressure", st.backpressure),
        ]
        .iter()
        .map(|&(n, v)| (n.to_string(), v as f64 / simd_cycles))
        .collect();
        // Largest first; ties keep the fixed order above (a stable sort).
        stalls.sort_by(|a, b| b.1.total_cmp(&a.1));
        let m = &s.memory;
        let outputs = f64::from(config.memory.l2.channels + config.cus * 3 + 1);
        Summary {
            cycles: s.cycles,
            instructions: s.instructions.total(),
            ipc: s.instructions.total() as f64 / cycles,
            valu_utilisation: valu_busy as f64 / simd_cycles,
            occupancy,
            stalls,
            icache_hit_rate: rate(m.inst.hits, m.inst.misses),
            scache_hit_rate: rate(m.scalar.hits, m.scalar.misses),
            l0_hit_rate: rate(m.vector.hits, m.vector.misses),
            l2_hit_rate: rate(m.l2.hits, m.l2.misses),
            dram_bytes_per_cycle: (m.dram_bytes_read + m.dram_bytes_written) as f64 / cycles,
            xbar_utilisation: m.xbar_packets as f64 / (cycles * outputs),
        }
    }

    /// The summary as the JSON object result files hold (stalls as an object).
    pub fn to_json(&self) -> serde_json::Value {
        let mut v = serde_json::to_value(self).unwrap_or_default();
        if let Some(m) = v.as_object_mut() {
            let stalls: serde_json::Map<String, serde_json::Value> = self
                .stalls
                .iter()
                .map(|(k, f)| (k.clone(), serde_json::json!(f)))
                .collect();
            m.insert("stalls".into(), serde_json::Value::Object(stalls));
        }
        v
    }
}

/// A result's value at a dotted path: `summary.*` into the summary (stall
/// reasons as `summary.stalls.waitcnt`), anything else into `stats`.
pub fn stat(result: &JobResult, path: &str) -> Option<serde_json::Value> {
    let (root, rest) = match path.strip_prefix("summary.") {
        Some(rest) => (result.summary.as_ref().map(Summary::to_json)?, rest),
        None => (result.stats.clone()?, path),
    };
    lookup(&root, rest).cloned()
}

/// The value at a dotted path (array elements by index).
pub fn lookup<'a>(v: &'a serde_json::Value, path: &str) -> Option<&'a serde_json::Value> {
    path.split('.').try_fold(v, |v, part| match v {
        serde_json::Value::Object(m) => m.get(part),
        serde_json::Value::Array(a) => part.parse::<usize>().ok().and_then(|i| a.get(i)),
        _ => None,
    })
}

/// A result of the shape every clocked run has (one CU, one dispatch, one
/// channel), for checking stats paths before anything runs.
pub fn stats_shape() -> JobResult {
    let mut stats = GpuStats {
        dispatches: vec![Default::default()],
        cus: vec![Default::default()],
        channels: vec![Default::default()],
        ..GpuStats::default()
    };
    stats.occupancy.push((0, 0));
    let summary = Summary::of(&stats, &GpuConfig::default());
    JobResult {
        sweep: String::new(),
        job: 0,
        point: 0,
        overrides: Default::default(),
        workload: String::new(),
        model: String::new(),
        status: Status::Passed,
        exit_code: 0,
        partial: false,
        message: None,
        summary: Some(summary),
        stats: serde_json::to_value(&stats).ok(),
        lockstep: None,
    }
}

/// True if `path` names a value in a result of [`stats_shape`]'s shape (array
/// indices are not bounded: runs have as many CUs and dispatches as they have).
pub fn has_path(shape: &JobResult, path: &str) -> bool {
    let normalised: Vec<&str> = path
        .split('.')
        .map(|p| if p.parse::<usize>().is_ok() { "0" } else { p })
        .collect();
    stat(shape, &normalised.join(".")).is_some_and(|v| !v.is_object())
}

/// Where job `job`'s files live in an output directory.
pub fn result_path(dir: &Path, job: usize) -> PathBuf {
    dir.join("results").join(format!("job-{job:05}.json"))
}

/// The timing file beside [`result_path`].
pub fn timing_path(dir: &Path, job: usize) -> PathBuf {
    dir.join("results")
        .join(format!("job-{job:05}.timing.json"))
}

/// The timeline file of job `job`.
pub fn timeline_path(dir: &Path, job: usize) -> PathBuf {
    dir.join("timelines").join(format!("job-{job:05}.json"))
}

/// Reads a result file (None: missing; Err: unreadable or malformed).
pub fn read_result(path: &Path) -> Result<Option<JobResult>, String> {
    match std::fs::read(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: {e}", path.display())),
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| format!("{}: not a job result: {e}", path.display())),
    }
}

/// Writes `bytes` to `path` through a temporary file and a rename, so a
/// killed writer never leaves a half file that looks like a result.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, bytes).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}
