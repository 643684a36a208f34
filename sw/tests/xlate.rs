//! The translator's passes on hand-written gfx803 programs: preprocessing,
//! the one-pass summary, fixed and order-preserving expansion, waits, the
//! ABI entry sequence and descriptor, the cache, and errors.

use arch::code_object::{ComputePgmRsrc1, KernelDescriptor};
use arch::isa::{assemble, decode_all, Target};
use sw::xlate::preprocess::{preprocess, Removal};
use sw::xlate::summary::summarize;
use sw::xlate::{translate_code, Binding, Cache, XlateError};

fn gfx803(text: &str) -> Vec<u8> {
    assemble(Target::GFX803, text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn body(text: &str) -> Vec<String> {
    translate_code(&gfx803(text), &Binding::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .body_listing()
}

/// (byte offset, text) of every instruction of gfx1030 wave64 code.
fn decoded(code: &[u8]) -> Vec<(usize, String)> {
    decode_all(Target::GFX1030_W64, code)
        .unwrap()
        .into_iter()
        .map(|(o, i)| (o, i.to_string()))
        .collect()
}

// ---- preprocessing ----------------------------------------------------------

const PREPROCESS: &str = "
    s_mov_b32 m0, -1          // 0: LDS limit only gfx8 needs
    s_nop 1                   // 4: hazard padding
    ds_write_b32 v1, v2       // 8
    s_cbranch_scc0 2          // 16: to 28 (an s_nop, itself removed)
    s_branch 0                // 20: to 24, the next instruction
    v_mov_b32 v0, 1           // 24
    s_nop 0                   // 28
    v_mov_b32 v0, 2           // 32
    s_endpgm                  // 36
    v_mov_b32 v0, 3           // 40: unreachable
    s_nop 0                   // 44: unreachable padding
";

#[test]
fn preprocessing_removes_zero_translation_unreachable_and_self_branches() {
    let p = preprocess(&gfx803(PREPROCESS)).unwrap();
    assert_eq!(p.decoded, 11);
    let kept: Vec<u32> = p.insts.iter().map(|i| i.offset).collect();
    assert_eq!(kept, [8, 16, 24, 32, 36]);
    assert_eq!(p.removed_for(Removal::LdsM0), 1);
    assert_eq!(p.removed_for(Removal::Hint), 2);
    assert_eq!(p.removed_for(Removal::SelfBranch), 1);
    assert_eq!(p.removed_for(Removal::Unreachable), 2);
    // The branch to the removed s_nop at 28 now targets `v_mov_b32 v0, 2`.
    assert_eq!(p.insts[1].target, Some(3));
    assert!(p.insts[3].leader);
    assert!(!p.insts[2].leader);
}

#[test]
fn branch_targets_are_right_after_removal() {
    let t = translate_code(&gfx803(PREPROCESS), &Binding::default()).unwrap();
    let code = decoded(&t.code);
    let (at, branch) = code
        .iter()
        .find(|(_, s)| s.starts_with("s_cbranch_scc0"))
        .unwrap()
        .clone();
    let simm: i64 = branch.rsplit(' ').next().unwrap().parse().unwrap();
    let target = at as i64 + 4 + 4 * simm;
    let landed = code.iter().find(|(o, _)| *o as i64 == target).unwrap();
    assert_eq!(landed.1, "v_mov_b32_e32 v0, 2");
    assert!(!code
        .iter()
        .any(|(_, s)| s.starts_with("s_nop") || s.contains("m0")));
    assert!(!code.iter().any(|(_, s)| s.contains("v0, 3")));
}

/// Instructions that translate to nothing are dropped while decoding; their
/// removal reason is still the one of the scan in program order: inside an
/// unreachable run they are unreachable, a branch to one restarts
/// reachability there and lands on the next kept instruction.
#[test]
fn dropped_instructions_keep_their_reason_and_forward_branches() {
    let text = "
        s_branch 3                // 0: to 16
        s_nop 0                   // 4: unreachable
        s_mov_b32 m0, -1          // 8: unreachable (an LDS-only M0 set-up)
        v_mov_b32 v0, 1           // 12: unreachable
        s_nop 0                   // 16: a target: reachable, a hint
        v_mov_b32 v0, 2           // 20
        s_endpgm                  // 24
        s_nop 0                   // 28: unreachable padding
    ";
    let p = preprocess(&gfx803(text)).unwrap();
    assert_eq!(p.decoded, 8);
    let kept: Vec<u32> = p.insts.iter().map(|i| i.offset).collect();
    assert_eq!(kept, [0, 20, 24]);
    assert_eq!(
        p.removed,
        [
            (4, Removal::Unreachable),
            (8, Removal::Unreachable),
            (12, Removal::Unreachable),
            (16, Removal::Hint),
            (28, Removal::Unreachable),
        ]
    );
    assert_eq!(p.insts[0].target, Some(1));
    assert!(p.insts[1].leader);
    // Falling off the end after a dropped instruction is still an error
    // naming the last decoded instruction.
    let e = preprocess(&gfx803("v_mov_b32 v0, 1\ns_nop 0")).unwrap_err();
    assert!(
        matches!(e, XlateError::Unsupported { offset: 4, ref text, .. } if text.starts_with("s_nop")),
        "{e}"
    );
}

#[test]
fn m0_set_up_stays_when_something_else_reads_m0() {
    let p = preprocess(&gfx803("s_mov_b32 m0, -1\ns_mov_b32 s0, m0\ns_endpgm")).unwrap();
    assert_eq!(p.insts.len(), 3);
    let p = preprocess(&gfx803("s_mov_b32 m0, -1\nds_write_b32 v1, v2\ns_endpgm")).unwrap();
    assert_eq!(p.insts.len(), 2);
}

#[test]
fn a_backward_loop_branch_is_kept_and_retargeted() {
    let text = "
        s_mov_b32 s0, 4           // 0
        s_nop 0                   // 4 (removed, not a target)
        s_sub_u32 s0, s0, 1       // 8: loop head
        s_cmp_lg_u32 s0, 0        // 12
        s_cbranch_scc1 -3         // 16: to 8
        s_endpgm                  // 20
    ";
    let p = preprocess(&gfx803(text)).unwrap();
    assert_eq!(p.insts[3].target, Some(1));
    let out = body(text);
    assert_eq!(out[3], "s_cbranch_scc1 65533", "-3 dwords");
}

// ---- errors -----------------------------------------------------------------

#[test]
fn unsupported_instructions_are_errors_naming_instruction_and_offset() {
    // Without the legacy image's address s_getpc_b64 cannot be translated.
    let e = translate_code(
        &gfx803("v_mov_b32 v0, 0\ns_getpc_b64 s[0:1]\ns_endpgm"),
        &Binding::default(),
    )
    .unwrap_err();
    assert!(
        matches!(e, XlateError::Unsupported { offset: 4, .. }),
        "{e:?}"
    );
    let msg = e.to_string();
    assert!(
        msg.contains("byte offset 0x4") && msg.contains("s_getpc_b64 s[0:1]"),
        "{msg}"
    );
    let e = translate_code(
        &gfx803("s_nop 0\ns_setreg_b32 hwreg(HW_REG_MODE), s0\ns_endpgm"),
        &Binding::default(),
    )
    .unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.contains("byte offset 0x4") && msg.contains("s_setreg_b32"),
        "{msg}"
    );
}

#[test]
fn falling_off_the_end_and_wild_branches_are_errors() {
    let e = translate_code(&gfx803("v_mov_b32 v0, 0"), &Binding::default()).unwrap_err();
    assert!(
        matches!(e, XlateError::Unsupported { offset: 0, .. }),
        "{e:?}"
    );
    let e = translate_code(&gfx803("s_branch 100\ns_endpgm"), &Binding::default()).unwrap_err();
    assert_eq!(
        e,
        XlateError::BadBranch {
            offset: 0,
            target: 404
        }
    );
}

#[test]
fn undecodable_bytes_are_fine_only_where_unreachable() {
    let mut code = gfx803("s_endpgm");
    code.extend_from_slice(&[0xff; 8]);
    assert!(translate_code(&code, &Binding::default()).is_ok());
    let mut code = gfx803("v_mov_b32 v0, 0");
    code.extend_from_slice(&[0xff; 8]);
    let e = translate_code(&code, &Binding::default()).unwrap_err();
    assert!(matches!(e, XlateError::Decode { offset: 4, .. }), "{e:?}");
}

// ---- expansion ----------------------------------------------------------------

#[test]
fn carry_forms_and_removed_instructions_expand_as_the_table_says() {
    let out = body(
        "v_add_u32_e32 v0, vcc, s8, v0
         v_addc_u32_e32 v3, vcc, v3, v1, vcc
         v_sub_u32_e32 v2, vcc, v4, v2
         v_subb_u32_e32 v5, vcc, v5, v6, vcc
         v_subrev_u32_e64 v7, s[4:5], v1, v2
         v_mac_f32_e32 v1, s1, v0
         v_madak_f32 v2, v3, v4, 0x41200000
         s_load_dword s2, s[4:5], 0x4
         v_cmpx_gt_u32_e32 vcc, s0, v0
         v_cmpx_eq_f32_e64 s[6:7], v1, 1.0
         s_endpgm",
    );
    // The free VGPR for the product is the first the program does not name (v8).
    let want = [
        "v_add_co_u32 v0, vcc, s8, v0",
        "v_add_co_ci_u32_e32 v3, vcc, v3, v1, vcc",
        "v_sub_co_u32 v2, vcc, v4, v2",
        "v_sub_co_ci_u32_e32 v5, vcc, v5, v6, vcc",
        "v_subrev_co_u32 v7, s[4:5], v1, v2",
        "v_mul_f32_e32 v8, s1, v0",
        "v_add_f32_e32 v1, v8, v1",
        "v_mul_f32_e32 v8, v3, v4",
        "v_add_f32_e64 v2, v8, 0x41200000",
        "s_load_dword s2, s[4:5], 0x4",
        "v_cmp_gt_u32_e32 vcc, s0, v0",
        "s_mov_b64 exec, vcc",
        "v_cmp_eq_f32_e64 s[6:7], v1, 1.0",
        "s_mov_b64 exec, s[6:7]",
        "s_endpgm",
    ];
    assert_eq!(out, want);
}

#[test]
fn unfused_mad_keeps_modifiers_and_flushes_under_denormal_modes() {
    let out = body("v_mad_f32 v0, -v1, |v2|, -v3 clamp\ns_endpgm");
    assert_eq!(
        out,
        [
            "v_mul_f32_e64 v4, -v1, |v2|",
            "v_add_f32_e64 v0, v4, -v3 clamp",
            "s_endpgm"
        ]
    );
    // FLOAT_DENORM_MODE_32 = FLOAT_DENORM_MODE_16_64 = 3: keep denormals.
    let d = KernelDescriptor {
        compute_pgm_rsrc1: ComputePgmRsrc1::from_bits(3 << 16 | 3 << 18),
        ..Default::default()
    };
    let binding = Binding {
        descriptor: d,
        private_bytes_per_item: 0,
        legacy_entry: 0,
    };
    let t = translate_code(&gfx803("v_mac_f32_e32 v1, v2, v3\ns_endpgm"), &binding).unwrap();
    assert_eq!(
        t.body_listing(),
        [
            "s_denorm_mode 12",
            "v_mul_f32_e32 v4, v2, v3",
            "v_add_f32_e32 v1, v4, v1",
            "s_denorm_mode 15",
            "s_endpgm"
        ]
    );
}

/// Seed 003 §5.4/5.5: the same instruction expands to the same bytes
/// wherever it is, and the output is the expansions in program order.
#[test]
fn expansion_is_fixed_and_order_preserving() {
    let text = "
        v_mac_f32_e32 v1, s1, v0
        s_add_u32 s0, s0, 4
        v_add_u32_e32 v2, vcc, s8, v2
        v_mac_f32_e32 v1, s1, v0
        flat_load_dword v3, v[4:5]
        v_mac_f32_e32 v1, s1, v0
        s_waitcnt vmcnt(0)
        v_add_u32_e32 v2, vcc, s8, v2
        s_endpgm";
    let t = translate_code(&gfx803(text), &Binding::default()).unwrap();
    let map = &t.offset_map;
    assert_eq!(map.len(), 9);
    let slice = |k: usize| {
        let end = map.get(k + 1).map_or(t.code.len(), |m| m.1 as usize);
        t.code[map[k].1 as usize..end].to_vec()
    };
    assert!(map.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
    assert_eq!(slice(0), slice(3));
    assert_eq!(slice(0), slice(5));
    assert_eq!(slice(2), slice(7));
    assert_eq!(slice(0).len(), 8, "two VOP2 instructions");
    // Each expansion alone is what translating that instruction alone gives
    // (same free VGPR: v6 is free in both).
    let alone = translate_code(
        &gfx803("v_mac_f32_e32 v1, s1, v0\nv_mov_b32 v5, 0\ns_endpgm"),
        &Binding::default(),
    )
    .unwrap();
    assert_eq!(slice(0), alone.code[..8]);
}

#[test]
fn waits_split_loads_and_stores_by_the_window_in_program_order() {
    let text = "
        flat_load_dword v0, v[0:1]
        flat_store_dword v[2:3], v1
        flat_load_dword v4, v[0:1]
        s_waitcnt vmcnt(1)
        s_waitcnt vmcnt(2) lgkmcnt(0)
        s_waitcnt lgkmcnt(0)
        s_waitcnt vmcnt(15) expcnt(7) lgkmcnt(15)
        s_endpgm";
    let out = body(text);
    assert_eq!(
        &out[3..],
        [
            // Last 1 op: a load. Everything older (the store) must be done.
            "s_waitcnt vmcnt(1)",
            "s_waitcnt_vscnt null, 0x0",
            // Last 2 ops: a store and a load.
            "s_waitcnt vmcnt(1) lgkmcnt(0)",
            "s_waitcnt_vscnt null, 0x1",
            // No vmcnt: no vector wait at all.
            "s_waitcnt lgkmcnt(0)",
            // A wait for nothing is nothing.
            "s_endpgm",
        ]
    );
    // Without stores in the program no vscnt wait is ever needed.
    let out = body("flat_load_dword v0, v[0:1]\ns_waitcnt vmcnt(0)\ns_endpgm");
    assert_eq!(out[1..], ["s_waitcnt vmcnt(0)", "s_endpgm"]);
}

#[test]
fn waits_do_not_count_operations_across_a_block_leader() {
    // Operations before a leader may not precede the wait on every path, so
    // the window stops at the leader: in the second program the legacy
    // vmcnt(1) window would reach the load before the leader; only the store
    // is counted, and the load must be complete (vmcnt(0)).
    let text = "
        flat_store_dword v[2:3], v1   // 0
        flat_load_dword v0, v[0:1]    // 8: leader (target of the branch at 20)
        s_waitcnt vmcnt(1)            // 16
        s_cbranch_scc1 -4             // 20: to 8
        s_endpgm";
    let out = body(text);
    assert_eq!(
        out[2..4],
        ["s_waitcnt vmcnt(1)", "s_waitcnt_vscnt null, 0x0"]
    );
    let text = "
        flat_load_dword v0, v[0:1]    // 0
        flat_store_dword v[2:3], v1   // 8: leader
        s_waitcnt vmcnt(1)            // 16
        s_cbranch_scc1 -4             // 20: to 8
        s_endpgm";
    let out = body(text);
    assert_eq!(
        out[2..4],
        ["s_waitcnt vmcnt(0)", "s_waitcnt_vscnt null, 0x1"]
    );
}

// ---- summary: one linear pass ---------------------------------------------

fn big_program(blocks: usize) -> Vec<u8> {
    // 8 instructions per block, with a branch, a leader, memory and a wait.
    let block = "
        v_add_u32_e32 v0, vcc, s8, v0
        v_addc_u32_e32 v1, vcc, v1, v2, vcc
        flat_load_dword v3, v[0:1]
        s_cmp_eq_u32 s0, 0
        s_cbranch_scc1 2
        flat_store_dword v[0:1], v3
        s_waitcnt vmcnt(0) lgkmcnt(0)
        v_mac_f32_e32 v4, v3, v3
    ";
    let one = gfx803(block);
    let mut code = Vec::with_capacity(one.len() * blocks + 4);
    for _ in 0..blocks {
        code.extend_from_slice(&one);
    }
    code.extend_from_slice(&gfx803("s_endpgm"));
    code
}

/// Seed 003 §5.9: the summary pass visits each instruction exactly once,
/// from 10^3 to 10^6 instructions (work counters, not wall time).
#[test]
fn summary_is_one_linear_pass_up_to_a_million_instructions() {
    for blocks in [125, 12_500, 125_000] {
        let p = preprocess(&big_program(blocks)).unwrap();
        let n = blocks * 8 + 1;
        assert_eq!(p.insts.len(), n);
        let s = summarize(&p);
        assert_eq!(s.work, n as u64, "one visit per instruction");
        assert_eq!(s.vector_loads, blocks as u64);
        assert_eq!(s.vector_stores, blocks as u64);
        assert_eq!(s.waits.len(), blocks);
        assert_eq!(s.leaders, blocks as u64);
        assert_eq!(s.max_vgpr, Some(4));
        assert_eq!(s.temp_vgprs, 1);
    }
    // And the whole pipeline on the 10^6-instruction program.
    let t = translate_code(&big_program(125_000), &Binding::default()).unwrap();
    assert_eq!(t.counts.instructions_in, 1_000_001);
    // Per block: 8 in; carries 1:1, mac 2, wait 2 (vmcnt + vscnt).
    assert_eq!(t.counts.instructions_out, 125_000 * 10 + 1);
}

// ---- ABI --------------------------------------------------------------------

#[test]
fn descriptor_is_wave64_with_room_for_temporaries() {
    let mut d = KernelDescriptor::default();
    d.kernel_code_properties.enable_wavefront_size32 = true; // must be cleared
    d.compute_pgm_rsrc1 = ComputePgmRsrc1::from_bits(1); // 8 VGPRs
    let binding = Binding {
        descriptor: d,
        private_bytes_per_item: 0,
        legacy_entry: 0,
    };
    // v7 used, the mac needs v8: 9 VGPRs = 3 blocks of 4.
    let t = translate_code(&gfx803("v_mac_f32_e32 v7, v1, v2\ns_endpgm"), &binding).unwrap();
    assert!(!t.descriptor.kernel_code_properties.enable_wavefront_size32);
    assert_eq!(
        t.descriptor
            .compute_pgm_rsrc1
            .granulated_workitem_vgpr_count
            .value(),
        2
    );
    assert!(t.descriptor.compute_pgm_rsrc1.mem_ordered);
    assert_eq!(t.counts.vgprs, 9, "resource report");
    // Without temporaries the legacy count stays.
    let t = translate_code(&gfx803("v_mov_b32 v7, 0\ns_endpgm"), &binding).unwrap();
    assert_eq!(
        t.descriptor
            .compute_pgm_rsrc1
            .granulated_workitem_vgpr_count
            .value(),
        1
    );
}

#[test]
fn flat_scratch_entry_sequence_and_prologue_writes() {
    let mut d = KernelDescriptor::default();
    let p = &mut d.kernel_code_properties;
    p.enable_sgpr_private_segment_buffer = true;
    p.enable_sgpr_dispatch_ptr = true;
    p.enable_sgpr_kernarg_segment_ptr = true;
    p.enable_sgpr_flat_scratch_init = true; // s[8:9]
    let binding = Binding {
        descriptor: d,
        private_bytes_per_item: 516,
        legacy_entry: 0,
    };
    let t = translate_code(
        &gfx803(
            "s_add_i32 s8, s8, s11
             s_lshr_b32 flat_scratch_hi, s8, 8
             s_mov_b32 flat_scratch_lo, s9
             s_endpgm",
        ),
        &binding,
    )
    .unwrap();
    assert_eq!(
        t.listing(),
        [
            "s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO), s8",
            "s_setreg_b32 hwreg(HW_REG_FLAT_SCR_HI), s9",
            "s_mov_b32 s9, 0x204",
            "s_add_i32 s8, s8, s11",
            "s_lshr_b32 s102, s8, 8",
            "s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO, 8, 24), s102",
            "s_endpgm",
        ]
    );
    assert_eq!(t.counts.prologue_instructions, 3);
}

// ---- cache ------------------------------------------------------------------

#[test]
fn cache_hits_on_the_same_binding_and_misses_on_another() {
    let code = gfx803("v_add_u32_e32 v0, vcc, s8, v0\ns_endpgm");
    let mut c = Cache::new();
    let b = Binding::default();
    let (t1, hit) = c.get_or_translate(&code, b).unwrap();
    assert!(!hit);
    let (t2, hit) = c.get_or_translate(&code, b).unwrap();
    assert!(hit);
    assert!(std::sync::Arc::ptr_eq(&t1, &t2));
    let other = Binding {
        private_bytes_per_item: 16,
        ..b
    };
    let (_, hit) = c.get_or_translate(&code, other).unwrap();
    assert!(!hit);
    let s = c.stats();
    assert_eq!((s.translations, s.hits), (2, 1));
    assert_eq!(s.instructions_in, 4);
    assert_eq!(s.instructions_out, 4);
    assert_eq!(s.expansion_ratio(), 1.0);
    // An untranslatable program is not cached.
    let bad = gfx803("s_setpc_b64 s[0:1]\ns_endpgm");
    assert!(c.get_or_translate(&bad, b).is_err());
    assert_eq!(c.len(), 2);
}

#[test]
fn getpc_gives_the_legacy_address() {
    let b = Binding::default().at(0x1_2345_6000);
    let t = translate_code(&gfx803("v_mov_b32 v0, 0\ns_getpc_b64 s[4:5]\ns_endpgm"), &b).unwrap();
    // The legacy s_getpc_b64 is at byte 4; it returns the next instruction's address.
    assert_eq!(
        t.body_listing(),
        [
            "v_mov_b32_e32 v0, 0",
            "s_mov_b32 s4, 0x23456008",
            "s_mov_b32 s5, 1",
            "s_endpgm"
        ]
    );
}

#[test]
fn unfused_mad_saves_and_restores_mode_when_the_program_writes_it() {
    let t = translate_code(
        &gfx803(
            "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3
             v_mac_f32_e32 v1, v2, v3
             s_endpgm",
        ),
        &Binding::default(),
    )
    .unwrap();
    if std::env::var_os("XLATE_HEX").is_some() {
        let hex: Vec<String> = t.code.iter().map(|b| format!("0x{b:02x}")).collect();
        println!("{}", hex.join(" "));
    }
    assert_eq!(
        t.body_listing(),
        [
            "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3",
            "s_getreg_b32 s103, hwreg(HW_REG_MODE, 4, 2)",
            "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 0",
            "v_mul_f32_e32 v4, v2, v3",
            "v_add_f32_e32 v1, v4, v1",
            "s_setreg_b32 hwreg(HW_REG_MODE, 4, 2), s103",
            "s_endpgm"
        ]
    );
}

#[test]
fn cache_maintenance_and_reshaped_forms_expand_as_the_table_says() {
    let out = body(
        "buffer_wbinvl1_vol
         s_dcache_wb
         s_dcache_inv_vol
         v_subrev_u16_e32 v1, s2, v3
         v_cmp_t_u16_e32 vcc, v2, v3
         s_endpgm",
    );
    assert_eq!(
        out,
        [
            "buffer_gl0_inv",
            "buffer_gl1_inv",
            "s_dcache_inv",
            "v_sub_nc_u16 v1, v3, s2",
            "v_and_b32_e32 v1, 0xffff, v1",
            "v_cmp_t_u32_e32 vcc, v2, v3",
            "s_endpgm"
        ]
    );
}

/// The table-driven fast path of the expansion gives exactly what the
/// general path (`retarget`) gives, for every instruction of the corpus and
/// for the forms it must leave to the general path.
#[test]
fn fast_path_matches_retarget_on_the_corpus() {
    use sw::xlate::expand::alu::{plain, retarget};
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/kernels/prebuilt/gfx803"
    );
    let (mut fast, mut general) = (0, 0);
    for e in std::fs::read_dir(dir).expect("corpus").flatten() {
        let bytes = std::fs::read(e.path()).expect("read");
        let object = arch::code_object::CodeObject::parse(&bytes).expect("parse");
        for k in object.kernels() {
            let mut at = 0;
            while let Ok(inst) = arch::isa::decode(Target::GFX803, &k.code[at..]) {
                at += usize::from(inst.size.max(4));
                match plain(&inst) {
                    Some((i, _)) => {
                        fast += 1;
                        assert_eq!(Ok(i), retarget(&inst, 0), "{inst}");
                    }
                    None => general += 1,
                }
                if at >= k.code.len() {
                    break;
                }
            }
        }
    }
    // The general path keeps the mads, cache maintenance, flat scratch ...
    assert!(fast > 2000 && general > 5, "fast {fast}, general {general}");
    // Forms that must not take the fast path.
    for text in [
        "v_mac_f32_e32 v1, v2, v3",
        "v_cmpx_lt_u32_e32 vcc, v1, v2",
        "s_getpc_b64 s[0:1]",
        "buffer_wbinvl1_vol",
        "s_mov_b32 flat_scratch_hi, s1",
        "v_mov_b32_dpp v1, v2 wave_shr:1 row_mask:0xf bank_mask:0xf",
        "s_mov_b32 s0, tba_lo",
    ] {
        let code = assemble(Target::GFX803, text).expect(text);
        let inst = arch::isa::decode(Target::GFX803, &code).expect(text);
        assert!(plain(&inst).is_none(), "{text}");
    }
}
