//! The vector-ALU encoding families: VOP1, VOP2, VOPC (32-bit forms and their
//! SDWA / DPP16 / DPP8 extensions), VOP3 (VOP3a and VOP3b, including VOP1/2/C
//! promoted to `_e64`) and VOP3P.
//!
//! Every layout reads its fields into [`Codes`] (9-bit source codes per field) and
//! [`Modifiers`]; the table row's operand list (print order) then picks which
//! field each operand comes from. Printing and parsing walk the same list, so one
//! description drives decode, encode, text and assembly for every opcode.
//!
//! Submodules: `vop12c` (32-bit layouts), `vop3`, `vop3p`, `sdwa`, `dpp`, and
//! `syntax` (shared printing and parsing of sources with modifiers).

use std::fmt;

use crate::isa::operand::{classify, SrcKind, LITERAL_CODE, VGPR_BASE};
use crate::isa::syntax::{AsmLine, SrcMods};
use crate::isa::tables::{self, Field};
use crate::isa::{
    AsmError, DecodeError, EncodeError, Family, Instruction, Isa, Modifiers, OpInfo, Opcode,
    Operand, OperandType, Target, Variant, MAX_OPERANDS,
};

mod dpp;
mod fill;
mod flags;
mod plan;
mod sdwa;
mod syntax;
mod vop12c;
mod vop3;
mod vop3p;

pub(super) use fill::{fill_e32, fill_vop3};

#[cfg(test)]
mod tests;

/// Decodes a VOP-family instruction.
#[inline(always)]
pub(crate) fn decode(
    target: Target,
    family: Family,
    bytes: &[u8],
) -> Result<Instruction, DecodeError> {
    match family {
        Family::Vop3 => vop3::decode(target, bytes),
        Family::Vop3p => vop3p::decode(target, bytes),
        _ => vop12c::decode(target, family, bytes),
    }
}

/// Encodes a VOP-family instruction.
pub(crate) fn encode(inst: &Instruction, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    let info = inst.info().ok_or(EncodeError::NoEncoding {
        opcode: inst.opcode,
        family: inst.family,
    })?;
    match inst.family {
        Family::Vop3 => vop3::encode(inst, info, out),
        Family::Vop3p => vop3p::encode(inst, info, out),
        _ => vop12c::encode(inst, info, out),
    }
}

/// Writes LLVM's text of a VOP-family instruction.
pub(crate) fn format(inst: &Instruction, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let Some(info) = inst.info() else {
        return f.write_str(inst.opcode.mnemonic());
    };
    match inst.family {
        Family::Vop3 => vop3::format(inst, info, f),
        Family::Vop3p => vop3p::format(inst, info, f),
        _ => vop12c::format(inst, info, f),
    }
}

/// Parses a VOP-family line whose mnemonic resolved to `info`.
pub(crate) fn parse(
    target: Target,
    info: &'static OpInfo,
    variant: Variant,
    line: &AsmLine<'_>,
) -> Result<Instruction, AsmError> {
    match info.family {
        Family::Vop3 => vop3::parse(target, info, line),
        Family::Vop3p => vop3p::parse(target, info, line),
        _ => vop12c::parse(target, info, variant, line),
    }
}

/// The 9-bit source code of every field of one encoding. VGPR-only fields hold
/// `256 + n`; `vcc` is the code of the implicit lane-mask operand (normally
/// `vcc`, an SGPR in VOPC SDWA with an explicit `sdst`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Codes {
    /// Vector destination.
    pub vdst: u16,
    /// Scalar destination (VOP3b carry-out, VOPC `_e64` result, `v_readlane` result).
    pub sdst: u16,
    /// Sources 0..2.
    pub src: [u16; 3],
    /// The implicit `vcc` operand(s).
    pub vcc: u16,
    /// The literal dword, when the encoding has one.
    pub literal: Option<u32>,
}

