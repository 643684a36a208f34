//! FLAT, GLOBAL and SCRATCH encodings (one major opcode; gfx1030's `seg` field
//! picks the segment, gfx803 has FLAT only).
//!
//! ```text
//! gfx1030 word 0: offset[11:0] dlc[12] lds[13] seg[15:14] glc[16] slc[17] op[24:18] (bit 25 reserved)
//! gfx803  word 0: offset[12:0] (bits 15:13 reserved) glc[16] slc[17] op[24:18] (bit 25 reserved)
//!         encoding[31:26] = 0b110111
//! word 1: addr[7:0] data[15:8] saddr[22:16] nv[23] vdst[31:24]   (gfx803: bits 23:16 reserved)
//! ```
//!
//! The printed operand list depends on fields, not only on the opcode:
//! - atomics print a leading `vdst` when `glc` asks for the old value;
//! - GLOBAL: `saddr` = 0x7d (`off`) means a 64-bit VGPR address, otherwise an
//!   SGPR-pair base plus a 32-bit VGPR offset;
//! - SCRATCH: `saddr` = 0x7d means a VGPR address (`v1, off`), 0x7f means
//!   neither (`off, off`), otherwise an SGPR address (`off, s0`);
//! - `lds` (GLOBAL/SCRATCH dword/byte/short loads) writes LDS instead of `vdst`.
//!
//! FLAT offsets are unsigned, GLOBAL/SCRATCH offsets 12-bit signed.

mod fill;

pub(super) use fill::fill;

use std::fmt;

use super::mem::{self, ADDTID, ATOMIC, CMPSWAP, D16, LOAD};
use crate::isa::syntax::{parse_vgpr, AsmLine};
use crate::isa::tables::{self, Field};
use crate::isa::words::dword;
use crate::isa::{
    AsmError, DecodeError, EncodeError, Family, Instruction, Isa, Modifiers, OpInfo, Operand,
    OperandType, Target, Variant, MAX_OPERANDS,
};

/// The FLAT major opcode (word 0 bits 31:26).
const ENCODING: u32 = 0x37;
/// gfx1030 `saddr` value meaning "no SGPR address" (the `null` register).
const SADDR_OFF: u32 = 0x7d;
/// gfx1030 SCRATCH `saddr` value meaning "no address registers at all".
const SADDR_NEITHER: u32 = 0x7f;

/// How the address is formed (selected by `saddr`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Addressing {
    /// FLAT segment, or gfx803: 64-bit VGPR address, no `saddr` operand.
    Flat,
    /// `saddr` is `off`: VGPR address (64-bit for GLOBAL, 32-bit for SCRATCH).
    Vgpr,
    /// SGPR base (pair for GLOBAL, single for SCRATCH); GLOBAL adds a 32-bit VGPR offset.
    Sgpr,
    /// SCRATCH with neither a VGPR nor an SGPR address (`off, off`).
    Neither,
}

/// One printed operand position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Vdst(OperandType),
    Vaddr(OperandType),
    VaddrOff,
    Vdata(OperandType),
    Saddr(OperandType),
    SaddrOff,
}

impl Slot {
    fn name(self) -> &'static str {
        match self {
            Slot::Vdst(_) => "vdst",
            Slot::Vaddr(_) | Slot::VaddrOff => "vaddr",
            Slot::Vdata(_) => "vdata",
            Slot::Saddr(_) | Slot::SaddrOff => "saddr",
        }
    }
}

/// The printed operand positions of one instruction form.
struct Form {
    slots: [Slot; 4],
    len: usize,
}

impl Form {
    #[inline]
    fn push(&mut self, s: Slot) {
        self.slots[self.len] = s;
        self.len += 1;
    }

    fn slots(&self) -> &[Slot] {
        &self.slots[..self.len]
    }
}

