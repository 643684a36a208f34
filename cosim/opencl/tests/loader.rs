//! Unchanged C host programs (`tests/loader/*.c`) built with clang-19
//! against the ICD loader (`libOpenCL.so.1`, Debian `ocl-icd-libopencl1`)
//! run on this platform through `OCL_ICD_VENDORS`.
//! Skipped, saying so, when clang-19, the headers or the loader are missing.

mod common;

use std::path::Path;
use std::process::Command;

use common::{library, run_c};

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
        common::skip(
            "python3 with pyopencl and numpy is not installed (pip install pyopencl numpy)",
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
