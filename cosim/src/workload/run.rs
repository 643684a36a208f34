//! Running a prepared workload on a device through the driver.

use arch::command::Command;
use arch::device::Device;
use sw::driver::{CommandBlock, Driver, DriverError, WorkReport};

use super::steps::{run_program, Machine, ProgramRun};
use super::{HostBuffer, Prepared, PreparedSemaphore};

/// Loads the code object, allocates and uploads every buffer, launches the
/// kernel (behind the workload's semaphore acquires and ahead of its
/// releases, all on the driver's channel), waits for it, and returns the
/// final buffer contents (in declaration order). Device memory is freed
/// afterwards, also on errors where the device still answers.
pub fn execute<D: Device>(
    driver: &mut Driver<D>,
    prepared: &Prepared,
) -> Result<Vec<HostBuffer>, DriverError> {
    execute_reporting(driver, prepared).map(|(finals, _)| finals)
}

/// [`execute`], also returning the report of every launch that created work
/// (`work_queue:`; empty otherwise), whose [`WorkReport::problems`] name
/// refused reservations and allocations with their counts.
pub fn execute_reporting<D: Device>(
    driver: &mut Driver<D>,
    prepared: &Prepared,
) -> Result<(Vec<HostBuffer>, Vec<WorkReport>), DriverError> {
    driver.set_subvector_hint(prepared.subvector_hint);
    driver.set_shared_vgprs(prepared.shared_vgprs);
    let program = driver.load(&prepared.code_object)?;
    let mut reports = Vec::new();
    let mut allocations = Vec::new();
    let mut variants = Vec::new();
    let result = (|| {
        let kernel = program.kernel(&prepared.kernel_name)?.clone();
        for b in &prepared.buffers {
            allocations.push(driver.create_buffer(&b.bytes)?);
        }
        let addresses: Vec<u64> = allocations.iter().map(|a| a.address).collect();
        let block = |words: &[PreparedSemaphore]| {
            let mut block = CommandBlock::new();
            for w in words {
                let address = addresses[w.buffer] + w.offset;
                block.push(match w.compare {
                    Some(compare) => Command::SemaphoreAcquire {
                        address,
                        payload: w.payload,
                        compare,
                    },
                    None => Command::SemaphoreRelease {
                        address,
                        payload: w.payload,
                    },
                });
            }
            block
        };
        if let Some(q) = &prepared.work_queue {
            // Seed 001: the kernel creates work on a GPU-owned channel.
            let children = q
                .children
                .iter()
                .map(|c| program.kernel(c).cloned())
                .collect::<Result<Vec<_>, _>>()?;
            let refs: Vec<_> = children.iter().collect();
            let mut channel = driver.create_gpu_channel(q.config, &refs)?;
            let args = prepared.driver_args(&addresses);
            for _ in 0..q.launches {
                reports.push(driver.launch_creating_work(
                    &mut channel,
                    &kernel,
                    prepared.dims,
                    &args,
                )?);
            }
            driver.destroy_gpu_channel(channel)?;
        } else {
            if !prepared.waits.is_empty() {
                driver.submit(block(&prepared.waits))?;
            }
            let args = prepared.driver_args(&addresses);
            // Seed 002: a source kernel's dispatch waits for the alias
            // analysis and any recompilation.
            let source = &prepared.code_object_path;
            let analysed = prepared.source.as_ref().filter(|b| b.alias_analysis);
            let (kernel, variant) = if let Some(build) = analysed {
                super::alias::select(driver, source, build, &kernel, &args, prepared.dims)?
            } else {
                (kernel.clone(), None)
            };
            let dispatch = driver.dispatch(&kernel, prepared.dims, &args)?;
            variants.extend(variant);
            let last = if prepared.signals.is_empty() {
                dispatch.fence
            } else {
                driver.submit(block(&prepared.signals))?
            };
            driver.wait(last)?;
        }
        prepared
            .buffers
            .iter()
            .zip(&allocations)
            .map(|(b, a)| {
                Ok(HostBuffer {
                    name: b.name.clone(),
                    elem: b.elem,
                    bytes: driver.download(*a)?,
                })
            })
            .collect::<Result<Vec<_>, DriverError>>()
    })();
    if result.is_ok() {
        for a in allocations {
            driver.free(a)?;
        }
        driver.unload(program)?;
        for v in variants {
            driver.unload(v)?;
        }
    }
    // On an error the device may be stopped (a fault); the original error
    // is what the user needs, so nothing is freed or reported further.
    result.map(|finals| (finals, reports))
}

