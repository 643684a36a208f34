//! The issue arbiter of one SIMD: among the waves that are ready this cycle
//! the highest `(priority, rank)` issues, where the rank comes from the
//! configured policy. Pure functions of the candidates' registers.

use crate::config::SchedPolicy;

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