/// The operand positions of `row` in `family` with these `glc`/`lds` bits and addressing.
#[inline]
fn form(
    family: Family,
    row: &OpInfo,
    flags: u16,
    glc: bool,
    lds: bool,
    addressing: Addressing,
) -> Form {
    let mut f = Form {
        slots: [Slot::VaddrOff; 4],
        len: 0,
    };
    let vdata = mem::field_type(row, Field::Vdata);
    if !lds {
        if let Some(ty) = mem::field_type(row, Field::Vdst) {
            f.push(Slot::Vdst(ty));
        } else if let (true, Some(ty)) = (flags & ATOMIC != 0 && glc, vdata) {
            f.push(Slot::Vdst(if flags & CMPSWAP != 0 {
                mem::halve(ty)
            } else {
                ty
            }));
        }
    }
    if flags & ADDTID == 0 {
        f.push(match (family, addressing) {
            (Family::Global, Addressing::Sgpr) => Slot::Vaddr(OperandType::B32),
            (Family::Scratch, Addressing::Vgpr) => Slot::Vaddr(OperandType::B32),
            (Family::Scratch, _) => Slot::VaddrOff,
            _ => Slot::Vaddr(OperandType::B64),
        });
    }
    if let Some(ty) = vdata {
        f.push(Slot::Vdata(ty));
    }
    match (family, addressing) {
        (Family::Global, Addressing::Sgpr) => f.push(Slot::Saddr(OperandType::B64)),
        (Family::Scratch, Addressing::Sgpr) => f.push(Slot::Saddr(OperandType::B32)),
        (Family::Global | Family::Scratch, _) => f.push(Slot::SaddrOff),
        _ => {}
    }
    f
}

/// True when `row` may use the `lds` bit (GLOBAL/SCRATCH 32-bit-or-narrower non-d16 loads).
fn lds_allowed(family: Family, row: &OpInfo, flags: u16) -> bool {
    family != Family::Flat
        && flags & LOAD != 0
        && flags & (D16 | ADDTID) == 0
        && mem::field_type(row, Field::Vdst).is_some_and(|t| t.dwords(Target::GFX803) == 1)
}

