//! MUBUF (untyped buffer) and MTBUF (typed buffer) encodings, both ISAs.
//!
//! ```text
//! MUBUF  gfx803  w0: offset[11:0] offen[12] idxen[13] glc[14] (15 reserved) lds[16] slc[17] op[24:18] (25 reserved)
//!        gfx1030 w0: offset[11:0] offen[12] idxen[13] glc[14] dlc[15] lds[16] (17 reserved) op[6:0]@[24:18] op[7]@25
//! MTBUF  gfx803  w0: offset[11:0] offen[12] idxen[13] glc[14] op[18:15] dfmt[22:19] nfmt[25:23]
//!        gfx1030 w0: offset[11:0] offen[12] idxen[13] glc[14] dlc[15] op[2:0]@[18:16] format[25:19]
//!        w0[31:26] = 0b111000 (MUBUF) / 0b111010 (MTBUF)
//! w1: vaddr[7:0] vdata[15:8] srsrc[20:16] (=SGPR/4) bit21 (gfx1030 MTBUF: op[3]) slc[22] tfe[23] soffset[31:24]
//!     (gfx803 MUBUF: bits 22:21 reserved, slc lives in word 0)
//! ```
//!
//! Printed: `vdata, vaddr, srsrc, soffset` then `format:` (MTBUF), `idxen offen
//! offset:N glc slc dlc lds tfe`. `vaddr` is `off` without idxen/offen, one VGPR
//! with one of them, a pair with both. `tfe` adds a status dword to `vdata`;
//! `lds` (MUBUF loads) writes LDS and drops `vdata`.

use std::fmt;

use super::mem::{self, ATOMIC, D16, LOAD, NO_OPERANDS, STORE_LDS};
use crate::isa::operand::{classify, SrcKind};
use crate::isa::syntax::{parse_src, parse_vgpr, AsmLine};
use crate::isa::tables::{self, Field};
use crate::isa::words::dword;
use crate::isa::{
    AsmError, DecodeError, EncodeError, Family, Instruction, Isa, Modifiers, OpInfo, Operand,
    OperandType, Target, Variant, MAX_OPERANDS,
};

mod fill;
mod format;

pub(super) use fill::fill;

/// Where the fields of one ISA/family combination live.
struct Layout {
    /// Major opcode, word 0 bits 31:26.
    encoding: u32,
    /// Word 0 bit of slc, or `None` when slc is word 1 bit 22.
    slc_w0: Option<u32>,
    /// Word 0 bit of dlc (gfx1030).
    dlc: Option<u32>,
    /// Word 0 bit of lds (MUBUF).
    lds: Option<u32>,
    /// Reserved bits that must be zero: word 0 mask, word 1 mask.
    reserved: (u32, u32),
}

#[inline(always)]
fn layout(isa: Isa, family: Family) -> Layout {
    match (isa, family) {
        (Isa::Gfx803, Family::Mubuf) => Layout {
            encoding: 0x38,
            slc_w0: Some(17),
            dlc: None,
            lds: Some(16),
            reserved: (1 << 15 | 1 << 25, 3 << 21),
        },
        (Isa::Gfx1030, Family::Mubuf) => Layout {
            encoding: 0x38,
            slc_w0: None,
            dlc: Some(15),
            lds: Some(16),
            reserved: (1 << 17, 1 << 21),
        },
        (Isa::Gfx803, _) => Layout {
            encoding: 0x3a,
            slc_w0: None,
            dlc: None,
            lds: None,
            reserved: (0, 1 << 21),
        },
        (Isa::Gfx1030, _) => Layout {
            encoding: 0x3a,
            slc_w0: None,
            dlc: Some(15),
            lds: None,
            reserved: (0, 0),
        },
    }
}

