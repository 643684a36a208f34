//! Program control: SOPP (branches, `s_round_mode`, `s_denorm_mode`, the
//! pipeline-only instructions), hardware registers (`s_getreg`/`s_setreg`) and
//! the gfx1030 subvector loops.

use arch::device::{FaultKind, PRIVATE_APERTURE_BASE, SHARED_APERTURE_BASE};
use arch::isa::Opcode;

use super::{code, simm16, write32, write_exec, Regs, Writes};
use crate::exec::operand::masked;
use crate::exec::{unimplemented, ExecCtx};

/// Hardware register ids of gfx1030 (`hwreg(HW_REG_...)`, RDNA2 guide).
mod hwreg {
    pub const MODE: u16 = 1;
    pub const STATUS: u16 = 2;
    pub const TRAPSTS: u16 = 3;
    pub const SH_MEM_BASES: u16 = 15;
    pub const FLAT_SCR_LO: u16 = 20;
    pub const FLAT_SCR_HI: u16 = 21;
    /// `HW_REG_HW_ID1` (LLVM's gfx10 `HW_REG_HW_ID` alias).
    pub const HW_ID1: u16 = 23;
    pub const SHADER_CYCLES: u16 = 29;
}

/// STATUS bits this model can give: SCC, EXECZ, VCCZ.
mod status {
    pub const SCC: u32 = 1 << 0;
    pub const EXECZ: u32 = 1 << 9;
    pub const VCCZ: u32 = 1 << 10;
}

/// The `hwreg(id, offset, size)` fields of a 16-bit immediate:
/// `id[5:0]`, `offset[10:6]`, `size - 1[15:11]`; returns `(id, offset, mask)`
/// with `mask` the field's bits in place.
fn hwreg_fields(imm: u16) -> (u16, u32, u32) {
    let id = imm & 0x3f;
    let offset = u32::from((imm >> 6) & 0x1f);
    let size = u32::from((imm >> 11) & 0x1f) + 1;
    let field = ((1u64 << size) - 1) as u32;
    (id, offset, field << offset)
}

/// The whole hardware register `id` as the wave sees it at issue.
fn hwreg_value(r: &Regs<'_, '_>, ctx: &ExecCtx<'_>, id: u16) -> u32 {
    let s = r.s;
    match id {
        hwreg::MODE => s.mode,
        hwreg::STATUS => {
            let mut v = 0;
            if s.scc {
                v |= status::SCC;
            }
            if masked(s.exec(), r.wave64()) == 0 {
                v |= status::EXECZ;
            }
            if masked(s.vcc(), r.wave64()) == 0 {
                v |= status::VCCZ;
            }
            v
        }
        hwreg::TRAPSTS => s.trapsts,
        hwreg::SH_MEM_BASES => {
            ((SHARED_APERTURE_BASE >> 48) as u32) << 16 | (PRIVATE_APERTURE_BASE >> 48) as u32
        }
        hwreg::FLAT_SCR_LO => s.flat_scratch as u32,
        hwreg::FLAT_SCR_HI => (s.flat_scratch >> 32) as u32,
        hwreg::HW_ID1 => ctx.env.wave_in_group,
        hwreg::SHADER_CYCLES => ctx.cycle as u32,
        // GPR_ALLOC, LDS_ALLOC, IB_STS, TBA/TMA, HW_ID2, POPS_PACKER: not modelled.
        _ => 0,
    }
}

/// `s_getreg_b32`: the field, right-aligned.
pub(super) fn getreg(r: &Regs<'_, '_>, ctx: &ExecCtx<'_>, imm: u16) -> u32 {
    let (id, offset, mask) = hwreg_fields(imm);
    (hwreg_value(r, ctx, id) & mask) >> offset
}

/// `s_setreg_b32` / `s_setreg_imm32_b32`: the low bits of `value` replace the
/// field. MODE, TRAPSTS and FLAT_SCR_LO/HI take writes; other registers
/// ignore them.
pub(super) fn setreg(r: &Regs<'_, '_>, imm: u16, value: u32, out: &mut Writes) {
    let (id, offset, mask) = hwreg_fields(imm);
    let merge = |old: u32| (old & !mask) | (value.wrapping_shl(offset) & mask);
    let s = r.s;
    match id {
        hwreg::MODE => out.mode = Some(merge(s.mode)),
        hwreg::TRAPSTS => out.trapsts = Some(merge(s.trapsts)),
        hwreg::FLAT_SCR_LO => {
            let lo = merge(s.flat_scratch as u32);
            out.flat_scratch = Some(s.flat_scratch & !0xffff_ffff | u64::from(lo));
        }
        hwreg::FLAT_SCR_HI => {
            let hi = merge((s.flat_scratch >> 32) as u32);
            out.flat_scratch = Some(s.flat_scratch & 0xffff_ffff | u64::from(hi) << 32);
        }
        _ => {}
    }
}