// Not inlined: the family dispatch stays small and passes its result slot on.
#[inline(never)]
pub(crate) fn decode(
    target: Target,
    family: Family,
    bytes: &[u8],
) -> Result<Instruction, DecodeError> {
    let w0 = dword(bytes, 0)?;
    let w1 = dword(bytes, 1)?;
    let isa = target.isa;
    let number = (w0 >> 18 & 0x7f) as u16;
    let row = tables::lookup(isa, family, number).ok_or(DecodeError::InvalidOpcode {
        offset: 0,
        family,
        opcode: number,
    })?;
    if w0 >> 25 & 1 != 0 {
        return Err(mem::invalid("FLAT reserved bit 25 is set"));
    }
    let flags = mem::flags(isa, row);
    let mut m = Modifiers {
        glc: w0 >> 16 & 1 != 0,
        slc: w0 >> 17 & 1 != 0,
        ..Modifiers::default()
    };
    let addressing = match isa {
        Isa::Gfx803 => {
            if w0 & 0xe000 != 0 || w1 & 0x00ff_0000 != 0 {
                return Err(mem::invalid(
                    "FLAT reserved bits (word 0 15:13 or word 1 23:16) are set",
                ));
            }
            m.offset = (w0 & 0x1fff) as i32;
            Addressing::Flat
        }
        Isa::Gfx1030 => {
            if w0 >> 14 & 3 == 3 {
                return Err(mem::invalid("FLAT seg field 3 is reserved"));
            }
            if w1 >> 23 & 1 != 0 {
                return Err(mem::invalid(
                    "FLAT nv bit is set (not supported on gfx1030)",
                ));
            }
            m.dlc = w0 >> 12 & 1 != 0;
            m.lds = w0 >> 13 & 1 != 0;
            let raw = (w0 & 0xfff) as i32;
            m.offset = if family == Family::Flat {
                raw
            } else {
                (raw << 20) >> 20
            };
            if m.lds && !lds_allowed(family, row, flags) {
                return Err(mem::invalid(format!(
                    "{} does not take lds",
                    row.opcode.mnemonic()
                )));
            }
            let saddr = w1 >> 16 & 0x7f;
            match (family, saddr) {
                (Family::Flat, SADDR_OFF) => Addressing::Flat,
                (Family::Flat, _) => {
                    return Err(mem::invalid(format!(
                        "FLAT saddr must be 0x7d, found {saddr:#x}"
                    )))
                }
                (_, SADDR_OFF) => Addressing::Vgpr,
                (Family::Scratch, SADDR_NEITHER) => Addressing::Neither,
                _ => {
                    let dwords = if family == Family::Global { 2 } else { 1 };
                    if !mem::scalar_range_ok(isa, saddr as u16, dwords) {
                        return Err(mem::invalid(format!(
                            "{family} saddr {saddr} is not a valid register"
                        )));
                    }
                    Addressing::Sgpr
                }
            }
        }
    };
    let form = form(family, row, flags, m.glc, m.lds, addressing);
    let mut inst = Instruction {
        target,
        opcode: row.opcode,
        family,
        variant: Variant::Plain,
        operands: [Operand::Off; MAX_OPERANDS],
        operand_count: form.len as u8,
        modifiers: m,
        size: 8,
    };
    let (mut used_vdst, mut used_addr, mut used_data) = (false, false, false);
    for (i, slot) in form.slots().iter().enumerate() {
        inst.operands[i] = match *slot {
            Slot::Vdst(ty) => {
                used_vdst = true;
                mem::vgpr(target, w1 >> 24, ty, "vdst")?
            }
            Slot::Vaddr(ty) => {
                used_addr = true;
                mem::vgpr(target, w1 & 0xff, ty, "vaddr")?
            }
            Slot::Vdata(ty) => {
                used_data = true;
                mem::vgpr(target, w1 >> 8 & 0xff, ty, "vdata")?
            }
            Slot::Saddr(ty) => Operand::scalar((w1 >> 16 & 0x7f) as u16, ty),
            Slot::VaddrOff | Slot::SaddrOff => Operand::Off,
        };
    }
    let used = if used_vdst { 0xff00_0000 } else { 0 }
        | if used_addr { 0xff } else { 0 }
        | if used_data { 0xff00 } else { 0 };
    if w1 & 0xff00_ffff & !used != 0 {
        return Err(unused_field(row, w1, used));
    }
    Ok(inst)
}

/// The error for a nonzero field the instruction does not use.
#[cold]
#[inline(never)]
fn unused_field(row: &OpInfo, w1: u32, used: u32) -> DecodeError {
    let fields = [(24, "vdst"), (0, "vaddr"), (8, "vdata")];
    let (shift, name) = fields
        .into_iter()
        .find(|&(shift, _)| used >> shift & 0xff == 0 && w1 >> shift & 0xff != 0)
        .unwrap_or((0, "vaddr"));
    mem::invalid(format!(
        "{}: unused {name} field is {}, not 0",
        row.opcode.mnemonic(),
        w1 >> shift & 0xff
    ))
}

/// The addressing an instruction's operands express (GLOBAL/SCRATCH: by the
/// `saddr` operand, and for SCRATCH by whether `vaddr` is `off`).
fn addressing_of(inst: &Instruction, row: &OpInfo, flags: u16) -> Addressing {
    if inst.target.isa == Isa::Gfx803 || inst.family == Family::Flat {
        return Addressing::Flat;
    }
    let ops = inst.operands();
    match ops.last() {
        Some(Operand::Src { .. }) => Addressing::Sgpr,
        _ if inst.family == Family::Scratch => {
            let probe = form(
                inst.family,
                row,
                flags,
                inst.modifiers.glc,
                inst.modifiers.lds,
                Addressing::Vgpr,
            );
            let at = probe
                .slots()
                .iter()
                .position(|s| matches!(s, Slot::Vaddr(_)));
            match at.and_then(|i| ops.get(i)) {
                Some(Operand::Off) => Addressing::Neither,
                _ => Addressing::Vgpr,
            }
        }
        _ => Addressing::Vgpr,
    }
}