impl Codes {
    /// The codes of a 32-bit VOP1/VOP2/VOPC word's fields (`vdst` is also the
    /// scalar destination of rows with an `sdst`), implicit `vcc`, no literal.
    #[inline(always)]
    pub(super) fn e32(sdst: bool, vdst: u16, src0: u16, vsrc1: u16) -> Codes {
        Codes {
            vdst: VGPR_BASE + vdst,
            sdst: if sdst { vdst } else { 0 },
            src: [src0, VGPR_BASE + vsrc1, 0],
            vcc: VCC_CODE,
            literal: None,
        }
    }

    /// The register-field codes in [`plan::OpPlan::sel`] order; the K constant
    /// ([`plan::SEL_K`]) reads as the literal code.
    #[inline]
    fn array(&self) -> [u16; 8] {
        [
            self.vdst,
            self.sdst,
            self.vcc,
            self.src[0],
            self.src[1],
            self.src[2],
            LITERAL_CODE,
            LITERAL_CODE,
        ]
    }
}

/// Bits of the 32-bit VOP word's `vdst` field (VOP1/VOP2; VOPC has its
/// opcode there). The three field masks are shared by the `_e32` layout
/// (`vop12c.rs`), its decode plans (`plan.rs`) and the fill from those plans (`fill.rs`).
pub(super) const VDST_FIELD: u32 = 0xff << 17;
/// Bits of the `vsrc1` field (VOP2/VOPC).
pub(super) const VSRC1_FIELD: u32 = 0xff << 9;
/// Bits of the `src0` field (an extension code for SDWA/DPP words).
pub(super) const SRC0_FIELD: u32 = 0x1ff;

/// Code of `vcc_lo` / `vcc`.
pub(super) const VCC_CODE: u16 = 106;

impl Default for Codes {
    fn default() -> Codes {
        Codes {
            vdst: 0,
            sdst: 0,
            src: [0; 3],
            vcc: VCC_CODE,
            literal: None,
        }
    }
}

/// Which source index a field is (0..=2), if it is a source.
pub(super) fn source_index(field: Field) -> Option<usize> {
    match field {
        Field::Src0 => Some(0),
        Field::Src1 => Some(1),
        Field::Src2 => Some(2),
        _ => None,
    }
}

/// Number of `src0`/`src1`/`src2` operands of a row.
pub(super) fn source_count(info: &OpInfo) -> usize {
    info.operands
        .iter()
        .filter(|s| source_index(s.field).is_some())
        .count()
}

/// True when the row has an operand in `field`.
pub(super) fn has_field(info: &OpInfo, field: Field) -> bool {
    info.operands.iter().any(|s| s.field == field)
}

/// Which fields a row has, gathered in one pass (decode is hot: no repeated scans).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Shape {
    /// Has a `vdst` operand.
    pub vdst: bool,
    /// Has an `sdst` operand.
    pub sdst: bool,
    /// Has a `src0` operand.
    pub src0: bool,
    /// Has a `src1` operand.
    pub src1: bool,
    /// Has a K constant.
    pub k: bool,
    /// Number of `srcN` operands.
    pub nsrc: usize,
}

impl Shape {
    /// The shape of `info`.
    #[inline]
    pub(super) fn of(info: &OpInfo) -> Shape {
        let mut s = Shape::default();
        for spec in info.operands {
            match spec.field {
                Field::Vdst => s.vdst = true,
                Field::Sdst => s.sdst = true,
                Field::K => s.k = true,
                Field::Src0 => {
                    s.src0 = true;
                    s.nsrc += 1
                }
                Field::Src1 => {
                    s.src1 = true;
                    s.nsrc += 1
                }
                Field::Src2 => s.nsrc += 1,
                _ => {}
            }
        }
        s
    }

    /// VOP3b: a vector and a scalar destination.
    pub(super) fn vop3b(self) -> bool {
        self.vdst && self.sdst
    }
}

/// True for a VOP3b row: a vector and a scalar destination (carry-out or
/// `div_scale`'s VCC), the scalar one in bits 14:8.
pub(super) fn is_vop3b(info: &OpInfo) -> bool {
    has_field(info, Field::Vdst) && has_field(info, Field::Sdst)
}

