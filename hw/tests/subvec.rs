//! Seed 000 on the clocked GPU (docs/variable-wavefront.md): the two issue
//! orders of spec 000 §3 with their cycle counts, skipped parts, quarters on
//! a 16-lane SIMD, the mode choice (configuration and the mode control
//! unit's threshold), `s_subvector_loop_begin/end`'s four EXEC cases, results
//! identical in every mode, and the pinned waveforms of both orders.

use std::path::{Path, PathBuf};

use arch::code_object::KernelDescriptor;
use arch::command::{DispatchPacket, SubvectorHint};
use arch::device::{Device, RunStatus, RunUntil};
use arch::isa::{assemble, Target};
use hw::config::SubvectorMode;
use hw::event::{Event, Retire};
use hw::frontend::DispatchRequest;
use hw::{ClockedGpu, GpuConfig};

const CODE: u64 = 0x10_0000;
const KD: u64 = 0x20_0000;
const KERNARG: u64 = 0x30_0000;
/// A 64 KiB data buffer; the kernarg holds its address.
const BUF: u64 = 0x40_0000;

fn config(mode: SubvectorMode, simd_lanes: u32) -> GpuConfig {
    let mut c = GpuConfig::one_cu();
    c.cu.subvector_mode = mode;
    c.cu.simd_lanes = simd_lanes;
    c
}

/// A GPU loaded with `program` (s[0:1] = kernarg pointer → BUF) and one
/// dispatch of `grid` work-items in workgroups of `wg`, not yet run.
fn loaded(program: &str, wave64: bool, grid: u32, wg: u16, config: GpuConfig) -> ClockedGpu {
    loaded_hinted(program, wave64, grid, wg, config, SubvectorHint::None)
}

