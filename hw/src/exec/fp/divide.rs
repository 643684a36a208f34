//! The division helpers of AMD's Newton-Raphson division sequence:
//! `v_div_scale`, `v_div_fmas`, `v_div_fixup` (RDNA 2 ISA pseudo-code).

use super::arith::{div, fma, rcp};
use super::convert::ldexp;
use super::format::Ctx;

/// Per-format constants of `v_div_scale`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ScaleParams {
    /// Exponent difference (numerator − denominator) at which the quotient
    /// nears the largest finite value (96 for f32, 768 for f64).
    pub near_max: i64,
    /// The scale power (64 for f32, 128 for f64).
    pub scale: i32,
    /// Numerator exponent field at or below which it counts as tiny (23, 53).
    pub tiny_num: u64,
}

/// `v_div_scale(S0, S1 = denominator, S2 = numerator)`: (result, VCC bit).
/// "x is denormal" tests on `1/S1` and `S2/S1` use the quotient rounded to
/// nearest-even with denormals kept.
pub(crate) fn div_scale(s0: u64, s1: u64, s2: u64, p: ScaleParams, c: Ctx) -> (u64, bool) {
    let f = c.f;
    let s0 = f.flush_in(s0, c.dn.keep_in);
    let s1 = f.flush_in(s1, c.dn.keep_in);
    let s2 = f.flush_in(s2, c.dn.keep_in);
    if f.is_zero(s1) || f.is_zero(s2) {
        return (f.default_nan(), false);
    }
    let up = |x: u64| ldexp(x, p.scale, c);
    let same = |x: u64, y: u64| x == y && !f.is_nan(x);
    let exact = Ctx::exact(f);
    let e1 = f.exp_field(s1) as i64;
    let e2 = f.exp_field(s2) as i64;
    if e2 - e1 >= p.near_max {
        return (if same(s0, s1) { up(s0) } else { s0 }, true);
    }
    if f.is_denorm(s1) {
        return (up(s0), false);
    }
    let rcp_tiny = f.is_denorm(rcp(s1, exact));
    let quot_tiny = f.is_denorm(div(s2, s1, exact));
    if rcp_tiny && quot_tiny {
        (if same(s0, s1) { up(s0) } else { s0 }, true)
    } else if rcp_tiny {
        (ldexp(s0, -p.scale, c), false)
    } else if quot_tiny {
        (if same(s0, s2) { up(s0) } else { s0 }, true)
    } else if e2 <= p.tiny_num as i64 {
        (up(s0), false)
    } else {
        (s0, false)
    }
}

/// `v_div_fmas`: the fused `S0·S1 + S2`, scaled by `2^scale` before its single
/// rounding when the lane's VCC bit is set.
pub(crate) fn div_fmas(a: u64, b: u64, d: u64, vcc: bool, scale: i32, c: Ctx) -> u64 {
    fma(a, b, d, if vcc { scale } else { 0 }, false, c)
}

/// `v_div_fixup(S0 = quotient, S1 = denominator, S2 = numerator)`: the special
/// cases of division, else `|S0|` with the quotient's sign.
pub(crate) fn div_fixup(s0: u64, s1: u64, s2: u64, c: Ctx) -> u64 {
    let f = c.f;
    let s1 = f.flush_in(s1, c.dn.keep_in);
    let s2 = f.flush_in(s2, c.dn.keep_in);
    let sign = f.sign(s1) != f.sign(s2);
    if f.is_nan(s2) {
        f.quiet(s2)
    } else if f.is_nan(s1) {
        f.quiet(s1)
    } else if (f.is_zero(s1) && f.is_zero(s2)) || (f.is_inf(s1) && f.is_inf(s2)) {
        f.default_nan()
    } else if f.is_zero(s1) || f.is_inf(s2) {
        f.inf(sign)
    } else if f.is_inf(s1) || f.is_zero(s2) {
        f.zero(sign)
    } else if f.is_nan(s0) {
        f.quiet(s0)
    } else {
        f.abs(f.flush_in(s0, c.dn.keep_in)) | f.zero(sign)
    }
}
