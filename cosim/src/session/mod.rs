//! The library entry of `cosim`: one object, a [`Session`], is a device on a
//! chosen model and configuration behind the driver. It loads code objects
//! (or `.cl` sources, which the driver compiles), dispatches and waits, runs
//! whole prepared workloads and checks them, records a VCD or a timeline as
//! it runs, and reports the model's statistics. `gpusim run`, sweep jobs and
//! the OpenCL platform all run through it, so they build devices, classify
//! errors ([`RunError`]) and close waveforms the same way.
//!
//! ```no_run
//! use cosim::session::{Session, SessionOptions};
//! use cosim::model::Model;
//! use cosim::workload::Workload;
//!
//! let path = std::path::Path::new("workloads/corpus/gfx1030/saxpy.yaml");
//! let workload = Workload::load(path)?;
//! let prepared = workload.prepare()?;
//! let mut options = SessionOptions::new(Model::Cycle, hw::GpuConfig::default_config());
//! options.label = path.to_path_buf();
//! let mut session = Session::new(&options)?;
//! let run = session.run(&workload, &prepared);
//! session.finish_trace().map_err(cosim::session::RunError::Setup)?;
//! let report = session.check(&workload, &prepared, &run?)?;
//! assert!(report.passed());
//! println!("{:?}", session.statistics());
//! # Ok::<(), cosim::session::RunError>(())
//! ```

use std::io::Write;
use std::path::{Path, PathBuf};

use arch::code_object::CodeObject;
use arch::device::{Device, LdsOutOfRange};
use arch::isa::Isa;
use golden::stats::GoldenStats;
use hw::stats::GpuStats;
use hw::GpuConfig;
use sw::driver::printf::PrintfOutput;
use sw::driver::{Driver, WorkReport};
use traces::VcdOptions;

use crate::lockstep::LockstepStats;
use crate::model::{Model, ModelDevice, ModelOptions};
use crate::workload::ProgramRun;
use crate::workload::{self, CheckReport, Prepared, PreparedArg, Workload};

mod error;

pub use crate::threads::Threads;

pub use error::{ErrorKind, RunError};

/// How to build a [`Session`].
#[derive(Clone, Debug)]
pub struct SessionOptions {
    /// The model.
    pub model: Model,
    /// The device's ISA (gfx1030; gfx803 only for the functional model).
    /// gfx803 code runs on a gfx1030 device through the run-time translator.
    pub isa: Isa,
    /// The clocked GPU's configuration.
    pub config: GpuConfig,
    /// Watchdog: golden instructions / clocked cycles per run call.
    pub watchdog: Option<u64>,
    /// Per-wave watchdog: instructions one golden wave executes / cycles one
    /// clocked wave stays resident.
    pub wave_watchdog: Option<u64>,
    /// Worker threads of the clocked GPU (results do not depend on it).
    pub threads: Threads,
    /// See `ClockedGpu::set_parallel_min_busy_cus`.
    pub parallel_min_busy: Option<usize>,
    /// A VCD of the clocked GPU's signals (clocked models only).
    pub vcd: Option<(PathBuf, VcdOptions)>,
    /// A timeline (Trace Event Format, or SVG by extension; clocked models only).
    pub timeline: Option<PathBuf>,
    /// A fault injected into the clocked side of a lockstep run (tests of
    /// the mismatch path).
    pub inject: Option<hw::inject::Injection>,
    /// Install the Ctrl-C handler, so an interrupt stops the run with a
    /// partial waveform (the CLI and sweeps; a library host keeps its own).
    pub interrupt: bool,
    /// What driver errors name first, `LABEL: what happened`: the workload file.
    pub label: PathBuf,
    /// Bytes of the printf buffer each dispatch of a printing kernel gets
    /// (header included); `None`: the driver's default, 1 MiB.
    pub printf_buffer: Option<u32>,
}

impl SessionOptions {
    /// A gfx1030 device on `model` with `config`, one thread, no outputs.
    pub fn new(model: Model, config: GpuConfig) -> SessionOptions {
        SessionOptions {
            model,
            isa: Isa::Gfx1030,
            config,
            watchdog: None,
            wave_watchdog: None,
            threads: Threads::Fixed(1),
            parallel_min_busy: None,
            vcd: None,
            timeline: None,
            inject: None,
            interrupt: false,
            label: PathBuf::new(),
            printf_buffer: None,
        }
    }
}

/// A model's statistics after (or during) a run.
#[derive(Clone, Debug)]
pub enum Statistics {
    /// The golden functional GPU's counters.
    Functional(GoldenStats),
    /// The clocked GPU's counters and the configuration they came from.
    Cycle {
        /// Every counter.
        stats: Box<GpuStats>,
        /// The configuration that ran.
        config: Box<GpuConfig>,
    },
    /// Lockstep: the clocked GPU's counters and the checker's.
    Lockstep {
        /// The clocked GPU's counters.
        stats: Box<GpuStats>,
        /// The configuration that ran.
        config: Box<GpuConfig>,
        /// What the checker compared.
        lockstep: LockstepStats,
    },
}

