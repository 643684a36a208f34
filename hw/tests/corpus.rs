//! Every corpus kernel on the clocked GPU through `sw::driver`, both gfx1030
//! wave sizes, checked against the corpus's Rust reference (final memory).

use arch::device::Device;
use corpus::{ArgValue, BufferData, Target};
use hw::{ClockedGpu, GpuConfig};
use sw::driver::{Arg, Driver, LaunchDims};

/// Runs kernel `k` for `target`; `Err` describes the first problem.
fn run(k: &corpus::CorpusKernel, target: Target) -> Result<u64, String> {
    let elf = std::fs::read(k.prebuilt_path(target)).map_err(|e| e.to_string())?;
    let gpu = ClockedGpu::new(GpuConfig::default_config()).map_err(|e| e.to_string())?;
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
    driver
        .launch(&kernel, dims, &args)
        .map_err(|e| e.to_string())?;
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
