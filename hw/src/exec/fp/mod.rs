//! Bit-level IEEE-754 arithmetic for the VALU datapath: f16, f32 and f64
//! add, multiply, fused multiply-add, compare, min/max, conversions, rounding
//! and the transcendental approximations, under the wave's MODE register
//! (round mode, denormal flushing, IEEE and DX10-clamp bits).
//!
//! Every function takes and returns raw bits. Source modifiers (`abs`, `neg`)
//! are applied by the caller on the sign bit before the call; output modifiers
//! and clamping through [`omod_f32`], [`clamp_f32`] and their twins.
//!
//! The implementation is one datapath parametrised by format (`format.rs`):
//! unpack, compute the exact result or one with a sticky bit far below the
//! rounding point (`arith.rs`, `convert.rs`), round once in the MODE's
//! direction with denormal flushing (`round.rs`). No host floating point is
//! used, except the libm call inside `v_exp/log/sin/cos`, which
//! docs/floating-point.md defines through the host's `f64` libm
//! (`transcendental.rs`). The rules are those of docs/floating-point.md; the
//! choices where it is silent are listed in docs/cycle-model-fp.md.

mod arith;
mod convert;
mod divide;
mod format;
mod round;
mod select;
mod transcendental;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_softfloat;

use convert::ToInt;
use divide::ScaleParams;
use format::{Ctx, F16, F32, F64};
use transcendental::Func;

/// A rounding mode, as encoded in MODE.FP_ROUND (2 bits per precision).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Round {
    /// Round to nearest, ties to even (0).
    #[default]
    NearestEven,
    /// Toward +infinity (1).
    Up,
    /// Toward -infinity (2).
    Down,
    /// Toward zero (3).
    Zero,
}

/// Denormal handling of one precision, from MODE.FP_DENORM (2 bits per precision:
/// bit 0 keeps input denormals, bit 1 keeps output denormals; 0 flushes both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Denorm {
    /// Input denormals are used as they are (else read as signed zero).
    pub keep_in: bool,
    /// Denormal results are produced (else flushed to signed zero).
    pub keep_out: bool,
}

/// The floating-point part of a wave's MODE register.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FpMode {
    /// f32 rounding (MODE\[1:0\]).
    pub round32: Round,
    /// f64 and f16 rounding (MODE\[3:2\]).
    pub round64: Round,
    /// f32 denormals (MODE\[5:4\]).
    pub denorm32: Denorm,
    /// f64 and f16 denormals (MODE\[7:6\]).
    pub denorm64: Denorm,
    /// DX10_CLAMP (MODE\[8\]): clamp maps NaN to 0.
    pub dx10_clamp: bool,
    /// IEEE (MODE\[9\]): signalling NaNs are quieted, min/max follow IEEE-754-2008.
    pub ieee: bool,
}

impl FpMode {
    /// Decodes the MODE hardware register.
    pub fn from_mode(mode: u32) -> FpMode {
        let round = |b: u32| match b & 3 {
            0 => Round::NearestEven,
            1 => Round::Up,
            2 => Round::Down,
            _ => Round::Zero,
        };
        let denorm = |b: u32| Denorm {
            keep_in: b & 1 != 0,
            keep_out: b & 2 != 0,
        };
        FpMode {
            round32: round(mode),
            round64: round(mode >> 2),
            denorm32: denorm(mode >> 4),
            denorm64: denorm(mode >> 6),
            dx10_clamp: mode & (1 << 8) != 0,
            ieee: mode & (1 << 9) != 0,
        }
    }
}

/// The result of an ordered/unordered comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// a < b.
    Less,
    /// a == b (including +0 == -0).
    Equal,
    /// a > b.
    Greater,
    /// Either is NaN.
    Unordered,
}

