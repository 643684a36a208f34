//! Opcodes on which the golden and the clocked GPU are known to disagree
//! (found by this fuzzer, 2026-11-27, not fixed yet: `docs/reliability.md`
//! lists them with reproductions). A run counts hits on them separately and
//! fails only on new disagreements, so the lists shrink as the models are
//! fixed (a fixed opcode left on a list is harmless but should go).

/// The clocked model faults with "not implemented in the cycle model" (or
/// rejects an operand the golden model accepts).
pub const NOT_IN_CYCLE_MODEL: [&str; 27] = [
    "v_cubeid_f32",
    "v_cubema_f32",
    "v_cubesc_f32",
    "v_cubetc_f32",
    "v_cvt_flr_i32_f32",
    "v_cvt_i32_f32",
    "v_cvt_i32_f64",
    "v_cvt_norm_i16_f16",
    "v_cvt_norm_u16_f16",
    "v_cvt_pk_u8_f32",
    "v_cvt_pknorm_i16_f16",
    "v_cvt_pknorm_i16_f32",
    "v_cvt_pknorm_u16_f16",
    "v_cvt_pknorm_u16_f32",
    "v_cvt_pkrtz_f16_f32",
    "v_cvt_rpi_i32_f32",
    "v_cvt_u32_f32",
    "v_cvt_u32_f64",
    "v_div_fixup_f16",
    "v_dot2_f32_f16",
    "v_dot2c_f32_f16",
    "v_fma_mixhi_f16",
    "v_fma_mixlo_f16",
    "v_frexp_exp_i32_f32",
    "v_mullit_f32",
    "v_pack_b32_f16",
    "v_trig_preop_f64",
];

/// The two models compute different results.
pub const MISMATCHING: [&str; 83] = [
    "v_add_f16",
    "v_ceil_f16",
    "v_ceil_f32",
    "v_ceil_f64",
    "v_cmp_ge_f16",
    "v_cmp_gt_f16",
    "v_cmp_lg_f16",
    "v_cmp_nle_f16",
    "v_cmp_o_f16",
    "v_cmpx_ge_f16",
    "v_cmpx_lt_f16",
    "v_cmpx_neq_f16",
    "v_cmpx_nlg_f16",
    "v_cmpx_o_f16",
    "v_cmpx_u_f16",
    "v_cos_f16",
    "v_cvt_f16_f32",
    "v_cvt_f32_f64",
    "v_cvt_f32_ubyte3",
    "v_cvt_f64_f32",
    "v_cvt_i16_f16",
    "v_cvt_u16_f16",
    "v_div_fixup_f32",
    "v_div_fixup_f64",
    "v_div_fmas_f32",
    "v_div_fmas_f64",
    "v_div_scale_f32",
    "v_div_scale_f64",
    "v_floor_f16",
    "v_floor_f32",
    "v_fma_f16",
    "v_fma_f32",
    "v_fma_f64",
    "v_fma_legacy_f32",
    "v_fma_mix_f32",
    "v_fmac_f16",
    "v_fmac_f32",
    "v_fmac_legacy_f32",
    "v_fract_f16",
    "v_fract_f32",
    "v_fract_f64",
    "v_frexp_exp_i16_f16",
    "v_frexp_exp_i32_f64",
    "v_frexp_mant_f16",
    "v_frexp_mant_f32",
    "v_frexp_mant_f64",
    "v_ldexp_f16",
    "v_ldexp_f32",
    "v_ldexp_f64",
    "v_max3_f16",
    "v_max_f16",
    "v_max_f32",
    "v_med3_f16",
    "v_med3_f32",
    "v_min3_f16",
    "v_min3_f32",
    "v_min_f16",
    "v_min_f32",
    "v_mul_f16",
    "v_mul_f32",
    "v_mul_f64",
    "v_mul_legacy_f32",
    "v_pk_add_f16",
    "v_pk_fma_f16",
    "v_pk_max_f16",
    "v_pk_min_f16",
    "v_pk_mul_f16",
    "v_rcp_f16",
    "v_rcp_f32",
    "v_rndne_f16",
    "v_rndne_f32",
    "v_rndne_f64",
    "v_sin_f16",
    "v_sin_f32",
    "v_sqrt_f16",
    "v_sqrt_f32",
    "v_sqrt_f64",
    "v_sub_f16",
    "v_sub_f32",
    "v_subrev_f16",
    "v_trunc_f16",
    "v_trunc_f32",
    "v_trunc_f64",
];

/// True when `mnemonic` is on either list.
pub fn is_known(mnemonic: &str) -> bool {
    NOT_IN_CYCLE_MODEL.contains(&mnemonic) || MISMATCHING.contains(&mnemonic)
}

/// The mnemonic (without `_e32`/`_e64`/`_sdwa`/`_dpp`) of the instruction a
/// lockstep or fault report names first (between backticks).
pub fn reported_mnemonic(report: &str) -> Option<String> {
    let start = report.find('`')? + 1;
    let word = report[start..].split([' ', '`']).next()?;
    let mut m = word;
    for suffix in ["_e32", "_e64", "_sdwa", "_dpp"] {
        m = m.strip_suffix(suffix).unwrap_or(m);
    }
    Some(m.to_string())
}

/// The known divergence a verdict is, if it is one.
pub fn known_divergence(v: &super::Verdict) -> Option<String> {
    let text = match v {
        super::Verdict::Agree => return None,
        super::Verdict::Mismatch(t) | super::Verdict::Error(t) => t,
    };
    reported_mnemonic(text).filter(|m| is_known(m))
}
