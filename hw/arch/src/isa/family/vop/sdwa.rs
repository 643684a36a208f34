//! SDWA (sub-dword addressing): VOP1/VOP2/VOPC with `src0` = 249 and a second
//! dword of selectors.
//!
//! ```text
//! src0[7:0] dst_sel[10:8] dst_unused[12:11] clamp[13] omod[15:14]
//! src0_sel[18:16] src0_sext[19] src0_neg[20] src0_abs[21] s0[23]
//! src1_sel[26:24] src1_sext[27] src1_neg[28] src1_abs[29] s1[31]
//! ```
//! gfx1030 VOPC puts `sdst[14:8]` and `sd[15]` where dst_sel..omod are; gfx803 has
//! no omod and no s0/s1 (sources are VGPRs).
//!
//! LLVM ignores the bits an ISA does not define (bits 22 and 30; on gfx803 also
//! 15:14, 23 and 31; on gfx1030 VOPC the sdst field when sd=0). They are kept so
//! the bytes re-encode: bits 22, 30, 23, 31 in `sext` bits 4–7 (which no source
//! uses), gfx803's 15:14 in `omod` (not printed there), gfx1030 VOPC's 15:8 in
//! `dst_sel`.

use std::fmt;

use super::plan::RowPlan;
use super::syntax::{mods_of, split_modifier, write_head};
use super::{has_field, invalid, shown_mods, src_policy, Codes, VCC_CODE};
use crate::isa::operand::VGPR_BASE;
use crate::isa::syntax::{SrcMods, Token};
use crate::isa::tables::Field;
use crate::isa::{
    AsmError, DecodeError, EncodeError, Family, Instruction, Isa, Modifiers, OpInfo, Target,
    Variant,
};

/// LLVM's names of the selects (`dst_sel`, `src0_sel`, `src1_sel`), by value.
const SEL_NAMES: [&str; 7] = [
    "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD",
];
/// LLVM's names of `dst_unused`, by value.
const UNUSED_NAMES: [&str; 3] = ["UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE"];
/// `DWORD`.
const SEL_DWORD: u8 = 6;
/// `UNUSED_PRESERVE`.
const UNUSED_PRESERVE: u8 = 2;

/// True when the SDWA layout has the destination fields (dst_sel, dst_unused, omod).
fn has_dst_fields(info: &OpInfo) -> bool {
    info.family != Family::Vopc
}

/// Reads the SDWA word into `codes` and the modifiers.
#[inline]
pub(super) fn decode(
    target: Target,
    info: &OpInfo,
    plan: &RowPlan,
    codes: &mut Codes,
    vsrc1: u32,
    w: u32,
) -> Result<Modifiers, DecodeError> {
    let gfx10 = target.isa == Isa::Gfx1030;
    let bit = |n: u32| w >> n & 1 != 0;
    let mut m = Modifiers {
        src0_sel: (w >> 16 & 7) as u8,
        src1_sel: (w >> 24 & 7) as u8,
        sext: (w >> 19 & 1 | (w >> 27 & 1) << 1) as u8,
        neg: (w >> 20 & 1 | (w >> 28 & 1) << 1) as u8,
        abs: (w >> 21 & 1 | (w >> 29 & 1) << 1) as u8,
        ..Modifiers::default()
    };
    m.sext |= ((w >> 22 & 1) << 4 | (w >> 30 & 1) << 5) as u8;
    if !gfx10 {
        m.sext |= ((w >> 23 & 1) << 6 | (w >> 31 & 1) << 7) as u8;
    }
    let src0 = (w & 0xff) as u16;
    codes.src[0] = if gfx10 && bit(23) {
        src0
    } else {
        VGPR_BASE + src0
    };
    codes.src[1] = if gfx10 && bit(31) {
        vsrc1 as u16
    } else {
        VGPR_BASE + vsrc1 as u16
    };
    if info.family == Family::Vopc && gfx10 {
        let sdst = (w >> 8 & 0x7f) as u16;
        if bit(15) {
            if !has_field(info, Field::Vcc) {
                return Err(invalid("v_cmpx SDWA writes EXEC; sd must be 0".into()));
            }
            if sdst == VCC_CODE {
                return Err(invalid(
                    "SDWA sdst names vcc explicitly; LLVM encodes it with sd=0".into(),
                ));
            }
            codes.vcc = sdst;
        } else {
            m.dst_sel = sdst as u8;
        }
    } else {
        m.dst_sel = (w >> 8 & 7) as u8;
        m.dst_unused = (w >> 11 & 3) as u8;
        m.clamp = bit(13);
        m.omod = (w >> 14 & 3) as u8;
        if gfx10 && info.family == Family::Vopc && m.omod != 0 {
            return Err(invalid("VOPC SDWA has no omod".into()));
        }
    }
    let dst_checked = !(gfx10 && info.family == Family::Vopc);
    if dst_checked && (m.dst_sel > 6 || m.dst_unused > 2) || m.src0_sel > 6 || m.src1_sel > 6 {
        return Err(invalid(format!(
            "SDWA word {w:#010x} holds an invalid select"
        )));
    }
    // Modifier bits of a source the opcode does not have are invalid; bits an
    // existing source does not take are ignored by LLVM (kept, not printed) when
    // the opcode takes modifiers anywhere, invalid otherwise.
    let sources = plan.shape.nsrc;
    for i in 0..2 {
        let set = (m.neg | m.abs | m.sext) >> i & 1 != 0;
        if set && (i >= sources || !plan.sdwa_mods) {
            return Err(invalid(format!(
                "SDWA modifier bits on source {i}, which takes none"
            )));
        }
    }
    if sources < 2 && m.src1_sel != 0 {
        return Err(invalid(
            "SDWA src1_sel set for an opcode without src1".into(),
        ));
    }
    Ok(m)
}

