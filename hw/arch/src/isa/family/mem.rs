//! Helpers shared by the memory families (DS, FLAT/GLOBAL/SCRATCH, MUBUF/MTBUF):
//! per-opcode property bits derived once from the tables, VGPR/SGPR field
//! checks, and the assembler's split of a line into operands and modifiers.

use std::sync::OnceLock;

use crate::isa::operand::{classify, SrcKind, VGPR_BASE};
use crate::isa::syntax::{parse_int, AsmLine, Token};
use crate::isa::tables::{self, OpInfo};
use crate::isa::{AsmError, DecodeError, EncodeError, Family, Isa, Operand, OperandType, Target};

/// DS: two 8-bit offsets (`offset0:`/`offset1:`) instead of one 16-bit offset.
pub(super) const TWO_OFFSETS: u16 = 1 << 0;
/// DS: the instruction exists only with the `gds` bit (GWS, ordered count).
pub(super) const NEEDS_GDS: u16 = 1 << 1;
/// DS: `ds_swizzle_b32`, whose offset prints as `swizzle(...)`.
pub(super) const SWIZZLE: u16 = 1 << 2;
/// `ds_nop`: no offset, no gds.
pub(super) const NOP: u16 = 1 << 3;
/// An atomic (FLAT/GLOBAL/MUBUF `*_atomic_*`), which returns the old value when `glc` is set.
pub(super) const ATOMIC: u16 = 1 << 4;
/// A compare-and-swap atomic: its data is twice as wide as its result.
pub(super) const CMPSWAP: u16 = 1 << 5;
/// GLOBAL `*_addtid`: no VGPR address.
pub(super) const ADDTID: u16 = 1 << 6;
/// A store (`*_store_*`).
pub(super) const STORE: u16 = 1 << 7;
/// A load (`*_load_*`).
pub(super) const LOAD: u16 = 1 << 8;
/// No operands at all (`buffer_wbinvl1`, `buffer_gl0_inv`, ...).
pub(super) const NO_OPERANDS: u16 = 1 << 9;
/// A 16-bit (`d16`) load or store.
pub(super) const D16: u16 = 1 << 10;
/// DS: never takes the `gds` bit (`ds_permute_b32`, `ds_bpermute_b32`).
pub(super) const NO_GDS: u16 = 1 << 12;
/// gfx803 `buffer_store_lds_dword`: LDS to memory, only `srsrc, soffset` and a mandatory `lds`.
pub(super) const STORE_LDS: u16 = 1 << 11;

/// The families whose property bits are computed here, in table order.
const FAMILIES: [Family; 6] = [
    Family::Ds,
    Family::Flat,
    Family::Global,
    Family::Scratch,
    Family::Mubuf,
    Family::Mtbuf,
];

/// The property bits of a mnemonic (see the constants above).
fn flags_of(row: &OpInfo) -> u16 {
    let m = row.opcode.mnemonic();
    let mut f = 0;
    if m.starts_with("ds_read2") || m.starts_with("ds_write2") || m.starts_with("ds_wrxchg2") {
        f |= TWO_OFFSETS;
    }
    if m.starts_with("ds_gws_") || m == "ds_ordered_count" {
        f |= NEEDS_GDS;
    }
    if m == "ds_swizzle_b32" {
        f |= SWIZZLE;
    }
    if m == "ds_nop" {
        f |= NOP;
    }
    if m.contains("_atomic_") {
        f |= ATOMIC;
    }
    if m.contains("cmpswap") {
        f |= CMPSWAP;
    }
    if m.contains("_addtid") {
        f |= ADDTID;
    }
    if m.contains("_store_") {
        f |= STORE;
    }
    if m.contains("_load_") {
        f |= LOAD;
    }
    if m == "ds_permute_b32" || m == "ds_bpermute_b32" {
        f |= NO_GDS;
    }
    if m == "buffer_store_lds_dword" {
        f |= STORE_LDS;
    }
    if m.contains("d16") {
        f |= D16;
    }
    if row.operands.is_empty() {
        f |= NO_OPERANDS;
    }
    f
}

