//! The device a run uses: the golden functional GPU, the clocked GPU, or the
//! two in lockstep — each optionally writing a VCD of the clocked GPU's
//! signals as it runs.

use std::path::Path;

use arch::device::{Device, DeviceError, Fault, FaultKind, RunStatus, RunUntil};
use arch::isa::Isa;
use golden::{GoldenConfig, GoldenGpu};
use hw::{ClockedGpu, GpuConfig};
use traces::{Probe, VcdOptions, VcdTrace};

use crate::lockstep::LockstepGpu;

/// Which model runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Model {
    /// The golden functional GPU (instruction-level, fast).
    Functional,
    /// The clocked RTL-style GPU (cycle counts, waveforms).
    Cycle,
    /// The clocked GPU checked instruction by instruction against the golden GPU.
    Lockstep,
}

impl std::fmt::Display for Model {
    /// The name `--model` takes.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use clap::ValueEnum;
        match self.to_possible_value() {
            Some(v) => f.write_str(v.get_name()),
            None => write!(f, "{self:?}"),
        }
    }
}

/// A model ready to be driven.
pub enum ModelDevice {
    /// The golden GPU.
    Functional(Box<GoldenGpu>, Progress),
    /// The clocked GPU, with an optional waveform.
    Cycle(Box<ClockedGpu>, Waveform),
    /// Lockstep, with an optional waveform of the clocked side.
    Lockstep(Box<LockstepGpu>, Waveform),
}

/// A waveform being written, the first error writing it, and the progress
/// indicator of long runs.
#[derive(Default)]
pub struct Waveform {
    trace: Option<VcdTrace>,
    /// `--timeline`: the recorder (docs/timeline.md).
    timeline: Option<crate::timeline::Recorder>,
    error: Option<String>,
    progress: Progress,
}

/// A spinner on standard error for runs longer than a few seconds (hidden
/// when standard error is not a terminal).
#[derive(Default)]
pub struct Progress {
    started: Option<std::time::Instant>,
    bar: Option<indicatif::ProgressBar>,
    /// The count at which to look at the clock next.
    next_look: u64,
}

impl Progress {
    /// Cycles or steps between looks at the clock.
    const EVERY: u64 = 1 << 16;

