//! The crossbar's parameters (YAML `mem.xbar`, docs/config.md). They are
//! given under `mem` with the caches and channels the crossbar connects, and
//! checked against them there (`MemConfig::validate`); the type lives with
//! the block it configures. (C&C-LAT) below is a source listed in
//! `hw/src/mem/config.rs`.

use serde::{Deserialize, Serialize};

/// The crossbar.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct XbarConfig {
    /// Cycles from grant to arrival of a one-flit packet (≥ 1). Default 8:
    /// our share of the L0→L2 path of (C&C-LAT) next to the caches' own latencies.
    pub latency: u32,
    /// Bytes of data per flit (a power of two, ≤ line_bytes). Default 64:
    /// RDNA2's L2 returns 64 B/clk per channel (AMD "RDNA Architecture" whitepaper, 2019).
    pub flit_bytes: u32,
    /// Slots of each buffer (switch inputs, L2 inputs, port response buffers), 1–65535. Default 8.
    pub fifo_depth: u32,
}

impl Default for XbarConfig {
    fn default() -> Self {
        XbarConfig {
            latency: 8,
            flit_bytes: 64,
            fifo_depth: 8,
        }
    }
}
