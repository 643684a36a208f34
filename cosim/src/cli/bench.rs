//! `gpusim bench`: throughput of a model on the kernel corpus, on one host
//! thread (the clocked GPU's CU workers aside: `--threads`).
//!
//! `--model functional` (this file): for every corpus workload of the chosen
//! targets it runs the whole workload (driver, dispatch, kernel, completion)
//! repeatedly on a fresh device and reports active-lane instructions per
//! second (each vector instruction counts the lanes EXEC enables, a scalar one
//! counts 1) and the geometric mean over all workloads, for two clocks:
//!
//! * **device**: only the time spent inside [`Device::run`] — the model from
//!   submission to completion: command processing, dispatch, wave creation,
//!   program decode and every wave instruction. This is the model's
//!   throughput, and the headline figure.
//! * **end-to-end**: the whole [`workload::execute`] call — also code-object
//!   loading, buffer allocation and upload, kernel arguments, download and
//!   freeing, which cost the same whatever the model does.
//!
//! Each clock keeps its fastest run (the runs are deterministic, so the minimum
//! is the least disturbed by other load on the machine).
//!
//! `--model cycle|lockstep`: see [`clocked`] (simulated cycles per second,
//! medians, lockstep and tracing ratios).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use arch::code_object::CodeObject;
use sw::driver::Driver;

use super::run::Model;
use super::CliError;

use crate::workload::{self, Workload};
use golden::{GoldenConfig, GoldenGpu};

mod clocked;

/// One benchmarked workload.
struct Row {
    name: String,
    lanes: u64,
    instructions: u64,
    /// Fastest time inside `Device::run`.
    device: Duration,
    /// Fastest whole-workload time.
    total: Duration,
}

pub(crate) use crate::timed::Timed;

/// What `gpusim bench` was asked to do.
#[derive(Clone, Debug)]
pub(crate) struct BenchOptions {
    /// The model.
    pub model: Model,
    /// `--target` (empty: every target the model runs).
    pub targets: Vec<String>,
    /// `--min-ms`.
    pub min_time: Duration,
    /// `--min-runs`.
    pub min_runs: u32,
    /// `--root` (None: found, see [`find_root`]).
    pub root: Option<PathBuf>,
    /// `--config`.
    pub config: Option<PathBuf>,
    /// `--preset` (a name from `hw::config::PRESETS`, or `list`).
    pub preset: Option<String>,
    /// `--vcd-overhead`.
    pub vcd_overhead: bool,
    /// `--ubench`: also the `ubench_*` workloads (reported separately).
    pub ubench: bool,
    /// `--workload`: only these (file stems or `target/stem`).
    pub workloads: Vec<String>,
    /// `--skip`: not these (file stems or `target/stem`).
    pub skip: Vec<String>,
    /// `--file`: workload files measured besides (or, without
    /// `--workload`, instead of) the corpus.
    pub files: Vec<PathBuf>,
    /// `--json`.
    pub json: bool,
    /// `--threads`.
    pub threads: crate::session::Threads,
    /// Event skipping (`--no-event-skipping` turns it off).
    pub event_skipping: bool,
    /// `--jit on`: the functional model compiles hot blocks (`golden::jit`).
    pub jit: bool,
}

/// The targets the clocked models run (gfx803 code is functional-only).
const CLOCKED_TARGETS: [&str; 2] = ["gfx1030", "gfx1030-w64"];

