//! Element types, YAML numbers and initial buffer contents.
//!
//! Seeded contents use the corpus generator (`corpus::prng::SplitMix64`) with
//! the corpus's exact recipes, so a workload file describing a corpus
//! kernel's default launch produces byte-identical buffers.

use std::fmt;

use corpus::prng::SplitMix64;
use serde::Deserialize;

/// Element type of a buffer or a scalar argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElemType {
    /// Signed 8-bit.
    I8,
    /// Unsigned 8-bit.
    U8,
    /// Signed 16-bit.
    I16,
    /// Unsigned 16-bit.
    U16,
    /// Signed 32-bit.
    I32,
    /// Unsigned 32-bit.
    U32,
    /// Signed 64-bit.
    I64,
    /// Unsigned 64-bit.
    U64,
    /// IEEE-754 binary32.
    F32,
    /// IEEE-754 binary64.
    F64,
}

impl ElemType {
    /// Every element type, in the order the YAML documentation lists them.
    pub const ALL: [ElemType; 10] = [
        ElemType::I8,
        ElemType::U8,
        ElemType::I16,
        ElemType::U16,
        ElemType::I32,
        ElemType::U32,
        ElemType::I64,
        ElemType::U64,
        ElemType::F32,
        ElemType::F64,
    ];

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            ElemType::I8 | ElemType::U8 => 1,
            ElemType::I16 | ElemType::U16 => 2,
            ElemType::I32 | ElemType::U32 | ElemType::F32 => 4,
            ElemType::I64 | ElemType::U64 | ElemType::F64 => 8,
        }
    }

    /// The YAML name (`u32`, `f64`, ...).
    pub fn name(self) -> &'static str {
        match self {
            ElemType::I8 => "i8",
            ElemType::U8 => "u8",
            ElemType::I16 => "i16",
            ElemType::U16 => "u16",
            ElemType::I32 => "i32",
            ElemType::U32 => "u32",
            ElemType::I64 => "i64",
            ElemType::U64 => "u64",
            ElemType::F32 => "f32",
            ElemType::F64 => "f64",
        }
    }

    /// True for `f32` and `f64`.
    pub fn is_float(self) -> bool {
        matches!(self, ElemType::F32 | ElemType::F64)
    }

    /// The corpus's element type, if it has one (the corpus has no `f64`).
    pub fn to_corpus(self) -> Option<corpus::ElemType> {
        Some(match self {
            ElemType::I8 => corpus::ElemType::I8,
            ElemType::U8 => corpus::ElemType::U8,
            ElemType::I16 => corpus::ElemType::I16,
            ElemType::U16 => corpus::ElemType::U16,
            ElemType::I32 => corpus::ElemType::I32,
            ElemType::U32 => corpus::ElemType::U32,
            ElemType::I64 => corpus::ElemType::I64,
            ElemType::U64 => corpus::ElemType::U64,
            ElemType::F32 => corpus::ElemType::F32,
            ElemType::F64 => return None,
        })
    }

    /// The workload type of a corpus element type.
    pub fn from_corpus(t: corpus::ElemType) -> ElemType {
        match t {
            corpus::ElemType::I8 => ElemType::I8,
            corpus::ElemType::U8 => ElemType::U8,
            corpus::ElemType::I16 => ElemType::I16,
            corpus::ElemType::U16 => ElemType::U16,
            corpus::ElemType::I32 => ElemType::I32,
            corpus::ElemType::U32 => ElemType::U32,
            corpus::ElemType::I64 => ElemType::I64,
            corpus::ElemType::U64 => ElemType::U64,
            corpus::ElemType::F32 => ElemType::F32,
        }
    }

    /// Element `i` of a little-endian image, formatted for messages.
    pub fn format(self, bytes: &[u8], i: usize) -> String {
        let Some(b) = bytes.get(i * self.size()..(i + 1) * self.size()) else {
            return "(missing)".into();
        };
        let mut q = [0u8; 8];
        q[..b.len()].copy_from_slice(b);
        let raw = u64::from_le_bytes(q);
        match self {
            ElemType::I8 => (raw as i8).to_string(),
            ElemType::U8 => (raw as u8).to_string(),
            ElemType::I16 => (raw as i16).to_string(),
            ElemType::U16 => (raw as u16).to_string(),
            ElemType::I32 => (raw as i32).to_string(),
            ElemType::U32 => (raw as u32).to_string(),
            ElemType::I64 => (raw as i64).to_string(),
            ElemType::U64 => raw.to_string(),
            ElemType::F32 => format!("{:?} ({:#010x})", f32::from_bits(raw as u32), raw as u32),
            ElemType::F64 => format!("{:?} ({raw:#018x})", f64::from_bits(raw)),
        }
    }
}

