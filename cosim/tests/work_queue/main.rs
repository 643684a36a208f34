//! Seed 001 §6, behaviours 1–12, the §4 worked example and the failure
//! reports, on both GPUs: every scenario of `scenarios.rs` is one named test in
//! module `golden` (the functional `golden::GoldenGpu`) and one in module
//! `clocked` (`hw::ClockedGpu`). The host stands in for the kernel threads (it
//! does their atomic add on soft GP_PUT, writes their command blocks and
//! entries, and releases their semaphores between `run` calls); the same
//! protocol driven by real kernel threads through `sw/devlib/gpusim_work.h` is
//! tested in `cosim/tests/work_creation.rs`.
//!
//! Layout: channel 0 is the CPU channel, channel 1 the GPU-owned one. The
//! semaphore rule is the one of `docs/work-creation.md`: launch `e` releases
//! with payload `e`, every acquire compares `≥ e`. GP_GET histories and the
//! other per-channel counts come from each model's statistics.

mod rig;
mod scenarios;

mod latency;

/// One `#[test]` per scenario, run on `$gpu`.
macro_rules! work_queue_tests {
    ($gpu:ty; $($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                crate::scenarios::$name::<$gpu>();
            }
        )*
    };
}

/// Every scenario (§6 behaviour 5 with real threads is in `work_creation.rs`
/// too).
macro_rules! all_scenarios {
    ($gpu:ty) => {
        work_queue_tests!($gpu;
            behaviour_01_initial_state_for_any_g0,
            behaviour_02_gpu_channel_stays_at_g0_until_x_is_released,
            behaviour_03_cpu_channel_launch_wfi_release_x_acquire_y,
            behaviour_04_after_release_x_gp_get_is_g0_plus_1,
            behaviour_05_many_threads_get_separate_contiguous_ranges_in_atomic_order,
            behaviour_06_room_check_and_the_entry_at_gp_put_never_runs,
            behaviour_07_no_entry_runs_before_its_owner_publishes,
            behaviour_08_t2_publishing_before_t1,
            behaviour_09_final_block_drains_resumes_cpu_and_parks_on_x,
            behaviour_10_wrap_for_q6_and_q8,
            behaviour_11_standard_channel_empty_and_full,
            behaviour_12_threads_never_write_gp_get_or_gp_put,
            worked_example_q8_entry_by_entry,
            g0_not_zero_wraps_around_the_ring,
            a_second_launch_reuses_the_channel_from_the_parked_terminal_entry,
            a_thread_that_never_publishes_is_a_deadlock_naming_channel_entry_and_semaphore,
            a_malformed_gpu_written_block_faults_naming_channel_entry_and_offset,
        );
    };
}

mod golden {
    all_scenarios!(::golden::GoldenGpu);
}

mod clocked {
    all_scenarios!(::hw::ClockedGpu);
}

/// Both models report the same per-channel counts (entries, commands,
/// dispatches, acquires, releases, GP_GET history) for the same scenario, a
/// dispatch and a WAIT_FOR_IDLE that waits for it included; the waits differ
/// (steps against cycles, and what a wait is depends on timing).
#[test]
fn both_models_report_the_same_channel_activity() {
    use rig::{CPU, GPU, LOG};
    fn run<G: rig::WqGpu>() -> Vec<rig::Activity> {
        let mut r = rig::Rig::<G>::new(8, 0);
        let parent = r.dispatch_store(LOG + 0x100, 5);
        r.cpu_launch(0, Some(parent));
        let t1 = r.reserve(2).unwrap();
        let child = r.dispatch_store(LOG + 0x104, 6);
        r.fill(t1, &[vec![child], rig::mark(0)]);
        r.publish(t1);
        r.finish();
        r.run_until_blocked();
        assert_eq!((r.read_u32(LOG + 0x100), r.read_u32(LOG + 0x104)), (5, 6));
        vec![r.activity(CPU), r.activity(GPU)]
    }
    let golden = run::<::golden::GoldenGpu>();
    let clocked = run::<::hw::ClockedGpu>();
    let counts = |v: &[rig::Activity]| v.iter().map(rig::Activity::counts).collect::<Vec<_>>();
    assert_eq!(counts(&golden), counts(&clocked));
    assert_eq!(golden[GPU as usize].history, vec![0, 1, 2, 3, 4]);
    assert_eq!(golden[GPU as usize].dispatches, 1);
    for a in golden.iter().chain(&clocked) {
        // Both WAIT_FOR_IDLEs wait for a 300-iteration kernel.
        assert_eq!(a.idle_waits, 1, "{a:?}");
        assert!(a.idle_wait >= 900, "{a:?}");
    }
}