/// The opcode number in word 0/1.
#[inline(always)]
fn opcode_number(isa: Isa, family: Family, w0: u32, w1: u32) -> u16 {
    (match (isa, family) {
        (Isa::Gfx803, Family::Mubuf) => w0 >> 18 & 0x7f,
        (Isa::Gfx1030, Family::Mubuf) => (w0 >> 18 & 0x7f) | (w0 >> 25 & 1) << 7,
        (Isa::Gfx803, _) => w0 >> 15 & 0xf,
        (Isa::Gfx1030, _) => (w0 >> 16 & 7) | (w1 >> 21 & 1) << 3,
    }) as u16
}

/// Places opcode number `n` into the words.
fn place_opcode(isa: Isa, family: Family, n: u32) -> (u32, u32) {
    match (isa, family) {
        (Isa::Gfx803, Family::Mubuf) => (n << 18, 0),
        (Isa::Gfx1030, Family::Mubuf) => ((n & 0x7f) << 18 | (n >> 7 & 1) << 25, 0),
        (Isa::Gfx803, _) => (n << 15, 0),
        (Isa::Gfx1030, _) => ((n & 7) << 16, (n >> 3 & 1) << 21),
    }
}

/// True when `code` may be a `soffset` (any scalar register or inline constant; no literal).
#[inline]
fn soffset_ok(isa: Isa, code: u16) -> bool {
    if code <= 101 {
        return true; // an SGPR on both ISAs
    }
    !matches!(
        classify(isa, code),
        SrcKind::Invalid | SrcKind::Literal | SrcKind::Vgpr(_)
    )
}

/// The `vaddr` type for these idxen/offen bits, `None` for `off`.
#[inline(always)]
fn vaddr_type(m: &Modifiers) -> Option<OperandType> {
    match (m.idxen, m.offen) {
        (true, true) => Some(OperandType::B64),
        (false, false) => None,
        _ => Some(OperandType::B32),
    }
}

/// The printed `vdata` type: the row's, plus the TFE status dword; `None` with lds.
#[inline(always)]
fn vdata_type(row: &OpInfo, m: &Modifiers) -> Result<Option<OperandType>, String> {
    if m.lds {
        return Ok(None);
    }
    let ty = mem::field_type(row, Field::Vdata)
        .ok_or_else(|| format!("{} has no vdata", row.opcode.mnemonic()))?;
    if m.tfe {
        return mem::widen(ty, 1)
            .map(Some)
            .ok_or_else(|| "tfe widens vdata past 5 registers".to_string());
    }
    Ok(Some(ty))
}

/// A modifier combination LLVM rejects ([`modifiers_problem`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Problem {
    NoOperands,
    StoreLds,
    NoLds,
    NoLdsWithTfe,
    NoTfe,
    NoDlc,
    Gfx803Dlc,
    Offset,
}

/// Checks the modifier combinations LLVM accepts.
#[inline(always)]
fn check_modifiers(
    isa: Isa,
    family: Family,
    row: &OpInfo,
    flags: u16,
    m: &Modifiers,
) -> Result<(), String> {
    let Some(problem) = modifiers_problem(isa, family, row, flags, m) else {
        return Ok(());
    };
    let name = row.opcode.mnemonic();
    Err(match problem {
        Problem::NoOperands => format!("{name} takes no operands or modifiers"),
        Problem::StoreLds => format!("{name} takes lds and no idxen/offen/tfe"),
        Problem::NoLds => format!("{name} does not take lds"),
        Problem::NoLdsWithTfe => format!("{name} does not take lds with tfe"),
        Problem::NoTfe => format!("{name} does not take tfe"),
        Problem::NoDlc => format!("{name} does not take dlc"),
        Problem::Gfx803Dlc => "gfx803 has no dlc".to_string(),
        Problem::Offset => format!("buffer offset {} is not in 0..=4095", m.offset),
    })
}

