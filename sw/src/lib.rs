//! Driver, runtime, kernel compiler and gfx803 to gfx1030 cross-compiler.
//!
//! [`driver`] runs kernels on any [`arch::device::Device`]: device memory,
//! code-object loading, kernel arguments, channel submission and fences.
//! [`xlate`] translates gfx803 kernels to gfx1030 at dispatch time (seed 003).
#![deny(missing_docs)]

pub mod driver;
pub mod xlate;
