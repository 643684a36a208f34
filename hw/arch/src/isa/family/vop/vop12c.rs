//! The 32-bit VOP1 / VOP2 / VOPC layouts (`_e32`) and the dispatch to their SDWA
//! and DPP extensions (selected by the `src0` field: 249 SDWA, 250 DPP16,
//! 233/234 DPP8).
//!
//! ```text
//! VOP1: 0111111 vdst[24:17] op[16:9]  src0[8:0]
//! VOP2: 0 op[30:25] vdst[24:17] vsrc1[16:9] src0[8:0]
//! VOPC: 0111110 op[24:17]  vsrc1[16:9] src0[8:0]
//! ```

use std::fmt;

use super::syntax::{parse_operands, split_modifier, write_head};
use super::{
    build, codes_of, dpp, has_e64, has_field, invalid, never_suffixed, push_words, sdwa, vgpr_bits,
};
use super::{features, scalar_bits, variant_feature, Codes, VCC_CODE};
use super::{SRC0_FIELD, VDST_FIELD, VSRC1_FIELD};
use crate::isa::operand::{
    DPP16_CODE, DPP8_CODE, DPP8_FI_CODE, LITERAL_CODE, SDWA_CODE, VGPR_BASE,
};
use crate::isa::syntax::{AsmLine, SrcMods};
use crate::isa::tables::Field;
use crate::isa::words::dword;
use crate::isa::{
    AsmError, DecodeError, EncodeError, Family, Instruction, Isa, Modifiers, OpInfo, Operand,
    Target, Variant,
};

/// The encoding variant a 32-bit VOP word's `src0` field selects.
#[inline(always)]
pub(super) fn variant_of(isa: Isa, src0: u16) -> Variant {
    match src0 {
        SDWA_CODE => Variant::Sdwa,
        DPP16_CODE => Variant::Dpp16,
        DPP8_CODE | DPP8_FI_CODE if isa == Isa::Gfx1030 => Variant::Dpp8,
        _ => Variant::Plain,
    }
}

/// The opcode, vdst and vsrc1 fields of a 32-bit VOP word.
#[inline(always)]
pub(super) fn fields(family: Family, w: u32) -> (u16, u32, u32) {
    match family {
        Family::Vop1 => ((w >> 9 & 0xff) as u16, w >> 17 & 0xff, 0),
        Family::Vop2 => ((w >> 25 & 0x3f) as u16, w >> 17 & 0xff, w >> 9 & 0xff),
        _ => ((w >> 17 & 0xff) as u16, 0, w >> 9 & 0xff),
    }
}

/// Decodes a VOP1/VOP2/VOPC instruction (any variant).
#[inline(never)]
pub(super) fn decode(
    target: Target,
    family: Family,
    bytes: &[u8],
) -> Result<Instruction, DecodeError> {
    let w = dword(bytes, 0)?;
    let (op, vdst, vsrc1) = fields(family, w);
    let Some((info, plan)) = super::plan::plans().lookup(target.isa, family, op) else {
        return Err(DecodeError::InvalidOpcode {
            offset: 0,
            family,
            opcode: op,
        });
    };
    let src0 = (w & SRC0_FIELD) as u16;
    let variant = variant_of(target.isa, src0);
    let shape = plan.shape;
    let mut codes = Codes::e32(shape.sdst, vdst as u16, src0, vsrc1 as u16);
    // Fields a row has no operand for must be zero (VOP1 `v_nop`, gfx1030 VOP2
    // `v_illegal`, which is exactly the all-zero word); `src0` of an SDWA/DPP
    // word holds the extension code.
    let zero = match variant {
        Variant::Plain => plan.e32_zero,
        _ => plan.e32_zero & !SRC0_FIELD,
    };
    if w & zero != 0 {
        let (field, value) = if w & zero & VDST_FIELD != 0 {
            ("vdst", vdst)
        } else if w & zero & VSRC1_FIELD != 0 {
            ("vsrc1", vsrc1)
        } else {
            ("src0", u32::from(src0))
        };
        return Err(invalid(format!(
            "{}: {field} field is {value}, must be 0",
            info.opcode.mnemonic()
        )));
    }
    let (modifiers, size) = match variant {
        Variant::Plain => {
            if src0 == LITERAL_CODE || shape.k {
                codes.literal = Some(dword(bytes, 1)?);
                (Modifiers::default(), 8)
            } else {
                (Modifiers::default(), 4)
            }
        }
        Variant::Sdwa => (
            sdwa::decode(target, info, plan, &mut codes, vsrc1, dword(bytes, 1)?)?,
            8,
        ),
        Variant::Dpp16 | Variant::Dpp8 => (
            dpp::decode(target, plan, variant, src0, &mut codes, dword(bytes, 1)?)?,
            8,
        ),
    };
    if variant != Variant::Plain && plan.features & variant_feature(variant) == 0 {
        return Err(invalid(format!(
            "{} has no {variant:?} form",
            info.opcode.mnemonic()
        )));
    }
    build(target, info, plan, variant, &codes, modifiers, size)
}

