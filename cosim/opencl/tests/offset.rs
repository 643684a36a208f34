//! Global work offsets (`tests/loader/offset.c`): 1-, 2- and 3-D ranges with
//! offsets, a clang-19 code object of `offset.cl` on every model of gpusim
//! (its `get_global_id` adds `hidden_global_offset_{x,y,z}`, which the
//! platform fills), the source built by gpusim's compiler (a kernel that
//! calls `get_global_offset` gets the hidden offsets and adds them in
//! `get_global_id`) on every model, and the source on PoCL; a source kernel
//! that never reads the offset runs with one (the platform builds it again
//! with the hidden offsets), and a binary without them is refused one.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

/// Where Debian's `rocm-device-libs` keeps ockl (clang-19's `get_global_id`).
const DEVICE_LIBS: &str = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode";

fn source() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/loader/offset.cl")
}

/// `offset.cl` built by clang-19 with the ROCm device libraries, or `None`
/// (said) when they are missing.
fn clang_object() -> Option<PathBuf> {
    if !Path::new(DEVICE_LIBS).join("ockl.bc").exists() {
        skip("the ROCm device libraries are not installed (apt-get install rocm-device-libs)");
        return None;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let (obj, hsaco) = (dir.join("offset.o"), dir.join("offset.hsaco"));
    let compiled = Command::new("clang-19")
        .args(["-x", "cl", "-cl-std=CL1.2", "-target", "amdgcn-amd-amdhsa"])
        .args(["-mcpu=gfx1030", "-O2"])
        .arg(format!("--rocm-device-lib-path={DEVICE_LIBS}"))
        .arg("-c")
        .arg(source())
        .arg("-o")
        .arg(&obj)
        .output();
    let Ok(compiled) = compiled else {
        skip("clang-19 does not run");
        return None;
    };
    assert!(
        compiled.status.success(),
        "{}",
        String::from_utf8_lossy(&compiled.stderr)
    );
    let linked = Command::new("ld.lld-19")
        .arg("-shared")
        .arg(&obj)
        .arg("-o")
        .arg(&hsaco)
        .output()
        .expect("ld.lld-19 runs");
    assert!(
        linked.status.success(),
        "{}",
        String::from_utf8_lossy(&linked.stderr)
    );
    Some(hsaco)
}

#[test]
fn global_offsets_reach_clang_kernels_on_every_model() {
    let Some(hsaco) = clang_object() else {
        return;
    };
    for model in ["functional", "cycle", "lockstep"] {
        if let Some(out) = run_c_on(Icd::Gpusim, "offset", &[&hsaco], &[("GPUSIM_MODEL", model)]) {
            assert!(out.contains("offset ok"), "{model}: {out}");
        }
    }
}

#[test]
fn global_offsets_reach_gpusim_compiled_kernels_on_every_model() {
    for model in ["functional", "cycle", "lockstep"] {
        if let Some(out) = run_c_on(
            Icd::Gpusim,
            "offset",
            &[&source()],
            &[("GPUSIM_MODEL", model)],
        ) {
            assert!(out.contains("offset ok"), "{model}: {out}");
        }
    }
}

#[test]
fn the_offset_program_passes_on_pocl() {
    if let Some(out) = run_c_on(Icd::Pocl, "offset", &[&source()], &[]) {
        assert!(out.contains("offset ok"), "PoCL: {out}");
    }
}

/// The kernel of the `plain` mode of `offset.c` compiled by gpusim's
/// compiler with its defaults (no hidden offsets: it never reads them).
fn plain_object() -> PathBuf {
    let source = "__kernel void ids(__global uint *out, __global ulong *offs, uint w, uint h) {\n\
                  \x20 size_t x = get_global_id(0);\n\
                  \x20 out[x] = (uint)(1 + x);\n\
                  }\n";
    let compiled = compiler::compile(
        compiler::Source::Text {
            name: "plain.cl",
            text: source,
        },
        &compiler::CompileOptions::default(),
    )
    .expect("the plain kernel compiles");
    // The metadata (MessagePack) names each hidden argument's kind.
    let named = |what: &[u8]| compiled.code_object.windows(what.len()).any(|w| w == what);
    assert!(
        named(b"hidden_block_count_x"),
        "the metadata is readable here"
    );
    assert!(!named(b"hidden_global_offset_x"), "built without offsets");
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("offset_plain.hsaco");
    std::fs::write(&path, &compiled.code_object).expect("written");
    path
}

#[test]
fn a_kernel_that_does_not_read_the_offset_runs_with_one_and_its_binary_is_refused_one() {
    let binary = plain_object();
    for model in ["functional", "cycle", "lockstep"] {
        if let Some(out) = run_c_on(
            Icd::Gpusim,
            "offset",
            &[&source(), Path::new("plain"), &binary],
            &[("GPUSIM_MODEL", model)],
        ) {
            assert!(out.contains("offset plain ok"), "{model}: {out}");
            assert!(out.contains("offset refusal ok"), "{model}: {out}");
        }
    }
}

#[test]
fn a_kernel_that_does_not_read_the_offset_runs_with_one_on_pocl() {
    if let Some(out) = run_c_on(Icd::Pocl, "offset", &[&source(), Path::new("plain")], &[]) {
        assert!(out.contains("offset plain ok"), "PoCL: {out}");
    }
}