impl Statistics {
    /// The clocked GPU's counters and configuration, if the model has a clock.
    pub fn clocked(&self) -> Option<(&GpuStats, &GpuConfig)> {
        match self {
            Statistics::Functional(_) => None,
            Statistics::Cycle { stats, config } | Statistics::Lockstep { stats, config, .. } => {
                Some((stats, config))
            }
        }
    }
}

/// The results of one workload run: the final buffers (and snapshots after
/// steps), and the report of every launch that created work.
#[derive(Clone, Debug, Default)]
pub struct WorkloadRun {
    /// Final buffers, snapshots, dispatch count.
    pub program: ProgramRun,
    /// Launches that created work (`work_queue:`), in order.
    pub work: Vec<WorkReport>,
}

/// A device on a model, behind the driver. See the module documentation.
pub struct Session {
    driver: Driver<ModelDevice>,
    label: PathBuf,
}

impl Session {
    /// Builds the model, starts its waveform and timeline, and initialises
    /// the driver on it.
    pub fn new(o: &SessionOptions) -> Result<Session, RunError> {
        let options = ModelOptions {
            model: o.model,
            isa: o.isa,
            config: o.config.clone(),
            watchdog: o.watchdog,
            wave_watchdog: o.wave_watchdog,
        };
        let mut device = ModelDevice::new(&options).map_err(RunError::Setup)?;
        device.set_thread_policy(o.threads);
        if let Some(n) = o.parallel_min_busy {
            device.set_parallel_min_busy_cus(n);
        }
        if let Some((path, vcd)) = &o.vcd {
            device
                .trace_to(path, vcd.clone())
                .map_err(RunError::Setup)?;
        }
        if let Some(t) = &o.timeline {
            device.timeline_to(t).map_err(RunError::Setup)?;
        }
        if let Some(injection) = o.inject {
            let ModelDevice::Lockstep(l, _) = &mut device else {
                return Err(RunError::Setup(
                    "--inject-valu-lane needs --model lockstep".into(),
                ));
            };
            // Before the driver starts: the replay of a mismatch starts here.
            l.clocked_mut().inject(Some(injection));
        }
        if o.interrupt {
            crate::interrupt::install();
        }
        let mut driver = Driver::new(device).map_err(|source| RunError::Driver {
            context: o.label.clone(),
            source,
        })?;
        if let Some(bytes) = o.printf_buffer {
            driver
                .set_printf_buffer(bytes)
                .map_err(|source| RunError::Driver {
                    context: o.label.clone(),
                    source,
                })?;
        }
        Ok(Session {
            driver,
            label: o.label.clone(),
        })
    }

    /// The driver, for loading, dispatching and waiting directly.
    pub fn driver(&mut self) -> &mut Driver<ModelDevice> {
        &mut self.driver
    }

    /// The device.
    pub fn device(&self) -> &ModelDevice {
        self.driver.device()
    }

    /// A driver error as a [`RunError`] naming this session's label.
    pub fn driver_error(&self, source: sw::driver::DriverError) -> RunError {
        RunError::Driver {
            context: self.label.clone(),
            source,
        }
    }

    /// Runs a prepared workload — one dispatch or a `steps:` program — keeping
    /// the snapshots its checks' `after:` name. The waveform and timeline stay
    /// open: close them with [`Session::finish_trace`] whether this succeeded
    /// or not.
    pub fn run(&mut self, w: &Workload, prepared: &Prepared) -> Result<WorkloadRun, RunError> {
        let after: Vec<&str> = w.checks.iter().filter_map(|c| c.after()).collect();
        let result = workload::execute_program(&mut self.driver, prepared, &after);
        // What the finished dispatches printed, also when a later one failed.
        self.print_printf();
        let (program, work) = result.map_err(|e| self.driver_error(e))?;
        if let Some(record) = self.driver.device().lds_out_of_range() {
            return Err(lds_out_of_range(w, prepared, record));
        }
        Ok(WorkloadRun { program, work })
    }

    /// What finished dispatches printed with OpenCL `printf` since the last
    /// call (see [`sw::driver::printf`]), dispatch by dispatch.
    pub fn take_printf(&mut self) -> Vec<PrintfOutput> {
        self.driver.take_printf()
    }

