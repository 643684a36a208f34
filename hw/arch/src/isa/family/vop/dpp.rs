//! DPP (data-parallel primitives): VOP1/VOP2/VOPC with a second dword of lane
//! controls. DPP16 (`src0` = 250) on both ISAs; DPP8 (`src0` = 233, or 234 with
//! fetch-inactive) on gfx1030.
//!
//! ```text
//! DPP16: src0[7:0] dpp_ctrl[16:8] fi[18] bound_ctrl[19] src0_neg[20] src0_abs[21]
//!        src1_neg[22] src1_abs[23] bank_mask[27:24] row_mask[31:28]
//! DPP8:  src0[7:0] sel0[10:8] sel1[13:11] ... sel7[31:29]
//! ```

use std::fmt;

use super::plan::RowPlan;
use super::syntax::{mods_of, parse_small, split_modifier, write_head};
use super::{invalid, shown_mods, src_policy, Codes};
use crate::isa::operand::{DPP8_FI_CODE, VGPR_BASE};
use crate::isa::syntax::{parse_int, SrcMods, Token};
use crate::isa::{
    AsmError, DecodeError, EncodeError, Instruction, Isa, Modifiers, OpInfo, Target, Variant,
};

/// Whether `ctrl` is a valid DPP16 control on `isa`.
fn valid_ctrl(isa: Isa, ctrl: u16) -> bool {
    match ctrl {
        0x000..=0x0ff | 0x101..=0x10f | 0x111..=0x11f | 0x121..=0x12f | 0x140 | 0x141 => true,
        0x130 | 0x134 | 0x138 | 0x13c | 0x142 | 0x143 => isa == Isa::Gfx803,
        0x150..=0x16f => isa == Isa::Gfx1030,
        _ => false,
    }
}

/// Reads the DPP word into `codes` and the modifiers.
#[inline]
pub(super) fn decode(
    target: Target,
    plan: &RowPlan,
    variant: Variant,
    src0_field: u16,
    codes: &mut Codes,
    w: u32,
) -> Result<Modifiers, DecodeError> {
    codes.src[0] = VGPR_BASE + (w & 0xff) as u16;
    let mut m = Modifiers::default();
    if variant == Variant::Dpp8 {
        m.dpp8 = w >> 8;
        m.fi = src0_field == DPP8_FI_CODE;
        return Ok(m);
    }
    // Bits 17:8: the 9-bit control plus a reserved bit LLVM ignores (kept, not printed).
    m.dpp_ctrl = (w >> 8 & 0x3ff) as u16;
    m.fi = w >> 18 & 1 != 0;
    m.bound_ctrl = w >> 19 & 1 != 0;
    m.neg = (w >> 20 & 1 | (w >> 22 & 1) << 1) as u8;
    m.abs = (w >> 21 & 1 | (w >> 23 & 1) << 1) as u8;
    m.bank_mask = (w >> 24 & 0xf) as u8;
    m.row_mask = (w >> 28) as u8;
    // gfx803 has no `fi`; LLVM ignores the bit (kept in `fi`, not printed there).
    if !valid_ctrl(target.isa, m.dpp_ctrl & 0x1ff) {
        return Err(invalid(format!(
            "DPP control {:#x} is not valid on {}",
            m.dpp_ctrl, target.isa
        )));
    }
    // Modifier bits of a source the opcode does not have are invalid; bits an
    // existing source does not take are ignored by LLVM (kept, not printed) when
    // the opcode takes modifiers anywhere, invalid otherwise.
    // (`plan.dpp_mods`, which also covers v_dot4c_i32_i8's unchecked modifiers.)
    for i in 0..2 {
        let set = (m.neg | m.abs) >> i & 1 != 0;
        if set && (i >= plan.shape.nsrc || !plan.dpp_mods) {
            return Err(invalid(format!(
                "DPP modifier bits on source {i}, which takes none"
            )));
        }
    }
    Ok(m)
}