/// Encodes a VOP1/VOP2/VOPC instruction (any variant).
pub(super) fn encode(
    inst: &Instruction,
    info: &OpInfo,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    let codes = codes_of(inst, info)?;
    let m = &inst.modifiers;
    let (src0, ext) = match inst.variant {
        Variant::Plain => (u32::from(codes.src[0]), None),
        Variant::Sdwa => (
            u32::from(SDWA_CODE),
            Some(sdwa::encode(inst, info, &codes)?),
        ),
        Variant::Dpp16 => (
            u32::from(DPP16_CODE),
            Some(dpp::encode(inst, info, &codes)?),
        ),
        Variant::Dpp8 => {
            let code = if m.fi { DPP8_FI_CODE } else { DPP8_CODE };
            (u32::from(code), Some(dpp::encode(inst, info, &codes)?))
        }
    };
    if inst.variant == Variant::Plain && codes.src[0] > 511 {
        return Err(EncodeError::OperandOutOfRange(format!(
            "src0 code {}",
            codes.src[0]
        )));
    }
    // SDWA on gfx1030 may take an SGPR in vsrc1 (flagged in the extension word).
    let vsrc1 = if has_field(info, Field::Src1) {
        if inst.variant == Variant::Sdwa && codes.src[1] < VGPR_BASE {
            scalar_bits(codes.src[1], 8, "src1")?
        } else {
            vgpr_bits(codes.src[1], "src1")?
        }
    } else {
        0
    };
    let vdst = if has_field(info, Field::Vdst) {
        vgpr_bits(codes.vdst, "vdst")?
    } else if has_field(info, Field::Sdst) {
        scalar_bits(codes.sdst, 8, "sdst")?
    } else {
        0
    };
    if inst.variant != Variant::Sdwa
        || inst.family != Family::Vopc
        || inst.target.isa == Isa::Gfx803
    {
        for spec in info.operands.iter().filter(|s| s.field == Field::Vcc) {
            let _ = spec;
            if codes.vcc != VCC_CODE {
                return Err(EncodeError::OperandOutOfRange(
                    "the 32-bit encoding's lane mask must be vcc".into(),
                ));
            }
        }
    }
    let op = u32::from(info.number);
    let word = match inst.family {
        Family::Vop1 => 0x3f << 25 | vdst << 17 | op << 9 | src0,
        Family::Vop2 => op << 25 | vdst << 17 | vsrc1 << 9 | src0,
        _ => 0x3e << 25 | op << 17 | vsrc1 << 9 | src0,
    };
    push_words(out, &[word]);
    match ext {
        Some(ext) => push_words(out, &[ext]),
        None => {
            if let Some(lit) = codes.literal {
                push_words(out, &[lit]);
            }
        }
    }
    Ok(())
}

