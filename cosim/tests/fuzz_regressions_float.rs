//! Regression tests for the floating-point disagreements the random-program
//! lockstep found between the golden and the clocked GPU (issue 14). Each
//! test is the shrinker's minimal program — one instruction on chosen
//! register values — run in lockstep; each failed (a mismatch, or the
//! clocked GPU's "not implemented" fault) before its fix. Which model was
//! right and why is in docs/reliability.md "Bugs found and fixed" and
//! docs/floating-point.md.

use arch::isa::{assemble, decode, Instruction, Target};
use cosim::fuzz::{self, Item, Program, Verdict};

/// MODE: nearest even, denormals kept (f32 and f16/f64), DX10_CLAMP, IEEE.
const KEEP: u32 = 0x3f0;
/// MODE: nearest even, all denormals flushed, IEEE and DX10_CLAMP off.
const FLUSH: u32 = 0x000;

fn inst(text: &str) -> Instruction {
    let target = Target::GFX1030_W32;
    let code = assemble(target, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    decode(target, &code).expect("decodes")
}

/// A wave32 program of `inst` with `vgprs` (register, value) in every lane,
/// `sgprs` (s10..s29, value), VCC all ones, other state zero.
fn program(
    inst: Instruction,
    mode: u32,
    vgprs: &[(usize, u32)],
    sgprs: &[(usize, u32)],
) -> Program {
    let mut data = vec![0u8; 0x6000];
    for lane in 0..32 {
        for &(r, v) in vgprs {
            let at = lane * 128 + 4 * r;
            data[at..at + 4].copy_from_slice(&v.to_le_bytes());
        }
    }
    let mut scalars = vec![0u32; 22];
    for &(s, v) in sgprs {
        scalars[s - 10] = v;
    }
    scalars[20] = u32::MAX;
    Program {
        target: Target::GFX1030_W32,
        mode,
        scalars,
        data,
        body: vec![Item::Inst(inst)],
    }
}

/// Runs the one-instruction program in lockstep and requires agreement.
fn agree(text: &str, mode: u32, vgprs: &[(usize, u32)], sgprs: &[(usize, u32)]) {
    let p = program(inst(text), mode, vgprs, sgprs);
    assert_eq!(fuzz::run(&p, None), Verdict::Agree, "{text}");
}

#[test]
fn clamp_keeps_negative_zero() {
    agree(
        "v_mul_f32_e64 v18, v2, 1.0 clamp",
        0x2f3,
        &[(2, 0x8000_0000)],
        &[],
    );
    agree(
        "v_max_f16_e64 v20, v11, v9 clamp",
        0x220,
        &[(11, 0x8000), (9, 0x8000)],
        &[],
    );
    agree(
        "v_trunc_f64_e64 v[20:21], v[1:2] clamp",
        KEEP,
        &[(1, 0), (2, 0x8000_0000)],
        &[],
    );
}

#[test]
fn legacy_multiply_by_zero_is_positive_zero() {
    agree(
        "v_mul_legacy_f32_e32 v19, v23, v15",
        KEEP,
        &[(23, 0x3f80_0000), (15, 0x8000_0000)],
        &[],
    );
    // A flushed denormal factor is a zero; 0 x NaN is +0 too.
    agree(
        "v_fmac_legacy_f32_e64 v18, v20, v8",
        FLUSH,
        &[(18, 0x8ae9_3431), (20, 1), (8, 0x7fc0_0000)],
        &[],
    );
    agree(
        "v_fma_legacy_f32 v1, v2, v3, v4",
        KEEP,
        &[(2, 0x8000_0000), (3, 0x7f80_0000), (4, 0x8000_0000)],
        &[],
    );
    agree(
        "v_mullit_f32 v1, v2, v3, v4",
        KEEP,
        &[(2, 0x8000_0000), (3, 0x3f80_0000), (4, 0x3f80_0000)],
        &[],
    );
}

#[test]
fn fract_stays_below_one() {
    agree("v_fract_f32_e32 v18, v23", 0x220, &[(23, 0x80f6_9b8c)], &[]);
    agree("v_fract_f16_e32 v18, v23", KEEP, &[(23, 0x8001)], &[]);
    agree(
        "v_fract_f64_e32 v[8:9], v[3:4]",
        0xc0,
        &[(3, 0x01be_b1c6), (4, 0xba56_7643)],
        &[],
    );
}

#[test]
fn non_ieee_min_max_of_two_nans_keeps_the_signalling_nan() {
    agree(
        "v_max_f32_e32 v1, v2, v3",
        0xc0,
        &[(2, 0x7f80_0002), (3, 0x7f80_0001)],
        &[],
    );
    agree(
        "v_min_f16_e32 v1, v2, v3",
        0xc0,
        &[(2, 0x7d02), (3, 0x7d01)],
        &[],
    );
}

#[test]
fn med3_f16_with_a_nan_is_min3() {
    agree(
        "v_med3_f16 v1, v2, v3, v4",
        KEEP,
        &[(2, 0x3c00), (3, 0x7e00), (4, 0x3800)],
        &[],
    );
}

#[test]
fn div_fixup_reads_denormals_as_mode_says() {
    agree(
        "v_div_fixup_f32 v1, v2, v3, v4",
        FLUSH,
        &[(2, 0x3f80_0000), (3, 0x10), (4, 0x3f80_0000)],
        &[],
    );
    agree(
        "v_div_fixup_f16 v1, v2, v3, v4",
        FLUSH,
        &[(2, 0x3c00), (3, 0x10), (4, 0x3c00)],
        &[],
    );
}

#[test]
fn div_scale_flushes_inputs_and_takes_omod() {
    agree(
        "v_div_scale_f32 v13, vcc_lo, v19, v15, v7 mul:2",
        KEEP,
        &[(19, 0x3f80_0000), (15, 0x3f80_0000), (7, 0x4000_0000)],
        &[],
    );
    agree(
        "v_div_scale_f64 v[3:4], s14, v[3:4], v[22:23], v[19:20]",
        0x220,
        &[
            (3, 0),
            (4, 0x3ff0_0000),
            (22, 0),
            (23, 0x28),
            (19, 0),
            (20, 0x3ff0_0000),
        ],
        &[],
    );
}

#[test]
fn div_fmas_scales_before_rounding() {
    // 1.5·2^-126 × 0.5 is a denormal with a bit below its last place: scaled
    // by 2^32 first, the bit survives.
    agree(
        "v_div_fmas_f32 v1, v2, v3, v4",
        KEEP,
        &[(2, 0x00c0_0001), (3, 0x3f00_0000), (4, 0)],
        &[],
    );
}

#[test]
fn ldexp_f16_exponent_is_sixteen_bits() {
    agree(
        "v_ldexp_f16_e32 v15, v10, v13",
        KEEP,
        &[(10, 0x3c00), (13, 0x0001_0000)],
        &[],
    );
}

#[test]
fn sdwa_dword_destination_writes_the_whole_result() {
    agree(
        "v_add_f16_sdwa v1, v2, v3 dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:WORD_0 src1_sel:WORD_0",
        KEEP,
        &[(1, 0xdead_beef), (2, 0x3c00), (3, 0x3c00)],
        &[],
    );
}

#[test]
fn integer_inline_constant_high_half_is_its_sign_extension() {
    agree(
        "v_pack_b32_f16 v16, -10, v23 op_sel:[1,0,0]",
        KEEP,
        &[(23, 0x3c00)],
        &[],
    );
    agree(
        "v_pk_add_f16 v1, v2, -1 op_sel:[0,1]",
        KEEP,
        &[(2, 0x3c00_3c00)],
        &[],
    );
    agree(
        "v_fma_mixlo_f16 v13, |-13|, v3, v4 op_sel_hi:[0,1,1]",
        KEEP,
        &[(3, 0x3c00), (4, 0)],
        &[],
    );
}

#[test]
fn float_to_integer_with_clamp() {
    agree(
        "v_cvt_i32_f32_e64 v1, v2 clamp",
        KEEP,
        &[(2, 0xc2f6_0000)],
        &[],
    );
    agree("v_cvt_u16_f16_e64 v1, v2 clamp", KEEP, &[(2, 0x5640)], &[]);
    // The exponent of 0x14a68093 is -85: an integer, not clamped as a float.
    agree(
        "v_frexp_exp_i32_f32_e64 v23, v9 clamp",
        KEEP,
        &[(9, 0x14a6_8093)],
        &[],
    );
    agree(
        "v_frexp_exp_i16_f16_e64 v20, v21 clamp",
        KEEP,
        &[(21, 0x0585)],
        &[],
    );
}

#[test]
fn omod_leaves_a_nan_alone() {
    agree(
        "v_max_f16_e64 v2, v3, v4 mul:2",
        FLUSH,
        &[(3, 0x7d00), (4, 0x7d01)],
        &[],
    );
}

#[test]
fn fmac_f16_accumulates_the_destination_half_it_writes() {
    let mut i = inst("v_fmac_f16_e64 v7, v1, v2");
    i.modifiers.op_sel = 8;
    let p = program(i, KEEP, &[(7, 0x4000_3c00), (1, 0x3c00), (2, 0x3c00)], &[]);
    assert_eq!(fuzz::run(&p, None), Verdict::Agree);
}

#[test]
fn dot2c_dpp_takes_packed_source_modifiers() {
    agree(
        "v_dot2c_f32_f16_dpp v4, |v14|, -|v23| quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
        KEEP,
        &[(4, 0x3f80_0000), (14, 0xbc00_3c00), (23, 0x4000_c000)],
        &[],
    );
}

#[test]
fn mixed_precision_sources_widen_f16_exactly() {
    // An f16 denormal source with f16 denormals flushed by MODE.
    agree(
        "v_fma_mix_f32 v1, v2, v3, v4 op_sel_hi:[1,0,0]",
        0x030,
        &[(2, 0x0001), (3, 0x4f80_0000), (4, 0)],
        &[],
    );
}

/// The float opcodes the clocked GPU lacked ("not implemented in the cycle
/// model"), each on ordinary and special values.
#[test]
fn float_opcodes_the_cycle_model_lacked() {
    let cases: [&str; 16] = [
        "v_cubeid_f32 v1, v2, v3, v4",
        "v_cubesc_f32 v1, v2, v3, v4",
        "v_cubetc_f32 v1, v2, v3, v4",
        "v_cubema_f32 v1, v2, v3, v4",
        "v_mullit_f32 v1, v2, v3, v4",
        "v_trig_preop_f64 v[1:2], v[2:3], v4",
        "v_cvt_norm_i16_f16_e32 v1, v2",
        "v_cvt_norm_u16_f16_e32 v1, v2",
        "v_cvt_pknorm_i16_f32 v1, v2, v3",
        "v_cvt_pknorm_u16_f16 v1, v2, v3",
        "v_cvt_pk_u8_f32 v1, v2, v3, v4",
        "v_div_fixup_f16 v1, v2, v3, v4",
        "v_dot2_f32_f16 v1, v2, v3, v4",
        "v_fma_mixhi_f16 v1, v2, v3, v4 op_sel_hi:[1,1,0]",
        "v_cvt_pkrtz_f16_f32_e64 v1, v2, v3 clamp",
        "v_pack_b32_f16 v1, v2, v3 clamp",
    ];
    let values: [[u32; 3]; 4] = [
        [0x3f80_0000, 0xbf00_0000, 0x4000_0000],
        [0x7fc0_0000, 0x8000_0000, 0x0000_0001],
        [0xc040_3c00, 0x3e80_b800, 0x7f80_0000],
        [0x4093_0000, 0x0000_0003, 0xff7f_ffff],
    ];
    for text in cases {
        for v in values {
            agree(text, KEEP, &[(2, v[0]), (3, v[1]), (4, v[2])], &[]);
            agree(text, FLUSH, &[(2, v[0]), (3, v[1]), (4, v[2])], &[]);
        }
    }
}

/// Found by `gpusim fuzz-lockstep --seed 1000 --programs 11000` (seed
/// 11577): a denormal input that min/max flush on output made the golden
/// GPU's median +0.
#[test]
fn med3_with_a_flushed_denormal_is_the_median() {
    agree(
        "v_med3_f32 v3, v21, v10, v10",
        0x110,
        &[(21, 0x0001_8001), (10, 0xa162_f5c1)],
        &[],
    );
}

/// Seed 10555: a negative 16-bit integer result written as a whole dword.
#[test]
fn sdwa_dword_i16_result_is_zero_extended() {
    agree(
        "v_cvt_i16_f16_sdwa v8, v17 dst_sel:DWORD dst_unused:UNUSED_SEXT src0_sel:DWORD",
        KEEP,
        &[(17, 0xc500)],
        &[],
    );
}
