//! The MUBUF fast path (MTBUF, rare in compiler output, always takes the full
//! decoder). Which modifier combinations a row accepts and the printed `vdata`
//! type of each are computed once per row by calling the reference decoder's
//! own [`modifiers_problem`] (the predicate of `check_modifiers`) and
//! [`vdata_type`]; the register checks use sets
//! computed from [`mem::scalar_range_ok`], [`soffset_ok`] and [`mem::vgpr`]
//! (through [`vgpr_ok`]), so the two agree by construction.
//!
//! It answers "this instruction" or "not sure"; every rejection goes to
//! [`super::decode`], which produces the result or names the error.
//! `family/fill_tests.rs` compares the two on random words.

use std::sync::OnceLock;

use super::{layout, modifiers_problem, opcode_number, soffset_ok, vaddr_type, vdata_type};
use crate::isa::family::mem::{self, NO_OPERANDS, STORE_LDS};
use crate::isa::family::mem_fill::{contains, dword_at, set_of, vgpr_ok, Set256};
use crate::isa::operand::VGPR_BASE;
use crate::isa::tables::{self, OpInfo};
use crate::isa::{Family, Instruction, Isa, Modifiers, Opcode, Operand, OperandType};

/// `vdata` of a modifier combination: printed with this type, absent (`lds`),
/// or a combination the row rejects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Vdata {
    Typed(OperandType),
    Absent,
    Rejected,
}

#[derive(Clone, Copy, Debug)]
struct MubufPlan {
    fast: bool,
    opcode: Opcode,
    flags: u16,
    /// Per modifier key ([`key`]): the printed `vdata`.
    vdata: [Vdata; 32],
}

struct MubufPlans {
    /// Per ISA (gfx803, gfx1030), per opcode number.
    rows: [Box<[MubufPlan; 256]>; 2],
    /// Per ISA: the `srsrc` fields (SGPR quad / 4) accepted, as bits.
    srsrc: [u32; 2],
    /// Per ISA: the accepted `soffset` codes.
    soffset: [Set256; 2],
}

const NOT_FAST: MubufPlan = MubufPlan {
    fast: false,
    opcode: Opcode::S_NOP,
    flags: 0,
    vdata: [Vdata::Rejected; 32],
};

/// The modifier bits the acceptance of a combination depends on, as an index.
#[inline(always)]
fn key(m: &Modifiers) -> usize {
    usize::from(m.lds)
        | usize::from(m.offen) << 1
        | usize::from(m.idxen) << 2
        | usize::from(m.tfe) << 3
        | usize::from(m.dlc) << 4
}

fn plan_of(isa: Isa, row: &OpInfo) -> MubufPlan {
    let flags = mem::flags(isa, row);
    let mut plan = MubufPlan {
        // Rows without operands check every field; the full decoder handles them.
        fast: flags & NO_OPERANDS == 0,
        opcode: row.opcode,
        flags,
        vdata: [Vdata::Rejected; 32],
    };
    for (k, slot) in plan.vdata.iter_mut().enumerate() {
        let m = Modifiers {
            lds: k & 1 != 0,
            offen: k & 2 != 0,
            idxen: k & 4 != 0,
            tfe: k & 8 != 0,
            dlc: k & 16 != 0,
            ..Modifiers::default()
        };
        debug_assert_eq!(key(&m), k);
        if modifiers_problem(isa, Family::Mubuf, row, flags, &m).is_some() {
            continue;
        }
        *slot = match vdata_type(row, &m) {
            Ok(Some(ty)) => Vdata::Typed(ty),
            Ok(None) => Vdata::Absent,
            Err(_) => Vdata::Rejected,
        };
    }
    plan
}

