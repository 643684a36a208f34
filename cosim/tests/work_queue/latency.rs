//! Cycles from "a child may run" to the child's first wave on the clocked GPU
//! (default configuration), measured from `hw::event` events, for GPU-created
//! work against a host round trip. `docs/performance.md` ("GPU-created work")
//! quotes the figures; print them with
//! `cargo test --release -p cosim --test work_queue latency -- --nocapture`.
//!
//! * nested publish: the GPU channel is already past acquire X (a child
//!   creating grandchildren); a kernel thread's store releasing sem[g0] (the
//!   `Issue` event of that store) → the child's first `WaveLaunch`.
//! * first level (seed 001's CPU block): the parent's completion (the
//!   `FrontEndWrite` of its completion signal) → WAIT_FOR_IDLE, release X,
//!   the GPU channel's acquires X and sem[g0] → the child's first wave.
//! * host round trip: the parent's completion → `frontend.host_round_trip_cycles`
//!   later the host writes GP_PUT past an entry holding the child's DISPATCH →
//!   the child's first wave.
//!
//! The publisher's busy loop varies over 16 lengths so the samples cover
//! every phase of the front end's semaphore polling.

use arch::command::Command;
use arch::device::{Device, RunStatus, RunUntil, WaveId};
use arch::mmio;
use hw::event::Event;
use hw::{ClockedGpu, GpuConfig};

use crate::rig::*;

const SIGNAL: u64 = LOG + 0x300;

/// Cycles of the first events of interest.
#[derive(Default, Debug)]
struct Seen {
    /// The store to `watch` issued.
    publish: Option<u64>,
    /// The front end wrote the completion signal.
    signal: Option<u64>,
    /// The child dispatch's first wave was created.
    first_wave: Option<u64>,
    /// Dispatch number of the child (from its `Dispatch` event).
    child: Option<u32>,
    /// The front end handed the child's DISPATCH to the dispatcher.
    dispatched: Option<u64>,
}

/// Runs until `until`, noting events; `child_channel` is where the child's
/// DISPATCH comes from, `watch` the semaphore a thread releases.
fn run_noting(
    r: &mut Rig<ClockedGpu>,
    until: RunUntil,
    child_channel: u32,
    child_entry: u32,
    watch: u64,
    seen: &mut Seen,
) -> RunStatus {
    r.gpu
        .run_with(until, |g| {
            // Events of the clock edge just taken belong to cycle now − 1.
            let at = g.now() - 1;
            for e in g.take_events() {
                match e {
                    Event::Issue { memory, .. } if memory.iter().any(|m| m.address == watch) => {
                        seen.publish.get_or_insert(at);
                    }
                    Event::FrontEndWrite { address, .. } if address == SIGNAL => {
                        seen.signal.get_or_insert(at);
                    }
                    Event::Dispatch {
                        number,
                        channel,
                        entry,
                        ..
                    } if channel == child_channel && entry == child_entry => {
                        seen.child = Some(number);
                        seen.dispatched.get_or_insert(at);
                    }
                    Event::WaveLaunch {
                        wave: WaveId { dispatch, .. },
                        ..
                    } if Some(dispatch) == seen.child => {
                        seen.first_wave.get_or_insert(at);
                    }
                    _ => {}
                }
            }
            Ok(())
        })
        .unwrap()
}

fn rig(iterations: u32) -> Rig<ClockedGpu> {
    let mut gpu = ClockedGpu::new(GpuConfig::default_config()).unwrap();
    gpu.set_events(true);
    Rig::build(gpu, 8, 0, iterations)
}

fn with_signal(mut c: Command) -> Command {
    if let Command::Dispatch(p) = &mut c {
        p.completion_signal = SIGNAL;
    }
    c
}

/// A nested publish: X already released, one reservation (child at entry 1)
/// published by a kernel thread's store to sem[0]. Returns (publish → first
/// wave, child's DISPATCH → first wave).
fn nested_publish(iterations: u32) -> (u64, u64) {
    let mut r = rig(iterations);
    r.write_u32(X, 1);
    let old = r.reserve(1).unwrap();
    let child = r.dispatch_store(LOG + 0x200, 9);
    r.fill(old, &[vec![child]]);
    let publisher = r.dispatch_store(r.sem(0), 1);
    let b = r.block(&[publisher]);
    r.set_entry(CPU, 0, b);
    r.program(CPU, RING0, 16, 0, 1);
    let mut seen = Seen::default();
    let sem0 = r.sem(0);
    run_noting(&mut r, RunUntil::Idle, GPU, old, sem0, &mut seen);
    assert_eq!(r.read_u32(LOG + 0x200), 9, "the child ran");
    let first_wave = seen.first_wave.unwrap();
    (
        first_wave - seen.publish.unwrap(),
        first_wave - seen.dispatched.unwrap(),
    )
}

