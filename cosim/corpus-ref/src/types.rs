//! Launch descriptions: buffer element types, deterministic initial
//! contents, scalar and LDS arguments, grid geometry and how each buffer is
//! compared after the run.

use crate::prng::SplitMix64;

/// Element type of a global buffer. Vector kernel arguments (`float4`,
/// `uint4`) use the scalar element type with four elements per vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElemType {
    /// `uchar`.
    U8,
    /// `char`.
    I8,
    /// `ushort`.
    U16,
    /// `short`.
    I16,
    /// `uint`.
    U32,
    /// `int`.
    I32,
    /// `ulong`.
    U64,
    /// `long`.
    I64,
    /// `float`.
    F32,
}

impl ElemType {
    /// Size of one element in bytes.
    pub fn size(self) -> usize {
        match self {
            ElemType::U8 | ElemType::I8 => 1,
            ElemType::U16 | ElemType::I16 => 2,
            ElemType::U32 | ElemType::I32 | ElemType::F32 => 4,
            ElemType::U64 | ElemType::I64 => 8,
        }
    }

    /// The OpenCL C name of the type.
    pub fn name(self) -> &'static str {
        match self {
            ElemType::U8 => "uchar",
            ElemType::I8 => "char",
            ElemType::U16 => "ushort",
            ElemType::I16 => "short",
            ElemType::U32 => "uint",
            ElemType::I32 => "int",
            ElemType::U64 => "ulong",
            ElemType::I64 => "long",
            ElemType::F32 => "float",
        }
    }
}

/// The contents of a buffer, typed.
#[derive(Clone, Debug, PartialEq)]
pub enum BufferData {
    /// `uchar` elements.
    U8(Vec<u8>),
    /// `char` elements.
    I8(Vec<i8>),
    /// `ushort` elements.
    U16(Vec<u16>),
    /// `short` elements.
    I16(Vec<i16>),
    /// `uint` elements.
    U32(Vec<u32>),
    /// `int` elements.
    I32(Vec<i32>),
    /// `ulong` elements.
    U64(Vec<u64>),
    /// `long` elements.
    I64(Vec<i64>),
    /// `float` elements.
    F32(Vec<f32>),
}

/// Applies `$body` to the vector inside any `BufferData` variant.
macro_rules! each_variant {
    ($data:expr, $v:ident => $body:expr) => {
        match $data {
            BufferData::U8($v) => $body,
            BufferData::I8($v) => $body,
            BufferData::U16($v) => $body,
            BufferData::I16($v) => $body,
            BufferData::U32($v) => $body,
            BufferData::I32($v) => $body,
            BufferData::U64($v) => $body,
            BufferData::I64($v) => $body,
            BufferData::F32($v) => $body,
        }
    };
}

