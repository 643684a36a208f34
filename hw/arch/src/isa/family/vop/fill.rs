//! The vector-ALU fast path: plain (no SDWA/DPP) VOP1/VOP2/VOPC and VOP3
//! instructions decoded straight into the caller's [`Instruction`] from the
//! row plans ([`super::plan`]).
//!
//! It mirrors the reference decoders (`vop12c::decode`, `vop3::decode`) check for
//! check, but answers only "this instruction" or "not sure": every rejection,
//! missing literal or extension word goes back to them, and they produce the
//! result or name the error. `family/fill_tests.rs` compares the two on random
//! words.

use super::plan::{self, Plans, RowPlan};
use super::vop12c;
use super::SRC0_FIELD;
use super::{dpp, sdwa, variant_feature, Codes, CLAMP, OMOD};
use crate::isa::operand::{LITERAL_CODE, VGPR_BASE};
use crate::isa::{Family, Instruction, Isa, Operand, Variant};

/// The dword at byte `at`, if present.
#[inline(always)]
fn dword_at(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(*bytes.get(at..)?.first_chunk::<4>()?))
}

/// Completes a VOP1/VOP2/VOPC `inst` (target set, other fields defaults)
/// from its first word `w` (bit 31 clear); false to ask the reference decoder.
/// SDWA/DPP words (an extension code in `src0`) take [`fill_extension`].
#[inline(always)]
pub(crate) fn fill_e32(inst: &mut Instruction, w: u32, bytes: &[u8]) -> bool {
    let variant = vop12c::variant_of(inst.target.isa, (w & SRC0_FIELD) as u16);
    if variant != Variant::Plain {
        return match w >> 25 {
            0x3e => fill_extension::<2>(inst, w, bytes, variant),
            0x3f => fill_extension::<0>(inst, w, bytes, variant),
            _ => fill_extension::<1>(inst, w, bytes, variant),
        };
    }
    // As `decode::identify` tells them apart; one copy per family, so the field
    // layout folds to constants.
    match w >> 25 {
        0x3e => fill_family::<2>(inst, w, bytes),
        0x3f => fill_family::<0>(inst, w, bytes),
        _ => fill_family::<1>(inst, w, bytes),
    }
}

/// [`fill_e32`] for one family: `F` is its index in [`plan::FAST_FAMILIES`]
/// (0 VOP1, 1 VOP2, 2 VOPC).
#[inline(never)]
fn fill_family<const F: usize>(inst: &mut Instruction, w: u32, bytes: &[u8]) -> bool {
    let family = plan::FAST_FAMILIES[F];
    inst.family = family;
    let target = inst.target;
    let (op, vdst, vsrc1) = vop12c::fields(family, w);
    let src0 = (w & SRC0_FIELD) as u16;
    let plans = plan::plans();
    let Some(plan) = plans.fast_plan(target.isa, F, op) else {
        return false;
    };
    let shape = plan.shape;
    if w & plan.e32_zero != 0 {
        return false;
    }
    let literal = if src0 == LITERAL_CODE || shape.k {
        let Some(value) = dword_at(bytes, 4) else {
            return false;
        };
        inst.size = 8;
        Some(value)
    } else {
        None
    };
    let codes = Codes {
        literal,
        ..Codes::e32(shape.sdst, vdst as u16, src0, vsrc1 as u16)
    };
    fill_operands(inst, plans, plan, &codes)
}

/// [`fill_e32`] for an SDWA, DPP16 or DPP8 word of family `F`: the row's plan
/// and the reference decoders of the extension dword (`sdwa::decode`,
/// `dpp::decode`, so the modifiers and their checks are theirs), without the
/// reference path's table look-ups and copies of the whole instruction.
#[inline(never)]
fn fill_extension<const F: usize>(
    inst: &mut Instruction,
    w: u32,
    bytes: &[u8],
    variant: Variant,
) -> bool {
    let family = plan::FAST_FAMILIES[F];
    let target = inst.target;
    let (op, vdst, vsrc1) = vop12c::fields(family, w);
    let plans = plan::plans();
    let Some((info, plan)) = plans.lookup(target.isa, family, op) else {
        return false;
    };
    let Some(extension) = dword_at(bytes, 4) else {
        return false;
    };
    // src0 holds the extension code here; the other unused fields must be zero.
    if w & plan.e32_zero & !SRC0_FIELD != 0 || plan.features & variant_feature(variant) == 0 {
        return false;
    }
    let src0 = (w & SRC0_FIELD) as u16;
    let mut codes = Codes::e32(plan.shape.sdst, vdst as u16, src0, vsrc1 as u16);
    let modifiers = match variant {
        Variant::Sdwa => sdwa::decode(target, info, plan, &mut codes, vsrc1, extension),
        _ => dpp::decode(target, plan, variant, src0, &mut codes, extension),
    };
    let Ok(modifiers) = modifiers else {
        return false;
    };
    inst.family = family;
    inst.variant = variant;
    inst.modifiers = modifiers;
    inst.size = 8;
    fill_operands(inst, plans, plan, &codes)
}

