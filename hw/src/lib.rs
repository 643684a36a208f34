//! The clocked RTL-style GPU model implementing `arch::device::Device`.
//!
//! ```text
//! gpu.rs      top level: clock, MMIO, wiring of the blocks below
//! frontend/   channels, entry fetch, command blocks, semaphores, wait-for-idle
//! dispatch/   workgroup placement, wave slots, VGPR/SGPR/LDS allocation, initial state
//! cu/         fetch, instruction buffers, scheduler, SALU, SIMD32 VALUs, VGPR banks,
//!             LDS, vector memory unit, waitcnt counters, barriers
//! mem/        CU-side caches, GL1, crossbar, L2 channels, Infinity Cache, DRAM channels; backing store
//! exec/       the functional datapath (independent of the golden model)
//! parallel/   compute units on worker threads (identical results for any thread count)
//! ```
//!
//! Every block is a struct of registers with a next-state function; the
//! clock edge in [`gpu`] is the only place state changes. Registers and ports
//! are visible to tracing by hierarchical name through [`traces::Probe`].
#![deny(missing_docs)]

pub mod config;
pub mod cu;
pub mod dispatch;
pub mod event;
pub mod exec;
pub mod frontend;
pub mod gpu;
pub mod hash;
pub mod inject;
pub mod mem;
pub mod parallel;
pub mod stats;
pub mod xbar;

pub use config::{ConfigError, GpuConfig};
pub use gpu::ClockedGpu;