impl BufferData {
    /// Element type.
    pub fn elem(&self) -> ElemType {
        match self {
            BufferData::U8(_) => ElemType::U8,
            BufferData::I8(_) => ElemType::I8,
            BufferData::U16(_) => ElemType::U16,
            BufferData::I16(_) => ElemType::I16,
            BufferData::U32(_) => ElemType::U32,
            BufferData::I32(_) => ElemType::I32,
            BufferData::U64(_) => ElemType::U64,
            BufferData::I64(_) => ElemType::I64,
            BufferData::F32(_) => ElemType::F32,
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        each_variant!(self, v => v.len())
    }

    /// True when the buffer has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Element `i` as raw little-endian bits zero-extended to 64 bits.
    pub fn bits(&self, i: usize) -> Option<u64> {
        Some(match self {
            BufferData::U8(v) => *v.get(i)? as u64,
            BufferData::I8(v) => *v.get(i)? as u8 as u64,
            BufferData::U16(v) => *v.get(i)? as u64,
            BufferData::I16(v) => *v.get(i)? as u16 as u64,
            BufferData::U32(v) => *v.get(i)? as u64,
            BufferData::I32(v) => *v.get(i)? as u32 as u64,
            BufferData::U64(v) => *v.get(i)?,
            BufferData::I64(v) => *v.get(i)? as u64,
            BufferData::F32(v) => v.get(i)?.to_bits() as u64,
        })
    }

    /// Element `i` formatted for messages (`None` past the end).
    pub fn format(&self, i: usize) -> Option<String> {
        each_variant!(self, v => v.get(i).map(|x| format!("{x:?}")))
    }

    /// The device memory image: elements in order, little-endian.
    pub fn to_le_bytes(&self) -> Vec<u8> {
        each_variant!(self, v => v.iter().flat_map(|x| x.to_le_bytes()).collect())
    }

    /// Rebuilds a buffer of type `elem` from a device memory image. Returns
    /// `None` when the length is not a multiple of the element size.
    pub fn from_le_bytes(elem: ElemType, bytes: &[u8]) -> Option<BufferData> {
        if bytes.len() % elem.size() != 0 {
            return None;
        }
        macro_rules! conv {
            ($t:ty, $variant:ident) => {
                BufferData::$variant(
                    bytes
                        .chunks_exact(std::mem::size_of::<$t>())
                        .map(|c| {
                            let mut a = [0u8; std::mem::size_of::<$t>()];
                            a.copy_from_slice(c);
                            <$t>::from_le_bytes(a)
                        })
                        .collect(),
                )
            };
        }
        Some(match elem {
            ElemType::U8 => conv!(u8, U8),
            ElemType::I8 => conv!(i8, I8),
            ElemType::U16 => conv!(u16, U16),
            ElemType::I16 => conv!(i16, I16),
            ElemType::U32 => conv!(u32, U32),
            ElemType::I32 => conv!(i32, I32),
            ElemType::U64 => conv!(u64, U64),
            ElemType::I64 => conv!(i64, I64),
            ElemType::F32 => conv!(f32, F32),
        })
    }

    /// A buffer of `len` elements of type `elem` whose element `i` is
    /// `f(i)` truncated (as by `as`) to the element type; floats take the
    /// value from `g(i)` instead.
    fn build(
        elem: ElemType,
        len: usize,
        f: impl FnMut(usize) -> i64,
        g: impl FnMut(usize) -> f32,
    ) -> Self {
        let mut f = f;
        match elem {
            ElemType::U8 => BufferData::U8((0..len).map(|i| f(i) as u8).collect()),
            ElemType::I8 => BufferData::I8((0..len).map(|i| f(i) as i8).collect()),
            ElemType::U16 => BufferData::U16((0..len).map(|i| f(i) as u16).collect()),
            ElemType::I16 => BufferData::I16((0..len).map(|i| f(i) as i16).collect()),
            ElemType::U32 => BufferData::U32((0..len).map(|i| f(i) as u32).collect()),
            ElemType::I32 => BufferData::I32((0..len).map(|i| f(i) as i32).collect()),
            ElemType::U64 => BufferData::U64((0..len).map(|i| f(i) as u64).collect()),
            ElemType::I64 => BufferData::I64((0..len).map(f).collect()),
            ElemType::F32 => BufferData::F32((0..len).map(g).collect()),
        }
    }
}

/// Deterministic initial contents of a buffer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Init {
    /// All zero.
    Zero,
    /// Every element has these raw bits (truncated to the element size;
    /// for `float` the low 32 bits are the IEEE-754 encoding).
    Fill(u64),
    /// `start + i * step` (integers wrap to the element type; floats are
    /// computed in f32).
    Iota {
        /// Value of element 0.
        start: i64,
        /// Increment.
        step: i64,
    },
    /// Seeded uniform integers in `lo..=hi`, truncated to the element type.
    /// For `float` buffers the integer is converted to f32.
    Int {
        /// SplitMix64 seed.
        seed: u64,
        /// Smallest value.
        lo: i64,
        /// Largest value.
        hi: i64,
    },
    /// Seeded raw random bits filling the whole element.
    Bits {
        /// SplitMix64 seed.
        seed: u64,
    },
    /// Seeded uniform floats in `[lo, hi]` (see [`SplitMix64::range_f32`]);
    /// only valid for `float` buffers, integer buffers get the value
    /// truncated toward zero.
    Float {
        /// SplitMix64 seed.
        seed: u64,
        /// Smallest value.
        lo: f32,
        /// Largest value.
        hi: f32,
    },
    /// A seeded permutation of `0..len` (Fisher-Yates).
    Permutation {
        /// SplitMix64 seed.
        seed: u64,
    },
    /// Explicit values (raw bits as for `Fill`); elements past the end of
    /// the list are zero.
    Values(&'static [u64]),
}

impl Init {
    /// Materialises `len` elements of type `elem`.
    pub fn generate(&self, elem: ElemType, len: usize) -> BufferData {
        match *self {
            Init::Zero => BufferData::build(elem, len, |_| 0, |_| 0.0),
            Init::Fill(bits) => from_bits(elem, len, |_| bits),
            Init::Iota { start, step } => BufferData::build(
                elem,
                len,
                |i| start.wrapping_add(step.wrapping_mul(i as i64)),
                |i| start as f32 + step as f32 * i as f32,
            ),
            Init::Int { seed, lo, hi } => {
                let mut g = SplitMix64::new(seed);
                let vals: Vec<i64> = (0..len).map(|_| g.range_i64(lo, hi)).collect();
                BufferData::build(elem, len, |i| vals[i], |i| vals[i] as f32)
            }
            Init::Bits { seed } => {
                let mut g = SplitMix64::new(seed);
                from_bits(elem, len, |_| g.next_u64())
            }
            Init::Float { seed, lo, hi } => {
                let mut g = SplitMix64::new(seed);
                let vals: Vec<f32> = (0..len).map(|_| g.range_f32(lo, hi)).collect();
                BufferData::build(elem, len, |i| vals[i] as i64, |i| vals[i])
            }
            Init::Permutation { seed } => {
                let mut g = SplitMix64::new(seed);
                let mut p: Vec<i64> = (0..len as i64).collect();
                for i in (1..len).rev() {
                    let j = g.range_i64(0, i as i64) as usize;
                    p.swap(i, j);
                }
                BufferData::build(elem, len, |i| p[i], |i| p[i] as f32)
            }
            Init::Values(list) => from_bits(elem, len, |i| list.get(i).copied().unwrap_or(0)),
        }
    }
}

/// A buffer whose element `i` has the raw bits `bits(i)` (truncated).
fn from_bits(elem: ElemType, len: usize, mut bits: impl FnMut(usize) -> u64) -> BufferData {
    let raw: Vec<u64> = (0..len).map(&mut bits).collect();
    BufferData::build(
        elem,
        len,
        |i| raw[i] as i64,
        |i| f32::from_bits(raw[i] as u32),
    )
}

/// How a buffer's final contents are compared with the reference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Compare {
    /// Bit-exact (floats compared by their bits).
    Exact,
    /// Floats within this many units in the last place.
    Ulps(u32),
    /// Floats with `|actual - expected| <= abs + rel * |expected|`.
    AbsRel {
        /// Absolute part of the bound.
        abs: f32,
        /// Relative part of the bound.
        rel: f32,
    },
    /// The same multiset of elements in any order (for outputs whose order
    /// depends on scheduling, e.g. slots reserved with an atomic counter).
    Multiset,
}