/// Builds an instruction from decoded field codes. Fails (naming the field) when
/// a code is not a valid operand on the ISA.
///
/// The fast path follows the row's precomputed plan; anything it does not accept
/// (an invalid code, a missing literal, an unusual row) goes through
/// [`build_checked`], which gives the same result and names the error.
#[inline]
fn build(
    target: Target,
    info: &'static OpInfo,
    plan: &RowPlan,
    variant: Variant,
    codes: &Codes,
    modifiers: Modifiers,
    size: u8,
) -> Result<Instruction, DecodeError> {
    if !plan.simple {
        return build_checked(target, info, variant, codes, modifiers, size);
    }
    let sets = plan::plans().valid_sets(target);
    let array = codes.array();
    let count = usize::from(plan.count);
    let mut operands = [Operand::Off; MAX_OPERANDS];
    let mut ok = true;
    for (slot, op) in operands.iter_mut().zip(&plan.ops).take(count) {
        let code = array[usize::from(op.sel) & 7];
        *slot = if code == LITERAL_CODE {
            match codes.literal {
                Some(value) => Operand::Literal { value, ty: op.ty },
                None => {
                    ok = false;
                    Operand::Off
                }
            }
        } else {
            ok &= plan::valid_in(sets, op.key, code);
            Operand::Src { code, ty: op.ty }
        };
    }
    if !ok {
        return build_checked(target, info, variant, codes, modifiers, size);
    }
    Ok(Instruction {
        target,
        opcode: info.opcode,
        family: info.family,
        variant,
        operands,
        operand_count: plan.count,
        modifiers,
        size,
    })
}

/// [`build`] without the plan: the reference, which names what is wrong.
#[cold]
#[inline(never)]
fn build_checked(
    target: Target,
    info: &'static OpInfo,
    variant: Variant,
    codes: &Codes,
    modifiers: Modifiers,
    size: u8,
) -> Result<Instruction, DecodeError> {
    let mut operands = [Operand::Off; MAX_OPERANDS];
    if info.operands.len() > MAX_OPERANDS {
        return Err(invalid(format!(
            "{} has too many operands",
            info.opcode.mnemonic()
        )));
    }
    for (i, spec) in info.operands.iter().enumerate() {
        let slot = &mut operands[i];
        let code = match spec.field {
            Field::Vdst => codes.vdst,
            Field::Sdst => codes.sdst,
            Field::Vcc => codes.vcc,
            Field::K => {
                let value = codes
                    .literal
                    .ok_or_else(|| invalid("missing literal constant".into()))?;
                *slot = Operand::Literal { value, ty: spec.ty };
                continue;
            }
            field => match source_index(field) {
                Some(i) => codes.src[i],
                None => {
                    return Err(DecodeError::Unimplemented {
                        offset: 0,
                        what: format!("operand field `{}` in a VOP row", field.name()),
                    })
                }
            },
        };
        *slot = if code == LITERAL_CODE {
            let value = codes.literal.ok_or_else(|| {
                invalid(format!("{} cannot take a literal here", spec.field.name()))
            })?;
            Operand::Literal { value, ty: spec.ty }
        } else {
            check_code(target, code, spec.ty, spec.field)?;
            Operand::Src { code, ty: spec.ty }
        };
    }
    Ok(Instruction {
        target,
        opcode: info.opcode,
        family: info.family,
        variant,
        operands,
        operand_count: info.operands.len() as u8,
        modifiers,
        size,
    })
}

/// Checks that `code` names a valid operand of type `ty` in `field`, as LLVM's
/// decoder does: register ranges inside the file, SGPR/TTMP pairs even-aligned,
/// 64-bit named registers only where a pair exists (`vcc`, `exec`, ...),
/// destinations and lane masks not constants, lane masks not VGPRs.
#[inline]
fn check_code(target: Target, code: u16, ty: OperandType, field: Field) -> Result<(), DecodeError> {
    if code_ok(target, code, ty, field) {
        Ok(())
    } else {
        Err(invalid(format!(
            "field {} holds {code}, not a valid {} operand",
            field.name(),
            ty.name()
        )))
    }
}

