//! Typed buffer accesses: MTBUF (`tbuffer_*`, format in the instruction) and
//! MUBUF `buffer_*_format_*` (format in V# dword 3 bits 18:12), with gfx1030's
//! unified 7-bit format codes.
//!
//! Conventions (docs/golden-coverage.md "Typed buffers"): component X is the
//! least significant field (AMD names formats from the most significant end);
//! loads give UNORM `v / (2^n - 1)`, SNORM `max(v / (2^(n-1) - 1), -1)`,
//! USCALED/SSCALED as floats, UINT/SINT extended, FLOAT widened; a missing
//! component reads 0 and a missing W reads 1 (1.0 for float-valued formats).
//! Stores round to nearest even and saturate to the component's range (NaN
//! stores 0 except in FLOAT formats) and write only the components the
//! instruction has. d16 forms pack two components per VGPR (float-valued
//! results narrowed to f16, integers keep 16 bits); the unused high half of
//! the last register is kept. The element is range-checked as one unit.
//! The packed formats 10_11_11 and 11_11_10 have X in the low bits; their
//! FLOAT forms are unsigned 11- and 10-bit floats (5-bit exponent, no
//! sign: a negative number stores 0, NaN stays NaN).

use arch::isa::Opcode;

/// The numeric interpretation of a format's components.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Num {
    Unorm,
    Snorm,
    Uscaled,
    Sscaled,
    Uint,
    Sint,
    Float,
}

impl Num {
    /// True when a component is returned as a float.
    fn is_float_valued(self) -> bool {
        !matches!(self, Num::Uint | Num::Sint)
    }
}

/// A data format: component widths from X (least significant) up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Format {
    /// Bits of X, Y, Z, W (0 = absent).
    pub bits: [u8; 4],
    /// Numeric type.
    pub num: Num,
}

impl Format {
    /// Bytes of one element.
    pub(super) fn bytes(&self) -> u32 {
        self.bits.iter().map(|&b| u32::from(b)).sum::<u32>() / 8
    }

    /// Bit position of component `c`.
    fn shift(&self, c: usize) -> u32 {
        self.bits[..c].iter().map(|&b| u32::from(b)).sum()
    }

    /// The bits of component `c` within the element.
    pub(super) fn mask(&self, c: usize) -> u128 {
        ((1u128 << self.bits[c]) - 1) << self.shift(c)
    }

    /// Bytes holding components `0..count` when they are whole bytes, else
    /// `None` (a partial store of a packed format must merge bits).
    pub(super) fn prefix_bytes(&self, count: usize) -> Option<u32> {
        let bits: u32 = self.bits[..count.min(4)]
            .iter()
            .map(|&b| u32::from(b))
            .sum();
        (bits % 8 == 0).then_some(bits / 8)
    }
}

/// The gfx1030 unified format `code`, `None` for invalid or unmodelled codes.
pub(super) fn format(code: u8) -> Option<Format> {
    const NUM6: [Num; 6] = [
        Num::Unorm,
        Num::Snorm,
        Num::Uscaled,
        Num::Sscaled,
        Num::Uint,
        Num::Sint,
    ];
    const NUM7: [Num; 7] = [
        Num::Unorm,
        Num::Snorm,
        Num::Uscaled,
        Num::Sscaled,
        Num::Uint,
        Num::Sint,
        Num::Float,
    ];
    const INT3: [Num; 3] = [Num::Uint, Num::Sint, Num::Float];
    let c = usize::from(code);
    let (bits, num) = match c {
        1..=6 => ([8, 0, 0, 0], NUM6[c - 1]),
        7..=13 => ([16, 0, 0, 0], NUM7[c - 7]),
        14..=19 => ([8, 8, 0, 0], NUM6[c - 14]),
        20..=22 => ([32, 0, 0, 0], INT3[c - 20]),
        23..=29 => ([16, 16, 0, 0], NUM7[c - 23]),
        30..=36 => ([11, 11, 10, 0], NUM7[c - 30]),
        37..=43 => ([10, 11, 11, 0], NUM7[c - 37]),
        44..=49 => ([2, 10, 10, 10], NUM6[c - 44]),
        50..=55 => ([10, 10, 10, 2], NUM6[c - 50]),
        56..=61 => ([8, 8, 8, 8], NUM6[c - 56]),
        62..=64 => ([32, 32, 0, 0], INT3[c - 62]),
        65..=71 => ([16, 16, 16, 16], NUM7[c - 65]),
        72..=74 => ([32, 32, 32, 0], INT3[c - 72]),
        75..=77 => ([32, 32, 32, 32], INT3[c - 75]),
        _ => return None,
    };
    Some(Format { bits, num })
}

