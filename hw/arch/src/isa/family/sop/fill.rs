//! The scalar families' fast path: a per-row plan (which raw field feeds each
//! operand, the set of codes it accepts on each wave size, where the 16-bit
//! immediate comes from, which word bits must be zero) computed once per ISA
//! from the helpers the reference decoder ([`super::decode`]) uses.
//!
//! The fast path answers "this instruction" or "not sure": every rejection,
//! missing literal or unusual row goes to the reference decoder, which produces
//! the result or names the error. `family/fill_tests.rs` compares the two on
//! random words.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::imm::{self, ImmKind};
use super::{field_ok, has_imm32, scalar_operand_ok, split, ssrc1_is_imm};
use crate::isa::operand::LITERAL_CODE;
use crate::isa::tables::{self, Field, OpInfo};
use crate::isa::{Family, Instruction, Isa, Opcode, Operand, OperandType, Target, MAX_OPERANDS};

/// Raw field numbers (indices into the field array and bits of `consumed`).
const SDST: u8 = 0;
const SSRC0: u8 = 1;
const SSRC1: u8 = 2;
const SIMM16: u8 = 3;
/// [`SopPlan::imm_from`] when the row has no 16-bit immediate.
const NO_IMM: u8 = 0xff;
/// Register operands a scalar row has at most (`sdst, ssrc0, ssrc1`).
const MAX_SOP_OPERANDS: usize = 3;

/// One register operand of a plan.
#[derive(Clone, Copy, Debug)]
struct SopOp {
    /// Raw field ([`SDST`], [`SSRC0`] or [`SSRC1`]).
    field: u8,
    ty: OperandType,
    /// Index of the accepted-code set in [`SopPlans::sets`], for wave32 and wave64.
    set: [u8; 2],
}

/// What the fast path needs of one row.
#[derive(Clone, Copy, Debug)]
struct SopPlan {
    /// False for rows the fast path leaves to the reference decoder.
    fast: bool,
    opcode: Opcode,
    ops: [SopOp; MAX_SOP_OPERANDS],
    count: u8,
    /// Raw field copied into `simm16`, or [`NO_IMM`].
    imm_from: u8,
    /// Bits of the word in fields the row does not use (which must be zero).
    zero_mask: u32,
    /// A trailing 32-bit immediate follows (`s_setreg_imm32_b32`).
    imm32: bool,
}

struct SopPlans {
    /// Per ISA (gfx803, gfx1030): one plan per table row, then a plan that is
    /// never fast (what [`SopPlans::index`] gives opcodes without a row).
    rows: [Vec<SopPlan>; 2],
    /// Per ISA, per scalar family (in [`SOP_FAMILIES`] order), per opcode number
    /// (masked to 8 bits): the index into `rows`. Fixed-size, so a masked
    /// number needs no bounds check.
    index: [[[u16; 256]; 5]; 2],
    /// Distinct sets of accepted 8-bit codes, padded to 256 entries so that a
    /// `u8` set index needs no bounds check.
    sets: Box<[[u64; 4]; 256]>,
}

/// The scalar families in the order of [`SopPlans::index`].
const SOP_FAMILIES: [Family; 5] = [
    Family::Sop1,
    Family::Sop2,
    Family::Sopk,
    Family::Sopc,
    Family::Sopp,
];

const EMPTY_OP: SopOp = SopOp {
    field: 0,
    ty: OperandType::B32,
    set: [0, 0],
};

/// The index of `set` in `sets`, adding it if new.
fn intern(sets: &mut Vec<[u64; 4]>, set: [u64; 4]) -> u8 {
    let index = sets.iter().position(|s| *s == set).unwrap_or_else(|| {
        sets.push(set);
        sets.len() - 1
    });
    u8::try_from(index).expect("fewer than 256 distinct operand classes")
}

/// Per (ISA, operand width, source or destination): the codes
/// [`scalar_operand_ok`] accepts, computed once and shared by the rows.
type BaseSets = BTreeMap<(bool, u8, bool), [u64; 4]>;

