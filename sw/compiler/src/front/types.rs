//! OpenCL C types: scalars, vectors (including the `boolN` extension),
//! pointers with address spaces, arrays, structs/unions, atomics; their
//! sizes and alignments (OpenCL rules: a vector of 3 is stored as 4, a
//! vector is aligned to its size, `size_t` is 64-bit on amdgcn).

use std::fmt;

/// OpenCL address spaces (OpenCL 2.0: an unqualified pointee is generic).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddrSpace {
    /// `__private`: per work-item (registers or scratch).
    Private,
    /// `__global`: device memory.
    Global,
    /// `__local`: work-group shared memory (LDS).
    Local,
    /// `__constant`: read-only device memory.
    Constant,
    /// The OpenCL 2.0 generic space (flat addressing).
    Generic,
}

impl AddrSpace {
    /// The qualifier as clang prints it in messages.
    pub fn name(self) -> &'static str {
        match self {
            AddrSpace::Private => "__private",
            AddrSpace::Global => "__global",
            AddrSpace::Local => "__local",
            AddrSpace::Constant => "__constant",
            AddrSpace::Generic => "__generic",
        }
    }
    /// The AMDGPU address-space number (`.address_space` metadata, LLVM's numbering).
    pub fn amdgpu_number(self) -> u32 {
        match self {
            AddrSpace::Generic => 0,
            AddrSpace::Global => 1,
            AddrSpace::Local => 3,
            AddrSpace::Constant => 4,
            AddrSpace::Private => 5,
        }
    }
}

/// Scalar element types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum Scalar {
    Bool,
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    Half,
    Float,
    Double,
}

impl Scalar {
    /// `v` reduced to what this integer type holds, as C's conversion
    /// rules say (wrap modulo 2^bits, then sign-extend a signed type; a
    /// bool is 0 or 1).
    pub fn wrap(self, v: i128) -> i128 {
        if self == Scalar::Bool {
            return i128::from(v != 0);
        }
        let bits = 8 * self.size();
        let m = v & ((1i128 << bits) - 1);
        if self.is_signed() && m >> (bits - 1) & 1 == 1 {
            m - (1i128 << bits)
        } else {
            m
        }
    }

    /// Size in bytes (bool is one byte).
    pub fn size(self) -> u32 {
        use Scalar::*;
        match self {
            Bool | Char | UChar => 1,
            Short | UShort | Half => 2,
            Int | UInt | Float => 4,
            Long | ULong | Double => 8,
        }
    }
    /// Integer type (bool included).
    pub fn is_integer(self) -> bool {
        !self.is_float()
    }
    /// half, float or double.
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::Half | Scalar::Float | Scalar::Double)
    }
    /// Signed integer.
    pub fn is_signed(self) -> bool {
        matches!(
            self,
            Scalar::Char | Scalar::Short | Scalar::Int | Scalar::Long
        )
    }
    /// Integer conversion rank order, for the usual arithmetic conversions.
    pub fn rank(self) -> u32 {
        use Scalar::*;
        match self {
            Bool => 0,
            Char | UChar => 1,
            Short | UShort => 2,
            Int | UInt => 3,
            Long | ULong => 4,
            Half => 5,
            Float => 6,
            Double => 7,
        }
    }
    /// The unsigned type of the same size (integers).
    pub fn to_unsigned(self) -> Scalar {
        use Scalar::*;
        match self {
            Char => UChar,
            Short => UShort,
            Int => UInt,
            Long => ULong,
            s => s,
        }
    }
    /// The signed integer type of the same size (what vector comparisons return).
    pub fn same_size_signed_int(self) -> Scalar {
        match self.size() {
            1 => Scalar::Char,
            2 => Scalar::Short,
            4 => Scalar::Int,
            _ => Scalar::Long,
        }
    }
    /// The OpenCL spelling.
    pub fn name(self) -> &'static str {
        use Scalar::*;
        match self {
            Bool => "bool",
            Char => "char",
            UChar => "uchar",
            Short => "short",
            UShort => "ushort",
            Int => "int",
            UInt => "uint",
            Long => "long",
            ULong => "ulong",
            Half => "half",
            Float => "float",
            Double => "double",
        }
    }
}

/// What a pointer points to: the type and the pointee's qualifiers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pointee {
    /// The pointed-to type.
    pub ty: Type,
    /// Its address space.
    pub space: AddrSpace,
    /// `const` pointee.
    pub konst: bool,
    /// `volatile` pointee.
    pub volatile: bool,
}

/// Index of a struct/union in [`Records`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RecordId(pub u32);

/// A type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// `void`.
    Void,
    /// A scalar.
    Scalar(Scalar),
    /// `scalarN` with N in 2, 3, 4, 8, 16 (`boolN` is the gpusim extension).
    Vector(Scalar, u8),
    /// A pointer.
    Pointer(Box<Pointee>),
    /// `T[N]` (N = 0 only for a `[]` parameter, which decays).
    Array(Box<Type>, u32),
    /// A struct or union.
    Record(RecordId),
    /// `atomic_int`, `atomic_uint`, `atomic_long`, `atomic_ulong`, `atomic_float`.
    Atomic(Scalar),
}

