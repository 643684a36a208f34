//! SOPP: program control (branches, barrier, end of program, waits) and the
//! hardware-register access shared with SOPK's `s_getreg`/`s_setreg`.

use arch::device::Fault;
use arch::isa::{Instruction, Isa, Opcode};

use super::branch;
use crate::exec::{illegal, not_implemented, Flow, Wave, WaveCtx};
use crate::wave::{M0, PRIVATE_APERTURE_BASE, SHARED_APERTURE_BASE};

/// Executes one SOPP instruction.
pub fn execute(ctx: &mut WaveCtx<'_>, inst: &Instruction) -> Result<Flow, Fault> {
    use Opcode::*;
    let w = &mut *ctx.wave;
    let imm = inst.modifiers.simm16;
    let taken = |cond: bool| {
        if cond {
            Flow::Jump(branch(ctx.pc, imm))
        } else {
            Flow::Next
        }
    };
    Ok(match inst.opcode {
        // Functionally no-ops: waits (the model completes every access at once),
        // hints, scheduling and cache controls, debug-trace data.
        S_NOP | S_WAITCNT | S_WAKEUP | S_SETKILL | S_SLEEP | S_SETPRIO | S_ICACHE_INV
        | S_INCPERFLEVEL | S_DECPERFLEVEL | S_TTRACEDATA | S_TTRACEDATA_IMM | S_CODE_END
        | S_INST_PREFETCH | S_CLAUSE | S_WAIT_IDLE | S_WAITCNT_DEPCTR => Flow::Next,
        // Compute waves have nobody to talk to: messages are dropped.
        S_SENDMSG => Flow::Next,
        S_ENDPGM | S_ENDPGM_SAVED | S_ENDPGM_ORDERED_PS_DONE => Flow::End,
        S_BRANCH => taken(true),
        S_CBRANCH_SCC0 => taken(!w.scc),
        S_CBRANCH_SCC1 => taken(w.scc),
        S_CBRANCH_VCCZ => taken(w.vcc() == 0),
        S_CBRANCH_VCCNZ => taken(w.vcc() != 0),
        S_CBRANCH_EXECZ => taken(w.exec() == 0),
        S_CBRANCH_EXECNZ => taken(w.exec() != 0),
        // No debugger: the CDBG flags are never set.
        S_CBRANCH_CDBGSYS
        | S_CBRANCH_CDBGUSER
        | S_CBRANCH_CDBGSYS_OR_USER
        | S_CBRANCH_CDBGSYS_AND_USER => Flow::Next,
        S_BARRIER => Flow::Barrier,
        S_ROUND_MODE => {
            w.mode = (w.mode & !0xf) | u32::from(imm & 0xf);
            Flow::Next
        }
        S_DENORM_MODE => {
            w.mode = (w.mode & !0xf0) | (u32::from(imm & 0xf) << 4);
            Flow::Next
        }
        S_SET_GPR_IDX_OFF => {
            w.gpr_idx_enabled = false;
            Flow::Next
        }
        S_SET_GPR_IDX_MODE => {
            let m0 = &mut w.sgpr[usize::from(M0)];
            *m0 = (*m0 & !0xf000) | (u32::from(imm & 0xf) << 12);
            Flow::Next
        }
        S_SETHALT if imm & 1 == 0 => Flow::Next,
        S_TRAP => {
            return Err(illegal(format!(
                "s_trap {imm} executed; trap handlers are not modelled"
            )))
        }
        _ => return Err(not_implemented(inst)),
    })
}

/// Hardware register ids of `s_getreg`/`s_setreg` (`hwreg(...)`).
mod hwreg {
    pub const MODE: u16 = 1;
    pub const STATUS: u16 = 2;
    pub const TRAPSTS: u16 = 3;
    pub const HW_ID: u16 = 4;
    pub const GPR_ALLOC: u16 = 5;
    pub const LDS_ALLOC: u16 = 6;
    pub const SH_MEM_BASES: u16 = 15;
    pub const FLAT_SCR_LO: u16 = 20;
    pub const FLAT_SCR_HI: u16 = 21;
    pub const SHADER_CYCLES: u16 = 29;
}

/// Splits a `hwreg` immediate into (id, offset, size).
fn fields(simm16: u16) -> (u16, u32, u32) {
    (
        simm16 & 0x3f,
        u32::from((simm16 >> 6) & 0x1f),
        u32::from(simm16 >> 11) + 1,
    )
}

fn field_mask(offset: u32, size: u32) -> u32 {
    let m = if size >= 32 {
        u32::MAX
    } else {
        (1u32 << size) - 1
    };
    m.checked_shl(offset).unwrap_or(0)
}

