//! The SMEM fast path: a per-row plan (which fields the row uses, in print
//! order, with the set of accepted values of each register field per wave
//! size, which word-0 bits must be zero) computed once per ISA by calling the
//! reference decoder's own checks ([`sdata_ok`], [`sbase_ok`], [`has_cpol`],
//! [`word0_mask`], [`sdata_is_imm`]), so the two agree by construction.
//!
//! It answers "this instruction" or "not sure"; every rejection goes to
//! [`super::decode`], which produces the result or names the error.
//! `family/fill_tests.rs` compares the two on random words.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::{has_cpol, sbase_ok, sdata_is_imm, sdata_ok, word0_mask};
use crate::isa::family::mem_fill::{contains, dword_at, set_of, Set256};
use crate::isa::tables::{self, Field, OpInfo};
use crate::isa::{Family, Instruction, Isa, Opcode, Operand, OperandType, Target};

/// What an operand of a plan reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Sdata,
    Sbase,
    Soffset,
}

#[derive(Clone, Copy, Debug)]
struct SmemOp {
    source: Source,
    ty: OperandType,
    /// Index into [`SmemPlans::sets`] per wave size (unused for `Soffset`).
    set: [u8; 2],
}

#[derive(Clone, Copy, Debug)]
struct SmemPlan {
    /// False for opcodes without a row and rows the fast path leaves alone.
    fast: bool,
    opcode: Opcode,
    ops: [SmemOp; 3],
    count: u8,
    /// `sdata` is the 7-bit immediate (`s_atc_probe*`).
    sdata_imm: bool,
    /// Which fields the row uses (unused ones must be zero).
    uses_sdata: bool,
    uses_sbase: bool,
    uses_soffset: bool,
    /// Word-0 bits that must be zero: reserved bits, and glc/dlc without a cache policy.
    w0_zero: u32,
}

struct SmemPlans {
    /// Per ISA (gfx803, gfx1030), per opcode number.
    rows: [Box<[SmemPlan; 256]>; 2],
    /// Distinct sets of accepted field codes, padded so a `u8` index needs no bounds check.
    sets: Box<[Set256; 256]>,
}

const NOT_FAST: SmemPlan = SmemPlan {
    fast: false,
    opcode: Opcode::S_NOP,
    ops: [SmemOp {
        source: Source::Sdata,
        ty: OperandType::B32,
        set: [0, 0],
    }; 3],
    count: 0,
    sdata_imm: false,
    uses_sdata: false,
    uses_sbase: false,
    uses_soffset: false,
    w0_zero: 0,
};

/// Builds the sets and plans once; sets are computed once per distinct
/// (ISA, field, width) and shared.
struct Builder {
    sets: Vec<Set256>,
    memo: BTreeMap<(bool, bool, u8), u8>,
}

impl Builder {
    fn set(&mut self, isa: Isa, sbase: bool, dwords: u8) -> u8 {
        let key = (isa == Isa::Gfx1030, sbase, dwords);
        if let Some(&i) = self.memo.get(&key) {
            return i;
        }
        let set = set_of(|code| {
            if sbase {
                // sbase codes are even (the field holds code / 2).
                code < 128 && code % 2 == 0 && sbase_ok(isa, code, dwords)
            } else {
                code < 128 && sdata_ok(isa, code, dwords)
            }
        });
        self.sets.push(set);
        let i = u8::try_from(self.sets.len() - 1).expect("fewer than 256 SMEM operand classes");
        self.memo.insert(key, i);
        i
    }