#[inline]
fn c32(m: &FpMode) -> Ctx {
    Ctx {
        f: F32,
        rm: m.round32,
        dn: m.denorm32,
    }
}
#[inline]
fn c64(m: &FpMode) -> Ctx {
    Ctx {
        f: F64,
        rm: m.round64,
        dn: m.denorm64,
    }
}
#[inline]
fn c16(m: &FpMode) -> Ctx {
    Ctx {
        f: F16,
        rm: m.round64,
        dn: m.denorm64,
    }
}
/// The unfused GCN multiply-adds' mode: denormals flushed whatever MODE says.
#[inline]
fn flushed(c: Ctx) -> Ctx {
    Ctx {
        dn: Denorm::default(),
        ..c
    }
}

const SCALE32: ScaleParams = ScaleParams {
    near_max: 96,
    scale: 64,
    tiny_num: 23,
};
const SCALE64: ScaleParams = ScaleParams {
    near_max: 768,
    scale: 128,
    tiny_num: 53,
};

/// omod's power of two (0 none, 1 ×2, 2 ×4, 3 ÷2).
#[inline]
fn omod_pow(omod: u8) -> i32 {
    match omod & 3 {
        0 => 0,
        1 => 1,
        2 => 2,
        _ => -1,
    }
}

#[inline]
fn omod(a: u64, omod: u8, c: Ctx) -> u64 {
    // A NaN passes omod unchanged (a signalling one stays signalling), as
    // on the golden GPU (issue 14).
    if c.f.is_nan(a) {
        return a;
    }
    match omod_pow(omod) {
        0 => a,
        p => convert::ldexp(a, p, c),
    }
}

#[inline]
fn fract(a: u64, c: Ctx) -> u64 {
    // S0 + -floor(S0), one rounding (floor is exact), then at most the
    // largest value below 1.0: OpenCL's `fmin(x - floor(x), 0x1.fffffep-1f)`,
    // which LLVM's constant folding of `llvm.amdgcn.fract` says the
    // instruction implements (a tiny negative input would round to 1.0).
    let fl = convert::round_int(a, c, Round::Down);
    let r = arith::add(a, fl ^ c.f.sign_bit(), c);
    let below_one = c.f.one() - 1;
    if !c.f.is_nan(r) && !c.f.sign(r) && r > below_one {
        below_one
    } else {
        r
    }
}

