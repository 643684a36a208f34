//! The scalar types of generated programs and what the generator and the
//! prelude ask of them (names, widths, `<limits.h>` macros, the float
//! ranges that convert). A leaf: [`super::gen`] and [`super::prelude`] both
//! use it.

/// An OpenCL C scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Scalar {
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    Float,
    Double,
}

/// The integer types.
pub const INTS: &[Scalar] = &[
    Scalar::Char,
    Scalar::UChar,
    Scalar::Short,
    Scalar::UShort,
    Scalar::Int,
    Scalar::UInt,
    Scalar::Long,
    Scalar::ULong,
];

impl Scalar {
    /// The OpenCL C name.
    pub fn name(self) -> &'static str {
        match self {
            Scalar::Char => "char",
            Scalar::UChar => "uchar",
            Scalar::Short => "short",
            Scalar::UShort => "ushort",
            Scalar::Int => "int",
            Scalar::UInt => "uint",
            Scalar::Long => "long",
            Scalar::ULong => "ulong",
            Scalar::Float => "float",
            Scalar::Double => "double",
        }
    }
    /// Width in bits.
    pub fn bits(self) -> u32 {
        match self {
            Scalar::Char | Scalar::UChar => 8,
            Scalar::Short | Scalar::UShort => 16,
            Scalar::Int | Scalar::UInt | Scalar::Float => 32,
            _ => 64,
        }
    }
    /// A signed integer type.
    pub fn signed(self) -> bool {
        matches!(
            self,
            Scalar::Char | Scalar::Short | Scalar::Int | Scalar::Long
        )
    }
    /// float or double.
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::Float | Scalar::Double)
    }
    /// The unsigned integer type of the same width.
    pub fn unsigned(self) -> Scalar {
        match self {
            Scalar::Char => Scalar::UChar,
            Scalar::Short => Scalar::UShort,
            Scalar::Int => Scalar::UInt,
            Scalar::Long => Scalar::ULong,
            t => t,
        }
    }
    /// The `<limits.h>` macro of the minimum (signed types).
    pub fn min_macro(self) -> &'static str {
        match self {
            Scalar::Char => "CHAR_MIN",
            Scalar::Short => "SHRT_MIN",
            Scalar::Int => "INT_MIN",
            _ => "LONG_MIN",
        }
    }
    /// The `<limits.h>` macro of the maximum (signed types).
    pub fn max_macro(self) -> &'static str {
        match self {
            Scalar::Char => "CHAR_MAX",
            Scalar::Short => "SHRT_MAX",
            Scalar::Int => "INT_MAX",
            _ => "LONG_MAX",
        }
    }
    /// The lower-bound test and the exclusive upper bound of the floats
    /// that convert to this integer type (exact in float and double).
    pub fn float_bounds(self) -> (&'static str, &'static str) {
        match self {
            Scalar::Char => ("> -129.0", "128.0"),
            Scalar::UChar => ("> -1.0", "256.0"),
            Scalar::Short => ("> -32769.0", "32768.0"),
            Scalar::UShort => ("> -1.0", "65536.0"),
            Scalar::Int => (">= -2147483648.0", "2147483648.0"),
            Scalar::UInt => ("> -1.0", "4294967296.0"),
            Scalar::Long => (">= -9223372036854775808.0", "9223372036854775808.0"),
            _ => ("> -1.0", "18446744073709551616.0"),
        }
    }
}
