//! Golden model: vector ALU semantics (VOP1/VOP2/VOPC/VOP3/VOP3P, SDWA, DPP)
//! on gfx803 and gfx1030 wave32/wave64, each program run through a real
//! dispatch. Expected lane values are computed here in plain Rust; EXEC masking
//! is checked by pre-loading destinations and switching lanes off.

use arch::isa::{Isa, Target};
use golden::testing::Kernel;
use golden::wave::Wave;

const ALL: [Target; 3] = [Target::GFX803, Target::GFX1030_W32, Target::GFX1030_W64];
const GFX10: [Target; 2] = [Target::GFX1030_W32, Target::GFX1030_W64];

/// Fills the wave-size dependent spellings: `{vcc}`, `{exec}`, `{smov}`
/// (s_mov for a lane mask), `{m10}`/`{m12}` (lane-mask SGPRs).
fn text(t: Target, src: &str) -> String {
    let w64 = t.wave64;
    src.replace("{vcc}", if w64 { "vcc" } else { "vcc_lo" })
        .replace("{exec}", if w64 { "exec" } else { "exec_lo" })
        .replace("{smov}", if w64 { "s_mov_b64" } else { "s_mov_b32" })
        .replace("{m10}", if w64 { "s[10:11]" } else { "s10" })
        .replace("{m12}", if w64 { "s[12:13]" } else { "s12" })
}

fn run(t: Target, src: &str) -> Wave {
    let source = text(t, src);
    let done = Kernel::new(t, &source)
        .run()
        .unwrap_or_else(|e| panic!("{t:?}: {e}\n{source}"));
    assert_eq!(done.waves.len(), 1, "{t:?}");
    done.waves[0].clone()
}

/// Asserts `v{reg}[lane] == f(lane)` for every lane of the wave.
fn check(w: &Wave, reg: usize, f: impl Fn(u32) -> u32) {
    for lane in 0..w.lanes() {
        let got = w.vgpr[reg][lane as usize];
        let want = f(lane);
        assert_eq!(
            got, want,
            "{:?}: v{reg} lane {lane} = {got:#x}, expected {want:#x}",
            w.target
        );
    }
}

/// The lane mask `f` selects.
fn mask(w: &Wave, f: impl Fn(u32) -> bool) -> u64 {
    (0..w.lanes()).filter(|&l| f(l)).fold(0, |m, l| m | 1 << l)
}

fn sgpr_mask(w: &Wave, first: usize) -> u64 {
    let lo = u64::from(w.sgpr[first]);
    if w.target.wave64 {
        lo | u64::from(w.sgpr[first + 1]) << 32
    } else {
        lo
    }
}

#[test]
fn carries_in_vcc_and_sgpr_masks() {
    let gfx10 = "
        v_mov_b32 v1, -1
        v_add_co_u32 v2, {vcc}, v0, v1
        v_add_co_ci_u32_e32 v3, {vcc}, 0, v0, {vcc}
        v_add_co_u32 v4, {m10}, v0, v1
        v_sub_co_u32 v5, {m12}, 3, v0
        v_sub_co_ci_u32_e64 v6, {m12}, v0, 2, {m12}
        v_subrev_co_ci_u32_e32 v7, {vcc}, 0, v0, {vcc}
        v_add_nc_u32 v8, v0, 10
        v_sub_nc_u32 v9, v0, 10
        v_subrev_nc_u32 v10, v0, 10
        s_endpgm";
    let gfx803 = "
        v_mov_b32 v1, -1
        v_add_u32 v2, vcc, v0, v1
        v_addc_u32 v3, vcc, 0, v0, vcc
        v_add_u32_e64 v4, s[10:11], v0, v1
        v_sub_u32_e64 v5, s[12:13], 3, v0
        v_subb_u32_e64 v6, s[12:13], v0, 2, s[12:13]
        v_subbrev_u32 v7, vcc, 0, v0, vcc
        v_add_u32 v8, vcc, v0, 10
        v_subrev_u32 v9, vcc, 10, v0
        v_sub_u32 v10, vcc, 10, v0
        s_endpgm";
    for t in ALL {
        let w = run(t, if t.isa == Isa::Gfx803 { gfx803 } else { gfx10 });
        check(&w, 2, |l| l.wrapping_sub(1));
        check(&w, 3, |l| l + u32::from(l != 0));
        check(&w, 4, |l| l.wrapping_sub(1));
        assert_eq!(sgpr_mask(&w, 10), mask(&w, |l| l != 0), "{t:?} carry");
        check(&w, 5, |l| 3u32.wrapping_sub(l));
        // borrow of 3 - l is l > 3; then v0 - 2 - borrow.
        check(&w, 6, |l| l.wrapping_sub(2).wrapping_sub(u32::from(l > 3)));
        let borrow6 = |l: u32| u64::from(l) < 2 + u64::from(l > 3);
        assert_eq!(sgpr_mask(&w, 12), mask(&w, borrow6), "{t:?} borrow");
        // vcc after v3 (carry of 0 + l + c) is 0 everywhere: v7 = l - 0 - 0.
        check(&w, 7, |l| l);
        check(&w, 8, |l| l + 10);
        check(&w, 9, |l| l.wrapping_sub(10));
        check(&w, 10, |l| 10u32.wrapping_sub(l));
    }
}