/// Property bits per (ISA, family, opcode number), computed once from the tables
/// so decoding does no string work.
type FlagTable = [[[u16; 256]; FAMILIES.len()]; 2];

fn flag_table() -> &'static FlagTable {
    static TABLE: OnceLock<Box<FlagTable>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([[[0u16; 256]; FAMILIES.len()]; 2]);
        for (i, isa) in [Isa::Gfx803, Isa::Gfx1030].into_iter().enumerate() {
            for (j, family) in FAMILIES.into_iter().enumerate() {
                for number in 0..256u16 {
                    if let Some(row) = tables::lookup(isa, family, number) {
                        t[i][j][usize::from(number)] = flags_of(row);
                    }
                }
            }
        }
        t
    })
}

/// The property bits of `row` on `isa`.
#[inline]
pub(super) fn flags(isa: Isa, row: &OpInfo) -> u16 {
    let j = match row.family {
        Family::Ds => 0,
        Family::Flat => 1,
        Family::Global => 2,
        Family::Scratch => 3,
        Family::Mubuf => 4,
        Family::Mtbuf => 5,
        _ => return 0,
    };
    let i = usize::from(isa == Isa::Gfx1030);
    flag_table()[i][j]
        .get(usize::from(row.number))
        .copied()
        .unwrap_or(0)
}

/// An [`DecodeError::InvalidOperand`] at offset 0 (off the decoder's fast path).
#[cold]
#[inline(never)]
pub(super) fn invalid(what: impl Into<String>) -> DecodeError {
    DecodeError::InvalidOperand {
        offset: 0,
        what: what.into(),
    }
}

/// The operand type of the `field` operand of `row`, if it has one.
#[inline]
pub(super) fn field_type(row: &OpInfo, field: crate::isa::Field) -> Option<OperandType> {
    row.operands.iter().find(|s| s.field == field).map(|s| s.ty)
}

/// A VGPR range starting at `n` (an 8-bit field), rejected when it runs past v255.
#[inline]
pub(super) fn vgpr(
    target: Target,
    n: u32,
    ty: OperandType,
    name: &str,
) -> Result<Operand, DecodeError> {
    let dwords = u32::from(ty.dwords(target));
    if n + dwords > 256 {
        return Err(vgpr_overflow(n, dwords, name));
    }
    Ok(Operand::vgpr(n as u16, ty))
}

#[cold]
#[inline(never)]
fn vgpr_overflow(n: u32, dwords: u32, name: &str) -> DecodeError {
    invalid(format!(
        "{name} v{n} with {dwords} registers runs past v255"
    ))
}

/// The first VGPR number of a VGPR operand, for an 8-bit field.
pub(super) fn vgpr_number(op: &Operand, name: &str) -> Result<u32, EncodeError> {
    match *op {
        Operand::Src { code, .. } if code >= VGPR_BASE => Ok(u32::from(code - VGPR_BASE)),
        _ => Err(EncodeError::OperandOutOfRange(format!(
            "{name} must be a VGPR, found {op:?}"
        ))),
    }
}

/// The SGPR-space code of a scalar register operand.
pub(super) fn scalar_code(op: &Operand, name: &str) -> Result<u32, EncodeError> {
    match *op {
        Operand::Src { code, .. } if code < VGPR_BASE => Ok(u32::from(code)),
        _ => Err(EncodeError::OperandOutOfRange(format!(
            "{name} must be a scalar register, found {op:?}"
        ))),
    }
}

