//! Golden model: scalar ALU (SOP1/SOP2/SOPK/SOPC/SOPP) and scalar memory (SMEM)
//! semantics on both ISAs, each through a real dispatch. Every expected value is
//! computed by hand; a wrong SCC rule, width or operand order changes it.

use arch::isa::Target;
use golden::testing::{Kernel, DATA, DESCRIPTOR, KERNARG};
use golden::wave::Wave;

const ALL: [Target; 3] = [Target::GFX803, Target::GFX1030_W32, Target::GFX1030_W64];

fn run(target: Target, source: &str) -> Wave {
    let done = Kernel::new(target, source)
        .run()
        .unwrap_or_else(|e| panic!("{target:?}: {e}"));
    assert_eq!(done.waves.len(), 1, "{target:?}");
    done.waves[0].clone()
}

fn s(w: &Wave, first: usize, expected: &[u32]) {
    for (i, &e) in expected.iter().enumerate() {
        assert_eq!(
            w.sgpr[first + i],
            e,
            "{:?}: s{} = {:#x}, expected {e:#x}",
            w.target,
            first + i,
            w.sgpr[first + i]
        );
    }
}

#[test]
fn sop2_arithmetic_and_scc() {
    let src = "
        s_mov_b32 s10, -1
        s_add_u32 s11, s10, 2
        s_cselect_b32 s12, 7, 9
        s_addc_u32 s13, 5, 6
        s_cselect_b32 s14, 7, 9
        s_sub_u32 s15, 3, 5
        s_subb_u32 s16, 10, 3
        s_mov_b32 s17, 0x7fffffff
        s_add_i32 s18, s17, 1
        s_cselect_b32 s19, 1, 0
        s_min_i32 s20, -5, 3
        s_cselect_b32 s21, 1, 0
        s_max_u32 s22, -5, 3
        s_mul_i32 s23, -3, 7
        s_sub_i32 s24, 0x80000000, 1
        s_cselect_b32 s25, 1, 0
        s_absdiff_i32 s26, 3, 10
        s_endpgm";
    for t in ALL {
        let w = run(t, src);
        s(
            &w,
            10,
            &[
                u32::MAX,
                1,
                7,
                12,
                9,
                0xffff_fffe,
                6,
                0x7fff_ffff,
                0x8000_0000,
                1,
                -5i32 as u32,
                1,
                -5i32 as u32,
                -21i32 as u32,
                0x7fff_ffff,
                1,
                7,
            ],
        );
    }
}

#[test]
fn sop2_gfx1030_only_forms() {
    let src = "
        s_mov_b32 s10, -1
        s_mul_hi_u32 s11, s10, s10
        s_mul_hi_i32 s12, s10, s10
        s_mov_b32 s5, 0x40000000
        s_lshl2_add_u32 s13, s5, 3
        s_cselect_b32 s14, 1, 0
        s_lshl1_add_u32 s15, 5, 3
        s_cselect_b32 s16, 1, 0
        s_mov_b32 s6, 0xaaaabbbb
        s_mov_b32 s7, 0xccccdddd
        s_pack_ll_b32_b16 s17, s6, s7
        s_pack_lh_b32_b16 s18, s6, s7
        s_pack_hh_b32_b16 s19, s6, s7
        s_endpgm";
    for t in [Target::GFX1030_W32, Target::GFX1030_W64] {
        let w = run(t, src);
        s(
            &w,
            11,
            &[
                0xffff_fffe,
                0,
                3,
                1,
                13,
                0,
                0xddddbbbb,
                0xccccbbbb,
                0xccccaaaa,
            ],
        );
    }
}