#[test]
fn exec_masks_writes_and_carry_bits() {
    let src = "
        v_mov_b32 v2, 0x77
        {smov} {exec}, 0x5555
        v_add_co_u32 v2, {vcc}, v0, -1
        s_endpgm";
    let gfx803 = "
        v_mov_b32 v2, 0x77
        s_mov_b64 exec, 0x5555
        v_add_u32 v2, vcc, v0, -1
        s_endpgm";
    for t in ALL {
        let w = run(t, if t.isa == Isa::Gfx803 { gfx803 } else { src });
        let on = |l: u32| l < 16 && l % 2 == 0;
        check(&w, 2, |l| if on(l) { l.wrapping_sub(1) } else { 0x77 });
        assert_eq!(w.vcc(), mask(&w, |l| on(l) && l != 0), "{t:?}");
    }
}

#[test]
fn shifts_bitwise_and_64_bit_multiply_add() {
    let src = "
        v_mov_b32 v1, 0x80000001
        v_lshlrev_b64 v[2:3], 3, v[0:1]
        v_lshrrev_b64 v[4:5], 4, v[0:1]
        v_ashrrev_i64 v[6:7], 33, v[0:1]
        v_mov_b32 v8, 0x12345678
        v_mov_b32 v9, 0
        v_mad_u64_u32 v[10:11], {m10}, v0, v8, v[8:9]
        v_mov_b32 v12, 0x1000003
        v_mad_u32_u24 v12, v0, v12, 5
        v_mov_b32 v13, 0xffffff
        v_mad_i32_i24 v13, v0, v13, 5
        v_mul_lo_u32 v14, v0, v8
        v_mul_hi_u32 v15, v8, -1
        v_lshlrev_b32_e64 v16, v0, 1
        v_lshrrev_b32_e64 v17, v0, -1
        v_ashrrev_i32 v18, v0, v1
        v_xor_b32 v19, v0, v8
        v_and_b32 v20, 0xf0, v0
        v_or_b32 v21, 0x100, v0
        v_not_b32 v22, v0
        v_bfe_u32 v23, v8, v0, 8
        v_mov_b32 v24, 28
        v_bfe_i32 v24, v1, v24, 4
        v_alignbit_b32 v25, v8, v1, v0
        v_bcnt_u32_b32 v26, v0, 60
        v_ffbl_b32 v27, v0
        v_ffbh_u32 v28, v0
        v_bfrev_b32 v29, v0
{gfx9ops}        v_min_u32 v34, 7, v0
        v_max_i32 v35, -1, v0
        v_min_i32 v36, -3, v0
        v_max_u32 v37, 9, v0
        s_endpgm";
    let gfx9ops = "
        v_mov_b32 v32, 0x100
        v_lshl_add_u32 v30, v0, 2, 7
        v_lshl_or_b32 v31, v0, 4, 1
        v_and_or_b32 v32, v0, 3, v32
        v_add3_u32 v33, v0, v0, 1
";
    for t in ALL {
        let g8 = t.isa == Isa::Gfx803;
        let w = run(t, &src.replace("{gfx9ops}", if g8 { "" } else { gfx9ops }));
        let hi = 0x8000_0001u64 << 32;
        let x = |l: u32| hi | u64::from(l);
        check(&w, 2, |l| (x(l) << 3) as u32);
        check(&w, 3, |l| ((x(l) << 3) >> 32) as u32);
        check(&w, 4, |l| (x(l) >> 4) as u32);
        check(&w, 5, |l| ((x(l) >> 4) >> 32) as u32);
        check(&w, 6, |l| ((x(l) as i64 >> 33) as u64) as u32);
        check(&w, 7, |l| (((x(l) as i64 >> 33) as u64) >> 32) as u32);
        let mad = |l: u32| u64::from(l) * 0x1234_5678 + 0x1234_5678;
        check(&w, 10, |l| mad(l) as u32);
        check(&w, 11, |l| (mad(l) >> 32) as u32);
        assert_eq!(sgpr_mask(&w, 10), 0, "{t:?} mad carry");
        check(&w, 12, |l| l * 3 + 5);
        check(&w, 13, |l| (5 - l as i32) as u32);
        check(&w, 14, |l| l.wrapping_mul(0x1234_5678));
        check(&w, 15, |_| ((0x1234_5678u64 * 0xffff_ffff) >> 32) as u32);
        check(&w, 16, |l| 1 << (l & 31));
        check(&w, 17, |l| u32::MAX >> (l & 31));
        check(&w, 18, |l| (0x8000_0001u32 as i32 >> (l & 31)) as u32);
        check(&w, 19, |l| l ^ 0x1234_5678);
        check(&w, 20, |l| l & 0xf0);
        check(&w, 21, |l| l | 0x100);
        check(&w, 22, |l| !l);
        check(&w, 23, |l| (0x1234_5678u32 >> (l & 31)) & 0xff);
        check(&w, 24, |_| (-8i32) as u32);
        check(&w, 25, |l| {
            ((0x1234_5678u64 << 32 | 0x8000_0001) >> (l & 31)) as u32
        });
        check(&w, 26, |l| l.count_ones() + 60);
        check(
            &w,
            27,
            |l| if l == 0 { u32::MAX } else { l.trailing_zeros() },
        );
        check(
            &w,
            28,
            |l| if l == 0 { u32::MAX } else { l.leading_zeros() },
        );
        check(&w, 29, |l| l.reverse_bits());
        if !g8 {
            check(&w, 30, |l| (l << 2) + 7);
            check(&w, 31, |l| (l << 4) | 1);
            check(&w, 32, |l| (l & 3) | 0x100);
            check(&w, 33, |l| 2 * l + 1);
        }
        check(&w, 34, |l| l.min(7));
        check(&w, 35, |l| l);
        check(&w, 36, |_| (-3i32) as u32);
        check(&w, 37, |l| l.max(9));
    }
}

