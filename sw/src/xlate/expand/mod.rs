//! Code generation (seed 003 Fig. 4, step 46): each legacy instruction, in
//! static program order, becomes a fixed sequence of 0..N gfx1030 wave64
//! instructions, built as typed [`Instruction`] values and encoded with
//! `arch::isa::encode`. No IR, no CFG, no reordering: the output is the
//! concatenation of the per-instruction expansions, and the same instruction
//! (with the same [`Layout`]) always expands to the same sequence.
//!
//! The common one-for-one re-targetings of scalar ALU and plain VOP
//! instructions are written straight into the output from per-row field
//! placements (`direct_encode`, private), which give the bytes `arch`'s encoder would.
//!
//! Split by topic: [`alu`] (the generic re-targeting of an instruction whose
//! operation exists on gfx1030 — renamed carry forms, VOP2 → VOP3 promotion,
//! register renumbering — and the unfused multiply-add emulation), [`control`]
//! (branches, `s_waitcnt`, flat-scratch set-up), [`misc`] (cache maintenance
//! and other forms whose gfx1030 counterpart has another shape).

pub mod alu;
mod context;
pub mod control;
mod direct_encode;
pub mod emit;
pub mod misc;

pub use context::Context;
use emit::check_direct;
pub use emit::{inst, EmitError, Emitter};

use arch::isa::{Family, Opcode};

use super::abi::Layout;
use super::forms::is_unfused_mad;
use super::preprocess::{LegacyInst, Program};
use super::summary::Summary;
use super::XlateError;

/// Expands every kept instruction in order into `out` and patches branches.
/// Returns (legacy byte offset, output byte offset) per kept instruction.
pub fn expand_program(
    program: &Program,
    summary: &Summary,
    layout: &Layout,
    out: &mut Emitter,
) -> Result<Vec<(u32, u32)>, XlateError> {
    let ctx = Context { summary, layout };
    // (legacy offset, output offset) per kept instruction, filled in the
    // same pass (a second walk over the instructions costs memory traffic).
    let mut map: Vec<(u32, u32)> = Vec::with_capacity(program.insts.len());
    let mut waits = summary.waits.iter().peekable();
    for (i, li) in program.insts.iter().enumerate() {
        map.push((li.offset, out.bytes.len() as u32));
        let wait = match waits.peek() {
            Some(w) if w.index as usize == i => waits.next().copied(),
            _ => None,
        };
        expand_one(li, wait, &ctx, out)?;
    }
    let end = out.bytes.len() as u32;
    for f in std::mem::take(&mut out.fixups) {
        let target = i64::from(map.get(f.target as usize).map_or(end, |m| m.1));
        let dwords = (target - (f.at as i64 + 4)) / 4;
        let simm = i16::try_from(dwords).map_err(|_| XlateError::BranchRange {
            offset: f.legacy as usize,
            dwords,
        })?;
        out.bytes[f.at..f.at + 2].copy_from_slice(&(simm as u16).to_le_bytes());
    }
    Ok(map)
}

/// Expands one legacy instruction.
fn expand_one(
    li: &LegacyInst,
    wait: Option<super::summary::VmWait>,
    ctx: &Context,
    out: &mut Emitter,
) -> Result<(), XlateError> {
    let inst = &li.inst;
    // Where this expansion starts (debug checks of the direct encoding).
    let at = out.bytes.len();
    let r = if let Some(target) = li.target {
        control::branch(inst, target, li.offset, out)
    } else if let Some(w) = wait {
        control::waitcnt(inst, w, ctx, out)
    } else if let Some(retargeted) = alu::retarget_plain(inst, &mut out.bytes) {
        // The common case, decided by table (the general path below gives
        // the same result, more slowly).
        let high16 = match retargeted {
            alu::Retargeted::Written(high16) => {
                if cfg!(debug_assertions) {
                    if let Some((i, _)) = alu::plain(inst) {
                        check_direct(&i, &out.bytes[at..]);
                    }
                }
                out.count += 1;
                high16
            }
            alu::Retargeted::Inst(i, high16) => {
                out.emit(&i).map_err(|e| e.at(li.offset))?;
                high16
            }
        };
        match high16.then(|| alu::high16_to_clear(inst)).flatten() {
            Some(d) => out.emit(&alu::clear_high16(d)).map_err(|e| e.at(li.offset)),
            None => Ok(()),
        }
    } else if let Some(r) = control::flat_scratch_write(inst, li.offset, out) {
        r
    } else if let Some(r) = misc::expand(inst, li.offset, out) {
        r
    } else if inst.opcode == Opcode::S_GETPC_B64 && inst.family == Family::Sop1 {
        alu::getpc(inst, li.offset, ctx, out)
    } else if alu::is_cmpx(inst.opcode) {
        alu::cmpx(inst, li.offset, out)
    } else if is_unfused_mad(inst.opcode) {
        alu::unfused_mad(inst, li.offset, ctx, out)
    } else {
        let mut i = *inst;
        alu::retarget_in_place(&mut i, li.offset).and_then(|()| {
            out.emit(&i).map_err(|e| e.at(li.offset))?;
            match alu::high16_to_clear(inst) {
                Some(d) => out.emit(&alu::clear_high16(d)).map_err(|e| e.at(li.offset)),
                None => Ok(()),
            }
        })
    };
    r.map_err(|e| match e {
        XlateError::Encode { text, reason, .. } => XlateError::Encode {
            offset: li.offset as usize,
            text,
            reason,
        },
        other => other,
    })
}
