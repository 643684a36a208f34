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

fn run_traced(workload: &str, threads: &str, vcd: &Path) -> (Vec<u8>, String) {
    let o = gpusim(&[
        "run",
        workload,
        "--model",
        "cycle",
        "--threads",
        threads,
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
        let (vcd1, out1) = run_traced(w, "1", &dir.join("t1.vcd"));
        assert!(vcd1.len() > 10_000, "{w}: a real waveform");
        // `auto`: the default, adaptive (docs/cycle-model.md, "Adaptive threads").
        for threads in ["2", "4", "auto", "auto:2"] {
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
fn bad_thread_counts_are_errors_naming_the_forms() {
    for bad in ["auto:0", "two", "auto:x"] {
        let o = gpusim(&[
            "run",
            "workloads/corpus/gfx1030/saxpy.yaml",
            "--model",
            "cycle",
            "--threads",
            bad,
        ]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("--threads"), "{bad}: {err}");
    }
}

/// A Slurm array task asks for --cpus-per-task cores and its jobs use them
/// adaptively; `--threads` overrides.
#[test]
fn slurm_tasks_get_their_cores_as_threads() {
    let dir = scratch("slurm");
    let sweep = dir.join("s.yaml");
    let w = root().join("workloads/corpus/gfx1030/saxpy.yaml");
    std::fs::write(
        &sweep,
        format!("name: s\nworkloads:\n  - {}\n", w.display()),
    )
    .unwrap();
    let script = |extra: &[&str]| {
        let out = dir.join("out");
        let mut args = vec![
            "sweep",
            sweep.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--slurm",
            "--no-submit",
        ];
        args.extend_from_slice(extra);
        let o = gpusim(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read_to_string(out.join("slurm/sweep.sbatch")).unwrap()
    };
    let s = script(&[]);
    assert!(s.contains("#SBATCH --cpus-per-task=1\n"), "{s}");
    assert!(s.contains("--threads auto:1"), "{s}");
    let s = script(&["--cpus-per-task", "4"]);
    assert!(s.contains("#SBATCH --cpus-per-task=4\n"), "{s}");
    assert!(s.contains("--threads auto:4"), "{s}");
    let s = script(&["--cpus-per-task", "4", "--threads", "2"]);
    assert!(s.contains("--threads 2 "), "{s}");
    let _ = std::fs::remove_dir_all(&dir);
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
