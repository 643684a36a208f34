//! The SIMD32 VALU's timing: a wave32 instruction is one pass; a wave64
//! instruction in conventional mode (seed 000 §2) is a pass for the low half
//! then one for the high half, and a half whose EXEC bits are all zero is
//! skipped (as RDNA does; the seed leaves this to the implementation). Each
//! pass takes `rate` cycles (1; the transcendental or f64 rate), VGPR bank
//! read-port conflicts add cycles, and the result is written back once both
//! halves are done, `valu_latency` cycles after the last pass started.
//!
//! [`Simd`] holds one SIMD's registers: the VALU's pipeline state (which wave
//! and half it is executing, until when it is busy, bank-conflict cycles of
//! the instruction in it) and its VGPR file ([`VgprFile`], bulk storage).

use arbitrary_int::{u1, u2, u5, u6};

pub use super::vgpr::VgprFile;

traces::signals! {
/// One SIMD32 (`gpu.cuN.simdS`): VALU pipeline registers and VGPR file.
#[derive(Clone, Debug)]
pub struct Simd {
    /// A VALU instruction is in the pipe this cycle (busy passes remain).
    pub valid: bool,
    /// Slot (within the SIMD) of the wave it executes.
    pub wave: u5,
    /// The half being executed (wave64: 0 low, 1 high).
    pub half: u1,
    /// Half passes of the instruction (0 none, 1 or 2).
    pub passes: u2,
    /// First cycle the VALU accepts a new instruction.
    pub busy_until: u64,
    /// Bank-conflict cycles of the instruction in the pipe.
    pub conflict_cycles: u6,
    /// Waves resident on this SIMD.
    pub waves: u6,
    /// The VGPR banks.
    pub vgpr: VgprFile,
    /// Cycle the second half's pass starts (wave64 with both halves).
    @untraced
    pub second_half_at: u64,
}
}

impl Simd {
    /// An idle SIMD with a zeroed VGPR file.
    pub fn new(rows: u32, granule: u32) -> Simd {
        Simd {
            valid: false,
            wave: u5::new(0),
            half: u1::new(0),
            passes: u2::new(0),
            busy_until: 0,
            conflict_cycles: u6::new(0),
            waves: u6::new(0),
            vgpr: VgprFile::new(rows, granule),
            second_half_at: u64::MAX,
        }
    }

    /// The pipeline registers at cycle `now` (the half in flight follows from
    /// how long the instruction has been in the pipe).
    #[inline]
    pub fn advance(&mut self, now: u64) {
        if self.valid && now >= self.busy_until {
            self.valid = false;
        } else if self.valid && now >= self.second_half_at {
            self.half = u1::new(1);
            self.second_half_at = u64::MAX;
        }
    }

    /// Takes a VALU instruction of slot `wave` at `now` with timing `t`
    /// (`first_half` is the half its first pass runs).
    #[inline]
    pub fn accept(&mut self, now: u64, wave: usize, first_half: u8, t: &ValuTiming) {
        self.valid = true;
        self.second_half_at = if t.skipped == 0 && first_half == 0 && t.busy > 1 {
            now + u64::from((t.busy - t.conflict) / 2)
        } else {
            u64::MAX
        };
        self.wave = u5::new((wave & 31) as u8);
        self.half = u1::new(first_half & 1);
        self.passes = u2::new((2 - t.skipped.min(2)) as u8 & 3);
        self.busy_until = now + u64::from(t.busy);
        self.conflict_cycles = u6::new(t.conflict.min(63) as u8);
    }
}

impl Simd {
    /// Why a VALU instruction cannot enter at `now` (the previous one's
    /// passes still occupy the pipe), if it cannot.
    #[inline]
    pub fn stall(&self, now: u64) -> Option<crate::stats::Stall> {
        (self.busy_until > now).then_some(crate::stats::Stall::BankConflict)
    }
}

/// The half the first pass of a wave64 instruction with EXEC `exec` runs
/// (1 when the low half is skipped); always 0 for wave32.
#[inline]
pub fn first_half(wave64: bool, exec: u64) -> u8 {
    u8::from(wave64 && exec as u32 == 0)
}

/// Timing of one VALU instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValuTiming {
    /// Cycles the VALU is occupied.
    pub busy: u32,
    /// Half passes skipped (EXEC half all zero).
    pub skipped: u32,
    /// Cycles added by bank conflicts.
    pub conflict: u32,
    /// Cycles from issue to writeback.
    pub writeback: u32,
}

/// The timing of an instruction with per-bank VGPR reads `bank_reads`.
#[inline]
pub fn timing(wave64: bool, exec: u64, rate: u8, bank_reads: &[u8], latency: u32) -> ValuTiming {
    let (passes, skipped) = if wave64 {
        let halves = u32::from(exec as u32 != 0) + u32::from(exec >> 32 != 0);
        // With EXEC all zero the instruction still occupies one issue cycle.
        (halves.max(1), 2 - halves)
    } else {
        (1, 0)
    };
    let conflict = u32::from(bank_reads.iter().copied().max().unwrap_or(0)).saturating_sub(1);
    let busy = passes * u32::from(rate.max(1)) + conflict;
    ValuTiming {
        busy,
        skipped,
        conflict,
        writeback: busy - 1 + latency,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wave64_halves_rates_and_conflicts() {
        let t = timing(false, u64::MAX, 1, &[1, 1, 0, 0], 5);
        assert_eq!((t.busy, t.writeback), (1, 5));
        let t = timing(true, u64::MAX, 1, &[], 5);
        assert_eq!((t.busy, t.skipped, t.writeback), (2, 0, 6));
        let t = timing(true, 0xffff_ffff, 1, &[], 5);
        assert_eq!((t.busy, t.skipped), (1, 1));
        let t = timing(true, 0xffff_ffff_0000_0000, 4, &[], 5);
        assert_eq!((t.busy, t.skipped, t.writeback), (4, 1, 8));
        // Three reads from one bank: two extra cycles.
        let t = timing(false, 1, 1, &[3, 0, 1, 0], 5);
        assert_eq!((t.busy, t.conflict), (3, 2));
    }
}
