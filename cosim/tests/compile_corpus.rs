//! gpusim's own compiler end to end: every corpus kernel compiled from
//! `tests/kernels/*.cl` for wave32 and wave64, run with its corpus workload
//! (`workloads/corpus/gfx1030/NAME.yaml`) in place of the clang-built object
//! on the golden GPU (`--model functional`) and in lockstep with the clocked
//! GPU (`--model lockstep`), and checked against the same reference.
//! Also `gpusim compile`'s command line.

use std::path::{Path, PathBuf};
use std::process::Command;

use cosim::model::{Model, ModelDevice, ModelOptions};
use cosim::workload::{check, execute, Workload};
use sw::driver::Driver;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `.cl` in `tests/kernels` (the corpus), sorted.
fn corpus() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("tests/kernels"))
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension()? == "cl").then(|| p.file_stem().unwrap().to_str().unwrap().to_string())
        })
        .collect();
    names.sort();
    assert!(names.len() >= 35, "corpus not found: {names:?}");
    names
}

fn compile_text(name: &str, text: &str, wave64: bool) -> Result<Vec<u8>, String> {
    let src = root().join(format!("tests/kernels/{name}.cl"));
    let src = src.to_str().unwrap();
    let mut o = compiler::CompileOptions::default().include(root().join("tests/kernels/include"));
    o.backend.wave64 = wave64;
    compiler::compile(compiler::Source::Text { name: src, text }, &o)
        .map(|c| c.code_object)
        .map_err(|d| d.to_string())
}

fn compiled_text(name: &str, text: &str, wave64: bool) -> Vec<u8> {
    compile_text(name, text, wave64).unwrap_or_else(|d| panic!("{name}:\n{d}"))
}

fn run_object(name: &str, object: Vec<u8>) -> Result<(), String> {
    run_object_on(Model::Functional, name, object)
}

/// Runs the corpus workload `name` with `object` as its code object on
/// `model` and applies the workload's check.
fn run_object_on(model: Model, name: &str, object: Vec<u8>) -> Result<(), String> {
    let w = Workload::load(&root().join(format!("workloads/corpus/gfx1030/{name}.yaml")))
        .map_err(|e| e.to_string())?;
    let mut p = w.prepare().map_err(|e| e.to_string())?;
    p.code_object = object;
    let device = ModelDevice::new(&ModelOptions {
        model,
        isa: arch::isa::Isa::Gfx1030,
        config: hw::GpuConfig::default_config(),
        watchdog: Some(200_000_000),
        wave_watchdog: None,
    })?;
    let mut d = Driver::new(device).map_err(|e| e.to_string())?;
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

/// Every supported corpus kernel, wave32 and wave64, on `model`.
fn all_pass_on(model: Model) {
    let mut failures = Vec::new();
    for name in corpus() {
        for wave64 in [false, true] {
            let r = compile_text(
                &name,
                &std::fs::read_to_string(root().join(format!("tests/kernels/{name}.cl"))).unwrap(),
                wave64,
            )
            .and_then(|o| run_object_on(model, &name, o));
            match r {
                Ok(()) => println!("PASS {name} wave64={wave64} {model:?}"),
                Err(e) => failures.push(format!("{name} wave64={wave64} {model:?}: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn compiled_corpus_kernels_pass_their_references_on_the_golden_gpu() {
    all_pass_on(Model::Functional);
}

/// The same objects in lockstep: the clocked GPU runs them and the golden
/// model checks every retired instruction, then the reference checks the
/// memory.
#[test]
fn compiled_corpus_kernels_pass_their_references_in_lockstep() {
    all_pass_on(Model::Lockstep);
}

/// The work-creating kernels (`tests/kernels/work/*.cl` through
/// `sw/devlib/gpusim_work.h`) gpusim's compiler compiles and runs; the
/// others are listed in docs/compiler.md ("Lowering: status").
const WORK_PASSING: &[&str] = &["wq_producer", "wq_partition_sort", "wq_bfs", "wq_subdivide"];

/// The work workload `name` (`workloads/work/gfx1030[-w64]/NAME.yaml`) with
/// the parent and its children compiled by gpusim into one code object.
fn run_work_on(model: Model, name: &str, wave64: bool) -> Result<(), String> {
    let src = root().join(format!("tests/kernels/work/{name}.cl"));
    let text = std::fs::read_to_string(&src).unwrap();
    let mut o = compiler::CompileOptions::default()
        .include(root().join("tests/kernels/include"))
        .include(root().join("sw/devlib"));
    o.backend.wave64 = wave64;
    let object = compiler::compile(
        compiler::Source::Text {
            name: src.to_str().unwrap(),
            text: &text,
        },
        &o,
    )
    .map_err(|d| d.to_string())?
    .code_object;
    let dir = if wave64 { "gfx1030-w64" } else { "gfx1030" };
    let w = Workload::load(&root().join(format!("workloads/work/{dir}/{name}.yaml")))
        .map_err(|e| e.to_string())?;
    let mut p = w.prepare().map_err(|e| e.to_string())?;
    p.code_object = object;
    let device = ModelDevice::new(&ModelOptions {
        model,
        isa: arch::isa::Isa::Gfx1030,
        config: hw::GpuConfig::one_cu(),
        watchdog: Some(200_000_000),
        wave_watchdog: None,
    })?;
    let mut d = Driver::new(device).map_err(|e| e.to_string())?;
    let (finals, reports) =
        cosim::workload::execute_reporting(&mut d, &p).map_err(|e| e.to_string())?;
    assert!(!reports.is_empty(), "{name}: no work-creating launch");
    let report = check(&w, &p, &finals).map_err(|e| e.to_string())?;
    match report.first_mismatch() {
        None if report.passed() => Ok(()),
        m => Err(format!("{m:?}")),
    }
}

/// The work-creating kernels compiled by gpusim pass their references on
/// the golden GPU and in lockstep, wave32 and wave64.
#[test]
fn compiled_work_creating_kernels_pass_their_references() {
    let mut failures = Vec::new();
    for name in WORK_PASSING {
        for wave64 in [false, true] {
            for model in [Model::Functional, Model::Lockstep] {
                match run_work_on(model, name, wave64) {
                    Ok(()) => println!("PASS {name} wave64={wave64} {model:?}"),
                    Err(e) => failures.push(format!("{name} wave64={wave64} {model:?}: {e}")),
                }
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
        "--emit-ir",
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // `-S` without `-o` prints the assembly (with `-o` it goes to the file).
    let asm = gpusim(&[
        "compile",
        "tests/kernels/saxpy.cl",
        "-Itests/kernels/include",
        "-ffp-contract=fast",
        "-S",
    ]);
    let asm = String::from_utf8_lossy(&asm.stdout);
    assert!(asm.contains("global_store_dword"), "{asm}");
    assert!(asm.contains("v_fma"), "{asm}");
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