fn plans() -> &'static MubufPlans {
    static PLANS: OnceLock<MubufPlans> = OnceLock::new();
    PLANS.get_or_init(|| {
        let rows = [Isa::Gfx803, Isa::Gfx1030].map(|isa| {
            let mut rows = Box::new([NOT_FAST; 256]);
            for (number, slot) in rows.iter_mut().enumerate() {
                if let Some(row) = tables::lookup(isa, Family::Mubuf, number as u16) {
                    *slot = plan_of(isa, row);
                }
            }
            rows
        });
        let srsrc = [Isa::Gfx803, Isa::Gfx1030].map(|isa| {
            (0..32u16).fold(0u32, |bits, n| {
                bits | u32::from(mem::scalar_range_ok(isa, n * 4, 4)) << n
            })
        });
        let soffset = [Isa::Gfx803, Isa::Gfx1030].map(|isa| set_of(|code| soffset_ok(isa, code)));
        MubufPlans {
            rows,
            srsrc,
            soffset,
        }
    })
}

/// Decodes a MUBUF instruction (first word `w0`) into `inst` (target set,
/// other fields defaults); false to ask [`super::decode`].
#[inline(never)]
pub(crate) fn fill(inst: &mut Instruction, w0: u32, bytes: &[u8]) -> bool {
    let Some(w1) = dword_at(bytes, 4) else {
        return false;
    };
    let target = inst.target;
    let isa = target.isa;
    let i = usize::from(isa == Isa::Gfx1030);
    let plans = plans();
    let number = opcode_number(isa, Family::Mubuf, w0, w1);
    let plan = &plans.rows[i][usize::from(number & 0xff)];
    let l = layout(isa, Family::Mubuf);
    if !plan.fast || w0 & l.reserved.0 != 0 || w1 & l.reserved.1 != 0 {
        return false;
    }
    let bit = |w: u32, b: Option<u32>| b.is_some_and(|b| w >> b & 1 != 0);
    let m = &mut inst.modifiers;
    m.offset = (w0 & 0xfff) as i32;
    m.offen = w0 >> 12 & 1 != 0;
    m.idxen = w0 >> 13 & 1 != 0;
    m.glc = w0 >> 14 & 1 != 0;
    m.dlc = bit(w0, l.dlc);
    m.lds = bit(w0, l.lds);
    m.slc = match l.slc_w0 {
        Some(b) => w0 >> b & 1 != 0,
        None => w1 >> 22 & 1 != 0,
    };
    m.tfe = w1 >> 23 & 1 != 0;
    let (vaddr, vdata, srsrc, soffset) = (
        w1 & 0xff,
        w1 >> 8 & 0xff,
        w1 >> 16 & 0x1f,
        (w1 >> 24) as u16,
    );
    let mut ops = [Operand::Off; 4];
    let mut n = 0;
    match plan.vdata[key(m)] {
        Vdata::Typed(ty) if vgpr_ok(target.wave64, ty, vdata) => {
            ops[0] = Operand::Src {
                code: VGPR_BASE + vdata as u16,
                ty,
            };
            n = 1;
        }
        Vdata::Absent if vdata == 0 => {}
        _ => return false,
    }
    match vaddr_type(m) {
        Some(ty) if vgpr_ok(target.wave64, ty, vaddr) => {
            ops[n] = Operand::Src {
                code: VGPR_BASE + vaddr as u16,
                ty,
            };
            n += 1;
        }
        Some(_) => return false,
        None if vaddr != 0 => return false,
        None if plan.flags & STORE_LDS != 0 => {}
        None => n += 1,
    }
    if plans.srsrc[i] >> srsrc & 1 == 0 || !contains(&plans.soffset[i], u32::from(soffset)) {
        return false;
    }
    ops[n & 3] = Operand::Src {
        code: (srsrc * 4) as u16,
        ty: OperandType::B128,
    };
    ops[(n + 1) & 3] = Operand::Src {
        code: soffset,
        ty: OperandType::B32,
    };
    inst.operands[..4].copy_from_slice(&ops);
    inst.operand_count = (n + 2) as u8;
    inst.opcode = plan.opcode;
    inst.family = Family::Mubuf;
    inst.size = 8;
    true
}
