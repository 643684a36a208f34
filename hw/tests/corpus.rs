//! Every corpus kernel on the clocked GPU through `sw::driver`, both gfx1030
//! wave sizes, checked against the corpus's Rust reference (final memory).

use arch::device::Device;
use corpus::{ArgValue, BufferData, Target};
use hw::{ClockedGpu, GpuConfig};
use sw::driver::{Arg, Driver, LaunchDims};

/// Host time spent inside `launch` (the device running), for the speed probe.
static LAUNCH_NANOS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Runs kernel `k` for `target`; `Err` describes the first problem.
fn run(k: &corpus::CorpusKernel, target: Target) -> Result<u64, String> {
    run_on(k, target, GpuConfig::default_config())
}

fn run_on(k: &corpus::CorpusKernel, target: Target, config: GpuConfig) -> Result<u64, String> {
    let elf = std::fs::read(k.prebuilt_path(target)).map_err(|e| e.to_string())?;
    let gpu = ClockedGpu::new(config).map_err(|e| e.to_string())?;
    let mut driver = Driver::new(gpu).map_err(|e| e.to_string())?;
    let program = driver.load(&elf).map_err(|e| e.to_string())?;
    let kernel = program.kernel(k.name).map_err(|e| e.to_string())?.clone();
    let initial = k.launch.materialize();
    let mut args = Vec::new();
    let mut buffers = Vec::new();
    for a in &initial {
        args.push(match a {
            ArgValue::Buffer(b) => {
                let alloc = driver
                    .create_buffer(&b.to_le_bytes())
                    .map_err(|e| e.to_string())?;
                buffers.push((alloc, b.elem()));
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
    let t = std::time::Instant::now();
    driver
        .launch(&kernel, dims, &args)
        .map_err(|e| e.to_string())?;
    LAUNCH_NANOS.fetch_add(
        t.elapsed().as_nanos() as u64,
        std::sync::atomic::Ordering::Relaxed,
    );
    let mut finals = Vec::new();
    let mut b = buffers.iter();
    for a in &initial {
        finals.push(match a {
            ArgValue::Buffer(_) => {
                let (alloc, elem) = b.next().ok_or("buffer count")?;
                let bytes = driver.download(*alloc).map_err(|e| e.to_string())?;
                ArgValue::Buffer(BufferData::from_le_bytes(*elem, &bytes).ok_or("buffer size")?)
            }
            other => other.clone(),
        });
    }
    let expected = k.expected().map_err(|e| e.to_string())?;
    k.check_against(&expected, &finals)
        .map_err(|e| e.to_string())?;
    Ok(driver.device().now())
}

#[test]
fn corpus_kernels_match_their_references() {
    let mut failures = Vec::new();
    let mut passed = 0;
    for k in corpus::all() {
        for target in [Target::GFX1030_W32, Target::GFX1030_W64] {
            // A panic anywhere is reported like any other failure.
            let result = std::panic::catch_unwind(|| run(k, target)).unwrap_or_else(|p| {
                Err(p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "panic".into()))
            });
            match result {
                Ok(cycles) => {
                    passed += 1;
                    println!(
                        "PASS {:>16} {:?} {cycles} cycles",
                        k.name,
                        target.wave_size()
                    );
                }
                Err(e) => {
                    println!("FAIL {:>16} {:?}: {e}", k.name, target.wave_size());
                    failures.push(format!("{} w{}: {e}", k.name, target.wave_size()));
                }
            }
        }
    }
    println!("{passed} passed, {} failed", failures.len());
    assert!(failures.is_empty(), "{failures:#?}");
    assert_eq!(passed, 2 * corpus::all().len());
}

/// Simulated cycles per second of the whole corpus on one CU (run with
/// `cargo test --release -p hw --test corpus -- --ignored --nocapture`).
#[test]
#[ignore]
fn speed_corpus_one_cu() {
    let t = std::time::Instant::now();
    let mut cycles = 0;
    for k in corpus::all() {
        if k.name == "atomics_misc" || k.name == "private_scratch" {
            continue; // dominated by memory-system serialisation, not the CU
        }
        cycles += run_on(k, Target::GFX1030_W32, GpuConfig::one_cu()).unwrap();
    }
    let s = t.elapsed().as_secs_f64();
    let d = LAUNCH_NANOS.load(std::sync::atomic::Ordering::Relaxed) as f64 / 1e9;
    println!(
        "{cycles} cycles: {:.2} M cycles/s inside launch ({d:.3} s), {:.2} M cycles/s end to end ({s:.3} s)",
        cycles as f64 / d / 1e6,
        cycles as f64 / s / 1e6
    );
}

#[test]
fn events_do_not_change_timing_and_runs_repeat() {
    let k = corpus::find("scan_wg").unwrap();
    let cycles = |events: bool| {
        let elf = std::fs::read(k.prebuilt_path(Target::GFX1030_W64)).unwrap();
        let mut gpu = ClockedGpu::new(GpuConfig::default_config()).unwrap();
        gpu.set_events(events);
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
        let gpu = driver.device_mut();
        let retires = gpu
            .take_events()
            .iter()
            .filter(|e| matches!(e, hw::event::Event::Retire(_)))
            .count() as u64;
        let s = gpu.stats();
        (s.dispatches[0].cycles, s.instructions.total(), retires)
    };
    let (c_off, n_off, r_off) = cycles(false);
    let (c_on, n_on, r_on) = cycles(true);
    assert_eq!((c_off, n_off), (c_on, n_on));
    assert_eq!(r_off, 0);
    assert_eq!(r_on, n_on, "one retire per issued instruction");
    assert_eq!(cycles(true), (c_on, n_on, r_on));
}
