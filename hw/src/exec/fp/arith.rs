//! The IEEE basic operations as a datapath: add/sub (align with sticky
//! jamming, add or subtract magnitudes), multiply (full integer product),
//! fused multiply-add (exact product aligned with the addend), divide
//! (integer quotient plus a remainder sticky bit), square root (digit-by-digit
//! integer root) and reciprocal square root (bit-by-bit search on `r²·x`).
//! Every path ends in one [`round_pack`].

use super::format::{unpack, Ctx, Fmt, Kind, Unpacked};
use super::round::{round_inc, round_pack, shr_grs, shr_jam};
use super::Round;

/// Bit position the adder aligns both operands' leading one to, leaving two
/// bits of headroom for the carry out of a 128-bit sum.
const TOP: u32 = 125;

/// The first NaN of `xs` in source order, quieted.
#[inline]
pub(crate) fn first_nan(f: Fmt, xs: &[u64]) -> Option<u64> {
    xs.iter().find(|&&x| f.is_nan(x)).map(|&x| f.quiet(x))
}

/// The sign of an exact zero sum of operands with signs `a` and `b`.
#[inline]
fn zero_sum_sign(a: bool, b: bool, rm: Round) -> bool {
    if a == b {
        a
    } else {
        rm == Round::Down
    }
}

#[inline]
fn normalise(sig: u128, exp: i32) -> (u128, i32) {
    let s = sig.leading_zeros() as i32 - (127 - TOP as i32);
    if s >= 0 {
        (sig << s, exp - s)
    } else {
        (sig >> -s, exp - s) // only reached with exact low zero bits (products)
    }
}

/// Adds two nonzero finite values `(-1)^s × sig × 2^e` and rounds once.
/// `sig`s up to 106 bits (an exact f64 product) are accepted.
pub(crate) fn add_finite(
    sa: bool,
    ea: i32,
    siga: u128,
    sb: bool,
    eb: i32,
    sigb: u128,
    c: Ctx,
) -> u64 {
    let (mut ma, mut xa, mut sa) = {
        let (m, x) = normalise(siga, ea);
        (m, x, sa)
    };
    let (mut mb, mut xb, mut sb) = {
        let (m, x) = normalise(sigb, eb);
        (m, x, sb)
    };
    if xa < xb || (xa == xb && ma < mb) {
        core::mem::swap(&mut ma, &mut mb);
        core::mem::swap(&mut xa, &mut xb);
        core::mem::swap(&mut sa, &mut sb);
    }
    let d = (xa as i64 - xb as i64).min(200) as u32;
    let mb = shr_jam(mb, d);
    let (sig, sign) = if sa == sb {
        (ma + mb, sa)
    } else {
        // |a| >= |b| after the swap, so the difference is not negative.
        (ma - mb, sa)
    };
    if sig == 0 {
        return c.f.zero(c.rm == Round::Down);
    }
    round_pack(sign, xa, sig, c.f, c.rm, c.dn.keep_out)
}

/// Rounds a finite unpacked value (or signed zero) to `c` (used for `x + 0`).
#[inline]
pub(crate) fn repack(u: &Unpacked, c: Ctx) -> u64 {
    match u.kind {
        Kind::Finite => round_pack(u.sign, u.exp, u.sig as u128, c.f, c.rm, c.dn.keep_out),
        _ => c.f.zero(u.sign),
    }
}

