//! Event skipping (docs/cycle-model.md, "Event skipping"): a GPU whose only
//! work is a channel polling a semaphore jumps over the poll countdowns, with
//! the cycles, statistics and memory of ticking every edge — through a
//! budgeted run, the host releasing the semaphore, a kernel after it, and the
//! deadlock report of an acquire nothing satisfies.

use arch::command::{Command, SemaphoreCompare};
use arch::device::{Device, RunUntil};
use hw::{ClockedGpu, GpuConfig};
use sw::driver::Driver;

/// What must not depend on skipping.
#[derive(Debug, PartialEq)]
struct Outcome {
    statuses: Vec<String>,
    cycles: u64,
    stats: String,
    flag: Vec<u8>,
}

/// Acquire a semaphore the host releases after `wait` cycles (or never),
/// then run to idle (or to the deadlock report).
fn scenario(config: GpuConfig, skip: bool, release_after: Option<u64>) -> (Outcome, u64) {
    let mut gpu = ClockedGpu::new(config).unwrap();
    gpu.set_event_skipping(skip);
    let mut driver = Driver::new(gpu).unwrap();
    let flag = driver.create_buffer(&7u32.to_le_bytes()).unwrap();
    let mut block = sw::driver::CommandBlock::new();
    block.push(Command::SemaphoreAcquire {
        address: flag.address,
        payload: 9,
        compare: SemaphoreCompare::GreaterOrEqual,
    });
    driver.submit(block).unwrap();
    let mut statuses = Vec::new();
    if let Some(wait) = release_after {
        // A run call reports the wait as blocked after DEADLOCK_CYCLES
        // quiet cycles; the host keeps calling (odd budgets, so that a jump
        // has to stop inside a countdown).
        let mut budget = 777;
        while driver.device().now() < wait {
            let s = driver.device_mut().run(RunUntil::Cycles(budget)).unwrap();
            statuses.push(format!("{s:?} at {}", driver.device().now()));
            budget = budget * 3 + 1;
        }
        driver
            .device_mut()
            .write(flag.address, &9u32.to_le_bytes())
            .unwrap();
    }
    let s = driver.device_mut().run(RunUntil::Idle);
    statuses.push(format!("{s:?} at {}", driver.device().now()));
    let gpu = driver.device();
    let mut bytes = vec![0; 4];
    gpu.read(flag.address, &mut bytes).unwrap();
    (
        Outcome {
            statuses,
            cycles: gpu.now(),
            stats: format!("{:?}", gpu.stats()),
            flag: bytes,
        },
        gpu.skipped_cycles(),
    )
}

#[test]
fn a_released_semaphore_wait_is_skipped_with_identical_results() {
    for config in [GpuConfig::one_cu(), GpuConfig::default_config()] {
        let (ticked, none) = scenario(config.clone(), false, Some(50_000));
        let (skipped, jumped) = scenario(config, true, Some(50_000));
        assert_eq!(none, 0);
        assert_eq!(skipped, ticked);
        assert!(
            ticked.statuses.last().unwrap().contains("Done"),
            "{ticked:?}"
        );
        // Most of each poll interval is a countdown.
        assert!(jumped > 5_000, "only {jumped} cycles skipped");
    }
}

#[test]
fn an_unsatisfiable_acquire_is_reported_at_the_same_cycle_when_skipping() {
    let mut config = GpuConfig::one_cu();
    config.watchdog_cycles = 1_000_000;
    let (ticked, _) = scenario(config.clone(), false, None);
    let (skipped, jumped) = scenario(config, true, None);
    assert!(ticked.statuses[0].contains("Blocked"), "{ticked:?}");
    assert_eq!(skipped, ticked);
    assert!(jumped > 0);
}

/// The time a semaphore wait of 2 M cycles takes, ticked and skipped (run
/// with `--ignored --nocapture`; docs/performance.md).
#[test]
#[ignore]
fn speed_of_a_semaphore_wait() {
    for skip in [false, true] {
        let t = std::time::Instant::now();
        let (o, jumped) = scenario(GpuConfig::default_config(), skip, Some(2_000_000));
        println!(
            "skip {skip}: {} cycles in {:.3} s ({jumped} skipped)",
            o.cycles,
            t.elapsed().as_secs_f64()
        );
    }
}

// ---------------------------------------------------------------------------
// Skipping while waves are resident and all wait (s_sleep, a barrier, memory).

mod waiting {
    use arch::code_object::KernelDescriptor;
    use arch::command::DispatchPacket;
    use arch::device::{Device, RunStatus, RunUntil};
    use arch::isa::{assemble, Target};
    use corpus::ArgValue;
    use hw::frontend::DispatchRequest;
    use hw::{ClockedGpu, GpuConfig};
    use sw::driver::{Arg, Driver, LaunchDims};

    const CODE: u64 = 0x10_0000;
    const KD: u64 = 0x20_0000;