/// What a typed opcode moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Shape {
    /// Load (else store).
    pub load: bool,
    /// Components X.. (1–4).
    pub count: u8,
    /// 16-bit packed register data.
    pub d16: bool,
    /// `d16_hi_x`: the high half of the register.
    pub hi: bool,
}

impl Shape {
    /// VGPRs the data spans.
    pub(super) fn dwords(&self) -> usize {
        if self.d16 {
            usize::from(self.count.div_ceil(2))
        } else {
            usize::from(self.count)
        }
    }
}

/// The shape of a typed opcode.
pub(super) fn shape(op: Opcode) -> Option<Shape> {
    Some(match op {
        Opcode::BUFFER_LOAD_FORMAT_X => Shape {
            load: true,
            count: 1,
            d16: false,
            hi: false,
        },
        Opcode::BUFFER_LOAD_FORMAT_XY => Shape {
            load: true,
            count: 2,
            d16: false,
            hi: false,
        },
        Opcode::BUFFER_LOAD_FORMAT_XYZ => Shape {
            load: true,
            count: 3,
            d16: false,
            hi: false,
        },
        Opcode::BUFFER_LOAD_FORMAT_XYZW => Shape {
            load: true,
            count: 4,
            d16: false,
            hi: false,
        },
        Opcode::BUFFER_STORE_FORMAT_X => Shape {
            load: false,
            count: 1,
            d16: false,
            hi: false,
        },
        Opcode::BUFFER_STORE_FORMAT_XY => Shape {
            load: false,
            count: 2,
            d16: false,
            hi: false,
        },
        Opcode::BUFFER_STORE_FORMAT_XYZ => Shape {
            load: false,
            count: 3,
            d16: false,
            hi: false,
        },
        Opcode::BUFFER_STORE_FORMAT_XYZW => Shape {
            load: false,
            count: 4,
            d16: false,
            hi: false,
        },
        Opcode::BUFFER_LOAD_FORMAT_D16_HI_X => Shape {
            load: true,
            count: 1,
            d16: true,
            hi: true,
        },
        Opcode::BUFFER_STORE_FORMAT_D16_HI_X => Shape {
            load: false,
            count: 1,
            d16: true,
            hi: true,
        },
        Opcode::BUFFER_LOAD_FORMAT_D16_X => Shape {
            load: true,
            count: 1,
            d16: true,
            hi: false,
        },
        Opcode::BUFFER_LOAD_FORMAT_D16_XY => Shape {
            load: true,
            count: 2,
            d16: true,
            hi: false,
        },
        Opcode::BUFFER_LOAD_FORMAT_D16_XYZ => Shape {
            load: true,
            count: 3,
            d16: true,
            hi: false,
        },
        Opcode::BUFFER_LOAD_FORMAT_D16_XYZW => Shape {
            load: true,
            count: 4,
            d16: true,
            hi: false,
        },
        Opcode::BUFFER_STORE_FORMAT_D16_X => Shape {
            load: false,
            count: 1,
            d16: true,
            hi: false,
        },
        Opcode::BUFFER_STORE_FORMAT_D16_XY => Shape {
            load: false,
            count: 2,
            d16: true,
            hi: false,
        },
        Opcode::BUFFER_STORE_FORMAT_D16_XYZ => Shape {
            load: false,
            count: 3,
            d16: true,
            hi: false,
        },
        Opcode::BUFFER_STORE_FORMAT_D16_XYZW => Shape {
            load: false,
            count: 4,
            d16: true,
            hi: false,
        },
        Opcode::TBUFFER_LOAD_FORMAT_X => Shape {
            load: true,
            count: 1,
            d16: false,
            hi: false,
        },
        Opcode::TBUFFER_LOAD_FORMAT_XY => Shape {
            load: true,
            count: 2,
            d16: false,
            hi: false,
        },
        Opcode::TBUFFER_LOAD_FORMAT_XYZ => Shape {
            load: true,
            count: 3,
            d16: false,
            hi: false,
        },
        Opcode::TBUFFER_LOAD_FORMAT_XYZW => Shape {
            load: true,
            count: 4,
            d16: false,
            hi: false,
        },
        Opcode::TBUFFER_STORE_FORMAT_X => Shape {
            load: false,
            count: 1,
            d16: false,
            hi: false,
        },
        Opcode::TBUFFER_STORE_FORMAT_XY => Shape {
            load: false,
            count: 2,
            d16: false,
            hi: false,
        },
        Opcode::TBUFFER_STORE_FORMAT_XYZ => Shape {
            load: false,
            count: 3,
            d16: false,
            hi: false,
        },
        Opcode::TBUFFER_STORE_FORMAT_XYZW => Shape {
            load: false,
            count: 4,
            d16: false,
            hi: false,
        },
        Opcode::TBUFFER_LOAD_FORMAT_D16_X => Shape {
            load: true,
            count: 1,
            d16: true,
            hi: false,
        },
        Opcode::TBUFFER_LOAD_FORMAT_D16_XY => Shape {
            load: true,
            count: 2,
            d16: true,
            hi: false,
        },
        Opcode::TBUFFER_LOAD_FORMAT_D16_XYZ => Shape {
            load: true,
            count: 3,
            d16: true,
            hi: false,
        },
        Opcode::TBUFFER_LOAD_FORMAT_D16_XYZW => Shape {
            load: true,
            count: 4,
            d16: true,
            hi: false,
        },
        Opcode::TBUFFER_STORE_FORMAT_D16_X => Shape {
            load: false,
            count: 1,
            d16: true,
            hi: false,
        },
        Opcode::TBUFFER_STORE_FORMAT_D16_XY => Shape {
            load: false,
            count: 2,
            d16: true,
            hi: false,
        },
        Opcode::TBUFFER_STORE_FORMAT_D16_XYZ => Shape {
            load: false,
            count: 3,
            d16: true,
            hi: false,
        },
        Opcode::TBUFFER_STORE_FORMAT_D16_XYZW => Shape {
            load: false,
            count: 4,
            d16: true,
            hi: false,
        },
        _ => return None,
    })
}

