//! Golden model as a `Device`: dispatcher initial state, front end (channels,
//! priorities, semaphores, wait-for-idle, wrap), MMIO, faults, watchdog,
//! determinism and statistics.

use arch::code_object::{ComputePgmRsrc2, KernelCodeProperties};
use arch::command::{ChannelEntry, Command, SemaphoreCompare};
use arch::device::{Device, DeviceError, FaultKind, RunStatus, RunUntil};
use arch::isa::Target;
use arch::mmio;
use golden::testing::{Kernel, BLOCK, DATA, DESCRIPTOR, RING, SCRATCH};
use golden::{GoldenConfig, GoldenGpu};

/// Writes `commands` as a block at `block` and as ring entry `index` of channel 0.
fn add_entry(gpu: &mut GoldenGpu, index: u64, block: u64, commands: &[Command]) {
    let mut words = Vec::new();
    for c in commands {
        c.write(&mut words);
    }
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    gpu.write(block, &bytes).unwrap();
    let entry = ChannelEntry::new(block, words.len() as u16).unwrap();
    gpu.write(RING + 8 * index, &entry.to_bits().to_le_bytes())
        .unwrap();
}

fn put(gpu: &mut GoldenGpu, channel: u32, value: u32) {
    gpu.mmio_write(mmio::channel_reg(channel, mmio::CH_GP_PUT), value)
        .unwrap();
}

fn reg(gpu: &mut GoldenGpu, channel: u32, r: u32) -> u32 {
    gpu.mmio_read(mmio::channel_reg(channel, r)).unwrap()
}

fn word(gpu: &GoldenGpu, address: u64) -> u32 {
    let mut b = [0u8; 4];
    gpu.read(address, &mut b).unwrap();
    u32::from_le_bytes(b)
}

#[test]
fn initial_state_partial_workgroups_wave32() {
    let mut k = Kernel::new(Target::GFX1030_W32, "s_endpgm").grid([40, 3, 1], [16, 2, 1]);
    // USER_SGPR_COUNT 4; workgroup id X, Y, Z, workgroup info; work-item ids X, Y, Z.
    k.descriptor.compute_pgm_rsrc2 =
        ComputePgmRsrc2::from_bits(4 << 1 | 1 << 7 | 1 << 8 | 1 << 9 | 1 << 10 | 2 << 11);
    let done = k.run().unwrap();
    // 3 x 2 workgroups of one wave each.
    assert_eq!(done.waves.len(), 6);
    let find = |x, y| {
        done.waves
            .iter()
            .find(|w| w.id.workgroup == [x, y, 0])
            .unwrap()
    };
    let full = find(0, 0);
    assert_eq!(full.exec(), 0xffff_ffff);
    assert_eq!(&full.sgpr[4..8], &[0, 0, 0, 1 << 31 | 1]);
    // Lane 17 is work-item (1, 1) of a 16 x 2 workgroup.
    assert_eq!(
        (full.vgpr[0][17], full.vgpr[1][17], full.vgpr[2][17]),
        (1, 1, 0)
    );
    // Last workgroup: x has 40 - 32 = 8 items, y has 3 - 2 = 1: 8 lanes.
    let last = find(2, 1);
    assert_eq!(last.exec(), 0xff);
    assert_eq!(&last.sgpr[4..7], &[2, 1, 0]);
    assert_eq!(last.vgpr[0][7], 7);
    assert_eq!(last.vgpr[0][8], 0, "lanes beyond the workgroup stay zero");
    assert_eq!(last.vgpr[1][3], 0);
    // Partial in y only: 16 x 1 items.
    assert_eq!(find(1, 1).exec(), 0xffff);
    // Wave32 descriptors allocate VGPRs in blocks of 8: 64 blocks -> 256 (capped).
    assert_eq!(full.vgpr.len(), 256);
}

