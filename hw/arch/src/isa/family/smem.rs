//! Scalar memory (SMEM): loads through the scalar cache, `s_memtime`, cache
//! invalidation. Always two dwords.
//!
//! gfx803 (GCN3): word 0 = `110000` op[25:18] imm[17] glc[16] sdata[12:6]
//! sbase[5:0]; word 1 = a 20-bit unsigned byte offset when `imm`, else an SGPR
//! number in bits [6:0] (`soffset`).
//!
//! gfx1030 (RDNA2): word 0 = `111101` op[25:18] glc[16] dlc[14] sdata[12:6]
//! sbase[5:0]; word 1 = soffset[31:25] and a 21-bit signed byte offset [20:0].
//! `soffset` = 125 (`null`) means "no register offset".
//!
//! `sbase` holds an SGPR-pair index (register = 2 × field). Bits LLVM ignores
//! must be zero here so that `encode(decode(b)) == b`.

mod fill;

pub(super) use fill::fill;

use std::fmt;

use crate::isa::operand::{classify, SrcKind};
use crate::isa::syntax::{modifier_value, parse_int, parse_src, AsmLine, Token};
use crate::isa::tables::{lookup, Field, OpInfo};
use crate::isa::words::dword;
use crate::isa::{
    AsmError, DecodeError, EncodeError, Family, Instruction, Isa, Modifiers, Opcode, Operand,
    OperandType, Target, Variant, MAX_OPERANDS,
};

use super::sop::scalar_operand_ok;

/// gfx1030's `null` register, meaning "no soffset".
const NULL: u16 = 125;

/// Bits of word 0 this module models, per ISA.
fn word0_mask(isa: Isa) -> u32 {
    match isa {
        // major, op, imm, glc, sdata, sbase
        Isa::Gfx803 => 0xfc00_0000 | 0x03fc_0000 | 1 << 17 | 1 << 16 | 0x1fc0 | 0x3f,
        // major, op, glc, dlc, sdata, sbase
        Isa::Gfx1030 => 0xfc00_0000 | 0x03fc_0000 | 1 << 16 | 1 << 14 | 0x1fc0 | 0x3f,
    }
}

/// True for `s_atc_probe*`, whose `sdata` field is a 7-bit immediate printed in decimal.
fn sdata_is_imm(opcode: Opcode) -> bool {
    matches!(opcode, Opcode::S_ATC_PROBE | Opcode::S_ATC_PROBE_BUFFER)
}

fn invalid(what: String) -> DecodeError {
    DecodeError::InvalidOperand { offset: 0, what }
}

/// Whether `code` may be the data register(s) of an SMEM instruction:
/// LLVM's SReg_*_XM0_XEXEC classes (no `m0`, no `exec`).
fn sdata_ok(isa: Isa, code: u16, dwords: u8) -> bool {
    // `null` (125) is accepted at every width, on gfx803 too.
    code == NULL
        || (!matches!(code, 124 | 126 | 127) && scalar_operand_ok(isa, code, dwords, false))
}

/// Whether an instruction has the glc/dlc cache-policy bits (loads and stores do;
/// probes, `s_memtime` and cache invalidations do not, and LLVM drops the bits).
fn has_cpol(info: &OpInfo) -> bool {
    !sdata_is_imm(info.opcode) && info.operands.iter().any(|s| s.field == Field::Soffset)
}

/// Whether `code` may be the base address: an aligned SGPR pair (quad for buffer forms).
fn sbase_ok(isa: Isa, code: u16, dwords: u8) -> bool {
    match classify(isa, code) {
        SrcKind::Sgpr(_) | SrcKind::Ttmp(_) => scalar_operand_ok(isa, code, dwords, false),
        SrcKind::Named(_, Some(_)) => dwords == 2,
        _ => false,
    }
}

