//! Unchanged C host programs (`tests/loader/*.c`) built with clang-19
//! against the ICD loader (`libOpenCL.so.1`, Debian `ocl-icd-libopencl1`)
//! run on this platform through `OCL_ICD_VENDORS`.
//! Skipped, saying so, when clang-19, the headers or the loader are missing.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `libgpusim_opencl.so` of this build (next to the test, or one level up).
fn library() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's path");
    let deps = exe.parent().expect("target/<profile>/deps");
    let name = format!(
        "{}gpusim_opencl{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    [
        deps.join(&name),
        deps.parent().expect("target/<profile>").join(&name),
    ]
    .into_iter()
    .find(|p| p.exists())
    .unwrap_or_else(|| panic!("{name} is not next to {}", exe.display()))
}

/// The loader to link against, if installed.
fn loader() -> Option<PathBuf> {
    [
        "/lib/x86_64-linux-gnu/libOpenCL.so.1",
        "/usr/lib/x86_64-linux-gnu/libOpenCL.so.1",
        "/usr/lib/libOpenCL.so.1",
    ]
    .iter()
    .map(PathBuf::from)
    .find(|p| p.exists())
}

/// Builds `tests/loader/NAME.c` against the loader and runs it with `args`
/// on this platform; its standard output, or `None` (said) when the tools
/// are missing.
fn run_c(name: &str, args: &[&Path], vars: &[(&str, &str)]) -> Option<String> {
    let (Some(loader), true) = (loader(), Path::new("/usr/include/CL/cl.h").exists()) else {
        eprintln!("skipped: the ICD loader or the OpenCL headers are not installed (apt-get install ocl-icd-libopencl1 opencl-headers)");
        return None;
    };
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/loader/{name}.c"));
    let exe = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("gpusim_opencl_{name}"));
    let built = match Command::new("clang-19")
        .arg("-O1")
        .arg(&source)
        .arg("-o")
        .arg(&exe)
        .arg(&loader)
        .output()
    {
        Ok(o) => o,
        Err(e) => {
            eprintln!("skipped: clang-19 does not run ({e})");
            return None;
        }
    };
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let run = Command::new(&exe)
        .args(args)
        .env("OCL_ICD_VENDORS", library())
        .env_remove("GPUSIM_MODEL")
        .env_remove("GPUSIM_CONFIG")
        .env_remove("GPUSIM_PRESET")
        .envs(vars.iter().copied())
        .output()
        .expect("the program runs");
    let out = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(
        run.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    Some(out)
}

#[test]
fn a_c_program_moves_a_buffer_through_the_loader() {
    if let Some(out) = run_c("round_trip", &[], &[]) {
        assert!(out.contains("round trip ok"), "{out}");
    }
}

/// The corpus's saxpy (prebuilt by clang-19 for gfx1030) dispatched by an
/// unchanged host program on the simulated GPU: on the functional model
/// (the default), and in lockstep (the clocked GPU checked instruction by
/// instruction against the golden one).
#[test]
fn a_c_program_runs_saxpy_on_the_simulated_gpu() {
    let code = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/kernels/prebuilt/gfx1030/saxpy.hsaco");
    for vars in [&[][..], &[("GPUSIM_MODEL", "lockstep")][..]] {
        if let Some(out) = run_c("saxpy", &[&code], vars) {
            assert!(out.contains("saxpy ok"), "{vars:?}: {out}");
        }
    }
}

/// The outputs the environment asks for: the statistics after the dispatch
/// (cycles counted by the clocked GPU) and a waveform closed when the
/// program releases its context.
#[test]
fn the_environment_chooses_the_outputs() {
    let code = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/kernels/prebuilt/gfx1030/saxpy.hsaco");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let (stats, vcd) = (dir.join("opencl_stats.json"), dir.join("opencl.vcd"));
    let _ = std::fs::remove_file(&stats);
    let _ = std::fs::remove_file(&vcd);
    let vars = [
        ("GPUSIM_MODEL", "cycle"),
        ("GPUSIM_STATS", stats.to_str().expect("a UTF-8 path")),
        ("GPUSIM_VCD", vcd.to_str().expect("a UTF-8 path")),
    ];
    let Some(out) = run_c("saxpy", &[&code], &vars) else {
        return;
    };
    assert!(out.contains("saxpy ok"), "{out}");
    let text = std::fs::read_to_string(&stats).expect("the statistics were written");
    let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let cycles = json["cycles"].as_u64().expect("a cycle count");
    assert!(cycles > 0, "{text}");
    assert_eq!(
        json["dispatches"].as_array().map(Vec::len),
        Some(1),
        "{text}"
    );
    let wave = std::fs::read_to_string(&vcd).expect("the waveform was written");
    assert!(
        wave.contains("$enddefinitions"),
        "{}",
        &wave[..wave.len().min(400)]
    );
    assert!(
        wave.contains(&format!("#{}", cycles - 1)) || wave.contains(&format!("#{cycles}")),
        "the waveform covers the run"
    );
}

/// An unchanged PyOpenCL program (`tests/loader/saxpy.py`) builds a kernel
/// from source and runs it. Skipped, saying so, without PyOpenCL.
#[test]
fn a_pyopencl_program_runs_on_the_simulated_gpu() {
    let has = Command::new("python3")
        .args(["-c", "import pyopencl, numpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has {
        eprintln!(
            "skipped: python3 with pyopencl and numpy is not installed (pip install pyopencl)"
        );
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/loader/saxpy.py");
    let run = Command::new("python3")
        .arg(&script)
        .env("OCL_ICD_VENDORS", library())
        // No program cache in the user's home from a test.
        .env("PYOPENCL_NO_CACHE", "1")
        .env_remove("PYOPENCL_CTX")
        .env_remove("GPUSIM_MODEL")
        .env_remove("GPUSIM_CONFIG")
        .env_remove("GPUSIM_PRESET")
        .output()
        .expect("python3 runs");
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success() && out.contains("pyopencl saxpy ok on gfx1030 gpusim"),
        "{out}{}",
        String::from_utf8_lossy(&run.stderr)
    );
}
