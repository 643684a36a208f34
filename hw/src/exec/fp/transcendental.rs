//! `v_exp`, `v_log`, `v_sin`, `v_cos`: as docs/floating-point.md defines them,
//! the host libm's `f64` result rounded once (nearest-even, MODE output
//! denormals) to the operand's format. The widening and the final rounding are
//! this module's datapath; only the function itself comes from libm, because
//! lockstep requires the same bits as the golden model, which uses libm too.

use super::convert::convert;
use super::format::{Ctx, F64};
use super::Round;

/// Which function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Func {
    /// 2^x.
    Exp2,
    /// log2(x).
    Log2,
    /// sin(2πx).
    SinRev,
    /// cos(2πx).
    CosRev,
}

/// Evaluates `func` on `x` in format `c.f`.
pub(crate) fn eval(x: u64, func: Func, c: Ctx) -> u64 {
    let f = c.f;
    if f.is_nan(x) {
        return f.quiet(x);
    }
    let wide = Ctx::exact(F64);
    let v = f64::from_bits(convert(x, f, c.dn.keep_in, wide));
    let y = match func {
        Func::Exp2 => v.exp2(),
        Func::Log2 => v.log2(),
        Func::SinRev => (v * core::f64::consts::TAU).sin(),
        Func::CosRev => (v * core::f64::consts::TAU).cos(),
    };
    if y.is_nan() {
        return f.default_nan();
    }
    let out = Ctx {
        f,
        rm: Round::NearestEven,
        dn: c.dn,
    };
    convert(y.to_bits(), F64, true, out)
}
