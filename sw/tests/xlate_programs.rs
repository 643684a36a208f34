//! Hand-written gfx803 programs run natively on the gfx803
//! golden GPU and, translated, on the gfx1030 golden GPU: the output buffers
//! must be identical, and where the answer is known independently (the
//! unfused multiply-add rounding and denormal rules) equal to it.

mod xlate_support;

use arch::isa::{assemble, Target};
use xlate_support::{compare, Shape, LANES};

/// Output dwords per work-item.
const OUT_DWORDS: u32 = 8;

/// `out = s[2:3]` from the kernarg; `v[10:11]` = out + lane × 32.
const PROLOGUE: &str = "
    s_load_dwordx2 s[2:3], s[0:1], 0x0
    v_lshlrev_b32_e32 v10, 5, v0
    s_waitcnt lgkmcnt(0)
    v_mov_b32_e32 v11, s3
    v_add_u32_e32 v10, vcc, s2, v10
    v_addc_u32_e32 v11, vcc, 0, v11, vcc
";

/// Stores v[20:27] at `v[10:11]` and ends.
const EPILOGUE: &str = "
    flat_store_dwordx4 v[10:11], v[20:23]
    v_add_u32_e32 v12, vcc, 16, v10
    v_addc_u32_e32 v13, vcc, 0, v11, vcc
    flat_store_dwordx4 v[12:13], v[24:27]
    s_waitcnt vmcnt(0)
    s_endpgm
";