/// SOPP.
pub(super) fn sopp(
    r: &Regs<'_, '_>,
    ctx: &mut ExecCtx<'_>,
    out: &mut Writes,
) -> Result<(), FaultKind> {
    use Opcode::*;
    let s = r.s;
    let w64 = r.wave64();
    let taken = match r.inst.opcode {
        S_BRANCH => true,
        S_CBRANCH_SCC0 => !s.scc,
        S_CBRANCH_SCC1 => s.scc,
        S_CBRANCH_VCCZ => masked(s.vcc(), w64) == 0,
        S_CBRANCH_VCCNZ => masked(s.vcc(), w64) != 0,
        S_CBRANCH_EXECZ => masked(s.exec(), w64) == 0,
        S_CBRANCH_EXECNZ => masked(s.exec(), w64) != 0,
        // No debugger is attached.
        S_CBRANCH_CDBGSYS
        | S_CBRANCH_CDBGUSER
        | S_CBRANCH_CDBGSYS_OR_USER
        | S_CBRANCH_CDBGSYS_AND_USER => false,
        S_ROUND_MODE => {
            out.mode = Some((s.mode & !0xf) | u32::from(r.inst.modifiers.simm16 & 0xf));
            return Ok(());
        }
        S_DENORM_MODE => {
            out.mode = Some((s.mode & !0xf0) | u32::from(r.inst.modifiers.simm16 & 0xf) << 4);
            return Ok(());
        }
        S_TRAP => {
            return Err(FaultKind::IllegalInstruction {
                reason: format!(
                    "s_trap {} executed; trap handlers are not modelled",
                    r.inst.modifiers.simm16
                ),
            })
        }
        S_SETHALT if r.inst.modifiers.simm16 & 1 != 0 => return Err(unimplemented(r.inst)),
        S_SENDMSGHALT => return Err(unimplemented(r.inst)),
        S_NOP
        | S_ENDPGM
        | S_ENDPGM_SAVED
        | S_ENDPGM_ORDERED_PS_DONE
        | S_BARRIER
        | S_WAKEUP
        | S_SETKILL
        | S_WAITCNT
        | S_WAITCNT_DEPCTR
        | S_WAIT_IDLE
        | S_SETHALT
        | S_SLEEP
        | S_SETPRIO
        | S_SENDMSG
        | S_ICACHE_INV
        | S_INCPERFLEVEL
        | S_DECPERFLEVEL
        | S_TTRACEDATA
        | S_TTRACEDATA_IMM
        | S_CODE_END
        | S_INST_PREFETCH
        | S_CLAUSE => return Ok(()),
        _ => return Err(unimplemented(r.inst)),
    };
    if taken {
        out.branch = r.inst.branch_target(ctx.pc);
    }
    Ok(())
}

/// `s_subvector_loop_begin/end` (docs/architecture.md): the low half runs
/// first with EXEC_HI parked in `sdst`, then the high half with EXEC_LO parked.
///
/// BEGIN: EXEC = 0 jumps past the loop; EXEC_LO = 0 runs only the high pass
/// (`sdst = 0`); otherwise `sdst = EXEC_HI`, EXEC_HI = 0.
/// END: in a low pass (EXEC_LO ≠ 0) with `sdst ≠ 0`, swaps halves
/// (`sdst = EXEC_LO`, EXEC = `sdst`·2³²) and jumps back; in the high pass
/// restores EXEC_LO from `sdst`.
pub(super) fn subvector_loop(
    r: &Regs<'_, '_>,
    ctx: &ExecCtx<'_>,
    out: &mut Writes,
) -> Result<(), FaultKind> {
    let d = r.dst_code(0)?;
    let exec = masked(r.s.exec(), r.wave64());
    let (lo, hi) = (exec as u32, (exec >> 32) as u32);
    let target = ctx
        .pc
        .wrapping_add(4)
        .wrapping_add(i64::from(simm16(r.inst) as i32).wrapping_mul(4) as u64);
    if r.inst.opcode == Opcode::S_SUBVECTOR_LOOP_BEGIN {
        if exec == 0 {
            out.branch = Some(target);
        } else if lo == 0 {
            write32(out, d, 0);
        } else {
            write32(out, d, hi);
            write32(out, code::EXEC_LO + 1, 0);
        }
    } else {
        let parked = r.src32(0)?;
        if lo != 0 {
            if parked != 0 {
                write32(out, d, lo);
                write_exec(out, u64::from(parked) << 32, true);
                out.branch = Some(target);
            }
        } else {
            write32(out, code::EXEC_LO, parked);
        }
    }
    Ok(())
}