/// [`loaded`] with the driver's issue-order indication `hint` in the packet.
fn loaded_hinted(
    program: &str,
    wave64: bool,
    grid: u32,
    wg: u16,
    config: GpuConfig,
    hint: SubvectorHint,
) -> ClockedGpu {
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
        subvector_hint: hint,
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

/// K independent VALU instructions (I1..IK), after an optional prefix.
fn valu_program(prefix: &str, k: usize) -> String {
    let mut p = String::from(prefix);
    for i in 1..=k {
        p.push_str(&format!("v_add_f32 v{i}, v0, v0\n"));
    }
    p.push_str("s_endpgm");
    p
}

/// Runs one wave to the end and returns, for every cycle SIMD 0's VALU is
/// busy, `(instruction number 1..=K, part)`: the issue order as the
/// waveform shows it (`gpu.cu0.sched0.issue_pc`, `gpu.cu0.simd0.part`).
fn valu_order(program: &str, wave64: bool, cfg: GpuConfig) -> Vec<(u64, u64)> {
    valu_order_hinted(program, wave64, cfg, SubvectorHint::None)
}

/// [`valu_order`] of a dispatch whose packet carries `hint`.
fn valu_order_hinted(
    program: &str,
    wave64: bool,
    cfg: GpuConfig,
    hint: SubvectorHint,
) -> Vec<(u64, u64)> {
    let n = if wave64 { 64 } else { 32 };
    let mut gpu = loaded_hinted(program, wave64, n, n as u16, cfg, hint);
    let mut t = traces::Tracer::names();
    traces::Probe::probe(&gpu, "gpu", &mut t);
    t.end_walk();
    let names = t.declared();
    let at = |n: &str| names.iter().position(|x| x == n).unwrap();
    let (issue, class, pc, valid, part) = (
        at("gpu.cu0.sched0.issue_valid"),
        at("gpu.cu0.sched0.issue_class"),
        at("gpu.cu0.sched0.issue_pc"),
        at("gpu.cu0.simd0.valid"),
        at("gpu.cu0.simd0.part"),
    );
    let first_valu = first_valu_pc(program, wave64);
    let mut current = 0;
    let mut order = Vec::new();
    while !gpu.is_idle() {
        gpu.step();
        t.begin_walk();
        traces::Probe::probe(&gpu, "gpu", &mut t);
        t.end_walk();
        let v = t.values();
        if v[issue] == 1 && v[class] == hw::stats::Class::Valu as u64 {
            current = (v[pc] - first_valu) / 4 + 1;
        }
        if v[valid] == 1 {
            order.push((current, v[part]));
        }
    }
    order
}

/// The pc of the first `v_` instruction of `program` (VOP2 words are 4 bytes).
fn first_valu_pc(program: &str, wave64: bool) -> u64 {
    let target = if wave64 {
        Target::GFX1030_W64
    } else {
        Target::GFX1030_W32
    };
    let before: String = program
        .lines()
        .take_while(|l| !l.trim_start().starts_with("v_"))
        .map(|l| format!("{l}\n"))
        .collect();
    CODE + assemble(target, &before).map_or(0, |b| b.len() as u64)
}

fn conventional(k: u64, parts: u64) -> Vec<(u64, u64)> {
    (1..=k)
        .flat_map(|i| (0..parts).map(move |p| (i, p)))
        .collect()
}

fn subvector(k: u64, parts: &[u64]) -> Vec<(u64, u64)> {
    parts
        .iter()
        .flat_map(|&p| (1..=k).map(move |i| (i, p)))
        .collect()
}

const K: usize = 4;

#[test]
fn conventional_order_runs_each_instruction_on_both_halves_in_2k_cycles() {
    // Spec 000 §6.1: I1 lo, I1 hi, I2 lo, … — 2K instruction cycles.
    let order = valu_order(
        &valu_program("", K),
        true,
        config(SubvectorMode::Conventional, 32),
    );
    assert_eq!(order, conventional(K as u64, 2));
}

#[test]
fn subvector_order_runs_the_window_on_the_low_then_the_high_half_in_2k_cycles() {
    // Spec 000 §6.2: I1..IK lo, then I1..IK hi — also 2K cycles.
    let order = valu_program("", K);
    let order = valu_order(&order, true, config(SubvectorMode::Subvector, 32));
    assert_eq!(order, subvector(K as u64, &[0, 1]));
    assert_eq!(order.len(), 2 * K);
}

#[test]
fn the_dispatch_packet_indication_overrides_the_configured_order() {
    // Spec 000 §4 / §6.5: the driver's first indication (packet dword 2,
    // bits 17:16) wins over `cu.subvector_mode`; no indication keeps it.
    let program = valu_program("", K);
    let order = |mode, hint| valu_order_hinted(&program, true, config(mode, 32), hint);
    let (conv, sub) = (conventional(K as u64, 2), subvector(K as u64, &[0, 1]));
    assert_eq!(
        order(SubvectorMode::Conventional, SubvectorHint::Subvector),
        sub
    );
    assert_eq!(
        order(SubvectorMode::Subvector, SubvectorHint::Conventional),
        conv
    );
    assert_eq!(order(SubvectorMode::Subvector, SubvectorHint::None), sub);
    assert_eq!(
        order(SubvectorMode::Conventional, SubvectorHint::None),
        conv
    );
    // `auto` from the packet programs the mode control unit of a GPU
    // configured conventional: the all-miss program switches, as in
    // `the_mode_control_unit_compares_the_l0_miss_rate_with_the_threshold`.
    let run = |program: &str, hint| {
        let mut cfg = config(SubvectorMode::Conventional, 32);
        cfg.cu.subvector_miss_threshold = 500;
        cfg.cu.subvector_sample_accesses = 6;
        let mut gpu = loaded_hinted(program, true, 64, 64, cfg, hint);
        assert_eq!(gpu.run(RunUntil::Idle).unwrap(), RunStatus::Done);
        gpu.stats().cus[0].subvector_passes
    };
    assert!(run(&l0_program(false), SubvectorHint::Auto) > 0);
    assert_eq!(run(&l0_program(true), SubvectorHint::Auto), 0);
    assert_eq!(run(&l0_program(false), SubvectorHint::None), 0);
}

#[test]
fn a_part_with_no_active_lane_is_skipped_k_cycles_instead_of_2k() {
    // Spec 000 §6.3 (sub-vector); conventional order skips the empty half too
    // (as RDNA does: docs/variable-wavefront.md).
    let p = valu_program("s_mov_b32 exec_hi, 0\n", K);
    let sub = valu_order(&p, true, config(SubvectorMode::Subvector, 32));
    assert_eq!(sub, subvector(K as u64, &[0]));
    let conv = valu_order(&p, true, config(SubvectorMode::Conventional, 32));
    assert_eq!(conv, conventional(K as u64, 1));
    // Only the high half active: the window runs on part 1 alone.
    let p = valu_program("s_mov_b32 exec_lo, 0\n", K);
    let sub = valu_order(&p, true, config(SubvectorMode::Subvector, 32));
    assert_eq!(sub, subvector(K as u64, &[1]));
}

#[test]
fn a_sixteen_lane_simd_runs_wave64_in_quarters_and_wave32_in_halves() {
    // Spec 000 §3 "4·N work items": q0, q1, q2, q3 in turn; 4K cycles.
    let p = valu_program("", K);
    let sub = valu_order(&p, true, config(SubvectorMode::Subvector, 16));
    assert_eq!(sub, subvector(K as u64, &[0, 1, 2, 3]));
    let conv = valu_order(&p, true, config(SubvectorMode::Conventional, 16));
    assert_eq!(conv, conventional(K as u64, 4));
    // Wave32 on 16 lanes: two halves.
    let sub = valu_order(&p, false, config(SubvectorMode::Subvector, 16));
    assert_eq!(sub, subvector(K as u64, &[0, 1]));
    // Quarter 2 empty (lanes 32–47): skipped.
    let p = valu_program("s_mov_b32 exec_hi, 0xffff0000\n", K);
    let sub = valu_order(&p, true, config(SubvectorMode::Subvector, 16));
    assert_eq!(sub, subvector(K as u64, &[0, 1, 3]));
    // Wave32 on SIMD32 is one part: both modes are the same single pass.
    let p = valu_program("", K);
    let one = valu_order(&p, false, config(SubvectorMode::Subvector, 32));
    assert_eq!(one, conventional(K as u64, 1));
}

#[test]
fn the_window_closes_at_a_scalar_instruction_and_reopens_after_it() {
    // I1 I2 | s_nop | I3 I4: two windows, each lo then hi.
    let p = "v_add_f32 v1, v0, v0
v_add_f32 v2, v0, v0
s_nop 0
v_add_f32 v3, v0, v0
v_add_f32 v4, v0, v0
s_endpgm";
    let order = valu_order(p, true, config(SubvectorMode::Subvector, 32));
    // (The s_nop sits between I2 and I3, so I3 is instruction number 4.)
    assert_eq!(
        order,
        vec![
            (1, 0),
            (2, 0),
            (1, 1),
            (2, 1),
            (4, 0),
            (5, 0),
            (4, 1),
            (5, 1)
        ]
    );
}

/// A program with loads, VALU work and a store (spec 000 §6.10's results).
const MIXED: &str = "s_load_dwordx2 s[2:3], s[0:1], 0x0
s_waitcnt lgkmcnt(0)
v_lshlrev_b32 v1, 2, v0
global_load_dword v2, v1, s[2:3]
global_load_dword v3, v1, s[2:3] offset:256
v_mul_u32_u24 v7, v0, 3
s_waitcnt vmcnt(0)
v_mul_lo_u32 v4, v2, v3
v_add_nc_u32 v5, v4, v0
v_xor_b32 v6, v5, v2
v_add_nc_u32 v6, v6, v7
global_store_dword v1, v6, s[2:3] offset:512
s_endpgm";

fn run_mixed(cfg: GpuConfig, wave64: bool) -> (Vec<u8>, hw::stats::CuStats) {
    let mut gpu = loaded(MIXED, wave64, 64, 64, cfg);
    let input: Vec<u8> = (0..128u32)
        .flat_map(|i| (i.wrapping_mul(0x9e37_79b9) ^ 0x1234).to_le_bytes())
        .collect();
    gpu.write(BUF, &input).unwrap();
    assert_eq!(gpu.run(RunUntil::Idle).unwrap(), RunStatus::Done);
    let mut out = vec![0u8; 256];
    gpu.read(BUF + 512, &mut out).unwrap();
    (out, gpu.stats().cus[0].clone())
}

#[test]
fn results_are_identical_in_every_mode_and_width() {
    // Spec 000 §6.10: memory identical; only timing changes.
    let word = |i: u32| i.wrapping_mul(0x9e37_79b9) ^ 0x1234;
    let expected: Vec<u8> = (0..64u32)
        .flat_map(|l| {
            let (a, b) = (word(l), word(l + 64));
            ((a.wrapping_mul(b).wrapping_add(l) ^ a).wrapping_add(3 * l)).to_le_bytes()
        })
        .collect();
    let mut auto = config(SubvectorMode::Auto, 32);
    auto.cu.subvector_miss_threshold = 0;
    auto.cu.subvector_sample_accesses = 1;
    for (name, cfg, wave64) in [
        (
            "conventional",
            config(SubvectorMode::Conventional, 32),
            true,
        ),
        ("subvector", config(SubvectorMode::Subvector, 32), true),
        ("auto", auto, true),
        (
            "subvector 16 lanes",
            config(SubvectorMode::Subvector, 16),
            true,
        ),
        (
            "conventional 16 lanes",
            config(SubvectorMode::Conventional, 16),
            true,
        ),
        (
            "subvector wave32 16 lanes",
            config(SubvectorMode::Subvector, 16),
            false,
        ),
    ] {
        let (out, stats) = run_mixed(cfg, wave64);
        assert_eq!(out, expected, "{name}");
        let passes = stats.subvector_passes;
        if name.starts_with("conventional") {
            assert_eq!(passes, 0, "{name}");
        } else {
            assert!(passes > 0, "{name}: no sub-vector pass");
        }
    }
}

/// A program whose wave64 loads each touch 64 distinct lines (every access
/// a cold miss) or, with `hits`, one line loaded again and again after it
/// arrived (one miss, then hits).
fn l0_program(hits: bool) -> String {
    let addr = if hits {
        "v_mov_b32 v1, 0"
    } else {
        "v_lshlrev_b32 v1, 7, v0"
    };
    let mut p = format!("s_load_dwordx2 s[2:3], s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\n{addr}\n");
    // Each all-miss load moves on by 8 KiB (6 × 8 KiB fit the buffer).
    let step = if hits { 0 } else { 0x2000 };
    for i in 0..6 {
        p.push_str(&format!(
            "global_load_dword v{}, v1, s[2:3]\ns_waitcnt vmcnt(0)\nv_add_nc_u32 v10, v10, v{}\nv_add_nc_u32 v1, {step:#x}, v1\n",
            2 + i,
            2 + i
        ));
    }
    p.push_str("s_endpgm");
    p
}

fn auto_passes(hits: bool, threshold: u32) -> (u64, u64, u64) {
    let mut cfg = config(SubvectorMode::Auto, 32);
    cfg.cu.subvector_miss_threshold = threshold;
    // Six accesses per measurement: the hit program's six loads (one miss,
    // five hits) make one window; the all-miss program's first load (64
    // lines) completes one.
    cfg.cu.subvector_sample_accesses = 6;
    let mut gpu = loaded(&l0_program(hits), true, 64, 64, cfg);
    assert_eq!(gpu.run(RunUntil::Idle).unwrap(), RunStatus::Done);
    let m = gpu.stats().memory.vector;
    (gpu.stats().cus[0].subvector_passes, m.hits, m.misses)
}

#[test]
fn the_mode_control_unit_compares_the_l0_miss_rate_with_the_threshold() {
    // Spec 000 §6.6, Fig 8. All misses (1000 ‰): equal to a threshold of
    // 1000 ‰ → sub-vector; above 999 ‰ → sub-vector.
    let (equal, hits, _) = auto_passes(false, 1000);
    assert_eq!(hits, 0, "the all-miss program has no hit");
    assert!(equal > 0, "rate == threshold selects sub-vector looping");
    assert!(auto_passes(false, 999).0 > 0, "rate > threshold");
    // Mostly hits: below 1000 ‰ → conventional order, no sub-vector pass.
    let (below, hits, _) = auto_passes(true, 1000);
    assert!(hits > 0);
    assert_eq!(below, 0, "rate < threshold keeps conventional order");
    // The configured mode is the first indication (spec 000 §6.5): the
    // same program never switches when the configuration says conventional.
    let mut gpu = loaded(
        &l0_program(false),
        true,
        64,
        64,
        config(SubvectorMode::Conventional, 32),
    );
    gpu.run(RunUntil::Idle).unwrap();
    assert_eq!(gpu.stats().cus[0].subvector_passes, 0);
}

/// `s_subvector_loop_begin/end` around a body that counts its passes (s20)
/// and records EXEC in pass 1 (s[30:31]) and pass 2 (s[32:33]); EXEC after
/// the loop goes to s[34:35].
fn loop_program(lo: u32, hi: u32) -> String {
    format!(
        "s_mov_b32 exec_lo, {lo:#x}
s_mov_b32 exec_hi, {hi:#x}
s_mov_b32 s20, 0
s_mov_b64 s[30:31], 0
s_mov_b64 s[32:33], 0
s_subvector_loop_begin s4, 7
s_add_u32 s20, s20, 1
v_add_nc_u32 v1, 1, v1
s_cmp_eq_u32 s20, 1
s_cselect_b64 s[30:31], exec, s[30:31]
s_cmp_eq_u32 s20, 2
s_cselect_b64 s[32:33], exec, s[32:33]
s_subvector_loop_end s4, 0xfff9
s_mov_b64 s[34:35], exec
s_endpgm"
    )
}

/// The last value written to SGPR `code` by any retired instruction.
fn last_sgpr(events: &[Event], code: u8) -> u32 {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Retire(r) => r
                .writes
                .sgpr
                .iter()
                .rev()
                .find(|s| s.0 == code)
                .map(|s| s.1),
            _ => None,
        })
        .next_back()
        .unwrap_or(0)
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

#[test]
fn subvector_loop_instructions_follow_the_four_exec_cases() {
    // Spec 000 §5 table / §6.8: passes 0/1/1/2, EXEC during each pass, EXEC
    // after `end` equal to EXEC at entry — in both issue orders.
    let pair = |lo: u32, hi: u32| u64::from(lo) | u64::from(hi) << 32;
    for mode in [SubvectorMode::Conventional, SubvectorMode::Subvector] {
        for (lo, hi, passes, during) in [
            (0, 0, 0, [0, 0]),
            (0x00ff, 0, 1, [pair(0x00ff, 0), 0]),
            (0, 0xf000_0000, 1, [pair(0, 0xf000_0000), 0]),
            (0x8000_0001, 0x10, 2, [pair(0x8000_0001, 0), pair(0, 0x10)]),
        ] {
            let mut gpu = loaded(&loop_program(lo, hi), true, 64, 64, config(mode, 32));
            assert_eq!(gpu.run(RunUntil::Idle).unwrap(), RunStatus::Done);
            let ev = gpu.take_events();
            let case = format!("{mode:?} exec {:#x}", pair(lo, hi));
            assert_eq!(retires(&ev, "s_add_u32").len(), passes, "{case}: passes");
            let got = |c: u8| u64::from(last_sgpr(&ev, c)) | u64::from(last_sgpr(&ev, c + 1)) << 32;
            assert_eq!([got(30), got(32)], during, "{case}: EXEC during the passes");
            assert_eq!(got(34), pair(lo, hi), "{case}: EXEC after the loop");
            // The body's VALU instruction ran once per pass on exactly that EXEC.
            let valu: Vec<u64> =
                retires(&ev, "v_add_nc_u32")
                    .iter()
                    .map(|r| r.exec)
                    .fold(Vec::new(), |mut v, e| {
                        // Sub-vector passes of one instruction retire separately.
                        v.push(e);
                        v
                    });
            let union: u64 = valu.iter().fold(0, |a, e| a | e);
            assert_eq!(union, pair(lo, hi), "{case}: lanes the body ran on");
        }
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Writes the waveform of the K-instruction program in `mode` (SIMD 0's
/// issue port and VALU, wave 0) to `out`.
fn produce_vcd(mode: SubvectorMode, out: &Path) {
    let mut gpu = loaded(&valu_program("", K), true, 64, 64, config(mode, 32));
    let mut vcd = traces::VcdTrace::create(
        out,
        traces::VcdOptions {
            filter: Some("gpu.cu0.sched0,gpu.cu0.simd0,gpu.cu0.wave0,gpu.cu0.modectl".into()),
            ..traces::VcdOptions::default()
        },
    )
    .unwrap();
    while !gpu.is_idle() {
        gpu.step();
        vcd.sample(gpu.now(), |t| traces::Probe::probe(&gpu, "gpu", t))
            .unwrap();
    }
    vcd.finish().unwrap();
}

#[test]
fn both_issue_orders_are_pinned_waveforms_read_back_with_wellen() {
    for (mode, name, expected) in [
        (
            SubvectorMode::Conventional,
            "subvec_conventional.vcd",
            conventional(K as u64, 2),
        ),
        (
            SubvectorMode::Subvector,
            "subvec_subvector.vcd",
            subvector(K as u64, &[0, 1]),
        ),
    ] {
        let pinned = root().join("traces/golden").join(name);
        let out = std::env::temp_dir().join(format!("gpusim-{}-{name}", std::process::id()));
        produce_vcd(mode, &out);
        let produced = std::fs::read(&out).unwrap();
        if std::env::var_os("GPUSIM_BLESS").is_some() {
            std::fs::write(&pinned, &produced).unwrap();
        }
        let expected_bytes = std::fs::read(&pinned)
            .unwrap_or_else(|e| panic!("{}: {e} (bless it with GPUSIM_BLESS=1)", pinned.display()));
        assert!(
            produced == expected_bytes,
            "{name} differs from the pinned waveform"
        );
        let _ = std::fs::remove_file(&out);
        // Read the pinned file back: the (instruction, part) sequence of the
        // cycles SIMD 0's VALU is busy is the order of spec 000 §3.
        let w = traces::read::Waveform::load(&pinned).unwrap();
        let first = first_valu_pc(&valu_program("", K), true);
        let mut current = 0;
        let mut order = Vec::new();
        let last = w.cycles().last().copied().unwrap_or(0);
        for c in 0..=last {
            let get = |s: &str| w.u64_at(s, c).unwrap_or(0);
            if get("gpu.cu0.sched0.issue_valid") == 1
                && get("gpu.cu0.sched0.issue_class") == hw::stats::Class::Valu as u64
            {
                current = (get("gpu.cu0.sched0.issue_pc") - first) / 4 + 1;
            }
            if get("gpu.cu0.simd0.valid") == 1 {
                order.push((current, get("gpu.cu0.simd0.part")));
            }
        }
        assert_eq!(order, expected, "{name}");
    }
}
