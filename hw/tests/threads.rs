//! Worker threads do not change results (docs/cycle-model.md, "Worker
//! threads"): every corpus kernel on every preset in `hw/configs/*.yaml`
//! (whatever presets exist) and on the 64-CU example, with 1, 2 and 4
//! threads, gives the same cycles, statistics and final memory. The worker
//! path is forced on every edge with work (`set_parallel_min_busy_cus(1)`),
//! so small configurations exercise it too.

use std::path::{Path, PathBuf};

use arch::device::Device;
use corpus::{ArgValue, Target};
use hw::{ClockedGpu, GpuConfig};
use sw::driver::{Arg, Driver, LaunchDims};

/// What must not depend on the thread count.
#[derive(Debug)]
struct Outcome {
    /// CU edges executed again at a commit (not compared: 0 with 1 thread).
    reexecutions: u64,
    /// Edges on the workers, and edges the adaptive governor kept on the
    /// calling thread (not compared).
    modes: (u64, u64),
    cycles: u64,
    /// `GpuStats` in full (its `Debug` form, floats included).
    stats: String,
    /// Every buffer argument's final bytes.
    buffers: Vec<Vec<u8>>,
}

impl PartialEq for Outcome {
    fn eq(&self, o: &Outcome) -> bool {
        (self.cycles, &self.stats, &self.buffers) == (o.cycles, &o.stats, &o.buffers)
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// Every preset (`hw/configs/*.yaml`, sorted) and the 64-CU example.
fn configs() -> Vec<(String, GpuConfig)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("configs"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    files.push(root().join("configs/examples/64cu.yaml"));
    files
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            let name = p.file_stem().unwrap().to_string_lossy().to_string();
            let config = GpuConfig::from_yaml(&text, &p.display().to_string())
                .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (name, config)
        })
        .collect()
}

/// Thread counts compared with one thread; `ADAPTIVE` stands for adaptive
/// threads (up to 2) whose governor changes mode at almost every edge.
const ADAPTIVE: usize = 0;

