//! Directed tests of the clocked pipeline with hand-assembled programs that
//! use only instructions the compute unit handles itself (s_nop, s_sleep,
//! s_barrier, s_waitcnt, s_endpgm), so they run before the datapath exists.

use arch::code_object::KernelDescriptor;
use arch::command::DispatchPacket;
use arch::device::{Device, RunStatus, RunUntil};
use arch::isa::{assemble, Target};
use hw::event::Event;
use hw::frontend::DispatchRequest;
use hw::{ClockedGpu, GpuConfig};

const CODE: u64 = 0x10_0000;
const KD: u64 = 0x20_0000;

fn gpu_with(program: &str, wave64: bool, config: GpuConfig) -> ClockedGpu {
    let target = if wave64 {
        Target::GFX1030_W64
    } else {
        Target::GFX1030_W32
    };
    let bytes = assemble(target, program).expect("assembles");
    let mut gpu = ClockedGpu::new(config).expect("valid config");
    gpu.map(CODE, 0x1000).unwrap();
    gpu.map(KD, 0x1000).unwrap();
    gpu.write(CODE, &bytes).unwrap();
    let mut kd = KernelDescriptor {
        kernel_code_entry_byte_offset: CODE as i64 - KD as i64,
        ..KernelDescriptor::default()
    };
    kd.kernel_code_properties.enable_wavefront_size32 = !wave64;
    gpu.write(KD, &kd.to_bytes()).unwrap();
    gpu
}

fn dispatch(gpu: &mut ClockedGpu, number: u32, grid: u32, wg: u16) {
    let packet = DispatchPacket {
        dimensions: 1,
        workgroup_size: [wg, 1, 1],
        grid_size: [grid, 1, 1],
        kernel_object: KD,
        ..DispatchPacket::default()
    };
    gpu.launch_dispatch(DispatchRequest {
        number,
        channel: 0,
        entry: 0,
        packet,
        packet_address: 0,
    })
    .expect("dispatch accepted");
}

fn cycles_of(program: &str, grid: u32, wg: u16) -> u64 {
    let mut gpu = gpu_with(program, false, GpuConfig::one_cu());
    dispatch(&mut gpu, 0, grid, wg);
    assert_eq!(gpu.run(RunUntil::Idle).unwrap(), RunStatus::Done);
    // The dispatch's own span (stale instruction prefetches may keep the
    // memory system busy a little longer).
    gpu.stats().dispatches[0].cycles
}

#[test]
fn s_sleep_costs_64_cycles_per_unit_and_s_nop_n_plus_one() {
    let base = cycles_of("s_endpgm", 32, 32);
    let sleep2 = cycles_of("s_sleep 2\ns_endpgm", 32, 32);
    let sleep4 = cycles_of("s_sleep 4\ns_endpgm", 32, 32);
    assert_eq!(sleep4 - sleep2, 128, "two more sleep units = 128 cycles");
    assert!(sleep2 >= base + 128);
    let nop0 = cycles_of("s_nop 0\ns_endpgm", 32, 32);
    let nop7 = cycles_of("s_nop 7\ns_endpgm", 32, 32);
    assert_eq!(nop7 - nop0, 7);
}

#[test]
fn barrier_waits_for_the_slowest_wave() {
    // Wave 0 sleeps before the barrier; wave 1 must wait for it, so the
    // whole workgroup takes as long as a single sleeping wave plus the end.
    let one = cycles_of("s_sleep 8\ns_barrier\ns_endpgm", 32, 32);
    let two = cycles_of("s_sleep 8\ns_barrier\ns_endpgm", 64, 64);
    assert!(two >= one && two <= one + 16, "one {one} two {two}");
}