#[test]
fn compares_cndmask_and_cmpx() {
    let gfx10 = "
        v_mov_b32 v7, 2
        v_mov_b32 v8, 20
        v_cmp_gt_u32_e32 {vcc}, 5, v0
        v_cndmask_b32_e32 v2, 1, v7, {vcc}
        v_cmp_lt_i32_e64 {m10}, v0, 3
        v_cndmask_b32_e64 v3, 10, v8, {m10}
        v_mov_b32 v4, 0
        v_mov_b32 v5, -1
        v_cmp_ne_u64_e32 {vcc}, v[4:5], v[0:1]
        s_mov_b32 s20, 7
        v_mov_b32 v6, 0x99
        v_cmpx_gt_u32_e64 s20, v0
        v_mov_b32 v6, 1
        s_endpgm";
    let gfx803 = "
        v_mov_b32 v7, 2
        v_mov_b32 v8, 20
        v_cmp_gt_u32_e32 vcc, 5, v0
        v_cndmask_b32_e32 v2, 1, v7, vcc
        v_cmp_lt_i32_e64 s[10:11], v0, 3
        v_cndmask_b32_e64 v3, 10, v8, s[10:11]
        v_mov_b32 v4, 0
        v_mov_b32 v5, -1
        v_cmp_ne_u64_e32 vcc, v[4:5], v[0:1]
        s_mov_b32 s20, 7
        v_mov_b32 v6, 0x99
        v_cmpx_gt_u32_e64 s[22:23], s20, v0
        v_mov_b32 v6, 1
        s_endpgm";
    for t in ALL {
        let g8 = t.isa == Isa::Gfx803;
        let w = run(t, if g8 { gfx803 } else { gfx10 });
        check(&w, 2, |l| if l < 5 { 2 } else { 1 });
        check(&w, 3, |l| if l < 3 { 20 } else { 10 });
        assert_eq!(sgpr_mask(&w, 10), mask(&w, |l| l < 3));
        // v[0:1] = (v1 << 32) | lane, v1 = 0 initially: all differ from 0xffffffff00000000.
        assert_eq!(w.vcc(), mask(&w, |_| true), "{t:?}");
        check(&w, 6, |l| if l < 7 { 1 } else { 0x99 });
        assert_eq!(w.exec(), mask(&w, |l| l < 7), "{t:?} exec");
        if g8 {
            // gfx803 v_cmpx writes its sdst as well as EXEC.
            assert_eq!(sgpr_mask(&w, 22), mask(&w, |l| l < 7));
        }
    }
}

