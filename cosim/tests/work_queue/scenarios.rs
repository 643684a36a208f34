//! Seed 001 §6, behaviours 1–12, and the worked example, as scenarios generic
//! over the GPU; `main.rs` names one test per scenario and GPU.

use arch::command::{ChannelEntry, Command};
use arch::device::{FaultKind, RunStatus, RunUntil};
use arch::mmio::{self, wrap};

use crate::rig::*;

pub fn behaviour_01_initial_state_for_any_g0<G: WqGpu>() {
    for (q, g0) in [(8, 0), (8, 5), (6, 3), (8, 7)] {
        let mut r = Rig::<G>::new(q, g0);
        assert_eq!(r.reg(GPU, mmio::CH_GP_GET), g0);
        assert_eq!(r.reg(GPU, mmio::CH_GP_PUT), wrap(i64::from(g0) - 1, q));
        assert!(mmio::is_full(g0, r.reg(GPU, mmio::CH_GP_PUT), q));
        assert_eq!(r.read_u32(SOFT) % q, wrap(i64::from(g0) + 1, q));
        assert_eq!(r.read_u32(SHADOW) % q, r.reg(GPU, mmio::CH_GP_PUT));
        assert_eq!((r.read_u32(X), r.read_u32(Y)), (0, 0));
        // entry[g0] → a block whose first command acquires X.
        let mut e = [0u8; 8];
        r.gpu.read(RING1 + 8 * u64::from(g0), &mut e).unwrap();
        let entry = ChannelEntry::from_bits(u64::from_le_bytes(e)).unwrap();
        let mut words = vec![0u8; 4 * usize::from(entry.length_dwords)];
        r.gpu.read(entry.address.into(), &mut words).unwrap();
        let dwords: Vec<u32> = words
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let (first, _) = Command::read(&dwords).unwrap();
        assert_eq!(first, acquire(X, 1));
    }
}

pub fn behaviour_02_gpu_channel_stays_at_g0_until_x_is_released<G: WqGpu>() {
    let mut r = Rig::<G>::new(8, 3);
    // A thread has already published (sem[g0] released): only X holds it back.
    let old = r.reserve(1).unwrap();
    r.fill(old, &[mark(0)]);
    r.publish(old);
    let blocked = r.run_until_blocked();
    assert_eq!(blocked, vec![(GPU, 3, X)]);
    assert_eq!(r.reg(GPU, mmio::CH_GP_GET), 3);
    assert_eq!(r.reg(GPU, mmio::CH_STATE), mmio::CH_STATE_SEMAPHORE);
    assert_eq!(r.read_u32(LOG), 0);
    assert_eq!(r.history(GPU), vec![3]);
    r.write_u32(X, 1);
    let blocked = r.run_until_blocked();
    assert_eq!(blocked, vec![(GPU, 5, r.sem(5))]);
    assert_eq!(r.read_u32(LOG), 1);
}

pub fn behaviour_03_cpu_channel_launch_wfi_release_x_acquire_y<G: WqGpu>() {
    let mut r = Rig::<G>::new(8, 0);
    let parent = r.dispatch_store(LOG + 0x100, 77);
    r.cpu_launch(0, Some(parent));
    // Step by step: X is never released before the parent's store is visible.
    let mut saw_wait_idle = false;
    let status = r
        .run_checked(|g| {
            let state = g.mmio_read(mmio::channel_reg(CPU, mmio::CH_STATE));
            saw_wait_idle |= state == Ok(mmio::CH_STATE_WAIT_IDLE);
            if read_word(g, X) != 0 {
                assert_eq!(
                    read_word(g, LOG + 0x100),
                    77,
                    "X released before the parent's write"
                );
            }
        })
        .unwrap();
    assert!(saw_wait_idle);
    assert_eq!(r.read_u32(X), 1);
    // The CPU channel now stalls on acquire Y (and the GPU channel on sem[g0]).
    let blocked = blocked_list(status);
    assert!(blocked.contains(&(CPU, 0, Y)), "{blocked:?}");
    assert!(blocked.contains(&(GPU, 0, r.sem(0))), "{blocked:?}");
    let a = r.activity(CPU);
    assert_eq!((a.idle_waits, a.acquires_waited), (1, 1), "{a:?}");
    // The busy loop alone is 300 iterations of three instructions: the CPU
    // channel sat in WAIT_FOR_IDLE for at least that many steps or cycles.
    assert!(a.idle_wait >= 900, "{a:?}");
}