/// The narrow adder (f16, f32): both operands normal and a normal result,
/// in one 64-bit word (leading one at bit 61, the smaller operand jammed into
/// bit 0). `None` hands everything else to the general path.
#[inline]
fn add_narrow(a: u64, b: u64, c: Ctx) -> Option<u64> {
    let f = c.f;
    let top = f.exp_all_ones();
    let (ea, eb) = (f.exp_field(a), f.exp_field(b));
    if f.mbits > 23 || ea == 0 || eb == 0 || ea == top || eb == top {
        return None;
    }
    let (a, b, ea, eb) = if f.abs(a) < f.abs(b) {
        (b, a, eb, ea)
    } else {
        (a, b, ea, eb)
    };
    let sign = f.sign(a);
    let lead = 61 - f.mbits;
    let ma = ((a & f.frac_mask()) | (1 << f.mbits)) << lead;
    let mb = ((b & f.frac_mask()) | (1 << f.mbits)) << lead;
    let d = (ea - eb) as u32;
    let mb = if d < 64 {
        (mb >> d) | u64::from(mb & ((1u64 << d) - 1) != 0)
    } else {
        1
    };
    let s = if sign == f.sign(b) { ma + mb } else { ma - mb };
    if s == 0 {
        return Some(f.zero(c.rm == Round::Down));
    }
    let msb = 63 - s.leading_zeros();
    // msb - mbits >= 14: cancellation only happens exactly.
    round_narrow(c, sign, s, msb, ea as i64 + msb as i64 - 61)
}

/// Rounds the exact value `x` (its leading one at bit `msb`, more than
/// `mbits` bits below it) with biased exponent `e` to a normal result of the
/// narrow format; `None` when the result is not normal (the general path
/// handles it).
#[inline]
fn round_narrow(c: Ctx, sign: bool, x: u64, msb: u32, e: i64) -> Option<u64> {
    let f = c.f;
    if e < 1 {
        return None;
    }
    let shift = msb - f.mbits;
    let guard = (x >> (shift - 1)) & 1 != 0;
    let sticky = x & ((1u64 << (shift - 1)) - 1) != 0;
    finish_narrow(c, sign, x >> shift, guard, sticky, e as u64)
}

/// The last step of the narrow paths: rounds the `mbits + 1`-bit mantissa
/// `mant` with its guard and sticky bits at biased exponent `e`; `None` when
/// rounding overflows to infinity (the general path handles it).
#[inline]
fn finish_narrow(
    c: Ctx,
    sign: bool,
    mut mant: u64,
    guard: bool,
    sticky: bool,
    mut e: u64,
) -> Option<u64> {
    let f = c.f;
    if round_inc(c.rm, sign, mant & 1 != 0, guard, sticky) {
        mant += 1;
        if mant >> (f.mbits + 1) != 0 {
            mant >>= 1;
            e += 1;
        }
    }
    if e >= f.exp_all_ones() {
        return None;
    }
    Some(f.zero(sign) | (e << f.mbits) | (mant & f.frac_mask()))
}

/// The narrow multiplier (f16, f32): normal operands, normal result, the
/// product in one 64-bit word.
#[inline]
fn mul_narrow(a: u64, b: u64, c: Ctx) -> Option<u64> {
    let f = c.f;
    let top = f.exp_all_ones();
    let (ea, eb) = (f.exp_field(a), f.exp_field(b));
    if f.mbits > 23 || ea == 0 || eb == 0 || ea == top || eb == top {
        return None;
    }
    let sign = f.sign(a) != f.sign(b);
    let p = ((a & f.frac_mask()) | (1 << f.mbits)) * ((b & f.frac_mask()) | (1 << f.mbits));
    let msb = 63 - p.leading_zeros(); // 2·mbits or 2·mbits + 1
    let e = ea as i64 + eb as i64 - f.bias() as i64 + (msb - 2 * f.mbits) as i64;
    round_narrow(c, sign, p, msb, e)
}

/// `a + b`.
pub(crate) fn add(a: u64, b: u64, c: Ctx) -> u64 {
    if let Some(r) = add_narrow(a, b, c) {
        return r;
    }
    let f = c.f;
    if let Some(n) = first_nan(f, &[a, b]) {
        return n;
    }
    let ua = unpack(a, f, c.dn.keep_in);
    let ub = unpack(b, f, c.dn.keep_in);
    match (ua.kind, ub.kind) {
        (Kind::Inf, Kind::Inf) if ua.sign != ub.sign => f.default_nan(),
        (Kind::Inf, _) => f.inf(ua.sign),
        (_, Kind::Inf) => f.inf(ub.sign),
        (Kind::Zero, Kind::Zero) => f.zero(zero_sum_sign(ua.sign, ub.sign, c.rm)),
        (Kind::Zero, _) => repack(&ub, c),
        (_, Kind::Zero) => repack(&ua, c),
        _ => add_finite(
            ua.sign,
            ua.exp,
            ua.sig as u128,
            ub.sign,
            ub.exp,
            ub.sig as u128,
            c,
        ),
    }
}