    /// Called with the model's clock (`cycle` in `unit`) as it advances, by
    /// one cycle or by a scheduling round of many steps.
    fn update(&mut self, cycle: u64, unit: &str) {
        if cycle < self.next_look {
            return;
        }
        self.next_look = cycle + Self::EVERY;
        let started = *self.started.get_or_insert_with(std::time::Instant::now);
        if self.bar.is_none() && started.elapsed() > std::time::Duration::from_secs(2) {
            let bar = indicatif::ProgressBar::with_draw_target(
                None,
                indicatif::ProgressDrawTarget::stderr(),
            );
            bar.set_style(
                indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
            );
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            let rate = cycle as f64 / started.elapsed().as_secs_f64().max(1e-9);
            let one = unit.strip_suffix('s').unwrap_or(unit);
            bar.set_message(format!("{one} {cycle} ({:.2} M {unit}/s)", rate / 1e6));
            bar.tick();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// What ends a run interrupted by a signal (Ctrl-C, SIGTERM).
fn interrupt_kind() -> FaultKind {
    FaultKind::Interrupted {
        signal: crate::interrupt::signal_name(),
    }
}

impl Waveform {
    /// A VCD trace or timeline is being recorded: every edge must be
    /// sampled (no event skipping).
    fn samples_every_edge(&self) -> bool {
        self.trace.is_some() || self.timeline.is_some()
    }

    /// Samples the design; a write error stops tracing (reported when the
    /// trace is finished) rather than the simulation.
    fn sample(&mut self, gpu: &ClockedGpu) -> Result<(), Box<arch::device::Fault>> {
        let cycle = gpu.now();
        self.progress.update(cycle, "cycles");
        if crate::interrupt::requested() {
            return Err(Box::new(Fault::at_cycle(interrupt_kind(), cycle)));
        }
        if let Some(t) = &mut self.timeline {
            if let Err(e) = t.sample(gpu) {
                self.error = Some(format!("timeline: {e}"));
                self.timeline = None;
            }
        }
        if let Some(t) = &mut self.trace {
            if let Err(e) = t.sample(gpu.now(), |tr| gpu.probe("gpu", tr)) {
                self.error = Some(e.to_string());
                self.trace = None;
            }
        }
        Ok(())
    }
}

/// How to build a [`ModelDevice`].
#[derive(Clone, Debug)]
pub struct ModelOptions {
    /// The model.
    pub model: Model,
    /// ISA of the code to run.
    pub isa: Isa,
    /// The clocked GPU's configuration.
    pub config: GpuConfig,
    /// Golden watchdog (instructions per run call), if set.
    pub watchdog: Option<u64>,
    /// Per-wave watchdog (golden: instructions one wave executes; clocked:
    /// cycles one wave stays resident), if set.
    pub wave_watchdog: Option<u64>,
}

impl ModelDevice {
    /// Builds the device; errors are sentences for the user.
    pub fn new(o: &ModelOptions) -> Result<ModelDevice, String> {
        let golden = || {
            let mut c = GoldenConfig::new(o.isa);
            if let Some(b) = o.wave_watchdog {
                c.wave_instruction_budget = b;
            }
            if let Some(b) = o.watchdog {
                c.instruction_budget = b;
            }
            GoldenGpu::new(c).map_err(|e| e.to_string())
        };
        if o.model != Model::Functional && o.isa != Isa::Gfx1030 {
            return Err(format!(
                "--model {} runs gfx1030 code; this code object is for {} (use --model functional)",
                o.model, o.isa
            ));
        }
        let mut config = o.config.clone();
        if let Some(b) = o.watchdog {
            config.watchdog_cycles = b;
        }
        if let Some(b) = o.wave_watchdog {
            config.wave_watchdog_cycles = b;
        }
        Ok(match o.model {
            Model::Functional => ModelDevice::Functional(Box::new(golden()?), Progress::default()),
            Model::Cycle => {
                let hw = ClockedGpu::new(config).map_err(|e| e.to_string())?;
                ModelDevice::Cycle(Box::new(hw), Waveform::default())
            }
            Model::Lockstep => {
                let hw = ClockedGpu::new(config).map_err(|e| e.to_string())?;
                ModelDevice::Lockstep(
                    Box::new(LockstepGpu::new(hw, golden()?)?),
                    Waveform::default(),
                )
            }
        })
    }

    /// Starts writing the clocked GPU's signals to `path` (not for the functional model).
    /// The signals and the filter are checked here, so a glob that matches
    /// nothing stops the run before it starts and leaves no file behind.
    pub fn trace_to(&mut self, path: &Path, options: VcdOptions) -> Result<(), String> {
        let (gpu, w) = match self {
            ModelDevice::Functional(..) => return Err(
                "--vcd needs --model cycle or --model lockstep (the functional model has no clock)"
                    .into(),
            ),
            ModelDevice::Cycle(hw, w) => (&**hw, w),
            ModelDevice::Lockstep(l, w) => (l.clocked(), w),
        };
        let at = |e: traces::TraceError| format!("{}: {e}", path.display());
        let mut trace = VcdTrace::create(path, options).map_err(at)?;
        trace
            .check_signals(|t| gpu.probe("gpu", t))
            .map_err(|e| e.to_string())?;
        w.trace = Some(trace);
        Ok(())
    }

    /// Starts recording a timeline to `path` (clocked models only).
    pub fn timeline_to(&mut self, path: &Path) -> Result<(), String> {
        match self {
            ModelDevice::Functional(..) => Err(
                "--timeline needs --model cycle or --model lockstep (the functional model has no clock)"
                    .into(),
            ),
            ModelDevice::Cycle(_, w) | ModelDevice::Lockstep(_, w) => {
                w.timeline = Some(crate::timeline::Recorder::create(path)?);
                Ok(())
            }
        }
    }

    /// Flushes and closes the waveform and the timeline, if any (a run that
    /// stopped early, by a fault or an interrupt, leaves them marked partial).
    pub fn finish_trace(&mut self) -> Result<(), String> {
        let (gpu, w) = match self {
            ModelDevice::Functional(..) => return Ok(()),
            ModelDevice::Cycle(hw, w) => (&**hw, w),
            ModelDevice::Lockstep(l, w) => (l.clocked(), w),
        };
        let timeline = match w.timeline.take() {
            Some(t) => {
                let partial = gpu.fault().is_some() || crate::interrupt::requested();
                t.finish(gpu, partial)
            }
            None => Ok(()),
        };
        if let Some(e) = w.error.take() {
            return Err(e);
        }
        timeline?;
        match w.trace.take() {
            Some(t) => t.finish().map_err(|e| e.to_string()),
            None => Ok(()),
        }
    }

    /// Evaluates the clocked GPU's compute units with `threads` worker
    /// threads (the functional model ignores it; results do not depend on it).
    pub fn set_threads(&mut self, threads: usize) {
        match self {
            ModelDevice::Functional(..) => {}
            ModelDevice::Cycle(hw, _) => hw.set_threads(threads),
            ModelDevice::Lockstep(l, _) => l.clocked_mut().set_threads(threads),
        }
    }

    /// Worker threads as `--threads` gives them: a fixed count, or adaptive
    /// (the functional model ignores it; results do not depend on it).
    pub fn set_thread_policy(&mut self, threads: crate::threads::Threads) {
        let gpu = match self {
            ModelDevice::Functional(..) => return,
            ModelDevice::Cycle(hw, _) => hw,
            ModelDevice::Lockstep(l, _) => l.clocked_mut(),
        };
        match threads {
            crate::threads::Threads::Fixed(n) => gpu.set_threads(n),
            crate::threads::Threads::Adaptive(n) => gpu.set_adaptive_threads(n),
        }
    }

    /// See [`ClockedGpu::set_event_skipping`].
    pub fn set_event_skipping(&mut self, on: bool) {
        match self {
            ModelDevice::Functional(..) => {}
            ModelDevice::Cycle(hw, _) => hw.set_event_skipping(on),
            ModelDevice::Lockstep(l, _) => l.clocked_mut().set_event_skipping(on),
        }
    }

    /// See [`ClockedGpu::set_parallel_min_busy_cus`].
    pub fn set_parallel_min_busy_cus(&mut self, cus: usize) {
        match self {
            ModelDevice::Functional(..) => {}
            ModelDevice::Cycle(hw, _) => hw.set_parallel_min_busy_cus(cus),
            ModelDevice::Lockstep(l, _) => l.clocked_mut().set_parallel_min_busy_cus(cus),
        }
    }

    /// The clocked GPU, if this model has one.
    pub fn clocked(&self) -> Option<&ClockedGpu> {
        match self {
            ModelDevice::Functional(..) => None,
            ModelDevice::Cycle(hw, _) => Some(hw),
            ModelDevice::Lockstep(l, _) => Some(l.clocked()),
        }
    }

    fn inner(&self) -> &dyn Device {
        match self {
            ModelDevice::Functional(g, _) => g.as_ref(),
            ModelDevice::Cycle(hw, _) => hw.as_ref(),
            ModelDevice::Lockstep(l, _) => l.as_ref(),
        }
    }

    fn inner_mut(&mut self) -> &mut dyn Device {
        match self {
            ModelDevice::Functional(g, _) => g.as_mut(),
            ModelDevice::Cycle(hw, _) => hw.as_mut(),
            ModelDevice::Lockstep(l, _) => l.as_mut(),
        }
    }
}

impl Device for ModelDevice {
    fn isa(&self) -> Isa {
        self.inner().isa()
    }

    fn map(&mut self, base: u64, size: u64) -> Result<(), DeviceError> {
        self.inner_mut().map(base, size)
    }

    fn unmap(&mut self, base: u64) -> Result<(), DeviceError> {
        self.inner_mut().unmap(base)
    }

    fn read(&self, address: u64, out: &mut [u8]) -> Result<(), DeviceError> {
        self.inner().read(address, out)
    }

    fn write(&mut self, address: u64, data: &[u8]) -> Result<(), DeviceError> {
        self.inner_mut().write(address, data)
    }

    fn mmio_read(&mut self, offset: u32) -> Result<u32, DeviceError> {
        self.inner_mut().mmio_read(offset)
    }

    fn mmio_write(&mut self, offset: u32, value: u32) -> Result<(), DeviceError> {
        self.inner_mut().mmio_write(offset, value)
    }

    fn run(&mut self, until: RunUntil) -> Result<RunStatus, DeviceError> {
        match self {
            ModelDevice::Functional(g, progress) => g.run_observed(until, |gpu| {
                let step = gpu.now();
                progress.update(step, "steps");
                if crate::interrupt::requested() {
                    return Err(Box::new(Fault::at_step(interrupt_kind(), step)));
                }
                Ok(())
            }),
            // Untraced, the hook only shows progress and checks for Ctrl-C:
            // event skipping may jump over edges it does not see.
            ModelDevice::Cycle(hw, w) if !w.samples_every_edge() => {
                hw.run_observed(until, |gpu| w.sample(gpu))
            }
            ModelDevice::Cycle(hw, w) => hw.run_with(until, |gpu| w.sample(gpu)),
            ModelDevice::Lockstep(l, w) => l.run_with(until, |gpu| w.sample(gpu)),
        }
    }

    fn now(&self) -> u64 {
        self.inner().now()
    }

    fn lds_out_of_range(&self) -> Option<arch::device::LdsOutOfRange> {
        self.inner().lds_out_of_range()
    }
}
