//! Instruction words in a byte buffer: the little-endian dword reads every
//! family's decoder makes, with the error for input that ends inside an
//! instruction. A leaf: the family files and `decode.rs` import it.

use super::DecodeError;

/// Reads the little-endian dword at `index` (in dwords) of `bytes`.
#[inline]
pub(crate) fn dword(bytes: &[u8], index: usize) -> Result<u32, DecodeError> {
    let start = index * 4;
    match bytes.get(start..start + 4) {
        Some(b) => Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        None => Err(truncated(start + 4, bytes.len())),
    }
}

/// The error for input that ends inside an instruction (off the hot path).
#[cold]
#[inline(never)]
fn truncated(needed: usize, available: usize) -> DecodeError {
    DecodeError::Truncated {
        offset: 0,
        needed,
        available,
    }
}
