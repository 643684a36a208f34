//! `gpusim sweep SWEEP.yaml` and `gpusim collect DIR` (docs/sweeps.md).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::CliError;
use crate::session::Threads;
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
    /// `--threads` (default: see [`job_threads`]).
    pub threads: Option<Threads>,
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
        let threads = o.threads.unwrap_or_else(point_threads);
        let r = sweep::job::run_and_write(&s, j, &out, threads).map_err(CliError::BadInput)?;
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
        if slurm.cpus_per_task == 0 {
            return Err(CliError::BadInput(
                "--cpus-per-task must be at least 1".into(),
            ));
        }
        let slurm = SlurmOptions {
            threads: o.threads,
            ..slurm.clone()
        };
        return sweep::slurm::submit(&s, &out, &slurm).map_err(CliError::BadInput);
    }
    let workers = o.jobs.unwrap_or_else(crate::threads::cores);
    if workers == 0 {
        return Err(CliError::BadInput("-j must be at least 1".into()));
    }
    let threads = job_threads(o.threads, workers);
    let r = sweep::local::run(&s, &out, workers, threads).map_err(CliError::BadInput)?;
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

/// The threads of each job of a local sweep of `workers` jobs at once: as
/// given, else adaptive over the job's share of the cores (cores / workers,
/// at least 1), so that the jobs together ask for no more than the machine.
pub(crate) fn job_threads(given: Option<Threads>, workers: usize) -> Threads {
    given.unwrap_or_else(|| Threads::share_of(workers))
}

/// The threads of a `--point` job without `--threads`: adaptive over the
/// cores Slurm gave the task (`SLURM_CPUS_PER_TASK`), else over every core.
fn point_threads() -> Threads {
    std::env::var("SLURM_CPUS_PER_TASK")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .map_or_else(Threads::auto, Threads::Adaptive)
}

/// Runs `gpusim collect DIR`.
pub(crate) fn collect(dir: &Path) -> Result<String, CliError> {
    sweep::collect(dir).map_err(CliError::BadInput)
}
