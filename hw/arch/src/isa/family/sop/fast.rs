//! The scalar families' fast path: a per-row plan (which raw field feeds each
//! operand, the set of codes it accepts on each wave size, where the 16-bit
//! immediate comes from, which word bits must be zero) computed once per ISA
//! from the helpers the reference decoder ([`super::decode`]) uses.
//!
//! The fast path answers "this instruction" or "not sure": every rejection,
//! missing literal or unusual row goes to the reference decoder, which produces
//! the result or names the error. `family/fast_tests.rs` compares the two on
//! random words.

use std::sync::OnceLock;

use super::imm::{self, ImmKind};
use super::{field_ok, has_imm32, scalar_operand_ok, split, ssrc1_is_imm};
use crate::isa::operand::LITERAL_CODE;
use crate::isa::tables::{self, Field, OpInfo};
use crate::isa::{Instruction, Isa, Opcode, Operand, OperandType, Target, MAX_OPERANDS};

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
    /// Per ISA (gfx803, gfx1030): one plan per table row.
    rows: [Vec<SopPlan>; 2],
    /// Distinct sets of accepted 8-bit codes.
    sets: Vec<[u64; 4]>,
}

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

fn plan_of(isa: Isa, info: &OpInfo, sets: &mut Vec<[u64; 4]>) -> SopPlan {
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
            let mut bits = [0u64; 4];
            for code in 0..256u16 {
                if scalar_operand_ok(isa, code, dwords, is_src)
                    && field_ok(info.opcode, spec.field, code)
                {
                    bits[usize::from(code >> 6)] |= 1 << (code & 63);
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

fn plans() -> &'static SopPlans {
    static PLANS: OnceLock<SopPlans> = OnceLock::new();
    PLANS.get_or_init(|| {
        let mut sets = Vec::new();
        let rows = [Isa::Gfx803, Isa::Gfx1030].map(|isa| {
            tables::tables(isa)
                .rows
                .iter()
                .map(|r| plan_of(isa, r, &mut sets))
                .collect()
        });
        SopPlans { rows, sets }
    })
}

/// Completes `inst` (whose target and family, a scalar one, are set and whose
/// other fields are defaults) from its first word `word` and `bytes`; false to
/// ask the reference decoder.
#[inline(always)]
pub(crate) fn fill(inst: &mut Instruction, word: u32, bytes: &[u8]) -> bool {
    let (target, family) = (inst.target, inst.family);
    let raw = split(family, word);
    let plans = plans();
    let by_number = tables::tables(target.isa).by_number[family as usize];
    let Some(&index) = by_number.get(usize::from(raw.number)) else {
        return false;
    };
    let rows = &plans.rows[usize::from(target.isa == Isa::Gfx1030)];
    let Some(plan) = rows.get(usize::from(index)) else {
        return false;
    };
    if !plan.fast || word & plan.zero_mask != 0 {
        return false;
    }
    inst.opcode = plan.opcode;
    let values = [raw.sdst, raw.ssrc0, raw.ssrc1, raw.simm16];
    let wave = usize::from(target.wave64);
    let count = usize::from(plan.count);
    for (slot, op) in inst.operands.iter_mut().zip(&plan.ops).take(count) {
        let code = values[usize::from(op.field & 3)];
        let Some(set) = plans.sets.get(usize::from(op.set[wave])) else {
            return false;
        };
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
    Some(u32::from_le_bytes(bytes.get(4..8)?.try_into().ok()?))
}

// The fast path cannot hold more operands than an instruction has.
const _: () = assert!(MAX_SOP_OPERANDS <= MAX_OPERANDS);
