//! gpusim's own compiler end to end: each supported corpus kernel compiled
//! from `tests/kernels/*.cl` for wave32 and wave64, run with its corpus
//! workload (`workloads/corpus/gfx1030/NAME.yaml`) on the golden GPU in place
//! of the clang-built object, and checked against the same reference.
//! Also `gpusim compile`'s command line.

use std::path::{Path, PathBuf};
use std::process::Command;

use arch::isa::Isa;
use cosim::workload::{check, execute, Workload};
use golden::{GoldenConfig, GoldenGpu};
use sw::driver::Driver;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The kernels gpusim's compiler compiles and runs correctly today
/// (docs/compiler.md, "Lowering: status" lists the others).
const PASSING: &[&str] = &[
    "saxpy",
    "vec4_scale",
    "int_ops",
    "select_ops",
    "signed_select",
    "divergent_loops",
    "reduce_sum",
    "reduce_max_dyn",
    "scan_wg",
    "fir",
    "gather_scatter",
    "stencil2d",
    "bitonic_step",
    "matmul_naive",
    "matmul_tiled",
    "transpose",
    "ubench_smem_chain",
    "ubench_stream",
    "ubench_valu_chain",
    "ubench_lds_chase",
    "ubench_mem_chase",
    "append",
    "histogram",
    "ubench_atomics",
    "float_ops",
    "bit_ops",
    "lds_atomics",
];

fn compiled(name: &str, wave64: bool) -> Vec<u8> {
    let src = root().join(format!("tests/kernels/{name}.cl"));
    let text = std::fs::read_to_string(&src).unwrap();
    compiled_text(name, &text, wave64)
}

fn compiled_text(name: &str, text: &str, wave64: bool) -> Vec<u8> {
    let src = root().join(format!("tests/kernels/{name}.cl"));
    let src = src.to_str().unwrap();
    let mut o = compiler::CompileOptions::default().include(root().join("tests/kernels/include"));
    o.backend.wave64 = wave64;
    compiler::compile(compiler::Source::Text { name: src, text }, &o)
        .unwrap_or_else(|d| panic!("{name}:\n{d}"))
        .code_object
}

fn run_workload(name: &str, wave64: bool) -> Result<(), String> {
    run_object(name, compiled(name, wave64))
}

fn run_object(name: &str, object: Vec<u8>) -> Result<(), String> {
    let w = Workload::load(&root().join(format!("workloads/corpus/gfx1030/{name}.yaml")))
        .map_err(|e| e.to_string())?;
    let mut p = w.prepare().map_err(|e| e.to_string())?;
    p.code_object = object;
    let gpu = GoldenGpu::new(GoldenConfig::new(Isa::Gfx1030)).map_err(|e| e.to_string())?;
    let mut d = Driver::new(gpu).map_err(|e| e.to_string())?;
    let finals = execute(&mut d, &p).map_err(|e| e.to_string())?;
    let report = check(&w, &p, &finals).map_err(|e| e.to_string())?;
    assert!(
        !report.outcomes.is_empty(),
        "{name}: the workload checks nothing"
    );
    match report.first_mismatch() {
        None if report.passed() => Ok(()),
        m => Err(format!("{m:?}")),
    }
}

#[test]
fn compiled_corpus_kernels_pass_their_references_on_the_golden_gpu() {
    let mut failures = Vec::new();
    for name in PASSING {
        for wave64 in [false, true] {
            match run_workload(name, wave64) {
                Ok(()) => println!("PASS {name} wave64={wave64}"),
                Err(e) => failures.push(format!("{name} wave64={wave64}: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The check bites: a kernel compiled from a subtly wrong source fails the reference.
#[test]
fn a_miscompiled_kernel_fails_the_reference() {
    let text = std::fs::read_to_string(root().join("tests/kernels/saxpy.cl")).unwrap();
    let wrong = text.replace("a * x[i] + y[i]", "a * x[i] - y[i]");
    assert_ne!(wrong, text);
    assert!(run_object("saxpy", compiled_text("saxpy", &wrong, false)).is_err());
    let wrong = text.replace("if (i < n)", "if (i < n - 1)");
    assert!(run_object("saxpy", compiled_text("saxpy", &wrong, false)).is_err());
}

fn gpusim(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gpusim"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("gpusim runs")
}

#[test]
fn gpusim_compile_writes_a_code_object_and_prints_listing_and_ir() {
    let dir = std::env::temp_dir().join(format!("gpusim-compile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("saxpy.hsaco");
    let o = gpusim(&[
        "compile",
        "tests/kernels/saxpy.cl",
        "-o",
        out.to_str().unwrap(),
        "--target",
        "gfx1030",
        "-Itests/kernels/include",
        "-O2",
        "-ffp-contract=fast",
        "-cl-std=CL2.0",
        "-S",
        "--emit-ir",
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout.contains("global_store_dword"), "{stdout}");
    // -ffp-contract=fast: `a * x[i] + y[i]` is one fma (IR) / v_fma (code).
    assert!(stdout.contains(" fma "), "{stdout}");
    assert!(!stdout.contains("fmul"), "{stdout}");
    let o = gpusim(&[
        "compile",
        "tests/kernels/saxpy.cl",
        "-Itests/kernels/include",
        "-ffp-contract=off",
        "--emit-ir",
    ]);
    let ir = String::from_utf8_lossy(&o.stdout);
    assert!(
        ir.contains("fmul") && ir.contains("fadd") && !ir.contains(" fma "),
        "{ir}"
    );
    let elf = std::fs::read(&out).unwrap();
    let co = arch::code_object::CodeObject::parse(&elf).unwrap();
    assert_eq!(co.kernels()[0].name, "saxpy");
    let o = gpusim(&[
        "compile",
        "tests/kernels/saxpy.cl",
        "-Itests/kernels/include",
        "-mwavefrontsize64",
        "-S",
    ]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("s_and_saveexec_b64"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn gpusim_compile_reports_bad_source_with_a_caret_and_exit_2() {
    let dir = std::env::temp_dir().join(format!("gpusim-compile-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("bad.cl");
    std::fs::write(&src, "__kernel void k(__global int *p) {\n  p[0] = q;\n}\n").unwrap();
    let o = gpusim(&["compile", src.to_str().unwrap(), "-o", "/dev/null"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    let first = err.lines().next().unwrap();
    assert!(
        first.starts_with(&format!("{}:2:10: error: ", src.display())),
        "{err}"
    );
    assert_eq!(err.lines().nth(1), Some("  p[0] = q;"), "{err}");
    assert_eq!(err.lines().nth(2), Some("         ^"), "{err}");
    let o = gpusim(&["compile", src.to_str().unwrap(), "-bogus"]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}
