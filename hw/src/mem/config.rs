//! Parameters of the memory hierarchy. Defaults describe an RDNA2-like GPU
//! (Navi 21, RX 6800 XT) scaled to 4 CUs, at a ~2 GHz shader clock.
//!
//! Sources for the defaults:
//! - (AMDGPU-UNOFF) "unofficial amdgpu docs: cache", amdgpu-userland.github.io/unofficial_amdgpu_docs/cache.html
//!   (RDNA2: 32 KiB 4-way instruction cache, 16 KiB 4-way scalar cache, both with
//!   64-byte lines; 16 KiB **32-way** vector L0 with 128-byte lines, write-through,
//!   LRU; L2 channels of 256 KiB, 16-way; the instruction cache "shared for
//!   all SIMD in a WGP"). The model has one `line_bytes` (128) for every level
//!   but the instruction cache (`inst_line_bytes`, 64, one cache per
//!   `inst_cache_cus` = 2 CUs), so its scalar cache has 128-byte lines.
//! - (C&C-LAT) Chips and Cheese, "Measuring GPU Memory Latency" (April 2021), RX 6800 XT
//!   pointer chasing, as reported by sweclockers.com/nyhet/31783 and
//!   bithardware.top/graphics-card-vram-latency-performance-analysis: L2 about
//!   66 ns beyond L0, VRAM close to 4 × 63 ns ≈ 250 ns end to end.
//! - (6800XT) AMD RX 6800 XT specification: 256-bit GDDR6 at 16 Gbps = 512 GB/s,
//!   2015 MHz game clock → ~256 B/cycle for 16 channels (72 CUs).
//! - (GDDR6) JEDEC JESD250 GDDR6: 16 banks per channel, 2 KiB pages.
//!
//! - (MGPUSim) the MGPUSim simulator's R9 Nano (GCN3) configuration: 32 MSHRs per
//!   L1 vector cache, 64 per L2 bank (a simulator's choice, not a hardware figure).
//!
//! The default and 1-CU presets have no L1 (GL1) or Infinity Cache: their
//! latency is folded into the L2 and DRAM figures so that end-to-end latencies
//! match (C&C-LAT). Both levels exist as optional blocks (`gl1`,
//! `infinity_cache`), used by the `navi21` preset (`hw/configs/navi21.yaml`).
//!
//! MSHR counts are not published for RDNA2 (nor for GCN). The defaults are
//! sized with Little's law so that the default 4-CU configuration reaches its
//! configured bandwidths (`cosim/tests/calibration.rs` checks it):
//! - L2 channel, 64: a line holds its MSHR from the lookup to the fill, L + D +
//!   R + T ≈ 100 + 300 + 48 + 8 = 456 cycles; one channel's 16 B/cycle of DRAM
//!   is 0.125 lines/cycle, so ≥ 57 lines in flight per channel (32 gave ≈ 35
//!   B/cycle of the 64 over 4 channels);
//! - vector L0, 128 per CU: a CU's port carries one 64-byte flit per cycle
//!   (0.5 lines/cycle), and an L2 hit holds its MSHR ≈ 152 cycles, so ≥ 76 lines
//!   in flight per CU to stream L2 hits at the port's rate (64 gave 216 of the
//!   256 B/cycle; 16 gave ≈ 62), and a CU's share of a DRAM stream (0.125
//!   lines/cycle at ≈ 390 cycles mean hold for two reads and one write) needs
//!   ≈ 49. The 1-CU preset keeps the per-CU counts: one CU streams L2 hits at
//!   its port's rate and reaches ≈ 38 of the 64 DRAM bytes/cycle.
//! - instruction and scalar caches, 16 (their traffic is small).

use serde::{Deserialize, Serialize};

use crate::xbar::packet::{MAX_FLITS, MAX_PORTS};
use crate::xbar::XbarConfig;