pub(crate) fn encode(inst: &Instruction, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    let row = inst.info().ok_or(EncodeError::NoEncoding {
        opcode: inst.opcode,
        family: inst.family,
    })?;
    let isa = inst.target.isa;
    let flags = mem::flags(isa, row);
    let m = &inst.modifiers;
    let addressing = addressing_of(inst, row, flags);
    let form = form(inst.family, row, flags, m.glc, m.lds, addressing);
    if form.len != inst.operands().len() {
        return Err(EncodeError::OperandOutOfRange(format!(
            "{} takes {} operands in this form, {} given",
            row.opcode.mnemonic(),
            form.len,
            inst.operands().len()
        )));
    }
    let mut w0 = ENCODING << 26
        | u32::from(row.number) << 18
        | u32::from(m.glc) << 16
        | u32::from(m.slc) << 17;
    let mut w1 = 0;
    match isa {
        Isa::Gfx803 => {
            if m.dlc || m.lds || !(0..=0x1fff).contains(&m.offset) {
                return Err(EncodeError::OperandOutOfRange(format!(
                    "gfx803 FLAT takes no dlc/lds and an offset in 0..=8191 (offset {})",
                    m.offset
                )));
            }
            w0 |= m.offset as u32;
        }
        Isa::Gfx1030 => {
            let range = if inst.family == Family::Flat {
                0..=4095
            } else {
                -2048..=2047
            };
            if !range.contains(&m.offset) {
                return Err(EncodeError::OperandOutOfRange(format!(
                    "{} offset {} is not in {range:?}",
                    inst.family, m.offset
                )));
            }
            if m.lds && !lds_allowed(inst.family, row, flags) {
                return Err(EncodeError::OperandOutOfRange(format!(
                    "{} does not take lds",
                    row.opcode.mnemonic()
                )));
            }
            let seg = match inst.family {
                Family::Scratch => 1,
                Family::Global => 2,
                _ => 0,
            };
            w0 |= (m.offset as u32 & 0xfff)
                | u32::from(m.dlc) << 12
                | u32::from(m.lds) << 13
                | seg << 14;
            w1 |= match addressing {
                Addressing::Neither => SADDR_NEITHER,
                _ => SADDR_OFF,
            } << 16;
        }
    }
    for (slot, op) in form.slots().iter().zip(inst.operands()) {
        match *slot {
            Slot::Vdst(_) => w1 |= mem::vgpr_number(op, "vdst")? << 24,
            Slot::Vaddr(_) => w1 |= mem::vgpr_number(op, "vaddr")?,
            Slot::Vdata(_) => w1 |= mem::vgpr_number(op, "vdata")? << 8,
            Slot::Saddr(_) => {
                let code = mem::scalar_code(op, "saddr")?;
                if code > 0x7f || code == SADDR_OFF || code == SADDR_NEITHER {
                    return Err(EncodeError::OperandOutOfRange(format!(
                        "saddr code {code} is not an SGPR address (7 bits, not null or exec_hi)"
                    )));
                }
                w1 = (w1 & !(0x7f << 16)) | code << 16;
            }
            Slot::VaddrOff | Slot::SaddrOff => {
                if *op != Operand::Off {
                    return Err(EncodeError::OperandOutOfRange(format!(
                        "{} must be off here",
                        slot.name()
                    )));
                }
            }
        }
    }
    out.extend_from_slice(&w0.to_le_bytes());
    out.extend_from_slice(&w1.to_le_bytes());
    Ok(())
}