impl fmt::Display for ElemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A number as written in YAML: an integer or a float.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Number {
    /// A non-negative integer (up to 2^64 - 1).
    UInt(u64),
    /// A negative integer.
    Int(i64),
    /// A float (`1.5`, `.inf`, `-.nan`).
    Float(f64),
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Number::UInt(v) => write!(f, "{v}"),
            Number::Int(v) => write!(f, "{v}"),
            Number::Float(v) => write!(f, "{v:?}"),
        }
    }
}

impl Number {
    /// The value as `t`'s little-endian bytes: integers must fit the type
    /// (negative values wrap only for signed types), floats only go to float
    /// types (rounded to nearest for `f32`).
    pub fn encode(self, t: ElemType) -> Result<Vec<u8>, String> {
        let range_err = || format!("{self} does not fit in {t}");
        let int: Option<i128> = match self {
            Number::UInt(v) => Some(i128::from(v)),
            Number::Int(v) => Some(i128::from(v)),
            Number::Float(_) => None,
        };
        macro_rules! int_bytes {
            ($ty:ty) => {{
                let v = int.ok_or_else(|| format!("{self} is not an integer ({t} expected)"))?;
                <$ty>::try_from(v)
                    .map_err(|_| range_err())?
                    .to_le_bytes()
                    .to_vec()
            }};
        }
        Ok(match t {
            ElemType::I8 => int_bytes!(i8),
            ElemType::U8 => int_bytes!(u8),
            ElemType::I16 => int_bytes!(i16),
            ElemType::U16 => int_bytes!(u16),
            ElemType::I32 => int_bytes!(i32),
            ElemType::U32 => int_bytes!(u32),
            ElemType::I64 => int_bytes!(i64),
            ElemType::U64 => int_bytes!(u64),
            ElemType::F32 => (self.as_f64() as f32).to_le_bytes().to_vec(),
            ElemType::F64 => self.as_f64().to_le_bytes().to_vec(),
        })
    }

    /// The value as f64 (integers rounded to nearest).
    pub fn as_f64(self) -> f64 {
        match self {
            Number::UInt(v) => v as f64,
            Number::Int(v) => v as f64,
            Number::Float(v) => v,
        }
    }
}

/// How random values are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Draw {
    /// Uniform integers in `min..=max` (converted for float buffers).
    Int,
    /// Uniform floats in `[min, max]` (truncated toward zero for integer buffers).
    Float,
}

/// Initial contents of a buffer.
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    /// All zero.
    Zero,
    /// Every element is this value.
    Fill(Number),
    /// Every element has these raw bits (truncated to the element size).
    FillBits(u64),
    /// `start + i * step`: integers wrap to the type; floats are computed in
    /// the element's precision.
    Iota {
        /// Element 0.
        start: i64,
        /// Increment.
        step: i64,
    },
    /// Seeded uniform values in `[min, max]`.
    Random {
        /// SplitMix64 seed.
        seed: u64,
        /// Smallest value.
        min: f64,
        /// Largest value.
        max: f64,
        /// Integer or float draws (default: the element type's kind).
        draw: Draw,
    },
    /// Seeded raw random bits.
    RandomBits {
        /// SplitMix64 seed.
        seed: u64,
    },
    /// A seeded permutation of `0..length` (Fisher-Yates).
    Permutation {
        /// SplitMix64 seed.
        seed: u64,
    },
    /// Explicit values; elements past the list are zero.
    Values(Vec<Number>),
    /// Raw little-endian contents read from a file (path resolved against
    /// the workload file's directory).
    File(std::path::PathBuf),
}