/// Runs the benchmark over `workloads/corpus/<target>/*.yaml` under `root`.
pub(crate) fn bench(o: &BenchOptions) -> Result<String, CliError> {
    golden::jit::set_default(o.jit);
    let root = find_root(o.root.as_deref())?;
    if o.min_runs == 0 {
        return Err(CliError::BadInput("--min-runs must be at least 1".into()));
    }
    if o.preset.as_deref() == Some("list") {
        return Ok(super::run::preset_list());
    }
    if o.model == Model::Functional {
        let clocked_only = [
            (o.config.is_some(), "--config"),
            (o.preset.is_some(), "--preset"),
            (o.vcd_overhead, "--vcd-overhead"),
            (o.ubench, "--ubench"),
            (!o.workloads.is_empty(), "--workload"),
            (!o.skip.is_empty(), "--skip"),
            (!o.files.is_empty(), "--file"),
            (o.json, "--json"),
        ];
        if let Some((_, flag)) = clocked_only.iter().find(|(given, _)| *given) {
            return Err(CliError::BadInput(format!(
                "{flag} applies to --model cycle and --model lockstep"
            )));
        }
        let targets = if o.targets.is_empty() {
            ["gfx803", "gfx1030", "gfx1030-w64"]
                .map(String::from)
                .to_vec()
        } else {
            o.targets.clone()
        };
        return functional(&root, &targets, o.min_time);
    }
    if let Some(t) = o
        .targets
        .iter()
        .find(|t| !CLOCKED_TARGETS.contains(&t.as_str()))
    {
        return Err(CliError::BadInput(format!(
            "--model {} runs gfx1030 code; --target {t} is for --model functional",
            o.model
        )));
    }
    let (config, config_name) = match (&o.config, o.preset.as_deref()) {
        (Some(_), Some(_)) => {
            return Err(CliError::BadInput(
                "give --config or --preset, not both".into(),
            ))
        }
        (Some(path), None) => (
            super::run::gpu_config(Some(path))?,
            path.display().to_string(),
        ),
        (None, Some(name)) => (super::run::preset_config(name)?, name.to_string()),
        (None, None) => (hw::GpuConfig::default_config(), "default".to_string()),
    };
    let targets: Vec<String> = if o.targets.is_empty() {
        CLOCKED_TARGETS.map(String::from).to_vec()
    } else {
        o.targets.clone()
    };
    let mut all = Vec::new();
    for target in &targets {
        for file in corpus_files(&root, target)? {
            all.push((target.clone(), file));
        }
    }
    let mut files = if o.files.is_empty() || !o.workloads.is_empty() {
        select(all, &o.workloads, &o.skip, o.ubench)?
    } else {
        Vec::new()
    };
    for f in &o.files {
        if !f.is_file() {
            return Err(CliError::BadInput(format!(
                "--file {}: no such workload file",
                f.display()
            )));
        }
        files.push(("file".to_string(), f.clone()));
    }
    clocked::bench(&clocked::ClockedOptions {
        model: o.model,
        config,
        config_name,
        min_time: o.min_time,
        min_runs: o.min_runs,
        vcd_overhead: o.vcd_overhead,
        files: &files,
        json: o.json,
        threads: o.threads,
        event_skipping: o.event_skipping,
    })
}

/// Where `workloads/corpus/` is: under `--root` when given; else in the
/// current directory or the nearest one above it holding it (a user inside
/// the repository); else in the repository this binary was built from (a
/// user anywhere else, with an installed or `target/release` binary). Not
/// found: an error listing the places looked at and naming `--root`.
pub(crate) fn find_root(given: Option<&Path>) -> Result<PathBuf, CliError> {
    let holds = |d: &Path| d.join("workloads/corpus").is_dir();
    if let Some(root) = given {
        if holds(root) {
            return Ok(root.to_path_buf());
        }
        return Err(CliError::BadInput(format!(
            "--root {}: no workloads/corpus/ there (give the gpusim repository's root)",
            root.display()
        )));
    }
    let mut looked = Vec::new();
    if let Ok(cwd) = std::env::current_dir() {
        for d in cwd.ancestors() {
            if holds(d) {
                return Ok(d.to_path_buf());
            }
        }
        looked.push(format!("{} and the directories above it", cwd.display()));
    }
    // cosim's manifest directory at build time: the repository is its parent.
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    if holds(&built) {
        return Ok(built);
    }
    looked.push(built.display().to_string());
    Err(CliError::BadInput(format!(
        "no workloads/corpus/ found (looked at: {}); run gpusim bench inside the gpusim repository or pass --root DIR",
        looked.join(", ")
    )))
}

