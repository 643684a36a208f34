//! Design-space sweeps (`docs/sweeps.md`): a sweep file names workloads and a
//! grid of configuration overrides; every (point, workload) pair is a job with
//! its own result file, run by [`local`] on this machine or by a Slurm job
//! array ([`slurm`]), and [`collect`] turns the results into a CSV and plots.

pub mod collect;
pub mod job;
pub mod local;
pub mod manifest;
pub mod plots;
pub mod result;
pub mod slurm;
pub mod spec;

pub use spec::{Job, Point, Sweep};

use std::fmt::Write as _;
use std::path::Path;

use result::JobResult;

/// Collects `dir`: writes `results.csv` and `plots/*.svg`; returns a report.
pub fn collect(dir: &Path) -> Result<String, String> {
    let c = collect::Collected::load(dir)?;
    let csv_path = dir.join("results.csv");
    result::write_atomically(&csv_path, c.csv().as_bytes())?;
    let plots = plots::draw(&c, &dir.join("plots"))?;
    let missing: Vec<usize> = (0..c.results.len())
        .filter(|&j| c.results[j].is_none())
        .collect();
    let failed: Vec<&JobResult> = c
        .results
        .iter()
        .flatten()
        .filter(|r| r.status.failed())
        .collect();
    let mut out = format!(
        "sweep {}: {} jobs ({} points x {} workloads): {} results, {} failed, {} missing\n",
        c.manifest.name,
        c.manifest.jobs,
        c.manifest.points.len(),
        c.manifest.workloads.len(),
        c.results.iter().flatten().count(),
        failed.len(),
        missing.len()
    );
    for r in &failed {
        let _ = writeln!(
            out,
            "  job {} (point {}, {}): {}{}: {}",
            r.job,
            r.point,
            r.workload,
            r.status.name(),
            if r.partial { ", partial" } else { "" },
            r.message.as_deref().unwrap_or("")
        );
    }
    if !missing.is_empty() {
        let shown: Vec<String> = missing.iter().take(20).map(usize::to_string).collect();
        let _ = writeln!(
            out,
            "  missing jobs: {}{}",
            shown.join(" "),
            if missing.len() > 20 { " …" } else { "" }
        );
    }
    let _ = writeln!(out, "csv: {}", csv_path.display());
    for p in plots {
        let _ = writeln!(out, "plot: {}", p.display());
    }
    Ok(out)
}