/// Sign-extends the low `bits` of `v`.
#[inline]
fn sext(v: u32, bits: u8) -> i32 {
    let s = 32 - u32::from(bits);
    ((v << s) as i32) >> s
}

/// Component `c` of a loaded element `e` (little-endian) as a register dword
/// (f32 bits for float-valued formats).
pub(super) fn unpack(f: &Format, e: &[u8; 16], c: usize) -> u32 {
    let b = f.bits[c];
    if b == 0 {
        return match (c, f.num.is_float_valued()) {
            (3, true) => 1.0f32.to_bits(),
            (3, false) => 1,
            _ => 0,
        };
    }
    let raw = if b == 32 {
        let o = 4 * c;
        u32::from_le_bytes([e[o], e[o + 1], e[o + 2], e[o + 3]])
    } else {
        let word = u64::from_le_bytes([e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7]]);
        (word >> f.shift(c)) as u32 & ((1u32 << b) - 1)
    };
    let max_u = ((1u64 << b) - 1) as f32;
    match f.num {
        Num::Unorm => (raw as f32 / max_u).to_bits(),
        Num::Snorm => {
            let m = ((1u64 << (b - 1)) - 1) as f32;
            (sext(raw, b) as f32 / m).max(-1.0).to_bits()
        }
        Num::Uscaled => (raw as f32).to_bits(),
        Num::Sscaled => (sext(raw, b) as f32).to_bits(),
        Num::Uint => raw,
        Num::Sint => sext(raw, b) as u32,
        Num::Float => match b {
            16 => f16_to_f32(raw as u16),
            10 | 11 => unsigned_small_to_f32(raw, u32::from(b) - 5),
            _ => raw,
        },
    }
}

