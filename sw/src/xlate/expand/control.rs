//! Program control: branches (re-targeted, offsets patched later), the
//! `s_waitcnt` layout and store-counter split, and the gfx8 flat-scratch
//! register writes.

use arch::isa::{Family, Instruction, Opcode, Operand, OperandType};

use super::alu::{retarget, NULL};
use super::emit::{inst, Emitter};
use super::Context;
use crate::xlate::abi::{flat_scr_lo_high24, TEMP_SGPR};
use crate::xlate::summary::{VmWait, GFX8_LGKMCNT_MAX, GFX8_VMCNT_MAX};
use crate::xlate::XlateError;

/// gfx8 `FLAT_SCRATCH_LO` / `FLAT_SCRATCH_HI` source codes (SGPRs s102/s103 on gfx1030).
const FLAT_SCRATCH_LO: u16 = 102;
const FLAT_SCRATCH_HI: u16 = 103;

/// gfx10's largest `vmcnt`/`lgkmcnt` (6 bits): "do not wait".
const GFX10_CNT_MAX: u16 = 63;
/// `expcnt`'s largest value (3 bits on both).
const EXPCNT_MAX: u16 = 7;

/// A branch: the same SOPP opcode on gfx1030, its offset patched once every
/// expansion is placed.
pub fn branch(
    legacy: &Instruction,
    target: u32,
    offset: u32,
    out: &mut Emitter,
) -> Result<(), XlateError> {
    let mut b = retarget(legacy, offset)?;
    b.modifiers.simm16 = 0;
    out.emit_branch(&b, target, offset)
        .map_err(|e| e.at(offset))
}

/// gfx10 `s_waitcnt` simm16 from its counts: vmcnt `{[15:14], [3:0]}`,
/// expcnt `[6:4]`, lgkmcnt `[13:8]`.
pub fn gfx10_waitcnt(vm: u16, exp: u16, lgkm: u16) -> u16 {
    (vm & 0xf) | (vm >> 4 & 3) << 14 | (exp & 7) << 4 | (lgkm & 0x3f) << 8
}

/// A legacy `s_waitcnt`: gfx8 fields (vmcnt `[3:0]`, expcnt `[6:4]`, lgkmcnt
/// `[11:8]`) re-laid for gfx10, `vmcnt` narrowed to the loads in its window and
/// `s_waitcnt_vscnt null, S` added for the stores (only when the program has
/// stores at all). A wait for nothing becomes nothing.
pub fn waitcnt(
    legacy: &Instruction,
    w: VmWait,
    ctx: &Context,
    out: &mut Emitter,
) -> Result<(), XlateError> {
    let s = legacy.modifiers.simm16;
    let exp = s >> 4 & 7;
    let lgkm = s >> 8 & 0xf;
    let waits_vm = w.legacy != GFX8_VMCNT_MAX;
    let vm = if waits_vm {
        u16::from(w.loads)
    } else {
        GFX10_CNT_MAX
    };
    let lgkm = if lgkm == u16::from(GFX8_LGKMCNT_MAX) {
        GFX10_CNT_MAX
    } else {
        lgkm
    };
    let e = |e: super::EmitError| e.at(0);
    if vm != GFX10_CNT_MAX || lgkm != GFX10_CNT_MAX || exp != EXPCNT_MAX {
        let mut i = inst(Opcode::S_WAITCNT, Family::Sopp, &[]);
        i.modifiers.simm16 = gfx10_waitcnt(vm, exp, lgkm);
        out.emit(&i).map_err(e)?;
    }
    if waits_vm && ctx.summary.has_vector_stores() {
        let mut i = inst(
            Opcode::S_WAITCNT_VSCNT,
            Family::Sopk,
            &[Operand::scalar(NULL, OperandType::B32)],
        );
        i.modifiers.simm16 = u16::from(w.stores);
        out.emit(&i).map_err(e)?;
    }
    Ok(())
}

/// A SALU write of gfx8's `flat_scratch_lo`/`flat_scratch_hi` (the legacy
/// flat-scratch prologue), or `None` when `legacy` is not one.
///
/// * `flat_scratch_lo` holds the bytes per work-item on gfx8; gfx1030's
///   absolute flat scratch does not use it: `s_mov_b32` into it is dropped.
/// * `flat_scratch_hi = x` (the wave's offset from the hidden private base in
///   256-byte units): the same operation into the free SGPR `s102`, then
///   `s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO, 8, 24), s102`. The entry
///   sequence put the scratch base into `FLAT_SCR`; its low 8 bits are zero
///   (256-byte alignment) and the hidden base is the base's 4 GiB-aligned
///   part, so this yields the wave's absolute scratch address. SCC is
///   whatever the legacy operation set (`s_setreg` leaves it alone).
pub fn flat_scratch_write(
    legacy: &Instruction,
    offset: u32,
    out: &mut Emitter,
) -> Option<Result<(), XlateError>> {
    if !matches!(legacy.family, Family::Sop1 | Family::Sop2 | Family::Sopk) {
        return None;
    }
    let Some(Operand::Src { code, ty }) = legacy.operands().first().copied() else {
        return None;
    };
    if !(code == FLAT_SCRATCH_LO || code == FLAT_SCRATCH_HI) {
        return None;
    }
    let unsupported = |reason: &str| XlateError::Unsupported {
        offset: offset as usize,
        text: legacy.to_string(),
        reason: reason.into(),
    };
    if ty.dwords(legacy.target) != 1 {
        return Some(Err(unsupported(
            "64-bit writes of flat_scratch are not translated (only LLVM's gfx8 prologue form)",
        )));
    }
    if code == FLAT_SCRATCH_LO {
        return Some(if legacy.opcode == Opcode::S_MOV_B32 {
            Ok(())
        } else {
            Err(unsupported("only s_mov_b32 may write flat_scratch_lo"))
        });
    }
    let mut temp = match retarget_sources(legacy, offset) {
        Ok(t) => t,
        Err(e) => return Some(Err(e)),
    };
    temp.operands[0] = Operand::scalar(TEMP_SGPR, OperandType::B32);
    let mut set = inst(
        Opcode::S_SETREG_B32,
        Family::Sopk,
        &[Operand::scalar(TEMP_SGPR, OperandType::B32)],
    );
    set.modifiers.simm16 = flat_scr_lo_high24();
    Some(
        out.emit(&temp)
            .and_then(|_| out.emit(&set))
            .map_err(|e| e.at(offset)),
    )
}

/// [`retarget`] for an instruction whose destination is replaced by a
/// gfx1030-only register (which operand mapping would reject).
fn retarget_sources(op: &Instruction, offset: u32) -> Result<Instruction, XlateError> {
    let mut probe = *op;
    probe.operands[0] = Operand::scalar(0, OperandType::B32);
    retarget(&probe, offset)
}
