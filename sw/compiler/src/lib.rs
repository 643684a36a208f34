//! gpusim's own kernel compiler: OpenCL C → gfx1030 code objects, written
//! without LLVM (clang-19 stays the oracle and the reference to beat).
//!
//! The pipeline, one module each:
//! 1. [`front`] — preprocessor, lexer, parser and semantic analysis: OpenCL C
//!    source in, a typed AST out (errors as `file:line:col: error: message`).
//! 2. [`ir`] — the ISA-neutral SSA IR (entity newtypes in arenas, a verifier,
//!    a printer), its analyses (uniformity) and optimisation passes; the
//!    conditional expression stays a `select` until instruction selection
//!    (seed 004).
//! 3. [`backend`] — gfx1030 instruction selection through `arch`, EXEC-masked
//!    control flow, register allocation, `s_waitcnt` insertion, the kernel
//!    descriptor and a code object v5.
#![deny(missing_docs)]

pub mod backend;
pub mod front;
pub mod ir;
