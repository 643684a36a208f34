//! LDS timing: 32 banks of 4 bytes; the lanes of one instruction are served
//! 32 at a time, and accesses to different dwords in the same bank serialise
//! (the same dword is broadcast). Storage is the CU's `lds` byte array, one
//! slice per workgroup.

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
