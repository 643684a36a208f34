//! Host-side costs: the enqueue overhead benchmark
//! (`tests/loader/enqueue_bench.c` through the ICD loader on the
//! functional model; its figures are printed, the documented run is in
//! docs/performance.md) and the program build cache.

mod common;

use common::*;
use gpusim_opencl::api::build_cache_stats;

/// The benchmark runs (1,000 of each command here; 10,000 in the
/// documented run) and its counter checks that every dispatch happened.
/// The bound asserted is loose (the machine is shared): 500 µs of CPU per
/// enqueue; the target, 50 µs, is what docs/performance.md reports against.
#[test]
fn the_enqueue_benchmark_runs() {
    let Some(out) = run_c("enqueue_bench", &[std::path::Path::new("1000")], &[]) else {
        return;
    };
    assert!(out.contains("bench ok 1000"), "{out}");
    eprintln!("{out}");
    for line in out.lines().filter(|l| l.contains("us/enqueue")) {
        // The process's CPU time per enqueue (the wall clock of a shared
        // machine says little).
        let us: f64 = line
            .split("(cpu ")
            .nth(1)
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .expect("a figure");
        assert!(us < 500.0, "{line}");
    }
}

/// Building the same source with the same options again is served from
/// the build cache (this binary builds nothing else in process).
#[test]
fn a_program_built_again_comes_from_the_cache() {
    let p = platform();
    let d = device(p);
    let c = context(d);
    let source = c"__kernel void cached(__global int *a) { a[get_global_id(0)] *= 3; }";
    let build = |options: &std::ffi::CStr| {
        let text = source.as_ptr();
        let mut err = 1;
        let prog = unsafe {
            entry::<CreateWithSource>(c, "clCreateProgramWithSource")(
                c,
                1,
                &text,
                std::ptr::null(),
                &mut err,
            )
        };
        assert_eq!(err, CL_SUCCESS);
        let r = unsafe {
            entry::<Build>(prog, "clBuildProgram")(
                prog,
                0,
                std::ptr::null(),
                options.as_ptr(),
                std::ptr::null(),
                std::ptr::null_mut(),
            )
        };
        assert_eq!(r, CL_SUCCESS);
        let k = unsafe {
            entry::<CreateKernel>(prog, "clCreateKernel")(prog, c"cached".as_ptr(), &mut err)
        };
        assert_eq!(err, CL_SUCCESS);
        unsafe {
            entry::<Release>(k, "clReleaseKernel")(k);
            entry::<Release>(prog, "clReleaseProgram")(prog);
        }
    };
    let (h0, m0) = build_cache_stats();
    build(c"");
    build(c"");
    build(c"-D X=1");
    build(c"-D X=1");
    build(c"");
    let (h1, m1) = build_cache_stats();
    assert_eq!((h1 - h0, m1 - m0), (3, 2));
    unsafe { entry::<Release>(c, "clReleaseContext")(c) };
}