/// Seed 001's first level: the parent publishes, completes, WAIT_FOR_IDLE,
/// release X; measured from the parent's completion signal.
fn first_level(iterations: u32) -> u64 {
    let mut r = rig(iterations);
    let old = r.reserve(1).unwrap();
    let child = r.dispatch_store(LOG + 0x200, 9);
    r.fill(old, &[vec![child]]);
    let parent = with_signal(r.dispatch_store(r.sem(0), 1));
    r.cpu_launch(0, Some(parent));
    let mut seen = Seen::default();
    run_noting(&mut r, RunUntil::Idle, GPU, old, u64::MAX, &mut seen);
    assert_eq!(r.read_u32(LOG + 0x200), 9, "the child ran");
    seen.first_wave.unwrap() - seen.signal.unwrap()
}

/// The host path: parent completes, the host rings the doorbell for the
/// child's entry `round_trip` (≥ 1) cycles after the completion signal.
/// Returns (completion → first wave, doorbell → first wave).
fn host_round_trip(iterations: u32, round_trip: u64) -> (u64, u64) {
    let mut r = rig(iterations);
    // No GPU-owned channel here (its parked acquire would read as a deadlock
    // while the host waits).
    r.gpu
        .mmio_write(mmio::channel_reg(GPU, mmio::CH_CONTROL), 0)
        .unwrap();
    let parent = with_signal(r.dispatch_store(LOG + 0x100, 1));
    let b = r.block(&[parent]);
    r.set_entry(CPU, 0, b);
    let child = r.dispatch_store(LOG + 0x200, 9);
    let b = r.block(&[child]);
    r.set_entry(CPU, 1, b);
    r.program(CPU, RING0, 16, 0, 1);
    let mut seen = Seen::default();
    let signalled = RunUntil::Word {
        address: SIGNAL,
        value: 1,
        compare: arch::command::SemaphoreCompare::Equal,
    };
    let status = run_noting(&mut r, signalled, CPU, 1, u64::MAX, &mut seen);
    assert_eq!(status, RunStatus::Done);
    let done = seen.signal.unwrap();
    // The host sees the signal at the earliest one cycle after it was written.
    let doorbell = done + round_trip.max(1);
    let wait = doorbell - r.gpu.now();
    let status = run_noting(&mut r, RunUntil::Cycles(wait), CPU, 1, u64::MAX, &mut seen);
    assert_eq!(status, RunStatus::BudgetExhausted);
    assert_eq!(r.gpu.now(), doorbell);
    r.gpu
        .mmio_write(mmio::channel_reg(CPU, mmio::CH_GP_PUT), 2)
        .unwrap();
    run_noting(&mut r, RunUntil::Idle, CPU, 1, u64::MAX, &mut seen);
    assert_eq!(r.read_u32(LOG + 0x200), 9, "the child ran");
    let first_wave = seen.first_wave.unwrap();
    (first_wave - done, first_wave - doorbell)
}

/// (min, median, max).
fn spread(mut v: Vec<u64>) -> (u64, u64, u64) {
    v.sort_unstable();
    (v[0], v[v.len() / 2], v[v.len() - 1])
}

#[test]
fn latency_from_publish_to_first_wave_against_a_host_round_trip() {
    let config = GpuConfig::default_config();
    let round_trip = u64::from(config.frontend.host_round_trip_cycles);
    let lengths: Vec<u32> = (0..16).map(|i| 300 + 4 * i).collect();
    let nested_samples: Vec<(u64, u64)> = lengths.iter().map(|&n| nested_publish(n)).collect();
    let nested = spread(nested_samples.iter().map(|s| s.0).collect());
    let nested_launch = spread(nested_samples.iter().map(|s| s.1).collect());
    let first = spread(lengths.iter().map(|&n| first_level(n)).collect());
    let samples: Vec<(u64, u64)> = lengths
        .iter()
        .map(|&n| host_round_trip(n, round_trip))
        .collect();
    // The host path is the parameter plus the GPU's own entry fetch, parse
    // and dispatch after the doorbell.
    for &(total, gpu_part) in &samples {
        assert_eq!(total, round_trip + gpu_part);
    }
    let host = spread(samples.iter().map(|s| s.0).collect());
    let host_gpu_part = spread(samples.iter().map(|s| s.1).collect());
    println!(
        "cycles to the child's first wave (min / median / max over 16 samples, default config):"
    );
    println!("  nested publish (sem release by a thread):   {nested:?}");
    println!("  of which DISPATCH → first wave:             {nested_launch:?}");
    println!("  first level (parent done, WFI, release X):  {first:?}");
    println!("  host round trip ({round_trip} cycles + front end): {host:?}");
    println!("  of which doorbell → first wave:              {host_gpu_part:?}");
    // A nested publish costs what the doorbell path costs on the GPU (entry
    // and block fetch, dispatch, wave launch) plus the wait for the next
    // semaphore read: at least nothing, at most one polling period (the
    // poll interval and a read's round trip).
    let poll = u64::from(config.frontend.poll_interval);
    assert!(nested.0 >= host_gpu_part.0, "{nested:?} {host_gpu_part:?}");
    assert!(
        nested.2 <= host_gpu_part.2 + 3 * poll,
        "{nested:?} {host_gpu_part:?}"
    );
    assert!(nested.2 > nested.0, "the samples cover the polling phases");
    // Both GPU paths beat the host round trip by far.
    assert!(nested.2 < round_trip / 4, "{nested:?}");
    assert!(first.2 < round_trip / 4, "{first:?}");
}
