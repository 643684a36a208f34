//! What the compiler evaluation tests share (`compiler_disasm.rs`,
//! `compiler_errors.rs`, `compiler_quality.rs`, `compiler_props.rs`,
//! `compiler_lockstep.rs`): the corpus kernels gpusim's compiler compiles,
//! running their workloads with a chosen object, and the LLVM tools.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use arch::device::Device;
use cosim::workload::{check, execute, Workload};
use sw::driver::Driver;

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Whether an LLVM tool (`llvm-objdump-19`, `clang-19`, …) runs here.
pub fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A fresh scratch directory for this test process (`tag` keeps tests apart).
pub fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpusim-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every corpus kernel name (`tests/kernels/*.cl`), sorted.
pub fn corpus_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("tests/kernels"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The compiler options `gpusim compile -I tests/kernels/include [--wave64]` uses.
pub fn options(wave64: bool) -> compiler::CompileOptions {
    let mut o = compiler::CompileOptions::default().include(root().join("tests/kernels/include"));
    o.backend.wave64 = wave64;
    o
}

/// Compiles corpus kernel `name` with gpusim's compiler, or its diagnostic.
pub fn compile_corpus(name: &str, wave64: bool) -> Result<compiler::Compiled, String> {
    let path = root().join(format!("tests/kernels/{name}.cl"));
    compiler::compile(compiler::Source::Path(&path), &options(wave64)).map_err(|d| d.to_string())
}

/// The corpus kernels gpusim compiles for this wave size, with their compiled
/// output; the others are printed with the reason (another helper lowers the
/// rest, so the set grows; each test asserts a floor).
pub fn compiling_corpus(wave64: bool) -> Vec<(String, compiler::Compiled)> {
    let mut out = Vec::new();
    for name in corpus_names() {
        match compile_corpus(&name, wave64) {
            Ok(c) => out.push((name, c)),
            Err(e) => {
                let first = e.lines().next().unwrap_or("");
                println!("not compiled: {name} wave64={wave64}: {first}");
            }
        }
    }
    out
}

/// The corpus workload of kernel `name` for wave32 (`gfx1030`) or wave64 (`gfx1030-w64`).
pub fn workload(name: &str, wave64: bool) -> Result<Workload, String> {
    let dir = if wave64 { "gfx1030-w64" } else { "gfx1030" };
    let path = root().join(format!("workloads/corpus/{dir}/{name}.yaml"));
    let path = if path.exists() {
        path
    } else {
        root().join(format!("workloads/corpus/gfx1030/{name}.yaml"))
    };
    Workload::load(&path).map_err(|e| e.to_string())
}

/// Runs workload `w` on `device` with `object` in place of its prebuilt code
/// object (`None`: the clang object it names), checks every buffer against
/// the workload's reference and returns the device for its statistics.
pub fn run_with<D: Device>(device: D, w: &Workload, object: Option<Vec<u8>>) -> Result<D, String> {
    let mut p = w.prepare().map_err(|e| e.to_string())?;
    if let Some(o) = object {
        p.code_object = o;
    }
    let mut d = Driver::new(device).map_err(|e| e.to_string())?;
    let finals = execute(&mut d, &p).map_err(|e| e.to_string())?;
    let report = check(w, &p, &finals).map_err(|e| e.to_string())?;
    if report.outcomes.is_empty() {
        return Err("the workload checks nothing".into());
    }
    match report.first_mismatch() {
        None if report.passed() => Ok(d.into_device()),
        m => Err(format!("{m:?}")),
    }
}
