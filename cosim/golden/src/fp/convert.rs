//! Conversions, comparisons, min/max and classification.

use std::cmp::Ordering;

use super::arith::{round_to_int, IntRound};
use super::{flush_in, flush_out, round_pack, unpack, Format, FpMode, Kind};

/// Converts between formats: rounding with `out`'s direction, input denormals
/// read per `inp`, output denormals per `out`. NaNs stay NaN (quieted, payload
/// truncated or widened from the top), as AMD's conversions do.
pub fn convert(from: Format, to: Format, x: u64, inp: FpMode, out: FpMode) -> u64 {
    let u = unpack(from, x, inp.denorm_in);
    match u.kind {
        Kind::Nan => {
            let payload = if from.man_bits >= to.man_bits {
                u.sig >> (from.man_bits - to.man_bits)
            } else {
                u.sig << (to.man_bits - from.man_bits)
            };
            to.quiet(to.exp_mask() | payload | to.zero(u.sign))
        }
        Kind::Inf => to.inf(u.sign),
        Kind::Zero => to.zero(u.sign),
        Kind::Finite => round_pack(to, u.sign, u128::from(u.sig), u.exp, out),
    }
}

/// A signed integer to float, rounded per `m`.
pub fn from_i64(fmt: Format, v: i64, m: FpMode) -> u64 {
    round_pack(fmt, v < 0, u128::from(v.unsigned_abs()), 0, m)
}

/// An unsigned integer to float, rounded per `m`.
pub fn from_u64(fmt: Format, v: u64, m: FpMode) -> u64 {
    round_pack(fmt, false, u128::from(v), 0, m)
}

/// Float to integer, rounded per `dir`, saturated to `[min, max]`; NaN gives 0.
pub fn to_int(fmt: Format, x: u64, dir: IntRound, min: i64, max: i64, m: FpMode) -> i64 {
    let u = unpack(fmt, x, m.denorm_in);
    match u.kind {
        Kind::Nan | Kind::Zero => 0,
        Kind::Inf => {
            if u.sign {
                min
            } else {
                max
            }
        }
        Kind::Finite => {
            let k = round_to_int(u.sign, u.sig, u.exp, dir);
            k.clamp(i128::from(min), i128::from(max)) as i64
        }
    }
}

/// Total order on non-NaN values with -0 below +0.
#[inline]
fn less(fmt: Format, a: u64, b: u64) -> bool {
    match (fmt.sign(a), fmt.sign(b)) {
        (true, false) => true,
        (false, true) => false,
        (false, false) => a < b,
        (true, true) => fmt.abs(a) > fmt.abs(b),
    }
}

/// AMD `v_min_*`/`v_max_*`: in IEEE mode a signalling NaN input is returned
/// quieted; otherwise a NaN input yields the other operand; -0 < +0.
#[inline]
pub fn min_max(fmt: Format, a: u64, b: u64, max: bool, ieee: bool, m: FpMode) -> u64 {
    let (a, b) = (flush_in(fmt, a, m), flush_in(fmt, b, m));
    if ieee {
        if fmt.is_snan(a) {
            return fmt.quiet(a);
        }
        if fmt.is_snan(b) {
            return fmt.quiet(b);
        }
    }
    if fmt.is_nan(a) {
        // Two NaNs: src1 as it is. Only IEEE mode quiets signalling NaNs
        // (LLVM's SIModeRegisterDefaults: with IEEE clear, min/max are the
        // DX10 forms and do not quiet; issue 14).
        return if fmt.is_nan(b) {
            b
        } else {
            flush_out(fmt, b, m)
        };
    }
    if fmt.is_nan(b) {
        return flush_out(fmt, a, m);
    }
    let r = if less(fmt, a, b) != max { a } else { b };
    flush_out(fmt, r, m)
}

/// AMD `v_med3_f*`: with any NaN input, `min3`; else the middle value.
pub fn med3(fmt: Format, a: u64, b: u64, c: u64, ieee: bool, m: FpMode) -> u64 {
    let (fa, fb, fc) = (
        flush_in(fmt, a, m),
        flush_in(fmt, b, m),
        flush_in(fmt, c, m),
    );
    if fmt.is_nan(fa) || fmt.is_nan(fb) || fmt.is_nan(fc) {
        let t = min_max(fmt, fa, fb, false, ieee, m);
        return min_max(fmt, t, fc, false, ieee, m);
    }
    // The min/max network max(min(a, b), min(max(a, b), c)). Finding the
    // largest input and comparing bits for identity went wrong when min/max
    // flushed a denormal output (issue 14: med3(denormal, x, x) with x < 0
    // gave +0, the clocked GPU x).
    let lo = min_max(fmt, fa, fb, false, ieee, m);
    let hi = min_max(fmt, fa, fb, true, ieee, m);
    let mid = min_max(fmt, hi, fc, false, ieee, m);
    min_max(fmt, lo, mid, true, ieee, m)
}

/// IEEE comparison of flushed inputs: `None` when unordered, ±0 equal.
#[inline]
pub fn compare(fmt: Format, a: u64, b: u64, m: FpMode) -> Option<Ordering> {
    let (a, b) = (flush_in(fmt, a, m), flush_in(fmt, b, m));
    if fmt.is_nan(a) || fmt.is_nan(b) {
        return None;
    }
    if fmt.is_zero(a) && fmt.is_zero(b) {
        return Some(Ordering::Equal);
    }
    Some(if a == b {
        Ordering::Equal
    } else if less(fmt, a, b) {
        Ordering::Less
    } else {
        Ordering::Greater
    })
}

/// `v_cmp_class`: bit 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0,
/// 6 +0, 7 +denormal, 8 +normal, 9 +inf. Reads the raw bits (no flushing).
pub fn class(fmt: Format, x: u64, mask: u32) -> bool {
    let s = fmt.sign(x);
    let bit = if fmt.is_nan(x) {
        if fmt.is_snan(x) {
            0
        } else {
            1
        }
    } else if fmt.is_inf(x) {
        if s {
            2
        } else {
            9
        }
    } else if fmt.is_zero(x) {
        if s {
            5
        } else {
            6
        }
    } else if fmt.is_denormal(x) {
        if s {
            4
        } else {
            7
        }
    } else if s {
        3
    } else {
        8
    };
    mask >> bit & 1 != 0
}

/// `clamp` result modifier: [0, 1], NaN to 0 (with DX10_CLAMP, and IEEE-mode
/// NaNs too: the model clamps every NaN to +0). -0 is inside [0, 1] and is
/// kept, as LLVM's constant folding of `AMDGPUISD::CLAMP` does (only values
/// `< 0` become +0).
pub fn clamp01(fmt: Format, x: u64) -> u64 {
    let one = (fmt.bias() as u64) << fmt.man_bits;
    let magnitude = x & !fmt.sign_bit();
    if fmt.is_nan(x) || (fmt.sign(x) && magnitude != 0) {
        0
    } else if magnitude > one {
        one
    } else {
        x
    }
}
