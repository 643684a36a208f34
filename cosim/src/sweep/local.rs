//! The local runner: every job whose result is missing runs as its own
//! `gpusim sweep FILE --point J` process, `-j` of them at a time, with a
//! progress bar. A process per job keeps jobs independent (a crash or a
//! runaway point takes only itself down) and makes a local job exactly what a
//! Slurm array task runs.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use super::manifest;
use super::result::{self, JobResult, Status};
use super::spec::Sweep;
use crate::session::Threads;

/// What a local sweep did.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Jobs in the sweep.
    pub jobs: usize,
    /// Jobs run now.
    pub ran: usize,
    /// Jobs skipped because their result was already there.
    pub skipped: usize,
    /// Results that are not `passed` (run now or earlier), by job.
    pub failed: Vec<JobResult>,
    /// Jobs left without a finished result (the sweep was interrupted).
    pub missing: usize,
    /// Wall-clock seconds of this invocation.
    pub wall_seconds: f64,
}

/// True if job `j` needs to run: no result, or one that did not finish
/// (interrupted, crashed) and so is retried.
pub fn needs_run(out: &Path, j: usize) -> Result<bool, String> {
    Ok(match result::read_result(&result::result_path(out, j))? {
        None => true,
        Some(r) => matches!(r.status, Status::Interrupted | Status::Crashed),
    })
}

/// Runs the sweep's missing jobs on `workers` processes at a time, each
/// job's clocked GPU with `threads` worker threads.
pub fn run(sweep: &Sweep, out: &Path, workers: usize, threads: Threads) -> Result<Outcome, String> {
    manifest::prepare(sweep, out)?;
    let exe = std::env::current_exe().map_err(|e| format!("cannot find gpusim itself: {e}"))?;
    let mut todo = Vec::new();
    for j in 0..sweep.jobs() {
        if needs_run(out, j)? {
            todo.push(j);
        }
    }
    let started = Instant::now();
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(todo.len() as u64),
        indicatif::ProgressDrawTarget::stderr(),
    );
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} jobs, {msg} [{elapsed} elapsed, ETA {eta}]",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_message("0 failed");
    crate::interrupt::install();
    let next = AtomicUsize::new(0);
    let failed_now = AtomicUsize::new(0);
    let errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..workers.max(1).min(todo.len().max(1)) {
            s.spawn(|| loop {
                if crate::interrupt::requested() {
                    return;
                }
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&j) = todo.get(k) else { return };
                match run_child(&exe, sweep, out, j, threads) {
                    Ok(Some(r)) => {
                        if r.status.failed() {
                            let n = failed_now.fetch_add(1, Ordering::Relaxed) + 1;
                            bar.set_message(format!("{n} failed"));
                        }
                        bar.inc(1);
                    }
                    Ok(None) => {}
                    Err(e) => {
                        if let Ok(mut v) = errors.lock() {
                            v.push(e)
                        }
                    }
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = errors.into_inner().ok().and_then(|v| v.into_iter().next()) {
        return Err(e);
    }
    let mut o = Outcome {
        jobs: sweep.jobs(),
        skipped: sweep.jobs() - todo.len(),
        wall_seconds: started.elapsed().as_secs_f64(),
        ..Outcome::default()
    };
    for j in 0..sweep.jobs() {
        match result::read_result(&result::result_path(out, j))? {
            // An interrupted job (Ctrl-C reached it too) is unfinished, not failed.
            None => o.missing += 1,
            Some(r) if r.status == Status::Interrupted => o.missing += 1,
            Some(r) => {
                if todo.contains(&j) {
                    o.ran += 1;
                }
                if r.status.failed() {
                    o.failed.push(r);
                }
            }
        }
    }
    Ok(o)
}

/// Runs job `j` in a child process, its output in `logs/job-J.log`; returns
/// its result (None when the sweep was interrupted and the child left none).
fn run_child(
    exe: &Path,
    sweep: &Sweep,
    out: &Path,
    j: usize,
    threads: Threads,
) -> Result<Option<JobResult>, String> {
    let log = out.join("logs").join(format!("job-{j:05}.log"));
    let file = std::fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
    let err = file
        .try_clone()
        .map_err(|e| format!("{}: {e}", log.display()))?;
    let status = Command::new(exe)
        .arg("sweep")
        .arg(&sweep.file)
        .arg("--point")
        .arg(j.to_string())
        .arg("--out")
        .arg(out)
        .arg("--threads")
        .arg(threads.to_string())
        .stdin(Stdio::null())
        .stdout(file)
        .stderr(err)
        .status()
        .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
    let path = result::result_path(out, j);
    if let Some(r) = result::read_result(&path)? {
        return Ok(Some(r));
    }
    if crate::interrupt::requested() {
        return Ok(None);
    }
    // The process died before writing anything: record that, so the sweep
    // reports it (and a resume retries it).
    let code = exit_code(&status);
    let r = crashed(sweep, j, code);
    let json = serde_json::to_vec_pretty(&r).map_err(|e| e.to_string())?;
    result::write_atomically(&path, &json)?;
    Ok(Some(r))
}

fn exit_code(status: &std::process::ExitStatus) -> u8 {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return 128u8.saturating_add(sig as u8);
        }
    }
    status.code().map_or(255, |c| c as u8)
}

/// The result of a job whose process ended without writing one.
pub fn crashed(sweep: &Sweep, j: usize, code: u8) -> JobResult {
    let job = sweep.job(j);
    JobResult {
        sweep: sweep.name.clone(),
        job: j,
        point: job.point,
        overrides: sweep.points[job.point].overrides.iter().cloned().collect(),
        workload: sweep.workloads[job.workload].0.clone(),
        model: sweep.model.to_string(),
        status: Status::Crashed,
        exit_code: code,
        partial: true,
        message: Some(format!(
            "the job's process ended (exit {code}) without writing a result; see logs/job-{j:05}.log"
        )),
        summary: None,
        stats: None,
        lockstep: None,
    }
}