    /// Writes what finished dispatches printed to the process's standard
    /// output, and overflow and decoding problems to standard error as
    /// `gpusim: warning:` lines. [`Session::run`] calls it after the
    /// workload; a host driving the driver itself (the OpenCL platform) calls
    /// it after each wait.
    pub fn print_printf(&mut self) {
        let buffer = self.driver.printf_buffer();
        let outputs = self.driver.take_printf();
        let mut stdout = std::io::stdout().lock();
        for o in &outputs {
            // Best effort: a closed stdout must not fail the run.
            let _ = stdout.write_all(o.text.as_bytes());
        }
        let _ = stdout.flush();
        for o in &outputs {
            for line in o.errors.iter().cloned().chain(o.overflow_message(buffer)) {
                eprintln!("gpusim: warning: {line}");
            }
        }
    }

    /// Flushes and closes the waveform and the timeline (a run that stopped
    /// early leaves them marked partial); the error is a sentence.
    pub fn finish_trace(&mut self) -> Result<(), String> {
        self.driver.device_mut().finish_trace()
    }

    /// Checks a run's results against every check of `w`.
    pub fn check(
        &self,
        w: &Workload,
        prepared: &Prepared,
        run: &WorkloadRun,
    ) -> Result<CheckReport, RunError> {
        Ok(workload::check_run(w, prepared, &run.program)?)
    }

    /// The model's statistics so far.
    pub fn statistics(&self) -> Statistics {
        match self.device() {
            ModelDevice::Functional(g, _) => Statistics::Functional(g.stats()),
            ModelDevice::Cycle(hw, _) => Statistics::Cycle {
                stats: Box::new(hw.stats()),
                config: Box::new(hw.config().clone()),
            },
            ModelDevice::Lockstep(l, _) => Statistics::Lockstep {
                stats: Box::new(l.clocked().stats()),
                config: Box::new(l.clocked().config().clone()),
                lockstep: l.stats().clone(),
            },
        }
    }
}

/// The error for a run whose kernel accessed LDS outside its allocation:
/// the kernel(s) and the dynamic LDS the workload gave.
fn lds_out_of_range(w: &Workload, prepared: &Prepared, record: LdsOutOfRange) -> RunError {
    let local = |args: &[PreparedArg]| -> u32 {
        args.iter()
            .map(|a| match a {
                PreparedArg::Local(n) => *n,
                _ => 0,
            })
            .sum()
    };
    let (kernel, dynamic) = if prepared.steps.is_empty() {
        (format!("`{}`", prepared.kernel_name), local(&prepared.args))
    } else {
        // A program: the step of the access's dispatch is not tracked here;
        // name every kernel and the largest dynamic LDS a step gives.
        let mut names: Vec<String> = Vec::new();
        for s in &prepared.steps {
            let n = format!("`{}`", s.kernel_name);
            if !names.contains(&n) {
                names.push(n);
            }
        }
        let dynamic = prepared.steps.iter().map(|s| local(&s.args)).max();
        (names.join(" or "), dynamic.unwrap_or(0))
    };
    RunError::LdsOutOfRange {
        context: w.path.clone(),
        kernel,
        dynamic,
        record: Box::new(record),
    }
}

/// The device ISA that runs `prepared`: `requested` (default gfx1030), which
/// gfx1030 code must match; gfx803 code runs on either (translated on gfx1030).
pub fn device_isa(prepared: &Prepared, requested: Option<Isa>) -> Result<Isa, RunError> {
    let path = prepared.code_object_path.display();
    let isa = CodeObject::parse(&prepared.code_object)
        .map_err(|e| RunError::Setup(format!("{path}: {e}")))?
        .isa()
        .ok_or_else(|| {
            RunError::Setup(format!(
                "{path}: processor is not modelled (gfx803 and gfx1030 are)"
            ))
        })?;
    let device = requested.unwrap_or(Isa::Gfx1030);
    if isa == Isa::Gfx1030 && device != Isa::Gfx1030 {
        return Err(RunError::Setup(format!(
            "{path}: gfx1030 code cannot run on a {device} device"
        )));
    }
    Ok(device)
}

/// Reads a GPU configuration file, or the embedded default without one.
pub fn gpu_config(path: Option<&Path>) -> Result<GpuConfig, RunError> {
    match path {
        None => Ok(GpuConfig::default_config()),
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|source| RunError::Io {
                path: p.to_path_buf(),
                source,
            })?;
            GpuConfig::from_yaml(&text, &p.display().to_string())
                .map_err(|e| RunError::Setup(e.to_string()))
        }
    }
}

/// The configuration preset called `name` (an error lists the names).
pub fn preset_config(name: &str) -> Result<GpuConfig, RunError> {
    GpuConfig::preset(name).ok_or_else(|| {
        let names: Vec<&str> = hw::config::PRESETS.iter().map(|(n, _, _)| *n).collect();
        RunError::Setup(format!(
            "unknown preset `{name}`; presets: {}",
            names.join(", ")
        ))
    })
}
