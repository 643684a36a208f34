//! Kernel and buffer information (`tests/loader/kernel_info.c`, what the
//! Khronos conformance tests' `test_api` found missing): kernel attributes,
//! the required work-group size, `clGetKernelArgInfo`, the local memory of
//! `__local` arguments, buffer destructor callbacks, the linker. On every
//! model of gpusim and on PoCL.

mod common;

use common::*;

#[test]
fn kernel_info_is_answered_on_every_model_and_on_pocl() {
    for model in ["functional", "cycle", "lockstep"] {
        if let Some(out) = run_c_on(Icd::Gpusim, "kernel_info", &[], &[("GPUSIM_MODEL", model)]) {
            assert!(out.contains("kernel info ok"), "{model}: {out}");
        }
    }
    if let Some(out) = run_c_on(Icd::Pocl, "kernel_info", &[], &[]) {
        assert!(out.contains("kernel info ok"), "PoCL: {out}");
    }
}
