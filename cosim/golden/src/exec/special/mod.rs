//! Semantics of the less common opcodes, kept apart from the family files'
//! hot paths: each submodule answers `Ok(false)` for an opcode it does not
//! own, and the family files call it only after their own match failed.
//! Coverage (what is implemented, what faults as not implemented and why)
//! is in `docs/golden-coverage.md`.

pub mod buffer_format;
pub mod ds;
pub mod tfe;
pub mod valu;
