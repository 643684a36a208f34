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
        // The guide scales the denominator *up* here, but a reciprocal is
        // denormal only for a denominator above 2^(emax-1), which 2^scale
        // takes to infinity (`1.0 / DBL_MAX` gave NaN): it is scaled down,
        // and `div_fmas` scales the small quotient back down.
        (
            if same(s0, s1) {
                ldexp(s0, -p.scale, c)
            } else {
                s0
            },
            true,
        )
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

/// `v_div_fmas`: the fused `S0·S1 + S2`, when the lane's VCC bit is set
/// scaled before its single rounding by the inverse of `v_div_scale`'s
/// scaling: `2^scale` when the quotient estimate `S2` is at least 1 (a
/// denominator scaled up: the quotient was near the largest value), else
/// `2^-scale` (a numerator scaled up or a denominator scaled down: a
/// denormal quotient). The guide's fixed 2^32 (`f64`: 2^64) cannot undo a
/// scaling by 2^64 (2^128); a correctly rounded quotient needs this.
pub(crate) fn div_fmas(a: u64, b: u64, d: u64, vcc: bool, scale: i32, c: Ctx) -> u64 {
    let f = c.f;
    let s = if !vcc {
        0
    } else if f.exp_field(d) as i32 >= f.bias() {
        scale
    } else {
        -scale
    };
    fma(a, b, d, s, false, c)
}

/// `v_div_fixup(S0 = quotient, S1 = denominator, S2 = numerator)`: the special
/// cases of division (with the guide's underflow case, and an overflowed NaN
/// estimate as infinity), else `|S0|` with the quotient's sign.
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
    } else if (f.exp_field(s2) as i32) - (f.exp_field(s1) as i32) < -(f.bias() + f.mbits as i32) {
        // The guide's UNDERFLOW case: the quotient is below half the
        // smallest denormal (the scaled estimate may have overflowed).
        f.zero(sign)
    } else if f.is_nan(s0) {
        // Finite operands, NaN estimate: it overflowed (GCN3 guide: the
        // quotient is the signed infinity).
        f.inf(sign)
    } else {
        f.abs(f.flush_in(s0, c.dn.keep_in)) | f.zero(sign)
    }
}