/// `a × b`.
pub(crate) fn mul(a: u64, b: u64, c: Ctx) -> u64 {
    if let Some(r) = mul_narrow(a, b, c) {
        return r;
    }
    let f = c.f;
    if let Some(n) = first_nan(f, &[a, b]) {
        return n;
    }
    let ua = unpack(a, f, c.dn.keep_in);
    let ub = unpack(b, f, c.dn.keep_in);
    let sign = ua.sign != ub.sign;
    match (ua.kind, ub.kind) {
        (Kind::Inf, Kind::Zero) | (Kind::Zero, Kind::Inf) => f.default_nan(),
        (Kind::Inf, _) | (_, Kind::Inf) => f.inf(sign),
        (Kind::Zero, _) | (_, Kind::Zero) => f.zero(sign),
        _ => round_pack(
            sign,
            ua.exp + ub.exp,
            ua.sig as u128 * ub.sig as u128,
            f,
            c.rm,
            c.dn.keep_out,
        ),
    }
}

/// The narrow fused multiply-add (f16, f32, no scaling): normal operands and
/// a normal result. The exact product and the addend are aligned at bit 125
/// of a 128-bit word as in [`add_finite`], then rounded in place.
#[inline]
fn fma_narrow(a: u64, b: u64, d: u64, c: Ctx) -> Option<u64> {
    let f = c.f;
    let top = f.exp_all_ones();
    let (ea, eb, ed) = (f.exp_field(a), f.exp_field(b), f.exp_field(d));
    if f.mbits > 23 || ea == 0 || eb == 0 || ed == 0 || ea == top || eb == top || ed == top {
        return None;
    }
    let p = ((a & f.frac_mask()) | (1 << f.mbits)) * ((b & f.frac_mask()) | (1 << f.mbits));
    // Exponents of bit 125 after placing each leading one there (biased, so
    // the product carries one extra bias to remove).
    let pl = 63 - p.leading_zeros() as i64;
    let mut xp = ea as i64 + eb as i64 - f.bias() as i64 + pl - 2 * f.mbits as i64;
    let mut mp = (p as u128) << (TOP as i64 - pl);
    let mut xd = ed as i64;
    let mut md = (((d & f.frac_mask()) | (1 << f.mbits)) as u128) << (TOP - f.mbits);
    let mut sp = f.sign(a) != f.sign(b);
    let mut sd = f.sign(d);
    if xp < xd || (xp == xd && mp < md) {
        core::mem::swap(&mut mp, &mut md);
        core::mem::swap(&mut xp, &mut xd);
        core::mem::swap(&mut sp, &mut sd);
    }
    let md = shr_jam(md, (xp - xd).min(200) as u32);
    let s = if sp == sd { mp + md } else { mp - md };
    if s == 0 {
        return Some(f.zero(c.rm == Round::Down));
    }
    let msb = 127 - s.leading_zeros() as i64;
    let e = xp + msb - TOP as i64;
    if e < 1 {
        return None;
    }
    // Cancellation of more than two bits only happens with exact operands,
    // whose low 70 bits are zero, so the sticky bit stays far below.
    let (q, guard, sticky) = shr_grs(s, (msb - f.mbits as i64) as u32);
    finish_narrow(c, sp, q as u64, guard, sticky, e as u64)
}

