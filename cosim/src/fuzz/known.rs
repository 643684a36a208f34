//! Opcodes on which the golden and the clocked GPU are known to disagree.
//! Both lists are empty: every disagreement this fuzzer found (2026-11-27)
//! was fixed (`docs/reliability.md`, "Bugs found and fixed"). The lists stay
//! so a disagreement found later that cannot be fixed at once can be parked
//! here: a run counts hits on listed opcodes separately and fails only on
//! new disagreements.

/// The clocked model faults with "not implemented in the cycle model" (or
/// rejects an operand the golden model accepts).
pub const NOT_IN_CYCLE_MODEL: [&str; 0] = [];

/// The two models compute different results.
pub const MISMATCHING: [&str; 0] = [];

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
