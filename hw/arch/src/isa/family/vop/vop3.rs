//! VOP3 (64-bit encoding): VOP3a and VOP3b, native VOP3 opcodes and VOP1/VOP2/VOPC
//! promoted to `_e64`.
//!
//! ```text
//! word 0, gfx1030: 110101 op[25:16] clamp[15] op_sel[14:11] abs[10:8] vdst[7:0]
//! word 0, gfx803:  110100 op[25:16] clamp[15] 0000[14:11]   abs[10:8] vdst[7:0]
//! VOP3b word 0:    prefix op[25:16] clamp[15] sdst[14:8]              vdst[7:0]
//! word 1:          neg[31:29] omod[28:27] src2[26:18] src1[17:9] src0[8:0]
//! ```
//! gfx1030 allows one 32-bit literal (a source code of 255) after word 1.

use std::fmt;

use super::sdwa::{parse_omod, write_omod};
use super::syntax::{
    mods_of, parse_bit_list, parse_operands, split_modifier, write_bit_list, write_head,
};
use super::{
    build, codes_of, has_e32, has_field, invalid, is_vop3b, never_suffixed, push_words,
    source_count,
};
use super::{
    features, scalar_bits, shown_mods, src_policy, vgpr_bits, Codes, CLAMP, OMOD, OP_SEL, OP_SEL2,
};
use crate::isa::operand::{LITERAL_CODE, VGPR_BASE};
use crate::isa::syntax::{AsmLine, SrcMods};
use crate::isa::tables::Field;
use crate::isa::words::dword;
use crate::isa::{
    AsmError, DecodeError, EncodeError, Family, Instruction, Isa, Modifiers, OpInfo, Target,
    Variant,
};

/// The major opcode (bits 31:26) of VOP3 on `isa`.
fn prefix(isa: Isa) -> u32 {
    match isa {
        Isa::Gfx1030 => 0x35,
        Isa::Gfx803 => 0x34,
    }
}

/// The value of the destination field when the row has no destination operand:
/// gfx1030 `v_cmpx_*_e64` writes EXEC (`exec_lo`, 126), everything else 0.
fn implicit_vdst(isa: Isa, info: &OpInfo) -> u32 {
    if isa == Isa::Gfx1030 && info.number < 256 {
        126
    } else {
        0
    }
}

/// Mask of the source bits that exist (`nsrc` low bits).
fn source_mask(info: &OpInfo) -> u8 {
    (1u8 << source_count(info)) - 1
}

