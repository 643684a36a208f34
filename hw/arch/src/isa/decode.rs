//! Decoding: identify the encoding family from the first dword, then let the
//! family's module read its fields.

use super::words::dword;
use super::{
    family, DecodeError, Family, Instruction, Isa, Modifiers, Opcode, Operand, Target, Variant,
    MAX_OPERANDS,
};

/// The encoding family of an instruction whose first dword is `word`, or `None`
/// when the word matches no family this crate knows (MIMG, EXP, VINTRP, ... are
/// reported as such by [`decode`]).
#[inline]
pub fn identify(isa: Isa, word: u32) -> Option<Family> {
    if word >> 31 == 0 {
        return Some(match word >> 25 {
            0x3e => Family::Vopc,
            0x3f => Family::Vop1,
            _ => Family::Vop2,
        });
    }
    if word >> 30 == 0b10 {
        return Some(match word >> 23 {
            0x17d => Family::Sop1,
            0x17e => Family::Sopc,
            0x17f => Family::Sopp,
            _ if word >> 28 == 0b1011 => Family::Sopk,
            _ => Family::Sop2,
        });
    }
    let major = word >> 26;
    match (isa, major) {
        (Isa::Gfx1030, 0x35) | (Isa::Gfx803, 0x34) => Some(Family::Vop3),
        (Isa::Gfx1030, 0x33) => Some(Family::Vop3p),
        (Isa::Gfx1030, 0x3d) | (Isa::Gfx803, 0x30) => Some(Family::Smem),
        (_, 0x36) => Some(Family::Ds),
        // FLAT/GLOBAL/SCRATCH share a major opcode; the segment field picks one.
        (Isa::Gfx1030, 0x37) => Some(match (word >> 14) & 3 {
            1 => Family::Scratch,
            2 => Family::Global,
            _ => Family::Flat,
        }),
        (Isa::Gfx803, 0x37) => Some(Family::Flat),
        (_, 0x38) => Some(Family::Mubuf),
        (_, 0x3a) => Some(Family::Mtbuf),
        _ => None,
    }
}

/// The instruction the fast path starts from and completes in place: every
/// field a default the fast paths overwrite (`Operand::Off` is discriminant 0,
/// so this is mostly zero bytes).
#[inline(always)]
pub(crate) fn fill_template(target: Target) -> Instruction {
    Instruction {
        target,
        opcode: Opcode::S_NOP,
        family: Family::Sopp,
        variant: Variant::Plain,
        operands: [Operand::Off; MAX_OPERANDS],
        operand_count: 0,
        modifiers: Modifiers::default(),
        size: 4,
    }
}

/// Decodes the instruction at the start of `bytes`.
///
/// Inlined into the caller so that the instruction the fast path completes is
/// the caller's own value (no copy out of this function); anything the fast path
/// is not sure of goes to the out-of-line full decoder.
#[inline]
pub fn decode(target: Target, bytes: &[u8]) -> Result<Instruction, DecodeError> {
    let mut inst = fill_template(target);
    if try_fill(&mut inst, bytes) {
        Ok(inst)
    } else {
        decode_slow(target, bytes)
    }
}

/// [`decode`] into `inst` (overwritten; unspecified after an error): the
/// instruction is completed where the caller keeps it — e.g. the slot of a
/// vector — instead of being returned and copied, which costs a large
/// unaligned copy of freshly written bytes per instruction in a decoding loop.
#[inline]
pub fn decode_into(
    target: Target,
    bytes: &[u8],
    inst: &mut Instruction,
) -> Result<(), DecodeError> {
    *inst = fill_template(target);
    if !try_fill(inst, bytes) {
        *inst = decode_slow(target, bytes)?;
    }
    Ok(())
}

/// The fast path of [`decode`]: for the most frequent encodings, completes `inst`
/// (fresh from [`decode`]) in place. False means "not sure", never "invalid".
/// It only reads the first word and jumps to a family's fast path, so it needs
/// no stack frame of its own.
#[inline(never)]
pub(crate) fn try_fill(inst: &mut Instruction, bytes: &[u8]) -> bool {
    let Some(word) = bytes.first_chunk::<4>() else {
        return false;
    };
    family::fill(inst, u32::from_le_bytes(*word), bytes)
}

/// The full decoder: every family, every check, errors that name the problem.
#[inline(never)]
pub(crate) fn decode_slow(target: Target, bytes: &[u8]) -> Result<Instruction, DecodeError> {
    let word = dword(bytes, 0)?;
    let Some(family) = identify(target.isa, word) else {
        return Err(unknown_encoding(target.isa, word));
    };
    family::decode(target, family, bytes)
}

/// The error for a first word of no family this crate models (off the hot
/// path): the ISA's real encodings that are not modelled (graphics-only MIMG,
/// EXP and VINTRP, as LLVM decodes them) are `Unimplemented`; every other
/// major opcode is no encoding at all (LLVM: "invalid instruction encoding").
#[cold]
#[inline(never)]
fn unknown_encoding(isa: Isa, word: u32) -> DecodeError {
    let unmodelled = match (isa, word >> 26) {
        (_, 0x3c) => Some("MIMG"),
        (Isa::Gfx803, 0x31) | (Isa::Gfx1030, 0x3e) => Some("EXP"),
        (Isa::Gfx803, 0x35) | (Isa::Gfx1030, 0x32) => Some("VINTRP"),
        _ => None,
    };
    match unmodelled {
        Some(name) => DecodeError::Unimplemented {
            offset: 0,
            what: format!("{name} encoding (word {word:#010x}) is not modelled"),
        },
        None => DecodeError::InvalidEncoding { offset: 0, word },
    }
}

/// Decodes a whole code buffer, instruction by instruction, returning each with
/// its byte offset. Stops at the first error, which names its offset in `bytes`.
pub fn decode_all(target: Target, bytes: &[u8]) -> Result<Vec<(usize, Instruction)>, DecodeError> {
    let mut out = Vec::with_capacity(bytes.len() / 6);
    let mut at = 0;
    while at < bytes.len() {
        let inst = decode(target, &bytes[at..]).map_err(|e| e.at(at))?;
        out.push((at, inst));
        at += usize::from(inst.size);
    }
    Ok(out)
}
