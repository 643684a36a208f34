//! Why the back end could not compile a kernel: its own leaf, so the passes
//! the back end calls (e.g. `backend::subvector`) can return it without
//! importing the back end's top module.

use thiserror::Error;

use crate::ir;

/// Why a kernel could not be compiled.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BackendError {
    /// The IR is malformed.
    #[error(transparent)]
    Verify(#[from] ir::VerifyError),
    /// A construct this back end does not handle yet.
    #[error("not supported: {0}")]
    Unsupported(String),
    /// Too many simultaneously live values (VGPRs spill to scratch; SGPRs do not yet).
    #[error("the kernel needs more than {limit} {file}s at once (only VGPRs spill to scratch)")]
    OutOfRegisters {
        /// `SGPR` or `VGPR`.
        file: &'static str,
        /// Registers available.
        limit: u16,
    },
    /// A bug in the back end.
    #[error("internal compiler error: {0}")]
    Internal(String),
}