/// Shorthands.
impl Type {
    /// `int`.
    pub const INT: Type = Type::Scalar(Scalar::Int);
    /// `uint`.
    pub const UINT: Type = Type::Scalar(Scalar::UInt);
    /// `ulong` (also `size_t`).
    pub const ULONG: Type = Type::Scalar(Scalar::ULong);
    /// `long`.
    pub const LONG: Type = Type::Scalar(Scalar::Long);
    /// `float`.
    pub const FLOAT: Type = Type::Scalar(Scalar::Float);
    /// `bool`.
    pub const BOOL: Type = Type::Scalar(Scalar::Bool);

    /// A pointer to `ty` in `space`.
    pub fn ptr(ty: Type, space: AddrSpace) -> Type {
        Type::Pointer(Box::new(Pointee {
            ty,
            space,
            konst: false,
            volatile: false,
        }))
    }
    /// The scalar, or the vector's element.
    pub fn elem_scalar(&self) -> Option<Scalar> {
        match self {
            Type::Scalar(s) | Type::Vector(s, _) => Some(*s),
            _ => None,
        }
    }
    /// Vector width (1 for scalars).
    pub fn width(&self) -> u8 {
        match self {
            Type::Vector(_, n) => *n,
            _ => 1,
        }
    }
    /// Scalar or vector of integers (bool included).
    pub fn is_integer(&self) -> bool {
        self.elem_scalar().is_some_and(Scalar::is_integer)
    }
    /// Scalar or vector of floats.
    pub fn is_float(&self) -> bool {
        self.elem_scalar().is_some_and(Scalar::is_float)
    }
    /// Scalar or vector.
    pub fn is_arith(&self) -> bool {
        self.elem_scalar().is_some()
    }
    /// Scalar type (arithmetic or pointer).
    pub fn is_scalar(&self) -> bool {
        matches!(self, Type::Scalar(_) | Type::Pointer(_))
    }
    /// A vector.
    pub fn is_vector(&self) -> bool {
        matches!(self, Type::Vector(..))
    }
    /// A pointer.
    pub fn is_pointer(&self) -> bool {
        matches!(self, Type::Pointer(_))
    }
    /// The pointee, for pointers.
    pub fn pointee(&self) -> Option<&Pointee> {
        match self {
            Type::Pointer(p) => Some(p),
            _ => None,
        }
    }
    /// Same shape with another element type.
    pub fn with_elem(&self, s: Scalar) -> Type {
        match self {
            Type::Vector(_, n) => Type::Vector(s, *n),
            _ => Type::Scalar(s),
        }
    }
}

/// A struct/union member with its offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Name.
    pub name: String,
    /// Type.
    pub ty: Type,
    /// Byte offset (0 for every member of a union).
    pub offset: u32,
}

/// A struct or union and its layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The tag or typedef name ("" for an anonymous record without a typedef).
    pub name: String,
    /// `union`.
    pub is_union: bool,
    /// Members in declaration order (empty while only declared).
    pub fields: Vec<Field>,
    /// Size in bytes, a multiple of `align`.
    pub size: u32,
    /// Alignment: the largest member alignment.
    pub align: u32,
    /// Defined (not just `struct S;`).
    pub complete: bool,
    /// `name` is the tag (`struct S`), not a typedef naming an anonymous record.
    pub tagged: bool,
}

/// Every struct/union of a translation unit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Records {
    /// Indexed by [`RecordId`].
    pub list: Vec<Record>,
}

impl Records {
    /// The field indices that reach member `name` of record `id`: one for a
    /// direct member, more through anonymous struct/union members (C11),
    /// searched in declaration order.
    pub fn member_path(&self, id: RecordId, name: &str) -> Option<Vec<u32>> {
        let rec = self.get(id);
        if let Some(i) = rec.fields.iter().position(|f| f.name == name) {
            return Some(vec![i as u32]);
        }
        rec.fields.iter().enumerate().find_map(|(i, f)| match f.ty {
            Type::Record(inner) if f.name.is_empty() => {
                let mut p = self.member_path(inner, name)?;
                p.insert(0, i as u32);
                Some(p)
            }
            _ => None,
        })
    }

    /// The record `id`.
    pub fn get(&self, id: RecordId) -> &Record {
        &self.list[id.0 as usize]
    }

    /// Size in bytes (`void` and incomplete records: 0; `bool` 1).
    pub fn size_of(&self, ty: &Type) -> u32 {
        match ty {
            Type::Void => 0,
            Type::Scalar(s) | Type::Atomic(s) => s.size(),
            Type::Vector(s, n) => s.size() * if *n == 3 { 4 } else { *n as u32 },
            Type::Pointer(p) => match p.space {
                AddrSpace::Local | AddrSpace::Private => 4,
                _ => 8,
            },
            Type::Array(e, n) => self.size_of(e).saturating_mul(*n),
            Type::Record(r) => self.get(*r).size,
        }
    }

