//! The error of a `gpusim` subcommand and its exit code (a leaf: the
//! subcommands and the sweep jobs that run them report through it).

use std::path::PathBuf;

use thiserror::Error;

/// A failed subcommand.
#[derive(Debug, Error)]
pub enum CliError {
    /// A workload check failed (exit 1).
    #[error("check failed: {0}")]
    CheckFailed(String),
    /// The GPU faulted, a watchdog fired or a queue deadlocked (exit 3).
    #[error("{0}")]
    GpuFault(String),
    /// Lockstep co-simulation found the clocked and golden models disagreeing (exit 4).
    #[error("{0}")]
    Mismatch(String),
    /// The user pressed Ctrl-C (exit 130, as shells report SIGINT).
    #[error("{0}")]
    Interrupted(String),
    /// The user's input is wrong (file, syntax, encoding).
    #[error("{0}")]
    BadInput(String),
    /// A compiler diagnostic (`file:line:col: error: …`, the line, a caret),
    /// printed as is; exit 2 like other bad input.
    #[error("{0}")]
    Diagnostic(String),
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
}

impl CliError {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::CheckFailed(_) => 1,
            CliError::BadInput(_) | CliError::Diagnostic(_) | CliError::Io { .. } => 2,
            CliError::GpuFault(_) => 3,
            CliError::Mismatch(_) => 4,
            CliError::Interrupted(_) => 130,
        }
    }
}