#[inline(never)]
pub(crate) fn decode(
    target: Target,
    family: Family,
    bytes: &[u8],
) -> Result<Instruction, DecodeError> {
    let w0 = dword(bytes, 0)?;
    let w1 = dword(bytes, 1)?;
    let isa = target.isa;
    let number = ((w0 >> 18) & 0xff) as u16;
    let Some(info) = lookup(isa, family, number) else {
        return Err(DecodeError::InvalidOpcode {
            offset: 0,
            family,
            opcode: number,
        });
    };
    let name = info.opcode.mnemonic();
    if w0 & !word0_mask(isa) != 0 {
        return Err(invalid(format!(
            "{name}: reserved bits set in word {w0:#010x}"
        )));
    }
    let sdata = ((w0 >> 6) & 0x7f) as u16;
    let sbase = ((w0 & 0x3f) as u16) * 2;
    let mut m = Modifiers {
        glc: w0 & (1 << 16) != 0,
        ..Modifiers::default()
    };
    // soffset: Some(register code) or None; offset in m.offset.
    let soffset = match isa {
        Isa::Gfx803 => {
            if w0 & (1 << 17) != 0 {
                if w1 > 0xf_ffff {
                    return Err(invalid(format!("{name}: offset {w1:#x} exceeds 20 bits")));
                }
                m.offset = w1 as i32;
                None
            } else {
                if w1 > 0x7f {
                    return Err(invalid(format!(
                        "{name}: soffset word {w1:#x} exceeds 7 bits"
                    )));
                }
                Some(w1 as u16)
            }
        }
        Isa::Gfx1030 => {
            m.dlc = w0 & (1 << 14) != 0;
            if w1 & 0x01e0_0000 != 0 {
                return Err(invalid(format!(
                    "{name}: reserved bits 24:21 set in word {w1:#010x}"
                )));
            }
            // Sign-extend the 21-bit offset.
            m.offset = ((w1 << 11) as i32) >> 11;
            Some((w1 >> 25) as u16)
        }
    };
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
    if !has_cpol(info) && (m.glc || m.dlc) {
        return Err(invalid(format!(
            "{name} has no cache-policy bits (glc/dlc set)"
        )));
    }
    let mut used = (false, false, false);
    for spec in info.operands {
        let dwords = spec.ty.dwords(target);
        match spec.field {
            Field::Sdata if sdata_is_imm(info.opcode) => {
                inst.modifiers.simm16 = sdata;
                used.0 = true;
            }
            Field::Sdata => {
                if !sdata_ok(isa, sdata, dwords) {
                    return Err(invalid(format!(
                        "{name}: sdata {sdata} is not a valid {dwords}-dword register"
                    )));
                }
                push(
                    &mut inst,
                    Operand::Src {
                        code: sdata,
                        ty: spec.ty,
                    },
                );
                used.0 = true;
            }
            Field::Sbase => {
                if !sbase_ok(isa, sbase, dwords) {
                    return Err(invalid(format!(
                        "{name}: sbase s{sbase} is not a valid {dwords}-dword base"
                    )));
                }
                push(
                    &mut inst,
                    Operand::Src {
                        code: sbase,
                        ty: spec.ty,
                    },
                );
                used.1 = true;
            }
            Field::Soffset => {
                used.2 = true;
                if let Some(code) = soffset {
                    push(
                        &mut inst,
                        Operand::Src {
                            code,
                            ty: OperandType::B32,
                        },
                    );
                }
            }
            other => {
                return Err(DecodeError::Unimplemented {
                    offset: 0,
                    what: format!("SMEM field {}", other.name()),
                })
            }
        }
    }
    // Instructions without an address (s_memtime, s_dcache_inv, ...) must have
    // the whole address part zero, as LLVM encodes them.
    if !used.0 && sdata != 0 {
        return Err(invalid(format!("{name}: unused sdata field is {sdata}")));
    }
    if !used.1 && sbase != 0 {
        return Err(invalid(format!("{name}: unused sbase field is non-zero")));
    }
    if !used.2 && (w1 != 0 || w0 & (1 << 17) != 0) {
        return Err(invalid(format!("{name}: unused offset word is {w1:#010x}")));
    }
    Ok(inst)
}

fn push(inst: &mut Instruction, operand: Operand) {
    if let Some(slot) = inst.operands.get_mut(usize::from(inst.operand_count)) {
        *slot = operand;
        inst.operand_count += 1;
    }
}

