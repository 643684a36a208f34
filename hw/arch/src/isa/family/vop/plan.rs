//! Per-row decode plans: everything the decoder would otherwise re-derive from a
//! table row on every instruction (its field shape, LLVM feature bits, VOP3
//! modifier masks, where each operand comes from), computed once per ISA, and a
//! bitmap of the valid source codes per operand class.
//!
//! The plans are *derived from* the reference checks ([`super::code_ok`], the
//! predicate of `check_code`,
//! [`super::src_policy`], [`Shape::of`]) by calling them at initialisation, so the
//! fast decode path agrees with them by construction; whenever a plan says "not
//! valid" the decoder re-runs the reference check, which names the problem.

use std::sync::OnceLock;

#[cfg(test)]
use super::check_code;
use super::flags::{OP_SEL, OP_SEL2};
use super::{code_ok, features, src_policy, Shape, SRC0_FIELD, VDST_FIELD, VSRC1_FIELD};
use crate::isa::tables::{self, Field};
use crate::isa::{Family, Isa, OpInfo, Opcode, OperandType, Target, Variant, MAX_OPERANDS};

/// Where an operand's code comes from: an index into the array built by
/// [`super::Codes::array`], or [`SEL_K`] for the literal constant.
pub(super) const SEL_K: u8 = 6;

/// One operand of a plan.
#[derive(Clone, Copy, Debug)]
pub(super) struct OpPlan {
    /// Source of the code (`0..=5` in `Codes::array`, or [`SEL_K`]).
    pub sel: u8,
    /// The operand type.
    pub ty: OperandType,
    /// Validity class (operand type, destination or not): the row of
    /// [`Plans::valid_sets`].
    pub key: u8,
}

/// Everything [`super::build`] and the VOP3 checks need of one table row.
#[derive(Clone, Copy, Debug)]
pub(super) struct RowPlan {
    /// The row's opcode.
    pub opcode: Opcode,
    /// Which fields the row has.
    pub shape: Shape,
    /// LLVM feature bits of the row ([`super::features`]).
    pub features: u32,
    /// VOP3: sources whose neg bit LLVM accepts (`neg` or `sext` policy).
    pub neg_ok: u8,
    /// VOP3: sources whose abs bit LLVM accepts.
    pub abs_ok: u8,
    /// VOP3: sources whose unaccepted neg/abs bits LLVM ignores (op_sel opcodes).
    pub lenient: u8,
    /// The operands, `count` of them.
    pub ops: [OpPlan; MAX_OPERANDS],
    /// Number of operands.
    pub count: u8,
    /// False when the row has an operand field the fast path does not handle or
    /// too many operands; such rows always go through the reference path.
    pub simple: bool,
    /// SDWA: whether any source takes modifier bits ([`super::src_policy`]);
    /// otherwise every modifier bit in the SDWA word is invalid.
    pub sdwa_mods: bool,
    /// DPP16: the same for the DPP word (LLVM also gives `v_dot4c_i32_i8` a
    /// modifier operand it never prints or checks).
    pub dpp_mods: bool,
    /// VOP1/VOP2: bits of the 32-bit word that must be zero because the row
    /// has no operand in their field (`vdst`, `src0`, `vsrc1`); the decoders
    /// (reference and fast) test this one mask.
    pub e32_zero: u32,
}

/// The families of [`Plans::fast_plan`], in its order.
pub(super) const FAST_FAMILIES: [Family; 4] =
    [Family::Vop1, Family::Vop2, Family::Vopc, Family::Vop3];

/// Room for the validity classes (operand type × destination or not), a power
/// of two so a masked key needs no bounds check.
pub(super) const CLASSES: usize = 32;
const _: () = assert!(OperandType::ALL.len() * 2 <= CLASSES);

/// Per validity class: a 512-bit set of the valid 9-bit codes.
pub(super) type ValidSets = [[u64; 8]; CLASSES];

/// All plans of both ISAs.
pub(super) struct Plans {
    /// Per ISA (gfx803, gfx1030): one plan per row of [`tables::IsaTables::rows`],
    /// then one that is not `simple` (what [`Plans::fast_plan`] gives numbers
    /// without a row).
    rows: [Vec<RowPlan>; 2],
    /// Per ISA, per family ([`FAST_FAMILIES`] order), per opcode number: the
    /// index into `rows`. Fixed-size, so a masked number needs no bounds check.
    fast: [Box<[[u16; 1024]; 4]>; 2],
    /// Per ISA, per wave size (wave32, wave64): the valid codes of each class.
    valid: [[ValidSets; 2]; 2],
}