/// Builds the DPP word.
pub(super) fn encode(inst: &Instruction, info: &OpInfo, codes: &Codes) -> Result<u32, EncodeError> {
    let m = &inst.modifiers;
    // `v_nop` has no source; its field is 0.
    let src0 = if super::has_field(info, crate::isa::Field::Src0) {
        super::vgpr_bits(codes.src[0], "DPP src0")?
    } else {
        0
    };
    if inst.variant == Variant::Dpp8 {
        if m.dpp8 >> 24 != 0 {
            return Err(EncodeError::OperandOutOfRange(format!(
                "dpp8 selects {:#x}",
                m.dpp8
            )));
        }
        return Ok(src0 | m.dpp8 << 8);
    }
    if !valid_ctrl(inst.target.isa, m.dpp_ctrl & 0x1ff)
        || m.dpp_ctrl > 0x3ff
        || m.row_mask > 15
        || m.bank_mask > 15
    {
        return Err(EncodeError::OperandOutOfRange(format!(
            "DPP control {:#x}",
            m.dpp_ctrl
        )));
    }
    Ok(src0
        | u32::from(m.dpp_ctrl) << 8
        | u32::from(m.fi) << 18
        | u32::from(m.bound_ctrl) << 19
        | u32::from(m.neg & 1) << 20
        | u32::from(m.abs & 1) << 21
        | u32::from(m.neg >> 1 & 1) << 22
        | u32::from(m.abs >> 1 & 1) << 23
        | u32::from(m.bank_mask) << 24
        | u32::from(m.row_mask) << 28)
}

/// Writes a DPP16 control as LLVM does.
fn write_ctrl(f: &mut fmt::Formatter<'_>, ctrl: u16) -> fmt::Result {
    match ctrl {
        0x000..=0x0ff => write!(
            f,
            " quad_perm:[{},{},{},{}]",
            ctrl & 3,
            ctrl >> 2 & 3,
            ctrl >> 4 & 3,
            ctrl >> 6 & 3
        ),
        0x101..=0x10f => write!(f, " row_shl:{}", ctrl & 0xf),
        0x111..=0x11f => write!(f, " row_shr:{}", ctrl & 0xf),
        0x121..=0x12f => write!(f, " row_ror:{}", ctrl & 0xf),
        0x130 => f.write_str(" wave_shl:1"),
        0x134 => f.write_str(" wave_rol:1"),
        0x138 => f.write_str(" wave_shr:1"),
        0x13c => f.write_str(" wave_ror:1"),
        0x140 => f.write_str(" row_mirror"),
        0x141 => f.write_str(" row_half_mirror"),
        0x142 => f.write_str(" row_bcast:15"),
        0x143 => f.write_str(" row_bcast:31"),
        0x150..=0x15f => write!(f, " row_share:{}", ctrl & 0xf),
        0x160..=0x16f => write!(f, " row_xmask:{}", ctrl & 0xf),
        _ => write!(f, " dpp_ctrl:{ctrl:#x}"),
    }
}

/// Writes LLVM's DPP text.
pub(super) fn format(inst: &Instruction, info: &OpInfo, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let m = &inst.modifiers;
    let suffix = if super::never_suffixed(inst.opcode) {
        ""
    } else {
        "_dpp"
    };
    write_head(f, inst, info.operands, suffix, |i| {
        let bits = mods_of(m.neg, m.abs, 0, i);
        shown_mods(
            src_policy(inst.target.isa, info, inst.variant, i),
            bits.neg,
            bits.abs,
            None,
        )
    })?;
    if inst.variant == Variant::Dpp8 {
        f.write_str(" dpp8:[")?;
        for i in 0..8 {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{}", m.dpp8 >> (3 * i) & 7)?;
        }
        f.write_str("]")?;
    } else {
        write_ctrl(f, m.dpp_ctrl & 0x1ff)?;
        write!(
            f,
            " row_mask:{:#x} bank_mask:{:#x}",
            m.row_mask, m.bank_mask
        )?;
        if m.bound_ctrl {
            f.write_str(" bound_ctrl:1")?;
        }
    }
    if m.fi && inst.target.isa == Isa::Gfx1030 {
        f.write_str(" fi:1")?;
    }
    Ok(())
}

/// Parses `[a,b,...]` of `n` numbers each in `0..=max`.
fn parse_selects(t: &Token<'_>, value: &str, n: usize, max: i64) -> Result<Vec<u32>, AsmError> {
    let inner = value
        .strip_prefix('[')
        .and_then(|v| v.strip_suffix(']'))
        .ok_or_else(|| t.error(format!("expected `[...]` in `{}`", t.text)))?;
    let items: Vec<u32> = inner
        .split(',')
        .map(|x| match parse_int(x.trim()) {
            Some(v) if (0..=max).contains(&v) => Ok(v as u32),
            _ => Err(t.error(format!("`{}`: each select must be in 0..={max}", t.text))),
        })
        .collect::<Result<_, _>>()?;
    if items.len() != n {
        return Err(t.error(format!("`{}` needs {n} selects", t.text)));
    }
    Ok(items)
}

