//! AMD floating point for the golden model, written by hand (see
//! `docs/floating-point.md`).
//!
//! Values travel as raw bits in a `u64` (an `f16` in the low 16 bits, an `f32`
//! in the low 32), together with their [`Format`]. Every operation takes an
//! [`FpMode`] — rounding direction and denormal handling from the MODE
//! register — and returns the rounded, possibly flushed result bits.
//!
//! The core is one exact-then-round path ([`round_pack`]): an operation builds
//! its exact result (or one carrying a sticky bit far below the rounding point)
//! as `sig * 2^exp` and rounds it once. Round-to-nearest-even on `f32`/`f64`
//! takes a fast path through the host's IEEE arithmetic, which gives the same
//! bits; the SoftFloat cross-check (`cosim/golden/tests/golden_valu_softfloat.rs`)
//! tests both paths.
//!
//! NaN rules: an operation with a NaN input returns the first NaN input (in
//! source order) quieted; an invalid operation (`inf - inf`, `0 * inf`,
//! `sqrt(-1)`) returns the positive default NaN (`0x7fc00000` for `f32`).

mod arith;
mod convert;

pub use arith::*;
pub use convert::*;

/// An IEEE binary format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// Exponent field width.
    pub exp_bits: u32,
    /// Stored mantissa width (without the hidden bit).
    pub man_bits: u32,
}

/// IEEE half.
pub const F16: Format = Format {
    exp_bits: 5,
    man_bits: 10,
};
/// IEEE single.
pub const F32: Format = Format {
    exp_bits: 8,
    man_bits: 23,
};
/// IEEE double.
pub const F64: Format = Format {
    exp_bits: 11,
    man_bits: 52,
};

impl Format {
    /// Exponent bias.
    #[inline]
    pub const fn bias(self) -> i32 {
        (1 << (self.exp_bits - 1)) - 1
    }
    /// The sign bit.
    #[inline]
    pub const fn sign_bit(self) -> u64 {
        1 << (self.exp_bits + self.man_bits)
    }
    /// Mask of the mantissa field.
    #[inline]
    pub const fn man_mask(self) -> u64 {
        (1 << self.man_bits) - 1
    }
    /// The exponent field, all ones (infinity / NaN), in place.
    #[inline]
    pub const fn exp_mask(self) -> u64 {
        ((1 << self.exp_bits) - 1) << self.man_bits
    }
    /// The quiet bit of a NaN.
    #[inline]
    pub const fn quiet_bit(self) -> u64 {
        1 << (self.man_bits - 1)
    }
    /// Infinity with `sign`.
    #[inline]
    pub const fn inf(self, sign: bool) -> u64 {
        self.exp_mask() | if sign { self.sign_bit() } else { 0 }
    }
    /// Zero with `sign`.
    #[inline]
    pub const fn zero(self, sign: bool) -> u64 {
        if sign {
            self.sign_bit()
        } else {
            0
        }
    }
    /// The default (canonical) quiet NaN, positive.
    #[inline]
    pub const fn default_nan(self) -> u64 {
        self.exp_mask() | self.quiet_bit()
    }
    /// Largest finite magnitude with `sign`.
    #[inline]
    pub const fn max_finite(self, sign: bool) -> u64 {
        (self.exp_mask() - (1 << self.man_bits)) | self.man_mask() | self.zero(sign)
    }
    /// Sign of `x`.
    #[inline]
    pub const fn sign(self, x: u64) -> bool {
        x & self.sign_bit() != 0
    }
    /// `x` without its sign.
    #[inline]
    pub const fn abs(self, x: u64) -> u64 {
        x & (self.sign_bit() - 1)
    }
    /// True for NaN.
    #[inline]
    pub const fn is_nan(self, x: u64) -> bool {
        self.abs(x) > self.exp_mask()
    }
    /// True for a signalling NaN.
    #[inline]
    pub const fn is_snan(self, x: u64) -> bool {
        self.is_nan(x) && x & self.quiet_bit() == 0
    }
    /// True for ±infinity.
    #[inline]
    pub const fn is_inf(self, x: u64) -> bool {
        self.abs(x) == self.exp_mask()
    }
    /// True for ±0.
    #[inline]
    pub const fn is_zero(self, x: u64) -> bool {
        self.abs(x) == 0
    }
    /// True for a nonzero denormal.
    #[inline]
    pub const fn is_denormal(self, x: u64) -> bool {
        let a = self.abs(x);
        a != 0 && a < (1 << self.man_bits)
    }
    /// `x` with the quiet bit set (NaN inputs only).
    #[inline]
    pub const fn quiet(self, x: u64) -> u64 {
        x | self.quiet_bit()
    }
    /// Smallest normal exponent (unbiased).
    #[inline]
    const fn emin(self) -> i32 {
        1 - self.bias()
    }
}