fn run(
    k: &corpus::CorpusKernel,
    target: Target,
    config: &GpuConfig,
    threads: usize,
) -> Result<Outcome, String> {
    let elf = std::fs::read(k.prebuilt_path(target)).map_err(|e| e.to_string())?;
    let mut gpu = ClockedGpu::new(config.clone()).map_err(|e| e.to_string())?;
    if threads == ADAPTIVE {
        gpu.set_adaptive_threads_window(2, std::time::Duration::ZERO);
    } else {
        gpu.set_threads(threads);
    }
    gpu.set_parallel_min_busy_cus(1);
    let mut driver = Driver::new(gpu).map_err(|e| e.to_string())?;
    let program = driver.load(&elf).map_err(|e| e.to_string())?;
    let kernel = program.kernel(k.name).map_err(|e| e.to_string())?.clone();
    let mut args = Vec::new();
    let mut buffers = Vec::new();
    for a in &k.launch.materialize() {
        args.push(match a {
            ArgValue::Buffer(b) => {
                let alloc = driver
                    .create_buffer(&b.to_le_bytes())
                    .map_err(|e| e.to_string())?;
                buffers.push(alloc);
                Arg::Buffer(alloc.address)
            }
            ArgValue::Scalar(s) => Arg::Value(s.to_le_bytes()),
            ArgValue::Local { bytes } => Arg::Local(*bytes),
        });
    }
    let dims = LaunchDims {
        grid: k.launch.dims.grid,
        workgroup: k.launch.dims.local,
    };
    driver
        .launch(&kernel, dims, &args)
        .map_err(|e| e.to_string())?;
    let buffers = buffers
        .iter()
        .map(|b| driver.download(*b).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    Ok(Outcome {
        reexecutions: driver.device().staged_reexecutions(),
        modes: (
            driver.device().parallel_edges(),
            driver.device().thread_governor().serial_edges,
        ),
        cycles: driver.device().now(),
        stats: format!("{:?}", driver.device().stats()),
        buffers,
    })
}

/// Runs every corpus kernel for `targets` on the configurations `keep`
/// selects, with 1, 2 and 4 threads and adaptive threads changing mode
/// edge by edge, and lists each difference.
fn compare(targets: &[Target], keep: impl Fn(&str) -> bool) {
    let mut differences = Vec::new();
    let mut compared = 0;
    // Adaptive runs' edges on the workers and kept serial, over the corpus.
    let mut adaptive = (0, 0);
    for (name, config) in configs().into_iter().filter(|(n, _)| keep(n)) {
        for k in corpus::all() {
            for &target in targets {
                let serial = run(k, target, &config, 1);
                for threads in [2, 4, ADAPTIVE] {
                    let threaded = run(k, target, &config, threads);
                    if let (ADAPTIVE, Ok(t)) = (threads, &threaded) {
                        adaptive.0 += t.modes.0;
                        adaptive.1 += t.modes.1;
                    }
                    if threaded != serial {
                        let what = match (&serial, &threaded) {
                            (Ok(a), Ok(b)) if a.cycles != b.cycles => {
                                format!("cycles {} vs {}", a.cycles, b.cycles)
                            }
                            (Ok(a), Ok(b)) if a.stats != b.stats => "statistics".to_string(),
                            (Ok(_), Ok(_)) => "final memory".to_string(),
                            (a, b) => format!("{:?} vs {:?}", a.as_ref().err(), b.as_ref().err()),
                        };
                        differences.push(format!(
                            "{name} {} w{} threads {threads} (0: adaptive): {what}",
                            k.name,
                            target.wave_size()
                        ));
                    }
                    compared += 1;
                }
                // The serial run itself must be a correct run, or the
                // comparison would only show that threads repeat a failure.
                if let Err(e) = serial {
                    differences.push(format!("{name} {} failed: {e}", k.name));
                }
            }
        }
    }
    println!("{compared} threaded runs compared; adaptive: {adaptive:?} edges parallel, serial");
    assert!(differences.is_empty(), "{differences:#?}");
    assert!(compared > 0);
    // The adaptive runs really changed modes (else they repeat a fixed run).
    assert!(adaptive.0 > 1000 && adaptive.1 > 1000, "{adaptive:?}");
}

#[test]
fn corpus_wave32_is_identical_for_1_2_and_4_threads() {
    compare(&[Target::GFX1030_W32], |_| true);
}

#[test]
fn corpus_wave64_is_identical_for_1_2_and_4_threads_on_every_config() {
    compare(&[Target::GFX1030_W64], |_| true);
}

/// Kernels whose CUs hit the same words in one cycle (atomics on shared
/// counters, a histogram) take the commit's other path — a CU executing its
/// memory instructions again after an earlier CU's write — and still give
/// the serial results.
#[test]
fn conflicting_edges_are_executed_again_with_the_serial_result() {
    let (_, config) = configs().into_iter().find(|(n, _)| n == "64cu").unwrap();
    for name in ["atomics_misc", "histogram", "ubench_atomics"] {
        let k = corpus::find(name).unwrap();
        let serial = run(k, Target::GFX1030_W32, &config, 1).unwrap();
        let threaded = run(k, Target::GFX1030_W32, &config, 2).unwrap();
        assert_eq!(serial.reexecutions, 0);
        assert!(threaded.reexecutions > 0, "{name}: no conflicting edge");
        assert_eq!(threaded.cycles, serial.cycles, "{name}");
        assert_eq!(threaded.stats, serial.stats, "{name}");
        assert_eq!(threaded.buffers, serial.buffers, "{name}");
    }
}

/// Lockstep events (the stream the golden model follows) are the same
/// sequence with threads: same kinds, waves and order.
#[test]
fn lockstep_events_are_in_the_same_order_with_threads() {
    let k = corpus::find("atomics_misc").unwrap();
    let (_, config) = configs().into_iter().find(|(n, _)| n == "64cu").unwrap();
    let events = |threads: usize| {
        let elf = std::fs::read(k.prebuilt_path(Target::GFX1030_W32)).unwrap();
        let mut gpu = ClockedGpu::new(config.clone()).unwrap();
        gpu.set_threads(threads);
        gpu.set_parallel_min_busy_cus(1);
        gpu.set_events(true);
        let mut driver = Driver::new(gpu).unwrap();
        let program = driver.load(&elf).unwrap();
        let kernel = program.kernel(k.name).unwrap().clone();
        let mut args = Vec::new();
        for a in k.launch.materialize() {
            args.push(match a {
                ArgValue::Buffer(b) => {
                    Arg::Buffer(driver.create_buffer(&b.to_le_bytes()).unwrap().address)
                }
                ArgValue::Scalar(s) => Arg::Value(s.to_le_bytes()),
                ArgValue::Local { bytes } => Arg::Local(bytes),
            });
        }
        let dims = LaunchDims {
            grid: k.launch.dims.grid,
            workgroup: k.launch.dims.local,
        };
        driver.launch(&kernel, dims, &args).unwrap();
        let mut gpu = driver.into_device();
        format!("{:?}", gpu.take_events())
    };
    let serial = events(1);
    assert!(serial.len() > 1000, "the run produced events");
    assert!(events(2) == serial, "event stream differs with 2 threads");
}
