//! Arithmetic: add, multiply, fused multiply-add, divide, square root,
//! reciprocal square root, ldexp, rounding to integral, fract and frexp.

use super::{
    flush_in, flush_out, propagate, round_pack, unpack, Format, FpMode, Kind, Round, F32, F64,
};

/// An exact signed value `(-1)^sign * sig * 2^exp`, `sig` below 2^107.
type Exact = (bool, u128, i32);

/// True when the host's IEEE arithmetic gives the answer (nearest-even, f32/f64).
#[inline]
fn host(fmt: Format, m: FpMode) -> bool {
    m.round == Round::NearestEven && (fmt == F32 || fmt == F64)
}

/// Fixes up a host result: NaN results follow our propagation rule, and
/// denormal results flush when the mode says so.
#[inline]
fn host_fix(fmt: Format, r: u64, inputs: &[u64], m: FpMode) -> u64 {
    if fmt.is_nan(r) {
        propagate(fmt, inputs)
    } else {
        flush_out(fmt, r, m)
    }
}

macro_rules! host_op {
    ($fmt:expr, $m:expr, [$($x:ident),+], $op:expr) => {{
        $(let $x = flush_in($fmt, $x, $m);)+
        let r = if $fmt == F32 {
            $(let $x = f32::from_bits($x as u32);)+
            u64::from(($op).to_bits())
        } else {
            $(let $x = f64::from_bits($x);)+
            ($op).to_bits()
        };
        return host_fix($fmt, r, &[$($x),+], $m);
    }};
}

/// The exact sum of two exact values; an exact zero sum is +0, or -0 when
/// rounding down (IEEE 754 §6.3).
fn add_exact(a: Exact, b: Exact, round: Round) -> Exact {
    if a.1 == 0 {
        return b;
    }
    if b.1 == 0 {
        return a;
    }
    // Put both leading bits at bit 125 (lossless: inputs are below 2^107),
    // then shift the smaller right, jamming lost bits into bit 0. The jammed
    // bit sits far below any rounding point, so one final rounding is correct.
    let norm = |(s, sig, e): Exact| {
        let l = sig.leading_zeros() as i32 - 2;
        (s, sig << l, e - l)
    };
    let (mut a, mut b) = (norm(a), norm(b));
    if a.2 < b.2 {
        std::mem::swap(&mut a, &mut b);
    }
    let d = (a.2 - b.2) as u32;
    let bs = if d >= 127 {
        1
    } else {
        (b.1 >> d) | u128::from(b.1 & ((1u128 << d) - 1) != 0)
    };
    if a.0 == b.0 {
        (a.0, a.1 + bs, a.2)
    } else if a.1 > bs {
        (a.0, a.1 - bs, a.2)
    } else if a.1 < bs {
        (b.0, bs - a.1, a.2)
    } else {
        (round == Round::Down, 0, 0)
    }
}

/// `a + b`.
#[inline]
pub fn add(fmt: Format, a: u64, b: u64, m: FpMode) -> u64 {
    if host(fmt, m) {
        host_op!(fmt, m, [a, b], a + b);
    }
    add_soft(fmt, a, b, m)
}

/// `a + b`. The hand-written path (every rounding direction and format;
/// public so the SoftFloat cross-check can test it in nearest-even too).
pub fn add_soft(fmt: Format, a: u64, b: u64, m: FpMode) -> u64 {
    let (x, y) = (unpack(fmt, a, m.denorm_in), unpack(fmt, b, m.denorm_in));
    if x.kind == Kind::Nan || y.kind == Kind::Nan {
        return propagate(fmt, &[a, b]);
    }
    match (x.kind, y.kind) {
        (Kind::Inf, Kind::Inf) if x.sign != y.sign => return fmt.default_nan(),
        (Kind::Inf, _) => return fmt.inf(x.sign),
        (_, Kind::Inf) => return fmt.inf(y.sign),
        (Kind::Zero, Kind::Zero) => {
            let s = if x.sign == y.sign {
                x.sign
            } else {
                m.round == Round::Down
            };
            return fmt.zero(s);
        }
        _ => {}
    }
    let (s, sig, e) = add_exact(
        (x.sign, u128::from(x.sig), x.exp),
        (y.sign, u128::from(y.sig), y.exp),
        m.round,
    );
    round_pack(fmt, s, sig, e, m)
}