/// The predicate of [`check_modifiers`], without building its message (the
/// fast path's plans call it for every combination of every row).
#[inline(always)]
fn modifiers_problem(
    isa: Isa,
    family: Family,
    row: &OpInfo,
    flags: u16,
    m: &Modifiers,
) -> Option<Problem> {
    if flags & NO_OPERANDS != 0 {
        if *m != Modifiers::default() {
            return Some(Problem::NoOperands);
        }
        return None;
    }
    if flags & STORE_LDS != 0 {
        if !m.lds || m.offen || m.idxen || m.tfe {
            return Some(Problem::StoreLds);
        }
    } else if m.lds && (family != Family::Mubuf || flags & (LOAD | D16) != LOAD || m.tfe) {
        return Some(if m.tfe {
            Problem::NoLdsWithTfe
        } else {
            Problem::NoLds
        });
    }
    if m.lds && mem::field_type(row, Field::Vdata).is_some_and(|t| t.dwords(Target::GFX803) != 1) {
        return Some(Problem::NoLds);
    }
    // LLVM 19 has no tfe form of atomics or of MTBUF.
    if m.tfe && (flags & ATOMIC != 0 || family == Family::Mtbuf) {
        return Some(Problem::NoTfe);
    }
    // gfx1030 atomics have no dlc form in LLVM 19.
    if m.dlc && flags & ATOMIC != 0 {
        return Some(Problem::NoDlc);
    }
    if m.dlc && isa == Isa::Gfx803 {
        return Some(Problem::Gfx803Dlc);
    }
    if !(0..=4095).contains(&m.offset) {
        return Some(Problem::Offset);
    }
    None
}

// Not inlined: the family dispatch stays small and passes its result slot on.
#[inline(never)]
pub(crate) fn decode(
    target: Target,
    family: Family,
    bytes: &[u8],
) -> Result<Instruction, DecodeError> {
    // One copy per ISA and family, so the layout look-ups fold to constants.
    match (target.isa, family) {
        (Isa::Gfx803, Family::Mubuf) => decode_in::<false, false>(target, bytes),
        (Isa::Gfx803, _) => decode_in::<false, true>(target, bytes),
        (Isa::Gfx1030, Family::Mubuf) => decode_in::<true, false>(target, bytes),
        (Isa::Gfx1030, _) => decode_in::<true, true>(target, bytes),
    }
}