#[test]
fn float_arithmetic_and_conversions() {
    let src = "
        v_cvt_f32_u32 v1, v0
        v_mul_f32 v2, 0.5, v1
        v_add_f32 v3, v1, v2
        v_sub_f32 v4, v2, v1
        v_mov_b32 v5, 1.0
        v_fmac_f32 v5, v1, v1
        v_fma_f32 v6, v1, -v1, 2.0
        v_rcp_f32 v7, v1
        v_sqrt_f32 v8, v1
        v_rsq_f32 v9, v1
        v_cvt_i32_f32 v10, v4
        v_cvt_u32_f32 v11, v4
        v_max_f32 v12, v1, 4.0
        v_min_f32 v13, v1, 4.0
        v_ldexp_f32 v14, v1, 3
        v_floor_f32 v15, v4
        v_trunc_f32 v16, v4
        v_frexp_mant_f32 v17, v1
        v_frexp_exp_i32_f32 v18, v1
        v_cmp_gt_f32_e64 {m10}, v1, 4.0
        v_cvt_f32_i32 v19, v10
        s_endpgm";
    for t in ALL {
        let w = run(
            t,
            &src.replace(
                "v_fmac_f32",
                if t.isa == Isa::Gfx803 {
                    "v_mac_f32"
                } else {
                    "v_fmac_f32"
                },
            ),
        );
        let f = |l: u32| l as f32;
        let b = |x: f32| x.to_bits();
        check(&w, 1, |l| b(f(l)));
        check(&w, 2, |l| b(f(l) * 0.5));
        check(&w, 3, |l| b(f(l) * 1.5));
        check(&w, 4, |l| b(f(l) * 0.5 - f(l)));
        check(&w, 5, |l| b(f(l) * f(l) + 1.0));
        check(&w, 6, |l| b(f(l).mul_add(-f(l), 2.0)));
        check(&w, 7, |l| b(1.0 / f(l)));
        check(&w, 8, |l| b(f(l).sqrt()));
        // Correctly rounded 1/sqrt via f64 (exact enough for these inputs).
        check(&w, 9, |l| b((1.0 / f64::from(l).sqrt()) as f32));
        check(&w, 10, |l| (f(l) * 0.5 - f(l)) as i32 as u32);
        check(&w, 11, |_| 0);
        check(&w, 12, |l| b(f(l).max(4.0)));
        check(&w, 13, |l| b(f(l).min(4.0)));
        check(&w, 14, |l| b(f(l) * 8.0));
        check(&w, 15, |l| b((f(l) * 0.5 - f(l)).floor()));
        check(&w, 16, |l| b((f(l) * 0.5 - f(l)).trunc()));
        check(&w, 17, |l| {
            if l == 0 {
                0
            } else {
                let e = 32 - l.leading_zeros();
                b(f(l) / (1u64 << e) as f32)
            }
        });
        check(&w, 18, |l| if l == 0 { 0 } else { 32 - l.leading_zeros() });
        assert_eq!(sgpr_mask(&w, 10), mask(&w, |l| l > 4), "{t:?}");
        check(&w, 19, |l| b((f(l) * 0.5 - f(l)) as i32 as f32));
    }
}