/// `a - b`.
#[inline]
pub fn sub(fmt: Format, a: u64, b: u64, m: FpMode) -> u64 {
    add(fmt, a, b ^ fmt.sign_bit(), m)
}

/// `a * b`.
#[inline]
pub fn mul(fmt: Format, a: u64, b: u64, m: FpMode) -> u64 {
    if host(fmt, m) {
        host_op!(fmt, m, [a, b], a * b);
    }
    mul_soft(fmt, a, b, m)
}

/// `a * b`. The hand-written path (every rounding direction and format;
/// public so the SoftFloat cross-check can test it in nearest-even too).
pub fn mul_soft(fmt: Format, a: u64, b: u64, m: FpMode) -> u64 {
    let (x, y) = (unpack(fmt, a, m.denorm_in), unpack(fmt, b, m.denorm_in));
    if x.kind == Kind::Nan || y.kind == Kind::Nan {
        return propagate(fmt, &[a, b]);
    }
    let s = x.sign != y.sign;
    match (x.kind, y.kind) {
        (Kind::Inf, Kind::Zero) | (Kind::Zero, Kind::Inf) => fmt.default_nan(),
        (Kind::Inf, _) | (_, Kind::Inf) => fmt.inf(s),
        (Kind::Zero, _) | (_, Kind::Zero) => fmt.zero(s),
        _ => round_pack(
            fmt,
            s,
            u128::from(x.sig) * u128::from(y.sig),
            x.exp + y.exp,
            m,
        ),
    }
}

/// Fused `a * b + c`, rounded once.
#[inline]
pub fn fma(fmt: Format, a: u64, b: u64, c: u64, m: FpMode) -> u64 {
    if host(fmt, m) && fmt == F32 {
        let (a, b, c) = (
            flush_in(fmt, a, m),
            flush_in(fmt, b, m),
            flush_in(fmt, c, m),
        );
        if let Some(r) = fma_f32_via_f64(a as u32, b as u32, c as u32) {
            return host_fix(fmt, u64::from(r), &[a, b, c], m);
        }
    }
    if host(fmt, m) {
        host_op!(fmt, m, [a, b, c], a.mul_add(b, c));
    }
    fma_soft(fmt, a, b, c, m)
}

/// Fused `a * b + c`, rounded once. The hand-written path (every rounding direction and format;
/// public so the SoftFloat cross-check can test it in nearest-even too).
pub fn fma_soft(fmt: Format, a: u64, b: u64, c: u64, m: FpMode) -> u64 {
    fma_scaled(fmt, a, b, c, 0, m)
}

/// `2^scale × (a * b + c)` rounded once (`v_div_fmas`: the scale is applied
/// to the exact result, before its rounding).
pub fn fma_scaled(fmt: Format, a: u64, b: u64, c: u64, scale: i32, m: FpMode) -> u64 {
    let (x, y, z) = (
        unpack(fmt, a, m.denorm_in),
        unpack(fmt, b, m.denorm_in),
        unpack(fmt, c, m.denorm_in),
    );
    if x.kind == Kind::Nan || y.kind == Kind::Nan || z.kind == Kind::Nan {
        return propagate(fmt, &[a, b, c]);
    }
    let ps = x.sign != y.sign;
    match (x.kind, y.kind) {
        (Kind::Inf, Kind::Zero) | (Kind::Zero, Kind::Inf) => return fmt.default_nan(),
        (Kind::Inf, _) | (_, Kind::Inf) => {
            return if z.kind == Kind::Inf && z.sign != ps {
                fmt.default_nan()
            } else {
                fmt.inf(ps)
            };
        }
        _ => {}
    }
    if z.kind == Kind::Inf {
        return fmt.inf(z.sign);
    }
    let product_zero = x.kind == Kind::Zero || y.kind == Kind::Zero;
    if product_zero && z.kind == Kind::Zero {
        let s = if ps == z.sign {
            ps
        } else {
            m.round == Round::Down
        };
        return fmt.zero(s);
    }
    let p = if product_zero {
        (ps, 0, 0)
    } else {
        (ps, u128::from(x.sig) * u128::from(y.sig), x.exp + y.exp)
    };
    let (s, sig, e) = add_exact(p, (z.sign, u128::from(z.sig), z.exp), m.round);
    round_pack(fmt, s, sig, e + scale, m)
}