#[inline(always)]
fn decode_in<const GFX10: bool, const TYPED: bool>(
    target: Target,
    bytes: &[u8],
) -> Result<Instruction, DecodeError> {
    let isa = if GFX10 { Isa::Gfx1030 } else { Isa::Gfx803 };
    let family = if TYPED { Family::Mtbuf } else { Family::Mubuf };
    let w0 = dword(bytes, 0)?;
    let w1 = dword(bytes, 1)?;
    let number = opcode_number(isa, family, w0, w1);
    let row = tables::lookup(isa, family, number).ok_or(DecodeError::InvalidOpcode {
        offset: 0,
        family,
        opcode: number,
    })?;
    let l = layout(isa, family);
    if w0 & l.reserved.0 != 0 || w1 & l.reserved.1 != 0 {
        return Err(mem::invalid(format!(
            "{family} reserved bits are set ({w0:#010x} {w1:#010x})"
        )));
    }
    let flags = mem::flags(isa, row);
    let bit = |w: u32, b: Option<u32>| b.is_some_and(|b| w >> b & 1 != 0);
    let m = Modifiers {
        offset: (w0 & 0xfff) as i32,
        offen: w0 >> 12 & 1 != 0,
        idxen: w0 >> 13 & 1 != 0,
        glc: w0 >> 14 & 1 != 0,
        dlc: bit(w0, l.dlc),
        lds: bit(w0, l.lds),
        slc: match l.slc_w0 {
            Some(b) => w0 >> b & 1 != 0,
            None => w1 >> 22 & 1 != 0,
        },
        tfe: w1 >> 23 & 1 != 0,
        format: if family == Family::Mtbuf {
            (w0 >> 19 & 0x7f) as u8
        } else {
            0
        },
        ..Modifiers::default()
    };
    let mut inst = Instruction {
        target,
        opcode: row.opcode,
        family,
        variant: Variant::Plain,
        operands: [Operand::Off; MAX_OPERANDS],
        operand_count: 0,
        modifiers: m,
        size: 8,
    };
    let (vaddr, vdata, srsrc, soffset) = (
        w1 & 0xff,
        w1 >> 8 & 0xff,
        w1 >> 16 & 0x1f,
        (w1 >> 24) as u16,
    );
    if flags & NO_OPERANDS != 0 {
        if w1 != 0 || w0 & 0x3_ffff != 0 || m.slc || m.tfe {
            return Err(mem::invalid(format!(
                "{} takes no operands or modifiers",
                row.opcode.mnemonic()
            )));
        }
        return Ok(inst);
    }
    check_modifiers(isa, family, row, flags, &m).map_err(mem::invalid)?;
    let mut ops = [Operand::Off; 4];
    let mut n = 0;
    match vdata_type(row, &m).map_err(mem::invalid)? {
        Some(ty) => {
            ops[n] = mem::vgpr(target, vdata, ty, "vdata")?;
            n += 1;
        }
        None if vdata != 0 => return Err(mem::invalid("vdata must be 0 with lds")),
        None => {}
    }
    match vaddr_type(&m) {
        Some(ty) => {
            ops[n] = mem::vgpr(target, vaddr, ty, "vaddr")?;
            n += 1;
        }
        None if vaddr != 0 => return Err(mem::invalid("vaddr must be 0 without idxen/offen")),
        // buffer_store_lds_dword prints no vaddr at all.
        None if flags & STORE_LDS != 0 => {}
        None => {
            ops[n] = Operand::Off;
            n += 1;
        }
    }
    let rsrc = (srsrc * 4) as u16;
    if !mem::scalar_range_ok(isa, rsrc, 4) {
        return Err(mem::invalid(format!(
            "srsrc field {srsrc} names no SGPR quad"
        )));
    }
    if !soffset_ok(isa, soffset) {
        return Err(mem::invalid(format!(
            "soffset {soffset} is not a scalar register or inline constant"
        )));
    }
    ops[n] = Operand::scalar(rsrc, OperandType::B128);
    ops[n + 1] = Operand::scalar(soffset, OperandType::B32);
    inst.operands[..n + 2].copy_from_slice(&ops[..n + 2]);
    inst.operand_count = (n + 2) as u8;
    Ok(inst)
}

