//! The platform's objects, below the C API: what the environment chose
//! (model, configuration), the device's figures derived from it, and the
//! device thread that owns a context's `Session` (its queues run there).
//! Nothing here is `unsafe` or knows about handles; `api` checks the
//! arguments and turns these into handles and info bytes.

pub mod device;
pub mod settings;
pub mod worker;
