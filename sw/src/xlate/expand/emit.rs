//! The translator's output: gfx1030 wave64 instructions built as typed
//! [`Instruction`] values, encoded with `arch::isa::encode` into an
//! [`Emitter`] that also keeps the branches to patch. Everything that writes
//! output (the ABI prologue and every expansion) builds on this file.

use arch::isa::{encode, Family, Instruction, Opcode, Operand, OperandType, Variant, MAX_OPERANDS};

use crate::xlate::{XlateError, OUTPUT};

/// An instruction that failed to encode, before its legacy offset is known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmitError {
    /// The instruction's text.
    pub text: String,
    /// The encoder's message.
    pub reason: String,
}

impl EmitError {
    /// The error for the legacy instruction at byte `offset`.
    pub fn at(self, offset: u32) -> XlateError {
        XlateError::Encode {
            offset: offset as usize,
            text: self.text,
            reason: self.reason,
        }
    }
}

/// A branch whose offset is patched once every expansion's position is known.
#[derive(Clone, Copy, Debug)]
pub(super) struct Fixup {
    /// Byte position of the SOPP word in the output.
    pub(super) at: usize,
    /// Index of the kept legacy instruction it jumps to.
    pub(super) target: u32,
    /// Legacy byte offset of the branch (for errors).
    pub(super) legacy: u32,
}

/// The output buffer: encoded bytes, an instruction count, pending branches.
#[derive(Debug, Default)]
pub struct Emitter {
    pub(super) bytes: Vec<u8>,
    pub(super) count: u64,
    pub(super) fixups: Vec<Fixup>,
}

impl Emitter {
    /// An empty output.
    pub fn new() -> Emitter {
        Emitter::default()
    }

    /// An empty output with room for `bytes` bytes.
    pub fn with_capacity(bytes: usize) -> Emitter {
        Emitter {
            bytes: Vec::with_capacity(bytes),
            ..Emitter::default()
        }
    }

    /// Encodes and appends `inst`.
    pub fn emit(&mut self, inst: &Instruction) -> Result<(), EmitError> {
        encode(inst, &mut self.bytes).map_err(|e| EmitError {
            text: inst.to_string(),
            reason: e.to_string(),
        })?;
        self.count += 1;
        Ok(())
    }

    /// Appends a branch to kept legacy instruction `target`, patched by
    /// [`expand_program`](super::expand_program).
    pub(super) fn emit_branch(
        &mut self,
        inst: &Instruction,
        target: u32,
        legacy: u32,
    ) -> Result<(), EmitError> {
        let at = self.bytes.len();
        self.emit(inst)?;
        self.fixups.push(Fixup { at, target, legacy });
        Ok(())
    }

    /// Bytes so far.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Instructions so far.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The encoded program.
    pub fn finish(self) -> Vec<u8> {
        self.bytes
    }
}

/// Debug builds (every `cargo test` without `--release`): the direct
/// encoding of `inst` is exactly what `arch`'s encoder writes.
#[inline]
pub(super) fn check_direct(inst: &Instruction, bytes: &[u8]) {
    if cfg!(debug_assertions) {
        let mut expected = Vec::new();
        let r = encode(inst, &mut expected);
        assert!(
            r.is_ok() && expected == bytes,
            "{inst}: direct encoding {bytes:02x?}, arch {r:?} {expected:02x?}"
        );
    }
}

/// A gfx1030 wave64 instruction with default modifiers.
pub fn inst(opcode: Opcode, family: Family, operands: &[Operand]) -> Instruction {
    let mut ops = [Operand::Off; MAX_OPERANDS];
    ops[..operands.len()].copy_from_slice(operands);
    Instruction {
        target: OUTPUT,
        opcode,
        family,
        variant: Variant::Plain,
        operands: ops,
        operand_count: operands.len() as u8,
        modifiers: Default::default(),
        size: 0,
    }
}

/// `s_mov_b32 s{sgpr}, value`.
pub fn mov_imm(sgpr: u16, value: u32) -> Instruction {
    inst(
        Opcode::S_MOV_B32,
        Family::Sop1,
        &[Operand::scalar(sgpr, OperandType::B32), constant(value)],
    )
}

/// An inline constant when `value` has one, else a literal.
pub fn constant(value: u32) -> Operand {
    match arch::isa::operand::inline_code_for(value, OperandType::B32) {
        Some(code) => Operand::scalar(code, OperandType::B32),
        None => Operand::Literal {
            value,
            ty: OperandType::B32,
        },
    }
}
