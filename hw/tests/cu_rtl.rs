//! The CU as RTL blocks: every block's registers are traceable by name, the
//! ports move as the pipeline does, each stall reason is counted when it
//! happens, `s_setprio` steers the arbiter, FLAT counts on both counters and
//! the SOPK waitcnt forms take their SGPR operand.

use arch::code_object::KernelDescriptor;
use arch::command::DispatchPacket;
use arch::device::{Device, RunStatus, RunUntil};
use arch::isa::{assemble, Target};
use hw::event::{Event, Retire};
use hw::frontend::DispatchRequest;
use hw::stats::Stalls;
use hw::{ClockedGpu, GpuConfig};

const CODE: u64 = 0x10_0000;
const KD: u64 = 0x20_0000;
const KERNARG: u64 = 0x30_0000;
/// A 64 KiB data buffer; the kernarg holds its address.
const BUF: u64 = 0x40_0000;

/// A GPU loaded with `program` (s[0:1] = kernarg pointer) and one dispatch of
/// `grid` work-items in workgroups of `wg`, not yet run.
fn loaded(program: &str, wave64: bool, grid: u32, wg: u16, config: GpuConfig) -> ClockedGpu {
    let target = if wave64 {
        Target::GFX1030_W64
    } else {
        Target::GFX1030_W32
    };
    let bytes = assemble(target, program).expect("assembles");
    let mut gpu = ClockedGpu::new(config).expect("valid config");
    gpu.map(CODE, 0x1000).unwrap();
    gpu.map(KD, 0x1000).unwrap();
    gpu.map(KERNARG, 0x1000).unwrap();
    gpu.map(BUF, 0x1_0000).unwrap();
    gpu.write(CODE, &bytes).unwrap();
    gpu.write(KERNARG, &BUF.to_le_bytes()).unwrap();
    let mut kd = KernelDescriptor {
        kernel_code_entry_byte_offset: CODE as i64 - KD as i64,
        ..KernelDescriptor::default()
    };
    kd.kernel_code_properties.enable_wavefront_size32 = !wave64;
    kd.kernel_code_properties.enable_sgpr_kernarg_segment_ptr = true;
    kd.compute_pgm_rsrc2.user_sgpr_count = arbitrary_int::u5::new(2);
    kd.compute_pgm_rsrc1.granulated_workitem_vgpr_count = arbitrary_int::u6::new(7);
    gpu.write(KD, &kd.to_bytes()).unwrap();
    gpu.set_events(true);
    let packet = DispatchPacket {
        dimensions: 1,
        workgroup_size: [wg, 1, 1],
        grid_size: [grid, 1, 1],
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
    .expect("dispatch accepted");
    gpu
}

/// Runs `program` to the end; the GPU's stall counters and events.
fn run(program: &str, grid: u32, wg: u16, config: GpuConfig) -> (Stalls, Vec<Event>) {
    let mut gpu = loaded(program, false, grid, wg, config);
    assert_eq!(gpu.run(RunUntil::Idle).unwrap(), RunStatus::Done);
    (gpu.stats().stalls, gpu.take_events())
}

fn retires(events: &[Event], prefix: &str) -> Vec<Retire> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Retire(r) if r.inst.to_string().starts_with(prefix) => Some((**r).clone()),
            _ => None,
        })
        .collect()
}

fn retire(events: &[Event], prefix: &str) -> Retire {
    retires(events, prefix)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("no retire of {prefix}"))
}

fn names(gpu: &ClockedGpu) -> Vec<String> {
    let mut t = traces::Tracer::names();
    traces::Probe::probe(gpu, "gpu", &mut t);
    t.end_walk();
    t.declared()
}