/// IEEE rounding direction, as MODE.FP_ROUND encodes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
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

impl Round {
    /// Decodes a 2-bit MODE.FP_ROUND field.
    pub fn from_bits(bits: u32) -> Round {
        match bits & 3 {
            0 => Round::NearestEven,
            1 => Round::Up,
            2 => Round::Down,
            _ => Round::Zero,
        }
    }
}

/// How one format behaves under the current MODE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FpMode {
    /// Rounding direction.
    pub round: Round,
    /// Denormal inputs are kept (else they read as ±0).
    pub denorm_in: bool,
    /// Denormal results are kept (else they become ±0, sign kept).
    pub denorm_out: bool,
}

impl FpMode {
    /// IEEE default: nearest-even, denormals kept.
    pub const IEEE: FpMode = FpMode {
        round: Round::NearestEven,
        denorm_in: true,
        denorm_out: true,
    };

    /// The same denormal handling with another rounding direction.
    pub fn with_round(self, round: Round) -> FpMode {
        FpMode { round, ..self }
    }

    /// From a 2-bit rounding field and a 2-bit denormal field (bit 0: keep
    /// input denormals, bit 1: keep output denormals).
    pub fn from_fields(round: u32, denorm: u32) -> FpMode {
        FpMode {
            round: Round::from_bits(round),
            denorm_in: denorm & 1 != 0,
            denorm_out: denorm & 2 != 0,
        }
    }
}

/// The floating-point part of the MODE register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mode {
    /// `f32` behaviour (FP_ROUND\[1:0\], FP_DENORM\[1:0\]).
    pub f32: FpMode,
    /// `f64` and `f16` behaviour (FP_ROUND\[3:2\], FP_DENORM\[3:2\]).
    pub f64: FpMode,
    /// DX10_CLAMP: `clamp` turns NaN into 0.
    pub dx10_clamp: bool,
    /// IEEE mode: min/max quiet signalling NaNs.
    pub ieee: bool,
}

impl Mode {
    /// Decodes the MODE hardware register.
    pub fn from_register(mode: u32) -> Mode {
        Mode {
            f32: FpMode::from_fields(mode & 3, (mode >> 4) & 3),
            f64: FpMode::from_fields((mode >> 2) & 3, (mode >> 6) & 3),
            dx10_clamp: mode & (1 << 8) != 0,
            ieee: mode & (1 << 9) != 0,
        }
    }

    /// The behaviour of `fmt` (`f16` shares the `f64` fields, as on the hardware).
    pub fn of(&self, fmt: Format) -> FpMode {
        if fmt == F32 {
            self.f32
        } else {
            self.f64
        }
    }
}

/// What an unpacked operand is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Zero,
    Finite,
    Inf,
    Nan,
}

/// An unpacked operand: value = (-1)^sign * sig * 2^exp (sig != 0 for `Finite`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Unpacked {
    pub kind: Kind,
    pub sign: bool,
    pub exp: i32,
    pub sig: u64,
}