/// The workload files of one corpus target, sorted.
fn corpus_files(root: &Path, target: &str) -> Result<Vec<PathBuf>, CliError> {
    let dir = root.join("workloads/corpus").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|source| CliError::Io {
            path: dir.clone(),
            source,
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    Ok(files)
}

/// Keeps the `(target, file)` pairs named by `names` (file stem or
/// `target/stem`; all when empty) and not by `skip`, dropping `ubench_*`
/// unless `ubench`.
/// A name that selects nothing is an error, so a typo does not silently
/// measure nothing.
fn select(
    all: Vec<(String, PathBuf)>,
    names: &[String],
    skip: &[String],
    ubench: bool,
) -> Result<Vec<(String, PathBuf)>, CliError> {
    let stem = |p: &Path| {
        p.file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default()
    };
    let named = |target: &str, s: &str, name: &str| name == s || name == format!("{target}/{s}");
    for (flag, name) in names
        .iter()
        .map(|n| ("--workload", n))
        .chain(skip.iter().map(|n| ("--skip", n)))
    {
        if !all.iter().any(|(t, p)| named(t, &stem(p), name)) {
            return Err(CliError::BadInput(format!(
                "{flag} {name}: no such corpus workload for the selected targets"
            )));
        }
    }
    for name in names {
        if !ubench
            && name
                .rsplit('/')
                .next()
                .is_some_and(|s| s.starts_with("ubench_"))
        {
            return Err(CliError::BadInput(format!(
                "--workload {name}: ubench_* workloads are measured only with --ubench"
            )));
        }
    }
    Ok(all
        .into_iter()
        .filter(|(t, p)| {
            let s = stem(p);
            (ubench || !s.starts_with("ubench_"))
                && (names.is_empty() || names.iter().any(|n| named(t, &s, n)))
                && !skip.iter().any(|n| named(t, &s, n))
        })
        .collect())
}

/// The median (mean of the middle two for an even count); zero when empty.
fn median(values: &mut [Duration]) -> Duration {
    values.sort_unstable();
    let n = values.len();
    match n {
        0 => Duration::ZERO,
        _ if n % 2 == 1 => values[n / 2],
        _ => (values[n / 2 - 1] + values[n / 2]) / 2,
    }
}

/// The geometric mean of positive values (NaN when empty).
fn geometric_mean(values: &[f64]) -> f64 {
    let sum: f64 = values.iter().map(|v| v.ln()).sum();
    (sum / values.len() as f64).exp()
}

/// This thread's CPU time (user + system), where the OS reports it: unlike
/// the wall clock it does not grow while other processes hold the CPU, so it
/// is the steadier figure on a shared machine.
fn thread_cpu_time() -> Option<Duration> {
    #[cfg(unix)]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid, writable timespec for the call's duration.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
        if rc == 0 {
            let secs = u64::try_from(t.tv_sec).ok()?;
            let nanos = u32::try_from(t.tv_nsec).ok()?;
            return Some(Duration::new(secs, nanos));
        }
    }
    None
}

/// `/proc/loadavg`'s three load averages, or `unknown`.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".into())
}

/// The functional model over `workloads/corpus/<target>/*.yaml` under `root`.
fn functional(root: &Path, targets: &[String], min_time: Duration) -> Result<String, CliError> {
    let mut rows = Vec::new();
    for target in targets {
        for file in corpus_files(root, target)? {
            rows.push(bench_one(&file, target, min_time)?);
        }
    }
    Ok(report(&rows))
}

/// The table and the two geometric means.
fn report(rows: &[Row]) -> String {
    let mut out = String::from(
        "device = time inside Device::run (submission to completion: command processing, \
         dispatch, program decode, execution);\nend-to-end = the whole workload (also code-object \
         load, buffer upload/download, allocation). Best of the runs, one host thread.\n",
    );
    out.push_str(&format!(
        "{:<32} {:>14} {:>12} {:>10} {:>10} {:>16} {:>16}\n",
        "workload",
        "active lanes",
        "wave insts",
        "device ms",
        "e2e ms",
        "device lane-i/s",
        "e2e lane-i/s"
    ));
    let (mut log_device, mut log_total) = (0.0, 0.0);
    for r in rows {
        let device = r.lanes as f64 / r.device.as_secs_f64().max(1e-9);
        let total = r.lanes as f64 / r.total.as_secs_f64().max(1e-9);
        log_device += device.ln();
        log_total += total.ln();
        out.push_str(&format!(
            "{:<32} {:>14} {:>12} {:>10.3} {:>10.3} {:>16.3e} {:>16.3e}\n",
            r.name,
            r.lanes,
            r.instructions,
            r.device.as_secs_f64() * 1e3,
            r.total.as_secs_f64() * 1e3,
            device,
            total
        ));
    }
    if !rows.is_empty() {
        let n = rows.len() as f64;
        let (device, total) = ((log_device / n).exp(), (log_total / n).exp());
        out.push_str(&format!(
            "geometric mean over {} workloads (device): {device:.3e} active-lane instructions/s \
             ({:.0} M/s)\n",
            rows.len(),
            device / 1e6
        ));
        out.push_str(&format!(
            "geometric mean over {} workloads (end-to-end): {total:.3e} active-lane \
             instructions/s ({:.0} M/s)\n",
            rows.len(),
            total / 1e6
        ));
    }
    out
}

