//! OpenCL C `printf` through the platform (`tests/loader/printf.c`): a
//! kernel built from source by gpusim's compiler prints through the driver's
//! per-dispatch printf buffer, and the platform writes the lines to the host
//! program's standard output when the dispatch completes. On every model,
//! and on PoCL (the same lines: the expectations are the language's). The
//! expected lines are formatted here with Rust's formatting, an oracle
//! independent of the driver's formatter.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

/// Where Debian's `rocm-device-libs` keeps ROCm's bitcode.
const BITCODE: &str = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode";

/// A clang-19 code object whose kernel `hello_bin` prints, linked with
/// ROCm's `__printf_alloc` as `cosim/tests/printf.rs` does (Debian's
/// opencl.bc defines `printf` itself, which would hide the call from
/// clang's printf lowering); `None` (said) without the tools.
fn clang_printf_object() -> Option<PathBuf> {
    let tools = ["clang-19", "ld.lld-19", "llvm-link-19", "llvm-extract-19"];
    let have = tools.iter().all(|t| {
        Command::new(t)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if !have || !Path::new(BITCODE).join("ockl.bc").exists() {
        skip("clang-19, llvm-link-19, llvm-extract-19, ld.lld-19 or rocm-device-libs is missing");
        return None;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("opencl_printf_bin");
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let cl = dir.join("hello_bin.cl");
    std::fs::write(
        &cl,
        "__kernel void hello_bin(__global const int *a) {\n\
         \x20 int i = (int)__builtin_amdgcn_workitem_id_x();\n\
         \x20 printf(\"bin %d: %d %s\\n\", i, a[i], \"from clang\");\n}\n",
    )
    .expect("the kernel source is written");
    let f = |n: &str| dir.join(n);
    let run = |c: &mut Command| {
        let out = c.output().expect("the tool runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(Command::new("llvm-extract-19")
        .arg("--func=__printf_alloc")
        .arg(format!("{BITCODE}/opencl.bc"))
        .arg("-o")
        .arg(f("alloc0.bc")));
    let mut link = Command::new("llvm-link-19");
    link.arg(f("alloc0.bc")).arg("--only-needed");
    for lib in [
        "opencl",
        "ockl",
        "oclc_abi_version_500",
        "oclc_isa_version_1030",
        "oclc_wavefrontsize64_off",
    ] {
        link.arg(format!("{BITCODE}/{lib}.bc"));
    }
    run(link.arg("-o").arg(f("alloc.bc")));
    let target = [
        "-target",
        "amdgcn-amd-amdhsa",
        "-mcpu=gfx1030",
        "-nogpulib",
        "-O2",
    ];
    run(Command::new("clang-19")
        .args(target)
        .arg("-c")
        .arg(f("alloc.bc"))
        .arg("-o")
        .arg(f("alloc.o")));
    run(Command::new("clang-19")
        .args(["-x", "cl", "-cl-std=CL1.2", "-Wno-format", "-c"])
        .args(target)
        .arg(&cl)
        .arg("-o")
        .arg(f("hello_bin.o")));
    run(Command::new("ld.lld-19")
        .arg("-shared")
        .arg(f("hello_bin.o"))
        .arg(f("alloc.o"))
        .arg("-o")
        .arg(f("hello_bin.hsaco")));
    Some(f("hello_bin.hsaco"))
}

/// The lines `hello` prints, one per work-item, sorted (work-items print in
/// the order they run, which OpenCL does not fix).
fn expected() -> Vec<String> {
    let mut lines: Vec<String> = (0..8i32)
        .map(|i| {
            let a = (i - 3) * 111;
            let u = 40 + i as u32;
            let x = 40 * (i as u32 + 1);
            let f = 1.25f32 * i as f32;
            let ch = char::from(b'A' + i as u8);
            format!("item {i}: a={a:5} u={u} x={x:#x} f={f:.2} c={ch} s=str %")
        })
        .collect();
    lines.sort();
    lines
}

/// Checks `out`: the kernel's lines between the markers, the second
/// kernel's single line after them.
fn check(out: &str, who: &str) {
    let lines: Vec<&str> = out.lines().collect();
    let at = |m: &str| {
        lines
            .iter()
            .position(|l| *l == m)
            .unwrap_or_else(|| panic!("{who}: no {m:?} in {out}"))
    };
    let (before, after, done) = (at("before"), at("after"), at("printf done"));
    let after_once = lines
        .iter()
        .position(|l| *l == "binary before")
        .unwrap_or(done);
    let mut printed: Vec<String> = lines[before + 1..after]
        .iter()
        .map(|l| l.to_string())
        .collect();
    printed.sort();
    assert_eq!(printed, expected(), "{who}: {out}");
    assert_eq!(
        &lines[after + 1..after_once],
        &["once from the device"],
        "{who}: {out}"
    );
}

/// A clang-19 object loaded by `clCreateProgramWithBinary` prints too.
#[test]
fn printf_of_a_clang_binary_reaches_the_host_program() {
    let Some(object) = clang_printf_object() else {
        return;
    };
    let Some(out) = run_c_on(Icd::Gpusim, "printf", &[&object], &[]) else {
        return;
    };
    check(&out, "functional");
    let lines: Vec<&str> = out.lines().collect();
    let start = lines.iter().position(|l| *l == "binary before");
    let end = lines.iter().position(|l| *l == "binary after");
    let (Some(start), Some(end)) = (start, end) else {
        panic!("no binary markers in {out}");
    };
    let mut printed: Vec<&str> = lines[start + 1..end].to_vec();
    printed.sort();
    // a[i] = (i - 3) * 111, as the program fills it.
    let expected: Vec<String> = (0..4)
        .map(|i| format!("bin {i}: {} from clang", (i - 3) * 111))
        .collect();
    assert_eq!(printed, expected, "{out}");
}

#[test]
fn printf_reaches_the_host_program_on_every_model_and_on_pocl() {
    for model in ["functional", "cycle", "lockstep"] {
        if let Some(out) = run_c_on(Icd::Gpusim, "printf", &[], &[("GPUSIM_MODEL", model)]) {
            check(&out, model);
        }
    }
    if let Some(out) = run_c_on(Icd::Pocl, "printf", &[], &[]) {
        check(&out, "PoCL");
    }
}