/// `a × b + d` rounded once, the exact result first scaled by `2^scale`
/// (`v_div_fmas`; 0 for a plain fma). `legacy`: a zero factor makes the
/// product +0 even against infinity or NaN.
pub(crate) fn fma(a: u64, b: u64, d: u64, scale: i32, legacy: bool, c: Ctx) -> u64 {
    // The fast path knows nothing of the legacy zero rule (0 × NaN = +0).
    if scale == 0 && !legacy {
        if let Some(r) = fma_narrow(a, b, d, c) {
            return r;
        }
    }
    let f = c.f;
    let ua = unpack(a, f, c.dn.keep_in);
    let ub = unpack(b, f, c.dn.keep_in);
    let ud = unpack(d, f, c.dn.keep_in);
    let legacy_zero = legacy && (ua.kind == Kind::Zero || ub.kind == Kind::Zero);
    let nan = if legacy_zero {
        first_nan(f, &[d])
    } else {
        first_nan(f, &[a, b, d])
    };
    if let Some(n) = nan {
        return n;
    }
    // The product's class and sign.
    let ps = if legacy_zero {
        false
    } else {
        ua.sign != ub.sign
    };
    let pk = match (ua.kind, ub.kind) {
        _ if legacy_zero => Kind::Zero,
        (Kind::Inf, Kind::Zero) | (Kind::Zero, Kind::Inf) => return f.default_nan(),
        (Kind::Inf, _) | (_, Kind::Inf) => Kind::Inf,
        (Kind::Zero, _) | (_, Kind::Zero) => Kind::Zero,
        _ => Kind::Finite,
    };
    match (pk, ud.kind) {
        (Kind::Inf, Kind::Inf) if ps != ud.sign => f.default_nan(),
        (Kind::Inf, _) => f.inf(ps),
        (_, Kind::Inf) => f.inf(ud.sign),
        (Kind::Zero, Kind::Zero) => f.zero(zero_sum_sign(ps, ud.sign, c.rm)),
        (Kind::Zero, _) => round_pack(
            ud.sign,
            ud.exp + scale,
            ud.sig as u128,
            f,
            c.rm,
            c.dn.keep_out,
        ),
        (_, Kind::Zero) => round_pack(
            ps,
            ua.exp + ub.exp + scale,
            ua.sig as u128 * ub.sig as u128,
            f,
            c.rm,
            c.dn.keep_out,
        ),
        _ => add_finite(
            ps,
            ua.exp + ub.exp + scale,
            ua.sig as u128 * ub.sig as u128,
            ud.sign,
            ud.exp + scale,
            ud.sig as u128,
            c,
        ),
    }
}

/// `a / b`.
pub(crate) fn div(a: u64, b: u64, c: Ctx) -> u64 {
    let f = c.f;
    if let Some(n) = first_nan(f, &[a, b]) {
        return n;
    }
    let ua = unpack(a, f, c.dn.keep_in);
    let ub = unpack(b, f, c.dn.keep_in);
    let sign = ua.sign != ub.sign;
    match (ua.kind, ub.kind) {
        (Kind::Inf, Kind::Inf) | (Kind::Zero, Kind::Zero) => f.default_nan(),
        (Kind::Inf, _) | (_, Kind::Zero) => f.inf(sign),
        (Kind::Zero, _) | (_, Kind::Inf) => f.zero(sign),
        _ => div_finite(sign, ua.exp, ua.sig, ub.exp, ub.sig, c),
    }
}

/// The quotient of two finite nonzero values: the dividend's significand is
/// placed at the top of 128 bits so the integer quotient has at least 72 bits,
/// and a nonzero remainder becomes the sticky bit.
pub(crate) fn div_finite(sign: bool, ea: i32, siga: u64, eb: i32, sigb: u64, c: Ctx) -> u64 {
    let sa = siga.leading_zeros() + 61; // leading one at bit 125 of 128
    let num = (siga as u128) << sa;
    let q = num / sigb as u128;
    let r = num % sigb as u128;
    let sig = (q << 1) | u128::from(r != 0);
    round_pack(sign, ea - sa as i32 - eb - 1, sig, c.f, c.rm, c.dn.keep_out)
}