#[test]
fn every_block_is_traceable_by_hierarchical_name() {
    let gpu = ClockedGpu::new(GpuConfig::default_config()).unwrap();
    let names = names(&gpu);
    for want in [
        "gpu.cycle",
        "gpu.frontend.ch0.gp_get",
        "gpu.dispatch.launch_valid",
        "gpu.dispatch.launch_cu",
        "gpu.dispatch.held",
        "gpu.cu0.fetch.req_valid",
        "gpu.cu0.fetch.rr",
        "gpu.cu0.sched0.issue_valid",
        "gpu.cu0.sched0.issue_wave",
        "gpu.cu0.sched1.issue_class",
        "gpu.cu0.sched1.issue_lanes",
        "gpu.cu0.sched1.ready",
        "gpu.cu0.sched1.stall",
        "gpu.cu0.salu.valid",
        "gpu.cu0.simd1.valid",
        "gpu.cu0.simd1.part",
        "gpu.cu0.simd0.busy_until",
        "gpu.cu0.simd0.conflict_cycles",
        "gpu.cu0.simd0.vgpr.rows_used",
        "gpu.cu0.lds.busy_until",
        "gpu.cu0.lds.conflict_cycles",
        "gpu.cu0.vmem.req_valid",
        "gpu.cu0.vmem.line_addr",
        "gpu.cu0.vmem.outstanding",
        "gpu.cu0.wg0.arrived",
        "gpu.cu0.wave3.pc",
        "gpu.cu0.wave31.vmcnt",
        "gpu.cu0.wave31.lgkmcnt",
        "gpu.cu3.l0.mshr_used",
        "gpu.cu0.icache.input_valid",
        "gpu.cu0.scache.input_valid",
        "gpu.xbar.req.out0.grant_valid",
        "gpu.l2_3.mshr_used",
        "gpu.dram_0.queue_count",
    ] {
        assert!(names.iter().any(|n| n == want), "{want} missing");
    }
    // Bulk storage stays out of the waveform.
    assert!(!names
        .iter()
        .any(|n| n.contains(".rows.") || n.contains(".bytes")));
}

/// Prints every signal name of the default GPU (for docs/waveforms.md).
#[test]
#[ignore]
fn print_signal_names() {
    for n in names(&ClockedGpu::new(GpuConfig::one_cu()).unwrap()) {
        println!("{n}");
    }
}

#[test]
fn issue_port_and_simd_valid_follow_the_pipeline() {
    // Wave64 with both halves: each VALU instruction is two passes.
    let mut gpu = loaded(
        "v_add_f32 v1, v0, v0\nv_add_f32 v2, v0, v0\ns_endpgm",
        true,
        64,
        64,
        GpuConfig::one_cu(),
    );
    let mut t = traces::Tracer::names();
    traces::Probe::probe(&gpu, "gpu", &mut t);
    t.end_walk();
    let names = t.declared();
    let at = |n: &str| names.iter().position(|x| x == n).unwrap();
    let lanes = at("gpu.cu0.sched0.issue_lanes");
    let (issue, class, simd_valid, half) = (
        at("gpu.cu0.sched0.issue_valid"),
        at("gpu.cu0.sched0.issue_class"),
        at("gpu.cu0.simd0.valid"),
        at("gpu.cu0.simd0.part"),
    );
    let mut valu_issues = 0;
    let mut valid_cycles = 0;
    let mut high_half = 0;
    while !gpu.is_idle() {
        gpu.step();
        t.begin_walk();
        traces::Probe::probe(&gpu, "gpu", &mut t);
        t.end_walk();
        let v = t.values();
        if v[issue] == 1 && v[class] == hw::stats::Class::Valu as u64 {
            valu_issues += 1;
            assert_eq!(v[lanes], 64, "a full wave64");
        }
        valid_cycles += v[simd_valid];
        high_half += v[simd_valid] & v[half];
    }
    let v = t.values();
    assert_eq!((v[issue], v[simd_valid]), (0, 0), "ports idle at the end");
    assert_eq!(valu_issues, 2, "two VALU issues on SIMD 0's port");
    assert_eq!(valid_cycles, 4, "two passes each");
    assert_eq!(high_half, 2, "one high-half pass each");
}