/// The predicate of [`check_code`], without building its error (the decode
/// plans call it for every code of every operand class, so it must not format).
fn code_ok(target: Target, code: u16, ty: OperandType, field: Field) -> bool {
    let dwords = u16::from(ty.dwords(target).max(1));
    // Fast path: most operands are VGPRs.
    if code >= VGPR_BASE {
        return code - VGPR_BASE + dwords - 1 <= 255 && ty != OperandType::LaneMask;
    }
    // An odd SGPR/TTMP code for a 64-bit operand names the aligned pair below it.
    let fits = |first: u16, limit: u16| {
        let base = if dwords > 1 { first & !1 } else { first };
        base + dwords - 1 <= limit
    };
    let destination = matches!(field, Field::Sdst | Field::Vcc | Field::Vdst);
    match classify(target.isa, code) {
        SrcKind::Invalid | SrcKind::Literal => false,
        SrcKind::Vgpr(n) => n + dwords - 1 <= 255 && ty != OperandType::LaneMask,
        SrcKind::Sgpr(n) => fits(n, if target.isa == Isa::Gfx1030 { 105 } else { 101 }),
        SrcKind::Ttmp(n) => fits(n, if target.isa == Isa::Gfx1030 { 15 } else { 11 }),
        SrcKind::Named(_, pair) => dwords == 1 || pair.is_some() || code == 125 || code >= 235,
        SrcKind::InlineInt(_) | SrcKind::InlineFloat(_) => !destination,
    }
}

/// An `InvalidOperand` error at offset 0.
pub(super) fn invalid(what: String) -> DecodeError {
    DecodeError::InvalidOperand { offset: 0, what }
}

/// Reads the field codes back from an instruction's operands.
pub(super) fn codes_of(inst: &Instruction, info: &OpInfo) -> Result<Codes, EncodeError> {
    let mut codes = Codes::default();
    if inst.operands().len() != info.operands.len() {
        return Err(EncodeError::OperandOutOfRange(format!(
            "{} takes {} operands, the instruction has {}",
            info.opcode.mnemonic(),
            info.operands.len(),
            inst.operands().len()
        )));
    }
    for (op, spec) in inst.operands().iter().zip(info.operands) {
        let code = match *op {
            Operand::Src { code, .. } => code,
            Operand::Literal { value, .. } => {
                if codes.literal.is_some_and(|v| v != value) {
                    return Err(EncodeError::OperandOutOfRange(
                        "two different literal constants in one instruction".into(),
                    ));
                }
                codes.literal = Some(value);
                LITERAL_CODE
            }
            Operand::Off => {
                return Err(EncodeError::OperandOutOfRange(format!(
                    "`off` in field {}",
                    spec.field.name()
                )))
            }
        };
        match spec.field {
            Field::Vdst => codes.vdst = code,
            Field::Sdst => codes.sdst = code,
            Field::Vcc => codes.vcc = code,
            Field::K => {}
            field => match source_index(field) {
                Some(i) => codes.src[i] = code,
                None => {
                    return Err(EncodeError::Unimplemented(format!(
                        "VOP operand field {}",
                        field.name()
                    )))
                }
            },
        }
    }
    Ok(codes)
}

/// The low 8 bits of a VGPR-only field, or an error naming the field.
pub(super) fn vgpr_bits(code: u16, what: &str) -> Result<u32, EncodeError> {
    if code >= VGPR_BASE {
        Ok(u32::from(code - VGPR_BASE))
    } else {
        Err(EncodeError::OperandOutOfRange(format!(
            "{what} must be a VGPR (code {code})"
        )))
    }
}

/// Checks that a scalar-only field holds a scalar code below 256 that fits `bits` bits.
pub(super) fn scalar_bits(code: u16, bits: u32, what: &str) -> Result<u32, EncodeError> {
    if u32::from(code) < (1 << bits) && code < VGPR_BASE {
        Ok(u32::from(code))
    } else {
        Err(EncodeError::OperandOutOfRange(format!(
            "{what} must be a scalar operand (code {code})"
        )))
    }
}