#[test]
fn mbcnt_readlane_writelane_readfirstlane() {
    let src = "
        {smov} {exec}, 0x3c
        v_mbcnt_lo_u32_b32 v1, -1, 0
        v_mbcnt_hi_u32_b32 v1, -1, v1
        v_mbcnt_lo_u32_b32 v2, exec_lo, 0
        v_readfirstlane_b32 s20, v0
        v_readlane_b32 s21, v0, 9
        v_mov_b32 v3, 5
        v_writelane_b32 v3, s21, 2
        s_endpgm";
    for t in ALL {
        let w = run(t, src);
        let on = |l: u32| (2..6).contains(&l);
        check(&w, 1, |l| if on(l) { l } else { 0 });
        check(&w, 2, |l| {
            if on(l) {
                (0x3cu32 & ((1 << l) - 1)).count_ones()
            } else {
                0
            }
        });
        assert_eq!(w.sgpr[20], 2, "{t:?}");
        assert_eq!(w.sgpr[21], 9, "{t:?}");
        // writelane ignores EXEC: lane 2 gets 9; lanes 3..5 got 5.
        check(&w, 3, |l| match l {
            2 => 9,
            3..=5 => 5,
            _ => 0,
        });
    }
}

#[test]
fn sdwa_selects_and_destination_rules() {
    let g8 = "
        v_mov_b32 v1, 0x8182f3f4
        v_mov_b32 v2, 0x11223344
        v_xor_b32_sdwa v2, v0, v1 dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0 src1_sel:BYTE_3
        v_mov_b32 v3, -1
        v_add_u32_sdwa v3, vcc, v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
        v_mov_b32_sdwa v4, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_2
        v_cmp_ne_u32_sdwa vcc, v0, v1 src0_sel:BYTE_0 src1_sel:BYTE_0
        s_endpgm";
    let g10 = "
        v_mov_b32 v1, 0x8182f3f4
        v_mov_b32 v2, 0x11223344
        v_xor_b32_sdwa v2, v0, v1 dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0 src1_sel:BYTE_3
        v_mov_b32 v3, -1
        v_add_nc_u32_sdwa v3, v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
        v_mov_b32_sdwa v4, sext(v1) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_2
        v_cmp_ne_u32_sdwa {m10}, v0, v1 src0_sel:BYTE_0 src1_sel:BYTE_0
        s_endpgm";
    for t in ALL {
        let gfx803 = t.isa == Isa::Gfx803;
        let w = run(t, if gfx803 { g8 } else { g10 });
        check(&w, 2, |l| 0x1122_0044 | ((l ^ 0x81) & 0xff) << 8);
        check(&w, 3, |l| ((l + 0xf3f4) & 0xffff) << 16);
        check(&w, 4, |_| if gfx803 { 0x82 } else { 0xffff_ff82 });
        let ne = if gfx803 { w.vcc() } else { sgpr_mask(&w, 10) };
        assert_eq!(ne, mask(&w, |l| l != 0xf4), "{t:?}");
    }
}

#[test]
fn sixteen_bit_ops_and_high_half_rules() {
    for t in ALL {
        let src = if t.isa == Isa::Gfx803 {
            "v_mov_b32 v1, 0xabcd0000
             v_add_u16 v1, 0xfff0, v0
             v_mov_b32 v2, 0xabcd0000
             v_mov_b32 v3, 3
             v_mad_u16 v2, v0, v3, 7
             s_endpgm"
        } else {
            "v_mov_b32 v1, 0xabcd0000
             v_add_nc_u16 v1, 0xfff0, v0
             v_mov_b32 v2, 0xabcd0000
             v_mad_u16 v2, v0, 3, 7
             v_mov_b32 v3, 0x1234
             v_add_nc_u16 v3, v0, 1 op_sel:[0,0,1]
             s_endpgm"
        };
        let w = run(t, src);
        // gfx803 zeroes the high half of 16-bit results; gfx1030 keeps it.
        let high = if t.isa == Isa::Gfx803 { 0 } else { 0xabcd_0000 };
        check(&w, 1, |l| high | ((l + 0xfff0) & 0xffff));
        check(&w, 2, |l| high | (l * 3 + 7));
        if t.isa == Isa::Gfx1030 {
            check(&w, 3, |l| (l + 1) << 16 | 0x1234);
        }
    }
}