/// True when `code` starts a valid range of `dwords` scalar registers (SGPRs,
/// TTMPs or a named pair such as `vcc`/`exec`) aligned as LLVM requires.
#[inline]
pub(super) fn scalar_range_ok(isa: Isa, code: u16, dwords: u8) -> bool {
    let align = match dwords {
        1 => 1,
        2 => 2,
        _ => 4,
    };
    // Fast path: an SGPR range well inside the SGPRs of both ISAs.
    if code + u16::from(dwords) <= 100 {
        return code % align == 0;
    }
    match classify(isa, code) {
        SrcKind::Sgpr(n) => {
            let last_sgpr = if isa == Isa::Gfx803 { 101 } else { 105 };
            // gfx803 allows the quad s[100:103] (its last SGPRs overlap flat_scratch in the numbering).
            let limit = if isa == Isa::Gfx803 && dwords == 4 {
                103
            } else {
                last_sgpr
            };
            n % align == 0 && n + u16::from(dwords) - 1 <= limit
        }
        SrcKind::Ttmp(n) => {
            n % align == 0 && n + u16::from(dwords) <= 16 - if isa == Isa::Gfx803 { 4 } else { 0 }
        }
        SrcKind::Named(_, pair) => match dwords {
            1 => true,
            2 => pair.is_some(),
            _ => false,
        },
        _ => false,
    }
}

/// A VGPR type `extra` dwords wider (TFE status dword, ...).
pub(super) fn widen(ty: OperandType, extra: u8) -> Option<OperandType> {
    let dwords = match ty {
        OperandType::B16 | OperandType::F16 | OperandType::V2B16 | OperandType::V2F16 => 1,
        OperandType::B32 | OperandType::F32 => 1,
        OperandType::B64 | OperandType::F64 => 2,
        OperandType::B96 => 3,
        OperandType::B128 => 4,
        OperandType::B160 => 5,
        _ => return None,
    } + extra;
    Some(match dwords {
        1 => OperandType::B32,
        2 => OperandType::B64,
        3 => OperandType::B96,
        4 => OperandType::B128,
        5 => OperandType::B160,
        _ => return None,
    })
}

/// A VGPR type half as wide (the result of a compare-and-swap).
pub(super) fn halve(ty: OperandType) -> OperandType {
    match ty {
        OperandType::B64 | OperandType::F64 => OperandType::B32,
        OperandType::B128 => OperandType::B64,
        other => other,
    }
}

/// Writes the mnemonic and the operands, comma-separated.
pub(super) fn write_operands(
    f: &mut std::fmt::Formatter<'_>,
    target: Target,
    mnemonic: &str,
    ops: &[Operand],
) -> std::fmt::Result {
    f.write_str(mnemonic)?;
    for (i, op) in ops.iter().enumerate() {
        f.write_str(if i == 0 { " " } else { ", " })?;
        op.write(target, f)?;
    }
    Ok(())
}

/// The names of the flag modifiers (no value) the memory families know.
const FLAG_NAMES: [&str; 10] = [
    "offen", "idxen", "addr64", "glc", "slc", "dlc", "gds", "lds", "tfe", "nv",
];
/// The names of the valued modifiers (`name:value`).
const VALUE_NAMES: [&str; 4] = ["offset", "offset0", "offset1", "format"];

/// A line's tokens split into operands (in order) and modifiers.
pub(super) struct Split<'l, 'a> {
    /// Operand tokens, in order.
    pub operands: Vec<&'l Token<'a>>,
    /// Modifier tokens.
    pub modifiers: Vec<&'l Token<'a>>,
}

/// Splits a line into operand tokens and modifier tokens (flags such as `glc`
/// and `name:value` modifiers), which LLVM accepts in any order after the operands.
pub(super) fn split<'l, 'a>(line: &'l AsmLine<'a>) -> Result<Split<'l, 'a>, AsmError> {
    let mut s = Split {
        operands: Vec::new(),
        modifiers: Vec::new(),
    };
    for t in &line.tokens {
        let is_mod = FLAG_NAMES.contains(&t.text)
            || t.text
                .split_once(':')
                .is_some_and(|(name, _)| VALUE_NAMES.contains(&name));
        if is_mod {
            s.modifiers.push(t);
        } else if !s.modifiers.is_empty() {
            return Err(t.error(format!("unexpected `{}` after the modifiers", t.text)));
        } else {
            s.operands.push(t);
        }
    }
    Ok(s)
}

