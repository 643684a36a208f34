//! VOP3P (gfx1030 packed math, `v_pk_*`, `v_dot*`, `v_fma_mix*`).
//!
//! ```text
//! word 0: 110011000 op[22:16] clamp[15] op_sel_hi2[14] op_sel[13:11] neg_hi[10:8] vdst[7:0]
//! word 1: neg_lo[31:29] op_sel_hi[28:27] src2[26:18] src1[17:9] src0[8:0]
//! ```
//! LLVM's default `op_sel_hi` is all ones (each source's high half feeds the high
//! lane) except for `v_fma_mix*`, where it is zero and `neg_lo`/`neg_hi` print as
//! `-x` and `|x|`.

use std::fmt;

use super::syntax::{
    mods_of, parse_bit_list, parse_operands, split_modifier, write_bit_list, write_head,
};
use super::{build, codes_of, invalid, push_words, source_count, vgpr_bits, Codes};
use crate::isa::operand::{LITERAL_CODE, VGPR_BASE};
use crate::isa::syntax::{AsmLine, SrcMods};
use crate::isa::words::dword;
use crate::isa::{
    AsmError, DecodeError, EncodeError, Family, Instruction, Modifiers, OpInfo, Opcode, Operand,
    OperandType, Target, Variant,
};

/// Bits 31:23 of a VOP3P word.
const PREFIX: u32 = 0x198;

/// `v_fma_mix_f32`, `v_fma_mixlo_f16`, `v_fma_mixhi_f16`: mixed-precision forms
/// whose modifiers are printed as source modifiers.
fn is_mix(opcode: Opcode) -> bool {
    opcode.mnemonic().starts_with("v_fma_mix")
}

/// LLVM's default `op_sel_hi` (all three bits, also for two-source opcodes).
fn default_op_sel_hi(opcode: Opcode) -> u8 {
    if is_mix(opcode) {
        0
    } else {
        7
    }
}

/// Decodes a VOP3P instruction.
#[inline(never)]
pub(super) fn decode(target: Target, bytes: &[u8]) -> Result<Instruction, DecodeError> {
    let w0 = dword(bytes, 0)?;
    let w1 = dword(bytes, 1)?;
    if w0 >> 23 != PREFIX {
        return Err(DecodeError::InvalidEncoding {
            offset: 0,
            word: w0,
        });
    }
    let op = (w0 >> 16 & 0x7f) as u16;
    let Some((info, plan)) = super::plan::plans().lookup(target.isa, Family::Vop3p, op) else {
        return Err(DecodeError::InvalidOpcode {
            offset: 0,
            family: Family::Vop3p,
            opcode: op,
        });
    };
    let name = info.opcode.mnemonic();
    let nsrc = plan.shape.nsrc;
    let mask = (1u8 << nsrc) - 1;
    let m = Modifiers {
        clamp: w0 >> 15 & 1 != 0,
        op_sel: (w0 >> 11 & 7) as u8,
        op_sel_hi: (w1 >> 27 & 3 | (w0 >> 14 & 1) << 2) as u8,
        neg_hi: (w0 >> 8 & 7) as u8,
        neg: (w1 >> 29) as u8,
        ..Modifiers::default()
    };
    if (m.op_sel | m.neg_hi | m.neg) & !mask != 0 {
        return Err(invalid(format!(
            "{name}: modifier bits set for a missing source"
        )));
    }
    if w1 >> 27 & 3 & !u32::from(mask) != 0 {
        return Err(invalid(format!(
            "{name}: op_sel_hi set for a missing source"
        )));
    }
    let srcs = [
        (w1 & 0x1ff) as u16,
        (w1 >> 9 & 0x1ff) as u16,
        (w1 >> 18 & 0x1ff) as u16,
    ];
    for (i, &code) in srcs.iter().enumerate().skip(nsrc) {
        if code != 0 {
            return Err(invalid(format!(
                "{name}: unused src{i} field is {code}, must be 0"
            )));
        }
    }
    let mut codes = Codes {
        vdst: VGPR_BASE + (w0 & 0xff) as u16,
        src: srcs,
        ..Codes::default()
    };
    let mut size = 8;
    if srcs[..nsrc].contains(&LITERAL_CODE) {
        codes.literal = Some(dword(bytes, 2)?);
        size = 12;
    }
    build(target, info, plan, Variant::Plain, &codes, m, size)
}