pub fn behaviour_04_after_release_x_gp_get_is_g0_plus_1<G: WqGpu>() {
    for g0 in [0, 6] {
        let mut r = Rig::<G>::new(8, g0);
        // The first thread reserves one entry (N = 0: just its trailing
        // acquire) and releases sem[g0].
        let old = r.reserve(0).unwrap();
        r.fill(old, &[]);
        r.publish(old);
        r.cpu_launch(0, None);
        let blocked = r.run_until_blocked();
        let next = wrap(i64::from(g0) + 1, 8);
        assert_eq!(r.reg(GPU, mmio::CH_GP_GET), next);
        assert!(blocked.contains(&(CPU, 0, Y)));
        assert!(blocked.contains(&(GPU, next, r.sem(next))));
        assert_eq!(r.history(GPU), vec![g0, next]);
    }
}

/// K host "threads" reserve N = 0, 1, 2, 0, 1, 2, … entries one after the
/// other (atomic order), fill their blocks and publish in reverse order.
pub fn behaviour_05_many_threads_get_separate_contiguous_ranges_in_atomic_order<G: WqGpu>() {
    const K: u32 = 12;
    let (q, g0) = (64, 7);
    let mut r = Rig::<G>::new(q, g0);
    let soft0 = r.read_u32(SOFT);
    let ns: Vec<u32> = (0..K).map(|i| i % 3).collect();
    let olds: Vec<u32> = ns.iter().map(|&n| r.reserve(n).unwrap()).collect();
    // Separate, contiguous, in the order the adds happened.
    let mut expected = soft0;
    for (&old, &n) in olds.iter().zip(&ns) {
        assert_eq!(old, expected);
        expected += n + 1;
    }
    let total: u32 = ns.iter().map(|n| n + 1).sum();
    assert_eq!(r.read_u32(SOFT), soft0 + total);
    let mut k = 0;
    for (&old, &n) in olds.iter().zip(&ns) {
        let blocks: Vec<Vec<Command>> = (0..n).map(|j| mark(k + j)).collect();
        k += n;
        r.fill(old, &blocks);
    }
    for &old in olds.iter().rev() {
        r.publish(old);
    }
    let t = r.finish();
    assert_eq!(t, soft0 + total);
    r.cpu_launch(0, None);
    let blocked = r.run_until_blocked();
    assert_eq!(blocked, vec![(GPU, t % q, X)]);
    // The front end ran every reserved entry once, in index order.
    let order: Vec<u32> = (g0..=t).map(|i| i % q).collect();
    assert_eq!(r.history(GPU), order);
    let marks: Vec<u32> = (0..k).map(|i| r.read_u32(LOG + 4 * u64::from(i))).collect();
    assert_eq!(marks, (1..=k).collect::<Vec<_>>());
    let a = r.activity(GPU);
    assert_eq!(a.entries, u64::from(t - g0));
    // Blocks that mark, plus the terminal block's release of Y.
    assert_eq!(a.releases, u64::from(k) + 1);
}

