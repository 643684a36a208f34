//! Event skipping gives the results of ticking every edge
//! (docs/cycle-model.md, "Event skipping"): every corpus workload (gfx1030
//! wave32 and wave64, gfx803 through the translator, GPU-created work) on
//! the default and `navi21` presets, skipping on and off, and skipping on
//! with two worker threads: same cycles, full statistics and final memory.
//! Memory-bound and barrier-heavy kernels must actually skip (waves
//! resident and all waiting), or the comparison would prove nothing.

use std::path::{Path, PathBuf};

use cosim::model::{Model, ModelDevice, ModelOptions};
use cosim::workload::{self, Workload};
use sw::driver::Driver;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// What must not depend on skipping: cycles, statistics (`Debug` form, in
/// full), final buffers. Then the edges jumped over.
#[derive(Debug)]
struct Ran {
    cycles: u64,
    stats: String,
    buffers: Vec<Vec<u8>>,
    skipped: u64,
}

fn run(path: &Path, config: &hw::GpuConfig, skip: bool, threads: usize) -> Result<Ran, String> {
    let w = Workload::load(path).map_err(|e| e.to_string())?;
    let p = w.prepare().map_err(|e| e.to_string())?;
    // gfx803 code runs on the gfx1030 GPU through the translator.
    let mut device = ModelDevice::new(&ModelOptions {
        model: Model::Cycle,
        isa: arch::isa::Isa::Gfx1030,
        config: config.clone(),
        watchdog: None,
        wave_watchdog: None,
    })?;
    device.set_event_skipping(skip);
    device.set_threads(threads);
    if threads > 1 {
        device.set_parallel_min_busy_cus(1);
    }
    let mut driver = Driver::new(device).map_err(|e| e.to_string())?;
    let finals = workload::execute(&mut driver, &p).map_err(|e| e.to_string())?;
    let gpu = driver.device().clocked().ok_or("no clocked GPU")?;
    Ok(Ran {
        cycles: arch::device::Device::now(gpu),
        stats: format!("{:?}", gpu.stats()),
        buffers: finals.into_iter().map(|b| b.bytes).collect(),
        skipped: gpu.skipped_cycles(),
    })
}

fn workloads() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in [
        "workloads/corpus/gfx1030",
        "workloads/corpus/gfx1030-w64",
        "workloads/corpus/gfx803",
        "workloads/work/gfx1030",
    ] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "yaml") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// Every workload on `config`: skipping off (one thread), then on with
/// each of `threads` (more than one: the workers forced on every edge);
/// returns the edges skipped per workload.
fn compare(name: &str, config: &hw::GpuConfig, threads: &[usize]) -> Vec<(String, u64, u64)> {
    let files = workloads();
    assert!(files.len() > 100, "the corpus was found");
    let mut differences = Vec::new();
    let mut skipped = Vec::new();
    for f in &files {
        let short = f.strip_prefix(root()).unwrap_or(f).display().to_string();
        let ticked = run(f, config, false, 1);
        let Ok(ticked) = ticked else {
            differences.push(format!("{name} {short}: {:?}", ticked.err()));
            continue;
        };
        assert_eq!(ticked.skipped, 0, "{short}: skipped with skipping off");
        for &threads in threads {
            match run(f, config, true, threads) {
                Ok(s) => {
                    let what = if s.cycles != ticked.cycles {
                        format!("cycles {} vs {}", s.cycles, ticked.cycles)
                    } else if s.stats != ticked.stats {
                        let at = (s.stats.bytes().zip(ticked.stats.bytes()))
                            .position(|(a, b)| a != b)
                            .unwrap_or(0);
                        let from = at.saturating_sub(120);
                        format!(
                            "statistics: {} vs {}",
                            &s.stats[from..(at + 40).min(s.stats.len())],
                            &ticked.stats[from..(at + 40).min(ticked.stats.len())]
                        )
                    } else if s.buffers != ticked.buffers {
                        "final memory".to_string()
                    } else {
                        if threads == 1 {
                            skipped.push((short.clone(), s.skipped, s.cycles));
                        }
                        continue;
                    };
                    differences.push(format!("{name} {short} threads {threads}: {what}"));
                }
                Err(e) => differences.push(format!("{name} {short} threads {threads}: {e}")),
            }
        }
    }
    assert!(differences.is_empty(), "{differences:#?}");
    skipped
}

/// The memory-bound and barrier kernels of the corpus skip a real share of
/// their edges (not only semaphore countdowns).
fn assert_waiting_skips(skipped: &[(String, u64, u64)]) {
    let total: u64 = skipped.iter().map(|s| s.1).sum();
    let cycles: u64 = skipped.iter().map(|s| s.2).sum();
    println!("{total} of {cycles} edges skipped");
    for (w, s, c) in skipped {
        println!("  {w}: {s} of {c}");
    }
    let some = skipped.iter().filter(|s| s.1 > 0).count();
    assert!(
        some * 2 > skipped.len(),
        "most workloads skip: {some} of {}",
        skipped.len()
    );
    assert!(total * 20 > cycles, "at least 5% of all edges skipped");
}

#[test]
fn skipping_gives_the_results_of_ticking_on_default() {
    let s = compare("default", &hw::GpuConfig::default_config(), &[1, 2]);
    assert_waiting_skips(&s);
}

/// The 80-CU preset, whose edges skip the most (idle CUs, GL1s, the
/// Infinity Cache): about two minutes in a release build.
#[test]
fn skipping_gives_the_results_of_ticking_on_navi21() {
    let s = compare("navi21", &hw::GpuConfig::navi21(), &[1, 2]);
    assert_waiting_skips(&s);
}
