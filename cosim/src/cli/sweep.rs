//! `gpusim sweep SWEEP.yaml` and `gpusim collect DIR` (docs/sweeps.md).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::CliError;
use crate::sweep::result::Status;
use crate::sweep::{self, slurm::SlurmOptions, Sweep};

/// What `gpusim sweep` was asked to do.
#[derive(Clone, Debug)]
pub struct SweepOptions {
    /// The sweep file.
    pub file: PathBuf,
    /// `--out DIR` (default `STEM-results` in the current directory).
    pub out: Option<PathBuf>,
    /// `-j N` (default: every core).
    pub jobs: Option<usize>,
    /// `--point J`: run only job J, in this process.
    pub point: Option<usize>,
    /// `--resume` with `--point`: do nothing if the job's result is there.
    pub resume: bool,
    /// `--slurm` and its options.
    pub slurm: Option<SlurmOptions>,
}

fn default_out(file: &Path) -> PathBuf {
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "sweep".into());
    PathBuf::from(format!("{stem}-results"))
}

/// Runs `gpusim sweep`.
pub(crate) fn sweep(o: &SweepOptions) -> Result<String, CliError> {
    let s = Sweep::load(&o.file).map_err(CliError::BadInput)?;
    let out = o.out.clone().unwrap_or_else(|| default_out(&o.file));
    if let Some(j) = o.point {
        if o.resume && !sweep::local::needs_run(&out, j).map_err(CliError::BadInput)? {
            return Ok(format!("job {j}: result present, skipped\n"));
        }
        let r = sweep::job::run_and_write(&s, j, &out).map_err(CliError::BadInput)?;
        let line = format!(
            "job {j} (point {}, {}): {}{}\n",
            r.point,
            r.workload,
            r.status.name(),
            r.message
                .as_deref()
                .map(|m| format!(": {m}"))
                .unwrap_or_default()
        );
        // The exit code is the run's, as `gpusim run` would give it (the result is written either way).
        return match r.status {
            Status::Passed => Ok(line),
            Status::Interrupted => Err(CliError::Interrupted(line.trim_end().into())),
            Status::CheckFailed => Err(CliError::CheckFailed(line.trim_end().into())),
            Status::Mismatch => Err(CliError::Mismatch(line.trim_end().into())),
            Status::BadInput => Err(CliError::BadInput(line.trim_end().into())),
            Status::Fault | Status::Crashed => Err(CliError::GpuFault(line.trim_end().into())),
        };
    }
    if let Some(slurm) = &o.slurm {
        return sweep::slurm::submit(&s, &out, slurm).map_err(CliError::BadInput);
    }
    let workers = o.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let r = sweep::local::run(&s, &out, workers).map_err(CliError::BadInput)?;
    let mut text = format!(
        "sweep {}: {} jobs ({} points x {} workloads) on {workers} workers: {} run, {} skipped (result present), {} failed\n",
        s.name,
        r.jobs,
        s.points.len(),
        s.workloads.len(),
        r.ran,
        r.skipped,
        r.failed.len()
    );
    for f in &r.failed {
        let _ = writeln!(
            text,
            "  job {} (point {}, {}): {}: {}",
            f.job,
            f.point,
            f.workload,
            f.status.name(),
            f.message.as_deref().unwrap_or("")
        );
    }
    let minutes = r.wall_seconds / 60.0;
    let _ = writeln!(
        text,
        "results: {} (wall {:.1} s, {:.1} jobs/min)",
        out.join("results").display(),
        r.wall_seconds,
        if minutes > 0.0 {
            r.ran as f64 / minutes
        } else {
            0.0
        }
    );
    if r.missing > 0 {
        return Err(CliError::Interrupted(format!(
            "{text}interrupted: {} jobs have no result; run the same command again to finish them",
            r.missing
        )));
    }
    let _ = writeln!(text, "gather them: gpusim collect {}", out.display());
    Ok(text)
}

/// Runs `gpusim collect DIR`.
pub(crate) fn collect(dir: &Path) -> Result<String, CliError> {
    sweep::collect(dir).map_err(CliError::BadInput)
}
