//! The SIMD32 VALU's timing: a wave32 instruction is one pass; a wave64
//! instruction in conventional mode (seed 000 §2) is a pass for the low half
//! then one for the high half, and a half whose EXEC bits are all zero is
//! skipped (as RDNA does; the seed leaves this to the implementation). Each
//! pass takes `rate` cycles (1; the transcendental or f64 rate), VGPR bank
//! read-port conflicts add cycles, and the result is written back once both
//! halves are done, `valu_latency` cycles after the last pass started.

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
