//! Bit-level IEEE-754 arithmetic for the VALU datapath: f16, f32 and f64
//! add, multiply, fused multiply-add, compare, min/max, conversions, rounding
//! and the transcendental approximations, under the wave's MODE register
//! (round mode, denormal flushing, IEEE and DX10-clamp bits).
//!
//! Every function takes and returns raw bits. Source modifiers (`abs`, `neg`)
//! are applied by the caller on the sign bit before the call; output modifiers
//! and clamping through [`omod_f32`], [`clamp_f32`] and their twins.
//!
//! THIS FILE IS THE INTERFACE CONTRACT; the implementations are written at bit
//! level (alignment, normalisation, rounding), never through host floats.
#![allow(unused_variables, missing_docs)]

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
    /// f32 rounding (MODE[1:0]).
    pub round32: Round,
    /// f64 and f16 rounding (MODE[3:2]).
    pub round64: Round,
    /// f32 denormals (MODE[5:4]).
    pub denorm32: Denorm,
    /// f64 and f16 denormals (MODE[7:6]).
    pub denorm64: Denorm,
    /// DX10_CLAMP (MODE[8]): clamp maps NaN to 0.
    pub dx10_clamp: bool,
    /// IEEE (MODE[9]): signalling NaNs are quieted, min/max follow IEEE-754-2008.
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