#[test]
fn dpp_row_shifts_and_bound_ctrl() {
    for t in GFX10 {
        let w = run(
            t,
            "v_mov_b32 v1, 0x55
             v_mov_b32_dpp v1, v0 row_shr:1 row_mask:0xf bank_mask:0xf
             v_mov_b32 v2, 0x55
             v_mov_b32_dpp v2, v0 row_shl:2 row_mask:0xf bank_mask:0xf bound_ctrl:1
             v_mov_b32_dpp v3, v0 quad_perm:[3,2,1,0] row_mask:0x1 bank_mask:0xf
             v_add_nc_u32_dpp v4, v0, v0 row_xmask:1 row_mask:0xf bank_mask:0xf
             s_endpgm",
        );
        check(&w, 1, |l| if l % 16 == 0 { 0x55 } else { l - 1 });
        check(&w, 2, |l| if l % 16 >= 14 { 0 } else { l + 2 });
        check(&w, 3, |l| if l < 16 { (l & !3) + 3 - (l & 3) } else { 0 });
        check(&w, 4, |l| (l ^ 1) + l);
    }
}

#[test]
fn unimplemented_opcodes_fault_instead_of_panicking() {
    // GWS is not modelled (docs/golden-coverage.md).
    let done = Kernel::new(Target::GFX1030_W32, "ds_gws_init v0 gds\ns_endpgm").run();
    let err = done.err().unwrap_or_default();
    assert!(err.contains("not implemented"), "{err}");
}

/// Runs `src` with MODE set by `s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 10), mode` first.
fn run_mode(t: Target, mode: u32, src: &str) -> Wave {
    run(
        t,
        &format!("s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 10), {mode:#x}\n{src}"),
    )
}

#[test]
fn denormal_and_rounding_modes() {
    // 2^-149 * 3 (a denormal) times 0.5; 1.0 + 2^-24 (a tie) ...
    let src = "
        v_mov_b32 v1, 3
        v_mul_f32 v2, 0.5, v1
        v_mov_b32 v3, 0x33800000
        v_add_f32 v4, 1.0, v3
        v_mov_b32 v5, 0x33c00000
        v_add_f32 v6, 1.0, v5
        v_sub_f32 v7, 1.0, v5
        s_endpgm";
    for t in ALL {
        // Denormals kept, nearest-even: 1.5 * 2^-149 rounds to even (2 * 2^-149).
        let w = run_mode(t, 0x3f0, src);
        check(&w, 2, |_| 2);
        check(&w, 4, |_| 0x3f80_0000);
        check(&w, 6, |_| 0x3f80_0001);
        check(&w, 7, |_| 0x3f7f_fffe);
        // Denormals flushed (FP_DENORM[1:0] = 0): the denormal input reads as 0.
        let w = run_mode(t, 0x3c0, src);
        check(&w, 2, |_| 0);
        // Round toward zero / +inf / -inf on f32 (FP_ROUND[1:0]).
        let w = run_mode(t, 0x3f3, src);
        check(&w, 6, |_| 0x3f80_0000);
        check(&w, 7, |_| 0x3f7f_fffe);
        let w = run_mode(t, 0x3f1, src);
        check(&w, 4, |_| 0x3f80_0001);
        check(&w, 2, |_| 2);
        let w = run_mode(t, 0x3f2, src);
        check(&w, 2, |_| 1);
        check(&w, 6, |_| 0x3f80_0000);
    }
}

#[test]
fn min_max_nan_and_signed_zero_rules() {
    let src = "
        v_mov_b32 v1, 0x7fc00000
        v_mov_b32 v2, 0x7f800001
        v_mov_b32 v3, 0x80000000
        v_min_f32 v4, v1, 2.0
        v_max_f32 v5, 2.0, v1
        v_min_f32 v6, v2, 2.0
        v_min_f32 v7, 0, v3
        v_max_f32 v8, v3, 0
        v_med3_f32 v9, v1, 1.0, 2.0
        v_med3_f32 v10, 4.0, 1.0, 2.0
        s_endpgm";
    for t in ALL {
        // IEEE mode on (MODE bit 9): sNaN inputs come back quieted.
        let w = run_mode(t, 0x2f0, src);
        check(&w, 4, |_| 0x4000_0000);
        check(&w, 5, |_| 0x4000_0000);
        check(&w, 6, |_| 0x7fc0_0001);
        check(&w, 7, |_| 0x8000_0000);
        check(&w, 8, |_| 0);
        check(&w, 9, |_| 0x3f80_0000);
        check(&w, 10, |_| 0x4000_0000);
        // IEEE mode off: a NaN input yields the other operand, signalling or not.
        let w = run_mode(t, 0x0f0, src);
        check(&w, 6, |_| 0x4000_0000);
    }
}

