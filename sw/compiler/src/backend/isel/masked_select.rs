//! Seed 004: a conditional expression `m ? op(a, b) : z` compiled to a
//! masked vector operation. On this GPU the vector is the wave and the mask
//! is a lane mask, so:
//!
//! | source form | machine code |
//! |---|---|
//! | `r = m ? op : 0` (zero mode) | `s_and_saveexec save, m` · **op → r** (first vector instruction, EXEC = m) · `s_mov exec, save` · `v_cndmask_b32 r, 0, r, m` (second vector instruction: zero the inactive lanes) |
//! | `r = m ? op : r` (merge, same variable) | saveexec · **op → r** · restore — the old value's register is reused in place |
//! | `r = m ? op : y` (merge, other variable) | `v_mov_b32 r, y` (copy first) · saveexec · **op → r** · restore |
//! | `r = m ? 0 : op`, `m ? y : op` (inverted) | `s_not m', m` first, then as above with `m'` |
//! | non-bool `m` | the IR builder already made it `m != 0` (`v_cmp_ne_u32`) |
//!
//! In SSA there are no variables: "the same variable" means the third
//! operand's value dies at the select, so the register allocator gives the
//! result its register and the copy disappears (copy coalescing).
//!
//! The alternative is to compute the operation in every lane and blend with
//! `v_cndmask_b32`. [`prefer_masked`] chooses by issue cycles.

use arch::isa::{Family, Opcode};

use super::{Isel, Loc};
use crate::backend::minst::{special, MOp};
use crate::backend::{BackendError, MaskedSelect};
use crate::ir::*;

/// Issue cycles of a VALU instruction, a SALU instruction: wave64 issues
/// each VALU instruction as two halves on a SIMD32.
fn valu_cycles(wave64: bool) -> u32 {
    if wave64 {
        2
    } else {
        1
    }
}

/// Issue cycles of the operation per 32-lane half (the cost model's unit,
/// a plain VALU instruction = 1), from the instructions it selects to and
/// the cycle model's rates: transcendental instructions (`v_sqrt`,
/// `v_rsq`, `v_rcp`) take 4 cycles per half; a 32-bit division is
/// `isel/divide.rs`'s reciprocal expansion (about 15 instructions, one of them
/// transcendental; the signed one about 6 more). `None`: the operation is
/// not issued under a mask (loads, stores, 64-bit values...).
pub fn op_instructions(k: &InstKind) -> Option<u32> {
    Some(match k {
        InstKind::Binary { op, .. } if !op.may_trap() => 1,
        InstKind::Binary {
            op: BinaryOp::Udiv | BinaryOp::Urem,
            ..
        } => 18,
        InstKind::Binary {
            op: BinaryOp::Sdiv | BinaryOp::Srem,
            ..
        } => 24,
        InstKind::Unary { .. } => 1,
        InstKind::Ternary {
            op: TernaryOp::Imad,
            ..
        } => 2,
        InstKind::Ternary {
            op: TernaryOp::Fma, ..
        } => 1,
        InstKind::Call { builtin, .. } => match builtin {
            Builtin::Clz | Builtin::Ctz | Builtin::Abs => 2,
            Builtin::Sqrt | Builtin::Rsq | Builtin::Rcp => 4,
            Builtin::FdivIeee => 14,
            // EXEC-dependent or cross-lane: never moved under a mask.
            Builtin::ReadFirstLane | Builtin::ReadLane | Builtin::Bpermute => return None,
            _ => 1,
        },
        _ => return None,
    })
}

/// The cost model: issue cycles of the masked form versus computing the
/// operation in every lane and blending, as measured on the clocked GPU
/// (`tests/backend_cycles.rs`, `masked_versus_blend_by_operation_cost`;
/// docs/performance.md, "Seed 004: masked vs blend by cost").
///
/// * masked = `s_and_saveexec`, op, `s_mov exec` (and `s_not` when
///   inverted), then the tail: `v_cndmask` zeroing (zero mode) or a `v_mov`
///   copy (merge into a value that stays live);
/// * blend = op + `v_cndmask`.
///
/// A masked op saves no cycles for the lanes it leaves out (a dense mask and
/// a sparse one cost the same) except that a wave64 instruction whose
/// 32-lane half has no active lane issues that half not at all. So:
///
/// * wave32, or a cheap op (cost < 4): masking pays only when the tail
///   vanishes and the SALU instructions cost no more than the `v_cndmask`
///   they replace — merge-in-place in wave64 (measured: a masked add costs
///   7% more than the blend in wave32 whatever the mask, 0.6% more in wave64
///   with both halves active, 0.5% less with one half empty);
/// * wave64 and an expensive op (a division, `sqrt`, a transcendental: cost
///   ≥ 4 cycles per half): masked. With one half empty it skips the op's
///   second half (measured: division −31%, `sqrt` −12%), with both active
///   it costs at most the 2–3 SALU instructions and the tail (measured:
///   division −1%, `sqrt` +0.4%). The mask is not known at compile time;
///   the possible saving is the op's half, the possible loss a few cycles.
///
/// Ties go to the masked form: it writes the result in place and needs one
/// VGPR fewer.
pub fn prefer_masked(
    op_cost: u32,
    zero_mode: bool,
    copy_needed: bool,
    inverted: bool,
    wave64: bool,
) -> bool {
    if wave64 && op_cost >= EXPENSIVE {
        return true;
    }
    let v = valu_cycles(wave64);
    let tail = if zero_mode || copy_needed { v } else { 0 };
    let masked = 2 + u32::from(inverted) + op_cost * v + tail;
    let blend = op_cost * v + v;
    masked <= blend
}