/// Runs a prepared workload — one dispatch or a `steps:` program — and
/// returns its final buffers with the snapshots after the steps named in
/// `after` (the checks' `after:`), plus the work-creation reports.
pub fn execute_program<D: Device>(
    driver: &mut Driver<D>,
    prepared: &Prepared,
    after: &[&str],
) -> Result<(ProgramRun, Vec<WorkReport>), DriverError> {
    if prepared.steps.is_empty() {
        let (finals, reports) = execute_reporting(driver, prepared)?;
        let run = ProgramRun {
            finals,
            dispatches: 1,
            ..ProgramRun::default()
        };
        return Ok((run, reports));
    }
    driver.set_subvector_hint(prepared.subvector_hint);
    driver.set_shared_vgprs(prepared.shared_vgprs);
    let mut programs = Vec::new();
    let mut allocations = Vec::new();
    let result = (|| {
        for (_, bytes) in &prepared.objects {
            programs.push(driver.load(bytes)?);
        }
        let kernels = prepared
            .steps
            .iter()
            .map(|s| programs[s.object].kernel(&s.kernel_name).cloned())
            .collect::<Result<Vec<_>, _>>()?;
        for b in &prepared.buffers {
            allocations.push(driver.create_buffer(&b.bytes)?);
        }
        let mut device = DeviceMachine {
            driver: &mut *driver,
            prepared,
            kernels: &kernels,
            allocations: &allocations,
        };
        run_program(prepared, after, &mut device)
    })();
    if result.is_ok() {
        for a in allocations {
            driver.free(a)?;
        }
        for p in programs {
            driver.unload(p)?;
        }
    }
    result.map(|run| (run, Vec::new()))
}

/// The device as a program [`Machine`]: slots are the allocations.
struct DeviceMachine<'a, D: Device> {
    driver: &'a mut Driver<D>,
    prepared: &'a Prepared,
    kernels: &'a [sw::driver::LoadedKernel],
    allocations: &'a [sw::driver::memory::Allocation],
}

impl<D: Device> Machine for DeviceMachine<'_, D> {
    type Error = DriverError;

    fn dispatch(&mut self, step: usize, bindings: &[usize]) -> Result<(), DriverError> {
        let s = &self.prepared.steps[step];
        let addresses: Vec<u64> = bindings
            .iter()
            .map(|&slot| self.allocations[slot].address)
            .collect();
        let args = super::driver_args(&s.args, &addresses);
        // Seed 002 per step: a source kernel's dispatch waits for the
        // alias analysis of this step's arguments (a swap can change them)
        // and any recompilation; the variant is unloaded after the step,
        // and the cache makes the next step with the same layout a hit.
        let source = &self.prepared.objects[s.object].0;
        let build = self.prepared.object_sources[s.object].as_ref();
        let (kernel, variant) = if let Some(build) = build.filter(|b| b.alias_analysis) {
            super::alias::select(
                self.driver,
                source,
                build,
                &self.kernels[step],
                &args,
                s.dims,
            )?
        } else {
            (self.kernels[step].clone(), None)
        };
        let d = self.driver.dispatch(&kernel, s.dims, &args)?;
        self.driver.wait(d.fence)?;
        match variant {
            Some(v) => self.driver.unload(v),
            None => Ok(()),
        }
    }

    fn write(&mut self, slot: usize, offset: u64, bytes: &[u8]) -> Result<(), DriverError> {
        self.driver.upload(self.allocations[slot], offset, bytes)
    }

    fn read(&mut self, slot: usize, offset: u64, len: usize) -> Result<Vec<u8>, DriverError> {
        self.driver
            .download_range(self.allocations[slot], offset, len as u64)
    }

    fn buffers(&mut self, bindings: &[usize]) -> Result<Vec<HostBuffer>, DriverError> {
        self.prepared
            .buffers
            .iter()
            .zip(bindings)
            .map(|(b, &slot)| {
                Ok(HostBuffer {
                    name: b.name.clone(),
                    elem: b.elem,
                    bytes: self.driver.download(self.allocations[slot])?,
                })
            })
            .collect()
    }
}

/// Prepares `w`, runs it on `device` through a fresh driver and checks its
/// results; the device afterwards (for its statistics) if every check
/// passed, else the first mismatch or error as a sentence.
pub fn run_checked<D: Device>(device: D, w: &super::Workload) -> Result<D, String> {
    let p = w.prepare().map_err(|e| e.to_string())?;
    let mut driver = Driver::new(device).map_err(|e| e.to_string())?;
    let after: Vec<&str> = w.checks.iter().filter_map(|c| c.after()).collect();
    let (run, _) = execute_program(&mut driver, &p, &after).map_err(|e| e.to_string())?;
    let report = super::check_run(w, &p, &run).map_err(|e| e.to_string())?;
    match report.first_mismatch() {
        Some(m) => Err(m.to_string()),
        None => Ok(driver.into_device()),
    }
}
