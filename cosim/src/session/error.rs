//! The error of a run through [`Session`](super::Session), and the classes
//! every front end (the CLI's exit codes, a sweep's job status, the OpenCL
//! platform's error codes) maps it to.

use std::path::PathBuf;

use arch::device::{DeviceError, FaultKind, LdsOutOfRange};
use sw::driver::DriverError;
use thiserror::Error;

use crate::workload::WorkloadError;

/// What went wrong in a run.
#[derive(Debug, Error)]
pub enum RunError {
    /// The workload file, or building its buffers and launch, failed.
    #[error("{0}")]
    Workload(#[from] WorkloadError),
    /// The model, its configuration or an output (waveform, timeline) cannot
    /// be set up as asked; the sentence says why.
    #[error("{0}")]
    Setup(String),
    /// The driver or the device failed while `context` (the workload file)
    /// ran; [`RunError::kind`] tells a GPU fault from driver misuse.
    #[error("{}: {source}", context.display())]
    Driver {
        /// What the message names first: the workload file.
        context: PathBuf,
        /// What the driver said.
        source: DriverError,
    },
    /// The run finished and a check of its results failed.
    #[error("{}: {first}", context.display())]
    CheckFailed {
        /// The workload file.
        context: PathBuf,
        /// The first failed check (or refused work-creation counts).
        first: String,
    },
    /// The run finished, but a kernel accessed LDS outside its work-group's
    /// allocation (static plus the workload's dynamic `local:` bytes): the
    /// workload gave too little dynamic LDS, or the kernel indexes out of
    /// bounds. Bad input (exit 2): the values the hardware would compute
    /// (reads of 0, dropped writes) are not what the author meant.
    #[error(
        "{}: kernel {kernel} {} LDS byte {:#x}, outside its work-group's {} bytes of LDS ({dynamic} \
         dynamic from the workload's `local:` arguments, {} static): too little dynamic LDS? The \
         GPU reads such bytes as 0 and drops such writes. First access: {}",
        context.display(),
        if record.write { "wrote" } else { "read" },
        record.address,
        record.lds_bytes,
        record.lds_bytes.saturating_sub(*dynamic),
        record.location()
    )]
    LdsOutOfRange {
        /// The workload file.
        context: PathBuf,
        /// The kernel(s) the workload runs, quoted.
        kernel: String,
        /// Bytes of dynamic LDS the workload gave (its `local:` arguments).
        dynamic: u32,
        /// The first access, as the model recorded it.
        record: Box<LdsOutOfRange>,
    },
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
}

/// The class of a [`RunError`]: what a front end reports it as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input is wrong (workload, configuration, options, files).
    BadInput,
    /// A check of the results failed.
    CheckFailed,
    /// The GPU faulted, a watchdog fired or a queue deadlocked.
    Fault,
    /// Lockstep found the clocked and golden models disagreeing.
    Mismatch,
    /// A signal stopped the run (Ctrl-C, SIGTERM).
    Interrupted,
}

impl ErrorKind {
    /// The process exit code of this class (`gpusim` and sweep results):
    /// 1 check failed, 2 bad input, 3 GPU fault, 4 lockstep mismatch, 130
    /// interrupted (as shells report SIGINT).
    pub fn exit_code(self) -> u8 {
        match self {
            ErrorKind::CheckFailed => 1,
            ErrorKind::BadInput => 2,
            ErrorKind::Fault => 3,
            ErrorKind::Mismatch => 4,
            ErrorKind::Interrupted => 130,
        }
    }
}

impl RunError {
    /// The class of this error. Driver errors are classified by their cause:
    /// GPU faults, watchdogs and deadlocked queues are faults (a lockstep
    /// mismatch and an interrupt are faults of their own), anything else the
    /// driver refuses is bad input.
    pub fn kind(&self) -> ErrorKind {
        match self {
            RunError::Workload(_)
            | RunError::Setup(_)
            | RunError::Io { .. }
            | RunError::LdsOutOfRange { .. } => ErrorKind::BadInput,
            RunError::CheckFailed { .. } => ErrorKind::CheckFailed,
            RunError::Driver { source, .. } => driver_error_kind(source),
        }
    }

    /// The fault's cycle, when the device stopped on a fault.
    pub fn fault_cycle(&self) -> Option<u64> {
        match self {
            RunError::Driver {
                source: DriverError::Device(DeviceError::Fault(f)),
                ..
            } => Some(f.cycle),
            _ => None,
        }
    }
}

/// See [`RunError::kind`].
fn driver_error_kind(e: &DriverError) -> ErrorKind {
    match e {
        DriverError::Device(DeviceError::Fault(f)) => match f.kind {
            FaultKind::LockstepMismatch { .. } => ErrorKind::Mismatch,
            FaultKind::Interrupted { .. } => ErrorKind::Interrupted,
            _ => ErrorKind::Fault,
        },
        DriverError::Blocked { .. }
        | DriverError::Timeout { .. }
        | DriverError::RingStuck { .. } => ErrorKind::Fault,
        _ => ErrorKind::BadInput,
    }
}
