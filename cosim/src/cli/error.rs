//! The error of a `gpusim` subcommand and its exit code (a leaf: the
//! subcommands and the sweep jobs that run them report through it).

use std::path::PathBuf;

use thiserror::Error;

use crate::session::{ErrorKind, RunError};

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

impl From<RunError> for CliError {
    /// A run's error in the class its kind says, with the same message
    /// (a file error keeps its path and cause).
    fn from(e: RunError) -> CliError {
        let kind = e.kind();
        if let RunError::Io { path, source } = e {
            return CliError::Io { path, source };
        }
        let message = e.to_string();
        match kind {
            ErrorKind::BadInput => CliError::BadInput(message),
            ErrorKind::CheckFailed => CliError::CheckFailed(message),
            ErrorKind::Fault => CliError::GpuFault(message),
            ErrorKind::Mismatch => CliError::Mismatch(message),
            ErrorKind::Interrupted => CliError::Interrupted(message),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CLI's exit codes are the run's classes' (sweep results use those),
    /// and the message is the run's.
    #[test]
    fn run_error_keeps_its_class_exit_code() {
        let errors = [
            RunError::Setup("x".into()),
            RunError::CheckFailed {
                context: "w.yaml".into(),
                first: "y[0]".into(),
            },
            RunError::Io {
                path: "f".into(),
                source: std::io::Error::other("gone"),
            },
        ];
        for e in errors {
            let (kind, text) = (e.kind(), e.to_string());
            let cli = CliError::from(e);
            assert_eq!(cli.exit_code(), kind.exit_code(), "{text}");
            // The message is kept (a failed check's gets the CLI's prefix).
            let shown = cli.to_string();
            assert!(
                shown == text || shown == format!("check failed: {text}"),
                "{shown}"
            );
        }
    }
}