/// Appends dwords little-endian.
pub(super) fn push_words(out: &mut Vec<u8>, words: &[u32]) {
    for w in words {
        out.extend_from_slice(&w.to_le_bytes());
    }
}

/// True when `opcode` has a 32-bit (VOP1/VOP2/VOPC) row on `isa`.
pub(super) fn has_e32(isa: Isa, opcode: Opcode) -> bool {
    tables::encodings(isa, opcode)
        .any(|r| matches!(r.family, Family::Vop1 | Family::Vop2 | Family::Vopc))
}

/// True when `opcode` has a VOP3 row on `isa`.
pub(super) fn has_e64(isa: Isa, opcode: Opcode) -> bool {
    tables::encodings(isa, opcode).any(|r| r.family == Family::Vop3)
}

/// `v_nop` is the one instruction LLVM prints without a suffix in both encodings.
pub(super) fn never_suffixed(opcode: Opcode) -> bool {
    opcode.mnemonic() == "v_nop"
}

/// Builds the parsed instruction and checks it by encoding it (which also gives
/// its size); encoding errors become assembler errors at the mnemonic.
pub(super) fn finish(
    target: Target,
    info: &'static OpInfo,
    variant: Variant,
    operands: &[Operand],
    modifiers: Modifiers,
    line: &AsmLine<'_>,
) -> Result<Instruction, AsmError> {
    let mut slots = [Operand::Off; MAX_OPERANDS];
    if operands.len() > MAX_OPERANDS {
        return Err(AsmError::at_column(
            line.mnemonic_column,
            "too many operands",
        ));
    }
    slots[..operands.len()].copy_from_slice(operands);
    let mut inst = Instruction {
        target,
        opcode: info.opcode,
        family: info.family,
        variant,
        operands: slots,
        operand_count: operands.len() as u8,
        modifiers,
        size: 0,
    };
    let mut bytes = Vec::with_capacity(12);
    super::encode(&inst, &mut bytes).map_err(|e| {
        AsmError::at_column(line.mnemonic_column, format!("{}: {e}", line.mnemonic))
    })?;
    inst.size = bytes.len() as u8;
    Ok(inst)
}

/// LLVM's feature bits ([`flags`]) of opcode `number` in `family` on `isa`.
pub(super) fn features(isa: Isa, family: Family, number: u16) -> u32 {
    let table: &[u32] = match (isa, family) {
        (Isa::Gfx1030, Family::Vop1) => &flags::GFX1030_VOP1,
        (Isa::Gfx1030, Family::Vop2) => &flags::GFX1030_VOP2,
        (Isa::Gfx1030, Family::Vopc) => &flags::GFX1030_VOPC,
        (Isa::Gfx1030, Family::Vop3) => &flags::GFX1030_VOP3,
        (Isa::Gfx803, Family::Vop1) => &flags::GFX803_VOP1,
        (Isa::Gfx803, Family::Vop2) => &flags::GFX803_VOP2,
        (Isa::Gfx803, Family::Vopc) => &flags::GFX803_VOPC,
        (Isa::Gfx803, Family::Vop3) => &flags::GFX803_VOP3,
        _ => &[],
    };
    table.get(usize::from(number)).copied().unwrap_or(0)
}

/// The feature bit for an SDWA/DPP variant (0 for plain).
pub(super) fn variant_feature(variant: Variant) -> u32 {
    match variant {
        Variant::Plain => 0,
        Variant::Sdwa => flags::SDWA,
        Variant::Dpp16 => flags::DPP16,
        Variant::Dpp8 => flags::DPP8,
    }
}

/// What source `i`'s modifier bits mean in one encoding of an opcode, per LLVM:
/// float `neg`/`abs`, or `sext` for an integer source of an opcode with modifiers
/// (carried by the neg bit in VOP3 and DPP, by its own bit in SDWA).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct SrcPolicy {
    /// `-x` is accepted.
    pub neg: bool,
    /// `|x|` is accepted.
    pub abs: bool,
    /// `sext(x)` is accepted.
    pub sext: bool,
}

