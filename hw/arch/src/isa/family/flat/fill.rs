//! The FLAT/GLOBAL/SCRATCH fast path. The printed operands depend on fields
//! (`glc` on atomics, `lds`, the addressing that `saddr` selects), so a row's
//! plan holds the operand positions of every combination, computed once by
//! the reference decoder's own [`form`]; the other checks use sets and bits
//! computed from its helpers ([`lds_allowed`], [`mem::flags`],
//! [`mem::scalar_range_ok`], and [`mem::vgpr`] through [`vgpr_ok`]), so the
//! two agree by construction.
//!
//! It answers "this instruction" or "not sure"; every rejection goes to
//! [`super::decode`], which produces the result or names the error.
//! `family/fill_tests.rs` compares the two on random words.

use std::sync::OnceLock;

use super::{form, lds_allowed, Addressing, Form, Slot, SADDR_NEITHER, SADDR_OFF};
use crate::isa::family::mem;
use crate::isa::family::mem_fill::{contains, dword_at, set_of, vgpr_ok, Set256};
use crate::isa::operand::VGPR_BASE;
use crate::isa::tables::{self, OpInfo};
use crate::isa::{Family, Instruction, Isa, Opcode, Operand};

/// The families in the order of [`FlatPlans::index`].
const FAMILIES: [Family; 3] = [Family::Flat, Family::Global, Family::Scratch];
/// The addressings in the order of [`FlatPlan::forms`].
const ADDRESSINGS: [Addressing; 4] = [
    Addressing::Flat,
    Addressing::Vgpr,
    Addressing::Sgpr,
    Addressing::Neither,
];

struct FlatPlan {
    opcode: Opcode,
    /// The row may set `lds`.
    lds_ok: bool,
    /// Operand positions per `glc`, `lds` and addressing (in [`ADDRESSINGS`] order).
    forms: [[[Form; 4]; 2]; 2],
}

struct FlatPlans {
    /// One plan per row, in table order of (ISA, family, number).
    plans: Vec<FlatPlan>,
    /// Per ISA, per family (in [`FAMILIES`] order), per opcode number: the index
    /// into `plans`, or `u16::MAX` for no plan.
    index: [[[u16; 128]; 3]; 2],
    /// Per ISA: the `saddr` codes a GLOBAL (pair) and a SCRATCH (single) SGPR
    /// address may use.
    saddr: [[Set256; 2]; 2],
}

fn plan_of(isa: Isa, family: Family, row: &OpInfo) -> FlatPlan {
    let flags = mem::flags(isa, row);
    let forms = [false, true].map(|glc| {
        [false, true].map(|lds| ADDRESSINGS.map(|a| form(family, row, flags, glc, lds, a)))
    });
    FlatPlan {
        opcode: row.opcode,
        lds_ok: lds_allowed(family, row, flags),
        forms,
    }
}

fn plans() -> &'static FlatPlans {
    static PLANS: OnceLock<FlatPlans> = OnceLock::new();
    PLANS.get_or_init(|| {
        let mut plans = Vec::new();
        let mut index = [[[u16::MAX; 128]; 3]; 2];
        for (i, isa) in [Isa::Gfx803, Isa::Gfx1030].into_iter().enumerate() {
            for (f, family) in FAMILIES.into_iter().enumerate() {
                for number in 0..128u16 {
                    if let Some(row) = tables::lookup(isa, family, number) {
                        index[i][f][usize::from(number)] =
                            u16::try_from(plans.len()).expect("fewer than 65535 FLAT rows");
                        plans.push(plan_of(isa, family, row));
                    }
                }
            }
        }
        let saddr = [Isa::Gfx803, Isa::Gfx1030].map(|isa| {
            [2, 1]
                .map(|dwords| set_of(|code| code < 128 && mem::scalar_range_ok(isa, code, dwords)))
        });
        FlatPlans {
            plans,
            index,
            saddr,
        }
    })
}

/// Decodes a FLAT/GLOBAL/SCRATCH instruction (first word `w0`) into `inst`
/// (target set, other fields defaults); false to ask [`super::decode`].
#[inline(never)]
pub(crate) fn fill(inst: &mut Instruction, w0: u32, bytes: &[u8]) -> bool {
    let Some(w1) = dword_at(bytes, 4) else {
        return false;
    };
    let target = inst.target;
    let isa = target.isa;
    // As `decode::identify` tells them apart.
    let (family, f) = match (isa, w0 >> 14 & 3) {
        (Isa::Gfx1030, 1) => (Family::Scratch, 2),
        (Isa::Gfx1030, 2) => (Family::Global, 1),
        _ => (Family::Flat, 0),
    };
    let plans = plans();
    let i = usize::from(isa == Isa::Gfx1030);
    let index = plans.index[i][f][(w0 >> 18 & 0x7f) as usize];
    let Some(plan) = plans.plans.get(usize::from(index)) else {
        return false;
    };
    if w0 >> 25 & 1 != 0 {
        return false;
    }
    let m = &mut inst.modifiers;
    m.glc = w0 >> 16 & 1 != 0;
    m.slc = w0 >> 17 & 1 != 0;
    let saddr = w1 >> 16 & 0x7f;
    let addressing = match isa {
        Isa::Gfx803 => {
            if w0 & 0xe000 != 0 || w1 & 0x00ff_0000 != 0 {
                return false;
            }
            m.offset = (w0 & 0x1fff) as i32;
            0
        }
        Isa::Gfx1030 => {
            if w0 >> 14 & 3 == 3 || w1 >> 23 & 1 != 0 {
                return false;
            }
            m.dlc = w0 >> 12 & 1 != 0;
            m.lds = w0 >> 13 & 1 != 0;
            let raw = (w0 & 0xfff) as i32;
            m.offset = if family == Family::Flat {
                raw
            } else {
                (raw << 20) >> 20
            };
            if m.lds && !plan.lds_ok {
                return false;
            }
            match (family, saddr) {
                (Family::Flat, SADDR_OFF) => 0,
                (Family::Flat, _) => return false,
                (_, SADDR_OFF) => 1,
                (Family::Scratch, SADDR_NEITHER) => 3,
                _ => {
                    if !contains(&plans.saddr[i][f - 1], saddr) {
                        return false;
                    }
                    2
                }
            }
        }
    };
    let form = &plan.forms[usize::from(m.glc)][usize::from(m.lds)][addressing];
    let mut used = 0u32;
    let vgpr = |shift: u32, ty, used: &mut u32| {
        let n = w1 >> shift & 0xff;
        *used |= 0xff << shift;
        vgpr_ok(target.wave64, ty, n).then_some(Operand::Src {
            code: VGPR_BASE + n as u16,
            ty,
        })
    };
    for (slot, s) in inst.operands.iter_mut().zip(form.slots()) {
        *slot = match *s {
            Slot::Vdst(ty) => match vgpr(24, ty, &mut used) {
                Some(op) => op,
                None => return false,
            },
            Slot::Vaddr(ty) => match vgpr(0, ty, &mut used) {
                Some(op) => op,
                None => return false,
            },
            Slot::Vdata(ty) => match vgpr(8, ty, &mut used) {
                Some(op) => op,
                None => return false,
            },
            Slot::Saddr(ty) => Operand::Src {
                code: saddr as u16,
                ty,
            },
            Slot::VaddrOff | Slot::SaddrOff => Operand::Off,
        };
    }
    if w1 & 0xff00_ffff & !used != 0 {
        return false;
    }
    inst.operand_count = form.len as u8;
    inst.opcode = plan.opcode;
    inst.family = family;
    inst.size = 8;
    true
}
