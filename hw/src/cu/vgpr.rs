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