/// Nearest-even `f32` fma through `f64`: the product is exact in `f64`; the
/// sum is rounded to `f64` and then to `f32`, and the one case where that
/// double rounding can go wrong (an inexact `f64` sum that lands exactly on an
/// `f32` midpoint) is fixed by nudging the sum toward its rounding error
/// (computed exactly with TwoSum). Results in the `f32` denormal range take
/// the general path (`None`). Much faster than a software `fmaf`.
#[inline]
pub(crate) fn fma_f32_via_f64(a: u32, b: u32, c: u32) -> Option<u32> {
    let p = f64::from(f32::from_bits(a)) * f64::from(f32::from_bits(b));
    let c = f64::from(f32::from_bits(c));
    let s = p + c;
    if !s.is_finite() {
        return Some((s as f32).to_bits());
    }
    if s != 0.0 && s.abs() < f64::from(f32::MIN_POSITIVE) {
        return None;
    }
    let bb = s - p;
    let e = (p - (s - bb)) + (c - bb);
    let mut bits = s.to_bits();
    // 29 = 52 - 23 mantissa bits dropped by the conversion to f32.
    if e != 0.0 && bits & 0x1fff_ffff == 0x1000_0000 {
        if (e > 0.0) == (s > 0.0) {
            bits += 1;
        } else {
            bits -= 1;
        }
    }
    Some((f64::from_bits(bits) as f32).to_bits())
}

/// Unfused `a * b + c`: the product is rounded first, then the sum, as GCN's
/// `v_mad_f32`/`v_mac_f32`/`v_madmk`/`v_madak` do. The `f32` forms do not
/// support denormals (AMD's GCN3 guide; LLVM selects them only when `f32`
/// denormals are flushed): denormal inputs, the product and the result are
/// flushed whatever MODE says. `f16` forms follow MODE.
pub fn mad(fmt: Format, a: u64, b: u64, c: u64, m: FpMode) -> u64 {
    let m = if fmt == F32 {
        FpMode {
            denorm_in: false,
            denorm_out: false,
            ..m
        }
    } else {
        m
    };
    add(fmt, mul(fmt, a, b, m), c, m)
}

/// `a / b`, correctly rounded.
#[inline]
pub fn div(fmt: Format, a: u64, b: u64, m: FpMode) -> u64 {
    if host(fmt, m) {
        host_op!(fmt, m, [a, b], a / b);
    }
    div_soft(fmt, a, b, m)
}

/// `a / b`, correctly rounded. The hand-written path (every rounding direction and format;
/// public so the SoftFloat cross-check can test it in nearest-even too).
pub fn div_soft(fmt: Format, a: u64, b: u64, m: FpMode) -> u64 {
    let (x, y) = (unpack(fmt, a, m.denorm_in), unpack(fmt, b, m.denorm_in));
    if x.kind == Kind::Nan || y.kind == Kind::Nan {
        return propagate(fmt, &[a, b]);
    }
    let s = x.sign != y.sign;
    match (x.kind, y.kind) {
        (Kind::Inf, Kind::Inf) | (Kind::Zero, Kind::Zero) => fmt.default_nan(),
        (Kind::Inf, _) | (_, Kind::Zero) => fmt.inf(s),
        (Kind::Zero, _) | (_, Kind::Inf) => fmt.zero(s),
        _ => {
            let la = x.sig.leading_zeros() as i32;
            let lb = y.sig.leading_zeros() as i32;
            let n = u128::from(x.sig << la) << 64;
            let d = u128::from(y.sig << lb);
            let (q, r) = (n / d, n % d);
            let sig = q << 1 | u128::from(r != 0);
            round_pack(fmt, s, sig, (x.exp - la) - (y.exp - lb) - 65, m)
        }
    }
}