pub(crate) fn encode(inst: &Instruction, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    let info = inst.info().ok_or(EncodeError::NoEncoding {
        opcode: inst.opcode,
        family: inst.family,
    })?;
    let isa = inst.target.isa;
    let m = &inst.modifiers;
    let mut w0: u32 = match isa {
        Isa::Gfx803 => 0x30 << 26,
        Isa::Gfx1030 => 0x3d << 26,
    };
    w0 |= u32::from(info.number) << 18;
    if m.glc {
        w0 |= 1 << 16;
    }
    if m.dlc {
        if isa != Isa::Gfx1030 {
            return Err(EncodeError::OperandOutOfRange(
                "dlc does not exist on gfx803".into(),
            ));
        }
        w0 |= 1 << 14;
    }
    let mut ops = inst.operands().iter();
    let mut has_offset_field = false;
    let mut soffset = None;
    let bad =
        |what: &str| EncodeError::OperandOutOfRange(format!("{} {what}", info.opcode.mnemonic()));
    for spec in info.operands {
        let dwords = spec.ty.dwords(inst.target);
        match spec.field {
            Field::Sdata if sdata_is_imm(info.opcode) => {
                if m.simm16 > 0x7f {
                    return Err(bad("probe mode does not fit in 7 bits"));
                }
                w0 |= u32::from(m.simm16) << 6;
            }
            Field::Sdata => match ops.next() {
                Some(Operand::Src { code, .. }) if sdata_ok(isa, *code, dwords) => {
                    w0 |= u32::from(*code) << 6
                }
                _ => return Err(bad("has an invalid sdata operand")),
            },
            Field::Sbase => match ops.next() {
                Some(Operand::Src { code, .. }) if sbase_ok(isa, *code, dwords) => {
                    w0 |= u32::from(*code / 2)
                }
                _ => return Err(bad("has an invalid sbase operand")),
            },
            Field::Soffset => {
                has_offset_field = true;
                soffset = match ops.next() {
                    Some(Operand::Src { code, .. }) if *code < 128 => Some(*code),
                    Some(_) => return Err(bad("has an invalid soffset operand")),
                    None => None,
                };
            }
            _ => return Err(bad("has an unknown operand field")),
        }
    }
    let w1: u32 = match (isa, has_offset_field) {
        (_, false) => 0,
        (Isa::Gfx803, true) => match soffset {
            Some(code) => {
                if m.offset != 0 {
                    return Err(bad(
                        "cannot have both an SGPR offset and an immediate offset on gfx803",
                    ));
                }
                u32::from(code)
            }
            None => {
                if !(0..=0xf_ffff).contains(&m.offset) {
                    return Err(bad("offset does not fit in 20 unsigned bits"));
                }
                w0 |= 1 << 17;
                m.offset as u32
            }
        },
        (Isa::Gfx1030, true) => {
            if !(-(1 << 20)..(1 << 20)).contains(&m.offset) {
                return Err(bad("offset does not fit in 21 signed bits"));
            }
            (u32::from(soffset.unwrap_or(NULL)) << 25) | (m.offset as u32 & 0x1f_ffff)
        }
    };
    out.extend_from_slice(&w0.to_le_bytes());
    out.extend_from_slice(&w1.to_le_bytes());
    Ok(())
}

/// LLVM's signed hex: `0x10`, `-0x1`.
fn write_signed_hex(f: &mut impl fmt::Write, v: i32) -> fmt::Result {
    if v < 0 {
        write!(f, "-{:#x}", v.unsigned_abs())
    } else {
        write!(f, "{v:#x}")
    }
}

pub(crate) fn format(inst: &Instruction, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    f.write_str(inst.opcode.mnemonic())?;
    let Some(info) = inst.info() else {
        return Ok(());
    };
    let m = &inst.modifiers;
    let mut ops = inst.operands().iter();
    let mut sep = " ";
    for spec in info.operands {
        f.write_str(sep)?;
        sep = ", ";
        match spec.field {
            // Probe modes follow LLVM's inline-integer rule: decimal up to 64, hex above.
            Field::Sdata if sdata_is_imm(info.opcode) && m.simm16 <= 64 => {
                write!(f, "{}", m.simm16)?
            }
            Field::Sdata if sdata_is_imm(info.opcode) => write!(f, "{:#x}", m.simm16)?,
            Field::Soffset => match ops.next() {
                // gfx1030 `null` soffset: the immediate alone, or `null` when it is 0.
                Some(Operand::Src { code: NULL, .. }) if inst.target.isa == Isa::Gfx1030 => {
                    if m.offset == 0 {
                        f.write_str("null")?;
                    } else {
                        write_signed_hex(f, m.offset)?;
                    }
                }
                Some(op) => {
                    op.write(inst.target, f)?;
                    if m.offset != 0 {
                        f.write_str(" offset:")?;
                        write_signed_hex(f, m.offset)?;
                    }
                }
                None => write_signed_hex(f, m.offset)?,
            },
            _ => match ops.next() {
                Some(op) => op.write(inst.target, f)?,
                None => f.write_str("<missing>")?,
            },
        }
    }
    if m.glc {
        f.write_str(" glc")?;
    }
    if m.dlc {
        f.write_str(" dlc")?;
    }
    Ok(())
}

/// Parses an offset immediate (`0x10`, `-0x1`, `16`).
fn parse_offset(token: &Token<'_>, text: &str) -> Result<i32, AsmError> {
    match parse_int(text) {
        Some(v) if (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&v) => Ok(v as i32),
        _ => Err(token.error(format!("expected an offset, found `{text}`"))),
    }
}