/// Decodes a VOP3 instruction.
#[inline(never)]
pub(super) fn decode(target: Target, bytes: &[u8]) -> Result<Instruction, DecodeError> {
    let w0 = dword(bytes, 0)?;
    let w1 = dword(bytes, 1)?;
    let op = (w0 >> 16 & 0x3ff) as u16;
    let Some((info, plan)) = super::plan::plans().lookup(target.isa, Family::Vop3, op) else {
        return Err(DecodeError::InvalidOpcode {
            offset: 0,
            family: Family::Vop3,
            opcode: op,
        });
    };
    let name = info.opcode.mnemonic();
    let shape = plan.shape;
    let vop3b = shape.vop3b();
    let nsrc = shape.nsrc;
    let mut m = Modifiers {
        clamp: w0 >> 15 & 1 != 0,
        omod: (w1 >> 27 & 3) as u8,
        neg: (w1 >> 29) as u8,
        ..Modifiers::default()
    };
    let mut codes = Codes::default();
    if vop3b {
        codes.sdst = (w0 >> 8 & 0x7f) as u16;
    } else {
        m.abs = (w0 >> 8 & 7) as u8;
        // gfx803 has no op_sel; LLVM ignores those bits, which are kept here.
        m.op_sel = (w0 >> 11 & 0xf) as u8;
    }
    let vdst = w0 & 0xff;
    if shape.vdst {
        codes.vdst = VGPR_BASE + vdst as u16;
    } else if shape.sdst && !vop3b {
        codes.sdst = vdst as u16;
    } else {
        // No destination operand (gfx1030 v_cmpx, v_nop): LLVM ignores the field;
        // it is kept in `simm16` so the bytes re-encode.
        m.simm16 = vdst as u16;
    }
    let srcs = [
        (w1 & 0x1ff) as u16,
        (w1 >> 9 & 0x1ff) as u16,
        (w1 >> 18 & 0x1ff) as u16,
    ];
    for (i, &code) in srcs.iter().enumerate() {
        if i >= nsrc && code != 0 {
            return Err(invalid(format!(
                "{name}: unused src{i} field is {code}, must be 0"
            )));
        }
    }
    codes.src = srcs;
    let features = features(target.isa, Family::Vop3, info.number);
    // LLVM's decoder ignores neg/abs bits of op_sel (16-bit) opcodes that take none;
    // they are kept so the bytes re-encode, and not printed.
    let lenient = features & (OP_SEL | OP_SEL2) != 0;
    for i in (0..3).filter(|i| (m.neg | m.abs) >> i & 1 != 0) {
        let mods = mods_of(m.neg, m.abs, 0, i);
        let p = src_policy(target.isa, info, Variant::Plain, i);
        // An integer source with `sext` ignores its abs bit.
        let neg_ok = p.neg || p.sext;
        let abs_ok = p.abs || p.sext;
        let present = i < nsrc;
        if (mods.neg && !neg_ok || mods.abs && !abs_ok) && !(lenient && present) {
            return Err(invalid(format!(
                "{name}: neg/abs on src{i}, which takes none"
            )));
        }
    }
    if m.omod != 0 && features & OMOD == 0 {
        return Err(invalid(format!("{name}: takes no output modifier")));
    }
    if m.clamp && features & CLAMP == 0 {
        return Err(invalid(format!("{name}: takes no clamp")));
    }
    // LLVM ignores op_sel bits of opcodes that take none: they are kept, not printed.
    let mut size = 8;
    if srcs[..nsrc].contains(&LITERAL_CODE) {
        if target.isa == Isa::Gfx803 {
            return Err(invalid(format!(
                "{name}: gfx803 VOP3 cannot take a literal"
            )));
        }
        codes.literal = Some(dword(bytes, 2)?);
        size = 12;
    }
    build(target, info, plan, Variant::Plain, &codes, m, size)
}

/// Encodes a VOP3 instruction.
pub(super) fn encode(
    inst: &Instruction,
    info: &OpInfo,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    if inst.variant != Variant::Plain {
        return Err(EncodeError::OperandOutOfRange(
            "VOP3 has no SDWA/DPP form on these ISAs".into(),
        ));
    }
    let isa = inst.target.isa;
    let codes = codes_of(inst, info)?;
    let m = &inst.modifiers;
    let nsrc = source_count(info);
    let mut w0 = prefix(isa) << 26 | u32::from(info.number) << 16 | u32::from(m.clamp) << 15;
    if is_vop3b(info) {
        if m.abs != 0 || m.op_sel != 0 {
            return Err(EncodeError::OperandOutOfRange(
                "VOP3b has no abs/op_sel".into(),
            ));
        }
        w0 |= scalar_bits(codes.sdst, 7, "sdst")? << 8;
    } else {
        if m.abs > 7 || m.op_sel > 15 {
            return Err(EncodeError::OperandOutOfRange(
                "abs/op_sel out of range".into(),
            ));
        }
        w0 |= u32::from(m.op_sel) << 11 | u32::from(m.abs) << 8;
    }
    w0 |= if has_field(info, Field::Vdst) {
        vgpr_bits(codes.vdst, "vdst")?
    } else if has_field(info, Field::Sdst) && !is_vop3b(info) {
        scalar_bits(codes.sdst, 8, "sdst")?
    } else {
        u32::from(m.simm16 & 0xff)
    };
    let mut w1 = u32::from(m.neg & 7) << 29 | u32::from(m.omod & 3) << 27;
    for (i, &code) in codes.src.iter().enumerate().take(nsrc) {
        if code > 511 {
            return Err(EncodeError::OperandOutOfRange(format!(
                "src{i} code {code}"
            )));
        }
        w1 |= u32::from(code) << (9 * i);
    }
    push_words(out, &[w0, w1]);
    if let Some(lit) = codes.literal {
        if isa == Isa::Gfx803 {
            return Err(EncodeError::OperandOutOfRange(
                "gfx803 VOP3 cannot take a literal".into(),
            ));
        }
        push_words(out, &[lit]);
    }
    Ok(())
}

