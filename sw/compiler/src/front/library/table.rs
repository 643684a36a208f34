//! The one table of OpenCL C math built-ins (the specification's section
//! "Math Functions"): each function's operand shape and how gpusim
//! implements its `float` forms — a device-library function (OpenCL C in
//! `sw/compiler/lib/`, linked into the kernel) or an instruction sequence
//! the lowering emits directly. Vector forms apply the scalar form per
//! component. The tests enumerate this table.

use super::super::tast::Builtin;

/// The operand and result types of a math built-in (`gentype` is `float`
/// or `floatN`, N in 2, 3, 4, 8, 16; `intn` the `int` type of as many
/// components).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `gentype f(gentype)`.
    F1,
    /// `gentype f(gentype, gentype)`.
    F2,
    /// `gentype f(gentype, gentype, gentype)`.
    F3,
    /// `gentype f(gentype, intn)` (`ldexp` also takes a scalar `int` for a vector `x`).
    FI,
    /// `intn f(gentype)` (`ilogb`).
    IF,
    /// `gentype f(gentype, gentype *)` (`sincos`, `modf`, `fract`): the
    /// second result stored through the pointer.
    FPtrF,
    /// `gentype f(gentype, intn *)` (`frexp`, `lgamma_r`).
    FPtrI,
    /// `gentype f(gentype, gentype, intn *)` (`remquo`).
    F2PtrI,
}

/// How the `float` forms are implemented.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Impl {
    /// The device-library function of this name (`float` operands; a
    /// pointer form's library function returns both results as a vector
    /// of two: `(value, stored)`, the stored `int` as its bits).
    Lib(&'static str),
    /// Lowered directly (one instruction or a short fixed sequence).
    Native(Builtin),
}

/// One math built-in.
#[derive(Clone, Copy, Debug)]
pub struct MathFn {
    /// The OpenCL C name.
    pub name: &'static str,
    /// Operands and result.
    pub shape: Shape,
    /// The `float` implementation.
    pub f32: Impl,
}

const fn lib(name: &'static str, shape: Shape, sym: &'static str) -> MathFn {
    MathFn {
        name,
        shape,
        f32: Impl::Lib(sym),
    }
}

const fn native(name: &'static str, shape: Shape, b: Builtin) -> MathFn {
    MathFn {
        name,
        shape,
        f32: Impl::Native(b),
    }
}

use Shape::*;

