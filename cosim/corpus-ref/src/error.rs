//! Errors of the corpus API. Every failure names the kernel argument (by
//! position and name) and, for data mismatches, the element index.

use std::fmt;

/// What went wrong when materialising a launch, running a reference or
/// comparing results.
#[derive(Clone, Debug, PartialEq)]
pub enum CorpusError {
    /// The argument list has the wrong length for the kernel.
    ArgCount {
        /// Kernel name.
        kernel: &'static str,
        /// Arguments in the kernel signature.
        expected: usize,
        /// Arguments supplied.
        got: usize,
    },
    /// An argument has the wrong kind or element type.
    ArgKind {
        /// Position in the kernel signature.
        index: usize,
        /// What the kernel needs there, e.g. `"u32 buffer"`.
        expected: &'static str,
        /// What was supplied.
        found: String,
    },
    /// A buffer is shorter than the launch needs.
    BufferTooShort {
        /// Position in the kernel signature.
        index: usize,
        /// Elements needed.
        needed: usize,
        /// Elements present.
        len: usize,
    },
    /// The launch geometry or a scalar argument is outside what the kernel
    /// (and its reference) supports.
    BadLaunch {
        /// Kernel name.
        kernel: &'static str,
        /// Why.
        reason: String,
    },
    /// A buffer's final contents differ from the reference.
    Mismatch {
        /// Kernel name.
        kernel: &'static str,
        /// Position of the buffer argument.
        arg: usize,
        /// Name of the buffer argument.
        name: &'static str,
        /// First differing element.
        index: usize,
        /// Expected value, formatted.
        expected: String,
        /// Actual value, formatted.
        actual: String,
        /// Number of differing elements in this buffer.
        count: usize,
    },
}

impl fmt::Display for CorpusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CorpusError::ArgCount {
                kernel,
                expected,
                got,
            } => {
                write!(
                    f,
                    "kernel {kernel}: expected {expected} arguments, got {got}"
                )
            }
            CorpusError::ArgKind {
                index,
                expected,
                found,
            } => {
                write!(f, "argument {index}: expected {expected}, found {found}")
            }
            CorpusError::BufferTooShort { index, needed, len } => {
                write!(
                    f,
                    "argument {index}: buffer has {len} elements, the launch needs {needed}"
                )
            }
            CorpusError::BadLaunch { kernel, reason } => write!(f, "kernel {kernel}: {reason}"),
            CorpusError::Mismatch {
                kernel,
                arg,
                name,
                index,
                expected,
                actual,
                count,
            } => write!(
                f,
                "kernel {kernel}: argument {arg} ({name}) element {index}: expected {expected}, \
                 got {actual} ({count} elements differ)"
            ),
        }
    }
}

impl std::error::Error for CorpusError {}
