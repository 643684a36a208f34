//! DS (local/global data share) encoding, both ISAs.
//!
//! ```text
//! word 0: offset0[7:0] offset1[15:8] | gfx803: gds[16] op[24:17] (bit 25 reserved)
//!                                    | gfx1030: (bit 16 reserved) gds[17] op[25:18]
//!         encoding[31:26] = 0b110110
//! word 1: addr[7:0] data0[15:8] data1[23:16] vdst[31:24]
//! ```
//!
//! Operands come from the table row in LLVM's print order (vdst, addr, data0,
//! data1). A field the instruction does not use must be zero (LLVM rejects the
//! encoding otherwise). The two offset bytes are one 16-bit `offset:` except for
//! the two-address forms (`ds_read2*`, `ds_write2*`, `ds_wrxchg2*`), which print
//! `offset0:`/`offset1:`; `ds_swizzle_b32` prints its offset as `swizzle(...)`.

use std::fmt;

use super::mem::{self, NEEDS_GDS, NOP, NO_GDS, SWIZZLE, TWO_OFFSETS};
use crate::isa::syntax::AsmLine;
use crate::isa::tables::{self, Field};
use crate::isa::words::dword;
use crate::isa::{
    AsmError, DecodeError, EncodeError, Family, Instruction, Isa, Modifiers, OpInfo, Operand,
    Target, Variant, MAX_OPERANDS,
};

mod fill;
mod swizzle;

pub(super) use fill::fill;

/// The DS major opcode (word 0 bits 31:26).
const ENCODING: u32 = 0x36;

/// Bit positions of the opcode, the gds bit and the reserved bit in word 0.
fn layout(isa: Isa) -> (u32, u32, u32) {
    match isa {
        Isa::Gfx803 => (17, 16, 25),
        Isa::Gfx1030 => (18, 17, 16),
    }
}

/// Word 1 bit position of a DS operand field.
fn field_shift(field: Field) -> Option<u32> {
    match field {
        Field::Vaddr => Some(0),
        Field::Data0 => Some(8),
        Field::Data1 => Some(16),
        Field::Vdst => Some(24),
        _ => None,
    }
}

fn field_name(field: Field) -> &'static str {
    match field {
        Field::Vaddr => "addr",
        other => other.name(),
    }
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
    let (op_shift, gds_bit, reserved_bit) = layout(target.isa);
    let number = ((w0 >> op_shift) & 0xff) as u16;
    let row = tables::lookup(target.isa, Family::Ds, number).ok_or(DecodeError::InvalidOpcode {
        offset: 0,
        family,
        opcode: number,
    })?;
    if w0 >> reserved_bit & 1 != 0 {
        return Err(mem::invalid(format!(
            "DS reserved bit {reserved_bit} is set"
        )));
    }
    let flags = mem::flags(target.isa, row);
    let gds = w0 >> gds_bit & 1 != 0;
    let mut inst = Instruction {
        target,
        opcode: row.opcode,
        family: Family::Ds,
        variant: Variant::Plain,
        operands: [Operand::Off; MAX_OPERANDS],
        operand_count: 0,
        modifiers: Modifiers {
            gds,
            ..Modifiers::default()
        },
        size: 8,
    };
    let mut used = 0u32;
    for spec in row.operands {
        let Some(shift) = field_shift(spec.field) else {
            return Err(DecodeError::Unimplemented {
                offset: 0,
                what: format!("DS operand field {}", spec.field.name()),
            });
        };
        used |= 0xff << shift;
        let n = w1 >> shift & 0xff;
        inst.operands[usize::from(inst.operand_count)] =
            mem::vgpr(target, n, spec.ty, field_name(spec.field))?;
        inst.operand_count += 1;
    }
    if w1 & !used != 0 {
        return Err(mem::invalid(format!(
            "{}: unused DS operand fields are not zero (word 1 {w1:#010x})",
            row.opcode.mnemonic()
        )));
    }
    if flags & TWO_OFFSETS != 0 {
        inst.modifiers.offset0 = (w0 & 0xff) as u8;
        inst.modifiers.offset1 = (w0 >> 8 & 0xff) as u8;
    } else {
        inst.modifiers.offset = (w0 & 0xffff) as i32;
    }
    if flags & NEEDS_GDS != 0 && !gds {
        return Err(mem::invalid(format!(
            "{} requires the gds bit",
            row.opcode.mnemonic()
        )));
    }
    if flags & NO_GDS != 0 && gds {
        return Err(mem::invalid(format!(
            "{} does not take gds",
            row.opcode.mnemonic()
        )));
    }
    if flags & NOP != 0 && (w0 & 0xffff != 0 || gds) {
        return Err(mem::invalid("ds_nop takes no offset and no gds"));
    }
    Ok(inst)
}

fn row_of(inst: &Instruction) -> Result<&'static OpInfo, EncodeError> {
    inst.info().ok_or(EncodeError::NoEncoding {
        opcode: inst.opcode,
        family: inst.family,
    })
}