// --- f32 -------------------------------------------------------------------
/// `v_add_f32` (`v_sub` negates src1 first).
pub fn add_f32(a: u32, b: u32, m: &FpMode) -> u32 {
    arith::add(a.into(), b.into(), c32(m)) as u32
}
/// `v_mul_f32`.
pub fn mul_f32(a: u32, b: u32, m: &FpMode) -> u32 {
    arith::mul(a.into(), b.into(), c32(m)) as u32
}
/// Fused a*b+c with one rounding.
pub fn fma_f32(a: u32, b: u32, c: u32, m: &FpMode) -> u32 {
    arith::fma(a.into(), b.into(), c.into(), 0, false, c32(m)) as u32
}
/// `a / b` correctly rounded (reference division; not an AMD instruction).
pub fn div_f32(a: u32, b: u32, m: &FpMode) -> u32 {
    arith::div(a.into(), b.into(), c32(m)) as u32
}
/// `v_mul_legacy_f32` / `v_fma_legacy_f32` rule: 0 * anything (even inf/NaN) = 0.
pub fn mul_legacy_f32(a: u32, b: u32, m: &FpMode) -> u32 {
    arith::fma(a.into(), b.into(), 0, 0, true, c32(m)) as u32
}
/// `v_fma_legacy_f32` / `v_fmac_legacy_f32`: fused, with the legacy zero rule
/// (a zero factor makes the product +0).
pub fn fma_legacy_f32(a: u32, b: u32, c: u32, m: &FpMode) -> u32 {
    arith::fma(a.into(), b.into(), c.into(), 0, true, c32(m)) as u32
}
/// GCN's unfused `v_mad_f32`: product rounded, then the sum, denormals flushed
/// whatever MODE says.
pub fn mad_f32(a: u32, b: u32, c: u32, m: &FpMode) -> u32 {
    let ctx = flushed(c32(m));
    let p = arith::mul(a.into(), b.into(), ctx);
    arith::add(p, c.into(), ctx) as u32
}
/// `v_min_f32`.
pub fn min_f32(a: u32, b: u32, m: &FpMode) -> u32 {
    select::min_max(a.into(), b.into(), false, m.ieee, c32(m)) as u32
}
/// `v_max_f32`.
pub fn max_f32(a: u32, b: u32, m: &FpMode) -> u32 {
    select::min_max(a.into(), b.into(), true, m.ieee, c32(m)) as u32
}
/// `v_med3_f32`, `v_min3_f32`, `v_max3_f32` are built from min/max by the caller;
/// this is `v_med3_f32`'s NaN rule.
pub fn med3_f32(a: u32, b: u32, c: u32, m: &FpMode) -> u32 {
    select::med3(a.into(), b.into(), c.into(), m.ieee, c32(m)) as u32
}
/// `v_cmp_*_f32`.
pub fn compare_f32(a: u32, b: u32, m: &FpMode) -> Order {
    select::compare(a.into(), b.into(), c32(m))
}
/// `v_cmp_class_f32`: bit i of `mask` selects class i (0 sNaN, 1 qNaN, 2 -inf,
/// 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf).
pub fn class_f32(a: u32, mask: u32) -> bool {
    select::class(a.into(), F32, mask)
}
/// `v_cvt_f32_i32`.
pub fn cvt_f32_i32(a: i32, m: &FpMode) -> u32 {
    convert::from_int(a < 0, a.unsigned_abs().into(), c32(m)) as u32
}
/// `v_cvt_f32_u32`.
pub fn cvt_f32_u32(a: u32, m: &FpMode) -> u32 {
    convert::from_int(false, a.into(), c32(m)) as u32
}
/// Truncates toward zero, saturating; NaN gives 0.
pub fn cvt_i32_f32(a: u32, m: &FpMode) -> i32 {
    let t = ToInt::Dir(Round::Zero);
    convert::to_int(
        a.into(),
        F32,
        m.denorm32.keep_in,
        t,
        i32::MIN.into(),
        i32::MAX.into(),
    ) as i32
}
/// `v_cvt_u32_f32`: truncates, saturates to [0, 2^32-1], NaN gives 0.
pub fn cvt_u32_f32(a: u32, m: &FpMode) -> u32 {
    let t = ToInt::Dir(Round::Zero);
    convert::to_int(a.into(), F32, m.denorm32.keep_in, t, 0, u32::MAX.into()) as u32
}
/// `v_cvt_rpi_i32_f32` (floor(a + 0.5)) and `v_cvt_flr_i32_f32` (floor(a)).
pub fn cvt_rpi_i32_f32(a: u32, m: &FpMode) -> i32 {
    let t = ToInt::HalfUp;
    convert::to_int(
        a.into(),
        F32,
        m.denorm32.keep_in,
        t,
        i32::MIN.into(),
        i32::MAX.into(),
    ) as i32
}
/// `v_cvt_flr_i32_f32`: floor, saturating, NaN gives 0.
pub fn cvt_flr_i32_f32(a: u32, m: &FpMode) -> i32 {
    let t = ToInt::Dir(Round::Down);
    convert::to_int(
        a.into(),
        F32,
        m.denorm32.keep_in,
        t,
        i32::MIN.into(),
        i32::MAX.into(),
    ) as i32
}
/// `v_cvt_f32_ubyte{n}`.
pub fn cvt_f32_ubyte(a: u32, byte: u32) -> u32 {
    let v = (a >> (8 * (byte & 3))) & 0xff;
    convert::from_int(false, v.into(), Ctx::exact(F32)) as u32
}
/// `v_trunc_f32`.
pub fn trunc_f32(a: u32, m: &FpMode) -> u32 {
    convert::round_int(a.into(), c32(m), Round::Zero) as u32
}
/// `v_floor_f32`.
pub fn floor_f32(a: u32, m: &FpMode) -> u32 {
    convert::round_int(a.into(), c32(m), Round::Down) as u32
}
/// `v_ceil_f32`.
pub fn ceil_f32(a: u32, m: &FpMode) -> u32 {
    convert::round_int(a.into(), c32(m), Round::Up) as u32
}
/// `v_rndne_f32`.
pub fn rndne_f32(a: u32, m: &FpMode) -> u32 {
    convert::round_int(a.into(), c32(m), Round::NearestEven) as u32
}
/// `v_fract_f32`: `a + -floor(a)` rounded once (inf gives NaN).
pub fn fract_f32(a: u32, m: &FpMode) -> u32 {
    fract(a.into(), c32(m)) as u32
}
/// 1/a, correctly rounded in the MODE direction.
pub fn rcp_f32(a: u32, m: &FpMode) -> u32 {
    arith::rcp(a.into(), c32(m)) as u32
}
/// `v_rcp_iflag_f32`: docs/floating-point.md defines it as `v_rcp_f32`.
pub fn rcp_iflag_f32(a: u32, m: &FpMode) -> u32 {
    rcp_f32(a, m)
}
/// `v_rsq_f32`: 1/sqrt(a) correctly rounded.
pub fn rsq_f32(a: u32, m: &FpMode) -> u32 {
    arith::rsq(a.into(), c32(m)) as u32
}
/// `v_sqrt_f32`: correctly rounded.
pub fn sqrt_f32(a: u32, m: &FpMode) -> u32 {
    arith::sqrt(a.into(), c32(m)) as u32
}
/// log2(a).
pub fn log_f32(a: u32, m: &FpMode) -> u32 {
    transcendental::eval(a.into(), Func::Log2, c32(m)) as u32
}
/// 2^a.
pub fn exp_f32(a: u32, m: &FpMode) -> u32 {
    transcendental::eval(a.into(), Func::Exp2, c32(m)) as u32
}
/// sin(2π a).
pub fn sin_f32(a: u32, m: &FpMode) -> u32 {
    transcendental::eval(a.into(), Func::SinRev, c32(m)) as u32
}
/// cos(2π a).
pub fn cos_f32(a: u32, m: &FpMode) -> u32 {
    transcendental::eval(a.into(), Func::CosRev, c32(m)) as u32
}
/// `v_frexp_mant_f32`.
pub fn frexp_mant_f32(a: u32, m: &FpMode) -> u32 {
    convert::frexp_mant(a.into(), c32(m)) as u32
}
/// `v_frexp_exp_i32_f32`.
pub fn frexp_exp_i32_f32(a: u32, m: &FpMode) -> i32 {
    convert::frexp_exp(a.into(), c32(m))
}
/// `v_ldexp_f32`.
pub fn ldexp_f32(a: u32, exp: i32, m: &FpMode) -> u32 {
    convert::ldexp(a.into(), exp, c32(m)) as u32
}
/// `v_div_scale_f32`: (result, vcc bit).
pub fn div_scale_f32(a: u32, b: u32, c: u32, m: &FpMode) -> (u32, bool) {
    let (r, v) = divide::div_scale(a.into(), b.into(), c.into(), SCALE32, c32(m));
    (r as u32, v)
}
/// `v_div_fmas_f32`: fma scaled by 2^±64 before rounding when `vcc_bit`.
pub fn div_fmas_f32(a: u32, b: u32, c: u32, vcc_bit: bool, m: &FpMode) -> u32 {
    divide::div_fmas(a.into(), b.into(), c.into(), vcc_bit, 64, c32(m)) as u32
}
/// `v_div_fixup_f32(quotient, denominator, numerator)`.
pub fn div_fixup_f32(a: u32, b: u32, c: u32, m: &FpMode) -> u32 {
    divide::div_fixup(a.into(), b.into(), c.into(), c32(m)) as u32
}
/// Output modifier (0 none, 1 ×2, 2 ×4, 3 ÷2).
pub fn omod_f32(a: u32, omod: u8, m: &FpMode) -> u32 {
    self::omod(a.into(), omod, c32(m)) as u32
}
/// Clamp to [0, 1]; NaN to +0 whatever DX10_CLAMP says (docs/floating-point.md).
pub fn clamp_f32(a: u32, _m: &FpMode) -> u32 {
    select::clamp(a.into(), F32) as u32
}

