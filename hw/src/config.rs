//! Every parameter of the clocked GPU in one serde structure, read from YAML.
//!
//! Each field documents its unit, its default and where the default comes
//! from. Unknown keys are errors; a value that parses but cannot describe a
//! gfx1030 is reported by [`GpuConfig::validate`] with its field path, and
//! [`GpuConfig::from_yaml`] turns both kinds into `file:line:column: message`.

use std::fmt;

use serde::{Deserialize, Serialize};

pub use crate::cu::config::{CuConfig, SchedPolicy, SubvectorMode};
pub use crate::dispatch::config::DispatcherConfig;
use crate::frontend::FrontEndConfig;
use crate::mem::MemConfig;

/// The embedded default configuration (RDNA2-like, scaled to 4 CUs).
pub const DEFAULT_YAML: &str = include_str!("../configs/default.yaml");
/// The embedded one-CU configuration (unit tests, speed measurements).
pub const ONE_CU_YAML: &str = include_str!("../configs/1cu.yaml");
/// The embedded full Navi 21 (RX 6900 XT) configuration: 80 CUs, GL1 caches,
/// 16 L2 channels, the Infinity Cache (sources: docs/config.md).
pub const NAVI21_YAML: &str = include_str!("../configs/navi21.yaml");

/// The named configurations (`--preset NAME`): name, embedded YAML, one-line description.
pub const PRESETS: [(&str, &str, &str); 3] = [
    ("default", DEFAULT_YAML, "RDNA2-like (gfx1030) scaled to 4 CUs"),
    ("1cu", ONE_CU_YAML, "the default with one CU"),
    (
        "navi21",
        NAVI21_YAML,
        "Navi 21 (RX 6900 XT): 80 CUs, 8 GL1, 16 L2 channels (4 MiB), 128 MiB Infinity Cache, 256-bit GDDR6",
    ),
];

/// Clock and memory-interface figures of a real part. The model counts
/// cycles of one clock; these only convert its cycles to time and are
/// reported with the configuration (no block reads them).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockConfig {
    /// Shader (and cache) clock in MHz, the clock the model's cycles count.
    pub shader_mhz: u32,
    /// DRAM data rate per pin in Mbit/s (GDDR6 at 16 Gbps: 16000).
    pub dram_mbps_per_pin: u32,
    /// DRAM bus width in bits.
    pub dram_bus_bits: u32,
}

/// The whole GPU.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GpuConfig {
    /// Compute units (1–128). Default 4 (an RDNA2 part scaled down); Navi 21: 80.
    pub cus: u32,
    /// The front end.
    pub frontend: FrontEndConfig,
    /// The workgroup dispatcher.
    pub dispatcher: DispatcherConfig,
    /// Every compute unit.
    pub cu: CuConfig,
    /// The memory hierarchy.
    pub memory: MemConfig,
    /// Cycles one `Device::run` call may take before a `Watchdog` fault: the
    /// outer limit (a runaway wave meets `wave_watchdog_cycles` first).
    /// Default 2²⁵, so that a long dispatch of many waves (the gfx803
    /// work-creation workload `wq_subdivide` runs past 2²² cycles) is not
    /// mistaken for a runaway one; `gpusim run --watchdog N` raises it.
    pub watchdog_cycles: u64,
    /// Cycles one wave may stay resident before a `WaveWatchdog` fault (the
    /// per-wave watchdog). Default 2²³: twice the residency of the longest
    /// wave of the repository's workloads (about 4.0 M cycles: a pointer
    /// chase and `wq_subdivide` on one CU; docs/performance.md, "Default
    /// watchdogs"), where a runaway loop stops in about 3 s of CPU with a
    /// few waves and 14 s with every wave slot full, while a long dispatch
    /// of many shorter waves is limited only by `watchdog_cycles`;
    /// `gpusim run --wave-watchdog N` or this field raises it.
    pub wave_watchdog_cycles: u64,
    /// The part's clocks (absent in the scaled presets: cycles only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clocks: Option<ClockConfig>,
}

impl Default for GpuConfig {
    fn default() -> Self {
        GpuConfig {
            cus: 4,
            frontend: FrontEndConfig::default(),
            dispatcher: DispatcherConfig::default(),
            cu: CuConfig::default(),
            memory: MemConfig::default(),
            watchdog_cycles: 1 << 25,
            wave_watchdog_cycles: 1 << 23,
            clocks: None,
        }
    }
}

