//! The SIMD's VALU timing: a wave runs in parts of `simd_lanes` lanes (wave32
//! on SIMD32: one; wave64: two halves; on a 16-lane SIMD, wave64 four
//! quarters and wave32 two halves). In conventional order (seed 000 §3) an
//! instruction is one pass per part, and a part whose EXEC bits are all zero
//! is skipped (as RDNA does; the seed leaves this to the implementation); in
//! a sub-vector window (`subvec.rs`) it is one pass of the current part. Each
//! pass takes `rate` cycles (1; the transcendental or f64 rate), VGPR bank
//! read-port conflicts add cycles, and the result is written back once both
//! halves are done, `valu_latency` cycles after the last pass started.
//!
//! [`Simd`] holds one SIMD's registers: the VALU's pipeline state (which wave
//! and half it is executing, until when it is busy, bank-conflict cycles of
//! the instruction in it) and its VGPR file ([`VgprFile`], bulk storage).

use arbitrary_int::{u2, u3, u5, u6};

pub use super::vgpr::VgprFile;

traces::signals! {
/// One SIMD32 (`gpu.cuN.simdS`): VALU pipeline registers and VGPR file.
#[derive(Clone, Debug)]
pub struct Simd {
    /// A VALU instruction is in the pipe this cycle (busy passes remain).
    pub valid: bool,
    /// Slot (within the SIMD) of the wave it executes.
    pub wave: u5,
    /// The part being executed (wave64 on SIMD32: 0 low half, 1 high half;
    /// on a 16-lane SIMD, quarters 0–3).
    pub part: u2,
    /// Passes of the instruction (0 none, 1–4).
    pub passes: u3,
    /// First cycle the VALU accepts a new instruction.
    pub busy_until: u64,
    /// Bank-conflict cycles of the instruction in the pipe.
    pub conflict_cycles: u6,
    /// Waves resident on this SIMD.
    pub waves: u6,
    /// The VGPR banks.
    pub vgpr: VgprFile,
    /// Cycle the next part's pass starts (`u64::MAX`: none).
    @untraced
    pub next_part_at: u64,
    /// Parts still to run after the current one (bit per part).
    @untraced
    pub parts_left: u8,
    /// Cycles per pass of the instruction in the pipe.
    @untraced
    pub pass_cycles: u32,
}
}

impl Simd {
    /// An idle SIMD with a zeroed VGPR file.
    pub fn new(rows: u32, granule: u32) -> Simd {
        Simd {
            valid: false,
            wave: u5::new(0),
            part: u2::new(0),
            passes: u3::new(0),
            busy_until: 0,
            conflict_cycles: u6::new(0),
            waves: u6::new(0),
            vgpr: VgprFile::new(rows, granule),
            next_part_at: u64::MAX,
            parts_left: 0,
            pass_cycles: 0,
        }
    }

    /// The pipeline registers at cycle `now` (the part in flight follows from
    /// how long the instruction has been in the pipe).
    #[inline]
    pub fn advance(&mut self, now: u64) {
        if self.valid && now >= self.busy_until {
            self.valid = false;
        } else if self.valid && now >= self.next_part_at {
            self.part = u2::new(self.parts_left.trailing_zeros().min(3) as u8);
            self.parts_left &= self.parts_left.wrapping_sub(1);
            self.next_part_at = if self.parts_left != 0 {
                self.next_part_at + u64::from(self.pass_cycles)
            } else {
                u64::MAX
            };
        }
    }

    /// Takes a VALU instruction of slot `wave` at `now` with timing `t`,
    /// running the parts `active` (bit per part; [`run_parts`]).
    #[inline]
    pub fn accept(&mut self, now: u64, wave: usize, (first, rest): (u8, u8), t: &ValuTiming) {
        self.valid = true;
        self.pass_cycles = (t.busy - t.conflict) / t.passes.max(1);
        self.parts_left = rest;
        self.next_part_at = if rest != 0 {
            now + u64::from(self.pass_cycles)
        } else {
            u64::MAX
        };
        self.wave = u5::new((wave & 31) as u8);
        self.part = u2::new(first & 3);
        self.passes = u3::new(t.passes.min(7) as u8);
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

/// The part the first pass runs and the parts after it, for an instruction
/// running the parts `active` (bit per part) of a wave of `parts` parts. An
/// instruction with no active part still takes one pass, shown as the last
/// part (the first half with a zero EXEC is skipped, as RDNA does).
#[inline]
pub fn run_parts(active: u8, parts: u8) -> (u8, u8) {
    if active == 0 {
        (parts.saturating_sub(1), 0)
    } else {
        (active.trailing_zeros() as u8, active & (active - 1))
    }
}

/// Timing of one VALU instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValuTiming {
    /// Passes (parts run; at least 1).
    pub passes: u32,
    /// Cycles the VALU is occupied.
    pub busy: u32,
    /// Passes skipped (the part's EXEC bits all zero).
    pub skipped: u32,
    /// Cycles added by bank conflicts.
    pub conflict: u32,
    /// Cycles from issue to writeback.
    pub writeback: u32,
}

/// The timing of an instruction running the parts `active` (bit per part)
/// of a wave of `parts` parts, with per-bank VGPR reads `bank_reads`.
#[inline]
pub fn timing(active: u8, parts: u8, rate: u8, bank_reads: &[u8], latency: u32) -> ValuTiming {
    let ran = active.count_ones();
    // With EXEC all zero the instruction still occupies one issue cycle.
    let passes = ran.max(1);
    let skipped = if parts > 1 { u32::from(parts) - ran } else { 0 };
    let conflict = u32::from(bank_reads.iter().copied().max().unwrap_or(0)).saturating_sub(1);
    let busy = passes * u32::from(rate.max(1)) + conflict;
    ValuTiming {
        passes,
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
        let t = timing(0b1, 1, 1, &[1, 1, 0, 0], 5);
        assert_eq!((t.busy, t.writeback), (1, 5));
        let t = timing(0b11, 2, 1, &[], 5);
        assert_eq!((t.busy, t.skipped, t.writeback), (2, 0, 6));
        let t = timing(0b01, 2, 1, &[], 5);
        assert_eq!((t.busy, t.skipped), (1, 1));
        let t = timing(0b10, 2, 4, &[], 5);
        assert_eq!((t.busy, t.skipped, t.writeback), (4, 1, 8));
        // EXEC all zero: one issue cycle, both halves skipped.
        let t = timing(0, 2, 1, &[], 5);
        assert_eq!((t.busy, t.skipped), (1, 2));
        // Wave64 on a 16-lane SIMD: four quarters, one of them empty.
        let t = timing(0b1011, 4, 1, &[], 5);
        assert_eq!((t.busy, t.skipped, t.passes), (3, 1, 3));
        // Three reads from one bank: two extra cycles.
        let t = timing(0b1, 1, 1, &[3, 0, 1, 0], 5);
        assert_eq!((t.busy, t.conflict), (3, 2));
        assert_eq!(run_parts(0b1010, 4), (1, 0b1000));
        assert_eq!(run_parts(0, 2), (1, 0));
    }
}
