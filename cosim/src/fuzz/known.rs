//! Opcodes on which the golden and the clocked GPU are known to disagree
//! (found by this fuzzer, 2026-11-27, not fixed yet: `docs/reliability.md`
//! lists them with reproductions). A run counts hits on them separately and
//! fails only on new disagreements, so the lists shrink as the models are
//! fixed (a fixed opcode left on a list is harmless but should go).

/// The clocked model faults with "not implemented in the cycle model" (or
/// rejects an operand the golden model accepts).
pub const NOT_IN_CYCLE_MODEL: [&str; 11] = [
    "v_mad_u64_u32",
    "v_max3_i16",
    "v_min3_u16",
    "v_permlane16_b32",
    "v_permlanex16_b32",
    "v_pk_ashrrev_i16",
    "v_pk_lshlrev_b16",
    "v_pk_lshrrev_b16",
    "v_pk_mul_lo_u16",
    "v_readlane_b32",
    "v_writelane_b32",
];

/// The two models compute different results.
pub const MISMATCHING: [&str; 71] = [
    "s_and_saveexec_b32",
    "s_and_saveexec_b64",
    "s_andn1_saveexec_b64",
    "s_andn2_saveexec_b32",
    "s_andn2_saveexec_b64",
    "s_nand_saveexec_b32",
    "s_nand_saveexec_b64",
    "s_nor_saveexec_b32",
    "s_nor_saveexec_b64",
    "s_or_saveexec_b32",
    "s_or_saveexec_b64",
    "s_orn1_saveexec_b32",
    "s_orn1_saveexec_b64",
    "s_orn2_saveexec_b32",
    "s_orn2_saveexec_b64",
    "s_xnor_saveexec_b32",
    "s_xnor_saveexec_b64",
    "s_xor_saveexec_b32",
    "s_xor_saveexec_b64",
    "v_add_nc_i16",
    "v_ashrrev_i16",
    "v_cmp_eq_u16",
    "v_cmp_gt_i16",
    "v_cmp_gt_u16",
    "v_cmp_le_u16",
    "v_cmp_ne_u16",
    "v_cmpx_eq_i16",
    "v_cmpx_ge_u16",
    "v_cmpx_gt_u16",
    "v_cmpx_lt_i16",
    "v_cmpx_ne_i16",
    "v_dot2_i32_i16",
    "v_dot2_u32_u16",
    "v_ffbh_i32",
    "v_lshrrev_b16",
    "v_mad_i16",
    "v_mad_i32_i16",
    "v_mad_i32_i24",
    "v_mad_i64_i32",
    "v_mad_u16",
    "v_mad_u32_u16",
    "v_mad_u32_u24",
    "v_max3_u16",
    "v_max_i16",
    "v_med3_i16",
    "v_med3_u16",
    "v_min3_i16",
    "v_mqsad_pk_u16_u8",
    "v_mqsad_u32_u8",
    "v_msad_u8",
    "v_mul_i32_i24",
    "v_mul_lo_u16",
    "v_mul_u32_u24",
    "v_pk_add_i16",
    "v_pk_add_u16",
    "v_pk_mad_i16",
    "v_pk_mad_u16",
    "v_pk_max_i16",
    "v_pk_max_u16",
    "v_pk_min_i16",
    "v_pk_min_u16",
    "v_pk_sub_i16",
    "v_pk_sub_u16",
    "v_qsad_pk_u16_u8",
    "v_sad_hi_u8",
    "v_sad_u16",
    "v_sad_u32",
    "v_sub_co_ci_u32",
    "v_sub_nc_i16",
    "v_subrev_co_ci_u32",
    "v_swap_b32",
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