/// The memory bits of component `c` from register value `x` (f32 bits for
/// float-valued formats, an integer otherwise), in the component's position.
pub(super) fn pack(f: &Format, x: u32, c: usize) -> u128 {
    let b = f.bits[c];
    let max_u = ((1u128 << b) - 1) as u64;
    let (smin, smax) = (-(1i64 << (b - 1)), (1i64 << (b - 1)) - 1);
    let fl = f32::from_bits(x);
    let v: u64 = match f.num {
        Num::Unorm if fl.is_nan() => 0,
        Num::Unorm => (f64::from(fl.clamp(0.0, 1.0)) * max_u as f64).round_ties_even() as u64,
        Num::Snorm if fl.is_nan() => 0,
        Num::Snorm => {
            (f64::from(fl.clamp(-1.0, 1.0)) * smax as f64).round_ties_even() as i64 as u64
        }
        Num::Uscaled if fl.is_nan() => 0,
        Num::Uscaled => f64::from(fl).round_ties_even().clamp(0.0, max_u as f64) as u64,
        Num::Sscaled if fl.is_nan() => 0,
        Num::Sscaled => f64::from(fl)
            .round_ties_even()
            .clamp(smin as f64, smax as f64) as i64 as u64,
        Num::Uint => u64::from(x).min(max_u),
        Num::Sint => i64::from(x as i32).clamp(smin, smax) as u64,
        Num::Float => {
            if b == 16 {
                u64::from(f32_to_f16(x))
            } else if b == 10 || b == 11 {
                let negative = x >> 31 != 0 && !fl.is_nan();
                if negative {
                    0
                } else {
                    u64::from(f32_to_unsigned_small(x & 0x7fff_ffff, u32::from(b) - 5))
                }
            } else {
                u64::from(x)
            }
        }
    };
    u128::from(v & max_u) << f.shift(c)
}

/// A register's 16-bit half widened to the dword `pack` expects.
pub(super) fn widen16(f: &Format, h: u16) -> u32 {
    match f.num {
        Num::Uint => u32::from(h),
        Num::Sint => h as i16 as i32 as u32,
        _ => f16_to_f32(h),
    }
}

/// A loaded dword narrowed to a d16 half.
pub(super) fn narrow16(f: &Format, x: u32) -> u16 {
    if f.num.is_float_valued() {
        f32_to_f16(x)
    } else {
        x as u16
    }
}

/// IEEE half to single (exact).
fn f16_to_f32(h: u16) -> u32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from(h >> 10 & 0x1f);
    let man = u32::from(h & 0x3ff);
    match (exp, man) {
        (0, 0) => sign,
        (0, _) => {
            // Denormal: normalise (the leading one moves to bit 10).
            let shift = man.leading_zeros() - 21;
            let man = (man << shift) & 0x3ff;
            sign | (113 - shift) << 23 | man << 13
        }
        (31, 0) => sign | 0x7f80_0000,
        (31, _) => sign | 0x7fc0_0000 | man << 13,
        _ => sign | (exp + 112) << 23 | man << 13,
    }
}

