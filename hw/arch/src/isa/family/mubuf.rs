//! mubuf encoding family — NOT YET IMPLEMENTED (stub: every entry point reports so).

use std::fmt;

use crate::isa::asm::AsmLine;
use crate::isa::{
    AsmError, DecodeError, EncodeError, Family, Instruction, OpInfo, Target, Variant,
};

pub(crate) fn decode(
    _target: Target,
    family: Family,
    _bytes: &[u8],
) -> Result<Instruction, DecodeError> {
    Err(DecodeError::Unimplemented {
        offset: 0,
        what: format!("{family} decoding"),
    })
}

pub(crate) fn encode(inst: &Instruction, _out: &mut Vec<u8>) -> Result<(), EncodeError> {
    Err(EncodeError::Unimplemented(format!(
        "{} encoding",
        inst.family
    )))
}

pub(crate) fn format(inst: &Instruction, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    f.write_str(inst.opcode.mnemonic())
}

pub(crate) fn parse(
    _target: Target,
    info: &'static OpInfo,
    _variant: Variant,
    line: &AsmLine<'_>,
) -> Result<Instruction, AsmError> {
    Err(AsmError::at_column(
        line.mnemonic_column,
        format!("{} assembly is not implemented", info.family),
    ))
}