/// The modifier policy of source `i` of `info` encoded as `variant` (VOP3 rows use `Plain`).
pub(super) fn src_policy(isa: Isa, info: &OpInfo, variant: Variant, i: usize) -> SrcPolicy {
    let f = features(isa, info.family, info.number);
    let has = |bit: u32| f & bit != 0;
    let pick = |bits: [u32; 3]| bits.get(i).is_some_and(|&b| has(b));
    match variant {
        Variant::Plain => SrcPolicy {
            neg: pick([flags::NEG0, flags::NEG1, flags::NEG2]),
            abs: pick([flags::ABS0, flags::ABS1, flags::ABS2]) && !is_vop3b(info),
            sext: pick([flags::SEXT0, flags::SEXT1, flags::SEXT2]),
        },
        Variant::Sdwa => {
            let neg = pick([flags::SDWA_NEG0, flags::SDWA_NEG1, 0]);
            SrcPolicy {
                neg,
                abs: neg,
                sext: pick([flags::SDWA_SEXT0, flags::SDWA_SEXT1, 0]),
            }
        }
        Variant::Dpp16 => {
            let neg = pick([flags::DPP_NEG0, flags::DPP_NEG1, 0]);
            SrcPolicy {
                neg,
                abs: neg,
                sext: pick([flags::DPP_SEXT0, flags::DPP_SEXT1, 0]),
            }
        }
        Variant::Dpp8 => SrcPolicy::default(),
    }
}

/// Which of source `i`'s (0..=2) modifier bits are float sign modifiers in
/// LLVM's tables for this encoding of `inst`: `neg` flips and `abs` clears the
/// sign bit of the value read. This is a property of the opcode and encoding,
/// not of the operand's type: `v_cndmask_b32_e64` reads untyped 32-bit values
/// yet takes `-v1` and `|v1|` (LLVM's own `cos` expansion uses the form), and
/// SDWA/DPP `v_mov_b32` take them too. Both GPU models apply exactly these.
/// VOP3P's `neg_lo`/`neg_hi` are not covered (they act per packed half).
pub fn float_input_modifiers(inst: &Instruction, i: usize) -> InputModifiers {
    if inst.family == Family::Vop3p || i > 2 {
        return InputModifiers::default();
    }
    let Some(info) = inst.info() else {
        return InputModifiers::default();
    };
    let variant = if inst.family == Family::Vop3 {
        Variant::Plain
    } else {
        inst.variant
    };
    if variant == Variant::Plain && inst.family != Family::Vop3 {
        // The 32-bit encodings have no modifier bits.
        return InputModifiers::default();
    }
    let p = src_policy(inst.target.isa, info, variant, i);
    InputModifiers {
        neg: p.neg,
        abs: p.abs,
    }
}

/// The answer of [`float_input_modifiers`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InputModifiers {
    /// The source's `neg` bit flips the sign of the value read.
    pub neg: bool,
    /// The source's `abs` bit clears the sign of the value read.
    pub abs: bool,
}

/// The modifiers to print for source `i` given its bits, where `sext` travels in
/// the neg bit (VOP3, DPP) unless `sext_bit` is given (SDWA). Bits the policy does
/// not allow are LLVM-ignored bits: kept in the encoding, not printed.
pub(super) fn shown_mods(
    policy: SrcPolicy,
    neg: bool,
    abs: bool,
    sext_bit: Option<bool>,
) -> SrcMods {
    match sext_bit {
        Some(sext) => SrcMods {
            neg: neg && policy.neg,
            abs: abs && policy.abs,
            sext: sext && policy.sext,
        },
        None if policy.neg => SrcMods {
            neg,
            abs: abs && policy.abs,
            sext: false,
        },
        None if policy.sext => SrcMods {
            neg: false,
            abs: false,
            sext: neg,
        },
        None => SrcMods::default(),
    }
}

use flags::{CLAMP, OMOD, OP_SEL, OP_SEL2};
use plan::RowPlan;
