//! The compute unit's parameters (`cu:` in the GPU configuration YAML): SIMD
//! count and width, wave slots, register files, LDS, latencies, the scheduler
//! policy and seed 000's sub-vector mode. Checked by [`crate::config::GpuConfig::validate`].

use serde::{Deserialize, Serialize};

/// How a SIMD's scheduler picks among its ready waves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SchedPolicy {
    /// The oldest ready wave (lowest launch order) issues.
    #[default]
    OldestFirst,
    /// The first ready wave after the one that issued last.
    RoundRobin,
    /// Keep issuing from the wave that issued last while it is ready, then
    /// fall back to the oldest ready wave (GTO).
    GreedyThenOldest,
}

/// The issue order of waves wider than their SIMD (seed 000,
/// docs/variable-wavefront.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SubvectorMode {
    /// Every instruction on every part before the next instruction (RDNA's
    /// wave64 on SIMD32).
    #[default]
    Conventional = 0,
    /// Sub-vector looping: each window of per-lane instructions on part 0,
    /// then on part 1, …
    Subvector = 1,
    /// The mode control unit chooses from the L0 miss rate.
    Auto = 2,
}

/// One compute unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CuConfig {
    /// SIMD32 units per CU. Must be 2 on gfx1030 (RDNA whitepaper: a CU is two SIMD32s).
    pub simds: u32,
    /// Wave slots per SIMD (1–32). Default 16 (RDNA2 whitepaper).
    pub wave_slots: u32,
    /// VGPR rows of 32 lanes × 32 bits per SIMD. Default 1024 (128 KiB: LLVM
    /// `getTotalNumVGPRs` gives 1024 wave32 registers for gfx10; a wave64
    /// register takes two rows).
    pub vgpr_rows: u32,
    /// VGPR allocation granule in registers for wave32 waves. Default 16
    /// (LLVM `getVGPRAllocGranule`, gfx10.3 wave32).
    pub vgpr_granule_w32: u32,
    /// VGPR allocation granule in registers for wave64 waves. Default 8
    /// (LLVM `getVGPRAllocGranule`, gfx10.3 wave64).
    pub vgpr_granule_w64: u32,
    /// SGPRs per SIMD. Default 2048 (16 waves × 128; on gfx10 SGPRs never limit
    /// occupancy, AMDGPUUsage).
    pub sgprs: u32,
    /// SGPRs allocated per wave. Default 128 (106 addressable + VCC + trap temporaries).
    pub sgprs_per_wave: u32,
    /// LDS bytes per CU. Default 65536 (64 KiB per CU, 128 KiB per WGP: RDNA whitepaper).
    pub lds_bytes: u32,
    /// LDS allocation granule in bytes. Default 512 (assumption; `granulated_lds_size`
    /// units are 128 dwords on gfx10).
    pub lds_granule: u32,
    /// LDS banks of 4 bytes. Default 32 (RDNA whitepaper).
    pub lds_banks: u32,
    /// VGPR banks (one read per bank per cycle). Default 4 (RDNA whitepaper).
    pub vgpr_banks: u32,
    /// SALU dependent-issue latency in cycles (≥ 1). Default 2 (assumption).
    pub salu_latency: u32,
    /// VALU dependent-issue latency in cycles after the last pass (≥ 1). Default 5
    /// (RDNA whitepaper: 5-cycle dependent issue for wave32).
    pub valu_latency: u32,
    /// Cycles per half-wave pass of a transcendental (≥ 1). Default 4 (quarter rate).
    pub trans_rate: u32,
    /// Cycles per half-wave pass of an f64 operation (≥ 1). Default 16 (1/16 rate, consumer RDNA2).
    pub f64_rate: u32,
    /// LDS latency in cycles from issue to data (≥ 1). Default 32 (assumption).
    pub lds_latency: u32,
    /// Branch resolution latency in cycles (≥ 1). Default 2 (assumption).
    pub branch_latency: u32,
    /// Issue policy of each SIMD's scheduler. Default `oldest-first`.
    pub scheduler: SchedPolicy,
    /// Instruction buffer depth per wave in bytes (≥ `fetch_bytes`). Default 64
    /// (assumption: two fetches).
    pub ibuf_bytes: u32,
    /// Bytes per instruction fetch request (a power of two, 4–128). Default 32
    /// (RDNA fetches 32 bytes per cycle per wave).
    pub fetch_bytes: u32,
    /// Maximum vector memory requests the vector memory unit sends per cycle. Default 1.
    pub vmem_requests_per_cycle: u32,
    /// Cache-line requests the vector memory unit's queue holds (≥ 1); a
    /// vector or scalar memory instruction does not issue while it is full
    /// (a `backpressure` stall). Default 256 (assumption).
    pub vmem_queue_depth: u32,
    /// Cycles between occupancy samples in the statistics (≥ 1). Default 1024.
    pub occupancy_sample: u32,
    /// Lanes of each SIMD (16 or 32). Default 32 (RDNA's SIMD32). A wave
    /// runs in `wave size / simd_lanes` parts: with 16, wave64 in quarters
    /// and wave32 in halves (seed 000 §2).
    pub simd_lanes: u32,
    /// Issue order of waves wider than the SIMD: `conventional` (default),
    /// `subvector` (sub-vector looping) or `auto` (the mode control unit
    /// chooses from the L0 miss rate). The "first indication" of seed 000
    /// Fig 7 when it is not `auto`.
    pub subvector_mode: SubvectorMode,
    /// Mode control unit threshold: L0 miss rate in per mille at or above
    /// which `auto` selects sub-vector looping (0–1000). Default 500
    /// (assumption; seed 000 leaves it programmable).
    pub subvector_miss_threshold: u32,
    /// Mode control unit window: vector L0 accesses per measurement (≥ 1).
    /// Default 256 (assumption).
    pub subvector_sample_accesses: u32,
}

impl Default for CuConfig {
    fn default() -> Self {
        CuConfig {
            simds: 2,
            wave_slots: 16,
            vgpr_rows: 1024,
            vgpr_granule_w32: 16,
            vgpr_granule_w64: 8,
            sgprs: 2048,
            sgprs_per_wave: 128,
            lds_bytes: 65536,
            lds_granule: 512,
            lds_banks: 32,
            vgpr_banks: 4,
            salu_latency: 2,
            valu_latency: 5,
            trans_rate: 4,
            f64_rate: 16,
            lds_latency: 32,
            branch_latency: 2,
            scheduler: SchedPolicy::OldestFirst,
            ibuf_bytes: 64,
            fetch_bytes: 32,
            vmem_requests_per_cycle: 1,
            vmem_queue_depth: 256,
            occupancy_sample: 1024,
            simd_lanes: 32,
            subvector_mode: SubvectorMode::Conventional,
            subvector_miss_threshold: 500,
            subvector_sample_accesses: 256,
        }
    }
}