/// Builds the SDWA word.
pub(super) fn encode(inst: &Instruction, info: &OpInfo, codes: &Codes) -> Result<u32, EncodeError> {
    let gfx10 = inst.target.isa == Isa::Gfx1030;
    let m = &inst.modifiers;
    let source = |code: u16, what: &str| -> Result<(u32, u32), EncodeError> {
        if code >= VGPR_BASE {
            Ok((u32::from(code - VGPR_BASE), 0))
        } else if gfx10 && code < 255 {
            Ok((u32::from(code), 1))
        } else {
            Err(EncodeError::OperandOutOfRange(format!(
                "SDWA {what} must be a VGPR (code {code})"
            )))
        }
    };
    let (src0, s0) = source(codes.src[0], "src0")?;
    let s1 = if has_field(info, Field::Src1) {
        source(codes.src[1], "src1")?.1
    } else {
        0
    };
    let fits = |v: u8, max: u8, what: &str| {
        if v <= max {
            Ok(u32::from(v))
        } else {
            Err(EncodeError::OperandOutOfRange(format!("SDWA {what} = {v}")))
        }
    };
    let mut w = src0
        | fits(m.src0_sel, 6, "src0_sel")? << 16
        | u32::from(m.sext >> 4 & 1) << 22
        | u32::from(m.sext >> 5 & 1) << 30
        | if gfx10 {
            0
        } else {
            u32::from(m.sext >> 6 & 1) << 23 | u32::from(m.sext >> 7 & 1) << 31
        }
        | u32::from(m.sext & 1) << 19
        | u32::from(m.neg & 1) << 20
        | u32::from(m.abs & 1) << 21
        | s0 << 23
        | fits(m.src1_sel, 6, "src1_sel")? << 24
        | u32::from(m.sext >> 1 & 1) << 27
        | u32::from(m.neg >> 1 & 1) << 28
        | u32::from(m.abs >> 1 & 1) << 29
        | s1 << 31;
    if info.family == Family::Vopc && gfx10 {
        if codes.vcc != VCC_CODE {
            w |= super::scalar_bits(codes.vcc, 7, "SDWA sdst")? << 8 | 1 << 15;
        } else {
            w |= fits(m.dst_sel, 0x7f, "ignored sdst bits")? << 8;
        }
    } else {
        w |= fits(m.dst_sel, 6, "dst_sel")? << 8
            | fits(m.dst_unused, 2, "dst_unused")? << 11
            | u32::from(m.clamp) << 13
            | fits(m.omod, 3, "omod")? << 14;
    }
    Ok(w)
}

