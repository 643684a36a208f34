//! `gpusim run --threads N`: the waveform (VCD bytes), the statistics and
//! lockstep do not depend on the thread count (docs/cycle-model.md,
//! "Worker threads"). `--parallel-min-busy 1` puts every clock edge with
//! work on the worker threads, also on the 4-CU default configuration.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn gpusim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpusim"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("gpusim runs")
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gpusim-threads-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The traced subset: LDS and barriers, atomics, and a wave64 kernel.
const TRACED: [&str; 3] = [
    "workloads/corpus/gfx1030/scan_wg.yaml",
    "workloads/corpus/gfx1030/atomics_misc.yaml",
    "workloads/corpus/gfx1030-w64/saxpy.yaml",
];

fn run_traced(workload: &str, threads: usize, vcd: &Path) -> (Vec<u8>, String) {
    let threads = threads.to_string();
    let o = gpusim(&[
        "run",
        workload,
        "--model",
        "cycle",
        "--threads",
        &threads,
        "--parallel-min-busy",
        "1",
        "--stats",
        "json",
        "--vcd",
        vcd.to_str().unwrap(),
    ]);
    assert!(
        o.status.success(),
        "{workload} --threads {threads}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    (
        std::fs::read(vcd).unwrap(),
        String::from_utf8_lossy(&o.stdout).to_string(),
    )
}

#[test]
fn vcd_bytes_and_stats_are_identical_for_1_2_and_4_threads() {
    let dir = scratch("vcd");
    for w in TRACED {
        let (vcd1, out1) = run_traced(w, 1, &dir.join("t1.vcd"));
        assert!(vcd1.len() > 10_000, "{w}: a real waveform");
        for threads in [2, 4] {
            let (vcd, out) = run_traced(w, threads, &dir.join(format!("t{threads}.vcd")));
            assert!(vcd == vcd1, "{w}: VCD differs with {threads} threads");
            assert_eq!(out, out1, "{w}: output differs with {threads} threads");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lockstep_passes_with_threads() {
    for w in [
        "workloads/corpus/gfx1030/atomics_misc.yaml",
        "workloads/corpus/gfx1030/histogram.yaml",
        "workloads/corpus/gfx1030-w64/matmul_tiled.yaml",
    ] {
        let o = gpusim(&[
            "run",
            w,
            "--model",
            "lockstep",
            "--threads",
            "2",
            "--parallel-min-busy",
            "1",
        ]);
        assert!(
            o.status.success(),
            "{w}: {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn zero_threads_is_an_error() {
    let o = gpusim(&[
        "run",
        "workloads/corpus/gfx1030/saxpy.yaml",
        "--model",
        "cycle",
        "--threads",
        "0",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--threads"));
}

// Event skipping vs ticking on the whole corpus: `event_skipping.rs`.

/// The scaling benchmark's workload (docs/performance.md, "Worker
/// threads") computes the right product: checked on the functional model,
/// which runs it in a second (the clocked runs are the benchmark's).
#[test]
fn the_scaling_workload_passes_its_check() {
    let o = gpusim(&["run", "workloads/examples/matmul_256.yaml"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("PASS reference: corpus"), "{out}");
}