/// Per-half cost from which an operation is worth masking in wave64 for
/// the half it may skip (a transcendental instruction's rate).
pub const EXPENSIVE: u32 = 4;

/// The masked-select shape of a select, if it has one: the operation's
/// value, the other arm, and whether the mask is inverted.
fn shape(isel: &Isel, sel: Inst) -> Option<(Value, Value, bool)> {
    let f = isel.f;
    let d = f.inst(sel);
    let InstKind::Select { args, .. } = &d.kind else {
        return None;
    };
    let r = d.result?;
    if !isel.uni.is_divergent(r) || f.ty(r).bits() != 32 {
        return None;
    }
    let block = d.block?;
    let maskable = |v: Value| -> bool {
        let ValueDef::Inst(x) = f.value(v).def else {
            return false;
        };
        let xd = f.inst(x);
        xd.block == Some(block)
            && isel.uses[v.index()] == 1
            && isel.uni.is_divergent(v)
            && isel.position[x.index()] < isel.position[sel.index()]
            && op_instructions(&xd.kind).is_some()
    };
    if maskable(args[0]) {
        Some((args[0], args[1], false))
    } else if maskable(args[1]) {
        Some((args[1], args[0], true))
    } else {
        None
    }
}

fn is_zero(f: &Function, v: Value) -> bool {
    match f.def_inst(v) {
        Some(InstKind::Iconst { imm, .. }) => *imm == 0,
        Some(InstKind::Fconst { bits, .. }) => *bits == 0,
        _ => false,
    }
}

/// Marks the operations that will be issued under a mask (deferred to
/// their select), by the policy in the options.
pub(in crate::backend) fn find_candidates(isel: &mut Isel) {
    let f = isel.f;
    for &b in f.blocks() {
        for &i in &f.block(b).insts {
            let Some((x, other, inverted)) = shape(isel, i) else {
                continue;
            };
            let ValueDef::Inst(xi) = f.value(x).def else {
                continue;
            };
            let zero_mode = is_zero(f, other);
            let copy_needed = !zero_mode && isel.uses[other.index()] > 1;
            let take = match isel.opts.masked_select {
                MaskedSelect::Masked => true,
                MaskedSelect::Blend => false,
                MaskedSelect::Cost => {
                    let n = op_instructions(&f.inst(xi).kind).unwrap_or(1);
                    prefer_masked(n, zero_mode, copy_needed, inverted, isel.opts.wave64)
                }
            };
            if take {
                isel.deferred[xi.index()] = true;
            }
        }
    }
}

/// Lowers select `sel` in the masked form if [`find_candidates`] chose it;
/// `false` when the select is to be lowered as a blend.
pub(in crate::backend) fn lower_masked(isel: &mut Isel, sel: Inst) -> Result<bool, BackendError> {
    let Some((x, other, inverted)) = shape(isel, sel) else {
        return Ok(false);
    };
    let ValueDef::Inst(xi) = isel.f.value(x).def else {
        return Ok(false);
    };
    if !isel.deferred[xi.index()] {
        return Ok(false);
    }
    let d = isel.f.inst(sel);
    let InstKind::Select { cond, .. } = d.kind else {
        unreachable!("shape checked")
    };
    let r = d.result.expect("selects have results");
    let Loc::V(dst) = isel.def_loc(r) else {
        return Err(BackendError::Internal(
            "a divergent select outside VGPRs".into(),
        ));
    };
    let w64 = isel.opts.wave64;
    let mut m = isel.mask(cond)?;
    if inverted {
        // The inverted form `m ? z : op` is `!m ? op : z`: invert first.
        let n = isel.new_mask();
        let not = if w64 {
            Opcode::S_NOT_B64
        } else {
            Opcode::S_NOT_B32
        };
        isel.push(not, Family::Sop1, 1, &[MOp::Reg(n, 0), MOp::Reg(m, 0)]);
        m = n;
    }
    let zero_mode = is_zero(isel.f, other);
    if !zero_mode {
        // Merge mode: the inactive lanes keep `other` — copy it first (the
        // allocator coalesces the copy when `other` dies here).
        isel.copy_into(Loc::V(dst), other)?;
    }
    let save = isel.new_mask();
    let saveexec = if w64 {
        Opcode::S_AND_SAVEEXEC_B64
    } else {
        Opcode::S_AND_SAVEEXEC_B32
    };
    isel.push(
        saveexec,
        Family::Sop1,
        1,
        &[MOp::Reg(save, 0), MOp::Reg(m, 0)],
    );
    // The first vector instruction: the operation itself, under EXEC = m,
    // writing the result's register directly.
    isel.locs[x.index()] = Some(Loc::V(dst));
    isel.lower(xi)?;
    if !zero_mode {
        if let Some(crate::backend::minst::Item::Inst(last)) = isel.mc.items.last_mut() {
            last.tied = true;
        }
    }
    let mov = if w64 {
        Opcode::S_MOV_B64
    } else {
        Opcode::S_MOV_B32
    };
    isel.push(
        mov,
        Family::Sop1,
        1,
        &[MOp::Phys(special::EXEC), MOp::Reg(save, 0)],
    );
    if zero_mode {
        // The second vector instruction: zero the lanes the mask left out.
        isel.vop3(
            Opcode::V_CNDMASK_B32,
            &[
                MOp::Reg(dst, 0),
                MOp::Imm(0),
                MOp::Reg(dst, 0),
                MOp::Reg(m, 0),
            ],
        );
    }
    Ok(true)
}
