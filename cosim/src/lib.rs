//! Golden functional GPU, lockstep checker, workloads and the `gpusim` command-line tool.
#![deny(missing_docs)]

pub mod cli;
pub mod workload;