// --- f64 -------------------------------------------------------------------
/// `v_add_f64`.
pub fn add_f64(a: u64, b: u64, m: &FpMode) -> u64 {
    arith::add(a, b, c64(m))
}
/// `v_mul_f64`.
pub fn mul_f64(a: u64, b: u64, m: &FpMode) -> u64 {
    arith::mul(a, b, c64(m))
}
/// `v_fma_f64`.
pub fn fma_f64(a: u64, b: u64, c: u64, m: &FpMode) -> u64 {
    arith::fma(a, b, c, 0, false, c64(m))
}
/// `a / b` correctly rounded (reference division).
pub fn div_f64(a: u64, b: u64, m: &FpMode) -> u64 {
    arith::div(a, b, c64(m))
}
/// `v_min_f64`.
pub fn min_f64(a: u64, b: u64, m: &FpMode) -> u64 {
    select::min_max(a, b, false, m.ieee, c64(m))
}
/// `v_max_f64`.
pub fn max_f64(a: u64, b: u64, m: &FpMode) -> u64 {
    select::min_max(a, b, true, m.ieee, c64(m))
}
/// `v_cmp_*_f64`.
pub fn compare_f64(a: u64, b: u64, m: &FpMode) -> Order {
    select::compare(a, b, c64(m))
}
/// `v_cmp_class_f64`.
pub fn class_f64(a: u64, mask: u32) -> bool {
    select::class(a, F64, mask)
}
/// `v_cvt_f64_f32`: exact (f32 input denormals per the f32 MODE field).
pub fn cvt_f64_f32(a: u32, m: &FpMode) -> u64 {
    convert::convert(a.into(), F32, m.denorm32.keep_in, c64(m))
}
/// `v_cvt_f32_f64`: f64 input denormals per the f64 field, rounding and
/// output denormals per the f32 field.
pub fn cvt_f32_f64(a: u64, m: &FpMode) -> u32 {
    convert::convert(a, F64, m.denorm64.keep_in, c32(m)) as u32
}
/// `v_cvt_f64_i32` (exact).
pub fn cvt_f64_i32(a: i32) -> u64 {
    convert::from_int(a < 0, a.unsigned_abs().into(), Ctx::exact(F64))
}
/// `v_cvt_f64_u32` (exact).
pub fn cvt_f64_u32(a: u32) -> u64 {
    convert::from_int(false, a.into(), Ctx::exact(F64))
}
/// `v_cvt_i32_f64`: truncating, saturating, NaN gives 0.
pub fn cvt_i32_f64(a: u64, m: &FpMode) -> i32 {
    let t = ToInt::Dir(Round::Zero);
    convert::to_int(
        a,
        F64,
        m.denorm64.keep_in,
        t,
        i32::MIN.into(),
        i32::MAX.into(),
    ) as i32
}
/// `v_cvt_u32_f64`: truncating, saturating, NaN gives 0.
pub fn cvt_u32_f64(a: u64, m: &FpMode) -> u32 {
    let t = ToInt::Dir(Round::Zero);
    convert::to_int(a, F64, m.denorm64.keep_in, t, 0, u32::MAX.into()) as u32
}
/// `v_trunc_f64`.
pub fn trunc_f64(a: u64, m: &FpMode) -> u64 {
    convert::round_int(a, c64(m), Round::Zero)
}
/// `v_floor_f64`.
pub fn floor_f64(a: u64, m: &FpMode) -> u64 {
    convert::round_int(a, c64(m), Round::Down)
}
/// `v_ceil_f64`.
pub fn ceil_f64(a: u64, m: &FpMode) -> u64 {
    convert::round_int(a, c64(m), Round::Up)
}
/// `v_rndne_f64`.
pub fn rndne_f64(a: u64, m: &FpMode) -> u64 {
    convert::round_int(a, c64(m), Round::NearestEven)
}
/// `v_fract_f64`.
pub fn fract_f64(a: u64, m: &FpMode) -> u64 {
    fract(a, c64(m))
}
/// `v_rcp_f64`: correctly rounded.
pub fn rcp_f64(a: u64, m: &FpMode) -> u64 {
    arith::rcp(a, c64(m))
}
/// `v_rsq_f64`: correctly rounded.
pub fn rsq_f64(a: u64, m: &FpMode) -> u64 {
    arith::rsq(a, c64(m))
}
/// `v_sqrt_f64`: correctly rounded.
pub fn sqrt_f64(a: u64, m: &FpMode) -> u64 {
    arith::sqrt(a, c64(m))
}
/// `v_frexp_mant_f64`.
pub fn frexp_mant_f64(a: u64, m: &FpMode) -> u64 {
    convert::frexp_mant(a, c64(m))
}
/// `v_frexp_exp_i32_f64`.
pub fn frexp_exp_i32_f64(a: u64, m: &FpMode) -> i32 {
    convert::frexp_exp(a, c64(m))
}
/// `v_ldexp_f64`.
pub fn ldexp_f64(a: u64, exp: i32, m: &FpMode) -> u64 {
    convert::ldexp(a, exp, c64(m))
}
/// `v_div_scale_f64`: (result, vcc bit).
pub fn div_scale_f64(a: u64, b: u64, c: u64, m: &FpMode) -> (u64, bool) {
    divide::div_scale(a, b, c, SCALE64, c64(m))
}
/// `v_div_fmas_f64`: fma scaled by 2^±128 before rounding when `vcc_bit`.
pub fn div_fmas_f64(a: u64, b: u64, c: u64, vcc_bit: bool, m: &FpMode) -> u64 {
    divide::div_fmas(a, b, c, vcc_bit, 128, c64(m))
}
/// `v_div_fixup_f64(quotient, denominator, numerator)`.
pub fn div_fixup_f64(a: u64, b: u64, c: u64, m: &FpMode) -> u64 {
    divide::div_fixup(a, b, c, c64(m))
}
/// Output modifier (0 none, 1 ×2, 2 ×4, 3 ÷2).
pub fn omod_f64(a: u64, omod: u8, m: &FpMode) -> u64 {
    self::omod(a, omod, c64(m))
}
/// Clamp to [0, 1]; NaN to +0 whatever DX10_CLAMP says (docs/floating-point.md).
pub fn clamp_f64(a: u64, _m: &FpMode) -> u64 {
    select::clamp(a, F64)
}

