//! Exact conversion of binary floating-point values to decimal and
//! hexadecimal text, as C's `printf` does it: every digit of a `double` is
//! computed exactly (a small big-integer in base 10⁹) and rounded once, to
//! nearest with ties to even, the way glibc rounds in the default rounding
//! mode. No host `printf` and no shortest-representation algorithm is
//! involved, so `%.60f` of `0.1` prints the value's true digits.

/// Exact decimal digits of a finite, non-negative `f64`: `digits` (ASCII
/// `b'0'..=b'9'`, no leading zero unless the value is zero) with the decimal
/// point after the first `point` digits (`point` may be ≤ 0 or > len).
pub(crate) struct Decimal {
    pub digits: Vec<u8>,
    pub point: i32,
}

impl Decimal {
    /// The exact decimal expansion of `x` (its sign is ignored).
    pub fn exact(x: f64) -> Decimal {
        let bits = x.to_bits();
        let exp_field = ((bits >> 52) & 0x7ff) as i32;
        let frac = bits & ((1u64 << 52) - 1);
        let (mant, exp) = if exp_field == 0 {
            (frac, -1074)
        } else {
            (frac | (1u64 << 52), exp_field - 1075)
        };
        if mant == 0 {
            return Decimal {
                digits: vec![b'0'],
                point: 1,
            };
        }
        // mant · 2^exp = mant · 5^-exp / 10^-exp for negative exponents.
        let mut big = Big::from_u64(mant);
        let mut point_shift = 0i32;
        if exp >= 0 {
            big.mul_pow(2, 31, exp as u32);
        } else {
            big.mul_pow(5, 13, exp.unsigned_abs());
            point_shift = exp;
        }
        let digits = big.to_decimal();
        let point = digits.len() as i32 + point_shift;
        Decimal { digits, point }
    }

    /// Rounds to the first `keep` digits (ties to even), zero-padding when
    /// there are fewer. A carry out of the first digit adds a digit in front
    /// and moves the point right by one.
    pub fn round_to(&mut self, keep: usize) {
        if keep >= self.digits.len() {
            self.digits.resize(keep, b'0');
            return;
        }
        let first_dropped = self.digits[keep];
        let rest_nonzero = self.digits[keep + 1..].iter().any(|&d| d != b'0');
        let last_odd = keep > 0 && (self.digits[keep - 1] - b'0') % 2 == 1;
        let up = first_dropped > b'5' || (first_dropped == b'5' && (rest_nonzero || last_odd));
        self.digits.truncate(keep);
        if up {
            let mut i = keep;
            loop {
                if i == 0 {
                    self.digits.insert(0, b'1');
                    self.point += 1;
                    break;
                }
                i -= 1;
                if self.digits[i] == b'9' {
                    self.digits[i] = b'0';
                } else {
                    self.digits[i] += 1;
                    break;
                }
            }
        }
    }
}

/// `%f` digits: integer part and `prec` fraction digits of |x|.
pub(crate) fn fixed(x: f64, prec: usize) -> (String, String) {
    let mut d = Decimal::exact(x);
    if d.point < 1 {
        let pad = (1 - d.point) as usize;
        let mut v = vec![b'0'; pad];
        v.extend_from_slice(&d.digits);
        d.digits = v;
        d.point = 1;
    }
    d.round_to(d.point as usize + prec);
    let p = d.point as usize;
    let int = String::from_utf8_lossy(&d.digits[..p]).into_owned();
    let frac = String::from_utf8_lossy(&d.digits[p..p + prec]).into_owned();
    // Leading zeros beyond the first (from the padding) never survive: the
    // padded form has point == 1 unless a carry added a digit.
    (int, frac)
}

/// `%e` digits: `prec + 1` significant digits of |x| and the decimal exponent.
pub(crate) fn scientific(x: f64, prec: usize) -> (Vec<u8>, i32) {
    if x == 0.0 {
        return (vec![b'0'; prec + 1], 0);
    }
    let mut d = Decimal::exact(x);
    // Strip leading zeros (none for a non-zero exact expansion, but keep the
    // invariant explicit).
    while d.digits.len() > 1 && d.digits[0] == b'0' {
        d.digits.remove(0);
        d.point -= 1;
    }
    d.round_to(prec + 1);
    d.digits.truncate(prec + 1);
    (d.digits, d.point - 1)
}