/// The integer square root of `n` and whether it is exact (digit-by-digit,
/// one result bit per step, as a restoring square-root unit computes it).
pub(crate) fn isqrt(n: u128) -> (u128, bool) {
    let mut x = n;
    let mut res: u128 = 0;
    let mut bit: u128 = 1 << 126;
    while bit > n {
        bit >>= 2;
    }
    while bit != 0 {
        if x >= res + bit {
            x -= res + bit;
            res = (res >> 1) + bit;
        } else {
            res >>= 1;
        }
        bit >>= 2;
    }
    (res, x == 0)
}

/// `sqrt(a)`: `sqrt(-0) = -0`, a negative operand is invalid.
pub(crate) fn sqrt(a: u64, c: Ctx) -> u64 {
    let f = c.f;
    if f.is_nan(a) {
        return f.quiet(a);
    }
    let u = unpack(a, f, c.dn.keep_in);
    match u.kind {
        Kind::Zero => f.zero(u.sign),
        _ if u.sign => f.default_nan(),
        Kind::Inf => f.inf(false),
        _ => {
            // Radicand with 2(mbits + 4) bits and an even exponent, so the
            // root carries the format's precision plus guard bits.
            let want = 2 * (f.mbits as i32 + 4);
            let msb = 63 - u.sig.leading_zeros() as i32;
            let mut s = want - 1 - msb;
            if (u.exp - s) & 1 != 0 {
                s += 1;
            }
            let m = (u.sig as u128) << s;
            let (root, exact) = isqrt(m);
            let e = (u.exp - s) / 2;
            round_pack(
                false,
                e - 1,
                (root << 1) | u128::from(!exact),
                f,
                c.rm,
                c.dn.keep_out,
            )
        }
    }
}

/// `1 / a` (`v_rcp_*`, defined as correctly rounded).
pub(crate) fn rcp(a: u64, c: Ctx) -> u64 {
    div(c.f.one(), a, c)
}

/// `a × b` as a 192-bit value `(hi, lo)` = `hi·2^128 + lo`.
#[inline]
fn mul_wide(a: u128, b: u64) -> (u128, u128) {
    let p0 = (a as u64 as u128) * b as u128;
    let p1 = (a >> 64) * b as u128;
    let lo = p0.wrapping_add(p1 << 64);
    let carry = u128::from(lo < p0);
    ((p1 >> 64) + carry, lo)
}

/// `1 / sqrt(a)` correctly rounded: the largest `r` with `r²·m ≤ 2^2K`
/// found one bit at a time, plus a sticky bit when `r²·m ≠ 2^2K`.
pub(crate) fn rsq(a: u64, c: Ctx) -> u64 {
    let f = c.f;
    if f.is_nan(a) {
        return f.quiet(a);
    }
    let u = unpack(a, f, c.dn.keep_in);
    match u.kind {
        Kind::Zero => f.inf(u.sign),
        _ if u.sign => f.default_nan(),
        Kind::Inf => f.zero(false),
        _ => {
            // m in [2^62, 2^64) with an even exponent.
            let mut s = u.sig.leading_zeros() as i32 - 1;
            if (u.exp - s) & 1 != 0 {
                s += 1;
            }
            let m = u.sig << s;
            let e = u.exp - s;
            // sqrt(m) < 2^32, so r < 2^(K-31); K leaves mbits + 3 bits in r.
            let k = f.mbits + 35;
            let two_k = 2 * k;
            let target = if two_k >= 128 {
                (1u128 << (two_k - 128), 0u128)
            } else {
                (0, 1u128 << two_k)
            };
            let mut r: u128 = 0;
            let mut exact = false;
            for bit in (0..=(k - 31)).rev() {
                let t = r | (1u128 << bit);
                let p = mul_wide(t * t, m);
                if p <= target {
                    r = t;
                    exact = p == target;
                }
            }
            round_pack(
                false,
                -(k as i32) - e / 2 - 1,
                (r << 1) | u128::from(!exact),
                f,
                c.rm,
                c.dn.keep_out,
            )
        }
    }
}