pub(crate) fn parse(
    target: Target,
    info: &'static OpInfo,
    _variant: Variant,
    line: &AsmLine<'_>,
) -> Result<Instruction, AsmError> {
    let isa = target.isa;
    let mut inst = Instruction {
        target,
        opcode: info.opcode,
        family: info.family,
        variant: Variant::Plain,
        operands: [Operand::Off; MAX_OPERANDS],
        operand_count: 0,
        modifiers: Modifiers::default(),
        size: 8,
    };
    let tokens = &line.tokens[..];
    let mut next = 0;
    for spec in info.operands {
        let token = tokens
            .get(next)
            .ok_or_else(|| line.missing(spec.field.name()))?;
        next += 1;
        let dwords = spec.ty.dwords(target);
        match spec.field {
            Field::Sdata if sdata_is_imm(info.opcode) => match parse_int(token.text) {
                Some(v @ 0..=0x7f) => inst.modifiers.simm16 = v as u16,
                _ => return Err(token.error("expected a 7-bit probe mode")),
            },
            Field::Sdata | Field::Sbase => {
                let op = parse_src(target, token, spec.ty)?;
                let ok = match op {
                    Operand::Src { code, .. } if spec.field == Field::Sdata => {
                        sdata_ok(isa, code, dwords)
                    }
                    Operand::Src { code, .. } => sbase_ok(isa, code, dwords),
                    _ => false,
                };
                if !ok {
                    return Err(token.error(format!(
                        "`{}` is not a valid {}",
                        token.text,
                        spec.field.name()
                    )));
                }
                push(&mut inst, op);
            }
            Field::Soffset => {
                if parse_int(token.text).is_some() {
                    inst.modifiers.offset = parse_offset(token, token.text)?;
                    if isa == Isa::Gfx1030 {
                        push(
                            &mut inst,
                            Operand::Src {
                                code: NULL,
                                ty: OperandType::B32,
                            },
                        );
                    }
                } else {
                    match parse_src(target, token, OperandType::B32)? {
                        op @ Operand::Src { code, .. } if code < 128 => push(&mut inst, op),
                        _ => {
                            return Err(
                                token.error(format!("`{}` is not a valid soffset", token.text))
                            )
                        }
                    }
                }
            }
            _ => return Err(token.error("unsupported SMEM operand")),
        }
    }
    for token in &tokens[next..] {
        match token.text {
            "glc" => inst.modifiers.glc = true,
            "dlc" if isa == Isa::Gfx1030 => inst.modifiers.dlc = true,
            _ => match modifier_value(token, "offset") {
                Some(v) if isa == Isa::Gfx1030 => inst.modifiers.offset = parse_offset(token, v)?,
                _ => return Err(token.error(format!("unexpected `{}`", token.text))),
            },
        }
    }
    Ok(inst)
}

#[cfg(test)]
mod tests {
    use crate::isa::{decode, Target};

    fn text(target: Target, words: &[u32]) -> String {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        match decode(target, &bytes) {
            Ok(i) => i.to_string(),
            Err(e) => format!("ERR {e}"),
        }
    }

    #[test]
    fn gfx1030_offsets_and_soffset() {
        let t = Target::GFX1030_W32;
        assert_eq!(
            text(t, &[0xf400_0082, 0xfa00_0010]),
            "s_load_dword s2, s[4:5], 0x10"
        );
        assert_eq!(
            text(t, &[0xf400_0082, 0xfa1f_ffff]),
            "s_load_dword s2, s[4:5], -0x1"
        );
        assert_eq!(
            text(t, &[0xf400_0082, 0x0000_0010]),
            "s_load_dword s2, s[4:5], s0 offset:0x10"
        );
        assert_eq!(
            text(t, &[0xf400_0082, 0xfa00_0000]),
            "s_load_dword s2, s[4:5], null"
        );
        assert_eq!(
            text(t, &[0xf401_4082, 0xfa00_0010]),
            "s_load_dword s2, s[4:5], 0x10 glc dlc"
        );
        assert_eq!(
            text(t, &[0xf400_0082, 0xf800_0010]),
            "s_load_dword s2, s[4:5], m0 offset:0x10"
        );
        assert!(
            text(t, &[0xf400_2082, 0xfa00_0010]).starts_with("ERR"),
            "reserved bit 13"
        );
        assert!(
            text(t, &[0xf404_0042, 0xfa00_0010]).starts_with("ERR"),
            "odd sdata pair"
        );
    }

    #[test]
    fn gfx803_imm_and_sgpr_offsets() {
        let t = Target::GFX803;
        assert_eq!(
            text(t, &[0xc002_0082, 0x0000_002c]),
            "s_load_dword s2, s[4:5], 0x2c"
        );
        assert_eq!(
            text(t, &[0xc000_0082, 0x0000_0003]),
            "s_load_dword s2, s[4:5], s3"
        );
        assert_eq!(
            text(t, &[0xc021_0080, 0x0000_0010]),
            "s_buffer_load_dword s2, s[0:3], s16 glc"
        );
        assert!(
            text(t, &[0xc000_0082, 0x0000_0080]).starts_with("ERR"),
            "soffset above 7 bits"
        );
    }
}