/// `%a` pieces of |x|: leading hex digit, fraction hex digits (lower case) and
/// binary exponent, as glibc prints a `double`: normal numbers as `1.xxx`,
/// subnormals as `0.xxx` with exponent −1022; `prec` rounds the 13 fraction
/// digits (ties to even) and may carry into the leading digit (`0x2p+0`).
pub(crate) fn hex(x: f64, prec: Option<usize>) -> (u64, String, i32) {
    let bits = x.to_bits();
    let exp_field = ((bits >> 52) & 0x7ff) as i32;
    let mut frac = bits & ((1u64 << 52) - 1);
    if exp_field == 0 && frac == 0 {
        let digits = "0".repeat(prec.unwrap_or(0));
        return (0, digits, 0);
    }
    let (mut lead, exp) = if exp_field == 0 {
        (0u64, -1022)
    } else {
        (1u64, exp_field - 1023)
    };
    let mut ndigits = 13usize;
    if let Some(p) = prec {
        if p < 13 {
            let shift = 52 - 4 * p as u32;
            let rem = frac & ((1u64 << shift) - 1);
            let half = 1u64 << (shift - 1);
            frac >>= shift;
            // The last digit kept is the leading one when no fraction digit is.
            let last = if p == 0 { lead } else { frac };
            if rem > half || (rem == half && last & 1 == 1) {
                frac += 1;
                if p == 0 || frac >> (4 * p) != 0 {
                    lead += 1;
                    frac = if p == 0 {
                        0
                    } else {
                        frac & ((1u64 << (4 * p)) - 1)
                    };
                }
            }
            ndigits = p;
        }
    }
    let mut s = if ndigits == 0 {
        String::new()
    } else {
        format!("{frac:0width$x}", width = ndigits)
    };
    match prec {
        None => {
            while s.ends_with('0') {
                s.pop();
            }
        }
        Some(p) if p > 13 => s.push_str(&"0".repeat(p - 13)),
        _ => {}
    }
    (lead, s, exp)
}

/// IEEE binary16 bits as an `f64` (exactly).
pub(crate) fn half_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = i32::from((h >> 10) & 0x1f);
    let m = f64::from(h & 0x3ff);
    match e {
        0 => sign * m * 2f64.powi(-24),
        31 if m == 0.0 => sign * f64::INFINITY,
        31 => f64::NAN.copysign(sign),
        _ => sign * (1.0 + m / 1024.0) * 2f64.powi(e - 15),
    }
}

/// An unsigned big integer in base 10⁹, least significant limb first.
struct Big(Vec<u32>);

const BASE: u64 = 1_000_000_000;

impl Big {
    fn from_u64(mut v: u64) -> Big {
        let mut limbs = Vec::new();
        while v > 0 {
            limbs.push((v % BASE) as u32);
            v /= BASE;
        }
        Big(limbs)
    }

    fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for limb in &mut self.0 {
            let v = u64::from(*limb) * u64::from(m) + carry;
            *limb = (v % BASE) as u32;
            carry = v / BASE;
        }
        while carry > 0 {
            self.0.push((carry % BASE) as u32);
            carry /= BASE;
        }
    }

    /// Multiplies by `base^n`, `base^chunk` at a time (`base^chunk` must fit
    /// in a `u32`: 2^31, 5^13).
    fn mul_pow(&mut self, base: u32, chunk: u32, mut n: u32) {
        while n > 0 {
            let k = n.min(chunk);
            self.mul_small(base.pow(k));
            n -= k;
        }
    }

    fn to_decimal(&self) -> Vec<u8> {
        let mut s = String::new();
        for (i, limb) in self.0.iter().rev().enumerate() {
            if i == 0 {
                s.push_str(&limb.to_string());
            } else {
                s.push_str(&format!("{limb:09}"));
            }
        }
        s.into_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_digits_of_a_tenth() {
        let d = Decimal::exact(0.1);
        assert_eq!(d.point, 0);
        assert!(
            String::from_utf8_lossy(&d.digits).starts_with("1000000000000000055511151231257827")
        );
    }

    #[test]
    fn ties_round_to_even() {
        assert_eq!(fixed(0.5, 0).0, "0");
        assert_eq!(fixed(1.5, 0).0, "2");
        assert_eq!(fixed(2.5, 0).0, "2");
        assert_eq!(fixed(0.125, 2).1, "12");
        assert_eq!(fixed(9.96, 1), ("10".into(), "0".into()));
    }

    #[test]
    fn halves() {
        assert_eq!(half_to_f64(0x3c00), 1.0);
        assert_eq!(half_to_f64(0xc000), -2.0);
        assert_eq!(half_to_f64(0x0001), 2f64.powi(-24));
        assert!(half_to_f64(0x7e00).is_nan());
    }
}
