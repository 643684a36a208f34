//! Spilling VGPRs to scratch (private memory).
//!
//! When linear scan runs out of VGPRs it names a victim (the live value that
//! ends last); every instruction that mentions the victim gets a fresh
//! one-instruction temporary instead, loaded from the victim's scratch slot
//! before (`scratch_load_dword`) and stored back after
//! (`scratch_store_dword`) — "spill everywhere" — and allocation starts again.
//! Scratch accesses obey EXEC exactly like register writes, so a value
//! written under a partial EXEC (a masked operation, a divergent branch)
//! keeps the inactive lanes' contents in its slot as it would in a register.
//!
//! Addressing (gfx1030 "absolute flat scratch", LLVM AMDGPUUsage): the
//! dispatch puts the scratch backing store's address in the user SGPRs
//! (`ENABLE_SGPR_FLAT_SCRATCH_INIT`) and this wave's byte offset in a system
//! SGPR; the prologue adds them and writes `FLAT_SCRATCH` with `s_setreg_b32`.
//! Slot `k` is private byte offset `4k` (`offset:4k`, `saddr` = an SGPR
//! holding 0); the hardware swizzles it per lane.

use arch::isa::{Family, Opcode};

use super::minst::{Item, MInst, MOp, MachineCode, RegClass, VReg};
use super::regalloc::{allocate_or_victim, Assignment};
use super::BackendError;

/// `hwreg(HW_REG_FLAT_SCR_LO)` / `_HI`: register ids 20/21, all 32 bits.
const FLAT_SCR_LO: u16 = 20 | 31 << 11;
const FLAT_SCR_HI: u16 = 21 | 31 << 11;
/// The scratch instructions' offset is a signed 12-bit byte offset.
const MAX_SLOTS: u32 = 2048 / 4;

/// Emits the flat-scratch prologue; returns the SGPR holding 0 for `saddr`.
pub fn prologue(mc: &mut MachineCode, init: VReg, wave_offset: VReg) -> VReg {
    let lo = mc.vreg(RegClass::Sgpr, 1);
    let hi = mc.vreg(RegClass::Sgpr, 1);
    mc.push(MInst::new(
        Opcode::S_ADD_U32,
        Family::Sop2,
        1,
        &[MOp::Reg(lo, 0), MOp::Reg(init, 0), MOp::Reg(wave_offset, 0)],
    ));
    mc.push(MInst::new(
        Opcode::S_ADDC_U32,
        Family::Sop2,
        1,
        &[MOp::Reg(hi, 0), MOp::Reg(init, 1), MOp::Imm(0)],
    ));
    for (reg, field) in [(lo, FLAT_SCR_LO), (hi, FLAT_SCR_HI)] {
        let mut set = MInst::new(Opcode::S_SETREG_B32, Family::Sopk, 0, &[MOp::Reg(reg, 0)]);
        set.modifiers.simm16 = field;
        mc.push(set);
    }
    let zero = mc.vreg(RegClass::Sgpr, 1);
    mc.push(MInst::new(
        Opcode::S_MOV_B32,
        Family::Sop1,
        1,
        &[MOp::Reg(zero, 0), MOp::Imm(0)],
    ));
    zero
}

/// Allocates, spilling VGPRs until everything fits; returns the allocation
/// and the number of scratch slots (dwords per lane) used.
///
/// The slots start at byte `first` of the private segment (after the
/// kernel's private variables).
pub fn allocate_with_spills(
    mc: &mut MachineCode,
    zero: VReg,
    vgpr_limit: u16,
    first: u32,
) -> Result<(Assignment, u32), BackendError> {
    let mut slots = 0u32;
    let max_slots = MAX_SLOTS.saturating_sub(first.div_ceil(4));
    loop {
        match allocate_or_victim(mc, vgpr_limit) {
            Ok(a) => return Ok((a, slots)),
            Err((_, Some(victim))) if slots < max_slots => {
                let dwords = mc.vregs[victim.0 as usize].dwords;
                rewrite(mc, victim, zero, first.div_ceil(4) + slots);
                slots += u32::from(dwords);
            }
            Err((e, _)) => return Err(e),
        }
    }
}

fn scratch(op: Opcode, defs: u8, ops: &[MOp], slot: u32) -> Item {
    let mut i = MInst::new(op, Family::Scratch, defs, ops);
    i.modifiers.offset = (slot * 4) as i32;
    Item::Inst(i)
}

/// Replaces `victim` by per-instruction temporaries with loads and stores.
fn rewrite(mc: &mut MachineCode, victim: VReg, zero: VReg, slot: u32) {
    let items = std::mem::take(&mut mc.items);
    let mut out = Vec::with_capacity(items.len() + 8);
    for item in items {
        let Item::Inst(mut i) = item else {
            out.push(item);
            continue;
        };
        if !i
            .ops
            .iter()
            .any(|o| matches!(o, MOp::Reg(r, _) if *r == victim))
        {
            out.push(Item::Inst(i));
            continue;
        }
        let reads = i.use_regs().any(|r| r == victim);
        let writes = i.def_regs().any(|r| r == victim);
        let dwords = mc.vregs[victim.0 as usize].dwords;
        let t = mc.vreg(RegClass::Vgpr, dwords);
        for o in i.ops.iter_mut() {
            if let MOp::Reg(r, sub) = o {
                if *r == victim {
                    *o = MOp::Reg(t, *sub);
                }
            }
        }
        // One slot per dword (a 64-bit address takes two).
        if reads {
            for k in 0..dwords {
                out.push(scratch(
                    Opcode::SCRATCH_LOAD_DWORD,
                    1,
                    &[MOp::Reg(t, k), MOp::Off, MOp::Reg(zero, 0)],
                    slot + u32::from(k),
                ));
            }
        }
        out.push(Item::Inst(i));
        if writes {
            for k in 0..dwords {
                out.push(scratch(
                    Opcode::SCRATCH_STORE_DWORD,
                    0,
                    &[MOp::Off, MOp::Reg(t, k), MOp::Reg(zero, 0)],
                    slot + u32::from(k),
                ));
            }
        }
    }
    mc.items = out;
}