// --- f16 (rounding and denormals from the f64/f16 MODE fields) ------------------
/// `v_add_f16`.
pub fn add_f16(a: u16, b: u16, m: &FpMode) -> u16 {
    arith::add(a.into(), b.into(), c16(m)) as u16
}
/// `v_mul_f16`.
pub fn mul_f16(a: u16, b: u16, m: &FpMode) -> u16 {
    arith::mul(a.into(), b.into(), c16(m)) as u16
}
/// `v_fma_f16`.
pub fn fma_f16(a: u16, b: u16, c: u16, m: &FpMode) -> u16 {
    arith::fma(a.into(), b.into(), c.into(), 0, false, c16(m)) as u16
}
/// `a / b` correctly rounded (reference division).
pub fn div_f16(a: u16, b: u16, m: &FpMode) -> u16 {
    arith::div(a.into(), b.into(), c16(m)) as u16
}
/// `v_min_f16`.
pub fn min_f16(a: u16, b: u16, m: &FpMode) -> u16 {
    select::min_max(a.into(), b.into(), false, m.ieee, c16(m)) as u16
}
/// `v_max_f16`.
pub fn max_f16(a: u16, b: u16, m: &FpMode) -> u16 {
    select::min_max(a.into(), b.into(), true, m.ieee, c16(m)) as u16
}
/// `v_med3_f16`.
pub fn med3_f16(a: u16, b: u16, c: u16, m: &FpMode) -> u16 {
    select::med3(a.into(), b.into(), c.into(), m.ieee, c16(m)) as u16
}
/// `v_cmp_*_f16`.
pub fn compare_f16(a: u16, b: u16, m: &FpMode) -> Order {
    select::compare(a.into(), b.into(), c16(m))
}
/// `v_cmp_class_f16`.
pub fn class_f16(a: u16, mask: u32) -> bool {
    select::class(a.into(), F16, mask)
}
/// `v_cvt_f16_f32`: f32 input denormals per the f32 field, rounding and output
/// denormals per the f16 field.
pub fn cvt_f16_f32(a: u32, m: &FpMode) -> u16 {
    convert::convert(a.into(), F32, m.denorm32.keep_in, c16(m)) as u16
}
/// `v_cvt_pkrtz_f16_f32`: both halves converted toward zero whatever MODE
/// says (`a` in bits 15:0, `b` in 31:16); denormals per MODE.
pub fn cvt_pkrtz_f16_f32(a: u32, b: u32, m: &FpMode) -> u32 {
    let rtz = Ctx {
        rm: Round::Zero,
        ..c16(m)
    };
    let lo = convert::convert(a.into(), F32, m.denorm32.keep_in, rtz);
    let hi = convert::convert(b.into(), F32, m.denorm32.keep_in, rtz);
    (lo | hi << 16) as u32
}
/// `v_cvt_f32_f16`: exact (f16 input denormals per the f16 field).
pub fn cvt_f32_f16(a: u16, m: &FpMode) -> u32 {
    convert::convert(a.into(), F16, m.denorm64.keep_in, c32(m)) as u32
}
/// `v_cvt_f16_i16`.
pub fn cvt_f16_i16(a: i16, m: &FpMode) -> u16 {
    convert::from_int(a < 0, a.unsigned_abs().into(), c16(m)) as u16
}
/// `v_cvt_f16_u16`.
pub fn cvt_f16_u16(a: u16, m: &FpMode) -> u16 {
    convert::from_int(false, a.into(), c16(m)) as u16
}
/// `v_cvt_i16_f16`: truncating, saturating, NaN gives 0.
pub fn cvt_i16_f16(a: u16, m: &FpMode) -> i16 {
    let t = ToInt::Dir(Round::Zero);
    convert::to_int(
        a.into(),
        F16,
        m.denorm64.keep_in,
        t,
        i16::MIN.into(),
        i16::MAX.into(),
    ) as i16
}
/// `v_cvt_u16_f16`: truncating, saturating, NaN gives 0.
pub fn cvt_u16_f16(a: u16, m: &FpMode) -> u16 {
    let t = ToInt::Dir(Round::Zero);
    convert::to_int(a.into(), F16, m.denorm64.keep_in, t, 0, u16::MAX.into()) as u16
}
/// `v_trunc_f16`.
pub fn trunc_f16(a: u16, m: &FpMode) -> u16 {
    convert::round_int(a.into(), c16(m), Round::Zero) as u16
}
/// `v_floor_f16`.
pub fn floor_f16(a: u16, m: &FpMode) -> u16 {
    convert::round_int(a.into(), c16(m), Round::Down) as u16
}
/// `v_ceil_f16`.
pub fn ceil_f16(a: u16, m: &FpMode) -> u16 {
    convert::round_int(a.into(), c16(m), Round::Up) as u16
}
/// `v_rndne_f16`.
pub fn rndne_f16(a: u16, m: &FpMode) -> u16 {
    convert::round_int(a.into(), c16(m), Round::NearestEven) as u16
}
/// `v_fract_f16`.
pub fn fract_f16(a: u16, m: &FpMode) -> u16 {
    fract(a.into(), c16(m)) as u16
}
/// `v_rcp_f16`: correctly rounded.
pub fn rcp_f16(a: u16, m: &FpMode) -> u16 {
    arith::rcp(a.into(), c16(m)) as u16
}
/// `v_rsq_f16`: correctly rounded.
pub fn rsq_f16(a: u16, m: &FpMode) -> u16 {
    arith::rsq(a.into(), c16(m)) as u16
}
/// `v_sqrt_f16`: correctly rounded.
pub fn sqrt_f16(a: u16, m: &FpMode) -> u16 {
    arith::sqrt(a.into(), c16(m)) as u16
}
/// `v_log_f16`: log2.
pub fn log_f16(a: u16, m: &FpMode) -> u16 {
    transcendental::eval(a.into(), Func::Log2, c16(m)) as u16
}
/// `v_exp_f16`: 2^a.
pub fn exp_f16(a: u16, m: &FpMode) -> u16 {
    transcendental::eval(a.into(), Func::Exp2, c16(m)) as u16
}
/// `v_sin_f16`: sin(2π a).
pub fn sin_f16(a: u16, m: &FpMode) -> u16 {
    transcendental::eval(a.into(), Func::SinRev, c16(m)) as u16
}
/// `v_cos_f16`: cos(2π a).
pub fn cos_f16(a: u16, m: &FpMode) -> u16 {
    transcendental::eval(a.into(), Func::CosRev, c16(m)) as u16
}
/// `v_frexp_mant_f16`.
pub fn frexp_mant_f16(a: u16, m: &FpMode) -> u16 {
    convert::frexp_mant(a.into(), c16(m)) as u16
}
/// `v_frexp_exp_i16_f16`.
pub fn frexp_exp_i16_f16(a: u16, m: &FpMode) -> i16 {
    convert::frexp_exp(a.into(), c16(m)) as i16
}
/// `v_ldexp_f16`.
pub fn ldexp_f16(a: u16, exp: i32, m: &FpMode) -> u16 {
    convert::ldexp(a.into(), exp, c16(m)) as u16
}
/// `v_div_fixup_f16(quotient, denominator, numerator)`.
pub fn div_fixup_f16(a: u16, b: u16, c: u16, m: &FpMode) -> u16 {
    divide::div_fixup(a.into(), b.into(), c.into(), c16(m)) as u16
}
/// Output modifier (0 none, 1 ×2, 2 ×4, 3 ÷2).
pub fn omod_f16(a: u16, omod: u8, m: &FpMode) -> u16 {
    self::omod(a.into(), omod, c16(m)) as u16
}
/// Clamp to [0, 1]; NaN to +0 whatever DX10_CLAMP says (docs/floating-point.md).
pub fn clamp_f16(a: u16, _m: &FpMode) -> u16 {
    select::clamp(a.into(), F16) as u16
}

