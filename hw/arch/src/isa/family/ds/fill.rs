//! The DS fast path: a per-row plan (the operands' word-1 fields and types in
//! print order, which word-1 bits must be zero, the row's property bits)
//! computed once per ISA from the reference decoder's own helpers
//! ([`super::field_shift`], [`mem::flags`], and [`mem::vgpr`] through
//! [`vgpr_ok`]), so the two agree by construction.
//!
//! It answers "this instruction" or "not sure"; every rejection goes to
//! [`super::decode`], which produces the result or names the error.
//! `family/fill_tests.rs` compares the two on random words.

use std::sync::OnceLock;

use super::{field_shift, layout};
use crate::isa::family::mem::{self, NEEDS_GDS, NOP, NO_GDS, TWO_OFFSETS};
use crate::isa::family::mem_fill::{dword_at, vgpr_ok};
use crate::isa::operand::VGPR_BASE;
use crate::isa::tables::{self, OpInfo};
use crate::isa::{Family, Instruction, Isa, Opcode, Operand, OperandType};

/// Operands a DS row has at most (`vdst, addr, data0, data1`).
const MAX_DS_OPERANDS: usize = 4;

#[derive(Clone, Copy, Debug)]
struct DsOp {
    /// Word-1 bit position of the 8-bit field.
    shift: u8,
    ty: OperandType,
}

#[derive(Clone, Copy, Debug)]
struct DsPlan {
    fast: bool,
    opcode: Opcode,
    ops: [DsOp; MAX_DS_OPERANDS],
    count: u8,
    /// Word-1 bits in fields the row does not use (which must be zero).
    w1_zero: u32,
    /// [`mem::flags`] of the row.
    flags: u16,
}

const NOT_FAST: DsPlan = DsPlan {
    fast: false,
    opcode: Opcode::S_NOP,
    ops: [DsOp {
        shift: 0,
        ty: OperandType::B32,
    }; MAX_DS_OPERANDS],
    count: 0,
    w1_zero: 0,
    flags: 0,
};

fn plan_of(isa: Isa, info: &OpInfo) -> DsPlan {
    let mut plan = DsPlan {
        fast: true,
        opcode: info.opcode,
        flags: mem::flags(isa, info),
        ..NOT_FAST
    };
    let mut used = 0u32;
    for spec in info.operands {
        let (Some(shift), Some(slot)) = (
            field_shift(spec.field),
            plan.ops.get_mut(usize::from(plan.count)),
        ) else {
            plan.fast = false;
            continue;
        };
        used |= 0xff << shift;
        *slot = DsOp {
            shift: shift as u8,
            ty: spec.ty,
        };
        plan.count += 1;
    }
    plan.w1_zero = !used;
    plan
}

/// Per ISA (gfx803, gfx1030), per opcode number.
fn plans() -> &'static [Box<[DsPlan; 256]>; 2] {
    static PLANS: OnceLock<[Box<[DsPlan; 256]>; 2]> = OnceLock::new();
    PLANS.get_or_init(|| {
        [Isa::Gfx803, Isa::Gfx1030].map(|isa| {
            let mut rows = Box::new([NOT_FAST; 256]);
            for (number, slot) in rows.iter_mut().enumerate() {
                if let Some(info) = tables::lookup(isa, Family::Ds, number as u16) {
                    *slot = plan_of(isa, info);
                }
            }
            rows
        })
    })
}

/// Decodes a DS instruction (first word `w0`) into `inst` (target set, other
/// fields defaults); false to ask [`super::decode`].
#[inline(never)]
pub(crate) fn fill(inst: &mut Instruction, w0: u32, bytes: &[u8]) -> bool {
    let Some(w1) = dword_at(bytes, 4) else {
        return false;
    };
    let target = inst.target;
    let (op_shift, gds_bit, reserved_bit) = layout(target.isa);
    let plan = &plans()[usize::from(target.isa == Isa::Gfx1030)][(w0 >> op_shift & 0xff) as usize];
    let gds = w0 >> gds_bit & 1 != 0;
    let flags = plan.flags;
    if !plan.fast
        || w0 >> reserved_bit & 1 != 0
        || w1 & plan.w1_zero != 0
        || flags & NEEDS_GDS != 0 && !gds
        || flags & NO_GDS != 0 && gds
        || flags & NOP != 0 && (w0 & 0xffff != 0 || gds)
    {
        return false;
    }
    let count = usize::from(plan.count).min(MAX_DS_OPERANDS);
    for (slot, op) in inst.operands.iter_mut().zip(&plan.ops[..count]) {
        let n = w1 >> op.shift & 0xff;
        if !vgpr_ok(target.wave64, op.ty, n) {
            return false;
        }
        *slot = Operand::Src {
            code: VGPR_BASE + n as u16,
            ty: op.ty,
        };
    }
    let m = &mut inst.modifiers;
    m.gds = gds;
    if flags & TWO_OFFSETS != 0 {
        m.offset0 = (w0 & 0xff) as u8;
        m.offset1 = (w0 >> 8 & 0xff) as u8;
    } else {
        m.offset = (w0 & 0xffff) as i32;
    }
    inst.operand_count = plan.count;
    inst.opcode = plan.opcode;
    inst.family = Family::Ds;
    inst.size = 8;
    true
}