/// Native and translated outputs of `text` between [`PROLOGUE`] and
/// [`EPILOGUE`], asserted identical.
fn both(text: &str, denorm_f32: u32) -> Vec<u32> {
    let shape = Shape {
        vgprs: 32,
        denorm_f32,
        lds_bytes: 4 * LANES,
        out_bytes: LANES * OUT_DWORDS * 4,
    };
    compare(
        &format!("{PROLOGUE}\n{text}\n{EPILOGUE}"),
        shape,
        OUT_DWORDS,
    )
    .unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[test]
fn unfused_multiply_adds_round_twice_like_gfx8() {
    let text = "
        v_cvt_f32_u32_e32 v1, v0
        v_mul_f32_e32 v2, 0x3dcccccd, v1          // p = lane * 0.1
        v_mov_b32_e32 v20, 1.0
        v_mac_f32_e32 v20, v2, v2                 // p*p + 1
        s_mov_b32 s4, 0x3eaaaaab
        v_mad_f32 v21, v2, s4, -v1                // p/3 - lane
        v_madmk_f32 v22, v2, 0x40490fdb, v1       // p*pi + lane
        v_madak_f32 v23, v2, v1, 0x3dcccccd       // p*lane + 0.1
        v_mov_b32_e32 v24, 0
        v_mov_b32_e32 v25, 0
        v_mov_b32_e32 v26, 0
        v_mov_b32_e32 v27, 0
    ";
    let out = both(text, 0);
    let mut fused_would_differ = false;
    for lane in 0..LANES {
        let x = lane as f32;
        let p = x * f32::from_bits(0x3dcc_cccd);
        let third = f32::from_bits(0x3eaa_aaab);
        let pi = f32::from_bits(0x4049_0fdb);
        let tenth = f32::from_bits(0x3dcc_cccd);
        let want = [p * p + 1.0, p * third - x, p * pi + x, p * x + tenth];
        let fused = [
            p.mul_add(p, 1.0),
            p.mul_add(third, -x),
            p.mul_add(pi, x),
            p.mul_add(x, tenth),
        ];
        let base = (lane * OUT_DWORDS) as usize;
        for (k, w) in want.iter().enumerate() {
            assert_eq!(out[base + k], w.to_bits(), "lane {lane} value {k}");
            fused_would_differ |= fused[k].to_bits() != w.to_bits();
        }
    }
    assert!(fused_would_differ, "the test must tell fused from unfused");
}

#[test]
fn unfused_multiply_adds_flush_denormals_even_when_mode_keeps_them() {
    let text = "
        v_mov_b32_e32 v2, 0x1e3ce508              // 1e-20: the square is denormal
        v_mov_b32_e32 v3, 1                       // the smallest denormal
        v_mov_b32_e32 v20, 0
        v_mac_f32_e32 v20, v2, v2                 // flushed product: 0
        v_mul_f32_e32 v21, v2, v2                 // MODE keeps denormals: 1e-40
        v_mad_f32 v22, v2, v2, v3                 // flushed inputs and product: 0
        v_add_f32_e32 v23, 0, v3                  // MODE restored: the denormal
        v_mov_b32_e32 v24, 0
        v_mov_b32_e32 v25, 0
        v_mov_b32_e32 v26, 0
        v_mov_b32_e32 v27, 0
    ";
    let out = both(text, 3);
    let tiny = f32::from_bits(0x1e3c_e508);
    assert_eq!(out[..4], [0, (tiny * tiny).to_bits(), 0, 1]);
    assert_ne!((tiny * tiny).to_bits(), 0);
}

/// The f16 unfused multiply-adds (gfx1030 has none): product rounded to
/// half, sum rounded, high half zeroed.
#[test]
fn half_unfused_multiply_adds_match_native() {
    let text = "
        v_cvt_f32_u32_e32 v1, v0
        v_mul_f32_e32 v1, 0x3e4ccccd, v1          // lane * 0.2
        v_cvt_f16_f32_e32 v2, v1
        v_add_f16_e32 v3, 0.5, v2
        v_mov_b32_e32 v20, -1
        v_mov_b32_e32 v21, 0xffff3c00
        v_mov_b32_e32 v22, -1
        v_mov_b32_e32 v23, -1
        v_mov_b32_e32 v24, -1
        v_mac_f16_e32 v21, v2, v3                 // x*y + 1
        v_mad_f16 v22, v2, -v3, v2
        v_madmk_f16 v23, v2, 0x4248, v3           // x*3.14 + y
        v_madak_f16 v24, v2, v3, 0x2e66           // x*y + 0.1
        v_mov_b32_e32 v20, v21
        v_mov_b32_e32 v25, 0
        v_mov_b32_e32 v26, 0
        v_mov_b32_e32 v27, 0
    ";
    let out = both(text, 0);
    assert!(out
        .iter()
        .step_by(OUT_DWORDS as usize)
        .any(|&w| w != 0x3c00));
    for lane in 0..LANES as usize {
        for k in 0..5 {
            assert_eq!(
                out[lane * OUT_DWORDS as usize + k] >> 16,
                0,
                "lane {lane} value {k}"
            );
        }
    }
}

/// Forms whose gfx1030 counterpart has another shape.
#[test]
fn reshaped_forms_match_native() {
    let text = "
        v_mov_b32_e32 v2, 0x10005
        v_mov_b32_e32 v3, 0x20003
        v_mov_b32_e32 v20, -1
        v_subrev_u16_e32 v20, v3, v2              // v2 - v3 = 2
        v_mov_b32_e32 v21, -1
        v_subrev_u16_e32 v21, 7, v2               // 5 - 7 = 0xfffe
        v_cmp_t_u16_e32 vcc, v2, v3
        v_cndmask_b32_e64 v22, 0, 1, vcc
        v_cmp_f_i16_e64 s[20:21], v2, v3
        v_cndmask_b32_e64 v23, 0, 1, s[20:21]
        buffer_wbinvl1_vol
        s_dcache_wb
        s_dcache_inv_vol
        v_mov_b32_e32 v24, 0
        v_mov_b32_e32 v25, 0
        v_mov_b32_e32 v26, 0
        v_mov_b32_e32 v27, 0
    ";
    let out = both(text, 0);
    assert_eq!(out[..4], [2, 0xfffe, 1, 0]);
}

/// DPP row operations keep their meaning (rows of 16 lanes on both),
/// including bound control and sources in disabled lanes.
#[test]
fn dpp_row_operations_match_native() {
    let text = "
        v_lshlrev_b32_e32 v1, 8, v0
        v_or_b32_e32 v1, 0x55, v1
        v_mov_b32_e32 v20, -1
        v_mov_b32_dpp v20, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
        v_mov_b32_e32 v21, -1
        v_mov_b32_dpp v21, v1 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0
        v_mov_b32_e32 v22, -1
        v_mov_b32_dpp v22, v1 row_shl:3 row_mask:0xf bank_mask:0xf
        v_mov_b32_e32 v23, -1
        v_xor_b32_dpp v23, v1, v1 row_ror:5 row_mask:0xa bank_mask:0xf
        v_mov_b32_e32 v24, -1
        v_and_b32_e32 v2, 3, v0
        v_cmp_ne_u32_e32 vcc, 0, v2
        s_and_saveexec_b64 s[20:21], vcc
        v_mov_b32_dpp v24, v1 row_shr:1 row_mask:0xf bank_mask:0xf
        s_or_b64 exec, exec, s[20:21]
        v_mov_b32_e32 v25, 0
        v_mov_b32_e32 v26, 0
        v_mov_b32_e32 v27, 0
    ";
    let out = both(text, 0);
    let lane = |l: usize, k: usize| out[l * OUT_DWORDS as usize + k];
    assert_eq!(lane(4, 0), (5 << 8) | 0x55, "quad_perm");
    assert_eq!(lane(17, 1), (16 << 8) | 0x55, "row_shr");
}

/// LLVM's gfx8 division turns f32 denormals on and off with `s_setreg`; the
/// mad emulation then cannot know MODE statically and saves/restores it.
#[test]
fn mode_writes_and_unfused_mads_compose() {
    let text = "
        v_mov_b32_e32 v2, 0x1e3ce508              // 1e-20
        s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3
        v_mul_f32_e32 v20, v2, v2                 // denormal kept
        v_mov_b32_e32 v21, 0
        v_mac_f32_e32 v21, v2, v2                 // gfx8 mac flushes: 0
        v_mul_f32_e32 v22, v2, v2                 // MODE restored: kept
        s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 0
        v_mul_f32_e32 v23, v2, v2                 // flushed
        s_getreg_b32 s30, hwreg(HW_REG_MODE, 0, 10)
        v_mov_b32_e32 v24, s30
        v_mov_b32_e32 v25, 0
        v_mov_b32_e32 v26, 0
        v_mov_b32_e32 v27, 0
    ";
    let out = both(text, 0);
    let tiny = f32::from_bits(0x1e3c_e508);
    let d = (tiny * tiny).to_bits();
    assert_eq!(out[..4], [d, 0, d, 0]);
    assert_eq!(out[4] >> 4 & 3, 0, "FP_DENORM single read back");
}

/// `s_getpc_b64` + a PC-relative load reads the legacy image, translated too.
#[test]
fn pc_relative_loads_read_the_legacy_image() {
    let text = "
        s_getpc_b64 s[24:25]
        s_load_dword s26, s[24:25], 0x0
        s_waitcnt lgkmcnt(0)
        v_mov_b32_e32 v20, s26
        v_mov_b32_e32 v21, 0
        v_mov_b32_e32 v22, 0
        v_mov_b32_e32 v23, 0
        v_mov_b32_e32 v24, 0
        v_mov_b32_e32 v25, 0
        v_mov_b32_e32 v26, 0
        v_mov_b32_e32 v27, 0
    ";
    let out = both(text, 0);
    let word = assemble(Target::GFX803, "s_load_dword s26, s[24:25], 0x0").unwrap();
    assert_eq!(
        out[0],
        u32::from_le_bytes([word[0], word[1], word[2], word[3]])
    );
}

/// gfx8 16-bit VALU results zero the high half of the destination; gfx1030
/// keeps it (the translation clears it with `v_and_b32`).
#[test]
fn sixteen_bit_results_clear_the_high_half_like_gfx8() {
    let text = "
        v_mov_b32_e32 v2, 0x10001
        v_mov_b32_e32 v3, 0x20002
        v_mov_b32_e32 v20, -1
        v_add_u16_e32 v20, v2, v3
        v_mov_b32_e32 v21, -1
        v_mad_u16 v21, v2, v3, v2
        v_mov_b32_e32 v22, -1
        v_mul_lo_u16_e32 v22, v2, v3
        v_mov_b32_e32 v23, -1
        v_add_f16_e32 v23, v2, v3
        v_mov_b32_e32 v24, -1
        v_sub_u16_e64 v24, v3, v2
        v_mov_b32_e32 v25, -1
        v_max_u16_e32 v25, v2, v3
        v_mov_b32_e32 v26, -1
        v_cvt_f16_u16_e32 v26, v2
        v_mov_b32_e32 v27, -1
        v_fma_f16 v27, v3, v3, v2
    ";
    let out = both(text, 0);
    for (k, want) in [3, 3, 2, 0x0003, 1, 2, 0x3c00].into_iter().enumerate() {
        assert_eq!(out[k], want, "value {k}");
    }
    assert_eq!(out[7] >> 16, 0, "fma_f16 high half");
}