/// Integer square root of `n` (floor).
fn isqrt(n: u128) -> u128 {
    if n == 0 {
        return 0;
    }
    // A float estimate, one Newton step, then exact correction.
    let mut s = (n as f64).sqrt() as u128;
    if s > 0 {
        s = (s + n / s) / 2;
    }
    while s > 0 && s.checked_mul(s).map_or(true, |q| q > n) {
        s -= 1;
    }
    while (s + 1).checked_mul(s + 1).is_some_and(|q| q <= n) {
        s += 1;
    }
    s
}

/// Square root, correctly rounded; `sqrt(-0) = -0`.
#[inline]
pub fn sqrt(fmt: Format, a: u64, m: FpMode) -> u64 {
    if host(fmt, m) {
        host_op!(fmt, m, [a], a.sqrt());
    }
    sqrt_soft(fmt, a, m)
}

/// Square root, correctly rounded; `sqrt(-0) = -0`. The hand-written path (every rounding direction and format;
/// public so the SoftFloat cross-check can test it in nearest-even too).
pub fn sqrt_soft(fmt: Format, a: u64, m: FpMode) -> u64 {
    let x = unpack(fmt, a, m.denorm_in);
    match x.kind {
        Kind::Nan => return propagate(fmt, &[a]),
        Kind::Zero => return fmt.zero(x.sign),
        _ if x.sign => return fmt.default_nan(),
        Kind::Inf => return fmt.inf(false),
        Kind::Finite => {}
    }
    let (sig, e) = even_scaled(x.sig, x.exp, 125);
    let s = isqrt(sig);
    let r = s << 1 | u128::from(s * s != sig);
    round_pack(fmt, false, r, e / 2 - 1, m)
}

/// `sig * 2^exp` rescaled so the leading bit sits at `top` or `top - 1` and
/// the exponent is even.
fn even_scaled(sig: u64, exp: i32, top: i32) -> (u128, i32) {
    let mut l = u128::from(sig).leading_zeros() as i32 - (127 - top);
    if (exp - l) % 2 != 0 {
        l -= 1;
    }
    (u128::from(sig) << l, exp - l)
}

/// `1 / a`, correctly rounded.
pub fn rcp(fmt: Format, a: u64, m: FpMode) -> u64 {
    let one = ((fmt.bias() as u64) << fmt.man_bits) & fmt.exp_mask();
    div(fmt, one, a, m)
}

/// True when `r^2 * big <= 2^two_k` (a 173-bit product, checked in two halves).
fn rsq_fits(r: u128, big: u128, two_k: u32) -> bool {
    // r < 2^59, so r^2 < 2^118; big < 2^55: the product needs 173 bits.
    let r2 = r * r;
    let (lo, hi) = (r2 & u128::from(u64::MAX), r2 >> 64);
    let p_lo = lo * big; // < 2^119
    let p_hi = hi * big + (p_lo >> 64); // the product >> 64
    let limit_hi = 1u128 << (two_k - 64);
    p_hi < limit_hi || (p_hi == limit_hi && p_lo & u128::from(u64::MAX) == 0)
}

/// `1 / sqrt(a)`, correctly rounded.
#[inline]
pub fn rsq(fmt: Format, a: u64, m: FpMode) -> u64 {
    if fmt == F32 && m.round == Round::NearestEven {
        if let Some(r) = rsq_f32_host(a as u32) {
            return u64::from(r);
        }
    }
    rsq_soft(fmt, a, m)
}