    /// Alignment in bytes.
    pub fn align_of(&self, ty: &Type) -> u32 {
        match ty {
            Type::Void => 1,
            Type::Array(e, _) => self.align_of(e),
            Type::Record(r) => self.get(*r).align.max(1),
            t => self.size_of(t).max(1),
        }
    }

    /// Lays out members: each at the next multiple of its alignment
    /// (union: all at 0), size rounded up to the largest alignment. In a
    /// `packed` record (`__attribute__((packed))`) every member's alignment
    /// counts as 1, as clang lays it out: no padding, alignment 1.
    pub fn layout(
        &self,
        is_union: bool,
        members: Vec<(String, Type)>,
        packed: bool,
    ) -> (Vec<Field>, u32, u32) {
        let (mut off, mut align, mut size) = (0u32, 1u32, 0u32);
        let mut fields = Vec::with_capacity(members.len());
        for (name, ty) in members {
            let a = if packed { 1 } else { self.align_of(&ty) };
            let s = self.size_of(&ty);
            align = align.max(a);
            let at = if is_union {
                0
            } else {
                off.div_ceil(a).saturating_mul(a)
            };
            off = at.saturating_add(s);
            size = size.max(off);
            fields.push(Field {
                name,
                ty,
                offset: at,
            });
        }
        (fields, size.div_ceil(align).saturating_mul(align), align)
    }

    /// The type as OpenCL spells it (`__global float4 *`, `uint[16]`).
    pub fn name(&self, ty: &Type) -> String {
        TypeName(self, ty).to_string()
    }

    /// A call as messages show it: `name(type, ...)` (`add_sat(char4, char4)`).
    pub fn call_text<'t>(&self, name: &str, args: impl IntoIterator<Item = &'t Type>) -> String {
        let tys: Vec<String> = args.into_iter().map(|t| self.name(t)).collect();
        format!("{name}({})", tys.join(", "))
    }
}

struct TypeName<'a>(&'a Records, &'a Type);

impl fmt::Display for TypeName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.1 {
            Type::Void => write!(f, "void"),
            Type::Scalar(s) => write!(f, "{}", s.name()),
            Type::Vector(s, n) => write!(f, "{}{n}", s.name()),
            Type::Atomic(s) => write!(f, "atomic_{}", s.name()),
            Type::Record(r) => {
                let rec = self.0.get(*r);
                let kw = if rec.is_union { "union" } else { "struct" };
                if rec.name.is_empty() {
                    write!(f, "{kw} (anonymous)")
                } else {
                    write!(f, "{kw} {}", rec.name)
                }
            }
            Type::Array(e, n) => write!(f, "{}[{n}]", TypeName(self.0, e)),
            Type::Pointer(p) => {
                if p.space != AddrSpace::Generic {
                    write!(f, "{} ", p.space.name())?;
                }
                if p.konst && p.space != AddrSpace::Constant {
                    write!(f, "const ")?;
                }
                if p.volatile {
                    write!(f, "volatile ")?;
                }
                write!(f, "{} *", TypeName(self.0, &p.ty))
            }
        }
    }
}

/// The built-in type names: scalars, their OpenCL aliases, vectors of
/// 2/3/4/8/16 (and `boolN`), atomics. Used by the parser to recognise
/// type specifiers.
pub fn builtin_type_names() -> Vec<(String, Type)> {
    use Scalar::*;
    let scalars = [
        Bool, Char, UChar, Short, UShort, Int, UInt, Long, ULong, Half, Float, Double,
    ];
    let mut v: Vec<(String, Type)> = Vec::new();
    for s in scalars {
        if !matches!(s, Char | Short | Int | Long | Half | Float | Double | Bool) {
            v.push((s.name().to_string(), Type::Scalar(s)));
        }
        for n in [2u8, 3, 4, 8, 16] {
            v.push((format!("{}{n}", s.name()), Type::Vector(s, n)));
        }
    }
    for (n, t) in [
        ("size_t", ULong),
        ("uintptr_t", ULong),
        ("ptrdiff_t", Long),
        ("intptr_t", Long),
        ("cl_mem_fence_flags", UInt),
        ("memory_order", Int),
        ("memory_scope", Int),
        // Async copies complete before they return (`wait_group_events` is
        // a barrier), so an event is only a number.
        ("event_t", UInt),
    ] {
        v.push((n.to_string(), Type::Scalar(t)));
    }
    for (n, t) in [
        ("atomic_int", Int),
        // clang's `typedef atomic_int atomic_flag;` (ATOMIC_FLAG_INIT is 0).
        ("atomic_flag", Int),
        ("atomic_uint", UInt),
        ("atomic_long", Long),
        ("atomic_ulong", ULong),
        ("atomic_float", Float),
        ("atomic_double", Double),
        ("atomic_size_t", ULong),
        ("atomic_intptr_t", Long),
        ("atomic_uintptr_t", ULong),
        ("atomic_ptrdiff_t", Long),
    ] {
        v.push((n.to_string(), Type::Atomic(t)));
    }
    v
}
