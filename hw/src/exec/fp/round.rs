//! The single rounding step every operation ends with: normalise an exact
//! (or sticky-extended) `sig × 2^exp`, round to the format's precision in one
//! of the four directions, handle overflow and denormal results.

use super::format::Fmt;
use super::Round;

/// Whether rounding increments the kept magnitude, from its last bit, the
/// first discarded bit (guard) and the OR of the rest (sticky).
#[inline]
pub(crate) fn round_inc(rm: Round, sign: bool, lsb: bool, guard: bool, sticky: bool) -> bool {
    match rm {
        Round::NearestEven => guard && (sticky || lsb),
        Round::Up => !sign && (guard || sticky),
        Round::Down => sign && (guard || sticky),
        Round::Zero => false,
    }
}

/// `x >> n` with the guard bit and the sticky OR of the bits below it.
#[inline]
pub(crate) fn shr_grs(x: u128, n: u32) -> (u128, bool, bool) {
    match n {
        0 => (x, false, false),
        1..=127 => (
            x >> n,
            (x >> (n - 1)) & 1 != 0,
            x & ((1u128 << (n - 1)) - 1) != 0,
        ),
        128 => (0, x >> 127 != 0, x & (u128::MAX >> 1) != 0),
        _ => (0, false, x != 0),
    }
}

/// `x >> n` with the discarded bits ORed into bit 0 ("jamming"), so that an
/// addend far below the rounding point still breaks ties and directs rounding.
#[inline]
pub(crate) fn shr_jam(x: u128, n: u32) -> u128 {
    if n == 0 {
        x
    } else if n < 128 {
        (x >> n) | u128::from(x & ((1u128 << n) - 1) != 0)
    } else {
        u128::from(x != 0)
    }
}

/// The result of an overflow in direction `rm`: infinity or the largest finite.
#[inline]
pub(crate) fn overflow(f: Fmt, sign: bool, rm: Round) -> u64 {
    let to_inf = match rm {
        Round::NearestEven => true,
        Round::Zero => false,
        Round::Up => !sign,
        Round::Down => sign,
    };
    if to_inf {
        f.inf(sign)
    } else {
        f.max_finite(sign)
    }
}

/// Rounds `(-1)^sign × sig × 2^exp` to `f`. `sig` is exact, or carries a
/// sticky bit in bit 0 at least two places below the result's last bit. A
/// denormal result becomes signed zero unless `keep_out`; the decision is
/// taken after rounding, so a value that rounds up to the smallest normal stays.
pub(crate) fn round_pack(
    sign: bool,
    exp: i32,
    sig: u128,
    f: Fmt,
    rm: Round,
    keep_out: bool,
) -> u64 {
    if sig == 0 {
        return f.zero(sign);
    }
    let mb = f.mbits as i32;
    let msb = 127 - sig.leading_zeros() as i32;
    let e = msb as i64 + exp as i64;
    let mut lsb_exp = e.max(f.emin() as i64) - mb as i64;
    let shift = lsb_exp - exp as i64;
    let (mut mant, guard, sticky) = if shift <= 0 {
        // Exact: fewer significant bits than the format holds.
        (sig << (-shift) as u32, false, false)
    } else {
        shr_grs(sig, shift.min(200) as u32)
    };
    if round_inc(rm, sign, mant & 1 != 0, guard, sticky) {
        mant += 1;
        if mant >> (mb + 1) != 0 {
            mant >>= 1;
            lsb_exp += 1;
        }
    }
    if mant == 0 {
        return f.zero(sign);
    }
    let field = if mant >> mb != 0 {
        lsb_exp + mb as i64 + f.bias() as i64
    } else {
        0
    };
    if field >= f.exp_all_ones() as i64 {
        return overflow(f, sign, rm);
    }
    if field == 0 && !keep_out {
        return f.zero(sign);
    }
    f.zero(sign) | ((field as u64) << f.mbits) | (mant as u64 & f.frac_mask())
}