/// `1 / sqrt(a)` for a positive normal `f32` in nearest-even, through the
/// host's `f64`, when that provably rounds like the exact path; `None`
/// otherwise (the caller runs [`rsq_soft`]).
///
/// Why it is exact: `sqrt` and `1 / s` are each correctly rounded in `f64`,
/// so `y` is within 2 `f64` ulps of `1/sqrt(a)`. The exact value is never an
/// `f32` rounding midpoint (it is a power of two or irrational), so when `y`
/// is more than 16 ulps from the midpoint of its `f32` interval both round to
/// the same `f32`. The result of a normal input is always normal (at most
/// 2^63, at least 2^-64), so denormal modes do not matter. Checked against
/// `rsq_soft` on every input of two binades (which covers all normal inputs:
/// `rsq(4x) = rsq(x) / 2` in both paths) by the unit test below.
#[inline]
pub fn rsq_f32_host(a: u32) -> Option<u32> {
    if !(0x0080_0000..0x7f80_0000).contains(&a) {
        return None;
    }
    let y = 1.0 / f64::from(f32::from_bits(a)).sqrt();
    let low = y.to_bits() & ((1 << 29) - 1);
    if low.abs_diff(1 << 28) <= 16 {
        return None;
    }
    Some((y as f32).to_bits())
}

/// `1 / sqrt(a)`, correctly rounded. The hand-written path (every rounding
/// direction and format).
pub fn rsq_soft(fmt: Format, a: u64, m: FpMode) -> u64 {
    let x = unpack(fmt, a, m.denorm_in);
    match x.kind {
        Kind::Nan => return propagate(fmt, &[a]),
        Kind::Zero => return fmt.inf(x.sign),
        _ if x.sign => return fmt.default_nan(),
        Kind::Inf => return fmt.zero(false),
        Kind::Finite => {}
    }
    // x = big * 2^e with big in [2^52, 2^54) and e even: 1/sqrt(x) =
    // 2^(-e/2) * 2^-K * (2^K / sqrt(big)); find r = floor(2^K / sqrt(big))
    // bit by bit (r < 2^59 with K = 84) and keep "inexact" as a sticky bit.
    const K: u32 = 84;
    let (big, e) = even_scaled(x.sig, x.exp, 53);
    let mut r: u128 = 0;
    for bit in (0..59).rev() {
        let t = r | 1 << bit;
        if rsq_fits(t, big, 2 * K) {
            r = t;
        }
    }
    // r is the largest with r^2 * big <= 2^(2K); the result is exact iff equal.
    let exact = !rsq_fits_strict(r * r, big, 2 * K);
    let sig = r << 1 | u128::from(!exact);
    round_pack(fmt, false, sig, -(e / 2) - K as i32 - 1, m)
}

/// True when `r2 * big < 2^two_k` (strictly).
fn rsq_fits_strict(r2: u128, big: u128, two_k: u32) -> bool {
    let (lo, hi) = (r2 & u128::from(u64::MAX), r2 >> 64);
    let p_lo = lo * big;
    let p_hi = hi * big + (p_lo >> 64);
    p_hi < 1u128 << (two_k - 64)
}

/// `a * 2^n`, rounded.
#[inline]
pub fn ldexp(fmt: Format, a: u64, n: i32, m: FpMode) -> u64 {
    if fmt == F32 {
        if let Some(r) = ldexp_f32_exact(a as u32, n) {
            return u64::from(r);
        }
    }
    ldexp_soft(fmt, a, n, m)
}

/// `ldexp` of a normal `f32` whose result is normal too: exact (no rounding,
/// no denormal, so no MODE dependence), the exponent field moved by `n`.
/// `None` for anything else.
#[inline]
pub fn ldexp_f32_exact(a: u32, n: i32) -> Option<u32> {
    let e = ((a >> 23) & 0xff) as i32;
    if e == 0 || e == 0xff {
        return None;
    }
    let r = e.checked_add(n)?;
    if !(1..=0xfe).contains(&r) {
        return None;
    }
    Some((a & 0x807f_ffff) | ((r as u32) << 23))
}

