//! First-fit allocator of equal-sized blocks (VGPR rows, LDS bytes), used at
//! workgroup launch and end only.

/// A pool of `n` blocks.
#[derive(Clone, Debug)]
pub struct BlockAlloc {
    used: Vec<bool>,
    /// Units per block.
    pub granule: u32,
}

impl BlockAlloc {
    /// `total` units in blocks of `granule`.
    pub fn new(total: u32, granule: u32) -> BlockAlloc {
        BlockAlloc {
            used: vec![false; (total / granule.max(1)) as usize],
            granule: granule.max(1),
        }
    }

    fn blocks(&self, units: u32) -> usize {
        units.div_ceil(self.granule) as usize
    }

    /// How many allocations of `units` would fit (first fit, equal sizes).
    pub fn capacity(&self, units: u32) -> u32 {
        let need = self.blocks(units);
        if need == 0 {
            return u32::MAX;
        }
        let mut total = 0;
        let mut run = 0;
        for &u in self.used.iter().chain(std::iter::once(&true)) {
            if u {
                total += run / need;
                run = 0;
            } else {
                run += 1;
            }
        }
        total as u32
    }

    /// Allocates `units`; returns the first unit.
    pub fn alloc(&mut self, units: u32) -> Option<u32> {
        let need = self.blocks(units);
        if need == 0 {
            return Some(0);
        }
        let mut run = 0;
        for i in 0..self.used.len() {
            if self.used[i] {
                run = 0;
                continue;
            }
            run += 1;
            if run == need {
                let start = i + 1 - need;
                self.used[start..=i].fill(true);
                return Some(start as u32 * self.granule);
            }
        }
        None
    }

    /// Frees an allocation made by [`BlockAlloc::alloc`].
    pub fn free(&mut self, start: u32, units: u32) {
        let s = (start / self.granule) as usize;
        let n = self.blocks(units);
        self.used[s..s + n].fill(false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacity_counts_equal_chunks_in_runs() {
        let mut a = BlockAlloc::new(64, 8); // 8 blocks
        assert_eq!(a.capacity(16), 4);
        let x = a.alloc(8).unwrap();
        let y = a.alloc(16).unwrap();
        assert_eq!((x, y), (0, 8));
        a.free(x, 8);
        // Runs: block 0 (1 free), blocks 3..8 (5 free) → 0 + 2 chunks of 2.
        assert_eq!(a.capacity(16), 2);
        assert_eq!(a.capacity(8), 6);
        assert_eq!(a.alloc(64), None);
    }
}
