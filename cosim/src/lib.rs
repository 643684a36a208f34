//! Lockstep checker, workloads and the `gpusim` command-line tool (the golden
//! functional GPU is the crate `golden`).
#![deny(missing_docs)]

pub mod channels;
pub mod cli;
pub mod fuzz;
pub mod interrupt;
pub mod lockstep;
pub mod model;
pub mod session;
pub mod sweep;
pub mod threads;
pub mod timed;
pub mod timeline;
pub mod workload;