#[test]
fn sop2_bitwise_shifts_and_fields() {
    let src = "
        s_mov_b64 s[10:11], -1
        s_lshr_b64 s[12:13], s[10:11], 36
        s_lshl_b64 s[14:15], 1, 63
        s_ashr_i64 s[16:17], s[14:15], 62
        s_and_b64 s[18:19], s[12:13], 0
        s_cselect_b32 s20, 1, 2
        s_xor_b64 s[22:23], s[10:11], s[14:15]
        s_mov_b32 s5, 0xabcd1234
        s_bfe_u32 s24, s5, 0x80008
        s_bfe_i32 s25, s5, 0x100010
        s_bfe_u64 s[26:27], s[22:23], 0x200020
        s_bfm_b32 s28, 4, 8
        s_nand_b32 s29, 0xf0, 0x3c
        s_andn2_b32 s30, 0xff, 15
        s_orn2_b32 s31, 0, -1
        s_cselect_b32 s32, 1, 2
        s_ashr_i32 s33, s5, 4
        s_lshr_b32 s34, s5, 36
        s_bfe_i64 s[36:37], s[14:15], 0x40003c
        s_cselect_b64 s[38:39], s[12:13], s[14:15]
        s_endpgm";
    for t in ALL {
        let w = run(t, src);
        s(
            &w,
            12,
            &[
                0x0fff_ffff,
                0,
                0,
                0x8000_0000,
                0xffff_fffe,
                0xffff_ffff,
                0,
                0,
                2,
            ],
        );
        s(&w, 22, &[0xffff_ffff, 0x7fff_ffff]);
        s(
            &w,
            24,
            &[
                0x12,
                0xffff_abcd,
                0x7fff_ffff,
                0,
                0xf00,
                0xffff_ffcf,
                0xf0,
                0,
                2,
            ],
        );
        // Arithmetic shift keeps the sign; shift amounts use only 5 bits (36 -> 4).
        s(&w, 33, &[0xfabc_d123, 0x0abc_d123]);
        // Field from bit 60 of width 4 of 0x8000...: 0b1000 sign-extended.
        s(&w, 36, &[0xffff_fff8, 0xffff_ffff]);
        // SCC was 1 (bfe_i64 result non-zero): cselect picks src0.
        s(&w, 38, &[0x0fff_ffff, 0]);
    }
}

#[test]
fn sop1_bit_operations() {
    let src = "
        s_mov_b32 s10, 0x12345678
        s_brev_b32 s11, s10
        s_bcnt1_i32_b32 s12, s10
        s_bcnt0_i32_b32 s13, s10
        s_ff1_i32_b32 s14, s10
        s_ff0_i32_b32 s15, s10
        s_flbit_i32_b32 s16, s10
        s_flbit_i32 s17, -8
        s_flbit_i32_b32 s18, 0
        s_sext_i32_i8 s19, 0x80
        s_not_b32 s20, 0
        s_bitset1_b32 s21, 5
        s_wqm_b32 s22, 0x10020
        s_quadmask_b32 s23, 0x10020
        s_abs_i32 s24, -7
        s_mov_b32 s26, 0
        s_mov_b32 s27, 1
        s_ff1_i32_b64 s25, s[26:27]
        s_bcnt1_i32_b64 s28, -1
        s_sext_i32_i16 s29, 0x8001
        s_brev_b64 s[30:31], 1
        s_not_b64 s[32:33], s[26:27]
        s_bitset0_b64 s[32:33], 0
        s_endpgm";
    for t in ALL {
        let w = run(t, src);
        s(
            &w,
            10,
            &[
                0x1234_5678,
                0x1e6a_2c48,
                13,
                19,
                3,
                0,
                3,
                29,
                u32::MAX,
                0xffff_ff80,
                u32::MAX,
                0x20,
                0xf00f0,
                0x12,
                7,
                32,
            ],
        );
        s(
            &w,
            28,
            &[64, 0xffff_8001, 0, 0x8000_0000, 0xffff_fffe, 0xffff_fffe],
        );
    }
}

#[test]
fn saveexec_and_exec_branches() {
    // Wave64: the b64 forms on the EXEC pair.
    let src64 = "
        s_mov_b64 s[10:11], 0xff
        s_and_saveexec_b64 s[12:13], s[10:11]
        s_cselect_b32 s14, 1, 0
        s_andn2_saveexec_b64 s[18:19], 0
        s_cselect_b32 s20, 1, 0
        s_cbranch_execz 1
        s_mov_b32 s21, 9
        s_mov_b64 exec, s[12:13]
        s_cbranch_execnz 1
        s_mov_b32 s22, 9
        s_orn2_saveexec_b64 s[24:25], 0
        s_mov_b64 s[26:27], exec
        s_mov_b64 exec, s[12:13]
        s_endpgm";
    for t in [Target::GFX803, Target::GFX1030_W64] {
        let w = run(t, src64);
        s(&w, 12, &[u32::MAX, u32::MAX, 1]);
        s(&w, 18, &[0xff, 0, 0, 0, 0]);
        // orn2 with 0: EXEC = 0 | !EXEC = 0 (EXEC was all ones).
        s(&w, 24, &[u32::MAX, u32::MAX, 0, 0]);
        assert_eq!(w.exec(), u64::MAX);
    }
    // Wave32: the b32 forms on EXEC_LO.
    let src32 = "
        s_and_saveexec_b32 s12, 0xf0f0
        s_mov_b32 s13, exec_lo
        s_xor_saveexec_b32 s14, -1
        s_mov_b32 s15, exec_lo
        s_andn1_saveexec_b32 s16, 0xff
        s_mov_b32 s17, exec_lo
        s_cselect_b32 s18, 1, 0
        s_andn2_wrexec_b32 s19, -1
        s_mov_b32 exec_lo, -1
        s_endpgm";
    let w = run(Target::GFX1030_W32, src32);
    s(
        &w,
        12,
        &[
            u32::MAX,
            0xf0f0,
            0xf0f0,
            0xffff_0f0f,
            0xffff_0f0f,
            0xffff_0f00,
            1,
            0xf0ff,
        ],
    );
}