/// One CU-side cache (instruction, scalar, or L0 vector). When given in YAML,
/// every field must be given.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CacheConfig {
    /// Capacity in bytes (sets × ways × line_bytes; sets a power of two).
    /// Defaults: see the [`MemConfig`] fields.
    pub size_bytes: u32,
    /// Associativity (ways per set, ≥ 1). Defaults (AMDGPU-UNOFF): 4 for the
    /// instruction and scalar caches, 32 for the vector L0.
    pub ways: u32,
    /// Cycles from request to response on a hit; a miss leaves for the
    /// crossbar after the same lookup time. Defaults: see the [`MemConfig`] fields.
    pub hit_latency: u32,
    /// Miss status holding registers (outstanding lines, plus one per
    /// outstanding write/atomic/bypass request), 1–65535. Defaults: 128 for the
    /// vector L0, 16 for the instruction and scalar caches (not published for
    /// RDNA2: sized with Little's law, see the module documentation).
    pub mshrs: u32,
    /// Requests one MSHR can hold for its line (merged misses), ≥ 1. Default 8 (assumed).
    pub mshr_targets: u32,
    /// Entries of the miss queue toward the crossbar: misses that are through
    /// the `hit_latency` lookup pipeline and wait for the crossbar (the pipeline
    /// holds one lookup per stage besides). ≥ 1. Default 8 (assumed).
    pub miss_queue: u32,
}

/// The L2 channels (one DRAM channel behind each).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct L2Config {
    /// Number of channels (lines interleave across them: channel = line % channels). Default 4.
    pub channels: u32,
    /// Capacity per channel in bytes. Default 256 KiB (AMDGPU-UNOFF).
    pub size_bytes: u32,
    /// Ways per set. Default 16 (AMDGPU-UNOFF).
    pub ways: u32,
    /// Cycles of tag + data lookup. Default 100: with the L0 lookup and the
    /// crossbar this gives ~150 cycles ≈ 75 ns L0-miss/L2-hit at 2 GHz (C&C-LAT).
    pub hit_latency: u32,
    /// MSHRs per channel (full MSHRs stop the channel's input), 1–65535. Default
    /// 64 (not published for RDNA2: sized with Little's law for the DRAM
    /// bandwidth, see the module documentation; MGPUSim uses 64 per L2 bank).
    pub mshrs: u32,
    /// Requests per MSHR, ≥ 1. Default 16 (assumed).
    pub mshr_targets: u32,
    /// Cycles an atomic occupies its line in the channel's atomic unit, once its
    /// data is there (after the lookup, or the fill): same-line atomics complete
    /// one per `atomic_latency`; other requests to that line are answered after
    /// it; other lines are not held up. Default 8 (assumed).
    pub atomic_latency: u32,
    /// Responses a channel may hold waiting for the response network (or for
    /// their line's atomic unit), once out of the `hit_latency` lookup pipeline;
    /// lookups in the pipeline (one per stage) do not count. A full queue holds
    /// the pipeline, and a full pipeline stops new lookups. ≥ 1. Default 16.
    pub response_queue: u32,
}

impl Default for L2Config {
    fn default() -> Self {
        L2Config {
            channels: 4,
            size_bytes: 256 * 1024,
            ways: 16,
            hit_latency: 100,
            mshrs: 64,
            mshr_targets: 16,
            atomic_latency: 8,
            response_queue: 16,
        }
    }
}

/// One DRAM channel (every channel alike).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DramConfig {
    /// Cycles from the start of an access to its first data on a row hit.
    /// Default 300: ~500 cycles ≈ 250 ns L0 miss to data at 2 GHz (C&C-LAT).
    pub latency: u32,
    /// Extra cycles when the bank's open row is another one (precharge +
    /// activate, tRP + tRCD ≈ 2 × 12 ns (GDDR6)). Default 48.
    pub row_miss_cycles: u32,
    /// Data bytes per cycle per channel (≥ 1). Default 16: 256 B/cycle over 16
    /// channels (6800XT).
    pub bytes_per_cycle: u32,
    /// Banks per channel (a power of two). Default 16 (GDDR6).
    pub banks: u32,
    /// Row (page) size in bytes (a power of two, ≥ line_bytes). Default 2048 (GDDR6).
    pub row_bytes: u32,
    /// Requests the channel queues, ≥ 1. Default 16.
    pub queue: u32,
}

impl Default for DramConfig {
    fn default() -> Self {
        DramConfig {
            latency: 300,
            row_miss_cycles: 48,
            bytes_per_cycle: 16,
            banks: 16,
            row_bytes: 2048,
            queue: 16,
        }
    }
}