const ISAS: [Isa; 2] = [Isa::Gfx803, Isa::Gfx1030];

fn isa_index(isa: Isa) -> usize {
    match isa {
        Isa::Gfx803 => 0,
        Isa::Gfx1030 => 1,
    }
}

/// The class key of an operand (wave32 numbering).
fn key(ty: OperandType, destination: bool) -> u8 {
    (ty as usize * 2 + usize::from(destination)) as u8
}

fn plan_of(isa: Isa, info: &OpInfo) -> RowPlan {
    let shape = Shape::of(info);
    let features = features(isa, info.family, info.number);
    let mut plan = RowPlan {
        opcode: info.opcode,
        shape,
        features,
        neg_ok: 0,
        abs_ok: 0,
        lenient: 0,
        ops: [OpPlan {
            sel: 0,
            ty: OperandType::B32,
            key: 0,
        }; MAX_OPERANDS],
        count: 0,
        simple: info.operands.len() <= MAX_OPERANDS,
        e32_zero: 0,
        sdwa_mods: (0..2).any(|i| src_policy(isa, info, Variant::Sdwa, i) != Default::default()),
        dpp_mods: (0..2).any(|i| src_policy(isa, info, Variant::Dpp16, i) != Default::default())
            || info.opcode.mnemonic() == "v_dot4c_i32_i8",
    };
    if info.family == Family::Vop3 {
        for i in 0..3 {
            let p = src_policy(isa, info, Variant::Plain, i);
            plan.neg_ok |= u8::from(p.neg || p.sext) << i;
            plan.abs_ok |= u8::from(p.abs || p.sext) << i;
        }
        if features & (OP_SEL | OP_SEL2) != 0 {
            plan.lenient = ((1u16 << shape.nsrc) - 1) as u8;
        }
    }
    for (slot, spec) in plan.ops.iter_mut().zip(info.operands) {
        let sel = match spec.field {
            Field::Vdst => 0,
            Field::Sdst => 1,
            Field::Vcc => 2,
            Field::Src0 => 3,
            Field::Src1 => 4,
            Field::Src2 => 5,
            Field::K => SEL_K,
            _ => {
                plan.simple = false;
                0
            }
        };
        let destination = matches!(spec.field, Field::Sdst | Field::Vcc | Field::Vdst);
        *slot = OpPlan {
            sel,
            ty: spec.ty,
            key: key(spec.ty, destination),
        };
    }
    plan.count = info.operands.len().min(MAX_OPERANDS) as u8;
    if matches!(info.family, Family::Vop1 | Family::Vop2) {
        let unused = |field: u32, has: bool| if has { 0 } else { field };
        plan.e32_zero = unused(VDST_FIELD, shape.vdst || shape.sdst)
            | unused(SRC0_FIELD, shape.src0)
            | unused(VSRC1_FIELD, info.family == Family::Vop1 || shape.src1);
    }
    plan
}

fn build_plans() -> Plans {
    let mut valid = [[[[0u64; 8]; CLASSES]; 2]; 2];
    for (i, isa) in ISAS.into_iter().enumerate() {
        for wave64 in [false, true] {
            let target = Target { isa, wave64 };
            for ty in OperandType::ALL {
                for destination in [false, true] {
                    let field = if destination {
                        Field::Vdst
                    } else {
                        Field::Src0
                    };
                    let set = &mut valid[i][usize::from(wave64)][usize::from(key(ty, destination))];
                    for code in 0..512u16 {
                        if code_ok(target, code, ty, field) {
                            set[usize::from(code >> 6)] |= 1 << (code & 63);
                        }
                    }
                }
            }
        }
    }
    let mut fast = ISAS.map(|_| Box::new([[0u16; 1024]; 4]));
    let rows = ISAS.map(|isa| {
        let t = tables::tables(isa);
        let mut rows: Vec<RowPlan> = t.rows.iter().map(|r| plan_of(isa, r)).collect();
        let none = u16::try_from(rows.len()).expect("fewer than 65535 rows");
        let mut sentinel = rows
            .first()
            .copied()
            .unwrap_or_else(|| plan_of(isa, &t.rows[0]));
        sentinel.simple = false;
        rows.push(sentinel);
        for (slots, family) in fast[isa_index(isa)].iter_mut().zip(FAST_FAMILIES) {
            for (number, slot) in slots.iter_mut().enumerate() {
                *slot = match t.by_number[family as usize].get(number) {
                    Some(&i) if usize::from(i) < t.rows.len() => i,
                    _ => none,
                };
            }
        }
        rows
    });
    Plans { rows, fast, valid }
}