#[test]
fn loops_and_branches() {
    // Sum 10 + 9 + ... + 1 with a backward s_cbranch_scc1.
    let src = "
        s_mov_b32 s10, 0
        s_mov_b32 s11, 10
        s_add_u32 s10, s10, s11
        s_sub_u32 s11, s11, 1
        s_cmp_lg_u32 s11, 0
        s_cbranch_scc1 0xfffc
        s_mov_b32 s12, 0
        s_cmp_eq_u32 s12, 0
        s_cbranch_scc0 1
        s_mov_b32 s13, 5
        s_cmp_gt_i32 s12, -1
        s_cbranch_scc1 1
        s_mov_b32 s14, 5
        s_mov_b64 vcc, 0
        s_cbranch_vccnz 1
        s_mov_b32 s15, 6
        s_cbranch_vccz 1
        s_mov_b32 s16, 6
        s_branch 1
        s_mov_b32 s17, 7
        s_bitcmp1_b32 s10, 0
        s_cselect_b32 s18, 1, 2
        s_bitcmp0_b64 s[10:11], 33
        s_cselect_b32 s19, 1, 2
        s_cmp_lg_u64 s[10:11], 55
        s_cselect_b32 s20, 1, 2
        s_cmp_lt_u32 s12, -1
        s_cselect_b32 s21, 1, 2
        s_cmp_le_i32 -1, s12
        s_cselect_b32 s22, 1, 2
        s_endpgm";
    for t in ALL {
        let w = run(t, src);
        s(&w, 10, &[55, 0, 0, 5, 0, 6, 0, 0, 1, 1, 2, 1, 1]);
    }
}

#[test]
fn pc_moves() {
    let src = "
        s_getpc_b64 s[10:11]
        s_add_u32 s10, s10, 20
        s_addc_u32 s11, s11, 0
        s_swappc_b64 s[12:13], s[10:11]
        s_mov_b32 s22, 5
        s_endpgm
        s_mov_b32 s21, 3
        s_setpc_b64 s[12:13]";
    let code = DESCRIPTOR + 256;
    for t in ALL {
        let w = run(t, src);
        s(&w, 10, &[code as u32 + 24, 0, code as u32 + 16, 0]);
        s(&w, 21, &[3, 5]);
    }
    let call = "
        s_call_b64 s[12:13], 2
        s_mov_b32 s22, 5
        s_endpgm
        s_mov_b32 s21, 3
        s_setpc_b64 s[12:13]";
    for t in [Target::GFX1030_W32, Target::GFX1030_W64] {
        let w = run(t, call);
        s(&w, 12, &[code as u32 + 4, 0]);
        s(&w, 21, &[3, 5]);
    }
}

#[test]
fn sopk_immediates_and_hardware_registers() {
    let src = "
        s_movk_i32 s10, 0x8000
        s_cmpk_eq_i32 s10, 0x8000
        s_cselect_b32 s11, 1, 0
        s_cmpk_eq_u32 s10, 0x8000
        s_cselect_b32 s12, 1, 0
        s_movk_i32 s13, 0x7fff
        s_addk_i32 s13, 0x7fff
        s_mov_b32 s14, 0x7fffffff
        s_addk_i32 s14, 0x1
        s_cselect_b32 s15, 1, 0
        s_mulk_i32 s13, 0xfffe
        s_cmovk_i32 s16, 0x7
        s_cmpk_lt_u32 s13, 0x5
        s_cmovk_i32 s17, 0x9
        s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 0x5
        s_getreg_b32 s18, hwreg(HW_REG_MODE, 0, 4)
        s_mov_b32 s5, 0xa
        s_setreg_b32 hwreg(HW_REG_MODE, 4, 4), s5
        s_getreg_b32 s19, hwreg(HW_REG_MODE, 0, 8)
        s_getreg_b32 s20, hwreg(HW_REG_STATUS, 0, 1)
        s_endpgm";
    for t in ALL {
        let w = run(t, src);
        s(
            &w,
            10,
            &[
                0xffff_8000,
                1,
                0,
                0xfffe_0004,
                0x8000_0000,
                1,
                7,
                0,
                5,
                0xa5,
                0,
            ],
        );
        assert_eq!(w.mode & 0xff, 0xa5);
    }
    let modes = "
        s_round_mode 0x3
        s_denorm_mode 0xc
        s_getreg_b32 s13, hwreg(HW_REG_MODE, 0, 8)
        s_endpgm";
    let w = run(Target::GFX1030_W32, modes);
    s(&w, 13, &[0xc3]);
}

