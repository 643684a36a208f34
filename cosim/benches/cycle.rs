//! Criterion benchmark of the clocked GPU (`hw::ClockedGpu`) on a few
//! representative gfx1030 corpus workloads, on the one-CU and the default
//! (4-CU) configuration.
//!
//! ```text
//! cargo bench -p cosim --bench cycle                 # all
//! cargo bench -p cosim --bench cycle -- 1cu/saxpy    # a filter
//! ```
//!
//! Each iteration is one whole run on a freshly built device, timed like
//! `gpusim bench --model cycle`: `Driver::new` plus `workload::execute` (the
//! driver's work and every simulated cycle); building the device and loading
//! and preparing the workload are outside the timed part. The throughput is
//! given in simulated cycles, so criterion reports cycles per second
//! ("elem/s").

use std::path::PathBuf;

use arch::code_object::CodeObject;
use cosim::model::{Model, ModelDevice, ModelOptions};
use cosim::workload::{self, Prepared, Workload};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use hw::GpuConfig;
use sw::driver::Driver;

/// The workloads: a tiny streaming kernel, ALU-heavy, divergent control
/// flow, LDS with barriers, and a wave64 one.
const WORKLOADS: [&str; 5] = [
    "gfx1030/saxpy",
    "gfx1030/nbody",
    "gfx1030/divergent_loops",
    "gfx1030/matmul_tiled",
    "gfx1030-w64/reduce_sum",
];

fn prepared(name: &str) -> Prepared {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../workloads/corpus")
        .join(format!("{name}.yaml"));
    Workload::load(&path)
        .and_then(|w| w.prepare())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn device(prepared: &Prepared, config: &GpuConfig) -> ModelDevice {
    let isa = CodeObject::parse(&prepared.code_object)
        .ok()
        .and_then(|c| c.isa())
        .expect("a gfx1030 code object");
    ModelDevice::new(&ModelOptions {
        model: Model::Cycle,
        isa,
        config: config.clone(),
        watchdog: None,
        wave_watchdog: None,
    })
    .expect("the clocked GPU builds")
}

/// One timed run; returns the simulated cycles.
fn run(device: ModelDevice, prepared: &Prepared) -> u64 {
    let mut driver = Driver::new(device).expect("driver");
    workload::execute(&mut driver, prepared).expect("the workload runs");
    driver
        .device()
        .clocked()
        .map_or(0, |gpu| gpu.stats().cycles)
}

fn cycle_model(c: &mut Criterion) {
    for (config_name, config) in [
        ("1cu", GpuConfig::one_cu()),
        ("default", GpuConfig::default_config()),
    ] {
        let mut group = c.benchmark_group(config_name);
        group.sample_size(10);
        for name in WORKLOADS {
            let p = prepared(name);
            let cycles = run(device(&p, &config), &p);
            group.throughput(Throughput::Elements(cycles));
            group.bench_function(name, |b| {
                b.iter_batched(
                    || device(&p, &config),
                    |d| run(d, &p),
                    BatchSize::PerIteration,
                )
            });
        }
        group.finish();
    }
}

criterion_group!(benches, cycle_model);
criterion_main!(benches);