#[test]
fn every_stall_reason_is_counted_where_it_happens() {
    // Dependency: a VALU result used by the next instruction.
    let (s, _) = run(
        "v_add_f32 v1, v0, v0\nv_add_f32 v2, v1, v1\ns_endpgm",
        32,
        32,
        GpuConfig::one_cu(),
    );
    assert!(s.dependency >= 4, "{s:?}");
    // Waitcnt: a scalar load waited for.
    let (s, _) = run(
        "s_load_dword s2, s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\ns_endpgm",
        32,
        32,
        GpuConfig::one_cu(),
    );
    assert!(s.waitcnt > 0, "{s:?}");
    // Barrier: wave 1 waits while wave 0 sleeps.
    let (s, _) = run(
        "v_readfirstlane_b32 s2, v0
s_cmp_eq_u32 s2, 0
s_cbranch_scc0 1
s_sleep 4
s_barrier
s_endpgm",
        64,
        64,
        GpuConfig::one_cu(),
    );
    assert!(s.barrier >= 200, "{s:?}");
    // Bank conflict: three reads from VGPR bank 0 keep the VALU busy.
    let (s, _) = run(
        "v_fma_f32 v1, v0, v4, v8\nv_fma_f32 v2, v0, v4, v8\ns_endpgm",
        32,
        32,
        GpuConfig::one_cu(),
    );
    assert!(s.bank_conflict >= 2, "{s:?}");
    // No ready wave: sleeping.
    let (s, _) = run("s_sleep 2\ns_endpgm", 32, 32, GpuConfig::one_cu());
    assert!(s.no_ready_wave >= 128, "{s:?}");
    // Instruction fetch: straight-line code outruns the 64-byte buffer.
    let movs: String = (1..60).map(|i| format!("s_mov_b32 s{i}, 0\n")).collect();
    let (s, _) = run(&format!("{movs}s_endpgm"), 32, 32, GpuConfig::one_cu());
    assert!(s.fetch > 0, "{s:?}");
    // Memory backpressure: a strided store fills a one-entry request queue.
    let stores = "s_load_dwordx2 s[4:5], s[0:1], 0x0
v_lshlrev_b32 v1, 7, v0
s_waitcnt lgkmcnt(0)
global_store_dword v1, v0, s[4:5]
global_store_dword v1, v0, s[4:5] offset:4
s_endpgm";
    let mut tight = GpuConfig::one_cu();
    tight.cu.vmem_queue_depth = 1;
    let (s, _) = run(stores, 32, 32, tight);
    assert!(s.backpressure >= 31, "{s:?}");
    let (s, _) = run(stores, 32, 32, GpuConfig::one_cu());
    assert_eq!(s.backpressure, 0, "the default queue holds both stores");
}

#[test]
fn vmem_queue_depth_is_validated() {
    let mut c = GpuConfig::one_cu();
    c.cu.vmem_queue_depth = 0;
    let e = ClockedGpu::new(c).err().expect("rejected");
    assert!(e.to_string().contains("cu.vmem_queue_depth"), "{e}");
}

#[test]
fn setprio_lets_a_younger_wave_win_the_arbiter() {
    // Four waves: 0 and 2 share SIMD 0. The wave whose first work-item is 64
    // (wave 2) raises its priority to `prio`, then every wave issues a run of
    // independent VALU instructions.
    let body: String = (1..40)
        .map(|i| format!("v_add_f32 v{i}, v0, v0\n"))
        .collect();
    let end_of = |prio: u8, wave: u32| {
        let program = format!(
            "v_readfirstlane_b32 s2, v0
s_cmp_eq_u32 s2, 64
s_cbranch_scc0 1
s_setprio {prio}
{body}s_endpgm"
        );
        let (_, ev) = run(&program, 128, 128, GpuConfig::one_cu());
        retires(&ev, "s_endpgm")
            .into_iter()
            .find(|r| r.wave.wave == wave)
            .expect("wave ended")
            .cycle
    };
    // Oldest-first without priority: wave 0 ends first.
    assert!(end_of(0, 0) < end_of(0, 2));
    // With priority 3, wave 2 takes SIMD 0 first.
    assert!(end_of(3, 2) < end_of(3, 0));
}

#[test]
fn flat_counts_on_vmcnt_and_lgkmcnt() {
    // lgkmcnt(0) waits for a FLAT load (it may reach the LDS) but not for a
    // GLOBAL one.
    let probe = |load: &str| {
        let program = format!(
            "v_mov_b32 v2, 0x400000
v_mov_b32 v3, 0
v_mov_b32 v4, 0
{load}
s_waitcnt lgkmcnt(0)
s_mov_b32 s9, 1
s_waitcnt vmcnt(0)
s_endpgm"
        );
        let (_, ev) = run(&program, 32, 32, GpuConfig::one_cu());
        let l = retire(&ev, load.split(' ').next().unwrap());
        let m = retire(&ev, "s_mov_b32 s9");
        (l.cycle, m.cycle)
    };
    let (load, after) = probe("flat_load_dword v1, v[2:3]");
    assert!(
        after > load,
        "s_waitcnt lgkmcnt(0) waited for the FLAT load"
    );
    let (load, after) = probe("global_load_dword v1, v4, s[0:1]");
    assert!(after < load, "a GLOBAL load does not count on lgkmcnt");
}