/// Writes LLVM's SDWA text.
pub(super) fn format(inst: &Instruction, info: &OpInfo, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let m = &inst.modifiers;
    // LLVM prints gfx803 VOPC SDWA without the `_sdwa` suffix.
    let suffix = if info.family == Family::Vopc && inst.target.isa == Isa::Gfx803 {
        ""
    } else {
        "_sdwa"
    };
    write_head(f, inst, info.operands, suffix, |i| {
        let bits = mods_of(m.neg, m.abs, m.sext & 3, i);
        shown_mods(
            src_policy(inst.target.isa, info, Variant::Sdwa, i),
            bits.neg,
            bits.abs,
            Some(bits.sext),
        )
    })?;
    let gfx10_vopc = info.family == Family::Vopc && inst.target.isa == Isa::Gfx1030;
    if m.clamp && !gfx10_vopc {
        f.write_str(" clamp")?;
    }
    if inst.target.isa == Isa::Gfx1030 {
        write_omod(f, m.omod)?;
    }
    let name =
        |v: u8, names: &'static [&'static str]| names.get(usize::from(v)).copied().unwrap_or("?");
    if has_dst_fields(info) {
        write!(
            f,
            " dst_sel:{} dst_unused:{}",
            name(m.dst_sel, &SEL_NAMES),
            name(m.dst_unused, &UNUSED_NAMES)
        )?;
    }
    write!(f, " src0_sel:{}", name(m.src0_sel, &SEL_NAMES))?;
    if has_field(info, Field::Src1) {
        write!(f, " src1_sel:{}", name(m.src1_sel, &SEL_NAMES))?;
    }
    Ok(())
}

/// Writes ` mul:2`, ` mul:4` or ` div:2` for a nonzero output modifier.
pub(super) fn write_omod(f: &mut fmt::Formatter<'_>, omod: u8) -> fmt::Result {
    match omod {
        1 => f.write_str(" mul:2"),
        2 => f.write_str(" mul:4"),
        3 => f.write_str(" div:2"),
        _ => Ok(()),
    }
}

/// Parses `mul:2`, `mul:4`, `div:2` (and the no-op `mul:1`, `div:1`).
pub(super) fn parse_omod(token: &Token<'_>, name: &str, value: &str) -> Result<u8, AsmError> {
    match (name, value) {
        ("mul", "1") | ("div", "1") => Ok(0),
        ("mul", "2") => Ok(1),
        ("mul", "4") => Ok(2),
        ("div", "2") => Ok(3),
        _ => Err(token.error(format!("invalid output modifier `{}`", token.text))),
    }
}

/// Parses the SDWA modifiers after the operands and folds in the source modifiers.
pub(super) fn parse_modifiers(
    target: Target,
    info: &OpInfo,
    mods: &[SrcMods; 3],
    rest: &[Token<'_>],
) -> Result<Modifiers, AsmError> {
    let gfx803_vopc = info.family == Family::Vopc && target.isa == Isa::Gfx803;
    let mut m = Modifiers {
        dst_sel: if gfx803_vopc { 0 } else { SEL_DWORD },
        dst_unused: if gfx803_vopc { 0 } else { UNUSED_PRESERVE },
        src0_sel: SEL_DWORD,
        src1_sel: if has_field(info, Field::Src1) {
            SEL_DWORD
        } else {
            0
        },
        ..Modifiers::default()
    };
    if info.family == Family::Vopc && target.isa == Isa::Gfx1030 {
        m.dst_sel = 0;
        m.dst_unused = 0;
    }
    for (i, sm) in mods.iter().enumerate().take(2) {
        let p = src_policy(target.isa, info, Variant::Sdwa, i);
        if sm.sext && !p.sext || sm.neg && !p.neg || sm.abs && !p.abs {
            return Err(AsmError::at_column(
                1,
                format!("source {i}: modifier not allowed in SDWA"),
            ));
        }
        m.neg |= u8::from(sm.neg) << i;
        m.abs |= u8::from(sm.abs) << i;
        m.sext |= u8::from(sm.sext) << i;
    }
    let sel = |t: &Token<'_>, v: &str| {
        SEL_NAMES
            .iter()
            .position(|n| *n == v)
            .map(|p| p as u8)
            .ok_or_else(|| t.error(format!("unknown select `{v}`")))
    };
    for t in rest {
        let (name, value) = split_modifier(t);
        match (name, value) {
            ("clamp", None) => m.clamp = true,
            ("mul" | "div", Some(v)) => m.omod = parse_omod(t, name, v)?,
            ("dst_sel", Some(v)) if has_dst_fields(info) => m.dst_sel = sel(t, v)?,
            ("dst_unused", Some(v)) if has_dst_fields(info) => {
                m.dst_unused = UNUSED_NAMES
                    .iter()
                    .position(|n| *n == v)
                    .map(|p| p as u8)
                    .ok_or_else(|| t.error(format!("unknown dst_unused `{v}`")))?
            }
            ("src0_sel", Some(v)) => m.src0_sel = sel(t, v)?,
            ("src1_sel", Some(v)) if has_field(info, Field::Src1) => m.src1_sel = sel(t, v)?,
            _ => return Err(t.error(format!("unexpected SDWA modifier `{}`", t.text))),
        }
    }
    Ok(m)
}