pub fn behaviour_06_room_check_and_the_entry_at_gp_put_never_runs<G: WqGpu>() {
    let (q, g0) = (8, 0);
    let mut r = Rig::<G>::new(q, g0);
    // Poison the entry at GP_PUT: processing it would fault.
    let poison = r.block(&[Command::Nop { payload_dwords: 0 }]);
    r.gpu
        .write(poison.0, &0x0000_00eeu32.to_le_bytes())
        .unwrap();
    r.set_entry(GPU, 7, poison);
    // Usable entries are 1 … Q−2 = 1 … 6: work may take 1 … 5, the terminal 6.
    let a = r.reserve(1).unwrap(); // 1, 2
    let b = r.reserve(2).unwrap(); // 3, 4, 5
    assert_eq!((a, b), (1, 3));
    assert_eq!(
        r.reserve(0),
        None,
        "old + N + 1 = 7 leaves no room for the terminal"
    );
    // The refused reservation moved soft GP_PUT; put it back as the host-side
    // stand-in does not model the overflow slot (the devlib does: see
    // `cosim/tests/work_creation.rs`).
    r.write_u32(SOFT, 6);
    r.fill(a, &[mark(0)]);
    r.fill(b, &[mark(1), mark(2)]);
    r.publish(a);
    r.publish(b);
    let t = r.finish();
    assert_eq!(t, 6);
    r.cpu_launch(0, None);
    let blocked = r.run_until_blocked();
    assert_eq!(r.history(GPU), vec![0, 1, 2, 3, 4, 5, 6]);
    // Parked inside the terminal block at entry 6: entry 7 = GP_PUT never ran.
    assert_eq!(r.reg(GPU, mmio::CH_GP_GET), 6);
    assert!(r.gpu.stopped_by().is_none());
    assert!(blocked.contains(&(GPU, 6, X)));
    assert_eq!((r.read_u32(LOG), r.read_u32(LOG + 8)), (1, 3));
}

pub fn behaviour_07_no_entry_runs_before_its_owner_publishes<G: WqGpu>() {
    let mut r = Rig::<G>::new(8, 0);
    r.cpu_launch(0, None);
    let t1 = r.reserve(1).unwrap();
    r.fill(t1, &[mark(0)]);
    r.publish(t1);
    let t2 = r.reserve(1).unwrap();
    r.fill(t2, &[mark(1)]);
    // T2 wrote everything but has not published: entry 3 must not run.
    let blocked = r.run_until_blocked();
    assert!(blocked.contains(&(GPU, 2, r.sem(2))), "{blocked:?}");
    assert_eq!((r.read_u32(LOG), r.read_u32(LOG + 4)), (1, 0));
    r.publish(t2);
    r.run_until_blocked();
    assert_eq!(r.read_u32(LOG + 4), 2);
}

pub fn behaviour_08_t2_publishing_before_t1<G: WqGpu>() {
    let mut r = Rig::<G>::new(8, 0);
    r.cpu_launch(0, None);
    let t1 = r.reserve(1).unwrap();
    let t2 = r.reserve(1).unwrap();
    assert_eq!((t1, t2), (1, 3));
    r.fill(t2, &[mark(1)]);
    r.publish(t2); // releases sem[2], T1's trailing acquire
    let blocked = r.run_until_blocked();
    // The host waits at T1's leading acquire (the driver's entry g0, sem[0]).
    assert!(blocked.contains(&(GPU, 0, r.sem(0))), "{blocked:?}");
    assert_eq!(r.read_u32(LOG + 4), 0, "T2's block ran before T1's");
    r.fill(t1, &[mark(0)]);
    r.publish(t1);
    let blocked = r.run_until_blocked();
    // T1's block ran, T1's trailing acquire passed (already released), T2's ran.
    assert_eq!((r.read_u32(LOG), r.read_u32(LOG + 4)), (1, 2));
    assert!(blocked.contains(&(GPU, 4, r.sem(4))), "{blocked:?}");
    assert_eq!(r.history(GPU), vec![0, 1, 2, 3, 4]);
    let a = r.activity(GPU);
    assert_eq!(a.entries, 4);
    // X and sem[0] (waited), T1's trailing sem[2] (held at once).
    assert_eq!((a.acquires, a.releases), (3, 2), "{a:?}");
}

pub fn behaviour_09_final_block_drains_resumes_cpu_and_parks_on_x<G: WqGpu>() {
    let mut r = Rig::<G>::new(8, 0);
    r.cpu_launch(0, None);
    let t1 = r.reserve(1).unwrap();
    let child = r.dispatch_store(LOG + 0x200, 99);
    r.fill(t1, &[vec![child]]);
    r.publish(t1);
    let t = r.finish();
    // The CPU channel's next entry records that it resumed.
    let after = r.block(&mark(9));
    r.set_entry(CPU, 1, after);
    r.gpu
        .mmio_write(mmio::channel_reg(CPU, mmio::CH_GP_PUT), 2)
        .unwrap();
    let mut y_seen_before_child = false;
    let status = r
        .run_checked(|g| {
            y_seen_before_child |= read_word(g, Y) != 0 && read_word(g, LOG + 0x200) != 99;
        })
        .unwrap();
    assert!(!y_seen_before_child, "Y released before the child's store");
    assert_eq!(r.read_u32(Y), 1);
    assert_eq!(r.read_u32(LOG + 36), 10, "the CPU channel did not resume");
    assert_eq!(blocked_list(status), vec![(GPU, t, X)]);
    assert_eq!(r.reg(GPU, mmio::CH_STATE), mmio::CH_STATE_SEMAPHORE);
    assert_eq!(r.reg(CPU, mmio::CH_STATE), mmio::CH_STATE_IDLE);
    let a = r.activity(GPU);
    assert_eq!((a.dispatches, a.idle_waits), (1, 1), "{a:?}");
}

