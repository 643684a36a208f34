//! The workgroup dispatcher's parameters (`dispatcher:` in the GPU
//! configuration YAML). Checked by [`crate::config::GpuConfig::validate`].

use serde::{Deserialize, Serialize};

/// The workgroup dispatcher.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DispatcherConfig {
    /// Cycles between two workgroup launches (≥ 1). Default 4: one workgroup
    /// per 4 cycles, of the order of the SPI's wave-launch rate (assumption).
    pub launch_interval: u32,
    /// Cycles from a workgroup's launch decision until its waves may fetch
    /// (initial-register writes). Default 8 (assumption).
    pub launch_latency: u32,
}

impl Default for DispatcherConfig {
    fn default() -> Self {
        DispatcherConfig {
            launch_interval: 4,
            launch_latency: 8,
        }
    }
}