// --- packing conversions ----------------------------------------------------
/// `v_cvt_pk_u8_f32`'s byte: round to nearest even, saturate to [0, 255],
/// NaN gives 0 (f32 input denormals per MODE).
pub fn cvt_u8_f32(a: u32, m: &FpMode) -> u8 {
    let t = ToInt::Dir(Round::NearestEven);
    convert::to_int(a.into(), F32, m.denorm32.keep_in, t, 0, 255) as u8
}

/// The normalised 16-bit integer of `v_cvt_norm_*` and `v_cvt_pknorm_*`:
/// `x` (an f16 when `half`, else an f32) clamped to [-1, 1] (`signed`) or
/// [0, 1], times 32767 or 65535, rounded to nearest even; NaN gives 0.
/// Denormal inputs are kept whatever MODE says (the golden model converts
/// with IEEE semantics). The product is exact in f64 (at most 24 + 16 bits),
/// so scaling first and saturating after equals clamping first.
pub fn norm16(x: u32, half: bool, signed: bool) -> u16 {
    let wide = if half {
        convert::convert(u64::from(x & 0xffff), F16, true, Ctx::exact(F64))
    } else {
        convert::convert(u64::from(x), F32, true, Ctx::exact(F64))
    };
    let (scale, lo, hi): (u64, i64, i64) = if signed {
        (0x40df_ffc0_0000_0000, -32767, 32767) // 32767.0
    } else {
        (0x40ef_ffe0_0000_0000, 0, 65535) // 65535.0
    };
    let product = arith::mul(wide, scale, Ctx::exact(F64));
    let t = ToInt::Dir(Round::NearestEven);
    convert::to_int(product, F64, true, t, lo, hi) as u16
}

/// f16 to f32 exactly, denormals kept whatever MODE says: the source
/// conversion of `v_fma_mix*` and `v_dot2*_f32_f16` (docs/floating-point.md).
pub fn widen_f16_exact(a: u16) -> u32 {
    convert::convert(a.into(), F16, true, Ctx::exact(F32)) as u32
}
