//! Conversions: between formats (NaN payloads kept, quieted), integer to
//! float (rounded per MODE), float to integer (truncating, flooring or
//! `floor(x + 0.5)`, saturating, NaN to 0), rounding to an integral value,
//! and the exponent tools `frexp` and `ldexp`.

use super::format::{unpack, Ctx, Fmt, Kind};
use super::round::{round_inc, round_pack, shr_grs};
use super::Round;

/// Converts `x` of format `from` (denormal inputs per `keep_in`) to `to`.
pub(crate) fn convert(x: u64, from: Fmt, keep_in: bool, to: Ctx) -> u64 {
    let u = unpack(x, from, keep_in);
    match u.kind {
        Kind::Nan => {
            let frac = x & from.frac_mask();
            let payload = if to.f.mbits >= from.mbits {
                frac << (to.f.mbits - from.mbits)
            } else {
                frac >> (from.mbits - to.f.mbits)
            };
            to.f.inf(u.sign) | payload | to.f.quiet_bit()
        }
        Kind::Inf => to.f.inf(u.sign),
        Kind::Zero => to.f.zero(u.sign),
        Kind::Finite => round_pack(u.sign, u.exp, u.sig as u128, to.f, to.rm, to.dn.keep_out),
    }
}

/// An integer `(-1)^neg × mag` rounded to `c` (zero is +0).
pub(crate) fn from_int(neg: bool, mag: u64, c: Ctx) -> u64 {
    if mag == 0 {
        return 0;
    }
    round_pack(neg, 0, mag as u128, c.f, c.rm, c.dn.keep_out)
}

/// How a float is taken to an integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ToInt {
    /// One of the four directions (trunc = Zero, floor = Down, ceil = Up,
    /// rndne = NearestEven).
    Dir(Round),
    /// `floor(x + 0.5)` on the exact value: nearest, ties toward +infinity.
    HalfUp,
}

/// The integral magnitude of a finite value `sig × 2^exp` rounded as `how`,
/// saturated to `2^100`, which no caller distinguishes from larger values.
fn int_mag(sign: bool, exp: i32, sig: u64, how: ToInt) -> u128 {
    if exp >= 0 {
        return if exp > 40 {
            1 << 100
        } else {
            (sig as u128) << exp
        };
    }
    let (q, g, st) = shr_grs(sig as u128, (-exp) as u32);
    let inc = match how {
        ToInt::Dir(rm) => round_inc(rm, sign, q & 1 != 0, g, st),
        ToInt::HalfUp => g && (!sign || st),
    };
    q + u128::from(inc)
}

/// Float to a saturating integer in `[lo, hi]`; NaN gives 0.
pub(crate) fn to_int(x: u64, f: Fmt, keep_in: bool, how: ToInt, lo: i64, hi: i64) -> i64 {
    let u = unpack(x, f, keep_in);
    match u.kind {
        Kind::Nan | Kind::Zero => 0,
        Kind::Inf => {
            if u.sign {
                lo
            } else {
                hi
            }
        }
        Kind::Finite => {
            let m = int_mag(u.sign, u.exp, u.sig, how);
            if u.sign {
                if m > (-(lo as i128)) as u128 {
                    lo
                } else {
                    -(m as i128) as i64
                }
            } else if m > hi as u128 {
                hi
            } else {
                m as i64
            }
        }
    }
}

/// Rounds to an integral value in the same format (`v_trunc/floor/ceil/rndne`).
pub(crate) fn round_int(x: u64, c: Ctx, rm: Round) -> u64 {
    let f = c.f;
    let u = unpack(x, f, c.dn.keep_in);
    match u.kind {
        Kind::Nan => f.quiet(x),
        Kind::Inf | Kind::Zero => f.flush_in(x, c.dn.keep_in),
        Kind::Finite if u.exp >= 0 => x,
        Kind::Finite => {
            let m = int_mag(u.sign, u.exp, u.sig, ToInt::Dir(rm));
            round_pack(u.sign, 0, m, f, Round::Zero, true)
        }
    }
}

/// `v_frexp_mant`: the significand in [0.5, 1) with the input's sign;
/// infinity and zero are returned as they are, NaN quieted.
pub(crate) fn frexp_mant(x: u64, c: Ctx) -> u64 {
    let f = c.f;
    let u = unpack(x, f, c.dn.keep_in);
    match u.kind {
        Kind::Nan => f.quiet(x),
        Kind::Inf | Kind::Zero => f.flush_in(x, c.dn.keep_in),
        Kind::Finite => {
            let msb = 63 - u.sig.leading_zeros();
            let frac = (u.sig << (f.mbits - msb)) & f.frac_mask();
            f.zero(u.sign) | (((f.bias() - 1) as u64) << f.mbits) | frac
        }
    }
}

/// `v_frexp_exp`: the exponent `e` with `x = m × 2^e`, `m` in [0.5, 1);
/// 0 for zero, infinity and NaN.
pub(crate) fn frexp_exp(x: u64, c: Ctx) -> i32 {
    let u = unpack(x, c.f, c.dn.keep_in);
    match u.kind {
        Kind::Finite => 64 - u.sig.leading_zeros() as i32 + u.exp,
        _ => 0,
    }
}

/// `x × 2^n` rounded once.
pub(crate) fn ldexp(x: u64, n: i32, c: Ctx) -> u64 {
    let f = c.f;
    let u = unpack(x, f, c.dn.keep_in);
    match u.kind {
        Kind::Nan => f.quiet(x),
        Kind::Inf | Kind::Zero => f.flush_in(x, c.dn.keep_in),
        Kind::Finite => {
            // Beyond ±4096 every format has long over- or underflowed.
            let n = n.clamp(-4096, 4096);
            round_pack(u.sign, u.exp + n, u.sig as u128, f, c.rm, c.dn.keep_out)
        }
    }
}