/// A global buffer argument (`__global T *`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BufferSpec {
    /// The parameter name in the kernel source.
    pub name: &'static str,
    /// Element type.
    pub elem: ElemType,
    /// Number of elements (a `float4` buffer of n vectors has 4n).
    pub len: usize,
    /// Initial contents.
    pub init: Init,
    /// How the final contents are compared (read-only inputs are compared
    /// exactly, which also catches stray writes).
    pub compare: Compare,
}

/// A scalar kernel argument.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ScalarValue {
    /// `uint`.
    U32(u32),
    /// `int`.
    I32(i32),
    /// `ulong`.
    U64(u64),
    /// `float`.
    F32(f32),
}

impl ScalarValue {
    /// The kernarg bytes (little-endian, 4 or 8 bytes).
    pub fn to_le_bytes(self) -> Vec<u8> {
        match self {
            ScalarValue::U32(v) => v.to_le_bytes().to_vec(),
            ScalarValue::I32(v) => v.to_le_bytes().to_vec(),
            ScalarValue::U64(v) => v.to_le_bytes().to_vec(),
            ScalarValue::F32(v) => v.to_le_bytes().to_vec(),
        }
    }
}

/// One kernel argument as declared by the default launch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ArgSpec {
    /// `__global T *`.
    Buffer(BufferSpec),
    /// A by-value scalar.
    Scalar {
        /// The parameter name in the kernel source.
        name: &'static str,
        /// Its value.
        value: ScalarValue,
    },
    /// `__local T *`: the runtime allocates `bytes` of LDS for it.
    Local {
        /// The parameter name in the kernel source.
        name: &'static str,
        /// Bytes of LDS to allocate.
        bytes: u32,
    },
}