/// One generated element before it is stored in its type.
#[derive(Clone, Copy)]
enum Val {
    Int(i64),
    Bits(u64),
    /// A float already rounded to the element's precision.
    Float(f64),
}

fn store(t: ElemType, v: Val, out: &mut Vec<u8>) {
    let bits: u64 = match (v, t) {
        (Val::Bits(b), _) => b,
        (Val::Int(i), ElemType::F32) => u64::from((i as f32).to_bits()),
        (Val::Int(i), ElemType::F64) => (i as f64).to_bits(),
        (Val::Int(i), _) => i as u64,
        (Val::Float(f), ElemType::F32) => u64::from((f as f32).to_bits()),
        (Val::Float(f), ElemType::F64) => f.to_bits(),
        // Truncation toward zero (saturating), as the corpus does with `as`.
        (Val::Float(f), _) => f as i64 as u64,
    };
    out.extend_from_slice(&bits.to_le_bytes()[..t.size()]);
}

impl Init {
    /// `length` elements of type `t`, little-endian. `File` is handled by
    /// the caller (it needs the file system).
    pub fn generate(&self, t: ElemType, length: usize) -> Result<Vec<u8>, String> {
        let mut out = Vec::with_capacity(length * t.size());
        match self {
            Init::Zero => out.resize(length * t.size(), 0),
            Init::Fill(n) => {
                let one = n.encode(t)?;
                for _ in 0..length {
                    out.extend_from_slice(&one);
                }
            }
            Init::FillBits(b) => (0..length).for_each(|_| store(t, Val::Bits(*b), &mut out)),
            Init::Iota { start, step } => {
                for i in 0..length {
                    let v = match t {
                        ElemType::F32 => {
                            Val::Float(f64::from(*start as f32 + *step as f32 * i as f32))
                        }
                        ElemType::F64 => Val::Float(*start as f64 + *step as f64 * i as f64),
                        _ => Val::Int(start.wrapping_add(step.wrapping_mul(i as i64))),
                    };
                    store(t, v, &mut out);
                }
            }
            Init::Random {
                seed,
                min,
                max,
                draw,
            } => {
                let mut g = SplitMix64::new(*seed);
                for _ in 0..length {
                    let v = match (draw, t) {
                        (Draw::Int, _) => {
                            if min.fract() != 0.0 || max.fract() != 0.0 {
                                return Err(format!(
                                    "integer draws need integer bounds, got {min}..{max}"
                                ));
                            }
                            Val::Int(g.range_i64(*min as i64, *max as i64))
                        }
                        (Draw::Float, ElemType::F64) => {
                            let u = (g.next_u64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0);
                            Val::Float(min + (max - min) * u)
                        }
                        // f32 draws (also for integer buffers, as the corpus does).
                        (Draw::Float, _) => {
                            Val::Float(f64::from(g.range_f32(*min as f32, *max as f32)))
                        }
                    };
                    store(t, v, &mut out);
                }
            }
            Init::RandomBits { seed } => {
                let mut g = SplitMix64::new(*seed);
                (0..length).for_each(|_| store(t, Val::Bits(g.next_u64()), &mut out));
            }
            Init::Permutation { seed } => {
                let mut g = SplitMix64::new(*seed);
                let mut p: Vec<i64> = (0..length as i64).collect();
                for i in (1..length).rev() {
                    let j = g.range_i64(0, i as i64) as usize;
                    p.swap(i, j);
                }
                p.into_iter().for_each(|v| store(t, Val::Int(v), &mut out));
            }
            Init::Values(list) => {
                if list.len() > length {
                    return Err(format!(
                        "{} values given for a buffer of {length} elements",
                        list.len()
                    ));
                }
                for n in list {
                    out.extend(n.encode(t)?);
                }
                out.resize(length * t.size(), 0);
            }
            Init::File(path) => {
                return Err(format!(
                    "file contents ({}) are read by the caller",
                    path.display()
                ))
            }
        }
        Ok(out)
    }
}