pub(crate) fn encode(inst: &Instruction, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    let row = inst.info().ok_or(EncodeError::NoEncoding {
        opcode: inst.opcode,
        family: inst.family,
    })?;
    let (isa, family) = (inst.target.isa, inst.family);
    let flags = mem::flags(isa, row);
    let m = &inst.modifiers;
    let l = layout(isa, family);
    let (op0, op1) = place_opcode(isa, family, u32::from(row.number));
    let mut w0 = l.encoding << 26 | op0;
    let mut w1 = op1;
    if flags & NO_OPERANDS != 0 {
        if *m != Modifiers::default() || !inst.operands().is_empty() {
            return Err(EncodeError::OperandOutOfRange(format!(
                "{} takes no operands",
                row.opcode.mnemonic()
            )));
        }
    } else {
        check_modifiers(isa, family, row, flags, m).map_err(EncodeError::OperandOutOfRange)?;
        let place = |b: Option<u32>, on: bool| -> Result<u32, EncodeError> {
            match b {
                Some(b) => Ok(u32::from(on) << b),
                None if on => Err(EncodeError::OperandOutOfRange(format!(
                    "{family} has no such bit on {isa}"
                ))),
                None => Ok(0),
            }
        };
        w0 |= m.offset as u32
            | u32::from(m.offen) << 12
            | u32::from(m.idxen) << 13
            | u32::from(m.glc) << 14;
        w0 |= place(l.dlc, m.dlc)? | place(l.lds, m.lds)?;
        match l.slc_w0 {
            Some(b) => w0 |= u32::from(m.slc) << b,
            None => w1 |= u32::from(m.slc) << 22,
        }
        w1 |= u32::from(m.tfe) << 23;
        if family == Family::Mtbuf {
            if m.format > 0x7f {
                return Err(EncodeError::OperandOutOfRange(format!(
                    "format {} does not fit 7 bits",
                    m.format
                )));
            }
            w0 |= u32::from(m.format) << 19;
        } else if m.format != 0 {
            return Err(EncodeError::OperandOutOfRange(
                "MUBUF has no format".to_string(),
            ));
        }
        let has_vdata = vdata_type(row, m)
            .map_err(EncodeError::OperandOutOfRange)?
            .is_some();
        let has_vaddr = flags & STORE_LDS == 0;
        let ops = inst.operands();
        if ops.len() != 2 + usize::from(has_vdata) + usize::from(has_vaddr) {
            return Err(EncodeError::OperandOutOfRange(format!(
                "{} operand count {}",
                row.opcode.mnemonic(),
                ops.len()
            )));
        }
        let mut i = 0;
        if has_vdata {
            w1 |= mem::vgpr_number(&ops[0], "vdata")? << 8;
            i = 1;
        }
        if has_vaddr {
            match (vaddr_type(m), ops[i]) {
                (None, Operand::Off) => {}
                (Some(_), op) => w1 |= mem::vgpr_number(&op, "vaddr")?,
                (None, _) => {
                    return Err(EncodeError::OperandOutOfRange(
                        "vaddr must be off without idxen/offen".to_string(),
                    ))
                }
            }
            i += 1;
        }
        let rsrc = mem::scalar_code(&ops[i], "srsrc")?;
        if rsrc % 4 != 0 || rsrc > 124 {
            return Err(EncodeError::OperandOutOfRange(format!(
                "srsrc code {rsrc} is not a quad"
            )));
        }
        let soffset = mem::scalar_code(&ops[i + 1], "soffset")?;
        if soffset > 0xff {
            return Err(EncodeError::OperandOutOfRange(format!(
                "soffset code {soffset} does not fit 8 bits"
            )));
        }
        w1 |= (rsrc / 4) << 16 | soffset << 24;
    }
    out.extend_from_slice(&w0.to_le_bytes());
    out.extend_from_slice(&w1.to_le_bytes());
    Ok(())
}

pub(crate) fn format(inst: &Instruction, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    mem::write_operands(f, inst.target, inst.opcode.mnemonic(), inst.operands())?;
    let m = &inst.modifiers;
    if inst.family == Family::Mtbuf {
        format::write(inst.target.isa, m.format, f)?;
    }
    if m.idxen {
        f.write_str(" idxen")?;
    }
    if m.offen {
        f.write_str(" offen")?;
    }
    if m.offset != 0 {
        write!(f, " offset:{}", m.offset)?;
    }
    // buffer_store_lds_dword's `lds` is part of its syntax and comes before the cache bits.
    let store_lds = inst
        .info()
        .is_some_and(|row| mem::flags(inst.target.isa, row) & STORE_LDS != 0);
    for (on, name) in [
        (m.lds && store_lds, " lds"),
        (m.glc, " glc"),
        (m.slc, " slc"),
        (m.dlc, " dlc"),
        (m.lds && !store_lds, " lds"),
        (m.tfe, " tfe"),
    ] {
        if on {
            f.write_str(name)?;
        }
    }
    Ok(())
}

