//! IEEE binary16 (`half`) values for constants: the compiler folds and
//! prints `half` constants, so it rounds to them itself (Rust has no `f16`
//! on stable). Rounding is to nearest even, as clang's constant evaluator
//! and `v_cvt_f16_f32` in the default mode do.

/// `x` rounded to the nearest `half` (ties to even), as its bits.
/// Overflow gives an infinity, tiny values a denormal or a signed zero, a
/// NaN a quiet NaN with the top payload bits kept.
pub fn f64_to_f16_bits(x: f64) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 48) & 0x8000) as u16;
    let exp = ((b >> 52) & 0x7ff) as i32;
    let man = b & ((1u64 << 52) - 1);
    if exp == 0x7ff {
        return if man == 0 {
            sign | 0x7c00
        } else {
            sign | 0x7e00 | ((man >> 42) as u16 & 0x1ff)
        };
    }
    if exp == 0 {
        // A double denormal is far below half's smallest denormal.
        return sign;
    }
    // The value is 1.man × 2^(exp-1023); half's exponent bias is 15.
    let e = exp - 1023 + 15;
    let full = man | (1u64 << 52); // 53 significant bits
                                   // Bits to drop from the 53-bit significand to keep half's 11 (or fewer
                                   // for a denormal, whose exponent is fixed at 1).
    let shift = if e >= 1 { 42 } else { 42 + (1 - e) };
    if shift > 63 {
        return sign;
    }
    let kept = full >> shift;
    let rest = full & ((1u64 << shift) - 1);
    let half_ulp = 1u64 << (shift - 1);
    let round_up = rest > half_ulp || (rest == half_ulp && kept & 1 == 1);
    let mut m = kept + u64::from(round_up);
    let mut e = e.max(1);
    if e > 0 && shift == 42 && m == 1 << 11 {
        // Rounded up into the next binade.
        m >>= 1;
        e += 1;
    }
    if shift > 42 {
        // Denormal (or rounded up to the smallest normal, which the bit
        // pattern 0x0400 already is).
        return sign | m as u16;
    }
    if e >= 31 {
        return sign | 0x7c00;
    }
    sign | ((e as u16) << 10) | (m as u16 & 0x3ff)
}

/// The exact value of the `half` with bits `h`.
pub fn f16_bits_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = i32::from((h >> 10) & 0x1f);
    let m = f64::from(h & 0x3ff);
    sign * match e {
        0 => m * 2f64.powi(-24),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1024.0 + m) * 2f64.powi(e - 25),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_half() {
        for h in 0..=u16::MAX {
            let x = f16_bits_to_f64(h);
            if x.is_nan() {
                assert_eq!(f64_to_f16_bits(x) & 0x7e00, 0x7e00);
                continue;
            }
            assert_eq!(f64_to_f16_bits(x), h, "{h:#06x} = {x}");
        }
    }

    #[test]
    fn rounds_to_nearest_even() {
        // Halfway between 1.0 and the next half (1 + 2^-10): even is 1.0.
        assert_eq!(f64_to_f16_bits(1.0 + 2f64.powi(-11)), 0x3c00);
        // Halfway between 1 + 2^-10 and 1 + 2^-9: even is the larger.
        assert_eq!(f64_to_f16_bits(1.0 + 3.0 * 2f64.powi(-11)), 0x3c02);
        // Just above halfway rounds up.
        assert_eq!(f64_to_f16_bits(1.0 + 2f64.powi(-11) + 1e-12), 0x3c01);
        // 65520 is the overflow threshold; just below stays 65504.
        assert_eq!(f64_to_f16_bits(65520.0), 0x7c00);
        assert_eq!(f64_to_f16_bits(65519.99), 0x7bff);
        // The smallest denormal and half of it (ties to even: zero).
        assert_eq!(f64_to_f16_bits(2f64.powi(-24)), 0x0001);
        assert_eq!(f64_to_f16_bits(2f64.powi(-25)), 0x0000);
        assert_eq!(f64_to_f16_bits(-3.0 * 2f64.powi(-26)), 0x8001);
        // The largest denormal rounds up to the smallest normal.
        assert_eq!(f64_to_f16_bits(2f64.powi(-14) - 2f64.powi(-26)), 0x0400);
        assert_eq!(f64_to_f16_bits(0.1), 0x2e66);
        assert_eq!(f64_to_f16_bits(-0.0), 0x8000);
    }
}
