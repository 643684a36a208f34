//! The lockstep stepping API (`golden::lockstep`): a dispatch prepared from its
//! packet in memory and stepped wave by wave, round-robin, ends with the same
//! memory, wave state and statistics as the same dispatch run by the golden
//! front end and scheduler; and misuse is an error value.

use arch::device::{Device, FaultKind, WaveId};
use arch::isa::{Opcode, Target};
use golden::exec::Flow;
use golden::testing::round_robin::run_round_robin;
use golden::testing::{Kernel, BLOCK, DATA};
use golden::wave::Wave;
use golden::{GoldenGpu, LockstepError};

/// Work-items per workgroup of the kernels below.
const WG: u32 = 128;

/// Each work-item stores its local id in LDS, waits at a barrier, reads the
/// mirrored slot (`WG - 1 - tid`), adds 0 + 1 + 2 + 3 in a scalar loop (the
/// branch goes back 4 dwords to the `v_add`), and
/// stores the result at `DATA + 4 * global id`; a second barrier separates
/// that from a last LDS write of `tid + 1000` (left in LDS, not in memory).
fn kernel(target: Target, workgroups: u32) -> Kernel {
    let source = format!(
        "v_lshlrev_b32 v1, 2, v0
         ds_write_b32 v1, v0
         s_waitcnt lgkmcnt(0)
         s_barrier
         v_sub_nc_u32 v2, {last}, v0
         v_lshlrev_b32 v2, 2, v2
         ds_read_b32 v3, v2
         s_waitcnt lgkmcnt(0)
         s_mov_b32 s8, 0
         v_add_nc_u32 v3, s8, v3
         s_add_u32 s8, s8, 1
         s_cmp_lt_u32 s8, 4
         s_cbranch_scc1 0xfffc
         s_lshl_b32 s5, s4, 7
         v_add_nc_u32 v4, s5, v0
         v_lshlrev_b32 v4, 2, v4
         s_mov_b32 s6, {data:#x}
         s_mov_b32 s7, 0
         global_store_dword v4, v3, s[6:7]
         s_barrier
         v_add_nc_u32 v5, 1000, v0
         ds_write_b32 v1, v5
         s_waitcnt lgkmcnt(0)
         s_endpgm",
        last = WG - 1,
        data = DATA
    );
    let mut k = Kernel::new(target, &source).grid([WG * workgroups, 1, 1], [WG as u16, 1, 1]);
    k.descriptor.group_segment_fixed_size = 4 * WG;
    k
}

fn snapshot(gpu: &GoldenGpu, address: u64, len: usize) -> Vec<u8> {
    let mut out = vec![0; len];
    gpu.read(address, &mut out).expect("mapped");
    out
}

/// A wave's id, SGPRs, VGPRs, SCC, pc and MODE.
type WaveState = (WaveId, [u32; 128], Vec<[u32; 64]>, bool, u64, u32);

/// Final wave states sorted by id, as comparable tuples.
fn wave_states(waves: &[Wave]) -> Vec<WaveState> {
    let mut v: Vec<_> = waves
        .iter()
        .map(|w| (w.id, w.sgpr, w.vgpr.clone(), w.scc, w.pc, w.mode))
        .collect();
    v.sort_by_key(|s| (s.0.dispatch, s.0.workgroup, s.0.wave));
    v
}

/// Prepares the dispatch `Kernel::load` queued (channel 0, entry 0, packet
/// after the DISPATCH header at `BLOCK`) for lockstep.
fn prepared(k: &Kernel) -> GoldenGpu {
    let mut gpu = k.load().expect("load");
    gpu.prepare_dispatch(0, 0, 0, BLOCK + 4).expect("prepare");
    gpu
}

#[test]
fn round_robin_stepping_matches_the_run_loop_in_both_wave_sizes() {
    for target in [Target::GFX1030_W32, Target::GFX1030_W64] {
        for max_resident in [1, 2, 8] {
            let k = kernel(target, 3);
            let reference = k.run().expect("run");
            let mut gpu = prepared(&k);
            let report = run_round_robin(&mut gpu, 0, max_resident).expect("lockstep");
            let waves_per_wg = (WG / target.wave_size()) as usize;
            assert_eq!(report.per_wave.len(), 3 * waves_per_wg);
            // Two barriers per wave.
            assert_eq!(report.barriers, 2 * report.per_wave.len() as u64);
            // The known answer, independent of either run.
            let out = snapshot(&gpu, DATA, 4 * 3 * WG as usize);
            for (g, word) in out.chunks(4).enumerate() {
                let tid = g as u32 % WG;
                let v = u32::from_le_bytes(word.try_into().unwrap());
                assert_eq!(v, WG - 1 - tid + 6, "{target:?} item {g}");
            }
            assert_eq!(out, reference.read(DATA, out.len()));
            // Wave states and instruction counts: per wave (every wave runs
            // the same straight-line-plus-loop program) and in total.
            assert_eq!(
                wave_states(gpu.finished_waves()),
                wave_states(&reference.waves)
            );
            // 9 instructions, 4 loop trips of 4, then 11.
            let per_wave = 9 + 4 * 4 + 11;
            assert!(report.per_wave.iter().all(|&(_, n)| n == per_wave));
            let (ours, theirs) = (gpu.stats(), reference.stats());
            assert_eq!(report.instructions, ours.instructions);
            assert_eq!(ours.instructions, theirs.instructions);
            assert_eq!(ours.instructions_by_class, theirs.instructions_by_class);
            assert_eq!(
                ours.active_lane_instructions,
                theirs.active_lane_instructions
            );
            assert_eq!((ours.workgroups, ours.waves), (3, 3 * waves_per_wg as u64));
            assert!(gpu.dispatch_env(0).is_none(), "the dispatch is forgotten");
            assert!(gpu.resident_waves().next().is_none());
        }
    }
}

#[test]
fn stepping_reports_pc_instruction_flow_and_keeps_lds_and_ended_waves() {
    let k = kernel(Target::GFX1030_W32, 2);
    let mut gpu = prepared(&k);
    let env = gpu.dispatch_env(0).expect("prepared");
    assert_eq!((env.workgroups, env.lds_bytes), ([2, 1, 1], 4 * WG));
    let entry = env.code_entry;
    assert_eq!(gpu.launch_workgroup(0, [1, 0, 0]), Ok(4));
    assert_eq!(gpu.lds(0, [1, 0, 0]), Some(&[0u8; 4 * WG as usize][..]));
    assert_eq!(gpu.lds(0, [0, 0, 0]), None);
    let id = |wave| WaveId {
        dispatch: 0,
        workgroup: [1, 0, 0],
        wave,
    };
    // Initial state as the dispatcher makes it: workgroup id X in s4, local
    // ids in v0, full EXEC.
    let w2 = gpu.wave(id(2)).expect("resident");
    assert_eq!((w2.pc, w2.sgpr[4], w2.exec()), (entry, 1, 0xffff_ffff));
    assert_eq!(w2.vgpr[0][5], 2 * 32 + 5);

    let s = gpu.step_wave(id(2)).expect("step");
    assert_eq!((s.pc, s.seq, s.exec), (entry, 0, 0xffff_ffff));
    assert_eq!(s.inst.opcode, Opcode::V_LSHLREV_B32);
    assert_eq!((s.flow, s.next_pc), (Flow::Next, entry + 4));
    let s = gpu.step_wave(id(2)).expect("step");
    assert_eq!(s.inst.opcode, Opcode::DS_WRITE_B32);
    // Wave 2 wrote its lanes' slots 64..96 and nothing else.
    let lds = gpu.lds(0, [1, 0, 0]).expect("resident");
    let word = |i: usize| u32::from_le_bytes(lds[4 * i..4 * i + 4].try_into().unwrap());
    assert_eq!((word(63), word(64), word(95), word(96)), (0, 64, 95, 0));
    gpu.step_wave(id(2)).expect("waitcnt");
    let s = gpu.step_wave(id(2)).expect("barrier");
    assert!(s.barrier() && !s.ended() && !s.jumped());
    // A barrier does not hold the wave here: the next instruction steps at once.
    let s = gpu.step_wave(id(2)).expect("past the barrier");
    assert_eq!((s.seq, s.inst.opcode), (4, Opcode::V_SUB_NC_U32));
    assert_eq!(gpu.wave_instructions(id(2)), Some(5));
    assert_eq!(gpu.wave_instructions(id(1)), Some(0));

    // Run wave 2 to its end: the loop branch jumps three times.
    let mut jumps = 0;
    loop {
        let s = gpu.step_wave(id(2)).expect("step");
        jumps += u32::from(s.jumped());
        if s.ended() {
            assert_eq!(s.inst.opcode, Opcode::S_ENDPGM);
            assert_eq!(s.next_pc, s.pc, "s_endpgm leaves the pc");
            break;
        }
    }
    assert_eq!(jumps, 3);
    assert_eq!(gpu.step_wave(id(2)), Err(LockstepError::WaveEnded(id(2))));
    // Ended, still readable; the workgroup cannot be released before the rest.
    assert!(gpu.wave(id(2)).is_some());
    let at = gpu.wave(id(0)).expect("resident").pc;
    assert_eq!(
        gpu.release_workgroup(0, [1, 0, 0]),
        Err(LockstepError::WaveNotEnded(id(0), at))
    );
    assert_eq!(
        gpu.complete_dispatch_silently(0),
        Err(LockstepError::WorkgroupsResident {
            dispatch: 0,
            resident: 1
        })
    );
    for w in [0, 1, 3] {
        while !gpu.step_wave(id(w)).expect("step").ended() {}
    }
    // The last LDS writes (tid + 1000) of all four waves are there.
    let lds = gpu.lds(0, [1, 0, 0]).expect("resident");
    let word = |i: usize| u32::from_le_bytes(lds[4 * i..4 * i + 4].try_into().unwrap());
    assert_eq!((word(0), word(127)), (1000, 1127));
    gpu.release_workgroup(0, [1, 0, 0]).expect("release");
    assert!(gpu.wave(id(0)).is_none());
    assert_eq!(gpu.step_wave(id(0)), Err(LockstepError::UnknownWave(id(0))));
    // Workgroup 0 never ran: its outputs are still zero. Workgroup 1's show
    // the order the waves were stepped in, barriers ignored: wave 0 (tid 0)
    // read slot 127 before wave 3 wrote it; wave 1 (tid 32) read slot 95
    // after wave 2 had rewritten it with 95 + 1000.
    let out = snapshot(&gpu, DATA, 4 * 2 * WG as usize);
    assert!(out[..4 * WG as usize].iter().all(|&b| b == 0));
    let item = |g: usize| u32::from_le_bytes(out[4 * g..4 * g + 4].try_into().unwrap());
    assert_eq!((item(128), item(128 + 32)), (6, 1095 + 6));
    assert_eq!(gpu.stats().instructions, 4 * 36);
}

#[test]
fn misuse_is_an_error_value() {
    let k = kernel(Target::GFX1030_W64, 2);
    let mut gpu = k.load().expect("load");
    assert_eq!(
        gpu.launch_workgroup(0, [0, 0, 0]),
        Err(LockstepError::UnknownDispatch(0))
    );
    gpu.prepare_dispatch(7, 0, 0, BLOCK + 4).expect("prepare");
    assert_eq!(
        gpu.prepare_dispatch(7, 0, 0, BLOCK + 4),
        Err(LockstepError::DispatchExists(7))
    );
    assert_eq!(
        gpu.launch_workgroup(7, [2, 0, 0]),
        Err(LockstepError::NoSuchWorkgroup {
            dispatch: 7,
            workgroup: [2, 0, 0],
            grid: [2, 1, 1]
        })
    );
    assert_eq!(gpu.launch_workgroup(7, [0, 0, 0]), Ok(2));
    assert_eq!(
        gpu.launch_workgroup(7, [0, 0, 0]),
        Err(LockstepError::WorkgroupExists {
            dispatch: 7,
            workgroup: [0, 0, 0]
        })
    );
    let bad = WaveId {
        dispatch: 7,
        workgroup: [0, 0, 0],
        wave: 2,
    };
    assert_eq!(gpu.step_wave(bad), Err(LockstepError::UnknownWave(bad)));
    assert!(gpu.wave(bad).is_none());
    assert_eq!(
        gpu.release_workgroup(7, [1, 0, 0]),
        Err(LockstepError::UnknownWorkgroup {
            dispatch: 7,
            workgroup: [1, 0, 0]
        })
    );
    // The dispatch number is the harness's: it reaches the dispatch id SGPR
    // pair when the kernel asks for it, and the wave ids.
    assert_eq!(
        gpu.wave(WaveId { wave: 1, ..bad }).map(|w| w.id.dispatch),
        Some(7)
    );
    // A packet the front end would reject is a Command fault naming the
    // channel and entry given.
    let mut gpu = k.load().expect("load");
    let e = gpu
        .prepare_dispatch(0, 3, 5, DATA)
        .expect_err("zero packet");
    let LockstepError::Fault(f) = e else {
        panic!("{e:?}")
    };
    assert!(
        matches!(
            f.kind,
            FaultKind::Command {
                channel: 3,
                entry: 5,
                ..
            }
        ),
        "{f:?}"
    );
    assert_eq!(gpu.fault(), Some(&*f));
    let e = gpu
        .prepare_dispatch(0, 0, 0, 0x7000_0000)
        .expect_err("unmapped");
    assert!(e.to_string().contains("not mapped"), "{e}");
}

#[test]
fn a_fault_while_stepping_matches_the_run_loop() {
    // The store goes to an unmapped address: both paths report the same fault.
    let k = Kernel::new(
        Target::GFX1030_W32,
        "v_mov_b32 v1, 0
         s_mov_b32 s6, 0
         s_mov_b32 s7, 0x40
         global_store_dword v1, v1, s[6:7]
         s_endpgm",
    );
    let run = k.run().expect_err("the run faults");
    let mut gpu = prepared(&k);
    gpu.launch_workgroup(0, [0, 0, 0]).expect("launch");
    let id = WaveId::default();
    for _ in 0..3 {
        gpu.step_wave(id).expect("step");
    }
    let LockstepError::Fault(f) = gpu.step_wave(id).expect_err("fault") else {
        panic!("not a fault")
    };
    assert_eq!(f.wave, Some(id));
    assert_eq!(
        f.pc,
        Some(gpu.dispatch_env(0).expect("in flight").code_entry + 12)
    );
    assert!(
        matches!(f.kind, FaultKind::MemoryViolation { write: true, .. }),
        "{f:?}"
    );
    // The run loop's fault, as text, names the same instruction.
    let text = f.instruction.clone().expect("decoded");
    assert!(run.contains(&text), "{run} / {text}");
}