#[test]
fn subvector_loop_runs_each_half_once() {
    // begin at +4 skips to +24 (after end); end at +16 jumps back to +8.
    let src = "
        s_mov_b32 s20, 0
        s_subvector_loop_begin s0, 3
        s_add_u32 s20, s20, 1
        s_or_b32 s24, s24, exec_hi
        s_subvector_loop_end s0, 0xfffd
        s_endpgm";
    for (lanes, passes, hi) in [(64, 2, u32::MAX), (40, 2, 0xff), (16, 1, 0)] {
        let done = Kernel::new(Target::GFX1030_W64, src)
            .grid([lanes, 1, 1], [64, 1, 1])
            .run()
            .unwrap();
        let w = &done.waves[0];
        assert_eq!(w.sgpr[20], passes, "{lanes} lanes");
        assert_eq!(w.sgpr[24], hi, "{lanes} lanes");
        let all = if lanes == 64 {
            u64::MAX
        } else {
            (1 << lanes) - 1
        };
        assert_eq!(w.exec(), all, "EXEC restored after the loop");
    }
}

#[test]
fn smem_loads_offsets_and_buffer_clamping() {
    let mut kernarg = Vec::new();
    for v in [0x1111_1111u32, 0x2222_2222, 0x3333_3333, 0x4444_4444] {
        kernarg.extend(v.to_le_bytes());
    }
    kernarg.extend(DATA.to_le_bytes());
    let data: Vec<u8> = [0xaaaa_0001u32, 0xaaaa_0002, 0xaaaa_0003, 0xaaaa_0004]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let src = "
        s_load_dword s10, s[2:3], 0x4
        s_load_dwordx4 s[12:15], s[2:3], 0x0
        s_load_dwordx2 s[16:17], s[2:3], 0x10
        s_mov_b32 s5, 8
        s_load_dword s18, s[2:3], s5
        s_waitcnt lgkmcnt(0)
        s_load_dword s19, s[16:17], 0x4
        s_mov_b32 s20, s16
        s_mov_b32 s21, s17
        s_mov_b32 s22, 8
        s_mov_b32 s23, 0
        s_buffer_load_dwordx4 s[24:27], s[20:23], 0x0
        s_buffer_load_dword s28, s[20:23], 0x4
        s_buffer_load_dword s29, s[20:23], 0x8
        s_memtime s[30:31]
        s_endpgm";
    for t in ALL {
        let done = Kernel::new(t, src)
            .kernarg(&kernarg)
            .data(&data)
            .run()
            .unwrap();
        let w = &done.waves[0];
        s(w, 10, &[0x2222_2222]);
        s(w, 12, &[0x1111_1111, 0x2222_2222, 0x3333_3333, 0x4444_4444]);
        s(w, 16, &[DATA as u32, 0, 0x3333_3333, 0xaaaa_0002]);
        // NUM_RECORDS = 8 bytes: dwords at offsets 8 and 12 read as zero.
        s(w, 24, &[0xaaaa_0001, 0xaaaa_0002, 0, 0, 0xaaaa_0002, 0]);
        // s_memtime is the step count when it issued: 14 instructions before it,
        // plus the one front-end command.
        s(w, 30, &[15, 0]);
    }
    // gfx1030: immediate and register offsets add.
    let both = "
        s_mov_b32 s5, 4
        s_load_dword s10, s[2:3], s5 offset:0x4
        s_endpgm";
    for t in [Target::GFX1030_W32, Target::GFX1030_W64] {
        let done = Kernel::new(t, both).kernarg(&kernarg).run().unwrap();
        s(&done.waves[0], 10, &[0x3333_3333]);
    }
    // gfx803 scalar stores.
    let store = "
        s_load_dwordx2 s[16:17], s[2:3], 0x10
        s_mov_b32 s10, 0xfeedf00d
        s_mov_b32 s11, 12
        s_waitcnt lgkmcnt(0)
        s_store_dword s10, s[16:17], 0x8
        s_store_dword s10, s[16:17], s11
        s_dcache_wb
        s_endpgm";
    let done = Kernel::new(Target::GFX803, store)
        .kernarg(&kernarg)
        .run()
        .unwrap();
    assert_eq!(done.read_u32(DATA + 8), 0xfeed_f00d);
    assert_eq!(done.read_u32(DATA + 12), 0xfeed_f00d);
    assert_eq!(done.read_u32(DATA + 4), 0);
    let _ = KERNARG;
}

