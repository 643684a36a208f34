//! Profiling harness for the golden functional model (no criterion: plain
//! repeated runs, so it can run under callgrind).
//!
//! ```text
//! cargo bench -p cosim --bench functional -- [--runs N] [WORKLOAD.yaml ...]
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*measured*' \
//!     target/release/deps/functional-<hash> --runs 3 workloads/corpus/gfx803/saxpy.yaml
//! ```
//!
//! Every workload runs once to warm up (decoder tables, allocator), then
//! `--runs` times inside `measured`, which is the function to profile; the
//! per-run wall time and active-lane rate are printed. Without paths it runs
//! the whole corpus of all three targets.

use std::path::PathBuf;
use std::time::Instant;

use arch::code_object::CodeObject;
use cosim::workload::{self, Prepared, Workload};
use golden::{GoldenConfig, GoldenGpu};
use sw::driver::Driver;

fn main() {
    let mut runs = 10usize;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--runs" => runs = args.next().and_then(|n| n.parse().ok()).unwrap_or(runs),
            "--bench" => {}
            _ => files.push(PathBuf::from(a)),
        }
    }
    if files.is_empty() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../workloads/corpus");
        for target in ["gfx803", "gfx1030", "gfx1030-w64"] {
            let mut v: Vec<PathBuf> = std::fs::read_dir(root.join(target))
                .expect("corpus directory")
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
                .collect();
            v.sort();
            files.extend(v);
        }
    }
    let mut log_sum = 0.0;
    for file in &files {
        let prepared = Workload::load(file)
            .and_then(|w| w.prepare())
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        run_once(&prepared);
        let start = Instant::now();
        let lanes = measured(&prepared, runs);
        let per_run = start.elapsed().as_secs_f64() / runs as f64;
        let rate = lanes as f64 / per_run;
        log_sum += rate.ln();
        println!(
            "{:<48} {:>10.3} ms/run {:>10.1} M lane-insts/s (end-to-end)",
            file.display(),
            per_run * 1e3,
            rate / 1e6
        );
    }
    if !files.is_empty() {
        println!(
            "geometric mean: {:.1} M/s",
            (log_sum / files.len() as f64).exp() / 1e6
        );
    }
}

/// The runs to profile; returns the active-lane instructions of one run.
#[inline(never)]
fn measured(prepared: &Prepared, runs: usize) -> u64 {
    let mut lanes = 0;
    for _ in 0..runs {
        lanes = run_once(prepared);
    }
    lanes
}

fn run_once(prepared: &Prepared) -> u64 {
    let isa = CodeObject::parse(&prepared.code_object)
        .expect("code object")
        .isa()
        .expect("modelled processor");
    let gpu = GoldenGpu::new(GoldenConfig::new(isa)).expect("config");
    let mut driver = Driver::new(gpu).expect("driver");
    workload::execute(&mut driver, prepared).expect("workload runs");
    driver.device().stats().active_lane_instructions
}