#[test]
fn fused_versus_unfused_multiply_add() {
    // a = 1 + 2^-12, a*a = 1 + 2^-11 + 2^-24: the product rounds (tie, even)
    // to 1 + 2^-11 before the add in v_mad/v_mac; v_fma keeps 2^-24.
    let src = "
        v_mov_b32 v1, 0x3f800800
        v_mov_b32 v2, 0xbf801000
        v_fma_f32 v3, v1, v1, v2
        v_mad_f32 v4, v1, v1, v2
        v_mov_b32 v5, v2
        v_mac_f32 v5, v1, v1
        s_endpgm";
    let w = run_mode(Target::GFX803, 0x3f0, src);
    check(&w, 3, |_| 0x3380_0000);
    check(&w, 4, |_| 0);
    check(&w, 5, |_| 0);
    let w = run_mode(
        Target::GFX1030_W32,
        0x3f0,
        "v_mov_b32 v1, 0x3f800800
         v_mov_b32 v2, 0xbf801000
         v_mov_b32 v5, v2
         v_fmac_f32 v5, v1, v1
         s_endpgm",
    );
    check(&w, 5, |_| 0x3380_0000);
}

#[test]
fn vop3_modifiers_abs_neg_omod_clamp() {
    let src = "
        v_cvt_f32_i32 v1, v0
        v_sub_f32 v1, 4.0, v1
        v_add_f32_e64 v2, |v1|, 0
        v_add_f32_e64 v3, -v1, 0
        v_mul_f32_e64 v4, v1, 1.0 mul:2
        v_mul_f32_e64 v5, v1, 1.0 div:2
        v_mul_f32_e64 v6, v1, 0.5 clamp
        v_add_nc_u32_e64 v7, v0, -2 clamp
        s_endpgm";
    for t in ALL {
        let g8 = t.isa == Isa::Gfx803;
        let src = if g8 {
            src.replace("v_add_nc_u32_e64 v7, v0, -2 clamp\n", "")
        } else {
            src.to_string()
        };
        let w = run_mode(t, 0x3f0, &src);
        let x = |l: u32| 4.0 - l as f32;
        check(&w, 2, |l| x(l).abs().to_bits());
        check(&w, 3, |l| (-x(l) + 0.0).to_bits());
        check(&w, 4, |l| (x(l) * 2.0).to_bits());
        check(&w, 5, |l| (x(l) * 0.5).to_bits());
        check(&w, 6, |l| (x(l) * 0.5).clamp(0.0, 1.0).to_bits());
        if !g8 {
            // Unsigned saturation: l + 0xfffffffe overflows for l >= 2 (wrapping would give l - 2).
            check(&w, 7, |l| if l < 2 { l + 0xffff_fffe } else { u32::MAX });
        }
    }
}

#[test]
fn f64_arithmetic_conversions_and_compares() {
    let src = "
        v_cvt_f64_u32 v[2:3], v0
        v_add_f64 v[4:5], v[2:3], 0.5
        v_mul_f64 v[6:7], v[4:5], v[4:5]
        v_fma_f64 v[8:9], v[2:3], v[2:3], -1.0
        v_sqrt_f64 v[10:11], v[2:3]
        v_cvt_i32_f64 v12, v[6:7]
        v_cvt_f32_f64 v13, v[4:5]
        v_cmp_lt_f64_e64 {m10}, v[4:5], 4.0
        s_movk_i32 s20, 0x100
        v_cmp_class_f32_e64 {m12}, v13, s20
        v_ldexp_f64 v[14:15], v[4:5], 2
        v_floor_f64 v[16:17], v[4:5]
        s_endpgm";
    for t in ALL {
        let w = run(t, src);
        let pair = |w: &Wave, r: usize, l: u32| {
            f64::from_bits(
                u64::from(w.vgpr[r][l as usize]) | u64::from(w.vgpr[r + 1][l as usize]) << 32,
            )
        };
        for l in 0..w.lanes() {
            let x = f64::from(l);
            assert_eq!(pair(&w, 4, l), x + 0.5, "{t:?}");
            assert_eq!(pair(&w, 6, l), (x + 0.5) * (x + 0.5));
            assert_eq!(pair(&w, 8, l), x.mul_add(x, -1.0));
            assert_eq!(pair(&w, 10, l), x.sqrt());
            assert_eq!(pair(&w, 14, l), (x + 0.5) * 4.0);
            assert_eq!(pair(&w, 16, l), x);
        }
        check(&w, 12, |l| ((l as f64 + 0.5) * (l as f64 + 0.5)) as u32);
        check(&w, 13, |l| (l as f32 + 0.5).to_bits());
        assert_eq!(sgpr_mask(&w, 10), mask(&w, |l| l < 4), "{t:?}");
        // class 0x100 = positive normal: every lane's x + 0.5 is one.
        assert_eq!(sgpr_mask(&w, 12), mask(&w, |_| true), "{t:?}");
    }
}