#[test]
fn events_are_ordered_launch_issue_retire_end() {
    let mut gpu = gpu_with("s_nop 1\ns_endpgm", false, GpuConfig::one_cu());
    gpu.set_events(true);
    dispatch(&mut gpu, 3, 64, 32);
    gpu.run(RunUntil::Idle).unwrap();
    let ev = gpu.take_events();
    let launches = ev
        .iter()
        .filter(|e| matches!(e, Event::WaveLaunch { .. }))
        .count();
    let ends = ev
        .iter()
        .filter(|e| matches!(e, Event::WaveEnd { .. }))
        .count();
    let retires = ev.iter().filter(|e| matches!(e, Event::Retire(_))).count();
    assert_eq!((launches, ends, retires), (2, 2, 4));
    // Per wave: the s_endpgm retire comes before its WaveEnd.
    let pos_end = ev
        .iter()
        .position(|e| matches!(e, Event::WaveEnd { .. }))
        .unwrap();
    let pos_first_retire = ev
        .iter()
        .position(|e| matches!(e, Event::Retire(_)))
        .unwrap();
    assert!(pos_first_retire < pos_end);
    if let Some(Event::WaveLaunch { scalar, .. }) =
        ev.iter().find(|e| matches!(e, Event::WaveLaunch { .. }))
    {
        assert_eq!(scalar.exec(), 0xffff_ffff);
    }
}

#[test]
fn partial_workgroup_gets_partial_exec() {
    let mut gpu = gpu_with("s_endpgm", true, GpuConfig::one_cu());
    gpu.set_events(true);
    dispatch(&mut gpu, 0, 100, 64);
    gpu.run(RunUntil::Idle).unwrap();
    let execs: Vec<u64> = gpu
        .take_events()
        .iter()
        .filter_map(|e| match e {
            Event::WaveLaunch { scalar, .. } => Some(scalar.exec()),
            _ => None,
        })
        .collect();
    assert_eq!(execs, vec![u64::MAX, (1u64 << 36) - 1]);
}

#[test]
fn runs_are_deterministic() {
    let run = || {
        let mut gpu = gpu_with(
            "s_sleep 1\ns_barrier\ns_nop 3\ns_endpgm",
            false,
            GpuConfig::default_config(),
        );
        dispatch(&mut gpu, 0, 4096, 256);
        gpu.run(RunUntil::Idle).unwrap();
        (gpu.now(), format!("{:?}", gpu.stats()))
    };
    assert_eq!(run(), run());
}

#[test]
fn more_cus_finish_a_large_grid_sooner() {
    let run = |config: GpuConfig| {
        let mut gpu = gpu_with("s_sleep 10\ns_endpgm", false, config);
        dispatch(&mut gpu, 0, 32 * 256, 256);
        gpu.run(RunUntil::Idle).unwrap();
        gpu.now()
    };
    let one = run(GpuConfig::one_cu());
    let four = run(GpuConfig::default_config());
    assert!(four < one, "4 CUs {four} vs 1 CU {one}");
}

#[test]
fn watchdog_names_the_oldest_wave() {
    let mut config = GpuConfig::one_cu();
    config.watchdog_cycles = 500;
    let mut gpu = gpu_with("s_sleep 100\ns_endpgm", false, config);
    dispatch(&mut gpu, 0, 32, 32);
    let e = gpu.run(RunUntil::Idle).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("watchdog") && text.contains("wave 0"),
        "{text}"
    );
    // The GPU stays stopped with the same fault.
    assert_eq!(gpu.run(RunUntil::Idle).unwrap_err(), e);
}

#[test]
fn mmio_identifies_gfx1030_and_cycle_counter() {
    let mut gpu = gpu_with("s_endpgm", false, GpuConfig::one_cu());
    assert_eq!(
        gpu.mmio_read(arch::mmio::GPU_ID).unwrap(),
        arch::mmio::GPU_ID_GFX1030
    );
    gpu.run(RunUntil::Cycles(10)).unwrap();
    assert_eq!(gpu.mmio_read(arch::mmio::CYCLE_LO).unwrap(), 10);
    assert!(gpu.mmio_write(arch::mmio::GPU_ID, 0).is_err());
}

const LOOP: &str = "s_mov_b32 s10, 20
s_sub_u32 s10, s10, 1
s_cmp_lg_u32 s10, 0
s_cbranch_scc1 -3
s_endpgm";