#[test]
fn initial_state_wave64_on_gfx1030_two_waves() {
    let mut k = Kernel::new(Target::GFX1030_W64, "s_endpgm").grid([100, 1, 1], [100, 1, 1]);
    k.descriptor.compute_pgm_rsrc2 = ComputePgmRsrc2::from_bits(4 << 1 | 1 << 7 | 1 << 10);
    // 3 VGPR blocks of 4 in wave64.
    k.descriptor.compute_pgm_rsrc1 = arch::code_object::ComputePgmRsrc1::from_bits(3);
    let done = k.run().unwrap();
    assert_eq!(done.waves.len(), 2);
    let w1 = done.waves.iter().find(|w| w.id.wave == 1).unwrap();
    assert_eq!(w1.exec(), (1 << 36) - 1);
    assert_eq!(w1.vgpr[0][0], 64);
    assert_eq!(w1.sgpr[5], 2, "workgroup info: not first, 2 waves");
    let w0 = done.waves.iter().find(|w| w.id.wave == 0).unwrap();
    assert_eq!(w0.sgpr[5], 1 << 31 | 2);
    assert_eq!(w0.vgpr.len(), 16);
}

#[test]
fn scratch_setup_gfx803_and_gfx1030() {
    for target in [Target::GFX803, Target::GFX1030_W32] {
        let mut k = Kernel::new(target, "s_endpgm").grid([128, 1, 1], [64, 1, 1]);
        k.descriptor.private_segment_fixed_size = 18; // rounded up to 20
        k.descriptor.kernel_code_properties = KernelCodeProperties {
            enable_sgpr_private_segment_buffer: true,
            enable_sgpr_dispatch_ptr: true,
            enable_sgpr_kernarg_segment_ptr: true,
            enable_sgpr_flat_scratch_init: true,
            enable_wavefront_size32: !target.wave64,
            ..KernelCodeProperties::default()
        };
        // USER_SGPR_COUNT 10, workgroup id X, scratch wave offset.
        k.descriptor.compute_pgm_rsrc2 = ComputePgmRsrc2::from_bits(1 | 10 << 1 | 1 << 7);
        let done = k.run().unwrap();
        let lanes = target.wave_size();
        let waves = 128 / lanes;
        assert_eq!(done.waves.len() as u32, waves);
        for w in &done.waves {
            let slot = w.id.workgroup[0] * (64 / lanes) + w.id.wave;
            // V#: base, swizzle enable, no range, swizzled 4-byte elements.
            assert_eq!(w.sgpr[0], SCRATCH as u32);
            assert_eq!(w.sgpr[1], 1 << 31);
            assert_eq!(w.sgpr[2], u32::MAX);
            assert_eq!(w.sgpr[3] >> 23 & 1, 1, "ADD_TID_ENABLE");
            assert_eq!(w.sgpr[4], BLOCK as u32 + 4);
            match target.isa {
                arch::isa::Isa::Gfx803 => assert_eq!(&w.sgpr[8..10], &[SCRATCH as u32, 20]),
                arch::isa::Isa::Gfx1030 => assert_eq!(&w.sgpr[8..10], &[SCRATCH as u32, 0]),
            }
            assert_eq!(w.sgpr[10], w.id.workgroup[0]);
            assert_eq!(w.sgpr[11], slot * 20 * lanes, "scratch wave offset");
        }
    }
    // A kernel that needs scratch without a backing store is a command fault.
    let mut k = Kernel::new(Target::GFX803, "s_endpgm");
    k.descriptor.private_segment_fixed_size = 4;
    let mut gpu = k.load().unwrap();
    // Rewrite the packet's scratch_address (payload dwords 12-13) to 0.
    gpu.write(BLOCK + 4 + 48, &[0; 8]).unwrap();
    let err = gpu.run(RunUntil::Idle).unwrap_err().to_string();
    assert!(err.contains("channel 0 entry 0"), "{err}");
    assert!(err.contains("scratch_address is 0"), "{err}");
}

