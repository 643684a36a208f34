//! Encoding: the family's module writes the words.

use super::{family, EncodeError, Instruction};

/// Encodes `inst`, appending its bytes (including any literal) to `out`.
pub fn encode(inst: &Instruction, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    family::encode(inst, out)
}