/// Parses the DPP modifiers after the operands and folds in the source modifiers.
pub(super) fn parse_modifiers(
    target: Target,
    info: &OpInfo,
    variant: Variant,
    mods: &[SrcMods; 3],
    rest: &[Token<'_>],
) -> Result<Modifiers, AsmError> {
    let mut m = Modifiers {
        row_mask: 0xf,
        bank_mask: 0xf,
        ..Modifiers::default()
    };
    for (i, sm) in mods.iter().enumerate().take(2) {
        let p = src_policy(target.isa, info, variant, i);
        if sm.sext && !p.sext || sm.neg && !p.neg || sm.abs && !p.abs {
            return Err(AsmError::at_column(
                1,
                format!("source {i}: modifier not allowed in DPP"),
            ));
        }
        m.neg |= u8::from(sm.neg || sm.sext) << i;
        m.abs |= u8::from(sm.abs) << i;
    }
    let gfx10 = target.isa == Isa::Gfx1030;
    let mut have_ctrl = false;
    for t in rest {
        let (name, value) = split_modifier(t);
        let mut ctrl = |v: u16| {
            have_ctrl = true;
            m.dpp_ctrl = v;
        };
        match (name, value) {
            ("dpp8", Some(v)) if variant == Variant::Dpp8 => {
                let sel = parse_selects(t, v, 8, 7)?;
                m.dpp8 = sel
                    .iter()
                    .enumerate()
                    .fold(0, |acc, (i, s)| acc | s << (3 * i));
                have_ctrl = true;
            }
            ("quad_perm", Some(v)) => {
                let sel = parse_selects(t, v, 4, 3)?;
                ctrl(
                    sel.iter()
                        .enumerate()
                        .fold(0, |acc, (i, s)| acc | (*s as u16) << (2 * i)),
                );
            }
            ("row_shl", Some(v)) => ctrl(0x100 | parse_small(t, v, 15)?.max(1) as u16),
            ("row_shr", Some(v)) => ctrl(0x110 | parse_small(t, v, 15)?.max(1) as u16),
            ("row_ror", Some(v)) => ctrl(0x120 | parse_small(t, v, 15)?.max(1) as u16),
            ("wave_shl", Some("1")) if !gfx10 => ctrl(0x130),
            ("wave_rol", Some("1")) if !gfx10 => ctrl(0x134),
            ("wave_shr", Some("1")) if !gfx10 => ctrl(0x138),
            ("wave_ror", Some("1")) if !gfx10 => ctrl(0x13c),
            ("row_mirror", None) => ctrl(0x140),
            ("row_half_mirror", None) => ctrl(0x141),
            ("row_bcast", Some("15")) if !gfx10 => ctrl(0x142),
            ("row_bcast", Some("31")) if !gfx10 => ctrl(0x143),
            ("row_share", Some(v)) if gfx10 => ctrl(0x150 | parse_small(t, v, 15)? as u16),
            ("row_xmask", Some(v)) if gfx10 => ctrl(0x160 | parse_small(t, v, 15)? as u16),
            ("row_mask", Some(v)) => m.row_mask = parse_small(t, v, 15)? as u8,
            ("bank_mask", Some(v)) => m.bank_mask = parse_small(t, v, 15)? as u8,
            // LLVM reads `bound_ctrl:0` as setting the bit too (its historical spelling).
            ("bound_ctrl", Some("0" | "1")) => m.bound_ctrl = true,
            ("fi", Some(v)) if gfx10 => m.fi = parse_small(t, v, 1)? == 1,
            _ => return Err(t.error(format!("unexpected DPP modifier `{}`", t.text))),
        }
    }
    if !have_ctrl {
        return Err(AsmError::at_column(
            rest.last().map_or(1, |t| t.column),
            "DPP needs a control (quad_perm:, row_shl:, dpp8:, ...)",
        ));
    }
    Ok(m)
}