pub(crate) fn parse(
    target: Target,
    info: &'static OpInfo,
    _variant: Variant,
    line: &AsmLine<'_>,
) -> Result<Instruction, AsmError> {
    let (isa, family) = (target.isa, info.family);
    let flags = mem::flags(isa, info);
    let split = mem::split(line)?;
    let mut m = Modifiers::default();
    if family == Family::Mtbuf {
        m.format = format::DEFAULT;
    }
    let (mut seen_offset, mut seen_format) = (false, false);
    for token in &split.modifiers {
        let text = token.text;
        match text {
            "offen" => mem::set_flag(token, &mut m.offen)?,
            "idxen" => mem::set_flag(token, &mut m.idxen)?,
            "glc" => mem::set_flag(token, &mut m.glc)?,
            "slc" => mem::set_flag(token, &mut m.slc)?,
            "dlc" if isa == Isa::Gfx1030 => mem::set_flag(token, &mut m.dlc)?,
            "lds" if family == Family::Mubuf => mem::set_flag(token, &mut m.lds)?,
            "tfe" => mem::set_flag(token, &mut m.tfe)?,
            _ => {
                if let Some(v) = text.strip_prefix("offset:") {
                    mem::set_flag(token, &mut seen_offset)?;
                    m.offset = mem::int_value(token, v, 0, 4095)? as i32;
                } else if let Some(v) = text
                    .strip_prefix("format:")
                    .filter(|_| family == Family::Mtbuf)
                {
                    mem::set_flag(token, &mut seen_format)?;
                    m.format = format::parse(isa, token, v)?;
                } else {
                    return Err(token.error(format!(
                        "`{text}` is not a modifier of {}",
                        info.opcode.mnemonic()
                    )));
                }
            }
        }
    }
    if let Err(e) = check_modifiers(isa, family, info, flags, &m) {
        return Err(match split.modifiers.first() {
            Some(t) => t.error(e),
            None => AsmError::at_column(line.mnemonic_column, e),
        });
    }
    let mut inst = Instruction {
        target,
        opcode: info.opcode,
        family,
        variant: Variant::Plain,
        operands: [Operand::Off; MAX_OPERANDS],
        operand_count: 0,
        modifiers: m,
        size: 8,
    };
    if flags & NO_OPERANDS != 0 {
        mem::expect_operands(line, &split.operands, &[])?;
        return Ok(inst);
    }
    let vdata = vdata_type(info, &m).map_err(|e| AsmError::at_column(line.mnemonic_column, e))?;
    let has_vaddr = flags & STORE_LDS == 0;
    let mut names = vec!["vdata", "vaddr", "srsrc", "soffset"];
    if !has_vaddr {
        names.remove(1);
    }
    if vdata.is_none() {
        names.remove(0);
    }
    mem::expect_operands(line, &split.operands, &names)?;
    let ops = &split.operands;
    let mut i = 0;
    if let Some(ty) = vdata {
        inst.operands[0] = parse_vgpr(target, ops[0], ty)?;
        i = 1;
    }
    if has_vaddr {
        inst.operands[i] = match vaddr_type(&m) {
            Some(ty) => parse_vgpr(target, ops[i], ty)?,
            None if mem::is_off(ops[i]) => Operand::Off,
            None => {
                return Err(ops[i].error(format!(
                    "expected `off` (no idxen/offen), found `{}`",
                    ops[i].text
                )))
            }
        };
        i += 1;
    }
    inst.operands[i] = mem::parse_sreg(target, ops[i], OperandType::B128, "an SGPR quad")?;
    let soffset = parse_src(target, ops[i + 1], OperandType::B32)?;
    match soffset {
        Operand::Src { code, .. } if soffset_ok(isa, code) => inst.operands[i + 1] = soffset,
        _ => {
            return Err(ops[i + 1].error(format!(
                "expected an SGPR or inline constant, found `{}`",
                ops[i + 1].text
            )))
        }
    }
    inst.operand_count = (i + 2) as u8;
    Ok(inst)
}

#[cfg(test)]
mod tests;