/// The graphics L1 caches (GL1): one per shader array, shared by its CUs'
/// instruction, scalar and vector caches, between them and the crossbar.
/// Read-only like RDNA's GL1: reads allocate, writes and atomics pass
/// through (and drop a resident copy of their line). Absent by default
/// (`memory.gl1` not given): the CU caches talk to the crossbar directly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gl1Config {
    /// Shader engines (≥ 1). Navi 21: 4 (AMD RDNA2 whitepaper / product page).
    pub shader_engines: u32,
    /// Shader arrays per engine (≥ 1), one GL1 each. Navi 21: 2.
    pub arrays_per_engine: u32,
    /// Capacity of one GL1 in bytes (sets a power of two). Navi 21: 128 KiB.
    pub size_bytes: u32,
    /// Ways per set (≥ 1). Navi 21: 16 (assumption: not published).
    pub ways: u32,
    /// Cycles of the lookup: a hit answers, a miss leaves for the crossbar,
    /// after it (≥ 1).
    pub hit_latency: u32,
    /// Outstanding line fills (1–65535); full MSHRs stall the lookup.
    pub mshrs: u32,
    /// Requests one fill can answer (merged misses from any CU of the array), ≥ 1.
    pub mshr_targets: u32,
    /// Requests the GL1 looks up per cycle, from different ports (≥ 1).
    pub lookups_per_cycle: u32,
    /// Responses waiting for their CU's response buffer (≥ 1); a full
    /// queue stops taking responses from the crossbar.
    pub response_queue: u32,
}

impl Gl1Config {
    /// GL1 caches (shader arrays) in the GPU.
    pub fn arrays(&self) -> u32 {
        self.shader_engines.saturating_mul(self.arrays_per_engine)
    }
}

/// The memory-side Infinity Cache: one slice per L2/DRAM channel, between the
/// L2 channel and its DRAM channel. Write-back, allocating on reads (DRAM
/// fills) and on the L2's write-backs. Absent by default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InfinityCacheConfig {
    /// Capacity of one slice (one per channel) in bytes; total = × `l2.channels`.
    pub slice_bytes: u32,
    /// Ways per set (≥ 1).
    pub ways: u32,
    /// Cycles from the start of a lookup to the first data of a hit (≥ 1).
    pub hit_latency: u32,
    /// Data bytes per cycle per slice (≥ 1; need not divide the line: the
    /// slice's data bus accounts in bytes, so the mean rate is exact).
    pub bytes_per_cycle: u32,
    /// Requests a slice queues (≥ 1).
    pub queue: u32,
}

/// Parameters of the memory hierarchy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MemConfig {
    /// Cache line size in bytes, all levels (a power of two, 64–4096). Default 128 (AMDGPU-UNOFF).
    pub line_bytes: u32,
    /// The instruction cache: one per `inst_cache_cus` CUs (a WGP). Default 32
    /// KiB, 4-way (AMDGPU-UNOFF), 16-cycle hit.
    pub inst_cache: CacheConfig,
    /// Instruction-cache line size in bytes (a power of two, 16 to
    /// `line_bytes`, at least `cu.fetch_bytes`). Default 64 (AMDGPU-UNOFF:
    /// RDNA2's instruction cache has 64-byte lines); a miss reads those bytes
    /// of the L2 line that holds them.
    pub inst_line_bytes: u32,
    /// CUs sharing one instruction cache (1–16): consecutive CUs `k·n ..
    /// k·n + n` fetch through cache `k`, their requests arbitrated
    /// round-robin into its one input, one per cycle. Default 2: RDNA2's
    /// instruction cache is shared by the two CUs of a WGP (AMDGPU-UNOFF,
    /// "shared for all SIMD in a WGP"; the RDNA whitepaper's WGP diagram).
    pub inst_cache_cus: u32,
    /// Per-CU scalar data cache. Default 16 KiB, 4-way (AMDGPU-UNOFF), 16-cycle
    /// hit (scalar loads are about half the vector L0 latency in (C&C-LAT)).
    pub scalar_cache: CacheConfig,
    /// Per-CU L0 vector cache (write-through, no write-allocate). Default 16 KiB,
    /// 32-way (AMDGPU-UNOFF), 32-cycle hit (≈ 16 ns at 2 GHz, (C&C-LAT)), 128 MSHRs.
    pub vector_cache: CacheConfig,
    /// The crossbar.
    pub xbar: XbarConfig,
    /// The L2 channels.
    pub l2: L2Config,
    /// The DRAM channels (one per L2 channel).
    pub dram: DramConfig,
    /// Graphics L1 caches, one per shader array (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gl1: Option<Gl1Config>,
    /// Memory-side Infinity Cache between the L2 and DRAM (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub infinity_cache: Option<InfinityCacheConfig>,
}