/// Unpacks `x`, reading a denormal as zero unless `denorm_in`.
#[inline]
pub(crate) fn unpack(fmt: Format, x: u64, denorm_in: bool) -> Unpacked {
    let sign = fmt.sign(x);
    let e = ((x & fmt.exp_mask()) >> fmt.man_bits) as i32;
    let man = x & fmt.man_mask();
    let max_e = (1 << fmt.exp_bits) - 1;
    let (kind, exp, sig) = if e == max_e {
        (if man == 0 { Kind::Inf } else { Kind::Nan }, 0, man)
    } else if e == 0 {
        if man == 0 || !denorm_in {
            (Kind::Zero, 0, 0)
        } else {
            (Kind::Finite, fmt.emin() - fmt.man_bits as i32, man)
        }
    } else {
        (
            Kind::Finite,
            e - fmt.bias() - fmt.man_bits as i32,
            man | (1 << fmt.man_bits),
        )
    };
    Unpacked {
        kind,
        sign,
        exp,
        sig,
    }
}

/// Flushes a denormal input to ±0 unless `denorm_in`.
#[inline]
pub fn flush_in(fmt: Format, x: u64, m: FpMode) -> u64 {
    if !m.denorm_in && fmt.is_denormal(x) {
        x & fmt.sign_bit()
    } else {
        x
    }
}

/// Rounds `(-1)^sign * sig * 2^exp` to `fmt` with `m`'s rounding direction;
/// overflow gives infinity or the largest finite value as the direction says;
/// a denormal result (after rounding) becomes ±0 unless `m.denorm_out`.
pub fn round_pack(fmt: Format, sign: bool, sig: u128, exp: i32, m: FpMode) -> u64 {
    if sig == 0 {
        return fmt.zero(sign);
    }
    let msb = 127 - sig.leading_zeros() as i32;
    let e = exp.saturating_add(msb);
    let mb = fmt.man_bits as i32;
    let overflow = |sign: bool| match m.round {
        Round::NearestEven => fmt.inf(sign),
        Round::Zero => fmt.max_finite(sign),
        Round::Up => {
            if sign {
                fmt.max_finite(true)
            } else {
                fmt.inf(false)
            }
        }
        Round::Down => {
            if sign {
                fmt.inf(true)
            } else {
                fmt.max_finite(false)
            }
        }
    };
    if e > fmt.bias() {
        return overflow(sign);
    }
    let lsb = if e < fmt.emin() {
        fmt.emin() - mb
    } else {
        e - mb
    };
    let shift = i64::from(lsb) - i64::from(exp);
    let (mut keep, half, sticky) = if shift <= 0 {
        (sig << (-shift) as u32, false, false)
    } else if shift > 128 {
        (0, false, true)
    } else {
        let s = shift as u32;
        let keep = if s >= 128 { 0 } else { sig >> s };
        let half = (sig >> (s - 1)) & 1 != 0;
        let sticky = s >= 2 && sig & ((1u128 << (s - 1)) - 1) != 0;
        (keep, half, sticky)
    };
    let inexact = half || sticky;
    let up = match m.round {
        Round::NearestEven => half && (sticky || keep & 1 == 1),
        Round::Up => inexact && !sign,
        Round::Down => inexact && sign,
        Round::Zero => false,
    };
    if up {
        keep += 1;
    }
    // The hidden bit of a normal result adds one to the exponent field, so a
    // carry out of the mantissa moves to the next binade by itself.
    let bits = if e < fmt.emin() {
        keep as u64
    } else {
        (((e - fmt.emin()) as u64) << fmt.man_bits) + keep as u64
    };
    if bits >= fmt.exp_mask() {
        return overflow(sign);
    }
    if !m.denorm_out && bits < (1 << fmt.man_bits) {
        return fmt.zero(sign);
    }
    bits | fmt.zero(sign)
}

/// Applies output flushing to an exactly representable result.
#[inline]
pub fn flush_out(fmt: Format, x: u64, m: FpMode) -> u64 {
    if !m.denorm_out && fmt.is_denormal(x) {
        x & fmt.sign_bit()
    } else {
        x
    }
}

/// The first NaN among `xs` quieted (callers check that one exists).
#[inline]
pub(crate) fn propagate(fmt: Format, xs: &[u64]) -> u64 {
    xs.iter()
        .find(|&&x| fmt.is_nan(x))
        .map_or(fmt.default_nan(), |&x| fmt.quiet(x))
}
