//! Errors of decoding, encoding and assembling.

use thiserror::Error;

use super::{Family, Opcode};

/// Why bytes did not decode. Every variant names the byte offset of the
/// instruction in the input given to [`decode_all`](super::decode_all) (0 for
/// [`decode`](super::decode)).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DecodeError {
    /// The input ends inside an instruction.
    #[error("truncated instruction at byte offset {offset:#x}: needs {needed} bytes, {available} available")]
    Truncated {
        /// Byte offset of the instruction.
        offset: usize,
        /// Bytes the instruction needs.
        needed: usize,
        /// Bytes that were there.
        available: usize,
    },
    /// The first word matches no encoding family of the ISA.
    #[error(
        "invalid encoding at byte offset {offset:#x}: word {word:#010x} matches no encoding family"
    )]
    InvalidEncoding {
        /// Byte offset of the instruction.
        offset: usize,
        /// The first dword.
        word: u32,
    },
    /// The family is known but the opcode field names no instruction.
    #[error("invalid opcode at byte offset {offset:#x}: {family} opcode {opcode} does not exist")]
    InvalidOpcode {
        /// Byte offset of the instruction.
        offset: usize,
        /// Encoding family.
        family: Family,
        /// The opcode field.
        opcode: u16,
    },
    /// An operand or modifier field holds a value the ISA does not allow.
    #[error("invalid operand at byte offset {offset:#x}: {what}")]
    InvalidOperand {
        /// Byte offset of the instruction.
        offset: usize,
        /// Which field and value.
        what: String,
    },
    /// A real instruction or encoding this model does not implement.
    #[error("not implemented at byte offset {offset:#x}: {what}")]
    Unimplemented {
        /// Byte offset of the instruction.
        offset: usize,
        /// What is missing (family, opcode, mnemonic).
        what: String,
    },
}

impl DecodeError {
    /// True for bytes that are no instruction of the ISA at all (an invalid
    /// encoding, opcode or operand, or input that ends inside an instruction),
    /// as opposed to a real instruction this model does not implement.
    pub fn is_invalid(&self) -> bool {
        !matches!(self, DecodeError::Unimplemented { .. })
    }

    /// The byte offset the error refers to.
    pub fn offset(&self) -> usize {
        match self {
            DecodeError::Truncated { offset, .. }
            | DecodeError::InvalidEncoding { offset, .. }
            | DecodeError::InvalidOpcode { offset, .. }
            | DecodeError::InvalidOperand { offset, .. }
            | DecodeError::Unimplemented { offset, .. } => *offset,
        }
    }

    /// The same error moved by `base` bytes (for errors found inside a larger buffer).
    pub fn at(self, base: usize) -> DecodeError {
        match self {
            DecodeError::Truncated {
                offset,
                needed,
                available,
            } => DecodeError::Truncated {
                offset: offset + base,
                needed,
                available,
            },
            DecodeError::InvalidEncoding { offset, word } => DecodeError::InvalidEncoding {
                offset: offset + base,
                word,
            },
            DecodeError::InvalidOpcode {
                offset,
                family,
                opcode,
            } => DecodeError::InvalidOpcode {
                offset: offset + base,
                family,
                opcode,
            },
            DecodeError::InvalidOperand { offset, what } => DecodeError::InvalidOperand {
                offset: offset + base,
                what,
            },
            DecodeError::Unimplemented { offset, what } => DecodeError::Unimplemented {
                offset: offset + base,
                what,
            },
        }
    }
}

/// Why an instruction could not be encoded.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EncodeError {
    /// The opcode has no encoding in the requested family on this ISA.
    #[error("{opcode:?} has no {family} encoding on this ISA")]
    NoEncoding {
        /// The opcode.
        opcode: Opcode,
        /// The family asked for.
        family: Family,
    },
    /// An operand or field does not fit its encoding field.
    #[error("operand does not fit: {0}")]
    OperandOutOfRange(String),
    /// Encoding of this family is not implemented.
    #[error("encoding not implemented: {0}")]
    Unimplemented(String),
}

/// An assembler error, with the 1-based line and column of the offending text.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{line}:{column}: {message}")]
pub struct AsmError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong, in words.
    pub message: String,
}

impl AsmError {
    /// An error at column `column` of an as-yet-unknown line (the line is filled in by
    /// [`assemble`](super::assemble)).
    pub fn at_column(column: usize, message: impl Into<String>) -> AsmError {
        AsmError {
            line: 0,
            column,
            message: message.into(),
        }
    }
}
