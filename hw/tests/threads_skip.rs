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