    fn plan(&mut self, isa: Isa, info: &OpInfo) -> SmemPlan {
        let mut plan = SmemPlan {
            fast: true,
            opcode: info.opcode,
            sdata_imm: sdata_is_imm(info.opcode),
            w0_zero: !word0_mask(isa),
            ..NOT_FAST
        };
        if !has_cpol(info) {
            plan.w0_zero |= 1 << 16 | if isa == Isa::Gfx1030 { 1 << 14 } else { 0 };
        }
        for spec in info.operands {
            let source = match spec.field {
                Field::Sdata if plan.sdata_imm => {
                    plan.uses_sdata = true;
                    continue;
                }
                Field::Sdata => Source::Sdata,
                Field::Sbase => Source::Sbase,
                Field::Soffset => Source::Soffset,
                _ => {
                    plan.fast = false;
                    continue;
                }
            };
            let mut set = [0u8; 2];
            for (wave, target) in [Target::GFX1030_W32, Target::GFX1030_W64]
                .into_iter()
                .enumerate()
            {
                let dwords = spec.ty.dwords(target);
                set[wave] = match source {
                    Source::Sdata => self.set(isa, false, dwords),
                    Source::Sbase => self.set(isa, true, dwords),
                    Source::Soffset => 0,
                };
            }
            match source {
                Source::Sdata => plan.uses_sdata = true,
                Source::Sbase => plan.uses_sbase = true,
                Source::Soffset => plan.uses_soffset = true,
            }
            let Some(slot) = plan.ops.get_mut(usize::from(plan.count)) else {
                plan.fast = false;
                continue;
            };
            *slot = SmemOp {
                source,
                // The reference decoder types soffset as one dword whatever the row says.
                ty: if source == Source::Soffset {
                    OperandType::B32
                } else {
                    spec.ty
                },
                set,
            };
            plan.count += 1;
        }
        plan
    }
}

fn plans() -> &'static SmemPlans {
    static PLANS: OnceLock<SmemPlans> = OnceLock::new();
    PLANS.get_or_init(|| {
        let mut b = Builder {
            sets: Vec::new(),
            memo: BTreeMap::new(),
        };
        let rows = [Isa::Gfx803, Isa::Gfx1030].map(|isa| {
            let mut rows = Box::new([NOT_FAST; 256]);
            for (number, slot) in rows.iter_mut().enumerate() {
                if let Some(info) = tables::lookup(isa, Family::Smem, number as u16) {
                    *slot = b.plan(isa, info);
                }
            }
            rows
        });
        let mut sets = Box::new([[0u64; 4]; 256]);
        sets[..b.sets.len()].copy_from_slice(&b.sets);
        SmemPlans { rows, sets }
    })
}

/// Decodes an SMEM instruction (first word `w0`) into `inst` (target set,
/// other fields defaults); false to ask [`super::decode`].
#[inline(never)]
pub(crate) fn fill(inst: &mut Instruction, w0: u32, bytes: &[u8]) -> bool {
    let Some(w1) = dword_at(bytes, 4) else {
        return false;
    };
    let target = inst.target;
    let plans = plans();
    let plan = &plans.rows[usize::from(target.isa == Isa::Gfx1030)][(w0 >> 18 & 0xff) as usize];
    if !plan.fast || w0 & plan.w0_zero != 0 {
        return false;
    }
    let sdata = (w0 >> 6 & 0x7f) as u16;
    let sbase = (w0 & 0x3f) as u16 * 2;
    let imm = w0 >> 17 & 1 != 0;
    let m = &mut inst.modifiers;
    m.glc = w0 >> 16 & 1 != 0;
    let soffset = match target.isa {
        Isa::Gfx803 if imm => {
            if w1 > 0xf_ffff {
                return false;
            }
            m.offset = w1 as i32;
            None
        }
        Isa::Gfx803 => {
            if w1 > 0x7f {
                return false;
            }
            Some(w1 as u16)
        }
        Isa::Gfx1030 => {
            m.dlc = w0 >> 14 & 1 != 0;
            if w1 & 0x01e0_0000 != 0 {
                return false;
            }
            m.offset = ((w1 << 11) as i32) >> 11;
            Some((w1 >> 25) as u16)
        }
    };
    if !plan.uses_sdata && sdata != 0
        || !plan.uses_sbase && sbase != 0
        || !plan.uses_soffset && (w1 != 0 || imm)
    {
        return false;
    }
    if plan.sdata_imm {
        inst.modifiers.simm16 = sdata;
    }
    let wave = usize::from(target.wave64);
    let mut count = 0;
    for op in &plan.ops[..usize::from(plan.count).min(3)] {
        let code = match op.source {
            Source::Sdata => sdata,
            Source::Sbase => sbase,
            Source::Soffset => match soffset {
                Some(code) => code,
                None => continue,
            },
        };
        if op.source != Source::Soffset
            && !contains(&plans.sets[usize::from(op.set[wave])], u32::from(code))
        {
            return false;
        }
        inst.operands[count & 3] = Operand::Src { code, ty: op.ty };
        count += 1;
    }
    inst.operand_count = count as u8;
    inst.opcode = plan.opcode;
    inst.family = Family::Smem;
    inst.size = 8;
    true
}