/// IEEE single to half, round to nearest even (NaNs stay NaN, quieted).
fn f32_to_f16(x: u32) -> u16 {
    let sign = ((x >> 16) & 0x8000) as u16;
    let exp = (x >> 23 & 0xff) as i32;
    let man = x & 0x7f_ffff;
    if exp == 0xff {
        return sign
            | 0x7c00
            | if man != 0 {
                0x200 | (man >> 13) as u16
            } else {
                0
            };
    }
    let e = exp - 127 + 15;
    if e >= 31 {
        return sign | 0x7c00;
    }
    if exp == 0 || e < -10 {
        return sign;
    }
    // The significand with its implicit bit, shifted down to the half's
    // precision (further for a denormal result), rounded to nearest even.
    let sig = man | 0x80_0000;
    let shift = if e <= 0 { (14 - e) as u32 } else { 13 };
    let mut r = sig >> shift;
    let rem = sig & ((1 << shift) - 1);
    let half = 1 << (shift - 1);
    if rem > half || (rem == half && r & 1 != 0) {
        r += 1;
    }
    if e <= 0 {
        // A carry into bit 10 yields the smallest normal, as it should.
        sign | r as u16
    } else {
        // r carries the implicit bit at 10; a carry into bit 11 bumps the exponent.
        sign | (((e as u32) << 10) + (r - 0x400)) as u16
    }
}

/// An unsigned float of a 5-bit exponent (bias 15) and `man` mantissa bits
/// (uf11: 6, uf10: 5) as single bits (exact).
fn unsigned_small_to_f32(v: u32, man: u32) -> u32 {
    let exp = v >> man & 0x1f;
    let m = v & ((1 << man) - 1);
    match (exp, m) {
        (0, 0) => 0,
        (0, _) => {
            // Denormal: m · 2^(-14 - man); its leading one at bit p.
            let p = 31 - m.leading_zeros();
            let e = p + 127 - 14 - man;
            e << 23 | (m << (23 - p)) & 0x7f_ffff
        }
        (31, 0) => 0x7f80_0000,
        (31, _) => 0x7fc0_0000 | m << (23 - man),
        _ => (exp + 112) << 23 | m << (23 - man),
    }
}

