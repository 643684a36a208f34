//! `gpusim bench`: throughput of a model on the kernel corpus, single-threaded.
//!
//! For every corpus workload of the chosen targets it runs the whole workload
//! (driver, dispatch, kernel, completion) repeatedly on a fresh device, keeps
//! the fastest run, and reports active-lane instructions per second (each
//! vector instruction counts the lanes EXEC enables, a scalar one counts 1) and
//! the geometric mean over all workloads.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use arch::code_object::CodeObject;
use sw::driver::Driver;

use super::run::Model;
use super::CliError;
use crate::golden::{GoldenConfig, GoldenGpu};
use crate::workload::{self, Workload};

/// One benchmarked workload.
struct Row {
    name: String,
    lanes: u64,
    instructions: u64,
    best: Duration,
}

/// Runs the benchmark over `workloads/corpus/<target>/*.yaml` under `root`.
pub(crate) fn bench(
    root: &Path,
    model: Model,
    targets: &[String],
    min_time: Duration,
) -> Result<String, CliError> {
    if model != Model::Functional {
        return Err(CliError::BadInput(format!(
            "--model {model:?} is not available yet"
        )));
    }
    let mut rows = Vec::new();
    for target in targets {
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
        for file in files {
            rows.push(bench_one(&file, target, min_time)?);
        }
    }
    let mut out = format!(
        "{:<32} {:>14} {:>12} {:>10} {:>16}\n",
        "workload", "active lanes", "wave insts", "best ms", "lane-insts/s"
    );
    let mut log_sum = 0.0;
    for r in &rows {
        let rate = r.lanes as f64 / r.best.as_secs_f64();
        log_sum += rate.ln();
        out.push_str(&format!(
            "{:<32} {:>14} {:>12} {:>10.3} {:>16.3e}\n",
            r.name,
            r.lanes,
            r.instructions,
            r.best.as_secs_f64() * 1e3,
            rate
        ));
    }
    if !rows.is_empty() {
        let geomean = (log_sum / rows.len() as f64).exp();
        out.push_str(&format!(
            "geometric mean over {} workloads: {:.3e} active-lane instructions/s ({:.0} M/s)\n",
            rows.len(),
            geomean,
            geomean / 1e6
        ));
    }
    Ok(out)
}

fn bench_one(file: &Path, target: &str, min_time: Duration) -> Result<Row, CliError> {
    let bad = |e: String| CliError::BadInput(format!("{}: {e}", file.display()));
    let w = Workload::load(file).map_err(|e| bad(e.to_string()))?;
    let prepared = w.prepare().map_err(|e| bad(e.to_string()))?;
    let isa = CodeObject::parse(&prepared.code_object)
        .map_err(|e| bad(e.to_string()))?
        .isa()
        .ok_or_else(|| bad("processor not modelled".into()))?;
    let mut best = Duration::MAX;
    let mut spent = Duration::ZERO;
    let mut runs = 0;
    let (mut lanes, mut instructions) = (0, 0);
    while runs < 3 || spent < min_time {
        let gpu = GoldenGpu::new(GoldenConfig::new(isa)).map_err(|e| bad(e.to_string()))?;
        let mut driver = Driver::new(gpu).map_err(|e| bad(e.to_string()))?;
        let start = Instant::now();
        workload::execute(&mut driver, &prepared)
            .map_err(|e| CliError::GpuFault(format!("{}: {e}", file.display())))?;
        let took = start.elapsed();
        best = best.min(took);
        spent += took;
        runs += 1;
        let stats = driver.device().stats();
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
        best,
    })
}
