//! Runs one job (a workload on a configuration point) in this process and
//! writes its result file; `gpusim sweep --point J` is this, whether the
//! local runner or a Slurm array task started it.

use std::path::Path;
use std::time::Instant;

use super::result::{self, JobResult, Status, Summary, Timing};
use super::spec::Sweep;
use crate::session::{ErrorKind, RunError, Session, SessionOptions, Statistics, Threads};
use crate::workload::Workload;

/// Runs job `index` of `sweep` and writes its result (and timing, and
/// timeline if the sweep asks for one) under `out`. Returns the result.
/// `threads`: the clocked GPU's worker threads (results do not depend on it).
pub fn run_and_write(
    sweep: &Sweep,
    index: usize,
    out: &Path,
    threads: Threads,
) -> Result<JobResult, String> {
    if index >= sweep.jobs() {
        return Err(format!(
            "--point {index}: the sweep has {} jobs (0..{})",
            sweep.jobs(),
            sweep.jobs()
        ));
    }
    let started = Instant::now();
    let timeline = sweep.timeline.then(|| result::timeline_path(out, index));
    let r = run(sweep, index, timeline.as_deref(), threads);
    let timing = Timing {
        job: index,
        wall_seconds: started.elapsed().as_secs_f64(),
        cpu_seconds: cpu_seconds(),
    };
    let json = serde_json::to_vec_pretty(&r).map_err(|e| e.to_string())?;
    result::write_atomically(&result::result_path(out, index), &json)?;
    let json = serde_json::to_vec_pretty(&timing).map_err(|e| e.to_string())?;
    result::write_atomically(&result::timing_path(out, index), &json)?;
    Ok(r)
}

/// User + system CPU time of this process so far.
fn cpu_seconds() -> f64 {
    #[cfg(unix)]
    {
        // SAFETY: getrusage only writes the struct it is given.
        let mut u: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } == 0 {
            let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
            return t(u.ru_utime) + t(u.ru_stime);
        }
    }
    0.0
}

/// The status of a failed run.
fn status_of(kind: ErrorKind) -> Status {
    match kind {
        ErrorKind::CheckFailed => Status::CheckFailed,
        ErrorKind::Fault => Status::Fault,
        ErrorKind::Mismatch => Status::Mismatch,
        ErrorKind::Interrupted => Status::Interrupted,
        ErrorKind::BadInput => Status::BadInput,
    }
}

/// Runs the job; every failure becomes a result rather than an error.
fn run(sweep: &Sweep, index: usize, timeline: Option<&Path>, threads: Threads) -> JobResult {
    let job = sweep.job(index);
    let point = &sweep.points[job.point];
    let (name, path) = &sweep.workloads[job.workload];
    let mut r = JobResult {
        sweep: sweep.name.clone(),
        job: index,
        point: job.point,
        overrides: point.overrides.iter().cloned().collect(),
        workload: name.clone(),
        model: sweep.model.to_string(),
        status: Status::Passed,
        exit_code: 0,
        partial: false,
        message: None,
        summary: None,
        stats: None,
        lockstep: None,
    };
    let fail = |r: &mut JobResult, e: RunError| {
        let kind = e.kind();
        r.status = status_of(kind);
        r.exit_code = kind.exit_code();
        r.partial = kind == ErrorKind::Interrupted;
        r.message = Some(e.to_string());
    };
    // A point's compiler options (`defines.TILE`) go to the workload's
    // `source:` kernels before they are compiled.
    let words = point.compile_options();
    let prepared = Workload::load(path)
        .and_then(|mut w| {
            w.add_compile_options(&words)?;
            Ok(w)
        })
        .and_then(|w| w.prepare().map(|p| (w, p)));
    let (workload, prepared) = match prepared {
        Ok(x) => x,
        Err(e) => {
            fail(&mut r, e.into());
            return r;
        }
    };
    let mut options = SessionOptions::new(sweep.model, point.config.clone());
    options.watchdog = sweep.watchdog;
    options.wave_watchdog = sweep.wave_watchdog;
    options.threads = threads;
    options.interrupt = true;
    options.label = path.clone();
    if let Some(t) = timeline {
        if let Some(dir) = t.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        options.timeline = Some(t.to_path_buf());
    }
    let mut session = match Session::new(&options) {
        Ok(s) => s,
        Err(e) => {
            fail(&mut r, e);
            return r;
        }
    };
    let executed = session.run(&workload, &prepared);
    let closed = session.finish_trace();
    let checked = executed.and_then(|run| session.check(&workload, &prepared, &run));
    match checked {
        Err(e) => fail(&mut r, e),
        Ok(report) => {
            if let Some(m) = report.first_mismatch() {
                let e = RunError::CheckFailed {
                    context: path.clone(),
                    first: m.to_string(),
                };
                fail(&mut r, e);
            }
        }
    }
    if let Err(e) = closed {
        if !r.status.failed() {
            fail(&mut r, RunError::Setup(format!("timeline: {e}")));
        }
    }
    let stats = session.statistics();
    if let Some((stats, config)) = stats.clocked() {
        r.summary = Some(Summary::of(stats, config));
        r.stats = serde_json::to_value(stats).ok();
    }
    if let Statistics::Lockstep { lockstep, .. } = &stats {
        r.lockstep = serde_json::to_value(lockstep).ok();
    }
    r
}