/// A non-negative single (sign clear) as an unsigned float of a 5-bit
/// exponent and `man` mantissa bits, round to nearest even (overflow to
/// infinity, NaN quieted), as [`f32_to_f16`] does for halves.
fn f32_to_unsigned_small(x: u32, man: u32) -> u32 {
    let exp = (x >> 23 & 0xff) as i32;
    let m = x & 0x7f_ffff;
    let inf = 0x1f << man;
    if exp == 0xff {
        return inf
            | if m != 0 {
                1 << (man - 1) | m >> (23 - man)
            } else {
                0
            };
    }
    let e = exp - 127 + 15;
    if e >= 31 {
        return inf;
    }
    if exp == 0 || e < -(man as i32) {
        return 0;
    }
    let sig = m | 0x80_0000;
    let shift = if e <= 0 {
        (24 - man as i32 - e) as u32
    } else {
        23 - man
    };
    let mut r = sig >> shift;
    let rem = sig & ((1 << shift) - 1);
    let half = 1 << (shift - 1);
    if rem > half || (rem == half && r & 1 != 0) {
        r += 1;
    }
    if e <= 0 {
        r
    } else {
        ((e as u32) << man) + (r - (1 << man))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_conversions_round_trip_and_round_to_even() {
        for h in [
            0u16, 0x8000, 1, 0x3ff, 0x400, 0x3c00, 0xc000, 0x7bff, 0x7c00, 0xfc00,
        ] {
            assert_eq!(f32_to_f16(f16_to_f32(h)), h, "{h:#x}");
        }
        assert_eq!(f16_to_f32(0x3c00), 1.0f32.to_bits());
        assert_eq!(f16_to_f32(1), 2f32.powi(-24).to_bits());
        // 1 + 2^-11 ties between 1 and 1 + 2^-10: even is 1.
        assert_eq!(f32_to_f16((1.0f32 + 2f32.powi(-11)).to_bits()), 0x3c00);
        assert_eq!(
            f32_to_f16((1.0f32 + 3.0 * 2f32.powi(-11)).to_bits()),
            0x3c02
        );
        assert_eq!(f32_to_f16(65520.0f32.to_bits()), 0x7c00);
        assert_eq!(f32_to_f16(65504.0f32.to_bits()), 0x7bff);
        assert_eq!(f32_to_f16(2f32.powi(-25).to_bits()), 0);
        assert_eq!(f32_to_f16((1.5 * 2f32.powi(-25)).to_bits()), 1);
        assert_eq!(f32_to_f16(0x7fc0_0000) & 0x7e00, 0x7e00);
    }

    #[test]
    fn formats_convert_both_ways() {
        let unorm8 = format(1).unwrap();
        let mut e = [0u8; 16];
        e[0] = 255;
        assert_eq!(unpack(&unorm8, &e, 0), 1.0f32.to_bits());
        assert_eq!(unpack(&unorm8, &e, 1), 0);
        assert_eq!(unpack(&unorm8, &e, 3), 1.0f32.to_bits());
        assert_eq!(pack(&unorm8, 0.5f32.to_bits(), 0), 128);
        assert_eq!(pack(&unorm8, 2.0f32.to_bits(), 0), 255);
        let snorm16 = format(8).unwrap();
        e[0] = 0x00;
        e[1] = 0x80;
        assert_eq!(unpack(&snorm16, &e, 0), (-1.0f32).to_bits());
        assert_eq!(pack(&snorm16, (-0.5f32).to_bits(), 0), 0xc000);
        // 2_10_10_10 UINT (code 54): X in bits 9:0, W in 31:30.
        let f = format(54).unwrap();
        let word: u32 = 3 << 30 | 0x155 << 20 | 0x2aa << 10 | 0x3ff;
        e[..4].copy_from_slice(&word.to_le_bytes());
        assert_eq!(
            [0, 1, 2, 3].map(|c| unpack(&f, &e, c)),
            [0x3ff, 0x2aa, 0x155, 3]
        );
        assert_eq!(pack(&f, 5000, 0), 0x3ff);
        assert_eq!(pack(&f, 2, 3), 2 << 30);
        let sint8 = format(6).unwrap();
        assert_eq!(pack(&sint8, (-300i32) as u32, 0), 0x80);
        assert_eq!(format(22).unwrap().bytes(), 4);
        assert_eq!(format(77).unwrap().bytes(), 16);
        assert_eq!(format(54).unwrap().prefix_bytes(2), None);
        assert_eq!(format(65).unwrap().prefix_bytes(3), Some(6));
        assert!(format(0).is_none() && format(78).is_none());
        // 10_11_11_FLOAT (code 36): X uf11 in bits 10:0, Z uf10 in 31:22.
        let f = format(36).unwrap();
        assert_eq!(f.bits, [11, 11, 10, 0]);
        assert_eq!(pack(&f, 1.0f32.to_bits(), 0), 15 << 6);
        assert_eq!(pack(&f, (-2.0f32).to_bits(), 0), 0);
        assert_eq!(pack(&f, 1.0f32.to_bits(), 2), (15 << 5) << 22);
        let word: u32 = (15 << 5) << 22 | 16 << 6;
        e[..4].copy_from_slice(&word.to_le_bytes());
        assert_eq!(unpack(&f, &e, 0), 2.0f32.to_bits());
        assert_eq!(unpack(&f, &e, 2), 1.0f32.to_bits());
        for v in [0u32, 1, 0x3f, 0x40, 0x3c0, 0x7bf, 0x7c0] {
            assert_eq!(f32_to_unsigned_small(unsigned_small_to_f32(v, 6), 6), v);
        }
        // The smallest uf11 denormal is 2^-20.
        assert_eq!(unsigned_small_to_f32(1, 6), 2f32.powi(-20).to_bits());
    }
}
