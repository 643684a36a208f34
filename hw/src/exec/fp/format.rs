//! Binary interchange formats as parameters of one datapath: field widths,
//! the special encodings, and unpacking into sign / exponent / significand.

use super::Denorm;
use super::Round;

/// Field widths of one IEEE-754 binary format; raw values are carried in the
/// low bits of a `u64` whatever the format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fmt {
    /// Exponent field width.
    pub ebits: u32,
    /// Fraction field width (the significand has one more, hidden, bit).
    pub mbits: u32,
}

/// binary16.
pub(crate) const F16: Fmt = Fmt {
    ebits: 5,
    mbits: 10,
};
/// binary32.
pub(crate) const F32: Fmt = Fmt {
    ebits: 8,
    mbits: 23,
};
/// binary64.
pub(crate) const F64: Fmt = Fmt {
    ebits: 11,
    mbits: 52,
};

impl Fmt {
    pub const fn bias(self) -> i32 {
        (1 << (self.ebits - 1)) - 1
    }
    /// Exponent of the smallest normal number.
    pub const fn emin(self) -> i32 {
        1 - self.bias()
    }
    pub const fn sign_bit(self) -> u64 {
        1 << (self.ebits + self.mbits)
    }
    pub const fn exp_all_ones(self) -> u64 {
        (1 << self.ebits) - 1
    }
    pub const fn frac_mask(self) -> u64 {
        (1 << self.mbits) - 1
    }
    pub const fn quiet_bit(self) -> u64 {
        1 << (self.mbits - 1)
    }
    pub const fn exp_field(self, x: u64) -> u64 {
        (x >> self.mbits) & self.exp_all_ones()
    }
    pub const fn sign(self, x: u64) -> bool {
        x & self.sign_bit() != 0
    }
    pub const fn abs(self, x: u64) -> u64 {
        x & !self.sign_bit()
    }
    pub const fn zero(self, sign: bool) -> u64 {
        if sign {
            self.sign_bit()
        } else {
            0
        }
    }
    pub const fn inf(self, sign: bool) -> u64 {
        self.zero(sign) | (self.exp_all_ones() << self.mbits)
    }
    pub const fn max_finite(self, sign: bool) -> u64 {
        self.inf(sign) - 1
    }
    /// The value 1.0.
    pub const fn one(self) -> u64 {
        (self.bias() as u64) << self.mbits
    }
    /// AMD's default NaN: positive, quiet, empty payload.
    pub const fn default_nan(self) -> u64 {
        self.inf(false) | self.quiet_bit()
    }
    pub const fn is_nan(self, x: u64) -> bool {
        self.exp_field(x) == self.exp_all_ones() && x & self.frac_mask() != 0
    }
    pub const fn is_snan(self, x: u64) -> bool {
        self.is_nan(x) && x & self.quiet_bit() == 0
    }
    pub const fn is_inf(self, x: u64) -> bool {
        self.abs(x) == self.inf(false)
    }
    pub const fn is_zero(self, x: u64) -> bool {
        self.abs(x) == 0
    }
    pub const fn is_denorm(self, x: u64) -> bool {
        self.exp_field(x) == 0 && x & self.frac_mask() != 0
    }
    pub const fn quiet(self, x: u64) -> u64 {
        x | self.quiet_bit()
    }
    /// Reads a denormal input as signed zero unless `keep_in`.
    pub const fn flush_in(self, x: u64, keep_in: bool) -> u64 {
        if !keep_in && self.is_denorm(x) {
            x & self.sign_bit()
        } else {
            x
        }
    }
}

/// What a raw encoding holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Zero,
    Finite,
    Inf,
    Nan,
}

/// A value split into fields; a finite one is `sig × 2^exp` with `sig != 0`
/// (the hidden bit made explicit, not normalised).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Unpacked {
    pub sign: bool,
    pub kind: Kind,
    pub exp: i32,
    pub sig: u64,
}

/// Splits `x`; a denormal reads as signed zero unless `keep_in`.
pub(crate) fn unpack(x: u64, f: Fmt, keep_in: bool) -> Unpacked {
    let sign = f.sign(x);
    let e = f.exp_field(x);
    let frac = x & f.frac_mask();
    let (kind, exp, sig) = if e == f.exp_all_ones() {
        (if frac == 0 { Kind::Inf } else { Kind::Nan }, 0, frac)
    } else if e == 0 {
        if frac == 0 || !keep_in {
            (Kind::Zero, 0, 0)
        } else {
            (Kind::Finite, f.emin() - f.mbits as i32, frac)
        }
    } else {
        (
            Kind::Finite,
            e as i32 - f.bias() - f.mbits as i32,
            frac | (1 << f.mbits),
        )
    };
    Unpacked {
        sign,
        kind,
        exp,
        sig,
    }
}

/// One operation's format with the MODE fields that govern it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ctx {
    pub f: Fmt,
    pub rm: Round,
    pub dn: Denorm,
}

impl Ctx {
    /// The same format rounded to nearest-even with denormals kept (for the
    /// internal "is the quotient denormal" tests of `div_scale`).
    pub const fn exact(f: Fmt) -> Ctx {
        Ctx {
            f,
            rm: Round::NearestEven,
            dn: Denorm {
                keep_in: true,
                keep_out: true,
            },
        }
    }
}