pub(crate) fn format(inst: &Instruction, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    mem::write_operands(f, inst.target, inst.opcode.mnemonic(), inst.operands())?;
    let m = &inst.modifiers;
    if m.offset != 0 {
        write!(f, " offset:{}", m.offset)?;
    }
    for (on, name) in [
        (m.glc, " glc"),
        (m.slc, " slc"),
        (m.dlc, " dlc"),
        (m.lds, " lds"),
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
    let isa = target.isa;
    let family = info.family;
    let flags = mem::flags(isa, info);
    let split = mem::split(line)?;
    let mut m = Modifiers::default();
    let mut seen_offset = false;
    for token in &split.modifiers {
        let text = token.text;
        match text {
            "glc" => mem::set_flag(token, &mut m.glc)?,
            "slc" => mem::set_flag(token, &mut m.slc)?,
            "dlc" if isa == Isa::Gfx1030 => mem::set_flag(token, &mut m.dlc)?,
            "lds" if isa == Isa::Gfx1030 && lds_allowed(family, info, flags) => {
                mem::set_flag(token, &mut m.lds)?
            }
            _ => {
                let Some(v) = text.strip_prefix("offset:") else {
                    return Err(token.error(format!(
                        "`{text}` is not a modifier of {}",
                        info.opcode.mnemonic()
                    )));
                };
                mem::set_flag(token, &mut seen_offset)?;
                let (lo, hi) = match (isa, family) {
                    (Isa::Gfx803, _) => (0, 0x1fff),
                    (_, Family::Flat) => (0, 4095),
                    _ => (-2048, 2047),
                };
                m.offset = mem::int_value(token, v, lo, hi)? as i32;
            }
        }
    }
    // The addressing follows from the `saddr` token (last) and, for SCRATCH, the `vaddr` token.
    let ops = &split.operands;
    let addressing = match family {
        Family::Global | Family::Scratch => match ops.last() {
            Some(t) if !mem::is_off(t) => Addressing::Sgpr,
            _ if family == Family::Scratch => {
                let probe = form(family, info, flags, m.glc, m.lds, Addressing::Vgpr);
                let at = probe
                    .slots()
                    .iter()
                    .position(|s| matches!(s, Slot::Vaddr(_)));
                match at.and_then(|i| ops.get(i)) {
                    Some(t) if mem::is_off(t) => Addressing::Neither,
                    _ => Addressing::Vgpr,
                }
            }
            _ => Addressing::Vgpr,
        },
        _ => Addressing::Flat,
    };
    let form = form(family, info, flags, m.glc, m.lds, addressing);
    let names: Vec<&str> = form.slots().iter().map(|s| s.name()).collect();
    mem::expect_operands(line, ops, &names)?;
    let mut inst = Instruction {
        target,
        opcode: info.opcode,
        family,
        variant: Variant::Plain,
        operands: [Operand::Off; MAX_OPERANDS],
        operand_count: form.len as u8,
        modifiers: m,
        size: 8,
    };
    for (i, (slot, token)) in form.slots().iter().zip(ops.iter()).enumerate() {
        inst.operands[i] = match *slot {
            Slot::Vdst(ty) | Slot::Vaddr(ty) | Slot::Vdata(ty) => parse_vgpr(target, token, ty)?,
            Slot::Saddr(ty) => {
                let what = if ty == OperandType::B64 {
                    "an SGPR pair or off"
                } else {
                    "an SGPR or off"
                };
                match mem::parse_sreg(target, token, ty, what)? {
                    // These codes mean "no SGPR address" (null) and "no address at all".
                    Operand::Src { code, .. }
                        if matches!(u32::from(code), SADDR_OFF | SADDR_NEITHER) =>
                    {
                        return Err(token.error(format!("expected {what}, found `{}`", token.text)))
                    }
                    op => op,
                }
            }
            Slot::VaddrOff | Slot::SaddrOff => {
                if !mem::is_off(token) {
                    return Err(token.error(format!(
                        "expected `off` for {}, found `{}`",
                        slot.name(),
                        token.text
                    )));
                }
                Operand::Off
            }
        };
    }
    Ok(inst)
}

#[cfg(test)]
mod tests;
