//! Device-side enqueue throughput of the golden model (seed 001, GPU-created
//! work): how many channel entries kernel threads create — one atomic add on
//! soft GP_PUT, command blocks, entries, a semaphore release each — and the
//! front end then processes, per second of simulation.
//!
//! ```text
//! cargo bench -p cosim --bench work_enqueue -- [--runs N] [WORKLOAD.yaml ...]
//! ```
//!
//! Default workloads: `workloads/work/bench/wq_producer_32k.yaml` (32 000
//! threads, 64 000 entries, 32 000 child dispatches) and
//! `workloads/work/gfx1030/wq_producer.yaml` (256 threads). Each runs once to
//! warm up, then `--runs` times (default 10) on a fresh driver and GPU; the
//! time counted is the time inside `Device::run` (the parent's threads
//! creating the work, the front end processing every entry, the children
//! running), not the driver's set-up. Printed: median and best run, entries
//! reserved per second and child dispatches per second (median run).

use std::path::PathBuf;
use std::time::Duration;

use arch::code_object::CodeObject;
use cosim::workload::{self, Prepared, Workload};
use golden::{GoldenConfig, GoldenGpu};
use sw::driver::Driver;

use cosim::timed::Timed;

/// One run: (time in `Device::run`, entries reserved, child dispatches).
fn run_once(prepared: &Prepared) -> (Duration, u64, u64) {
    let isa = CodeObject::parse(&prepared.code_object)
        .expect("code object")
        .isa()
        .expect("modelled processor");
    let gpu = Timed {
        inner: GoldenGpu::new(GoldenConfig::new(isa)).expect("config"),
        in_run: Duration::ZERO,
    };
    let mut driver = Driver::new(gpu).expect("driver");
    let (_, reports) = workload::execute_reporting(&mut driver, prepared).expect("workload runs");
    let report = reports.first().expect("a work-creating launch");
    assert!(!report.has_errors(), "{}", report.problems());
    let stats = driver.device().inner.stats();
    let children = stats
        .channels
        .iter()
        .filter(|c| c.channel != 0)
        .map(|c| c.dispatches)
        .sum();
    // The reservations plus the terminal block's one entry.
    let entries = u64::from(report.entries_reserved) + 1;
    (driver.device().in_run, entries, children)
}

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
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../workloads/work");
        files.push(root.join("bench/wq_producer_32k.yaml"));
        files.push(root.join("gfx1030/wq_producer.yaml"));
    }
    for file in &files {
        let prepared = Workload::load(file)
            .and_then(|w| w.prepare())
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        run_once(&prepared);
        let mut times = Vec::with_capacity(runs);
        let (mut entries, mut children) = (0, 0);
        for _ in 0..runs.max(1) {
            let (t, e, c) = run_once(&prepared);
            times.push(t);
            (entries, children) = (e, c);
        }
        times.sort_unstable();
        let median = times[times.len() / 2].as_secs_f64();
        let best = times[0].as_secs_f64();
        println!(
            "{:<48} {entries} entries, {children} child dispatches: {:.2} ms median ({:.2} best) in Device::run; \
             {:.3} M entries/s, {:.3} M child dispatches/s",
            file.display(),
            median * 1e3,
            best * 1e3,
            entries as f64 / median / 1e6,
            children as f64 / median / 1e6,
        );
    }
}