#[test]
fn semaphores_block_and_release() {
    let sem = DATA + 0x100;
    let mut gpu = Kernel::new(Target::GFX1030_W32, "s_endpgm").load().unwrap();
    add_entry(
        &mut gpu,
        1,
        BLOCK + 0x100,
        &[
            Command::SemaphoreAcquire {
                address: sem,
                payload: 5,
                compare: SemaphoreCompare::GreaterOrEqual,
            },
            Command::SemaphoreRelease {
                address: sem + 4,
                payload: 77,
            },
        ],
    );
    put(&mut gpu, 0, 2);
    let status = gpu.run(RunUntil::Idle).unwrap();
    let RunStatus::Blocked(list) = status else {
        panic!("expected Blocked, got {status:?}");
    };
    assert_eq!(list.len(), 1);
    assert_eq!(
        list[0].to_string(),
        format!(
            "front end blocked on channel 0 at entry 1 waiting for [{sem:#x}] >= 5 (it holds 0)"
        )
    );
    assert_eq!(reg(&mut gpu, 0, mmio::CH_STATE), mmio::CH_STATE_SEMAPHORE);
    assert_eq!(word(&gpu, sem + 4), 0);
    gpu.write(sem, &4u32.to_le_bytes()).unwrap();
    assert!(matches!(gpu.run(RunUntil::Idle), Ok(RunStatus::Blocked(_))));
    gpu.write(sem, &6u32.to_le_bytes()).unwrap();
    assert_eq!(gpu.run(RunUntil::Idle), Ok(RunStatus::Done));
    assert_eq!(word(&gpu, sem + 4), 77);
    assert_eq!(reg(&mut gpu, 0, mmio::CH_GP_GET), 2);
    assert_eq!(reg(&mut gpu, 0, mmio::CH_STATE), mmio::CH_STATE_IDLE);
    // RunUntil::Word on the released word is already satisfied.
    let until = RunUntil::Word {
        address: sem + 4,
        value: 77,
        compare: SemaphoreCompare::Equal,
    };
    assert_eq!(gpu.run(until), Ok(RunStatus::Done));
}

#[test]
fn gpu_owned_channel_waits_on_entries_written_later() {
    // Seed 001 §3 initialisation: g0 = 3, GP_PUT = wrap(g0 - 1) = 2 (full ring),
    // entry g0 acquires X == 1. The "threads" (here: the host) then fill entries.
    let x = DATA + 0x200;
    let y = DATA + 0x204;
    let mut gpu = GoldenGpu::new(GoldenConfig::new(arch::isa::Isa::Gfx1030)).unwrap();
    gpu.map(RING, 0x1000).unwrap();
    gpu.map(BLOCK, 0x1000).unwrap();
    gpu.map(DATA, 0x1000).unwrap();
    let acquire = |address, payload| Command::SemaphoreAcquire {
        address,
        payload,
        compare: SemaphoreCompare::Equal,
    };
    add_entry(&mut gpu, 3, BLOCK, &[acquire(x, 1)]);
    for (r, v) in [
        (mmio::CH_BASE_LO, RING as u32),
        (mmio::CH_SIZE, 8),
        (mmio::CH_GP_GET, 3),
        (mmio::CH_GP_PUT, 2),
        (mmio::CH_CONTROL, 1),
    ] {
        gpu.mmio_write(mmio::channel_reg(0, r), v).unwrap();
    }
    let RunStatus::Blocked(b) = gpu.run(RunUntil::Idle).unwrap() else {
        panic!("not blocked")
    };
    assert_eq!((b[0].entry, b[0].address), (3, x));
    add_entry(
        &mut gpu,
        4,
        BLOCK + 0x40,
        &[Command::SemaphoreRelease {
            address: y,
            payload: 9,
        }],
    );
    add_entry(&mut gpu, 5, BLOCK + 0x80, &[acquire(x, 2)]);
    gpu.write(x, &1u32.to_le_bytes()).unwrap();
    let RunStatus::Blocked(b) = gpu.run(RunUntil::Idle).unwrap() else {
        panic!("not blocked")
    };
    assert_eq!((b[0].entry, b[0].payload, b[0].current), (5, 2, 1));
    assert_eq!(word(&gpu, y), 9);
    assert_eq!(reg(&mut gpu, 0, mmio::CH_GP_GET), 5);
}

