//! A SIMD32's VGPR banks: `vgpr_rows` rows of 32 lanes × 32 bits, a wave64
//! register taking two rows (low, high half). `vgpr_banks` banks give one read
//! per bank per cycle; a row's bank is its register number modulo the bank
//! count, and the read-port conflicts an instruction causes are counted at
//! decode (`decode::Decoded::bank_reads`) and timed by the VALU (`simd.rs`).
//! The rows are bulk storage (untraced); allocation is first fit in granules.

use super::alloc::BlockAlloc;

traces::signals! {
/// One SIMD32's VGPR banks: `vgpr_rows` rows of 32 lanes × 32 bits (bulk
/// storage, untraced) and their allocation.
#[derive(Clone, Debug)]
pub struct VgprFile {
    /// Rows allocated to resident waves.
    pub rows_used: u32,
    /// The rows.
    @untraced
    pub rows: Vec<[u32; 32]>,
    /// Allocation in granules.
    @untraced
    pub alloc: BlockAlloc,
}
}

impl VgprFile {
    /// `rows` zeroed rows allocated in blocks of `granule` rows.
    pub fn new(rows: u32, granule: u32) -> VgprFile {
        VgprFile {
            rows_used: 0,
            rows: vec![[0; 32]; rows as usize],
            alloc: BlockAlloc::new(rows, granule),
        }
    }
}

/// Where a wave's registers sit in its slice of the file (seed 000 §2): a
/// wave64 register takes two rows (lanes 0–31, 32–63) except the top
/// `shared` registers, which take one row that every part of the wave uses
/// (lane `l` in cell `l % 32`), so a later part's write replaces an earlier
/// part's. `shared` is non-zero only for wave64 waves latched in sub-vector
/// order (docs/variable-wavefront.md, "The shared VGPR region").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VgprLayout {
    /// Architectural VGPRs.
    pub vgprs: u16,
    /// Of which shared by the parts (the top ones).
    pub shared: u16,
    /// True for wave64.
    pub wave64: bool,
}

impl VgprLayout {
    /// First shared register (`vgprs` when nothing is shared).
    #[inline]
    pub fn first_shared(&self) -> usize {
        usize::from(self.vgprs - self.shared)
    }

    /// Rows the registers need before rounding to the allocation granule.
    pub fn rows(&self) -> u32 {
        if self.wave64 {
            2 * u32::from(self.vgprs - self.shared) + u32::from(self.shared)
        } else {
            u32::from(self.vgprs)
        }
    }

    /// Rows of the unshared view (every register its own rows): what
    /// `exec::Vgprs` addresses.
    pub fn view_rows(&self) -> u32 {
        u32::from(self.vgprs) * if self.wave64 { 2 } else { 1 }
    }

    /// The row (from the wave's base) holding half `half` (lanes
    /// `32·half …`) of register `reg`.
    #[inline]
    pub fn row(&self, reg: usize, half: usize) -> usize {
        if !self.wave64 {
            return reg;
        }
        let first = self.first_shared();
        if reg >= first {
            2 * first + (reg - first)
        } else {
            2 * reg + half
        }
    }

    /// Zeroes a new wave's rows `slice` and writes its initial v0–v2.
    pub fn write_initial(&self, slice: &mut [[u32; 32]], vgpr: &[[u32; 64]; 3]) {
        slice.fill([0; 32]);
        for (reg, v) in vgpr.iter().enumerate() {
            if self.wave64 {
                slice[self.row(reg, 0)].copy_from_slice(&v[..32]);
                slice[self.row(reg, 1)].copy_from_slice(&v[32..]);
            } else {
                slice[reg].copy_from_slice(&v[..32]);
            }
        }
    }

    /// Copies the wave's physical rows `file` into `view` laid out unshared
    /// (a shared row appears as both halves), for the datapath, which
    /// addresses registers as `exec::Vgprs` rows.
    pub fn expand(&self, file: &[[u32; 32]], view: &mut Vec<[u32; 32]>) {
        view.clear();
        let first = self.first_shared();
        let private = if self.wave64 { 2 * first } else { first };
        view.extend_from_slice(&file[..private]);
        for r in first..usize::from(self.vgprs) {
            let row = file[self.row(r, 0)];
            view.push(row);
            if self.wave64 {
                view.push(row);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::VgprLayout;

    #[test]
    fn shared_registers_take_one_row_that_both_halves_use() {
        let l = VgprLayout {
            vgprs: 8,
            shared: 3,
            wave64: true,
        };
        assert_eq!(l.rows(), 2 * 5 + 3);
        assert_eq!((l.row(4, 0), l.row(4, 1)), (8, 9));
        assert_eq!((l.row(5, 0), l.row(5, 1)), (10, 10));
        assert_eq!(l.row(7, 1), 12);
        let file: Vec<[u32; 32]> = (0..13).map(|i| [i; 32]).collect();
        let mut view = Vec::new();
        l.expand(&file, &mut view);
        assert_eq!(view.len() as u32, l.view_rows());
        assert_eq!(view[9][0], 9);
        assert_eq!((view[10][0], view[11][0], view[15][0]), (10, 10, 12));
    }
}