/// Completes a VOP3 `inst` (target and family set, other fields defaults); false
/// to ask the reference decoder.
#[inline(never)]
pub(crate) fn fill_vop3(inst: &mut Instruction, w0: u32, bytes: &[u8]) -> bool {
    inst.family = Family::Vop3;
    let target = inst.target;
    let Some(w1) = dword_at(bytes, 4) else {
        return false;
    };
    let op = (w0 >> 16 & 0x3ff) as u16;
    let plans = plan::plans();
    let Some(plan) = plans.fast_plan(target.isa, 3, op) else {
        return false;
    };
    let shape = plan.shape;
    let vop3b = shape.vop3b();
    let nsrc = shape.nsrc;
    let m = &mut inst.modifiers;
    m.clamp = w0 >> 15 & 1 != 0;
    m.omod = (w1 >> 27 & 3) as u8;
    m.neg = (w1 >> 29) as u8;
    let mut codes = Codes::default();
    if vop3b {
        codes.sdst = (w0 >> 8 & 0x7f) as u16;
    } else {
        m.abs = (w0 >> 8 & 7) as u8;
        m.op_sel = (w0 >> 11 & 0xf) as u8;
    }
    let vdst = (w0 & 0xff) as u16;
    if shape.vdst {
        codes.vdst = VGPR_BASE + vdst;
    } else if shape.sdst && !vop3b {
        codes.sdst = vdst;
    } else {
        m.simm16 = vdst;
    }
    codes.src = [
        (w1 & 0x1ff) as u16,
        (w1 >> 9 & 0x1ff) as u16,
        (w1 >> 18 & 0x1ff) as u16,
    ];
    // Unused source fields must be zero.
    if nsrc < 3 && w1 & 0x7ff_ffff & !((1u32 << (9 * nsrc)) - 1) != 0 {
        return false;
    }
    let refused = ((m.neg & !plan.neg_ok) | (m.abs & !plan.abs_ok)) & !plan.lenient & 7;
    if refused != 0
        || m.omod != 0 && plan.features & OMOD == 0
        || m.clamp && plan.features & CLAMP == 0
    {
        return false;
    }
    if codes.src[..nsrc.min(3)].contains(&LITERAL_CODE) {
        if target.isa == Isa::Gfx803 {
            return false;
        }
        let Some(value) = dword_at(bytes, 8) else {
            return false;
        };
        codes.literal = Some(value);
        inst.size = 12;
    } else {
        inst.size = 8;
    }
    fill_operands(inst, plans, plan, &codes)
}

/// Writes the operands of `plan` from `codes` into `inst` (and its opcode);
/// false if any code fails its check or a literal is missing.
#[inline(always)]
fn fill_operands(inst: &mut Instruction, plans: &Plans, plan: &RowPlan, codes: &Codes) -> bool {
    if !plan.simple {
        return false;
    }
    let sets = plans.valid_sets(inst.target);
    let array = codes.array();
    let count = usize::from(plan.count);
    for (slot, op) in inst.operands.iter_mut().zip(&plan.ops).take(count) {
        let code = array[usize::from(op.sel) & 7];
        *slot = if code == LITERAL_CODE {
            match codes.literal {
                Some(value) => Operand::Literal { value, ty: op.ty },
                None => return false,
            }
        } else if plan::valid_in(sets, op.key, code) {
            Operand::Src { code, ty: op.ty }
        } else {
            return false;
        };
    }
    inst.opcode = plan.opcode;
    inst.operand_count = plan.count;
    true
}