#[test]
fn scalar_loop_retires_every_iteration_and_refetches_after_taken_branches() {
    let mut gpu = gpu_with(LOOP, false, GpuConfig::one_cu());
    gpu.set_events(true);
    dispatch(&mut gpu, 0, 32, 32);
    gpu.run(RunUntil::Idle).unwrap();
    let retires: Vec<_> = gpu
        .take_events()
        .into_iter()
        .filter_map(|e| match e {
            Event::Retire(r) => Some(r),
            _ => None,
        })
        .collect();
    assert_eq!(retires.len(), 1 + 3 * 20 + 1);
    let last_sub = retires
        .iter()
        .rev()
        .find(|r| r.inst.to_string().starts_with("s_sub"))
        .unwrap();
    assert_eq!(last_sub.writes.sgpr, vec![(10, 0)]);
    let taken = retires.iter().filter(|r| r.writes.branch.is_some()).count();
    assert_eq!(taken, 19);
    // Each taken branch flushes and refetches: at least an instruction-cache hit each.
    let hit = u64::from(GpuConfig::one_cu().memory.inst_cache.hit_latency);
    let cycles = gpu.stats().dispatches[0].cycles;
    assert!(cycles >= 19 * hit, "{cycles}");
}

#[test]
fn scheduler_policies_differ() {
    let run = |policy: &str| {
        let mut config = GpuConfig::one_cu();
        config.cu.scheduler = serde_norway::from_str(policy).unwrap();
        let mut gpu = gpu_with(LOOP, false, config);
        dispatch(&mut gpu, 0, 32 * 16, 32 * 16);
        gpu.run(RunUntil::Idle).unwrap();
        let s = gpu.stats();
        (s.dispatches[0].cycles, s.stalls)
    };
    let a = run("oldest-first");
    let b = run("round-robin");
    let c = run("greedy-then-oldest");
    assert!(a != b || b != c, "{a:?} {b:?} {c:?}");
}

/// Simulated cycles per second on one CU (run with `--release --ignored --nocapture`).
#[test]
#[ignore]
fn speed_one_cu() {
    let prog = "s_mov_b32 s10, 0x40000
s_sub_u32 s10, s10, 1
s_cmp_lg_u32 s10, 0
s_cbranch_scc1 -3
s_endpgm";
    let mut gpu = gpu_with(prog, false, GpuConfig::one_cu());
    dispatch(&mut gpu, 0, 32 * 8, 32 * 8);
    let t = std::time::Instant::now();
    gpu.run(RunUntil::Idle).unwrap();
    let s = t.elapsed().as_secs_f64();
    println!(
        "{} cycles in {s:.3} s = {:.2} M cycles/s",
        gpu.now(),
        gpu.now() as f64 / s / 1e6
    );
}

const KERNARG: u64 = 0x30_0000;