pub(crate) fn encode(inst: &Instruction, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    let row = row_of(inst)?;
    let isa = inst.target.isa;
    let (op_shift, gds_bit, _) = layout(isa);
    let flags = mem::flags(isa, row);
    let m = &inst.modifiers;
    let offset = if flags & TWO_OFFSETS != 0 {
        u32::from(m.offset0) | u32::from(m.offset1) << 8
    } else {
        u32::try_from(m.offset)
            .ok()
            .filter(|&o| o <= 0xffff)
            .ok_or_else(|| {
                EncodeError::OperandOutOfRange(format!(
                    "DS offset {} is not in 0..=65535",
                    m.offset
                ))
            })?
    };
    let w0 =
        ENCODING << 26 | u32::from(row.number) << op_shift | u32::from(m.gds) << gds_bit | offset;
    if inst.operands().len() != row.operands.len() {
        return Err(EncodeError::OperandOutOfRange(format!(
            "{} takes {} operands, {} given",
            row.opcode.mnemonic(),
            row.operands.len(),
            inst.operands().len()
        )));
    }
    let mut w1 = 0;
    for (spec, op) in row.operands.iter().zip(inst.operands()) {
        let shift = field_shift(spec.field).ok_or_else(|| {
            EncodeError::Unimplemented(format!("DS operand field {}", spec.field.name()))
        })?;
        let n = mem::vgpr_number(op, field_name(spec.field))?;
        if n > 0xff {
            return Err(EncodeError::OperandOutOfRange(format!(
                "{} v{n} does not fit",
                field_name(spec.field)
            )));
        }
        w1 |= n << shift;
    }
    out.extend_from_slice(&w0.to_le_bytes());
    out.extend_from_slice(&w1.to_le_bytes());
    Ok(())
}

pub(crate) fn format(inst: &Instruction, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let t = inst.target;
    mem::write_operands(f, t, inst.opcode.mnemonic(), inst.operands())?;
    let flags = inst.info().map_or(0, |row| mem::flags(t.isa, row));
    let m = &inst.modifiers;
    if flags & TWO_OFFSETS != 0 {
        if m.offset0 != 0 {
            write!(f, " offset0:{}", m.offset0)?;
        }
        if m.offset1 != 0 {
            write!(f, " offset1:{}", m.offset1)?;
        }
    } else if m.offset != 0 {
        if flags & SWIZZLE != 0 {
            f.write_str(" offset:")?;
            swizzle::write(m.offset as u16, f)?;
        } else {
            write!(f, " offset:{}", m.offset)?;
        }
    }
    if m.gds {
        f.write_str(" gds")?;
    }
    Ok(())
}

pub(crate) fn parse(
    target: Target,
    info: &'static OpInfo,
    _variant: Variant,
    line: &AsmLine<'_>,
) -> Result<Instruction, AsmError> {
    let flags = mem::flags(target.isa, info);
    let split = mem::split(line)?;
    let names: Vec<&str> = info.operands.iter().map(|s| field_name(s.field)).collect();
    mem::expect_operands(line, &split.operands, &names)?;
    let mut inst = Instruction {
        target,
        opcode: info.opcode,
        family: Family::Ds,
        variant: Variant::Plain,
        operands: [Operand::Off; MAX_OPERANDS],
        operand_count: info.operands.len() as u8,
        modifiers: Modifiers::default(),
        size: 8,
    };
    for (i, (spec, token)) in info.operands.iter().zip(&split.operands).enumerate() {
        inst.operands[i] = crate::isa::syntax::parse_vgpr(target, token, spec.ty)?;
    }
    let m = &mut inst.modifiers;
    let (mut seen_offset, mut seen0, mut seen1) = (false, false, false);
    for token in split.modifiers {
        let text = token.text;
        if text == "gds" {
            mem::set_flag(token, &mut m.gds)?;
        } else if let Some(v) = text
            .strip_prefix("offset0:")
            .filter(|_| flags & TWO_OFFSETS != 0)
        {
            mem::set_flag(token, &mut seen0)?;
            m.offset0 = mem::int_value(token, v, 0, 255)? as u8;
        } else if let Some(v) = text
            .strip_prefix("offset1:")
            .filter(|_| flags & TWO_OFFSETS != 0)
        {
            mem::set_flag(token, &mut seen1)?;
            m.offset1 = mem::int_value(token, v, 0, 255)? as u8;
        } else if let Some(v) = text
            .strip_prefix("offset:")
            .filter(|_| flags & (TWO_OFFSETS | NOP) == 0)
        {
            mem::set_flag(token, &mut seen_offset)?;
            m.offset = if flags & SWIZZLE != 0 && v.starts_with("swizzle(") {
                i32::from(swizzle::parse(token, v)?)
            } else {
                mem::int_value(token, v, 0, 0xffff)? as i32
            };
        } else {
            return Err(token.error(format!(
                "`{text}` is not a modifier of {}",
                info.opcode.mnemonic()
            )));
        }
    }
    if flags & NEEDS_GDS != 0 && !m.gds {
        return Err(line.missing("gds (this instruction requires it)"));
    }
    if flags & (NOP | NO_GDS) != 0 && m.gds {
        return Err(AsmError::at_column(
            line.mnemonic_column,
            "ds_nop takes no gds",
        ));
    }
    Ok(inst)
}

#[cfg(test)]
mod tests;