/// Encodes a VOP3P instruction.
pub(super) fn encode(
    inst: &Instruction,
    info: &OpInfo,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    let codes = codes_of(inst, info)?;
    let m = &inst.modifiers;
    if m.op_sel > 7
        || m.op_sel_hi > 7
        || m.neg_hi > 7
        || m.neg > 7
        || inst.variant != Variant::Plain
    {
        return Err(EncodeError::OperandOutOfRange(
            "VOP3P modifier out of range".into(),
        ));
    }
    let w0 = PREFIX << 23
        | u32::from(info.number) << 16
        | u32::from(m.clamp) << 15
        | u32::from(m.op_sel_hi >> 2 & 1) << 14
        | u32::from(m.op_sel) << 11
        | u32::from(m.neg_hi) << 8
        | vgpr_bits(codes.vdst, "vdst")?;
    let mut w1 = u32::from(m.neg) << 29 | u32::from(m.op_sel_hi & 3) << 27;
    for (i, &code) in codes.src.iter().enumerate().take(source_count(info)) {
        if code > 511 {
            return Err(EncodeError::OperandOutOfRange(format!(
                "src{i} code {code}"
            )));
        }
        w1 |= u32::from(code) << (9 * i);
    }
    push_words(out, &[w0, w1]);
    if let Some(lit) = codes.literal {
        push_words(out, &[lit]);
    }
    Ok(())
}

/// Writes LLVM's text of a VOP3P instruction.
pub(super) fn format(inst: &Instruction, info: &OpInfo, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let m = &inst.modifiers;
    let nsrc = source_count(info);
    let mask = (1u8 << nsrc) - 1;
    let mix = is_mix(inst.opcode);
    if mix {
        // LLVM reads a mixed-precision literal as a half (it prints the low 16 bits).
        let mut shown = *inst;
        for op in shown.operands.iter_mut() {
            if let Operand::Literal { ty, .. } = op {
                *ty = OperandType::F16;
            }
        }
        write_head(f, &shown, info.operands, "", |i| {
            mods_of(m.neg, m.neg_hi, 0, i)
        })?;
    } else {
        write_head(f, inst, info.operands, "", |_| SrcMods::default())?;
    }
    if m.op_sel & mask != 0 {
        write_bit_list(f, "op_sel", m.op_sel, nsrc)?;
    }
    if (m.op_sel_hi ^ default_op_sel_hi(inst.opcode)) & mask != 0 {
        write_bit_list(f, "op_sel_hi", m.op_sel_hi, nsrc)?;
    }
    if !mix {
        if m.neg & mask != 0 {
            write_bit_list(f, "neg_lo", m.neg, nsrc)?;
        }
        if m.neg_hi & mask != 0 {
            write_bit_list(f, "neg_hi", m.neg_hi, nsrc)?;
        }
    }
    if m.clamp {
        f.write_str(" clamp")?;
    }
    Ok(())
}

/// Parses a VOP3P line.
pub(super) fn parse(
    target: Target,
    info: &'static OpInfo,
    line: &AsmLine<'_>,
) -> Result<Instruction, AsmError> {
    let parsed = parse_operands(target, info.operands, line)?;
    let nsrc = source_count(info);
    let mask = (1u8 << nsrc) - 1;
    let mix = is_mix(info.opcode);
    let default_hi = default_op_sel_hi(info.opcode);
    let mut m = Modifiers {
        op_sel_hi: default_hi,
        ..Modifiers::default()
    };
    for (i, sm) in parsed.mods.iter().enumerate() {
        if *sm == SrcMods::default() {
            continue;
        }
        if !mix || sm.sext {
            return Err(AsmError::at_column(
                line.mnemonic_column,
                "packed math takes neg_lo:/neg_hi:, not source modifiers",
            ));
        }
        m.neg |= u8::from(sm.neg) << i;
        m.neg_hi |= u8::from(sm.abs) << i;
    }
    for t in parsed.rest {
        let (name, value) = split_modifier(t);
        match (name, value) {
            ("clamp", None) => m.clamp = true,
            ("op_sel", Some(v)) => m.op_sel = parse_bit_list(t, v, nsrc)?,
            ("op_sel_hi", Some(v)) => {
                m.op_sel_hi = parse_bit_list(t, v, nsrc)? | default_hi & !mask
            }
            ("neg_lo", Some(v)) if !mix => m.neg = parse_bit_list(t, v, nsrc)?,
            ("neg_hi", Some(v)) if !mix => m.neg_hi = parse_bit_list(t, v, nsrc)?,
            _ => return Err(t.error(format!("unexpected VOP3P modifier `{}`", t.text))),
        }
    }
    super::finish(target, info, Variant::Plain, &parsed.operands, m, line)
}