#[test]
fn barrier_orders_the_waves_of_a_workgroup() {
    // Each of 4 waves stores 100 + its index, waits at the barrier, then reads its
    // neighbour's value. Without a working barrier wave 0 would read 0.
    let src = "
        s_getreg_b32 s10, hwreg(HW_REG_HW_ID, 0, 4)
        s_lshl_b32 s11, s10, 2
        s_load_dwordx2 s[16:17], s[2:3], 0x0
        s_waitcnt lgkmcnt(0)
        s_add_u32 s12, s10, 100
        s_store_dword s12, s[16:17], s11
        s_waitcnt lgkmcnt(0)
        s_barrier
        s_add_u32 s13, s10, 1
        s_and_b32 s13, s13, 3
        s_lshl_b32 s13, s13, 2
        s_load_dword s14, s[16:17], s13
        s_waitcnt lgkmcnt(0)
        s_endpgm";
    let done = Kernel::new(Target::GFX803, src)
        .grid([256, 1, 1], [256, 1, 1])
        .kernarg(&DATA.to_le_bytes())
        .run()
        .unwrap();
    assert_eq!(done.waves.len(), 4);
    for w in &done.waves {
        let me = w.id.wave;
        assert_eq!(w.sgpr[10], me);
        assert_eq!(w.sgpr[14], 100 + (me + 1) % 4, "wave {me}");
    }
}

/// Regression: `s_set_gpr_idx_on` has one register operand (its mode is an
/// immediate); it used to fault asking for a second operand.
#[test]
fn set_gpr_idx_on_writes_m0_index_and_mode() {
    let w = run(
        Target::GFX803,
        "
        s_mov_b32 m0, 0xffff0000
        s_mov_b32 s10, 0x123
        s_set_gpr_idx_on s10, gpr_idx(SRC0,DST)
        s_mov_b32 s11, m0
        s_set_gpr_idx_off
        s_endpgm",
    );
    // M0[7:0] = index 0x23, M0[15:12] = SRC0 (1) | DST (8) = 9; other bits kept.
    s(&w, 11, &[0xffff_9023]);
}

#[test]
fn subvector_loop_follows_the_four_exec_cases_of_spec_000() {
    // Spec 000 §5 table / §6.8: body passes 0/1/1/2, EXEC in pass 1 (s[30:31])
    // and pass 2 (s[32:33]), EXEC after the loop equal to EXEC at entry. The
    // clocked GPU runs the same program in hw/tests/subvec.rs.
    let pair = |lo: u32, hi: u32| u64::from(lo) | u64::from(hi) << 32;
    for (lo, hi, passes, during) in [
        (0u32, 0u32, 0, [0, 0]),
        (0x00ff, 0, 1, [pair(0x00ff, 0), 0]),
        (0, 0xf000_0000, 1, [pair(0, 0xf000_0000), 0]),
        (0x8000_0001, 0x10, 2, [pair(0x8000_0001, 0), pair(0, 0x10)]),
    ] {
        let src = format!(
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
            s_endpgm"
        );
        let done = Kernel::new(Target::GFX1030_W64, &src)
            .grid([64, 1, 1], [64, 1, 1])
            .run()
            .unwrap();
        let w = &done.waves[0];
        let case = format!("exec {:#x}", pair(lo, hi));
        let get = |c: usize| u64::from(w.sgpr[c]) | u64::from(w.sgpr[c + 1]) << 32;
        assert_eq!(w.sgpr[20], passes, "{case}: passes");
        assert_eq!([get(30), get(32)], during, "{case}: EXEC during the passes");
        assert_eq!(w.exec(), pair(lo, hi), "{case}: EXEC after the loop");
    }
}