#[test]
fn priorities_and_round_robin_one_command_per_step() {
    let x = DATA;
    let mut gpu = GoldenGpu::new(GoldenConfig::new(arch::isa::Isa::Gfx803)).unwrap();
    gpu.map(RING, 0x1000).unwrap();
    gpu.map(BLOCK, 0x1000).unwrap();
    gpu.map(DATA, 0x1000).unwrap();
    // Channel 0 ring at RING (entries 0, 1), channel 1 ring at RING + 0x100.
    let release = |payload| Command::SemaphoreRelease {
        address: x,
        payload,
    };
    add_entry(&mut gpu, 0, BLOCK, &[release(10)]);
    add_entry(&mut gpu, 1, BLOCK + 0x10, &[release(11)]);
    add_entry(&mut gpu, 32, BLOCK + 0x20, &[release(20)]);
    add_entry(&mut gpu, 33, BLOCK + 0x30, &[release(21)]);
    let setup = |gpu: &mut GoldenGpu, prio: [u32; 2]| {
        for ch in 0..2u32 {
            gpu.mmio_write(mmio::channel_reg(ch, mmio::CH_CONTROL), 0)
                .unwrap();
            for (r, v) in [
                (mmio::CH_BASE_LO, RING as u32 + 0x100 * ch),
                (mmio::CH_SIZE, 4),
                (mmio::CH_GP_GET, 0),
                (mmio::CH_GP_PUT, 2),
                (mmio::CH_PRIORITY, prio[ch as usize]),
                (mmio::CH_CONTROL, 1),
            ] {
                gpu.mmio_write(mmio::channel_reg(ch, r), v).unwrap();
            }
        }
    };
    let trace = |gpu: &mut GoldenGpu| -> Vec<u32> {
        (0..4)
            .map(|_| {
                assert_eq!(gpu.run(RunUntil::Cycles(1)), Ok(RunStatus::BudgetExhausted));
                word(gpu, x)
            })
            .collect()
    };
    // Equal priorities: round-robin, starting after channel 0.
    setup(&mut gpu, [0, 0]);
    assert_eq!(trace(&mut gpu), [20, 10, 21, 11]);
    // Channel 0 higher: it drains first.
    setup(&mut gpu, [5, 1]);
    assert_eq!(trace(&mut gpu), [10, 11, 20, 21]);
    setup(&mut gpu, [1, 5]);
    assert_eq!(trace(&mut gpu), [20, 21, 10, 11]);
    assert_eq!(gpu.run(RunUntil::Idle), Ok(RunStatus::Done));
}

#[test]
fn wait_for_idle_waits_for_earlier_dispatches() {
    // 200 iterations of a 3-instruction loop: ~600 steps.
    let src = "
        s_movk_i32 s10, 0xc8
        s_sub_u32 s10, s10, 1
        s_cmp_lg_u32 s10, 0
        s_cbranch_scc1 0xfffd
        s_endpgm";
    let flag = DATA + 0x40;
    let mut gpu = Kernel::new(Target::GFX803, src).load().unwrap();
    add_entry(
        &mut gpu,
        1,
        BLOCK + 0x100,
        &[
            Command::WaitForIdle,
            Command::SemaphoreRelease {
                address: flag,
                payload: 1,
            },
        ],
    );
    put(&mut gpu, 0, 2);
    assert_eq!(
        gpu.run(RunUntil::Cycles(50)),
        Ok(RunStatus::BudgetExhausted)
    );
    assert_eq!(reg(&mut gpu, 0, mmio::CH_STATE), mmio::CH_STATE_WAIT_IDLE);
    assert_eq!(reg(&mut gpu, 0, mmio::CH_GP_GET), 1);
    assert_eq!(word(&gpu, flag), 0);
    assert_ne!(gpu.mmio_read(mmio::STATUS).unwrap() & mmio::STATUS_BUSY, 0);
    assert_eq!(
        gpu.run(RunUntil::Word {
            address: flag,
            value: 1,
            compare: SemaphoreCompare::Equal
        }),
        Ok(RunStatus::Done)
    );
    assert_eq!(gpu.stats().instructions, 2 + 3 * 200);
    assert_eq!(gpu.mmio_read(mmio::STATUS).unwrap(), 0);
}