pub fn behaviour_10_wrap_for_q6_and_q8<G: WqGpu>() {
    assert_eq!(wrap(-1, 6), 5);
    assert_eq!(wrap(6, 6), 0);
    assert_eq!(wrap(-1, 8), 7);
    assert_eq!(wrap(9, 8), 1);
    // Every x in [-q, 2q) agrees with the power-of-two form for q = 8.
    for x in -8i64..16 {
        assert_eq!(wrap(x, 8), (x & 7) as u32);
    }
    // The device agrees: a channel of Q = 6 at GP_GET 5 wraps to 0.
    let mut r = Rig::<G>::new(6, 5);
    r.write_u32(X, 1);
    let old = r.reserve(0).unwrap();
    assert_eq!(old % 6, wrap(6, 6));
    r.fill(old, &[]);
    r.publish(old);
    r.run_until_blocked();
    assert_eq!(r.history(GPU), vec![5, 0]);
}

pub fn behaviour_11_standard_channel_empty_and_full<G: WqGpu>() {
    let mut r = Rig::<G>::new(4, 0);
    r.gpu
        .mmio_write(mmio::channel_reg(GPU, mmio::CH_CONTROL), 0)
        .unwrap();
    // Channel 2: a standard channel of Q = 4, each entry a marker.
    let ring2 = RING0 + 0x800;
    for i in 0..4u32 {
        let b = r.block(&mark(20 + i));
        let bits = ChannelEntry::new(b.0, b.1).unwrap().to_bits();
        r.gpu
            .write(ring2 + 8 * u64::from(i), &bits.to_le_bytes())
            .unwrap();
    }
    // Empty: GP_GET == GP_PUT, nothing runs.
    r.program(2, ring2, 4, 2, 2);
    assert_eq!(r.run(RunUntil::Idle).unwrap(), RunStatus::Done);
    assert_eq!(r.reg(2, mmio::CH_STATE), mmio::CH_STATE_IDLE);
    assert_eq!(r.read_u32(LOG + 4 * 22), 0);
    // Full: GP_GET == (GP_PUT + 1) mod Q: Q − 1 entries run, GP_PUT's never.
    r.program(2, ring2, 4, 2, 1);
    assert!(mmio::is_full(2, 1, 4));
    assert_eq!(r.run(RunUntil::Idle).unwrap(), RunStatus::Done);
    let ran: Vec<u32> = (0..4).map(|i| r.read_u32(LOG + 4 * (20 + i))).collect();
    assert_eq!(ran, vec![21, 0, 23, 24]);
    assert_eq!(r.history(2), vec![2, 3, 0, 1]);
}

pub fn behaviour_12_threads_never_write_gp_get_or_gp_put<G: WqGpu>() {
    // The worked example, checking the registers after every step or clock
    // edge: GP_PUT never moves, and GP_GET only moves forward by one at a time.
    let mut r = worked_example_setup::<G>();
    let mut last_get = 0;
    let mut checks = 0;
    let status = r
        .run_checked(|g| {
            let put = g.mmio_read(mmio::channel_reg(GPU, mmio::CH_GP_PUT));
            assert_eq!(put, Ok(7));
            let get = g
                .mmio_read(mmio::channel_reg(GPU, mmio::CH_GP_GET))
                .unwrap();
            assert!(get == last_get || get == last_get + 1, "{last_get} → {get}");
            last_get = get;
            checks += 1;
        })
        .unwrap();
    assert!(matches!(status, RunStatus::Blocked(_)), "{status:?}");
    assert!(checks > 5);
    assert_eq!(last_get, 5);
}