/// Checks the operand count: reports the first extra token or the missing operand by name.
pub(super) fn expect_operands(
    line: &AsmLine<'_>,
    ops: &[&Token<'_>],
    names: &[&str],
) -> Result<(), AsmError> {
    if let Some(extra) = ops.get(names.len()) {
        return Err(extra.error(format!("unexpected operand `{}`", extra.text)));
    }
    if let Some(name) = names.get(ops.len()) {
        return Err(line.missing(name));
    }
    Ok(())
}

/// Parses the value of an integer modifier within `min..=max`.
pub(super) fn int_value(
    token: &Token<'_>,
    value: &str,
    min: i64,
    max: i64,
) -> Result<i64, AsmError> {
    match parse_int(value) {
        Some(v) if (min..=max).contains(&v) => Ok(v),
        Some(v) => Err(token.error(format!(
            "`{v}` is out of range {min}..={max} for `{}`",
            token.text
        ))),
        None => Err(token.error(format!("expected an integer in `{}`", token.text))),
    }
}

/// Sets a flag modifier, rejecting a repeat.
pub(super) fn set_flag(token: &Token<'_>, slot: &mut bool) -> Result<(), AsmError> {
    if *slot {
        return Err(token.error(format!("`{}` given twice", token.text)));
    }
    *slot = true;
    Ok(())
}

/// Parses `off`.
pub(super) fn is_off(token: &Token<'_>) -> bool {
    token.text == "off"
}

/// Parses a scalar register range of `dwords` registers (SGPRs, TTMPs, named).
pub(super) fn parse_sreg(
    target: Target,
    token: &Token<'_>,
    ty: OperandType,
    what: &str,
) -> Result<Operand, AsmError> {
    let op = crate::isa::syntax::parse_src(target, token, ty)?;
    match op {
        Operand::Src { code, .. }
            if code < VGPR_BASE && scalar_range_ok(target.isa, code, ty.dwords(target)) =>
        {
            Ok(op)
        }
        _ => Err(token.error(format!("expected {what}, found `{}`", token.text))),
    }
}

/// Test helpers shared by the memory families' unit tests.
#[cfg(test)]
pub(super) mod testutil {
    use crate::isa::{assemble, decode, encode, AsmError, DecodeError, Target};

    /// Little-endian bytes of `words`.
    pub fn bytes(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// `words` decode to `text` (LLVM's), encode back to `words`, and `text` assembles to `words`.
    pub fn check(target: Target, words: &[u32], text: &str) {
        let b = bytes(words);
        let inst = decode(target, &b).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(inst.to_string(), text, "{words:08x?}");
        assert_eq!(usize::from(inst.size), b.len(), "{text}");
        let mut out = Vec::new();
        encode(&inst, &mut out).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(out, b, "{text}: encode");
        assert_eq!(
            assemble(target, text).unwrap_or_else(|e| panic!("{text}: {e}")),
            b,
            "{text}: assemble"
        );
    }

    /// `text` (a hand-written form) assembles to `words`.
    pub fn asm(target: Target, text: &str, words: &[u32]) {
        assert_eq!(
            assemble(target, text).unwrap_or_else(|e| panic!("{text}: {e}")),
            bytes(words),
            "{text}"
        );
    }

    /// `text` does not assemble; returns the error.
    pub fn asm_err(target: Target, text: &str) -> AsmError {
        match assemble(target, text) {
            Ok(b) => panic!("`{text}` assembled to {b:02x?}"),
            Err(e) => e,
        }
    }

    /// `words` do not decode; returns the error.
    pub fn dec_err(target: Target, words: &[u32]) -> DecodeError {
        match decode(target, &bytes(words)) {
            Ok(i) => panic!("{words:08x?} decoded as `{i}`"),
            Err(e) => e,
        }
    }
}