#[test]
fn ring_wraps_and_mmio_rules() {
    let mut gpu = Kernel::new(Target::GFX1030_W64, "s_endpgm").load().unwrap();
    assert_eq!(gpu.mmio_read(mmio::GPU_ID), Ok(mmio::GPU_ID_GFX1030));
    assert_eq!(gpu.mmio_read(mmio::CHANNEL_COUNT), Ok(4));
    assert!(matches!(
        gpu.mmio_write(mmio::STATUS, 1),
        Err(DeviceError::Mmio { .. })
    ));
    assert!(gpu.mmio_read(mmio::channel_reg(7, mmio::CH_SIZE)).is_err());
    // GP_GET may not change while enabled; GP_PUT must stay below Q.
    assert!(gpu
        .mmio_write(mmio::channel_reg(0, mmio::CH_GP_GET), 0)
        .is_err());
    assert!(gpu
        .mmio_write(mmio::channel_reg(0, mmio::CH_GP_PUT), 8)
        .is_err());
    // Q = 8, entries 0..7: run entry 0 (the dispatch), then fill 1..7 and wrap to 0.
    assert_eq!(gpu.run(RunUntil::Idle), Ok(RunStatus::Done));
    let flag = DATA + 0x80;
    for i in 1..8u32 {
        add_entry(
            &mut gpu,
            u64::from(i),
            BLOCK + 0x100 + 0x10 * u64::from(i),
            &[Command::SemaphoreRelease {
                address: flag,
                payload: i,
            }],
        );
    }
    // Ring full: GP_GET = 1, GP_PUT = 0 -> entries 1..7 pending, entry 0 not.
    put(&mut gpu, 0, 0);
    assert_eq!(gpu.run(RunUntil::Idle), Ok(RunStatus::Done));
    assert_eq!(word(&gpu, flag), 7);
    assert_eq!(reg(&mut gpu, 0, mmio::CH_GP_GET), 0, "GP_GET wrapped to 0");
    assert_eq!(
        gpu.stats().dispatches,
        1,
        "the entry at GP_PUT was not re-run"
    );
}

#[test]
fn malformed_entries_and_commands_are_command_faults() {
    // An empty block.
    let mut gpu = Kernel::new(Target::GFX803, "s_endpgm").load().unwrap();
    gpu.write(RING, &(BLOCK).to_le_bytes()).unwrap();
    let err = gpu.run(RunUntil::Idle).unwrap_err();
    let DeviceError::Fault(f) = &err else {
        panic!("{err}")
    };
    assert!(matches!(
        f.kind,
        FaultKind::Command {
            channel: 0,
            entry: 0,
            ..
        }
    ));
    assert!(err.to_string().contains("empty command block"), "{err}");
    assert_eq!(reg(&mut gpu, 0, mmio::CH_STATE), mmio::CH_STATE_ERROR);
    assert_ne!(gpu.mmio_read(mmio::STATUS).unwrap() & mmio::STATUS_FAULT, 0);
    // The device stays stopped.
    assert_eq!(gpu.run(RunUntil::Idle).unwrap_err(), err);
    // An unknown opcode.
    let mut gpu = Kernel::new(Target::GFX803, "s_endpgm").load().unwrap();
    gpu.write(BLOCK, &0x77u32.to_le_bytes()).unwrap();
    let err = gpu.run(RunUntil::Idle).unwrap_err().to_string();
    assert!(err.contains("unknown command opcode 0x77"), "{err}");
    // A kernel descriptor that is not mapped.
    let mut gpu = Kernel::new(Target::GFX803, "s_endpgm").load().unwrap();
    gpu.write(BLOCK + 4 + 32, &0x7700_0000u64.to_le_bytes())
        .unwrap();
    let err = gpu.run(RunUntil::Idle).unwrap_err().to_string();
    assert!(
        err.contains("kernel descriptor at 0x77000000 is not mapped"),
        "{err}"
    );
}

