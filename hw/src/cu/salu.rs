//! The scalar unit: SALU instructions, branches and the control instructions
//! the issue stage handles itself (`s_waitcnt`, `s_barrier`, `s_nop`,
//! `s_sleep`, `s_setprio`, `s_endpgm`). One instruction per cycle from either
//! SIMD's arbiter (the arbiters take turns in SIMD order, so the SALU never
//! sees two in one cycle from the same wave); results are written back
//! `salu_latency` (`branch_latency`) cycles later through the CU's writeback
//! pipe.

use arbitrary_int::{u1, u48, u6};

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
