//! Runs one job (a workload on a configuration point) in this process and
//! writes its result file; `gpusim sweep --point J` is this, whether the
//! local runner or a Slurm array task started it.

use std::path::Path;
use std::time::Instant;

use arch::device::{DeviceError, FaultKind};
use sw::driver::{Driver, DriverError};

use super::result::{self, JobResult, Status, Summary, Timing};
use super::spec::Sweep;
use crate::cli::error::CliError;
use crate::cli::run::driver_error;
use crate::model::{ModelDevice, ModelOptions};
use crate::workload::{self, Workload};

/// Runs job `index` of `sweep` and writes its result (and timing, and
/// timeline if the sweep asks for one) under `out`. Returns the result.
pub fn run_and_write(sweep: &Sweep, index: usize, out: &Path) -> Result<JobResult, String> {
    if index >= sweep.jobs() {
        return Err(format!(
            "--point {index}: the sweep has {} jobs (0..{})",
            sweep.jobs(),
            sweep.jobs()
        ));
    }
    let started = Instant::now();
    let timeline = sweep.timeline.then(|| result::timeline_path(out, index));
    let r = run(sweep, index, timeline.as_deref());
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
fn status_of(e: &CliError) -> Status {
    match e {
        CliError::CheckFailed(_) => Status::CheckFailed,
        CliError::GpuFault(_) => Status::Fault,
        CliError::Mismatch(_) => Status::Mismatch,
        CliError::Interrupted(_) => Status::Interrupted,
        CliError::BadInput(_) | CliError::Diagnostic(_) | CliError::Io { .. } => Status::BadInput,
    }
}

/// Runs the job; every failure becomes a result rather than an error.
fn run(sweep: &Sweep, index: usize, timeline: Option<&Path>) -> JobResult {
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
    let fail = |r: &mut JobResult, e: CliError| {
        r.status = status_of(&e);
        r.exit_code = e.exit_code();
        r.partial = r.status == Status::Interrupted;
        r.message = Some(e.to_string());
    };
    let bad = |e: workload::WorkloadError| CliError::BadInput(e.to_string());
    let prepared = Workload::load(path)
        .map_err(bad)
        .and_then(|w| w.prepare().map(|p| (w, p)).map_err(bad));
    let (workload, prepared) = match prepared {
        Ok(x) => x,
        Err(e) => {
            fail(&mut r, e);
            return r;
        }
    };
    let options = ModelOptions {
        model: sweep.model,
        isa: arch::isa::Isa::Gfx1030,
        config: point.config.clone(),
        watchdog: sweep.watchdog,
    };
    let mut device = match ModelDevice::new(&options) {
        Ok(d) => d,
        Err(e) => {
            fail(&mut r, CliError::BadInput(e));
            return r;
        }
    };
    if let Some(t) = timeline {
        if let Some(dir) = t.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        if let Err(e) = device.timeline_to(t) {
            fail(&mut r, CliError::BadInput(e));
            return r;
        }
    }
    crate::interrupt::install();
    let mut driver = match Driver::new(device) {
        Ok(d) => d,
        Err(e) => {
            fail(&mut r, driver_error(path, e));
            return r;
        }
    };
    let executed = workload::execute_reporting(&mut driver, &prepared);
    let closed = driver.device_mut().finish_trace();
    match executed {
        Err(e) => {
            let interrupted = matches!(&e, DriverError::Device(DeviceError::Fault(f)) if f.kind == FaultKind::Interrupted);
            fail(&mut r, driver_error(path, e));
            r.partial = interrupted;
        }
        Ok((finals, _)) => match workload::check(&workload, &prepared, &finals) {
            Err(e) => fail(&mut r, bad(e)),
            Ok(report) => {
                if let Some(m) = report.first_mismatch() {
                    fail(
                        &mut r,
                        CliError::CheckFailed(format!("{}: {m}", path.display())),
                    );
                }
            }
        },
    }
    if let Err(e) = closed {
        if !r.status.failed() {
            fail(&mut r, CliError::BadInput(format!("timeline: {e}")));
        }
    }
    let device = driver.device();
    if let Some(hw) = device.clocked() {
        let stats = hw.stats();
        r.summary = Some(Summary::of(&stats, hw.config()));
        r.stats = serde_json::to_value(&stats).ok();
    }
    if let ModelDevice::Lockstep(l, _) = device {
        r.lockstep = serde_json::to_value(l.stats()).ok();
    }
    r
}