#[test]
fn sopk_waitcnt_ors_the_sgpr_operand_into_the_count() {
    // One store outstanding: a limit of 1 lets the wave go on, 0 holds it.
    let probe = |limit_sgpr: u32, wait: &str| {
        let program = format!(
            "s_load_dwordx2 s[4:5], s[0:1], 0x0
s_mov_b32 s6, {limit_sgpr}
s_waitcnt lgkmcnt(0)
global_store_dword v0, v0, s[4:5]
{wait}
s_mov_b32 s9, 1
s_endpgm"
        );
        let (_, ev) = run(&program, 32, 32, GpuConfig::one_cu());
        let st = retire(&ev, "global_store_dword");
        let m = retire(&ev, "s_mov_b32 s9");
        m.cycle > st.cycle
    };
    assert!(probe(0, "s_waitcnt_vscnt s6, 0x0"), "limit 0|0 waits");
    assert!(!probe(1, "s_waitcnt_vscnt s6, 0x0"), "limit 1|0 does not");
    assert!(!probe(0, "s_waitcnt_vscnt null, 0x1"), "limit 0|1 does not");
    assert!(probe(0, "s_waitcnt_vscnt null, 0x0"), "null reads 0");
}

/// The tracer steps over wave slots whose change generation did not move
/// (`Tracer::slots_hinted`): every cycle of a program that writes the wave
/// slots through every path (issue, ALU and memory retire, waitcnt, branch
/// flush, fetch, barrier, sleep, launch and end), the hinted tracer's values
/// must equal a fresh declaring walk's (which reads every register), and
/// `check_hints` must find no slot that changed without a bump.
#[test]
fn wave_slot_generations_cover_every_write() {
    let program = "s_load_dwordx2 s[4:5], s[0:1], 0x0
v_lshlrev_b32 v1, 2, v0
s_waitcnt lgkmcnt(0)
global_load_dword v2, v1, s[4:5]
s_mov_b32 s6, 3
v_add_nc_u32 v2, v2, v0
s_sub_u32 s6, s6, 1
s_cmp_eq_u32 s6, 0
s_cbranch_scc0 -4
s_waitcnt vmcnt(0)
global_store_dword v1, v2, s[4:5] offset:1024
ds_write_b32 v1, v2
s_waitcnt lgkmcnt(0)
v_readfirstlane_b32 s2, v0
s_cmp_eq_u32 s2, 0
s_cbranch_scc0 1
s_sleep 3
s_barrier
ds_read_b32 v3, v1
s_waitcnt vmcnt(0) lgkmcnt(0)
s_endpgm";
    for wave64 in [false, true] {
        // More waves than slots on one SIMD: slots are freed and reused.
        let mut gpu = loaded(program, wave64, 1024, 256, GpuConfig::one_cu());
        let mut t = traces::Tracer::names();
        t.check_hints(true);
        let mut cycles = 0;
        loop {
            t.begin_walk();
            traces::Probe::probe(&gpu, "gpu", &mut t);
            t.end_walk();
            let mut fresh = traces::Tracer::names();
            traces::Probe::probe(&gpu, "gpu", &mut fresh);
            fresh.end_walk();
            if let Some(i) = (0..t.values().len()).find(|&i| t.values()[i] != fresh.values()[i]) {
                panic!(
                    "cycle {cycles} (wave64 {wave64}): `{}` traced as {:#x}, is {:#x}",
                    fresh.signals()[i].path,
                    t.values()[i],
                    fresh.values()[i]
                );
            }
            if gpu.is_idle() {
                break;
            }
            gpu.step();
            cycles += 1;
        }
        assert!(cycles > 100, "the program ran ({cycles} cycles)");
        let names = t.declared();
        let at = |n: &str| names.iter().position(|x| x == n).unwrap();
        assert_eq!(t.values()[at("gpu.cu0.wave0.valid")], 0, "all waves ended");
    }
}
