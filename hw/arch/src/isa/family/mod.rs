//! One module per encoding family: bit layout (decode/encode), LLVM's text
//! (format) and LLVM's syntax (parse). Every module has the same four functions;
//! this file routes to them.

use std::fmt;

use super::syntax::AsmLine;
use super::{
    AsmError, DecodeError, EncodeError, Family, Instruction, Isa, OpInfo, Target, Variant,
};

mod ds;
mod flat;
mod mem;
mod mem_fill;
mod mubuf;
mod smem;
mod sop;
mod vop;

pub use vop::{float_input_modifiers, InputModifiers};

#[cfg(test)]
mod fill_tests;

/// Decodes an instruction of a known family. Inlined into the top-level decoder:
/// each family's decoder is a separate function, so this is a jump table.
#[inline(always)]
pub(crate) fn decode(
    target: Target,
    family: Family,
    bytes: &[u8],
) -> Result<Instruction, DecodeError> {
    match family {
        Family::Sop1 | Family::Sop2 | Family::Sopk | Family::Sopc | Family::Sopp => {
            sop::decode(target, family, bytes)
        }
        Family::Smem => smem::decode(target, family, bytes),
        Family::Vop1 | Family::Vop2 | Family::Vopc | Family::Vop3 | Family::Vop3p => {
            vop::decode(target, family, bytes)
        }
        Family::Ds => ds::decode(target, family, bytes),
        Family::Flat | Family::Global | Family::Scratch => flat::decode(target, family, bytes),
        Family::Mubuf | Family::Mtbuf => mubuf::decode(target, family, bytes),
    }
}

/// The fast path of the most frequent encodings (scalar ALU, plain VOP1/VOP2/VOPC,
/// VOP3, SMEM, DS, FLAT/GLOBAL/SCRATCH, MUBUF): completes `inst`, whose target is set and whose other fields are
/// defaults, from its first word `word` and `bytes`, family included (each
/// family's fast path recognises its words as `decode::identify` does). False
/// means "not sure": the caller then runs the full decoder, which decides and
/// names any error. `fill_tests.rs` checks every fast path against it.
#[inline(always)]
pub(crate) fn fill(inst: &mut Instruction, word: u32, bytes: &[u8]) -> bool {
    if word >> 23 == 0x17f {
        return sop::fill_sopp(inst, word);
    }
    if word >> 30 == 0b10 {
        return sop::fill(inst, word, bytes);
    }
    if word >> 31 == 0 {
        return vop::fill_e32(inst, word, bytes);
    }
    match (inst.target.isa, word >> 26) {
        (Isa::Gfx1030, 0x35) | (Isa::Gfx803, 0x34) => vop::fill_vop3(inst, word, bytes),
        (Isa::Gfx1030, 0x3d) | (Isa::Gfx803, 0x30) => smem::fill(inst, word, bytes),
        (_, 0x36) => ds::fill(inst, word, bytes),
        (_, 0x37) => flat::fill(inst, word, bytes),
        (_, 0x38) => mubuf::fill(inst, word, bytes),
        _ => false,
    }
}

/// Encodes an instruction in its family.
pub(crate) fn encode(inst: &Instruction, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    match inst.family {
        Family::Sop1 | Family::Sop2 | Family::Sopk | Family::Sopc | Family::Sopp => {
            sop::encode(inst, out)
        }
        Family::Smem => smem::encode(inst, out),
        Family::Vop1 | Family::Vop2 | Family::Vopc | Family::Vop3 | Family::Vop3p => {
            vop::encode(inst, out)
        }
        Family::Ds => ds::encode(inst, out),
        Family::Flat | Family::Global | Family::Scratch => flat::encode(inst, out),
        Family::Mubuf | Family::Mtbuf => mubuf::encode(inst, out),
    }
}

/// Writes LLVM's text of an instruction.
pub(crate) fn format(inst: &Instruction, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match inst.family {
        Family::Sop1 | Family::Sop2 | Family::Sopk | Family::Sopc | Family::Sopp => {
            sop::format(inst, f)
        }
        Family::Smem => smem::format(inst, f),
        Family::Vop1 | Family::Vop2 | Family::Vopc | Family::Vop3 | Family::Vop3p => {
            vop::format(inst, f)
        }
        Family::Ds => ds::format(inst, f),
        Family::Flat | Family::Global | Family::Scratch => flat::format(inst, f),
        Family::Mubuf | Family::Mtbuf => mubuf::format(inst, f),
    }
}

/// Parses one assembly line whose mnemonic resolved to `info` (and SDWA/DPP
/// `variant` from its suffix).
pub(crate) fn parse(
    target: Target,
    info: &'static OpInfo,
    variant: Variant,
    line: &AsmLine<'_>,
) -> Result<Instruction, AsmError> {
    match info.family {
        Family::Sop1 | Family::Sop2 | Family::Sopk | Family::Sopc | Family::Sopp => {
            sop::parse(target, info, variant, line)
        }
        Family::Smem => smem::parse(target, info, variant, line),
        Family::Vop1 | Family::Vop2 | Family::Vopc | Family::Vop3 | Family::Vop3p => {
            vop::parse(target, info, variant, line)
        }
        Family::Ds => ds::parse(target, info, variant, line),
        Family::Flat | Family::Global | Family::Scratch => flat::parse(target, info, variant, line),
        Family::Mubuf | Family::Mtbuf => mubuf::parse(target, info, variant, line),
    }
}