/// Q = 8, g0 = 0: T1 takes 1–2, T2 takes 3–4, the terminal block is 5.
pub fn worked_example_setup<G: WqGpu>() -> Rig<G> {
    let mut r = Rig::<G>::new(8, 0);
    r.cpu_launch(0, None);
    let t1 = r.reserve(1).unwrap();
    let t2 = r.reserve(1).unwrap();
    assert_eq!((t1, t2), (1, 3));
    r.fill(t1, &[mark(1)]);
    r.fill(t2, &[mark(2)]);
    r.publish(t1);
    r.publish(t2);
    assert_eq!(r.finish(), 5);
    r
}

pub fn worked_example_q8_entry_by_entry<G: WqGpu>() {
    let mut r = worked_example_setup::<G>();
    assert_eq!(r.read_u32(SOFT), 6);
    r.run_until_blocked();
    // Entry by entry: what each holds (the first command of its block).
    let first = |r: &Rig<G>, i: u64| -> Command {
        let mut e = [0u8; 8];
        r.gpu.read(RING1 + 8 * i, &mut e).unwrap();
        let entry = ChannelEntry::from_bits(u64::from_le_bytes(e)).unwrap();
        let mut w = [0u8; 24];
        r.gpu.read(entry.address.into(), &mut w).unwrap();
        let d: Vec<u32> = w
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Command::read(&d).unwrap().0
    };
    assert_eq!(first(&r, 0), acquire(X, 1));
    assert_eq!(first(&r, 1), mark(1)[0]);
    assert_eq!(first(&r, 2), acquire(r.sem(2), 1)); // "A"
    assert_eq!(first(&r, 3), mark(2)[0]);
    assert_eq!(first(&r, 4), acquire(r.sem(4), 1)); // "B"
    assert_eq!(first(&r, 5), Command::WaitForIdle);
    // The GP_GET sequence: 0 → 1 → … → 5, parked in the terminal block.
    assert_eq!(r.history(GPU), vec![0, 1, 2, 3, 4, 5]);
    assert_eq!(r.reg(GPU, mmio::CH_GP_GET), 5);
    assert_eq!(r.reg(GPU, mmio::CH_GP_PUT), 7);
    assert_eq!((r.read_u32(X), r.read_u32(Y)), (1, 1));
    let a = r.activity(GPU);
    assert_eq!(a.entries, 5);
    // Acquires: X, sem[0], A, B (the terminal's acquire X is still waiting);
    // releases: the two marks and Y.
    assert_eq!((a.acquires, a.releases), (4, 3), "{a:?}");
    let cpu = r.activity(CPU);
    // acquire Y held once the terminal block released it; release X.
    assert_eq!((cpu.acquires, cpu.acquires_waited, cpu.releases), (1, 1, 1));
}

pub fn g0_not_zero_wraps_around_the_ring<G: WqGpu>() {
    let mut r = Rig::<G>::new(8, 5);
    r.cpu_launch(0, None);
    let t1 = r.reserve(1).unwrap(); // 6, 7
    let t2 = r.reserve(2).unwrap(); // 8, 9, 10 → entries 0, 1, 2
    assert_eq!((t1, t2), (6, 8));
    r.fill(t1, &[mark(1)]);
    r.fill(t2, &[mark(2), mark(3)]);
    r.publish(t2);
    r.publish(t1);
    let t = r.finish(); // 11 → entry 3; shadow = 12 (GP_PUT 4 never runs)
    assert_eq!(t, 11);
    let blocked = r.run_until_blocked();
    assert_eq!(r.history(GPU), vec![5, 6, 7, 0, 1, 2, 3]);
    assert_eq!(blocked, vec![(GPU, 3, X)]);
    assert_eq!(r.reg(GPU, mmio::CH_GP_PUT), 4);
    let marks: Vec<u32> = (0..3).map(|i| r.read_u32(LOG + 4 * (1 + i))).collect();
    assert_eq!(marks, vec![2, 3, 4]);
}

