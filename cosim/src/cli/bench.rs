//! `gpusim bench`: throughput of a model on the kernel corpus, single-threaded.
//!
//! For every corpus workload of the chosen targets it runs the whole workload
//! (driver, dispatch, kernel, completion) repeatedly on a fresh device and
//! reports active-lane instructions per second (each vector instruction counts
//! the lanes EXEC enables, a scalar one counts 1) and the geometric mean over
//! all workloads, for two clocks:
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

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use arch::code_object::CodeObject;
use arch::device::{Device, DeviceError, RunStatus, RunUntil};
use arch::isa::Isa;
use sw::driver::Driver;

use super::run::Model;
use super::CliError;
use crate::workload::{self, Workload};
use golden::{GoldenConfig, GoldenGpu};

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

/// A device that adds up the host time spent in [`Device::run`] and forwards
/// everything to the model it wraps.
struct Timed<D> {
    inner: D,
    in_run: Duration,
}

impl<D: Device> Device for Timed<D> {
    fn isa(&self) -> Isa {
        self.inner.isa()
    }
    fn map(&mut self, base: u64, size: u64) -> Result<(), DeviceError> {
        self.inner.map(base, size)
    }
    fn unmap(&mut self, base: u64) -> Result<(), DeviceError> {
        self.inner.unmap(base)
    }
    fn read(&self, address: u64, out: &mut [u8]) -> Result<(), DeviceError> {
        self.inner.read(address, out)
    }
    fn write(&mut self, address: u64, data: &[u8]) -> Result<(), DeviceError> {
        self.inner.write(address, data)
    }
    fn mmio_read(&mut self, offset: u32) -> Result<u32, DeviceError> {
        self.inner.mmio_read(offset)
    }
    fn mmio_write(&mut self, offset: u32, value: u32) -> Result<(), DeviceError> {
        self.inner.mmio_write(offset, value)
    }
    fn run(&mut self, until: RunUntil) -> Result<RunStatus, DeviceError> {
        let start = Instant::now();
        let status = self.inner.run(until);
        self.in_run += start.elapsed();
        status
    }
    fn now(&self) -> u64 {
        self.inner.now()
    }
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
            "--model {model} is not available yet; use --model functional"
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
    Ok(report(&rows))
}

/// The table and the two geometric means.
fn report(rows: &[Row]) -> String {
    let mut out = String::from(
        "device = time inside Device::run (submission to completion: command processing, \
         dispatch, program decode, execution);\nend-to-end = the whole workload (also code-object \
         load, buffer upload/download, allocation). Best of the runs, single-threaded.\n",
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