/// A wave32 GPU whose kernel gets the kernarg pointer in s[0:1], pointing at
/// the dword 41.
fn smem_gpu(program: &str) -> ClockedGpu {
    let bytes = assemble(Target::GFX1030_W32, program).expect("assembles");
    let mut gpu = ClockedGpu::new(GpuConfig::one_cu()).unwrap();
    gpu.map(CODE, 0x1000).unwrap();
    gpu.map(KD, 0x1000).unwrap();
    gpu.map(KERNARG, 0x1000).unwrap();
    gpu.write(CODE, &bytes).unwrap();
    gpu.write(KERNARG, &41u32.to_le_bytes()).unwrap();
    let mut kd = KernelDescriptor {
        kernel_code_entry_byte_offset: CODE as i64 - KD as i64,
        ..KernelDescriptor::default()
    };
    kd.kernel_code_properties.enable_wavefront_size32 = true;
    kd.kernel_code_properties.enable_sgpr_kernarg_segment_ptr = true;
    kd.compute_pgm_rsrc2.user_sgpr_count = arbitrary_int::u5::new(2);
    gpu.write(KD, &kd.to_bytes()).unwrap();
    gpu.set_events(true);
    let packet = DispatchPacket {
        dimensions: 1,
        workgroup_size: [32, 1, 1],
        grid_size: [32, 1, 1],
        kernel_object: KD,
        kernarg_address: KERNARG,
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
    gpu.run(RunUntil::Idle).unwrap();
    gpu
}

fn retire_of(events: &[Event], prefix: &str) -> Box<hw::event::Retire> {
    events
        .iter()
        .find_map(|e| match e {
            Event::Retire(r) if r.inst.to_string().starts_with(prefix) => Some(r.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no retire of {prefix}"))
}

#[test]
fn waitcnt_holds_a_dependent_use_for_the_memory_latency() {
    // At least a scalar-cache hit (the load's first access misses further).
    let latency = u64::from(GpuConfig::one_cu().memory.scalar_cache.hit_latency);
    let mut gpu = smem_gpu(
        "s_load_dword s2, s[0:1], 0x0
s_waitcnt lgkmcnt(0)
s_add_u32 s3, s2, 1
s_endpgm",
    );
    let ev = gpu.take_events();
    let load = retire_of(&ev, "s_load_dword");
    let add = retire_of(&ev, "s_add_u32");
    assert_eq!(load.writes.sgpr, vec![(2, 41)]);
    assert_eq!(
        add.writes.sgpr,
        vec![(3, 42)],
        "the add saw the loaded value"
    );
    assert!(
        add.cycle > load.cycle,
        "the add retires after the load returned"
    );
    let start = gpu.stats().dispatches[0].start;
    assert!(add.cycle - start >= latency, "{} {}", add.cycle, start);
}

#[test]
fn memory_results_are_not_interlocked_without_waitcnt() {
    // As on the hardware: without s_waitcnt the add reads s2 before the load
    // has written it.
    let mut gpu = smem_gpu(
        "s_load_dword s2, s[0:1], 0x0
s_add_u32 s3, s2, 1
s_endpgm",
    );
    let ev = gpu.take_events();
    assert_eq!(retire_of(&ev, "s_add_u32").writes.sgpr, vec![(3, 1)]);
    // s_endpgm waited for the outstanding load before the wave ended.
    assert_eq!(retire_of(&ev, "s_load_dword").writes.sgpr, vec![(2, 41)]);
}

/// One CU with an instruction buffer deep enough that straight-line code is
/// not fetch-bound behind the placeholder memory latency.
fn deep_fetch() -> GpuConfig {
    let mut c = GpuConfig::one_cu();
    c.cu.fetch_bytes = 64;
    c.cu.ibuf_bytes = 1024;
    c
}

fn valu_chain(n: usize, dependent: bool) -> String {
    let mut s = String::from("v_mov_b32 v1, 1\nv_mov_b32 v2, 2\n");
    for i in 0..n {
        if dependent {
            s.push_str("v_add_nc_u32 v1, v1, v0\n");
        } else {
            s.push_str(&format!("v_add_nc_u32 v{}, v0, v0\n", 3 + i % 8));
        }
    }
    s.push_str("s_endpgm");
    s
}

fn dispatch_cycles(gpu: &mut ClockedGpu, grid: u32, wg: u16) -> u64 {
    dispatch(gpu, 0, grid, wg);
    gpu.run(RunUntil::Idle).unwrap();
    gpu.stats().dispatches[0].cycles
}

fn kd_vgprs(gpu: &mut ClockedGpu, wave64: bool, lds: u32) {
    let mut b = [0u8; 64];
    gpu.read(KD, &mut b).unwrap();
    let mut kd = KernelDescriptor::from_bytes(&b);
    kd.compute_pgm_rsrc1.granulated_workitem_vgpr_count =
        arbitrary_int::u6::new(if wave64 { 3 } else { 1 });
    kd.group_segment_fixed_size = lds;
    gpu.write(KD, &kd.to_bytes()).unwrap();
}

#[test]
fn dependent_valu_chain_pays_the_issue_latency() {
    let n = 64;
    let run = |dependent| {
        let mut gpu = gpu_with(&valu_chain(n, dependent), false, deep_fetch());
        kd_vgprs(&mut gpu, false, 0);
        dispatch_cycles(&mut gpu, 32, 32)
    };
    let dep = run(true);
    let indep = run(false);
    let latency = u64::from(GpuConfig::one_cu().cu.valu_latency);
    // Each dependent add waits `latency` cycles instead of one.
    assert!(
        dep >= indep + (n as u64 - 1) * (latency - 1),
        "dep {dep} indep {indep}"
    );
}

#[test]
fn wave64_skips_a_half_whose_exec_is_zero() {
    let run = |items| {
        let mut gpu = gpu_with(&valu_chain(64, false), true, deep_fetch());
        kd_vgprs(&mut gpu, true, 0);
        let c = dispatch_cycles(&mut gpu, items, items as u16);
        (
            c,
            gpu.stats().cus[0].skipped_halves,
            gpu.stats().cus[0].valu_busy_cycles,
        )
    };
    let (full, skip_full, busy_full) = run(64);
    let (half, skip_half, busy_half) = run(32);
    assert_eq!(skip_full, 0);
    assert_eq!(
        skip_half, 66,
        "two moves and 64 adds, each skipping its high half"
    );
    assert_eq!(busy_full, 2 * busy_half);
    assert!(
        half < full,
        "high half inactive {half} vs both halves {full}"
    );
}

#[test]
fn lds_bank_conflicts_add_cycles() {
    let prog = |shift: u32| {
        format!(
            "v_lshlrev_b32 v1, {shift}, v0
ds_write_b32 v1, v0
s_waitcnt lgkmcnt(0)
ds_read_b32 v2, v1
s_waitcnt lgkmcnt(0)
s_endpgm"
        )
    };
    let run = |shift| {
        let mut gpu = gpu_with(&prog(shift), false, GpuConfig::one_cu());
        kd_vgprs(&mut gpu, false, 8192);
        let c = dispatch_cycles(&mut gpu, 32, 32);
        (c, gpu.stats().cus[0].lds_bank_conflict_cycles)
    };
    let (fast, none) = run(2); // consecutive dwords: one per bank
    let (slow, extra) = run(7); // 128-byte stride: all lanes in bank 0
    assert_eq!(none, 0);
    assert_eq!(extra, 2 * 31, "write and read each serialise 32 ways");
    assert!(slow >= fast + 62, "{slow} vs {fast}");
}

#[test]
fn injection_corrupts_one_valu_lane_once() {
    use hw::inject::{InjectKind, Injection};
    let mut gpu = gpu_with(
        "v_add_nc_u32 v1, v0, v0\nv_add_nc_u32 v2, v0, v0\ns_endpgm",
        false,
        GpuConfig::one_cu(),
    );
    kd_vgprs(&mut gpu, false, 0);
    gpu.set_events(true);
    gpu.inject(Some(Injection {
        wave: arch::device::WaveId::default(),
        kind: InjectKind::ValuLane { lane: 5, bit: 4 },
    }));
    dispatch(&mut gpu, 0, 32, 32);
    gpu.run(RunUntil::Idle).unwrap();
    let ev = gpu.take_events();
    let adds: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Retire(r) if r.inst.to_string().starts_with("v_add") => Some(r.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(adds.len(), 2);
    assert_eq!(
        adds[0].writes.vgpr[0].values[5],
        10 ^ 16,
        "lane 5 corrupted"
    );
    assert_eq!(adds[0].writes.vgpr[0].values[6], 12);
    assert_eq!(adds[1].writes.vgpr[0].values[5], 10, "fires once");
}

#[test]
fn transcendentals_run_at_quarter_rate() {
    let body = |op: &str| {
        let mut s = String::new();
        for i in 0..32 {
            s.push_str(&format!("{op} v{}, v0\n", 1 + i % 8));
        }
        s.push_str("s_endpgm");
        s
    };
    let busy = |op: &str| {
        let mut gpu = gpu_with(&body(op), false, deep_fetch());
        kd_vgprs(&mut gpu, false, 0);
        let c = dispatch_cycles(&mut gpu, 32, 32);
        (gpu.stats().cus[0].valu_busy_cycles, c)
    };
    let (mov, c_mov) = busy("v_mov_b32");
    let (rcp, c_rcp) = busy("v_rcp_f32");
    assert_eq!(mov, 32);
    assert_eq!(rcp, 32 * u64::from(GpuConfig::one_cu().cu.trans_rate));
    assert!(c_rcp > c_mov);
}