impl ArgSpec {
    /// The parameter name.
    pub fn name(&self) -> &'static str {
        match self {
            ArgSpec::Buffer(b) => b.name,
            ArgSpec::Scalar { name, .. } | ArgSpec::Local { name, .. } => name,
        }
    }

    /// The initial value of the argument.
    pub fn materialize(&self) -> ArgValue {
        match self {
            ArgSpec::Buffer(b) => ArgValue::Buffer(b.init.generate(b.elem, b.len)),
            ArgSpec::Scalar { value, .. } => ArgValue::Scalar(*value),
            ArgSpec::Local { bytes, .. } => ArgValue::Local { bytes: *bytes },
        }
    }
}

/// A concrete argument value: what is passed to the kernel and, for
/// buffers, what the memory holds before or after the run.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgValue {
    /// A global buffer and its contents.
    Buffer(BufferData),
    /// A scalar.
    Scalar(ScalarValue),
    /// An LDS allocation of this many bytes.
    Local {
        /// Bytes of LDS.
        bytes: u32,
    },
}

impl ArgValue {
    /// A short description for error messages, e.g. `"float buffer[256]"`.
    pub fn describe(&self) -> String {
        match self {
            ArgValue::Buffer(b) => format!("{} buffer[{}]", b.elem().name(), b.len()),
            ArgValue::Scalar(s) => format!("scalar {s:?}"),
            ArgValue::Local { bytes } => format!("local[{bytes} bytes]"),
        }
    }
}

/// Grid geometry of a dispatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    /// Grid size in work-items per dimension (OpenCL global size; a
    /// multiple of `local`).
    pub grid: [u32; 3],
    /// Work-group size per dimension (its product is a multiple of 64).
    pub local: [u32; 3],
}

impl Dims {
    /// Number of work-groups per dimension (0 where `local` is 0).
    pub fn groups(&self) -> [u32; 3] {
        let mut g = [0; 3];
        for (d, slot) in g.iter_mut().enumerate() {
            *slot = self.grid[d].checked_div(self.local[d]).unwrap_or(0);
        }
        g
    }

    /// Total work-items.
    pub fn work_items(&self) -> u64 {
        self.grid.iter().map(|&g| g as u64).product()
    }

    /// Work-items per work-group.
    pub fn group_size(&self) -> u32 {
        self.local.iter().product()
    }

    /// True when every grid dimension is a non-zero multiple of the
    /// work-group size (the corpus never launches partial work-groups).
    pub fn is_uniform(&self) -> bool {
        (0..3).all(|d| self.local[d] > 0 && self.grid[d] > 0 && self.grid[d] % self.local[d] == 0)
    }
}

/// A default launch: geometry plus the argument list in kernel-signature
/// order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Launch {
    /// Grid and work-group sizes.
    pub dims: Dims,
    /// Arguments in the order of the kernel's parameters.
    pub args: &'static [ArgSpec],
}

impl Launch {
    /// The initial argument values (seeded buffers generated).
    pub fn materialize(&self) -> Vec<ArgValue> {
        self.args.iter().map(ArgSpec::materialize).collect()
    }
}
