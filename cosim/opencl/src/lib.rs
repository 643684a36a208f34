//! gpusim's OpenCL platform: a library the Khronos ICD loader (`libOpenCL.so`,
//! ocl-icd or the Khronos loader) loads next to any other vendor's, so an
//! unchanged OpenCL application can select the simulated GPU. The model and
//! configuration come from the environment (`GPUSIM_MODEL`, `GPUSIM_CONFIG`,
//! `GPUSIM_PRESET`; `docs/opencl.md`).
//!
//! Where it sits: the platform needs the models, and only `cosim` composes
//! them (the golden GPU, the clocked GPU, lockstep, their waveforms and
//! statistics) behind one library entry, `cosim::session::Session`, which
//! `gpusim run` and sweeps use too. So this crate sits on top of `cosim`
//! (`cosim/opencl/`, package `gpusim-opencl`), rather than in `sw` as the
//! driver and compiler do: `sw` must not depend on the models.
//!
//! Layout, after Mesa's Rusticl (`api/` checks arguments and owns handles,
//! `core/` holds the objects) and Oclgrind (one simulated device behind an
//! ICD dispatch table):
//!
//! - `icd`: the dispatch table every handle starts with (ABI order generated
//!   from `CL/cl_icd.h`), stubs for what is not implemented yet;
//! - `api`: the C entry points: `clIcdGetPlatformIDsKHR`,
//!   `clGetExtensionFunctionAddress`, platform and device queries, contexts,
//!   queues, buffers and their transfers, events, programs from sources
//!   (gpusim's compiler) and code objects, kernels and their dispatch;
//! - `core`: the settings from the environment, the device's figures, and
//!   the device thread that owns a context's `Session`.
//!
//! A program can find the platform and the device, create contexts, queues
//! and buffers, build OpenCL C or load a code object, set a kernel's
//! arguments and dispatch it on the simulated GPU. What is not implemented
//! yet (images, user events, `clCompileProgram`/`clLinkProgram`; the Status
//! table of `docs/opencl.md`) fails with `CL_INVALID_OPERATION` (or a null
//! handle), saying so on standard error.

pub mod api;
pub mod cl;
pub mod core;
pub mod icd;
