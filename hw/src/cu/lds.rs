//! LDS timing: 32 banks of 4 bytes; the lanes of one instruction are served
//! 32 at a time, and accesses to different dwords in the same bank serialise
//! (the same dword is broadcast). Storage is the CU's `lds` byte array, one
//! slice per workgroup.
//!
//! [`Lds`] holds the block's registers: the instruction accepted this cycle,
//! until when the banks are busy, the conflict cycles of the last access, and
//! the pipe of accesses waiting out the latency.

use std::collections::VecDeque;

use arbitrary_int::{u6, u7};

use super::alloc::BlockAlloc;

traces::signals! {
/// The LDS (`gpu.cuN.lds`).
#[derive(Clone, Debug)]
pub struct Lds {
    /// An LDS instruction was accepted this cycle.
    pub valid: bool,
    /// Its wave (CU slot).
    pub wave: u6,
    /// First cycle the banks take a new access.
    pub busy_until: u64,
    /// Extra cycles the last access spent on bank conflicts.
    pub conflict_cycles: u7,
    /// Accesses in the pipe.
    pub inflight: u16,
    /// Storage (workgroup slices).
    @untraced
    pub bytes: Vec<u8>,
    /// Slice allocation.
    @untraced
    pub alloc: BlockAlloc,
    /// `(due cycle, memory-op index)` in issue order.
    @untraced
    pub pipe: VecDeque<(u64, u32)>,
    /// The first access outside its work-group's allocation (the datapath
    /// reads 0 and drops the write, as RDNA's clamp does; the GPU reports it
    /// after the run, [`arch::device::Device::lds_out_of_range`]).
    @untraced
    pub out_of_range: Option<Box<arch::device::LdsOutOfRange>>,
}
}

impl Lds {
    /// `bytes` of zeroed LDS allocated in `granule`-byte blocks.
    pub fn new(bytes: u32, granule: u32) -> Lds {
        Lds {
            valid: false,
            wave: u6::new(0),
            busy_until: 0,
            conflict_cycles: u7::new(0),
            inflight: 0,
            bytes: vec![0; bytes as usize],
            alloc: BlockAlloc::new(bytes, granule),
            pipe: VecDeque::new(),
            out_of_range: None,
        }
    }

    /// Accepts an access of wave `slot` needing `cycles` bank cycles at `now`;
    /// returns the cycle its data is ready (`latency` after the banks finish).
    #[inline]
    pub fn accept(&mut self, now: u64, slot: usize, cycles: u32, latency: u32) -> u64 {
        self.valid = true;
        self.wave = u6::new((slot & 63) as u8);
        self.conflict_cycles = u7::new((cycles - 1).min(127) as u8);
        self.busy_until = self.busy_until.max(now) + u64::from(cycles);
        self.busy_until + u64::from(latency)
    }
}

/// How far ahead (cycles) the LDS banks may be booked before the issue
/// stage holds back the next LDS instruction (the depth of its input queue
/// in bank cycles).
pub const BOOKED_CYCLES_MAX: u64 = 64;

impl Lds {
    /// Why an LDS instruction cannot issue at `now`, if it cannot.
    #[inline]
    pub fn stall(&self, now: u64) -> Option<crate::stats::Stall> {
        (self.busy_until > now + BOOKED_CYCLES_MAX).then_some(crate::stats::Stall::BankConflict)
    }

    /// The first cycle at which [`Lds::stall`] no longer holds (event
    /// skipping: the wave it holds back may issue then).
    #[inline]
    pub fn stall_ends(&self) -> u64 {
        self.busy_until.saturating_sub(BOOKED_CYCLES_MAX)
    }
}

/// Cycles the LDS needs for `lanes` (`(lane, byte address, bytes)`), at least 1.
pub fn conflict_cycles(lanes: &[(u8, u64, u8)], banks: u32) -> u32 {
    let banks = banks.clamp(1, 64) as usize;
    let mut total = 0u32;
    let mut start = 0;
    while start < lanes.len() {
        // One pass: the accesses of lanes in the same 32-lane group.
        let group = lanes[start].0 / 32;
        let end = start
            + lanes[start..]
                .iter()
                .take_while(|l| l.0 / 32 == group)
                .count();
        let mut dwords: [[u64; 4]; 64] = [[u64::MAX; 4]; 64];
        let mut count = [0u8; 64];
        let mut worst = 1u32;
        for &(_, addr, bytes) in &lanes[start..end] {
            let n = u64::from(bytes).div_ceil(4).max(1);
            for d in 0..n {
                let dw = addr / 4 + d;
                let b = (dw % banks as u64) as usize;
                let seen = &mut dwords[b];
                let c = count[b] as usize;
                if seen[..c.min(4)].contains(&dw) {
                    continue;
                }
                if c < 4 {
                    seen[c] = dw;
                }
                count[b] = count[b].saturating_add(1);
                worst = worst.max(u32::from(count[b]));
            }
        }
        total += worst;
        start = end;
    }
    total.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stride_one_is_conflict_free_and_stride_32_serialises() {
        let unit: Vec<_> = (0..32u8).map(|l| (l, u64::from(l) * 4, 4)).collect();
        assert_eq!(conflict_cycles(&unit, 32), 1);
        let strided: Vec<_> = (0..32u8).map(|l| (l, u64::from(l) * 128, 4)).collect();
        assert_eq!(conflict_cycles(&strided, 32), 32);
        let broadcast: Vec<_> = (0..32u8).map(|l| (l, 64, 4)).collect();
        assert_eq!(conflict_cycles(&broadcast, 32), 1);
        let two_way: Vec<_> = (0..32u8).map(|l| (l, u64::from(l) * 8, 4)).collect();
        assert_eq!(conflict_cycles(&two_way, 32), 2);
        // Wave64: two passes.
        let w64: Vec<_> = (0..64u8).map(|l| (l, u64::from(l) * 4, 4)).collect();
        assert_eq!(conflict_cycles(&w64, 32), 2);
    }
}