impl Default for MemConfig {
    fn default() -> Self {
        let cache = |size_bytes, hit_latency| CacheConfig {
            size_bytes,
            ways: 4,
            hit_latency,
            mshrs: 16,
            mshr_targets: 8,
            miss_queue: 8,
        };
        MemConfig {
            line_bytes: 128,
            inst_cache: cache(32 * 1024, 16),
            inst_line_bytes: 64,
            inst_cache_cus: 2,
            scalar_cache: cache(16 * 1024, 16),
            vector_cache: CacheConfig {
                ways: 32,
                mshrs: 128,
                ..cache(16 * 1024, 32)
            },
            xbar: XbarConfig::default(),
            l2: L2Config::default(),
            dram: DramConfig::default(),
            gl1: None,
            infinity_cache: None,
        }
    }
}

fn nonzero(path: &str, v: u32) -> Result<(), String> {
    if v == 0 {
        Err(format!("{path}: must be at least 1"))
    } else {
        Ok(())
    }
}

fn pow2(path: &str, v: u32) -> Result<(), String> {
    if v.is_power_of_two() {
        Ok(())
    } else {
        Err(format!("{path}: {v} is not a power of two"))
    }
}

fn at_most(path: &str, v: u32, max: u32) -> Result<(), String> {
    if v > max {
        Err(format!("{path}: {v} exceeds {max}"))
    } else {
        Ok(())
    }
}

/// Sets of a cache, or the reason they are not a power of two ≥ 1.
fn sets(path: &str, size: u32, ways: u32, line: u32) -> Result<u32, String> {
    nonzero(&format!("{path}.size_bytes"), size)?;
    nonzero(&format!("{path}.ways"), ways)?;
    let way_bytes = u64::from(ways) * u64::from(line);
    if u64::from(size) % way_bytes != 0 || u64::from(size) < way_bytes {
        return Err(format!(
            "{path}.size_bytes: {size} is not a multiple of ways × line_bytes = {way_bytes}"
        ));
    }
    let s = (u64::from(size) / way_bytes) as u32;
    if !s.is_power_of_two() {
        return Err(format!(
            "{path}.size_bytes: {s} sets (size / (ways × line_bytes)) is not a power of two"
        ));
    }
    Ok(s)
}

impl CacheConfig {
    fn validate(&self, path: &str, line: u32) -> Result<(), String> {
        sets(path, self.size_bytes, self.ways, line)?;
        nonzero(&format!("{path}.hit_latency"), self.hit_latency)?;
        nonzero(&format!("{path}.mshrs"), self.mshrs)?;
        at_most(&format!("{path}.mshrs"), self.mshrs, 65535)?;
        nonzero(&format!("{path}.mshr_targets"), self.mshr_targets)?;
        nonzero(&format!("{path}.miss_queue"), self.miss_queue)?;
        Ok(())
    }
}