    /// Cycles, full statistics, and the edges jumped over.
    fn program(
        text: &str,
        config: GpuConfig,
        skip: bool,
        grid: u32,
        wg: u16,
    ) -> (u64, String, u64) {
        let bytes = assemble(Target::GFX1030_W32, text).expect("assembles");
        let mut gpu = ClockedGpu::new(config).unwrap();
        gpu.set_event_skipping(skip);
        gpu.map(CODE, 0x1000).unwrap();
        gpu.map(KD, 0x1000).unwrap();
        gpu.write(CODE, &bytes).unwrap();
        let mut kd = KernelDescriptor {
            kernel_code_entry_byte_offset: CODE as i64 - KD as i64,
            ..KernelDescriptor::default()
        };
        kd.kernel_code_properties.enable_wavefront_size32 = true;
        gpu.write(KD, &kd.to_bytes()).unwrap();
        let packet = DispatchPacket {
            dimensions: 1,
            workgroup_size: [wg, 1, 1],
            grid_size: [grid, 1, 1],
            kernel_object: KD,
            ..DispatchPacket::default()
        };
        gpu.launch_dispatch(DispatchRequest {
            number: 0,
            channel: 0,
            entry: 0,
            packet,
            packet_address: 0,
        })
        .unwrap();
        assert_eq!(gpu.run(RunUntil::Idle).unwrap(), RunStatus::Done);
        (
            gpu.now(),
            format!("{:?}", gpu.stats()),
            gpu.skipped_cycles(),
        )
    }

    /// Sleeping waves and waves waiting at a barrier for a sleeping one: the
    /// CU counts their stall cycles in bulk, with the results of ticking.
    #[test]
    fn sleeping_and_barrier_waits_are_skipped_with_identical_results() {
        // Waves launch one after another, so the first ones wait at each
        // barrier for the last.
        let text = "s_sleep 10\n\
                    s_barrier\n\
                    s_sleep 3\n\
                    s_barrier\n\
                    s_sleep 6\n\
                    s_endpgm";
        for config in [GpuConfig::one_cu(), GpuConfig::default_config()] {
            let ticked = program(text, config.clone(), false, 512, 128);
            let skipped = program(text, config, true, 512, 128);
            assert_eq!(ticked.2, 0);
            assert_eq!((skipped.0, &skipped.1), (ticked.0, &ticked.1));
            // s_sleep 10 is 640 cycles: most of the run is jumped over.
            assert!(
                skipped.2 * 2 > skipped.0,
                "only {} of {} edges skipped",
                skipped.2,
                skipped.0
            );
        }
    }

    /// Corpus kernel `name` (wave32) on `config`: cycles, full statistics,
    /// final buffers, edges skipped.
    fn corpus_run(name: &str, config: &GpuConfig, skip: bool) -> (u64, String, Vec<Vec<u8>>, u64) {
        let k = corpus::find(name).unwrap();
        let elf = std::fs::read(k.prebuilt_path(Target::GFX1030_W32)).unwrap();
        let mut gpu = ClockedGpu::new(config.clone()).unwrap();
        gpu.set_event_skipping(skip);
        let mut driver = Driver::new(gpu).unwrap();
        let program = driver.load(&elf).unwrap();
        let kernel = program.kernel(k.name).unwrap().clone();
        let mut args = Vec::new();
        let mut buffers = Vec::new();
        for a in k.launch.materialize() {
            args.push(match a {
                ArgValue::Buffer(b) => {
                    let alloc = driver.create_buffer(&b.to_le_bytes()).unwrap();
                    buffers.push(alloc);
                    Arg::Buffer(alloc.address)
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
        let memory = (buffers.iter())
            .map(|b| driver.download(*b).unwrap())
            .collect();
        let gpu = driver.device();
        (
            gpu.now(),
            format!("{:?}", gpu.stats()),
            memory,
            gpu.skipped_cycles(),
        )
    }

    /// A dependent pointer chase (every load waits for DRAM or the L2): the
    /// memory system reports its next packet movement and the GPU jumps to
    /// it, with the results of ticking, on the default and Navi 21 presets.
    #[test]
    fn a_memory_bound_chase_is_skipped_with_identical_results() {
        for config in [GpuConfig::default_config(), GpuConfig::navi21()] {
            let ticked = corpus_run("ubench_mem_chase", &config, false);
            let skipped = corpus_run("ubench_mem_chase", &config, true);
            assert_eq!(
                (&skipped.0, &skipped.1, &skipped.2),
                (&ticked.0, &ticked.1, &ticked.2)
            );
            assert!(
                skipped.3 * 4 > skipped.0,
                "only {} of {} edges skipped",
                skipped.3,
                skipped.0
            );
        }
    }

    /// Edges skipped and time with skipping on and off, for
    /// docs/performance.md (`--ignored --nocapture`).
    #[test]
    #[ignore]
    fn share_of_edges_skipped() {
        let c64 = GpuConfig::from_yaml(
            &std::fs::read_to_string(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/configs/examples/64cu.yaml"
            ))
            .unwrap(),
            "64cu",
        )
        .unwrap();
        let configs = [
            ("default", GpuConfig::default_config()),
            ("64cu", c64),
            ("navi21", GpuConfig::navi21()),
        ];
        for (cname, config) in &configs {
            for name in [
                "ubench_mem_chase",
                "ubench_stream",
                "matmul_naive",
                "scan_wg",
                "reduce_sum",
            ] {
                let mut times = [0f64; 2];
                let mut skipped = 0;
                let mut cycles = 0;
                for round in 0..2 {
                    for (i, skip) in [false, true].into_iter().enumerate() {
                        let t = std::time::Instant::now();
                        let r = corpus_run(name, config, skip);
                        if round == 1 {
                            times[i] = t.elapsed().as_secs_f64();
                        }
                        (cycles, skipped) = (r.0, r.3.max(skipped));
                    }
                }
                println!(
                    "{cname} {name}: {cycles} cycles, {skipped} skipped ({:.0} %), ticked {:.3} s, skipped {:.3} s",
                    100.0 * skipped as f64 / cycles as f64,
                    times[0],
                    times[1]
                );
            }
        }
    }
}