/// `a * 2^n`, rounded. The hand-written path (every format and mode).
pub fn ldexp_soft(fmt: Format, a: u64, n: i32, m: FpMode) -> u64 {
    let x = unpack(fmt, a, m.denorm_in);
    match x.kind {
        Kind::Nan => propagate(fmt, &[a]),
        Kind::Inf => a,
        Kind::Zero => fmt.zero(x.sign),
        Kind::Finite => {
            let e = (i64::from(x.exp) + i64::from(n)).clamp(-100_000, 100_000) as i32;
            round_pack(fmt, x.sign, u128::from(x.sig), e, m)
        }
    }
}

/// How [`to_integral`] rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntRound {
    /// Toward zero (`trunc`, C conversions).
    Trunc,
    /// Toward -infinity (`floor`).
    Floor,
    /// Toward +infinity (`ceil`).
    Ceil,
    /// Nearest, ties to even (`rndne`).
    NearestEven,
    /// `floor(x + 0.5)` (`v_cvt_rpi_i32_f32`).
    HalfUp,
}

/// The integer `(-1)^sign * sig * 2^exp` rounds to, saturated to ±2^100.
pub(crate) fn round_to_int(sign: bool, sig: u64, exp: i32, dir: IntRound) -> i128 {
    const BIG: i128 = 1 << 100;
    let s = if sign {
        -i128::from(sig)
    } else {
        i128::from(sig)
    };
    if exp >= 0 {
        return if exp > 40 {
            if sign {
                -BIG
            } else {
                BIG
            }
        } else {
            s << exp
        };
    }
    let shift = (-exp) as u32;
    if shift > 110 {
        // |value| < 2^-50: only the direction matters.
        return match dir {
            IntRound::Floor if sign => -1,
            IntRound::Ceil if !sign => 1,
            _ => 0,
        };
    }
    let floor = s >> shift;
    let rem = s - (floor << shift); // in [0, 2^shift)
    let half = 1i128 << (shift - 1);
    match dir {
        IntRound::Floor => floor,
        IntRound::Ceil => floor + i128::from(rem != 0),
        IntRound::Trunc => {
            if sign && rem != 0 {
                floor + 1
            } else {
                floor
            }
        }
        IntRound::HalfUp => floor + i128::from(rem >= half),
        IntRound::NearestEven => floor + i128::from(rem > half || (rem == half && floor & 1 == 1)),
    }
}

/// Rounds to an integral value in the same format (`v_trunc`, `v_floor`, ...).
pub fn to_integral(fmt: Format, a: u64, dir: IntRound, m: FpMode) -> u64 {
    let x = unpack(fmt, a, m.denorm_in);
    match x.kind {
        Kind::Nan => propagate(fmt, &[a]),
        Kind::Inf => a,
        Kind::Zero => fmt.zero(x.sign),
        Kind::Finite if x.exp >= 0 => a,
        Kind::Finite => {
            let k = round_to_int(x.sign, x.sig, x.exp, dir);
            // An integral result keeps the input's sign (floor(-0.5) = -1, trunc(-0.5) = -0).
            round_pack(fmt, x.sign, k.unsigned_abs(), 0, m)
        }
    }
}

/// `a - floor(a)`, at most the largest value below 1.0 (`v_fract`).
pub fn fract(fmt: Format, a: u64, m: FpMode) -> u64 {
    let x = unpack(fmt, a, m.denorm_in);
    match x.kind {
        Kind::Nan => propagate(fmt, &[a]),
        Kind::Inf => fmt.default_nan(),
        _ => {
            let a = flush_in(fmt, a, m);
            let r = sub(fmt, a, to_integral(fmt, a, IntRound::Floor, m), m);
            let below_one = ((fmt.bias() as u64) << fmt.man_bits) - 1;
            if !fmt.sign(r) && r > below_one {
                below_one
            } else {
                r
            }
        }
    }
}