/// The full value of hardware register `id` (0 for registers not modelled).
fn read_hwreg(ctx: &WaveCtx<'_>, id: u16) -> u32 {
    let w = &ctx.wave;
    match id {
        hwreg::MODE => w.mode,
        // SCC[0], EXECZ[9], VCCZ[10], IN_TG[11] (the workgroup has more than one wave).
        hwreg::STATUS => {
            u32::from(w.scc)
                | u32::from(w.exec() == 0) << 9
                | u32::from(w.vcc() == 0) << 10
                | u32::from(ctx.env.waves_per_workgroup > 1) << 11
        }
        hwreg::TRAPSTS => w.trapsts,
        // WAVE_ID[3:0] = wave index in the workgroup (no CU/SIMD placement is modelled).
        hwreg::HW_ID => w.id.wave & 0xf,
        // VGPR_SIZE[13:8] / SGPR_SIZE[21:16] in allocation blocks (minus one).
        hwreg::GPR_ALLOC => {
            let granule = if w.target.isa == Isa::Gfx1030 && !w.target.wave64 {
                8
            } else {
                4
            };
            (((w.vgpr.len() as u32).div_ceil(granule)).saturating_sub(1) & 0x3f) << 8
        }
        // LDS_SIZE[20:12] in 128-dword blocks.
        hwreg::LDS_ALLOC => ((ctx.lds.len() as u32).div_ceil(512) & 0x1ff) << 12,
        hwreg::SH_MEM_BASES if w.target.isa == Isa::Gfx1030 => {
            ((SHARED_APERTURE_BASE >> 48) as u32) << 16 | (PRIVATE_APERTURE_BASE >> 48) as u32
        }
        hwreg::FLAT_SCR_LO if w.target.isa == Isa::Gfx1030 => w.flat_scratch as u32,
        hwreg::FLAT_SCR_HI if w.target.isa == Isa::Gfx1030 => (w.flat_scratch >> 32) as u32,
        hwreg::SHADER_CYCLES if w.target.isa == Isa::Gfx1030 => (ctx.now & 0xf_ffff) as u32,
        _ => 0,
    }
}

/// `s_getreg_b32`: the selected bit field of a hardware register, right-aligned.
pub(super) fn getreg(ctx: &WaveCtx<'_>, simm16: u16) -> u32 {
    let (id, offset, size) = fields(simm16);
    (read_hwreg(ctx, id) & field_mask(offset, size)) >> offset.min(31)
}

/// `s_setreg_b32` / `s_setreg_imm32_b32`: replaces the selected bit field of a
/// writable hardware register (MODE, TRAPSTS, gfx1030's FLAT_SCR_LO/HI); writes
/// to other registers are ignored, as read-only registers ignore them.
pub(super) fn setreg(w: &mut Wave, simm16: u16, value: u32) {
    let (id, offset, size) = fields(simm16);
    let mask = field_mask(offset, size);
    let merge = |old: u32| (old & !mask) | (value.checked_shl(offset).unwrap_or(0) & mask);
    match id {
        hwreg::MODE => w.mode = merge(w.mode),
        hwreg::TRAPSTS => w.trapsts = merge(w.trapsts),
        hwreg::FLAT_SCR_LO if w.target.isa == Isa::Gfx1030 => {
            let lo = merge(w.flat_scratch as u32);
            w.flat_scratch = (w.flat_scratch & !0xffff_ffff) | u64::from(lo);
        }
        hwreg::FLAT_SCR_HI if w.target.isa == Isa::Gfx1030 => {
            let hi = merge((w.flat_scratch >> 32) as u32);
            w.flat_scratch = (w.flat_scratch & 0xffff_ffff) | (u64::from(hi) << 32);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hwreg_fields() {
        // hwreg(HW_REG_MODE, 4, 4) = id 1 | offset 4 << 6 | (4 - 1) << 11.
        assert_eq!(fields(1 | 4 << 6 | 3 << 11), (1, 4, 4));
        assert_eq!(field_mask(4, 4), 0xf0);
        assert_eq!(field_mask(0, 32), u32::MAX);
        let mut w = Wave::new(Default::default(), arch::isa::Target::GFX1030_W32, 4);
        w.mode = 0x0000_00f0;
        setreg(&mut w, 1 | 4 << 6 | 3 << 11, 0x5);
        assert_eq!(w.mode, 0x50);
        setreg(&mut w, hwreg::FLAT_SCR_HI | 31 << 11, 0x12);
        setreg(&mut w, hwreg::FLAT_SCR_LO | 31 << 11, 0x3400);
        assert_eq!(w.flat_scratch, 0x12_0000_3400);
    }
}