fn bench_one(file: &Path, target: &str, min_time: Duration) -> Result<Row, CliError> {
    let bad = |e: String| CliError::BadInput(format!("{}: {e}", file.display()));
    let w = Workload::load(file).map_err(|e| bad(e.to_string()))?;
    let prepared = w.prepare().map_err(|e| bad(e.to_string()))?;
    let isa = CodeObject::parse(&prepared.code_object)
        .map_err(|e| bad(e.to_string()))?
        .isa()
        .ok_or_else(|| bad("processor not modelled".into()))?;
    let (mut device, mut total) = (Duration::MAX, Duration::MAX);
    let mut spent = Duration::ZERO;
    let mut runs = 0;
    let (mut lanes, mut instructions) = (0, 0);
    while runs < 3 || spent < min_time {
        let gpu = GoldenGpu::new(GoldenConfig::new(isa)).map_err(|e| bad(e.to_string()))?;
        let timed = Timed {
            inner: gpu,
            in_run: Duration::ZERO,
        };
        let mut driver = Driver::new(timed).map_err(|e| bad(e.to_string()))?;
        let start = Instant::now();
        workload::execute(&mut driver, &prepared)
            .map_err(|e| CliError::GpuFault(format!("{}: {e}", file.display())))?;
        let took = start.elapsed();
        total = total.min(took);
        device = device.min(driver.device().in_run);
        spent += took;
        runs += 1;
        let stats = driver.device().inner.stats();
        lanes = stats.active_lane_instructions;
        instructions = stats.instructions;
    }
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    Ok(Row {
        name: format!("{target}/{stem}"),
        lanes,
        instructions,
        device,
        total,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        let ms = Duration::from_millis;
        assert_eq!(median(&mut [ms(9), ms(1), ms(5)]), ms(5));
        assert_eq!(median(&mut [ms(8), ms(2), ms(4), ms(100)]), ms(6));
        assert_eq!(median(&mut [ms(3)]), ms(3));
        assert_eq!(median(&mut []), Duration::ZERO);
    }

    #[test]
    fn geometric_mean_is_the_nth_root_of_the_product() {
        assert!((geometric_mean(&[2.0, 8.0]) - 4.0).abs() < 1e-12);
        assert!((geometric_mean(&[1e6, 1e6, 1e6]) - 1e6).abs() < 1e-6);
        assert!((geometric_mean(&[1.0, 10.0, 100.0]) - 10.0).abs() < 1e-9);
    }

    #[test]
    fn selection_by_stem_target_and_ubench() {
        let all: Vec<(String, PathBuf)> = [
            ("gfx1030", "a/gfx1030/saxpy.yaml"),
            ("gfx1030", "a/gfx1030/ubench_stream.yaml"),
            ("gfx1030-w64", "a/gfx1030-w64/saxpy.yaml"),
            ("gfx1030-w64", "a/gfx1030-w64/fir.yaml"),
        ]
        .iter()
        .map(|(t, p)| (t.to_string(), PathBuf::from(p)))
        .collect();
        let names = |v: Vec<(String, PathBuf)>| -> Vec<String> {
            v.iter()
                .map(|(t, p)| format!("{t}/{}", p.file_stem().unwrap().to_string_lossy()))
                .collect()
        };
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let got = select(all.clone(), &[], &[], false).unwrap();
        assert_eq!(
            names(got),
            ["gfx1030/saxpy", "gfx1030-w64/saxpy", "gfx1030-w64/fir"]
        );
        let got = select(all.clone(), &[], &[], true).unwrap();
        assert_eq!(got.len(), 4);
        let got = select(
            all.clone(),
            &s(&["saxpy"]),
            &s(&["gfx1030-w64/saxpy"]),
            false,
        )
        .unwrap();
        assert_eq!(names(got), ["gfx1030/saxpy"]);
        assert!(select(all.clone(), &s(&["ubench_stream"]), &[], false).is_err());
        assert!(select(all.clone(), &s(&["nope"]), &[], true).is_err());
        assert!(select(all, &[], &s(&["gfx803/saxpy"]), true).is_err());
    }
}