/// The mantissa of `a` scaled into [0.5, 1) with `a`'s sign (`v_frexp_mant`);
/// infinities and NaNs come back unchanged (NaNs quieted).
#[inline]
pub fn frexp_mant(fmt: Format, a: u64, m: FpMode) -> u64 {
    let e = (a >> 23) & 0xff;
    if fmt == F32 && e != 0 && e != 0xff {
        // A normal f32: exact, the exponent field set to that of [0.5, 1).
        return (a & 0x807f_ffff) | (126 << 23);
    }
    frexp_mant_soft(fmt, a, m)
}

/// [`frexp_mant`]'s hand-written path (every format and mode).
pub fn frexp_mant_soft(fmt: Format, a: u64, m: FpMode) -> u64 {
    let x = unpack(fmt, a, m.denorm_in);
    match x.kind {
        Kind::Nan => propagate(fmt, &[a]),
        Kind::Inf => a,
        Kind::Zero => fmt.zero(x.sign),
        Kind::Finite => {
            let msb = 63 - x.sig.leading_zeros() as i32;
            round_pack(fmt, x.sign, u128::from(x.sig), -(msb + 1), m)
        }
    }
}

/// The exponent `e` with `a = mant * 2^e`, mant in [0.5, 1) (`v_frexp_exp`);
/// 0 for zeros, infinities and NaNs.
pub fn frexp_exp(fmt: Format, a: u64, m: FpMode) -> i32 {
    let x = unpack(fmt, a, m.denorm_in);
    match x.kind {
        Kind::Finite => x.exp + 64 - x.sig.leading_zeros() as i32,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The host `f32` reciprocal square root against the exact path over
    /// `[1, 4)` (a stride here; `--ignored` runs every input).
    fn rsq_host_matches(stride: usize) {
        let (lo, hi) = (0x3f80_0000u32, 0x4080_0000u32);
        let mut fast = 0;
        for a in (lo..hi).step_by(stride) {
            let exact = rsq_soft(F32, u64::from(a), FpMode::IEEE) as u32;
            if let Some(r) = rsq_f32_host(a) {
                assert_eq!(r, exact, "rsq({a:#x})");
                fast += 1;
            }
        }
        // The fast path must take nearly every input.
        assert!(fast * 100 > (hi - lo) as usize / stride * 99, "{fast}");
    }

    #[test]
    fn rsq_host_path_is_exact_on_a_sample() {
        rsq_host_matches(61);
        // Non-normal inputs and other modes go the exact way.
        for a in [
            0u32,
            1,
            0x007f_ffff,
            0x7f80_0000,
            0x7fc0_0000,
            0x8000_0000,
            0xbf80_0000,
        ] {
            assert_eq!(rsq_f32_host(a), None);
        }
    }

    #[test]
    fn exact_ldexp_and_frexp_mant_match_the_rounding_path() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let modes = [
            FpMode::IEEE,
            FpMode::from_fields(3, 0),
            FpMode::from_fields(1, 2),
            FpMode::from_fields(2, 1),
        ];
        for i in 0..200_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let a = x as u32;
            let n = match i % 4 {
                0 => (x >> 40) as i32 % 300,
                1 => (x >> 40) as i32,
                2 => -((x >> 45) as i32 % 40),
                _ => (x >> 48) as i32 % 8,
            };
            for m in modes {
                let slow = ldexp_soft(F32, u64::from(a), n, m);
                assert_eq!(ldexp(F32, u64::from(a), n, m), slow, "ldexp({a:#x}, {n})");
                let slow = frexp_mant_soft(F32, u64::from(a), m);
                assert_eq!(frexp_mant(F32, u64::from(a), m), slow, "frexp_mant({a:#x})");
            }
        }
        // The fast path does take normal inputs.
        assert_eq!(ldexp_f32_exact(0x3f80_0000, 3), Some(0x4100_0000));
        assert_eq!(ldexp_f32_exact(0x0080_0000, -1), None);
    }

    #[test]
    #[ignore = "exhaustive over 2^24 inputs; run with --ignored"]
    fn rsq_host_path_is_exact_on_every_input_of_two_binades() {
        rsq_host_matches(1);
    }
}