/// Every math built-in gpusim knows, in the specification's order.
pub static MATH: &[MathFn] = &[
    lib("acos", F1, "__gpusim_acos_f32"),
    lib("acosh", F1, "__gpusim_acosh_f32"),
    lib("acospi", F1, "__gpusim_acospi_f32"),
    lib("asin", F1, "__gpusim_asin_f32"),
    lib("asinh", F1, "__gpusim_asinh_f32"),
    lib("asinpi", F1, "__gpusim_asinpi_f32"),
    lib("atan", F1, "__gpusim_atan_f32"),
    lib("atan2", F2, "__gpusim_atan2_f32"),
    lib("atanh", F1, "__gpusim_atanh_f32"),
    lib("atanpi", F1, "__gpusim_atanpi_f32"),
    lib("atan2pi", F2, "__gpusim_atan2pi_f32"),
    lib("cbrt", F1, "__gpusim_cbrt_f32"),
    native("ceil", F1, Builtin::Ceil),
    native("copysign", F2, Builtin::Copysign),
    lib("cos", F1, "__gpusim_cos_f32"),
    lib("cosh", F1, "__gpusim_cosh_f32"),
    lib("cospi", F1, "__gpusim_cospi_f32"),
    lib("erfc", F1, "__gpusim_erfc_f32"),
    lib("erf", F1, "__gpusim_erf_f32"),
    lib("exp", F1, "__gpusim_exp_f32"),
    lib("exp2", F1, "__gpusim_exp2_f32"),
    lib("exp10", F1, "__gpusim_exp10_f32"),
    lib("expm1", F1, "__gpusim_expm1_f32"),
    native("fabs", F1, Builtin::Fabs),
    lib("fdim", F2, "__gpusim_fdim_f32"),
    native("floor", F1, Builtin::Floor),
    native("fma", F3, Builtin::Fma),
    native("fmax", F2, Builtin::Fmax),
    native("fmin", F2, Builtin::Fmin),
    lib("fmod", F2, "__gpusim_fmod_f32"),
    lib("fract", FPtrF, "__gpusim_fract_f32"),
    lib("frexp", FPtrI, "__gpusim_frexp_f32"),
    lib("hypot", F2, "__gpusim_hypot_f32"),
    lib("ilogb", IF, "__gpusim_ilogb_f32"),
    lib("ldexp", FI, "__gpusim_ldexp_f32"),
    lib("lgamma", F1, "__gpusim_lgamma_f32"),
    lib("lgamma_r", FPtrI, "__gpusim_lgamma_r_f32"),
    lib("log", F1, "__gpusim_log_f32"),
    lib("log2", F1, "__gpusim_log2_f32"),
    lib("log10", F1, "__gpusim_log10_f32"),
    lib("log1p", F1, "__gpusim_log1p_f32"),
    lib("logb", F1, "__gpusim_logb_f32"),
    native("mad", F3, Builtin::Mad),
    lib("maxmag", F2, "__gpusim_maxmag_f32"),
    lib("minmag", F2, "__gpusim_minmag_f32"),
    lib("modf", FPtrF, "__gpusim_modf_f32"),
    lib("nextafter", F2, "__gpusim_nextafter_f32"),
    lib("pow", F2, "__gpusim_pow_f32"),
    lib("pown", FI, "__gpusim_pown_f32"),
    lib("powr", F2, "__gpusim_powr_f32"),
    lib("remainder", F2, "__gpusim_remainder_f32"),
    lib("remquo", F2PtrI, "__gpusim_remquo_f32"),
    native("rint", F1, Builtin::Rint),
    lib("rootn", FI, "__gpusim_rootn_f32"),
    lib("round", F1, "__gpusim_round_f32"),
    native("rsqrt", F1, Builtin::Rsqrt),
    lib("sin", F1, "__gpusim_sin_f32"),
    lib("sincos", FPtrF, "__gpusim_sincos_f32"),
    lib("sinh", F1, "__gpusim_sinh_f32"),
    lib("sinpi", F1, "__gpusim_sinpi_f32"),
    native("sqrt", F1, Builtin::Sqrt),
    lib("tan", F1, "__gpusim_tan_f32"),
    lib("tanh", F1, "__gpusim_tanh_f32"),
    lib("tanpi", F1, "__gpusim_tanpi_f32"),
    lib("tgamma", F1, "__gpusim_tgamma_f32"),
    native("trunc", F1, Builtin::Trunc),
    // half_*: 8192 ULP allowed; the full-precision functions qualify.
    lib("half_cos", F1, "__gpusim_cos_f32"),
    native("half_divide", F2, Builtin::HalfDivide),
    lib("half_exp", F1, "__gpusim_exp_f32"),
    lib("half_exp2", F1, "__gpusim_exp2_f32"),
    lib("half_exp10", F1, "__gpusim_exp10_f32"),
    lib("half_log", F1, "__gpusim_log_f32"),
    lib("half_log2", F1, "__gpusim_log2_f32"),
    lib("half_log10", F1, "__gpusim_log10_f32"),
    lib("half_powr", F2, "__gpusim_powr_f32"),
    native("half_recip", F1, Builtin::Recip),
    native("half_rsqrt", F1, Builtin::Rsqrt),
    lib("half_sin", F1, "__gpusim_sin_f32"),
    native("half_sqrt", F1, Builtin::Sqrt),
    lib("half_tan", F1, "__gpusim_tan_f32"),
    // native_*: implementation-defined accuracy; the hardware instructions.
    lib("native_cos", F1, "__gpusim_native_cos_f32"),
    native("native_divide", F2, Builtin::HalfDivide),
    lib("native_exp", F1, "__gpusim_native_exp_f32"),
    lib("native_exp2", F1, "__gpusim_native_exp2_f32"),
    lib("native_exp10", F1, "__gpusim_native_exp10_f32"),
    lib("native_log", F1, "__gpusim_native_log_f32"),
    lib("native_log2", F1, "__gpusim_native_log2_f32"),
    lib("native_log10", F1, "__gpusim_native_log10_f32"),
    lib("native_powr", F2, "__gpusim_native_powr_f32"),
    native("native_recip", F1, Builtin::Recip),
    native("native_rsqrt", F1, Builtin::Rsqrt),
    lib("native_sin", F1, "__gpusim_native_sin_f32"),
    native("native_sqrt", F1, Builtin::Sqrt),
    lib("native_tan", F1, "__gpusim_native_tan_f32"),
];

/// The table entry of OpenCL function `name`.
pub fn find(name: &str) -> Option<&'static MathFn> {
    MATH.iter().find(|m| m.name == name)
}