#[test]
fn packed_math_and_dot_products() {
    for t in GFX10 {
        let w = run(
            t,
            "v_lshl_or_b32 v1, v0, 16, v0
             v_pk_add_u16 v2, v1, 0x10001
             v_pk_mul_lo_u16 v3, v1, v1
             v_pk_add_u16 v4, v1, v1 op_sel:[1,0] op_sel_hi:[0,1]
             v_mov_b32 v5, 0x3c003c00
             v_pk_fma_f16 v6, v5, v5, v5
             v_dot4_u32_u8 v7, v1, 0x01010101, 3
             v_pk_sub_i16 v8, v1, 1 clamp
             s_endpgm",
        );
        check(&w, 2, |l| (l + 1) << 16 | (l + 1));
        check(&w, 3, |l| (l * l) << 16 | (l * l));
        // low lane: hi(v1) + lo(v1); high lane: lo(v1) + hi(v1).
        check(&w, 4, |l| (2 * l) << 16 | (2 * l));
        check(&w, 6, |_| 0x4000_4000);
        check(&w, 7, |l| 2 * l + 3);
        // i16: l - 1 (lane 0 = -1 = 0xffff), high half of the constant 1 is 0.
        check(&w, 8, |l| l << 16 | (l.wrapping_sub(1) & 0xffff));
    }
}

#[test]
fn dpp8_and_gfx803_dpp_broadcasts() {
    for t in GFX10 {
        let w = run(
            t,
            "v_mov_b32_dpp v1, v0 dpp8:[7,6,5,4,3,2,1,0]
             v_mov_b32 v2, 0x55
             {smov} {exec}, 0xfe
             v_mov_b32_dpp v2, v0 dpp8:[0,0,0,0,0,0,0,0]
             s_endpgm",
        );
        check(&w, 1, |l| (l & !7) + 7 - (l & 7));
        // Lane 0 is inactive: without fi DPP8 reads 0 from it; lanes 1..7 write.
        check(&w, 2, |l| match l {
            1..=7 => 0,
            _ => 0x55,
        });
    }
    let w = run(
        Target::GFX803,
        "v_mov_b32 v1, 0x55
         v_mov_b32_dpp v1, v0 row_bcast:15 row_mask:0xa bank_mask:0xf
         v_mov_b32 v2, 0x55
         v_mov_b32_dpp v2, v0 wave_shr:1 row_mask:0xf bank_mask:0xf
         s_endpgm",
    );
    // Rows 1 and 3 (row_mask 0xa) take the last lane of the row before.
    check(&w, 1, |l| {
        if (l / 16) % 2 == 1 {
            (l & !15) - 1
        } else {
            0x55
        }
    });
    check(&w, 2, |l| if l == 0 { 0x55 } else { l - 1 });
}

#[test]
fn gcn_mad_flushes_denormals_whatever_mode_says() {
    // Denormals kept by MODE (0x3f0): v_fma keeps 2^-149 * 3 * 0.5 + 0;
    // v_mad_f32 flushes the denormal input, v_mac too.
    let w = run_mode(
        Target::GFX803,
        0x3f0,
        "v_mov_b32 v1, 3
         v_mov_b32 v2, 0
         v_fma_f32 v3, v1, 1.0, v2
         v_mad_f32 v4, v1, 1.0, v2
         v_mov_b32 v5, 0
         v_mac_f32 v5, 1.0, v1
         s_endpgm",
    );
    check(&w, 3, |_| 3);
    check(&w, 4, |_| 0);
    check(&w, 5, |_| 0);
}