impl MemConfig {
    /// Checks every field; the error names the field by its path (`l2.ways: ...`).
    pub fn validate(&self) -> Result<(), String> {
        pow2("line_bytes", self.line_bytes)?;
        if !(64..=4096).contains(&self.line_bytes) {
            return Err(format!(
                "line_bytes: {} is outside 64..=4096",
                self.line_bytes
            ));
        }
        let line = self.line_bytes;
        pow2("inst_line_bytes", self.inst_line_bytes)?;
        if !(16..=line).contains(&self.inst_line_bytes) {
            return Err(format!(
                "inst_line_bytes: {} is outside 16..=line_bytes ({line})",
                self.inst_line_bytes
            ));
        }
        if !(1..=16).contains(&self.inst_cache_cus) {
            return Err(format!(
                "inst_cache_cus: {} is outside 1..=16",
                self.inst_cache_cus
            ));
        }
        self.inst_cache
            .validate("inst_cache", self.inst_line_bytes)?;
        self.scalar_cache.validate("scalar_cache", line)?;
        self.vector_cache.validate("vector_cache", line)?;
        let x = &self.xbar;
        nonzero("xbar.latency", x.latency)?;
        pow2("xbar.flit_bytes", x.flit_bytes)?;
        at_most("xbar.flit_bytes", x.flit_bytes, line)?;
        if line / x.flit_bytes > MAX_FLITS {
            return Err(format!(
                "xbar.flit_bytes: a line would take {} flits, more than {MAX_FLITS}",
                line / x.flit_bytes
            ));
        }
        nonzero("xbar.fifo_depth", x.fifo_depth)?;
        at_most("xbar.fifo_depth", x.fifo_depth, 65535)?;
        let l2 = &self.l2;
        nonzero("l2.channels", l2.channels)?;
        at_most("l2.channels", l2.channels, 1024)?;
        sets("l2", l2.size_bytes, l2.ways, line)?;
        nonzero("l2.hit_latency", l2.hit_latency)?;
        nonzero("l2.mshrs", l2.mshrs)?;
        at_most("l2.mshrs", l2.mshrs, 65535)?;
        nonzero("l2.mshr_targets", l2.mshr_targets)?;
        nonzero("l2.response_queue", l2.response_queue)?;
        let d = &self.dram;
        nonzero("dram.latency", d.latency)?;
        nonzero("dram.bytes_per_cycle", d.bytes_per_cycle)?;
        pow2("dram.banks", d.banks)?;
        pow2("dram.row_bytes", d.row_bytes)?;
        if d.row_bytes < line {
            return Err(format!(
                "dram.row_bytes: {} is smaller than line_bytes {line}",
                d.row_bytes
            ));
        }
        nonzero("dram.queue", d.queue)?;
        if let Some(g) = &self.gl1 {
            nonzero("gl1.shader_engines", g.shader_engines)?;
            nonzero("gl1.arrays_per_engine", g.arrays_per_engine)?;
            at_most("gl1.shader_engines", g.shader_engines, 64)?;
            at_most("gl1.arrays_per_engine", g.arrays_per_engine, 16)?;
            sets("gl1", g.size_bytes, g.ways, line)?;
            nonzero("gl1.hit_latency", g.hit_latency)?;
            nonzero("gl1.mshrs", g.mshrs)?;
            at_most("gl1.mshrs", g.mshrs, 65535)?;
            nonzero("gl1.mshr_targets", g.mshr_targets)?;
            nonzero("gl1.lookups_per_cycle", g.lookups_per_cycle)?;
            nonzero("gl1.response_queue", g.response_queue)?;
        }
        if let Some(ic) = &self.infinity_cache {
            sets("infinity_cache", ic.slice_bytes, ic.ways, line)?;
            nonzero("infinity_cache.hit_latency", ic.hit_latency)?;
            nonzero("infinity_cache.bytes_per_cycle", ic.bytes_per_cycle)?;
            nonzero("infinity_cache.queue", ic.queue)?;
        }
        Ok(())
    }

    /// [`validate`](Self::validate) plus the limits that depend on the CU count
    /// (requester ids are 10 bits: 3 ports per CU plus the front end).
    pub fn validate_for(&self, cus: usize) -> Result<(), String> {
        self.validate()?;
        if cus.saturating_mul(3).saturating_add(1) > MAX_PORTS {
            return Err(format!(
                "cus: {cus} compute units need more than {MAX_PORTS} crossbar ports"
            ));
        }
        if let Some(g) = &self.gl1 {
            if g.arrays() as usize > cus {
                return Err(format!(
                    "gl1.shader_engines: {} shader arrays for {cus} compute units (at least one CU each)",
                    g.arrays()
                ));
            }
        }
        Ok(())
    }

    /// Flits that carry `bytes` of data (at least one).
    pub fn flits_for(&self, bytes: u32) -> u32 {
        bytes.div_ceil(self.xbar.flit_bytes).max(1)
    }
}