fn plan_of(isa: Isa, info: &OpInfo, sets: &mut Vec<[u64; 4]>, base: &mut BaseSets) -> SopPlan {
    let mut plan = SopPlan {
        fast: true,
        opcode: info.opcode,
        ops: [EMPTY_OP; MAX_SOP_OPERANDS],
        count: 0,
        imm_from: NO_IMM,
        zero_mask: 0,
        imm32: has_imm32(info.opcode),
    };
    let mut consumed = 0u8;
    let mut take = |plan: &mut SopPlan, field: u8| {
        if consumed >> field & 1 != 0 {
            // A field read twice: the reference decoder's order decides; leave it to it.
            plan.fast = false;
        }
        consumed |= 1 << field;
    };
    for spec in info.operands {
        let (field, is_src) = match spec.field {
            Field::Sdst => (SDST, false),
            Field::Ssrc0 => (SSRC0, true),
            Field::Ssrc1 if ssrc1_is_imm(info.opcode) => {
                take(&mut plan, SSRC1);
                plan.imm_from = SSRC1;
                continue;
            }
            Field::Ssrc1 => (SSRC1, true),
            Field::Simm16 => {
                take(&mut plan, SIMM16);
                plan.imm_from = SIMM16;
                continue;
            }
            Field::K => continue,
            _ => {
                plan.fast = false;
                continue;
            }
        };
        take(&mut plan, field);
        let mut set = [0u8; 2];
        for (wave, target) in [Target::GFX1030_W32, Target::GFX1030_W64]
            .into_iter()
            .enumerate()
        {
            // Operand widths depend on the wave size only (lane masks).
            let dwords = spec.ty.dwords(target);
            let mut bits = *base
                .entry((isa == Isa::Gfx1030, dwords, is_src))
                .or_insert_with(|| {
                    let mut bits = [0u64; 4];
                    for code in 0..256u16 {
                        if scalar_operand_ok(isa, code, dwords, is_src) {
                            bits[usize::from(code >> 6)] |= 1 << (code & 63);
                        }
                    }
                    bits
                });
            for code in 0..256u16 {
                if !field_ok(info.opcode, spec.field, code) {
                    bits[usize::from(code >> 6)] &= !(1 << (code & 63));
                }
            }
            set[wave] = intern(sets, bits);
        }
        let Some(slot) = plan.ops.get_mut(usize::from(plan.count)) else {
            plan.fast = false;
            continue;
        };
        *slot = SopOp {
            field,
            ty: spec.ty,
            set,
        };
        plan.count += 1;
    }
    if imm::kind(info.opcode) == ImmKind::OptionalDec {
        take(&mut plan, SIMM16);
        plan.imm_from = SIMM16;
    }
    // The word bits that land in a field the row does not consume.
    for bit in 0..32 {
        let raw = split(info.family, 1 << bit);
        let values = [raw.sdst, raw.ssrc0, raw.ssrc1, raw.simm16];
        if (0..4).any(|f| consumed >> f & 1 == 0 && values[f] != 0) {
            plan.zero_mask |= 1 << bit;
        }
    }
    plan
}

/// The plan rows never take: opcodes without a table row.
const NOT_FAST: SopPlan = SopPlan {
    fast: false,
    opcode: Opcode::S_NOP,
    ops: [EMPTY_OP; MAX_SOP_OPERANDS],
    count: 0,
    imm_from: NO_IMM,
    zero_mask: 0,
    imm32: false,
};

fn plans() -> &'static SopPlans {
    static PLANS: OnceLock<SopPlans> = OnceLock::new();
    PLANS.get_or_init(|| {
        let mut sets = Vec::new();
        let mut base = BaseSets::new();
        let mut index = [[[0u16; 256]; 5]; 2];
        let rows = [Isa::Gfx803, Isa::Gfx1030].map(|isa| {
            let t = tables::tables(isa);
            // Only the scalar families' rows are looked up; the others stay unplanned.
            let mut rows: Vec<SopPlan> = t
                .rows
                .iter()
                .map(|r| {
                    if SOP_FAMILIES.contains(&r.family) {
                        plan_of(isa, r, &mut sets, &mut base)
                    } else {
                        NOT_FAST
                    }
                })
                .collect();
            let none = u16::try_from(rows.len()).expect("fewer than 65535 rows");
            rows.push(NOT_FAST);
            let by_family = &mut index[usize::from(isa == Isa::Gfx1030)];
            for (slots, family) in by_family.iter_mut().zip(SOP_FAMILIES) {
                for (number, slot) in slots.iter_mut().enumerate() {
                    *slot = match t.by_number[family as usize].get(number) {
                        Some(&i) if usize::from(i) < t.rows.len() => i,
                        _ => none,
                    };
                }
            }
            rows
        });
        let mut padded = Box::new([[0u64; 4]; 256]);
        padded[..sets.len()].copy_from_slice(&sets);
        SopPlans {
            rows,
            index,
            sets: padded,
        }
    })
}

