//! Design-space sweeps (`docs/sweeps.md`): a sweep file names workloads and a
//! grid of configuration overrides; every (point, workload) pair is a job with
//! its own result file, run by [`local`] on this machine or by a Slurm job
//! array ([`slurm`]), and [`collect`] turns the results into a CSV and plots.

pub mod collect;
pub mod job;
pub mod local;
pub mod manifest;
pub mod plots;
pub mod result;
pub mod slurm;
pub mod spec;

pub use spec::{Job, Point, Sweep};
