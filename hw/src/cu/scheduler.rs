//! The issue arbiter of one SIMD: among the waves that are ready this cycle
//! the highest `(priority, rank)` issues, where the rank comes from the
//! configured policy. [`Sched::eval`] is a pure function of the candidates'
//! registers and the arbiter's own; the CU commits its result at the edge.
//!
//! The arbiter's registers ([`Sched`]) hold the issue port of the cycle
//! (`issue_valid`, `issue_wave`, `issue_class`, `issue_pc`), the ready mask it
//! arbitrated over, the stall reason when nothing issued, and the policy state
//! (the slot that issued last).

use arbitrary_int::{u3, u48, u5, u7};

use crate::config::SchedPolicy;
use crate::stats::{Class, Stall};

traces::signals! {
/// One SIMD's scheduler and issue arbiter (`gpu.cuN.schedS`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Sched {
    /// An instruction issued this cycle (the issue port's valid bit).
    pub issue_valid: bool,
    /// Its wave: slot within the SIMD (`wave_slots` ≤ 32).
    pub issue_wave: u5,
    /// Its class ([`Class`] as a number: SALU 0, VALU 1, VMEM 2, SMEM 3, LDS 4, branch 5, other 6).
    pub issue_class: u3,
    /// Its pc.
    pub issue_pc: u48,
    /// Its active lanes (EXEC bits set within the wave size, 0–64).
    pub issue_lanes: u7,
    /// Ready waves this cycle, bit per slot within the SIMD.
    pub ready: u32,
    /// Why nothing issued ([`Stall`] as a number + 1; 0 when something issued
    /// or no wave is resident).
    pub stall: u3,
    /// Policy state: `last` is valid (a wave of this SIMD issued before).
    pub last_valid: bool,
    /// Policy state: the slot within the SIMD that issued last.
    pub last: u5,
}
}

impl Sched {
    /// The winner among `ready` (bit per slot): the highest `(priority,
    /// rank)`, `key(i)` giving slot `i`'s `(priority, age)`.
    #[inline]
    pub fn eval(
        &self,
        policy: SchedPolicy,
        ready: u32,
        slots: usize,
        key: impl Fn(usize) -> (u8, u64),
    ) -> Option<usize> {
        let last = self.last_valid.then(|| usize::from(self.last.value()));
        let mut best: Option<(usize, (u8, u64))> = None;
        let mut m = ready;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            let (prio, age) = key(i);
            let k = (prio, rank(policy, age, i, last, slots));
            if best.map_or(true, |b| k > b.1) {
                best = Some((i, k));
            }
        }
        best.map(|b| b.0)
    }

    /// The registers after a cycle that issued slot `i` (`class`, `pc`).
    #[inline]
    pub fn issued(ready: u32, i: usize, class: Class, pc: u64, lanes: u32) -> Sched {
        let slot = u5::new((i & 31) as u8);
        Sched {
            issue_valid: true,
            issue_wave: slot,
            issue_class: u3::new(class as u8 & 7),
            issue_pc: u48::new(pc & ((1 << 48) - 1)),
            issue_lanes: u7::new(lanes.min(64) as u8),
            ready,
            stall: u3::new(0),
            last_valid: true,
            last: slot,
        }
    }

    /// The registers after a cycle without issue for `reason`.
    #[inline]
    pub fn stalled(&self, ready: u32, reason: Option<Stall>) -> Sched {
        Sched {
            issue_valid: false,
            ready,
            stall: u3::new(reason.map_or(0, |s| s as u8 + 1) & 7),
            ..*self
        }
    }
}

/// The rank of a ready wave under `policy` (higher issues first).
///
/// * `age`: launch order of the wave (lower = older);
/// * `index`: its slot within the SIMD (0..`slots`);
/// * `last`: slot within the SIMD that issued last (`None` before any issue).
#[inline]
pub fn rank(policy: SchedPolicy, age: u64, index: usize, last: Option<usize>, slots: usize) -> u64 {
    match policy {
        SchedPolicy::OldestFirst => u64::MAX - age,
        SchedPolicy::RoundRobin => {
            // Distance after the last issuer: the next slot ranks highest.
            let after = last.map_or(0, |l| l + 1);
            let dist = (index + slots - after % slots) % slots;
            (slots - dist) as u64
        }
        SchedPolicy::GreedyThenOldest => {
            if Some(index) == last {
                u64::MAX
            } else {
                u64::MAX - 1 - age
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policies_order_candidates_as_documented() {
        // Slots 0..4 with ages 10, 3, 7, 5; slot 2 issued last.
        let ages = [10u64, 3, 7, 5];
        let pick = |p| {
            (0..4)
                .max_by_key(|&i| rank(p, ages[i], i, Some(2), 4))
                .unwrap()
        };
        assert_eq!(pick(SchedPolicy::OldestFirst), 1);
        assert_eq!(pick(SchedPolicy::RoundRobin), 3);
        assert_eq!(pick(SchedPolicy::GreedyThenOldest), 2);
        // Round-robin wraps past the last slot.
        assert_eq!(
            (0..4).max_by_key(|&i| rank(SchedPolicy::RoundRobin, 0, i, Some(3), 4)),
            Some(0)
        );
    }
}