/// Writes LLVM's text of a VOP1/VOP2/VOPC instruction.
pub(super) fn format(inst: &Instruction, info: &OpInfo, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match inst.variant {
        Variant::Plain => {
            let isa = inst.target.isa;
            let suffix = if never_suffixed(inst.opcode) || !has_e64(isa, inst.opcode) {
                ""
            } else {
                "_e32"
            };
            write_head(f, inst, info.operands, suffix, |_| SrcMods::default())
        }
        Variant::Sdwa => sdwa::format(inst, info, f),
        Variant::Dpp16 | Variant::Dpp8 => dpp::format(inst, info, f),
    }
}

/// The variant a plain mnemonic's modifiers ask for (LLVM accepts
/// `v_mov_b32 v0, v1 quad_perm:[...]` and prints gfx803 VOPC SDWA without `_sdwa`).
fn variant_from_modifiers(line: &AsmLine<'_>, suffix_variant: Variant) -> Variant {
    let mut variant = suffix_variant;
    for token in &line.tokens {
        let (name, _) = split_modifier(token);
        match name {
            "dst_sel" | "dst_unused" | "src0_sel" | "src1_sel" if variant == Variant::Plain => {
                variant = Variant::Sdwa
            }
            "dpp8" if matches!(variant, Variant::Plain | Variant::Dpp16) => variant = Variant::Dpp8,
            "quad_perm" | "row_shl" | "row_shr" | "row_ror" | "wave_shl" | "wave_rol"
            | "wave_shr" | "wave_ror" | "row_mirror" | "row_half_mirror" | "row_bcast"
            | "row_share" | "row_xmask"
                if variant == Variant::Plain =>
            {
                variant = Variant::Dpp16
            }
            _ => {}
        }
    }
    variant
}

/// Parses a VOP1/VOP2/VOPC line.
pub(super) fn parse(
    target: Target,
    info: &'static OpInfo,
    variant: Variant,
    line: &AsmLine<'_>,
) -> Result<Instruction, AsmError> {
    let variant = variant_from_modifiers(line, variant);
    if variant != Variant::Plain
        && features(target.isa, info.family, info.number) & variant_feature(variant) == 0
    {
        return Err(AsmError::at_column(
            line.mnemonic_column,
            format!(
                "{} has no {variant:?} form on {}",
                info.opcode.mnemonic(),
                target.isa
            ),
        ));
    }
    let parsed = parse_operands(target, info.operands, line)?;
    let modifiers = match variant {
        Variant::Plain => {
            if let Some(t) = parsed.rest.first() {
                return Err(t.error(format!("unexpected `{}` for the 32-bit encoding", t.text)));
            }
            if let Some(i) = parsed.mods.iter().position(|m| *m != SrcMods::default()) {
                return Err(line.tokens[operand_position(info, i)]
                    .error("source modifiers need the VOP3 (_e64) encoding"));
            }
            // 32-bit forms: only src0 (and the K operand) may be a literal or non-VGPR.
            for (n, (op, spec)) in parsed.operands.iter().zip(info.operands).enumerate() {
                let vgpr_only = matches!(spec.field, Field::Src1 | Field::Vdst);
                let bad = match *op {
                    Operand::Src { code, .. } => {
                        vgpr_only && code < VGPR_BASE
                            || spec.field == Field::Vcc && code != VCC_CODE
                    }
                    Operand::Literal { .. } => vgpr_only || spec.field == Field::Vcc,
                    Operand::Off => true,
                };
                if bad {
                    return Err(line.tokens[n].error(format!(
                        "`{}` does not fit the 32-bit encoding",
                        line.tokens[n].text
                    )));
                }
            }
            Modifiers::default()
        }
        Variant::Sdwa => sdwa::parse_modifiers(target, info, &parsed.mods, parsed.rest)?,
        Variant::Dpp16 | Variant::Dpp8 => {
            dpp::parse_modifiers(target, info, variant, &parsed.mods, parsed.rest)?
        }
    };
    super::finish(target, info, variant, &parsed.operands, modifiers, line)
}

/// Index in the row's operand list of source `i`.
fn operand_position(info: &OpInfo, i: usize) -> usize {
    info.operands
        .iter()
        .position(|s| super::source_index(s.field) == Some(i))
        .unwrap_or(0)
}
