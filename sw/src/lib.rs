//! Driver, runtime, kernel compiler and gfx803 to gfx1030 cross-compiler.
#![deny(missing_docs)]