pub fn a_second_launch_reuses_the_channel_from_the_parked_terminal_entry<G: WqGpu>() {
    let mut r = worked_example_setup::<G>();
    r.run_until_blocked();
    assert_eq!(r.reg(GPU, mmio::CH_GP_GET), 5);
    // Launch 2: g0 = the parked terminal entry; GP_PUT = wrap(g0 − 1) again.
    r.epoch = 2;
    r.g0 = 5;
    r.gpu
        .mmio_write(mmio::channel_reg(GPU, mmio::CH_GP_PUT), wrap(4, 8))
        .unwrap();
    r.write_u32(SOFT, 6);
    r.write_u32(SHADOW, 5 + 7);
    // Before the second release of X, the old releases (epoch 1) do not let
    // the channel through: the acquire X ≥ 2 blocks again.
    let t1 = r.reserve(1).unwrap(); // 6, 7
    r.fill(t1, &[mark(7)]);
    r.publish(t1);
    let t = r.finish(); // 8 → entry 0
    assert_eq!(t, 8);
    let blocked = r.run_until_blocked();
    assert_eq!(blocked, vec![(GPU, 5, X)]);
    assert_eq!(r.read_u32(LOG + 28), 0);
    r.cpu_launch(1, None);
    let blocked = r.run_until_blocked();
    assert_eq!(r.read_u32(LOG + 28), 8);
    assert_eq!(blocked, vec![(GPU, 0, X)]);
    assert_eq!(r.read_u32(Y), 2);
    assert_eq!(r.history(GPU), vec![0, 1, 2, 3, 4, 5, 6, 7, 0]);
}

pub fn a_thread_that_never_publishes_is_a_deadlock_naming_channel_entry_and_semaphore<G: WqGpu>() {
    let mut r = Rig::<G>::new(8, 0);
    r.cpu_launch(0, None);
    let t1 = r.reserve(1).unwrap();
    r.fill(t1, &[mark(0)]);
    r.publish(t1);
    let t2 = r.reserve(1).unwrap();
    r.fill(t2, &[mark(1)]); // written, never published
    let blocked = match r.run(RunUntil::Idle).unwrap() {
        RunStatus::Blocked(list) => list,
        other => panic!("{other:?}"),
    };
    let text: Vec<String> = blocked.iter().map(|b| b.to_string()).collect();
    assert_eq!(text.len(), 2, "{text:?}");
    assert!(text.contains(&format!(
        "front end blocked on channel 0 at entry 0 waiting for [{Y:#x}] >= 1 (it holds 0)"
    )));
    assert!(text.contains(&format!(
        "front end blocked on channel 1 at entry 2 waiting for [{:#x}] >= 1 (it holds 0)",
        r.sem(2)
    )));
}

pub fn a_malformed_gpu_written_block_faults_naming_channel_entry_and_offset<G: WqGpu>() {
    let mut r = Rig::<G>::new(8, 0);
    r.cpu_launch(0, None);
    let t1 = r.reserve(1).unwrap();
    // Block: a good release, then a header with reserved bits set (offset 4).
    let b = r.block(&[
        Command::SemaphoreRelease {
            address: LOG,
            payload: 1,
        },
        Command::WaitForIdle,
    ]);
    r.gpu
        .write(b.0 + 16, &0x0000_0102u32.to_le_bytes())
        .unwrap();
    r.set_entry(GPU, t1, b);
    let trailing = r.block(&[acquire(r.sem(t1 + 1), 1)]);
    r.set_entry(GPU, t1 + 1, trailing);
    r.publish(t1);
    let err = r.run(RunUntil::Idle).unwrap_err();
    let fault = r.gpu.stopped_by().unwrap();
    match &fault.kind {
        FaultKind::Command {
            channel,
            entry,
            reason,
        } => {
            assert_eq!((*channel, *entry), (GPU, 1));
            assert!(reason.contains("offset 4 dwords"), "{reason}");
            assert!(reason.contains(&format!("block {:#x}", b.0)), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().contains("channel 1"), "{err}");
    assert_eq!(r.reg(GPU, mmio::CH_STATE), mmio::CH_STATE_ERROR);
    assert_eq!(r.read_u32(LOG), 1);
}