#[test]
fn memory_violation_names_wave_pc_instruction_and_address() {
    let src = "
        s_mov_b32 s16, 0xdead0000
        s_mov_b32 s17, 0
        s_load_dword s10, s[16:17], 0x8
        s_endpgm";
    for t in [Target::GFX803, Target::GFX1030_W32] {
        let err = Kernel::new(t, src)
            .grid([64, 1, 1], [32, 1, 1])
            .run()
            .unwrap_err();
        assert!(err.contains("read of unmapped address 0xdead0008"), "{err}");
        assert!(err.contains("dispatch 0 workgroup (0,0,0) wave 0"), "{err}");
        assert!(
            err.contains(&format!("pc {:#x}", DESCRIPTOR + 256 + 12)),
            "{err}"
        );
        assert!(err.contains("`s_load_dword s10, s[16:17], 0x8`"), "{err}");
    }
    // Host accesses outside every mapping are errors, not faults.
    let gpu = Kernel::new(Target::GFX803, "s_endpgm").load().unwrap();
    let mut b = [0u8; 4];
    assert_eq!(
        gpu.read(0x5000_0000, &mut b),
        Err(DeviceError::Unmapped {
            address: 0x5000_0000,
            len: 4
        })
    );
}

#[test]
fn illegal_instructions_trap_and_watchdog() {
    // GWS is not modelled (docs/golden-coverage.md).
    let err = Kernel::new(Target::GFX1030_W32, "ds_gws_init v0 gds\ns_endpgm")
        .run()
        .unwrap_err();
    assert!(
        err.contains(
            "illegal instruction: not implemented in the golden model: ds_gws_init v0 gds"
        ),
        "{err}"
    );
    let err = Kernel::new(Target::GFX803, "s_trap 2\ns_endpgm")
        .run()
        .unwrap_err();
    assert!(err.contains("s_trap 2 executed"), "{err}");
    // Bytes that decode to nothing.
    let mut gpu = Kernel::new(Target::GFX803, "s_endpgm").load().unwrap();
    gpu.write(DESCRIPTOR + 256, &0xffff_ffffu32.to_le_bytes())
        .unwrap();
    let err = gpu.run(RunUntil::Idle).unwrap_err().to_string();
    assert!(
        err.contains("cannot decode the instruction at 0x10100"),
        "{err}"
    );
    // A branch to itself runs until the watchdog stops it.
    let mut k = Kernel::new(Target::GFX1030_W64, "s_branch 0xffff");
    k.budget = 5000;
    let err = k.run().unwrap_err();
    assert!(
        err.contains("watchdog: 5000 wave instructions without finishing"),
        "{err}"
    );
    // Its position is in steps: the functional model has no cycles.
    assert!(err.contains("; step ") && !err.contains("cycle"), "{err}");
    assert!(err.contains("`s_branch 65535`"), "{err}");
}

#[test]
fn runs_are_deterministic_and_counted() {
    let src = "
        s_movk_i32 s10, 0x10
        s_sub_u32 s10, s10, 1
        s_cmp_lg_u32 s10, 0
        s_cbranch_scc1 0xfffd
        s_barrier
        s_endpgm";
    let k = Kernel::new(Target::GFX1030_W32, src).grid([256, 2, 1], [64, 2, 1]);
    let a = k.run().unwrap();
    let b = k.run().unwrap();
    assert_eq!(a.gpu.now(), b.gpu.now());
    assert_eq!(a.stats(), b.stats());
    let ids = |f: &golden::testing::Finished| f.waves.iter().map(|w| w.id).collect::<Vec<_>>();
    assert_eq!(ids(&a), ids(&b));
    let st = a.stats();
    // 4 workgroups of 4 waves; each wave: 1 + 3 * 16 + 2 instructions.
    assert_eq!((st.dispatches, st.workgroups, st.waves), (1, 4, 16));
    assert_eq!(st.instructions, 16 * 51);
    assert_eq!(st.instructions_by_class["SOPK"], 16);
    assert_eq!(st.instructions_by_class["SOP2"], 16 * 16);
    assert_eq!(st.instructions_by_class["SOPC"], 16 * 16);
    assert_eq!(st.instructions_by_class["SOPP"], 16 * 18);
    assert_eq!(st.active_lane_instructions, 16 * 51);
    assert_eq!(st.commands, 1);
    assert_eq!(st.steps, 16 * 51 + 1);
    assert_eq!(a.gpu.now(), st.steps);
}