// --- f32 -------------------------------------------------------------------
pub fn add_f32(a: u32, b: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
pub fn mul_f32(a: u32, b: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
/// Fused a*b+c with one rounding.
pub fn fma_f32(a: u32, b: u32, c: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
/// `v_mul_legacy_f32` / `v_fma_legacy_f32` rule: 0 * anything (even inf/NaN) = 0.
pub fn mul_legacy_f32(a: u32, b: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
pub fn fma_legacy_f32(a: u32, b: u32, c: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
pub fn min_f32(a: u32, b: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
pub fn max_f32(a: u32, b: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
/// `v_med3_f32`, `v_min3_f32`, `v_max3_f32` are built from min/max by the caller;
/// this is `v_med3_f32`'s NaN rule.
pub fn med3_f32(a: u32, b: u32, c: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
pub fn compare_f32(a: u32, b: u32, m: &FpMode) -> Order {
    todo!("fp")
}
/// `v_cmp_class_f32`: bit i of `mask` selects class i (0 sNaN, 1 qNaN, 2 -inf,
/// 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf).
pub fn class_f32(a: u32, mask: u32) -> bool {
    todo!("fp")
}
pub fn cvt_f32_i32(a: i32, m: &FpMode) -> u32 {
    todo!("fp")
}
pub fn cvt_f32_u32(a: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
/// Truncates toward zero, saturating; NaN gives 0.
pub fn cvt_i32_f32(a: u32, m: &FpMode) -> i32 {
    todo!("fp")
}
pub fn cvt_u32_f32(a: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
/// `v_cvt_rpi_i32_f32` (floor(a + 0.5)) and `v_cvt_flr_i32_f32` (floor(a)).
pub fn cvt_rpi_i32_f32(a: u32, m: &FpMode) -> i32 {
    todo!("fp")
}
pub fn cvt_flr_i32_f32(a: u32, m: &FpMode) -> i32 {
    todo!("fp")
}
/// `v_cvt_f32_ubyte{n}`.
pub fn cvt_f32_ubyte(a: u32, byte: u32) -> u32 {
    todo!("fp")
}
pub fn trunc_f32(a: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
pub fn floor_f32(a: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
pub fn ceil_f32(a: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
pub fn rndne_f32(a: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
pub fn fract_f32(a: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
/// 1/a to 1 ulp.
pub fn rcp_f32(a: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
/// `v_rcp_iflag_f32` (integer-division helper: no denormal flush of the result).
pub fn rcp_iflag_f32(a: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
pub fn rsq_f32(a: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
pub fn sqrt_f32(a: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
/// log2(a).
pub fn log_f32(a: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
/// 2^a.
pub fn exp_f32(a: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
/// sin(2π a).
pub fn sin_f32(a: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
/// cos(2π a).
pub fn cos_f32(a: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
pub fn frexp_mant_f32(a: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
pub fn frexp_exp_i32_f32(a: u32, m: &FpMode) -> i32 {
    todo!("fp")
}
pub fn ldexp_f32(a: u32, exp: i32, m: &FpMode) -> u32 {
    todo!("fp")
}
/// `v_div_scale_f32`: (result, vcc bit).
pub fn div_scale_f32(a: u32, b: u32, c: u32, m: &FpMode) -> (u32, bool) {
    todo!("fp")
}
/// `v_div_fmas_f32`: fma scaled by 2^32 (or 2^-32) when `vcc_bit`.
pub fn div_fmas_f32(a: u32, b: u32, c: u32, vcc_bit: bool, m: &FpMode) -> u32 {
    todo!("fp")
}
pub fn div_fixup_f32(a: u32, b: u32, c: u32, m: &FpMode) -> u32 {
    todo!("fp")
}
/// Output modifier (0 none, 1 ×2, 2 ×4, 3 ÷2).
pub fn omod_f32(a: u32, omod: u8, m: &FpMode) -> u32 {
    todo!("fp")
}
/// Clamp to [0, 1] (NaN to 0 when DX10_CLAMP).
pub fn clamp_f32(a: u32, m: &FpMode) -> u32 {
    todo!("fp")
}

// --- f64 -------------------------------------------------------------------
pub fn add_f64(a: u64, b: u64, m: &FpMode) -> u64 {
    todo!("fp")
}
pub fn mul_f64(a: u64, b: u64, m: &FpMode) -> u64 {
    todo!("fp")
}
pub fn fma_f64(a: u64, b: u64, c: u64, m: &FpMode) -> u64 {
    todo!("fp")
}
pub fn min_f64(a: u64, b: u64, m: &FpMode) -> u64 {
    todo!("fp")
}
pub fn max_f64(a: u64, b: u64, m: &FpMode) -> u64 {
    todo!("fp")
}
pub fn compare_f64(a: u64, b: u64, m: &FpMode) -> Order {
    todo!("fp")
}
pub fn class_f64(a: u64, mask: u32) -> bool {
    todo!("fp")
}
pub fn cvt_f64_f32(a: u32, m: &FpMode) -> u64 {
    todo!("fp")
}
pub fn cvt_f32_f64(a: u64, m: &FpMode) -> u32 {
    todo!("fp")
}
pub fn cvt_f64_i32(a: i32) -> u64 {
    todo!("fp")
}
pub fn cvt_f64_u32(a: u32) -> u64 {
    todo!("fp")
}
pub fn cvt_i32_f64(a: u64, m: &FpMode) -> i32 {
    todo!("fp")
}
pub fn cvt_u32_f64(a: u64, m: &FpMode) -> u32 {
    todo!("fp")
}
pub fn trunc_f64(a: u64, m: &FpMode) -> u64 {
    todo!("fp")
}
pub fn floor_f64(a: u64, m: &FpMode) -> u64 {
    todo!("fp")
}
pub fn ceil_f64(a: u64, m: &FpMode) -> u64 {
    todo!("fp")
}
pub fn rndne_f64(a: u64, m: &FpMode) -> u64 {
    todo!("fp")
}
pub fn fract_f64(a: u64, m: &FpMode) -> u64 {
    todo!("fp")
}
pub fn rcp_f64(a: u64, m: &FpMode) -> u64 {
    todo!("fp")
}
pub fn rsq_f64(a: u64, m: &FpMode) -> u64 {
    todo!("fp")
}
pub fn sqrt_f64(a: u64, m: &FpMode) -> u64 {
    todo!("fp")
}
pub fn frexp_mant_f64(a: u64, m: &FpMode) -> u64 {
    todo!("fp")
}
pub fn frexp_exp_i32_f64(a: u64, m: &FpMode) -> i32 {
    todo!("fp")
}
pub fn ldexp_f64(a: u64, exp: i32, m: &FpMode) -> u64 {
    todo!("fp")
}
pub fn div_scale_f64(a: u64, b: u64, c: u64, m: &FpMode) -> (u64, bool) {
    todo!("fp")
}
pub fn div_fmas_f64(a: u64, b: u64, c: u64, vcc_bit: bool, m: &FpMode) -> u64 {
    todo!("fp")
}
pub fn div_fixup_f64(a: u64, b: u64, c: u64, m: &FpMode) -> u64 {
    todo!("fp")
}
pub fn omod_f64(a: u64, omod: u8, m: &FpMode) -> u64 {
    todo!("fp")
}
pub fn clamp_f64(a: u64, m: &FpMode) -> u64 {
    todo!("fp")
}

// --- f16 (rounding and denormals from the f64/f16 MODE fields) ------------------
pub fn add_f16(a: u16, b: u16, m: &FpMode) -> u16 {
    todo!("fp")
}
pub fn mul_f16(a: u16, b: u16, m: &FpMode) -> u16 {
    todo!("fp")
}
pub fn fma_f16(a: u16, b: u16, c: u16, m: &FpMode) -> u16 {
    todo!("fp")
}
pub fn min_f16(a: u16, b: u16, m: &FpMode) -> u16 {
    todo!("fp")
}
pub fn max_f16(a: u16, b: u16, m: &FpMode) -> u16 {
    todo!("fp")
}
pub fn compare_f16(a: u16, b: u16, m: &FpMode) -> Order {
    todo!("fp")
}
pub fn class_f16(a: u16, mask: u32) -> bool {
    todo!("fp")
}
pub fn cvt_f16_f32(a: u32, m: &FpMode) -> u16 {
    todo!("fp")
}
pub fn cvt_f32_f16(a: u16, m: &FpMode) -> u32 {
    todo!("fp")
}
pub fn cvt_f16_i16(a: i16, m: &FpMode) -> u16 {
    todo!("fp")
}
pub fn cvt_f16_u16(a: u16, m: &FpMode) -> u16 {
    todo!("fp")
}
pub fn cvt_i16_f16(a: u16, m: &FpMode) -> i16 {
    todo!("fp")
}
pub fn cvt_u16_f16(a: u16, m: &FpMode) -> u16 {
    todo!("fp")
}
pub fn trunc_f16(a: u16, m: &FpMode) -> u16 {
    todo!("fp")
}
pub fn floor_f16(a: u16, m: &FpMode) -> u16 {
    todo!("fp")
}
pub fn ceil_f16(a: u16, m: &FpMode) -> u16 {
    todo!("fp")
}
pub fn rndne_f16(a: u16, m: &FpMode) -> u16 {
    todo!("fp")
}
pub fn fract_f16(a: u16, m: &FpMode) -> u16 {
    todo!("fp")
}
pub fn rcp_f16(a: u16, m: &FpMode) -> u16 {
    todo!("fp")
}
pub fn rsq_f16(a: u16, m: &FpMode) -> u16 {
    todo!("fp")
}
pub fn sqrt_f16(a: u16, m: &FpMode) -> u16 {
    todo!("fp")
}
pub fn log_f16(a: u16, m: &FpMode) -> u16 {
    todo!("fp")
}
pub fn exp_f16(a: u16, m: &FpMode) -> u16 {
    todo!("fp")
}
pub fn sin_f16(a: u16, m: &FpMode) -> u16 {
    todo!("fp")
}
pub fn cos_f16(a: u16, m: &FpMode) -> u16 {
    todo!("fp")
}
pub fn frexp_mant_f16(a: u16, m: &FpMode) -> u16 {
    todo!("fp")
}
pub fn frexp_exp_i16_f16(a: u16, m: &FpMode) -> i16 {
    todo!("fp")
}
pub fn ldexp_f16(a: u16, exp: i32, m: &FpMode) -> u16 {
    todo!("fp")
}
pub fn omod_f16(a: u16, omod: u8, m: &FpMode) -> u16 {
    todo!("fp")
}
pub fn clamp_f16(a: u16, m: &FpMode) -> u16 {
    todo!("fp")
}