/// Decodes a SOPP instruction (first word `word`, bits 31:23 = `1_0111_1111`)
/// into `inst` (target set, other fields defaults); false to ask the reference
/// decoder. SOPP is the most frequent encoding in compiler output (waits,
/// branches, the `s_code_end` padding) and has no register operands, so it
/// gets a path of its own that needs no stack frame.
#[inline(never)]
pub(crate) fn fill_sopp(inst: &mut Instruction, word: u32) -> bool {
    let plans = plans();
    let isa = usize::from(inst.target.isa == Isa::Gfx1030);
    let index = plans.index[isa][4][(word >> 16 & 0x7f) as usize];
    let Some(plan) = plans.rows[isa].get(usize::from(index)) else {
        return false;
    };
    // SOPP words have no register fields (`split` leaves them zero), so a row
    // with register operands or a trailing immediate is left to `fill`'s
    // general loop by way of the reference decoder.
    if !plan.fast || word & plan.zero_mask != 0 || plan.count != 0 || plan.imm32 {
        return false;
    }
    match plan.imm_from {
        SIMM16 => inst.modifiers.simm16 = word as u16,
        NO_IMM => {}
        _ => return false,
    }
    inst.family = Family::Sopp;
    inst.opcode = plan.opcode;
    true
}

/// Decodes a scalar instruction (first word `word`, bits 31:30 = `10`) into
/// `inst` (whose target is set and whose other fields are defaults); false to
/// ask the reference decoder. Out of line, so the dispatch before it is a jump.
#[inline(never)]
pub(crate) fn fill(inst: &mut Instruction, word: u32, bytes: &[u8]) -> bool {
    // The same order as `decode::identify`: SOPK's prefix covers the other three.
    let (family, f, raw) = match word >> 23 {
        0x17d => (Family::Sop1, 0, split(Family::Sop1, word)),
        0x17e => (Family::Sopc, 3, split(Family::Sopc, word)),
        0x17f => (Family::Sopp, 4, split(Family::Sopp, word)),
        _ if word >> 28 == 0b1011 => (Family::Sopk, 2, split(Family::Sopk, word)),
        _ => (Family::Sop2, 1, split(Family::Sop2, word)),
    };
    let target = inst.target;
    let plans = plans();
    let isa = usize::from(target.isa == Isa::Gfx1030);
    let index = plans.index[isa][f][usize::from(raw.number & 0xff)];
    let Some(plan) = plans.rows[isa].get(usize::from(index)) else {
        return false;
    };
    if !plan.fast || word & plan.zero_mask != 0 {
        return false;
    }
    inst.family = family;
    inst.opcode = plan.opcode;
    let values = [raw.sdst, raw.ssrc0, raw.ssrc1, raw.simm16];
    let wave = usize::from(target.wave64);
    let count = usize::from(plan.count);
    for (slot, op) in inst.operands.iter_mut().zip(&plan.ops).take(count) {
        let code = values[usize::from(op.field & 3)];
        let set = &plans.sets[usize::from(op.set[wave])];
        if code >= 256 || set[usize::from(code >> 6) & 3] >> (code & 63) & 1 == 0 {
            return false;
        }
        *slot = if code == LITERAL_CODE {
            let Some(value) = literal(bytes) else {
                return false;
            };
            inst.size = 8;
            Operand::Literal { value, ty: op.ty }
        } else {
            Operand::Src { code, ty: op.ty }
        };
    }
    inst.operand_count = plan.count;
    if plan.imm_from != NO_IMM {
        inst.modifiers.simm16 = values[usize::from(plan.imm_from & 3)];
    }
    if plan.imm32 {
        let Some(value) = literal(bytes) else {
            return false;
        };
        inst.modifiers.imm32 = value;
        inst.size = 8;
    }
    true
}

/// The dword after the instruction word, if present.
#[inline(always)]
fn literal(bytes: &[u8]) -> Option<u32> {
    Some(u32::from_le_bytes(*bytes.get(4..)?.first_chunk::<4>()?))
}

// The fast path cannot hold more operands than an instruction has.
const _: () = assert!(MAX_SOP_OPERANDS <= MAX_OPERANDS);
