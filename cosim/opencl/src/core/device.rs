//! The device's figures, from the configuration that runs: what
//! `clGetDeviceInfo` reports. Each is the simulated GPU's (compute units,
//! caches, LDS, clock) or the driver's (work-group and argument limits,
//! device heap), never a made-up number.

use hw::GpuConfig;
use sw::driver::kernarg::{MAX_LDS_BYTES, MAX_WORKGROUP_ITEMS};
use sw::driver::memory::{DEFAULT_HEAP_SIZE, MIN_ALIGN};

use super::settings::Settings;

/// The figures of the one device this platform exposes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceFigures {
    /// `CL_DEVICE_NAME`: the processor, as AMD's runtime names it.
    pub name: String,
    /// Compute units.
    pub compute_units: u32,
    /// Shader clock in MHz, when the configuration has `clocks:` (0: the
    /// model counts cycles of a clock the configuration does not fix).
    pub clock_mhz: u32,
    /// Work-items per work-group (the driver's limit).
    pub max_work_group_size: usize,
    /// LDS bytes a work-group may allocate: the CU's LDS, at most what the
    /// dispatch packet can express.
    pub local_mem_bytes: u64,
    /// Device memory the driver's heap can hand out.
    pub global_mem_bytes: u64,
    /// The largest single buffer (a quarter of the heap, as the OpenCL
    /// minimum is stated).
    pub max_alloc_bytes: u64,
    /// The last-level cache (all L2 channels) in bytes.
    pub global_cache_bytes: u64,
    /// Cache line bytes.
    pub cache_line_bytes: u32,
    /// Alignment of every buffer in bits (`CL_DEVICE_MEM_BASE_ADDR_ALIGN`).
    pub base_align_bits: u32,
    /// The wave size kernels are compiled for (gfx1030 wave32).
    pub wave_size: u32,
    /// Nanoseconds per clock, for profiling (1 when the clock is not fixed:
    /// times are then cycles).
    pub timer_resolution_ns: usize,
    /// A line for `CL_DEVICE_VERSION` and friends: what runs.
    pub description: String,
}

/// The host's physical memory (`MemTotal` of `/proc/meminfo`), if known.
fn host_memory_bytes() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// `CL_DEVICE_GLOBAL_MEM_SIZE`: the driver's heap, but at most half the
/// host's memory. The device memory lives in the host's (a buffer the
/// application fills is as large there), and applications and the Khronos
/// conformance tests size their buffers from this answer: a 64 GiB device
/// on a 24 GiB host had one allocate and fill 22 GB until the kernel's
/// out-of-memory killer stopped it (and the builds beside it).
fn global_mem_bytes(host: Option<u64>) -> u64 {
    host.map_or(DEFAULT_HEAP_SIZE, |h| DEFAULT_HEAP_SIZE.min(h / 2))
}

/// `CL_DEVICE_MAX_MEM_ALLOC_SIZE`: a quarter of the global memory, at
/// least the 128 MiB OpenCL 1.2 requires.
fn max_alloc_bytes(global: u64) -> u64 {
    (global / 4).max(128 << 20)
}

impl DeviceFigures {
    /// The figures of the configuration in `s`.
    pub fn of(s: &Settings) -> DeviceFigures {
        let c: &GpuConfig = &s.config;
        let clock_mhz = c.clocks.as_ref().map_or(0, |k| k.shader_mhz);
        DeviceFigures {
            name: "gfx1030".into(),
            compute_units: c.cus,
            clock_mhz,
            max_work_group_size: MAX_WORKGROUP_ITEMS as usize,
            local_mem_bytes: u64::from(c.cu.lds_bytes.min(MAX_LDS_BYTES)),
            global_mem_bytes: global_mem_bytes(host_memory_bytes()),
            max_alloc_bytes: max_alloc_bytes(global_mem_bytes(host_memory_bytes())),
            global_cache_bytes: u64::from(c.memory.l2.channels) * u64::from(c.memory.l2.size_bytes),
            cache_line_bytes: c.memory.line_bytes,
            base_align_bits: (MIN_ALIGN * 8) as u32,
            wave_size: 32,
            timer_resolution_ns: 1000u32.checked_div(clock_mhz).map_or(1, |ns| ns.max(1)) as usize,
            description: format!("{} model, {} CUs", s.model, c.cus),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cosim::model::Model;

    fn figures(config: GpuConfig) -> DeviceFigures {
        DeviceFigures::of(&Settings {
            model: Model::Cycle,
            config,
            stats: None,
            vcd: None,
            timeline: None,
            watchdog: None,
            wave_watchdog: None,
        })
    }

    /// The figures follow the configuration: the default GPU and Navi 21
    /// differ where their configurations do.
    #[test]
    fn figures_follow_the_configuration() {
        let d = GpuConfig::default_config();
        let n = GpuConfig::preset("navi21").expect("navi21");
        let (fd, fn21) = (figures(d.clone()), figures(n.clone()));
        assert_eq!(fd.compute_units, d.cus);
        assert_eq!(fn21.compute_units, 80);
        assert_eq!(
            fn21.global_cache_bytes,
            u64::from(n.memory.l2.channels * n.memory.l2.size_bytes)
        );
        assert_eq!(fn21.global_cache_bytes, 4 << 20, "navi21: 4 MiB of L2");
        assert_eq!(fn21.clock_mhz, 2250);
        assert_eq!(fd.clock_mhz, 0, "the default configuration fixes no clock");
        assert_eq!(fd.local_mem_bytes, 64 * 1024);
        assert_eq!(fd.max_work_group_size, 1024);
        assert_eq!(fd.description, format!("cycle model, {} CUs", d.cus));
    }

    /// The memory answered is bounded by the host's: half of it, the heap
    /// when smaller, a quarter of that per buffer (at least 128 MiB).
    #[test]
    fn global_memory_is_at_most_half_the_hosts() {
        let gib = 1u64 << 30;
        assert_eq!(global_mem_bytes(Some(24 * gib)), 12 * gib);
        assert_eq!(global_mem_bytes(Some(1024 * gib)), DEFAULT_HEAP_SIZE);
        assert_eq!(global_mem_bytes(None), DEFAULT_HEAP_SIZE);
        assert_eq!(max_alloc_bytes(12 * gib), 3 * gib);
        assert_eq!(max_alloc_bytes(256 << 20), 128 << 20);
        let here = figures(GpuConfig::default_config());
        if let Some(host) = host_memory_bytes() {
            assert!(here.global_mem_bytes <= host / 2);
        }
    }
}