/// True when `code` is in class `key`'s set (no bounds checks: both indices are masked).
#[inline(always)]
pub(super) fn valid_in(sets: &ValidSets, key: u8, code: u16) -> bool {
    let set = &sets[usize::from(key) & (CLASSES - 1)];
    code < 512 && set[usize::from(code >> 6) & 7] >> (code & 63) & 1 != 0
}

/// The plans, built on first use.
#[inline]
pub(super) fn plans() -> &'static Plans {
    static PLANS: OnceLock<Plans> = OnceLock::new();
    PLANS.get_or_init(build_plans)
}

impl Plans {
    /// The row for opcode `number` of `family` on `isa` and its plan.
    #[inline]
    pub(super) fn lookup(
        &self,
        isa: Isa,
        family: Family,
        number: u16,
    ) -> Option<(&'static OpInfo, &RowPlan)> {
        let t = tables::tables(isa);
        let index = usize::from(*t.by_number[family as usize].get(usize::from(number))?);
        Some((t.rows.get(index)?, self.rows[isa_index(isa)].get(index)?))
    }

    /// The fast paths' plan for opcode `number` of family `f` (index into
    /// [`FAST_FAMILIES`]) on `isa`: the row's, or one that is not `simple`.
    #[inline(always)]
    pub(super) fn fast_plan(&self, isa: Isa, f: usize, number: u16) -> Option<&RowPlan> {
        let i = isa_index(isa);
        let index = self.fast[i][f & 3][usize::from(number) & 1023];
        self.rows[i].get(usize::from(index))
    }

    /// The validity sets of `target`.
    #[inline]
    pub(super) fn valid_sets(&self, target: Target) -> &ValidSets {
        &self.valid[isa_index(target.isa)][usize::from(target.wave64)]
    }

    /// True when `code` passes [`check_code`] for an operand of class `key` on `target`.
    #[cfg(test)]
    fn valid(&self, target: Target, key: u8, code: u16) -> bool {
        valid_in(self.valid_sets(target), key, code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plan of a looked-up opcode is the plan of that row (the decoder reads
    /// features and shape from it in place of the row's own).
    #[test]
    fn plans_follow_rows() {
        let plans = plans();
        for isa in ISAS {
            for family in [
                Family::Vop1,
                Family::Vop2,
                Family::Vopc,
                Family::Vop3,
                Family::Vop3p,
            ] {
                for number in 0..1024u16 {
                    let Some((row, plan)) = plans.lookup(isa, family, number) else {
                        continue;
                    };
                    assert_eq!((row.family, row.number), (family, number));
                    assert_eq!(plan.features, features(isa, family, number));
                    assert_eq!(usize::from(plan.count), row.operands.len());
                    for (op, spec) in plan.ops.iter().zip(row.operands) {
                        assert_eq!(op.ty, spec.ty);
                    }
                }
            }
        }
    }

    /// The validity sets agree with the reference check, spot-checked on codes
    /// whose answer differs by class (an SGPR pair, an odd pair, a constant as a
    /// destination, a VGPR lane mask).
    #[test]
    fn validity_sets_match_reference() {
        let plans = plans();
        let w32 = Target::GFX1030_W32;
        let dst = key(OperandType::B32, true);
        let src = key(OperandType::B32, false);
        let mask = key(OperandType::LaneMask, false);
        let pair = key(OperandType::B64, false);
        assert!(plans.valid(w32, src, 128) && !plans.valid(w32, dst, 128));
        assert!(plans.valid(w32, src, 256 + 255) && !plans.valid(w32, pair, 256 + 255));
        assert!(plans.valid(w32, mask, 106) && !plans.valid(w32, mask, 256));
        assert!(!plans.valid(w32, src, 255) && !plans.valid(w32, src, 512));
        for ty in OperandType::ALL {
            for code in 0..512 {
                for target in [Target::GFX803, w32, Target::GFX1030_W64] {
                    assert_eq!(
                        plans.valid(target, key(ty, false), code),
                        check_code(target, code, ty, Field::Src1).is_ok()
                    );
                }
            }
        }
    }
}