/// Writes LLVM's text of a VOP3 instruction.
pub(super) fn format(inst: &Instruction, info: &OpInfo, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let m = &inst.modifiers;
    let suffix = if !never_suffixed(inst.opcode) && has_e32(inst.target.isa, inst.opcode) {
        "_e64"
    } else {
        ""
    };
    write_head(f, inst, info.operands, suffix, |i| {
        let bits = mods_of(m.neg, m.abs, 0, i);
        shown_mods(
            src_policy(inst.target.isa, info, Variant::Plain, i),
            bits.neg,
            bits.abs,
            None,
        )
    })?;
    let features = features(inst.target.isa, Family::Vop3, info.number);
    if m.op_sel != 0 && features & OP_SEL != 0 {
        let nsrc = source_count(info);
        let bits = m.op_sel & source_mask(info) | (m.op_sel >> 3 & 1) << nsrc;
        write_bit_list(f, "op_sel", bits, nsrc + 1)?;
    } else if m.op_sel & 3 != 0 && features & OP_SEL2 != 0 {
        // v_permlane*: two bits (fetch-inactive, bound_ctrl).
        write_bit_list(f, "op_sel", m.op_sel & 3, 2)?;
    }
    if m.clamp {
        f.write_str(" clamp")?;
    }
    write_omod(f, m.omod)
}

/// Parses a VOP3 line.
pub(super) fn parse(
    target: Target,
    info: &'static OpInfo,
    line: &AsmLine<'_>,
) -> Result<Instruction, AsmError> {
    let parsed = parse_operands(target, info.operands, line)?;
    let nsrc = source_count(info);
    let mut m = Modifiers {
        simm16: implicit_vdst(target.isa, info) as u16,
        ..Modifiers::default()
    };
    if has_field(info, Field::Vdst) || has_field(info, Field::Sdst) {
        m.simm16 = 0;
    }
    for (i, sm) in parsed.mods.iter().enumerate() {
        if *sm == SrcMods::default() {
            continue;
        }
        let position = info
            .operands
            .iter()
            .position(|s| super::source_index(s.field) == Some(i))
            .unwrap_or(0);
        let token = &line.tokens[position];
        let p = src_policy(target.isa, info, Variant::Plain, i);
        if sm.sext && !p.sext || sm.neg && !p.neg || sm.abs && !p.abs {
            return Err(token.error(format!(
                "`{}`: this source takes no such modifier",
                token.text
            )));
        }
        m.neg |= u8::from(sm.neg || sm.sext) << i;
        m.abs |= u8::from(sm.abs) << i;
    }
    let features = features(target.isa, Family::Vop3, info.number);
    for t in parsed.rest {
        let (name, value) = split_modifier(t);
        match (name, value) {
            ("clamp", None) if features & CLAMP != 0 => m.clamp = true,
            ("mul" | "div", Some(v)) if features & OMOD != 0 => m.omod = parse_omod(t, name, v)?,
            ("op_sel", Some(v)) if features & OP_SEL != 0 => {
                let bits = parse_bit_list(t, v, nsrc + 1)?;
                m.op_sel = bits & source_mask(info) | (bits >> nsrc & 1) << 3;
            }
            ("op_sel", Some(v)) if features & OP_SEL2 != 0 => m.op_sel = parse_bit_list(t, v, 2)?,
            _ => return Err(t.error(format!("unexpected VOP3 modifier `{}`", t.text))),
        }
    }
    if target.isa == Isa::Gfx803
        && parsed
            .operands
            .iter()
            .any(|o| matches!(o, crate::isa::Operand::Literal { .. }))
    {
        return Err(AsmError::at_column(
            line.mnemonic_column,
            "gfx803 VOP3 cannot take a literal",
        ));
    }
    super::finish(target, info, Variant::Plain, &parsed.operands, m, line)
}
