//! Typed, checked access to argument values, used by the CPU references
//! (and usable by drivers). A wrong kind or a too-short buffer is an error,
//! never a panic.

use crate::error::CorpusError;
use crate::types::{ArgValue, BufferData, ElemType, ScalarValue};

/// A Rust type that can be the element type of a corpus buffer.
pub trait Elem: Copy + 'static {
    /// The matching buffer element type.
    const TYPE: ElemType;
    /// The elements, when `data` holds this type.
    fn slice(data: &BufferData) -> Option<&[Self]>;
    /// The elements, mutably, when `data` holds this type.
    fn slice_mut(data: &mut BufferData) -> Option<&mut [Self]>;
}

macro_rules! impl_elem {
    ($t:ty, $variant:ident) => {
        impl Elem for $t {
            const TYPE: ElemType = ElemType::$variant;
            fn slice(data: &BufferData) -> Option<&[Self]> {
                match data {
                    BufferData::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn slice_mut(data: &mut BufferData) -> Option<&mut [Self]> {
                match data {
                    BufferData::$variant(v) => Some(v),
                    _ => None,
                }
            }
        }
    };
}
impl_elem!(u8, U8);
impl_elem!(i8, I8);
impl_elem!(u16, U16);
impl_elem!(i16, I16);
impl_elem!(u32, U32);
impl_elem!(i32, I32);
impl_elem!(u64, U64);
impl_elem!(i64, I64);
impl_elem!(f32, F32);

fn kind_error(index: usize, expected: &'static str, found: Option<&ArgValue>) -> CorpusError {
    CorpusError::ArgKind {
        index,
        expected,
        found: found.map_or_else(
            || "nothing (missing argument)".to_string(),
            ArgValue::describe,
        ),
    }
}

fn buffer_name<T: Elem>() -> &'static str {
    match T::TYPE {
        ElemType::U8 => "uchar buffer",
        ElemType::I8 => "char buffer",
        ElemType::U16 => "ushort buffer",
        ElemType::I16 => "short buffer",
        ElemType::U32 => "uint buffer",
        ElemType::I32 => "int buffer",
        ElemType::U64 => "ulong buffer",
        ElemType::I64 => "long buffer",
        ElemType::F32 => "float buffer",
    }
}

/// Buffer argument `index` as `&[T]`, at least `min_len` elements long.
pub fn buffer<T: Elem>(
    args: &[ArgValue],
    index: usize,
    min_len: usize,
) -> Result<&[T], CorpusError> {
    let arg = args.get(index);
    let s = match arg {
        Some(ArgValue::Buffer(b)) => T::slice(b),
        _ => None,
    }
    .ok_or_else(|| kind_error(index, buffer_name::<T>(), arg))?;
    if s.len() < min_len {
        return Err(CorpusError::BufferTooShort {
            index,
            needed: min_len,
            len: s.len(),
        });
    }
    Ok(s)
}

/// Buffer argument `index` as `&mut [T]`, at least `min_len` elements long.
pub fn buffer_mut<T: Elem>(
    args: &mut [ArgValue],
    index: usize,
    min_len: usize,
) -> Result<&mut [T], CorpusError> {
    // Check the kind first with a shared borrow so the error can describe it.
    buffer::<T>(args, index, min_len)?;
    match args.get_mut(index) {
        Some(ArgValue::Buffer(b)) => {
            T::slice_mut(b).ok_or_else(|| kind_error(index, buffer_name::<T>(), None))
        }
        _ => Err(kind_error(index, buffer_name::<T>(), None)),
    }
}

/// Scalar argument `index`, which must be a `uint`.
pub fn scalar_u32(args: &[ArgValue], index: usize) -> Result<u32, CorpusError> {
    match args.get(index) {
        Some(ArgValue::Scalar(ScalarValue::U32(v))) => Ok(*v),
        other => Err(kind_error(index, "uint scalar", other)),
    }
}

/// Scalar argument `index`, which must be a `float`.
pub fn scalar_f32(args: &[ArgValue], index: usize) -> Result<f32, CorpusError> {
    match args.get(index) {
        Some(ArgValue::Scalar(ScalarValue::F32(v))) => Ok(*v),
        other => Err(kind_error(index, "float scalar", other)),
    }
}

/// LDS argument `index`: its size in bytes.
pub fn local_bytes(args: &[ArgValue], index: usize) -> Result<u32, CorpusError> {
    match args.get(index) {
        Some(ArgValue::Local { bytes }) => Ok(*bytes),
        other => Err(kind_error(index, "__local pointer", other)),
    }
}
