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

/// Event skipping (docs/cycle-model.md, "Event skipping") gives the results
/// of ticking every edge: every gfx1030 corpus and work-creation workload
/// on the default configuration, skipping on and off: same cycles,
/// statistics, final memory. (These workloads wait on semaphores only while
/// waves run, so they skip little or nothing; `hw/tests/threads_skip.rs`
/// has the waits that are skipped.)
#[test]
fn event_skipping_gives_the_results_of_ticking_every_edge() {
    use arch::code_object::CodeObject;
    use cosim::model::{Model, ModelDevice, ModelOptions};
    use cosim::workload::{self, Workload};
    use sw::driver::Driver;

    /// Cycles, statistics, final buffers, edges skipped.
    type Ran = (u64, String, Vec<Vec<u8>>, u64);
    let run = |path: &Path, skip: bool| -> Result<Ran, String> {
        let w = Workload::load(path).map_err(|e| e.to_string())?;
        let p = w.prepare().map_err(|e| e.to_string())?;
        let isa = CodeObject::parse(&p.code_object)
            .map_err(|e| e.to_string())?
            .isa()
            .ok_or("unmodelled processor")?;
        let mut device = ModelDevice::new(&ModelOptions {
            model: Model::Cycle,
            isa,
            config: hw::GpuConfig::default_config(),
            watchdog: None,
        })?;
        device.set_event_skipping(skip);
        let mut driver = Driver::new(device).map_err(|e| e.to_string())?;
        let finals = workload::execute(&mut driver, &p).map_err(|e| e.to_string())?;
        let gpu = driver.device().clocked().ok_or("no clocked GPU")?;
        Ok((
            arch::device::Device::now(gpu),
            format!("{:?}", gpu.stats()),
            finals.into_iter().map(|b| b.bytes).collect(),
            gpu.skipped_cycles(),
        ))
    };
    let mut files = Vec::new();
    for dir in ["workloads/corpus/gfx1030", "workloads/work/gfx1030"] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "yaml") {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut differences = Vec::new();
    for f in &files {
        let on = run(f, true);
        let off = run(f, false);
        match (on, off) {
            (Ok(a), Ok(b)) => {
                assert_eq!(b.3, 0, "{}: skipped with skipping off", f.display());
                if (a.0, &a.1, &a.2) != (b.0, &b.1, &b.2) {
                    differences.push(format!("{}: cycles {} vs {}", f.display(), a.0, b.0));
                }
            }
            (a, b) => differences.push(format!("{}: {:?} vs {:?}", f.display(), a.err(), b.err())),
        }
    }
    assert!(differences.is_empty(), "{differences:#?}");
    assert!(files.len() > 20, "the corpus was found");
}