/// A configuration that cannot be used, with where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// File name (as given to [`GpuConfig::from_yaml`]), if any.
    pub file: Option<String>,
    /// 1-based line and column, when known.
    pub position: Option<(usize, usize)>,
    /// Dotted field path (`cu.simds`), when known.
    pub field: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}:")?;
            if let Some((l, c)) = self.position {
                write!(f, "{l}:{c}:")?;
            }
            f.write_str(" ")?;
        }
        if let Some(field) = &self.field {
            write!(f, "{field}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for ConfigError {}

fn invalid(field: &str, message: impl Into<String>) -> ConfigError {
    ConfigError {
        file: None,
        position: None,
        field: Some(field.to_string()),
        message: message.into(),
    }
}

impl GpuConfig {
    /// The embedded default (`hw/configs/default.yaml`).
    pub fn default_config() -> GpuConfig {
        GpuConfig::from_yaml(DEFAULT_YAML, "default.yaml").expect("embedded default.yaml is valid")
    }

    /// The embedded one-CU configuration (`hw/configs/1cu.yaml`).
    pub fn one_cu() -> GpuConfig {
        GpuConfig::from_yaml(ONE_CU_YAML, "1cu.yaml").expect("embedded 1cu.yaml is valid")
    }

    /// The embedded full Navi 21 configuration (`hw/configs/navi21.yaml`).
    pub fn navi21() -> GpuConfig {
        GpuConfig::from_yaml(NAVI21_YAML, "navi21.yaml").expect("embedded navi21.yaml is valid")
    }

    /// The preset called `name` (see [`PRESETS`]), or `None`.
    pub fn preset(name: &str) -> Option<GpuConfig> {
        PRESETS
            .iter()
            .find(|(n, _, _)| *n == name)
            .map(|(n, yaml, _)| {
                GpuConfig::from_yaml(yaml, &format!("{n}.yaml"))
                    .expect("embedded presets are valid")
            })
    }

    /// Parses and validates YAML; errors read `file:line:column: field: reason`.
    pub fn from_yaml(text: &str, file_name: &str) -> Result<GpuConfig, ConfigError> {
        let config: GpuConfig = serde_norway::from_str(text).map_err(|e| ConfigError {
            file: Some(file_name.to_string()),
            position: e.location().map(|l| (l.line(), l.column())),
            field: None,
            message: e
                .to_string()
                .split(" at line ")
                .next()
                .unwrap_or("")
                .to_string(),
        })?;
        config.validate().map_err(|mut e| {
            e.file = Some(file_name.to_string());
            e.position = e.field.as_deref().and_then(|p| locate(text, p));
            e
        })?;
        Ok(config)
    }

    /// Checks every value that parses but cannot describe the machine.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let c = &self.cu;
        let range = |field: &str, v: u64, lo: u64, hi: u64| {
            if v < lo || v > hi {
                Err(invalid(field, format!("{v} is outside {lo}..={hi}")))
            } else {
                Ok(())
            }
        };
        range("cus", self.cus.into(), 1, 128)?;
        range("frontend.channels", self.frontend.channels.into(), 1, 64)?;
        if let Err(e) = self.frontend.validate() {
            return Err(match e.split_once(": ") {
                Some((path, reason)) if path.starts_with("frontend.") => invalid(path, reason),
                Some((path, reason)) => invalid(&format!("frontend.{path}"), reason),
                None => invalid("frontend", e),
            });
        }
        range(
            "dispatcher.launch_interval",
            self.dispatcher.launch_interval.into(),
            1,
            1 << 16,
        )?;
        if c.simds != 2 {
            return Err(invalid("cu.simds", "must be 2 on gfx1030"));
        }
        range("cu.wave_slots", c.wave_slots.into(), 1, 32)?;
        for (name, g) in [
            ("cu.vgpr_granule_w32", c.vgpr_granule_w32),
            ("cu.vgpr_granule_w64", c.vgpr_granule_w64),
        ] {
            if g == 0 || !g.is_power_of_two() || g > 256 {
                return Err(invalid(name, "must be a power of two in 1..=256"));
            }
        }
        range("cu.vgpr_rows", c.vgpr_rows.into(), 256, 1 << 16)?;
        if c.vgpr_rows % (2 * c.vgpr_granule_w64).max(c.vgpr_granule_w32) != 0 {
            return Err(invalid(
                "cu.vgpr_rows",
                "must be a multiple of both allocation granules (in rows)",
            ));
        }
        range("cu.sgprs_per_wave", c.sgprs_per_wave.into(), 106, 128)?;
        if c.sgprs < c.sgprs_per_wave {
            return Err(invalid("cu.sgprs", "smaller than one wave's allocation"));
        }
        range("cu.lds_bytes", c.lds_bytes.into(), 0, 1 << 20)?;
        if c.lds_granule == 0 || !c.lds_granule.is_power_of_two() {
            return Err(invalid("cu.lds_granule", "must be a power of two"));
        }
        if c.lds_bytes % c.lds_granule != 0 {
            return Err(invalid(
                "cu.lds_bytes",
                "must be a multiple of cu.lds_granule",
            ));
        }
        range("cu.lds_banks", c.lds_banks.into(), 1, 64)?;
        range("cu.vgpr_banks", c.vgpr_banks.into(), 1, 16)?;
        range("cu.vmem_queue_depth", c.vmem_queue_depth.into(), 1, 65536)?;
        if c.simd_lanes != 16 && c.simd_lanes != 32 {
            return Err(invalid("cu.simd_lanes", "must be 16 or 32"));
        }
        range(
            "cu.subvector_miss_threshold",
            c.subvector_miss_threshold.into(),
            0,
            1000,
        )?;
        range(
            "cu.subvector_sample_accesses",
            c.subvector_sample_accesses.into(),
            1,
            1 << 24,
        )?;
        for (name, v) in [
            ("cu.salu_latency", c.salu_latency),
            ("cu.valu_latency", c.valu_latency),
            ("cu.trans_rate", c.trans_rate),
            ("cu.f64_rate", c.f64_rate),
            ("cu.lds_latency", c.lds_latency),
            ("cu.branch_latency", c.branch_latency),
            ("cu.vmem_requests_per_cycle", c.vmem_requests_per_cycle),
            ("cu.occupancy_sample", c.occupancy_sample),
        ] {
            range(name, v.into(), 1, 1 << 20)?;
        }
        if !c.fetch_bytes.is_power_of_two() || !(4..=128).contains(&c.fetch_bytes) {
            return Err(invalid(
                "cu.fetch_bytes",
                "must be a power of two in 4..=128",
            ));
        }
        if c.fetch_bytes > self.memory.inst_line_bytes {
            return Err(invalid(
                "cu.fetch_bytes",
                format!(
                    "{} exceeds memory.inst_line_bytes ({}): a fetch reads within one line",
                    c.fetch_bytes, self.memory.inst_line_bytes
                ),
            ));
        }
        if c.ibuf_bytes < c.fetch_bytes.max(16)
            || c.ibuf_bytes % c.fetch_bytes != 0
            || c.ibuf_bytes / c.fetch_bytes > 16
        {
            return Err(invalid(
                "cu.ibuf_bytes",
                "must be 1 to 16 times cu.fetch_bytes and at least 16",
            ));
        }
        if let Err(e) = self.memory.validate() {
            // The memory system names its field first: `path: reason`.
            return Err(match e.split_once(": ") {
                Some((path, reason)) => invalid(&format!("memory.{path}"), reason),
                None => invalid("memory", e),
            });
        }
        if self.watchdog_cycles == 0 {
            return Err(invalid("watchdog_cycles", "must be at least 1"));
        }
        if self.wave_watchdog_cycles == 0 {
            return Err(invalid("wave_watchdog_cycles", "must be at least 1"));
        }
        if let Err(e) = self.memory.validate_for(self.cus as usize) {
            return Err(match e.split_once(": ") {
                Some(("cus", reason)) => invalid("cus", reason),
                Some((path, reason)) => invalid(&format!("memory.{path}"), reason),
                None => invalid("memory", e),
            });
        }
        if let Some(c) = &self.clocks {
            range("clocks.shader_mhz", c.shader_mhz.into(), 1, 100_000)?;
            range(
                "clocks.dram_mbps_per_pin",
                c.dram_mbps_per_pin.into(),
                1,
                1_000_000,
            )?;
            range("clocks.dram_bus_bits", c.dram_bus_bits.into(), 1, 1 << 16)?;
        }
        Ok(())
    }
}

/// Finds the 1-based line and column of the key at dotted `path` in YAML
/// block-style text (the form the presets use); `None` when absent (a default).
fn locate(text: &str, path: &str) -> Option<(usize, usize)> {
    let mut parts = path.split('.').peekable();
    let mut want = parts.next()?;
    let mut min_indent = 0usize;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with('#') || trimmed.is_empty() {
            continue;
        }
        let indent = line.len() - trimmed.len();
        if indent < min_indent {
            return None;
        }
        let key = trimmed.split(':').next().unwrap_or("").trim();
        if key == want && trimmed[key.len()..].trim_start().starts_with(':') {
            match parts.next() {
                None => return Some((n + 1, indent + 1)),
                Some(next) => {
                    want = next;
                    min_indent = indent + 1;
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_parse_and_differ_in_cus() {
        assert_eq!(GpuConfig::default_config().cus, 4);
        assert_eq!(GpuConfig::one_cu().cus, 1);
        assert_eq!(GpuConfig::navi21().cus, 80);
        for (name, _, _) in PRESETS {
            assert!(GpuConfig::preset(name).is_some(), "{name}");
        }
        assert!(GpuConfig::preset("navi22").is_none());
    }

    #[test]
    fn navi21_has_the_full_hierarchy_and_the_others_none_of_it() {
        let n = GpuConfig::navi21();
        let m = &n.memory;
        assert_eq!(m.l2.channels, 16);
        assert_eq!(
            u64::from(m.l2.channels) * u64::from(m.l2.size_bytes),
            4 << 20
        );
        let g = m.gl1.as_ref().expect("GL1");
        assert_eq!(
            (g.shader_engines, g.arrays(), g.size_bytes),
            (4, 8, 128 << 10)
        );
        let ic = m.infinity_cache.as_ref().expect("Infinity Cache");
        assert_eq!(u64::from(ic.slice_bytes) * 16, 128 << 20);
        let c = n.clocks.as_ref().expect("clocks");
        assert_eq!(
            u64::from(c.dram_bus_bits) * u64::from(c.dram_mbps_per_pin) / 8,
            512_000
        );
        for d in [GpuConfig::default_config(), GpuConfig::one_cu()] {
            assert!(d.memory.gl1.is_none() && d.memory.infinity_cache.is_none());
            assert!(d.clocks.is_none());
        }
    }

    #[test]
    fn gl1_arrays_need_a_cu_each() {
        let text = "cus: 4\nmemory:\n  gl1: { shader_engines: 4, arrays_per_engine: 2, size_bytes: 131072, ways: 16, hit_latency: 40, mshrs: 64, mshr_targets: 16, lookups_per_cycle: 4, response_queue: 32 }\n";
        let e = GpuConfig::from_yaml(text, "g.yaml").unwrap_err();
        assert!(e.to_string().contains("memory.gl1.shader_engines"), "{e}");
        assert!(GpuConfig::from_yaml("cus: 129\n", "g.yaml").is_err());
        assert!(GpuConfig::from_yaml("cus: 128\n", "g.yaml").is_ok());
    }

    #[test]
    fn validation_errors_carry_position_and_path() {
        let text = "cus: 1\ncu:\n  wave_slots: 8\n  simds: 4\n";
        let e = GpuConfig::from_yaml(text, "gpu.yaml").unwrap_err();
        assert_eq!(
            e.to_string(),
            "gpu.yaml:4:3: cu.simds: must be 2 on gfx1030"
        );
    }

    #[test]
    fn unknown_keys_are_errors_with_position() {
        let e = GpuConfig::from_yaml("cus: 1\ncu:\n  simdz: 2\n", "g.yaml").unwrap_err();
        let s = e.to_string();
        assert!(
            s.starts_with("g.yaml:3:3: cu: unknown field `simdz`"),
            "{s}"
        );
    }

    #[test]
    fn memory_errors_name_their_field() {
        let text = "cus: 1\nmemory:\n  line_bytes: 96\n";
        let e = GpuConfig::from_yaml(text, "m.yaml").unwrap_err();
        assert!(
            e.to_string().starts_with("m.yaml:3:3: memory.line_bytes: "),
            "{e}"
        );
    }

    #[test]
    fn front_end_errors_name_their_field() {
        let e = GpuConfig::from_yaml("frontend:\n  command_cycles: 0\n", "f.yaml").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("f.yaml:2:3: frontend.command_cycles: "),
            "{e}"
        );
    }

    #[test]
    fn scheduler_policy_names() {
        let c = GpuConfig::from_yaml("cu: { scheduler: greedy-then-oldest }", "g").unwrap();
        assert_eq!(c.cu.scheduler, SchedPolicy::GreedyThenOldest);
        assert!(GpuConfig::from_yaml("cu: { scheduler: lifo }", "g").is_err());
    }
}
