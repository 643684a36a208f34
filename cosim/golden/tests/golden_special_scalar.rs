//! Golden model: scalar forms fixed or added with the coverage work.

use arch::isa::Target;
use golden::testing::probe::Probe;

#[test]
fn set_gpr_idx_idx_replaces_m0_low_byte() {
    // gfx803 S_SET_GPR_IDX_IDX: M0[7:0] = S0.u[7:0], the rest of M0 kept.
    let mut p = Probe::new(Target::GFX803);
    p.wave.sgpr[124] = 0x1234_5678;
    p.wave.sgpr[24] = 0xffff_ffab;
    p.exec("s_set_gpr_idx_idx s24").unwrap();
    assert_eq!(p.wave.sgpr[124], 0x1234_56ab);
}

#[test]
fn unmodelled_scalar_forms_fault_as_not_implemented() {
    for (t, text) in [
        (Target::GFX803, "s_rfe_b64 s[24:25]"),
        (Target::GFX803, "s_cbranch_join s24"),
        (Target::GFX803, "s_cbranch_g_fork s[24:25], s[28:29]"),
        (Target::GFX803, "s_rfe_restore_b64 s[24:25], s28"),
        (Target::GFX1030_W32, "s_rfe_b64 s[24:25]"),
    ] {
        let err = Probe::new(t).exec(text).unwrap_err();
        assert!(
            err.contains("not implemented in the golden model"),
            "{t:?} {text}: {err}"
        );
    }
}
