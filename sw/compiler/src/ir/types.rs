//! Value types. Vectors are not IR types: the AST→IR lowering scalarises
//! OpenCL vectors into one value per component (the wave is this machine's
//! vector; a `float4` is four VGPRs either way), which keeps every IR
//! instruction a per-lane scalar operation and instruction selection simple.

use std::fmt;

/// Address spaces of OpenCL C as the IR keeps them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddrSpace {
    /// `__global`: 64-bit addresses, vector memory (GLOBAL instructions).
    Global,
    /// `__constant`: like global but read-only (scalar loads allowed).
    Constant,
    /// `__local`: 32-bit LDS byte offsets (DS instructions).
    Local,
    /// `__private`: 32-bit per-lane scratch offsets (SCRATCH instructions).
    Private,
}

impl AddrSpace {
    /// The spelling in the textual IR.
    pub fn name(self) -> &'static str {
        match self {
            AddrSpace::Global => "global",
            AddrSpace::Constant => "constant",
            AddrSpace::Local => "local",
            AddrSpace::Private => "private",
        }
    }

    /// Bits of a pointer into this space.
    pub fn pointer_bits(self) -> u32 {
        match self {
            AddrSpace::Global | AddrSpace::Constant => 64,
            AddrSpace::Local | AddrSpace::Private => 32,
        }
    }
}

/// The type of an SSA value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// A boolean (comparison results, masks).
    I1,
    /// 8-bit integer (memory only is natural; arithmetic works on i32).
    I8,
    /// 16-bit integer.
    I16,
    /// 32-bit integer.
    I32,
    /// 64-bit integer.
    I64,
    /// IEEE half.
    F16,
    /// IEEE single.
    F32,
    /// IEEE double.
    F64,
    /// A pointer into an address space.
    Ptr(AddrSpace),
}

impl Type {
    /// Bits of the type (1 for `i1`).
    pub fn bits(self) -> u32 {
        match self {
            Type::I1 => 1,
            Type::I8 => 8,
            Type::I16 | Type::F16 => 16,
            Type::I32 | Type::F32 => 32,
            Type::I64 | Type::F64 => 64,
            Type::Ptr(s) => s.pointer_bits(),
        }
    }

    /// The integer type of `bits` bits (1, 8, 16, 32; anything else 64).
    pub fn int_of_bits(bits: u32) -> Type {
        match bits {
            1 => Type::I1,
            8 => Type::I8,
            16 => Type::I16,
            32 => Type::I32,
            _ => Type::I64,
        }
    }

    /// Bytes it occupies in memory.
    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }

    /// True for the integer types (not `i1`, not pointers).
    pub fn is_int(self) -> bool {
        matches!(self, Type::I8 | Type::I16 | Type::I32 | Type::I64)
    }

    /// True for the floating-point types.
    pub fn is_float(self) -> bool {
        matches!(self, Type::F16 | Type::F32 | Type::F64)
    }

    /// True for pointers.
    pub fn is_ptr(self) -> bool {
        matches!(self, Type::Ptr(_))
    }

    /// The OpenCL C spelling of the type, for diagnostics (users write
    /// `long`, not `i64`). The IR does not keep signedness: an integer is
    /// named by its signed type (`long` stands for `long` and `ulong`).
    pub fn opencl_name(self) -> &'static str {
        match self {
            Type::I1 => "bool",
            Type::I8 => "char",
            Type::I16 => "short",
            Type::I32 => "int",
            Type::I64 => "long",
            Type::F16 => "half",
            Type::F32 => "float",
            Type::F64 => "double",
            Type::Ptr(AddrSpace::Global) => "a __global pointer",
            Type::Ptr(AddrSpace::Constant) => "a __constant pointer",
            Type::Ptr(AddrSpace::Local) => "a __local pointer",
            Type::Ptr(AddrSpace::Private) => "a __private pointer",
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::I1 => f.write_str("i1"),
            Type::I8 => f.write_str("i8"),
            Type::I16 => f.write_str("i16"),
            Type::I32 => f.write_str("i32"),
            Type::I64 => f.write_str("i64"),
            Type::F16 => f.write_str("f16"),
            Type::F32 => f.write_str("f32"),
            Type::F64 => f.write_str("f64"),
            Type::Ptr(s) => write!(f, "ptr.{}", s.name()),
        }
    }
}
