//! The scalar unit: SALU instructions, branches and the control instructions
//! the issue stage handles itself (`s_waitcnt`, `s_barrier`, `s_nop`,
//! `s_sleep`, `s_setprio`, `s_endpgm`). One instruction per cycle from either
//! SIMD's arbiter (the arbiters take turns in SIMD order, so the SALU never
//! sees two in one cycle from the same wave); results are written back
//! `salu_latency` (`branch_latency`) cycles later through the CU's writeback
//! pipe.

use arbitrary_int::{u1, u2, u48, u6, u7};

use super::decode::Control;
use crate::exec::ScalarState;

traces::signals! {
/// The scalar unit's registers (`gpu.cuN.salu`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Salu {
    /// An instruction entered the SALU this cycle.
    pub valid: bool,
    /// Its wave slot.
    pub wave: u6,
    /// The SIMD whose arbiter issued it.
    pub simd: u1,
    /// Its pc.
    pub pc: u48,
    /// It changes control flow (the wave waits for it to resolve).
    pub branch: bool,
}
}

impl Salu {
    /// The registers after accepting an instruction of wave `slot`.
    #[inline]
    pub fn accept(&mut self, slot: usize, simd: usize, pc: u64, branch: bool) {
        self.valid = true;
        self.wave = u6::new((slot & 63) as u8);
        self.simd = u1::new((simd & 1) as u8);
        self.pc = u48::new(pc & ((1 << 48) - 1));
        self.branch = branch;
    }
}

/// What a control instruction (handled by the issue stage, not the
/// datapath) does to its wave's registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControlEffect {
    /// `s_endpgm`: the wave ends once nothing it issued is in flight.
    End,
    /// `s_barrier`: the wave parks at its workgroup's barrier.
    Barrier,
    /// `s_waitcnt*`: the wave waits for its counters to reach these limits
    /// `(vm, vs, lgkm)`.
    Wait((u8, u8, u8)),
    /// `s_nop`, `s_sleep`: the wave may not issue before this cycle.
    SleepUntil(u64),
    /// `s_setprio`: the wave's new priority.
    Prio(u2),
    /// Nothing (`s_ttracedata` and the other hints).
    Nothing,
}

/// Cycles of one `s_sleep` unit (the ISA's "64 clocks").
pub const SLEEP_UNIT_CYCLES: u64 = 64;

/// The effect of control instruction `inst` (decoded as `control`) issued at
/// `now` by a wave with scalar state `scalar`.
pub fn control_effect(
    control: Control,
    inst: &arch::isa::Instruction,
    scalar: &ScalarState,
    now: u64,
) -> ControlEffect {
    match control {
        Control::Endpgm => ControlEffect::End,
        Control::Barrier => ControlEffect::Barrier,
        Control::Waitcnt { vm, vs, lgkm } => {
            ControlEffect::Wait(sopk_waitcnt(inst, scalar, (vm, vs, lgkm)))
        }
        Control::Nop(n) => ControlEffect::SleepUntil(now + u64::from(n) + 1),
        Control::Sleep(n) => {
            ControlEffect::SleepUntil(now + SLEEP_UNIT_CYCLES * u64::from(n).max(1))
        }
        Control::Setprio(p) => ControlEffect::Prio(u2::new(p & 3)),
        Control::Ignore | Control::None => ControlEffect::Nothing,
    }
}

/// The cycle a SALU instruction (a branch when `branch`) issued at `now`
/// writes back.
#[inline]
pub fn due(now: u64, branch: bool, salu_latency: u32, branch_latency: u32) -> u64 {
    now + u64::from(if branch { branch_latency } else { salu_latency })
}

/// Counts one more wave at a barrier (7-bit: at most 64 waves per workgroup on a CU).
#[inline]
pub fn count7(c: u7) -> u7 {
    u7::new((c.value() + 1).min(127))
}

/// The limits of a waitcnt instruction: for the single-counter SOPK forms
/// (`s_waitcnt_vscnt`, `_vmcnt`, `_lgkmcnt`) the count is the SGPR operand's
/// bits [5:0] OR'd with `SIMM16[5:0]` (`null` reads as 0, so the usual
/// `s_waitcnt_vscnt null, N` waits for N); the other counters stay at "no wait".
fn sopk_waitcnt(
    inst: &arch::isa::Instruction,
    scalar: &ScalarState,
    limits: (u8, u8, u8),
) -> (u8, u8, u8) {
    use arch::isa::{Opcode, Operand};
    let sgpr = match inst.operands().first() {
        Some(&Operand::Src { code, .. }) if code != u16::from(crate::exec::code::NULL) => scalar
            .sgpr
            .get(usize::from(code))
            .map_or(0, |&v| (v & 0x3f) as u8),
        _ => 0,
    };
    let (vm, vs, lgkm) = limits;
    match inst.opcode {
        Opcode::S_WAITCNT_VSCNT => (vm, vs | sgpr, lgkm),
        Opcode::S_WAITCNT_VMCNT => (vm | sgpr, vs, lgkm),
        Opcode::S_WAITCNT_LGKMCNT => (vm, vs, lgkm | sgpr),
        _ => limits,
    }
}
