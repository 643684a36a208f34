//! A tiny dispatch harness for semantics tests: assemble a program, launch it
//! through the real front end (channel 0, one entry, one DISPATCH) and look at
//! the final wave state and memory.
//!
//! ```
//! use arch::isa::Target;
//! use golden::testing::Kernel;
//!
//! let done = Kernel::new(Target::GFX1030_W32, "s_mov_b32 s10, 42\ns_endpgm").run().unwrap();
//! assert_eq!(done.waves[0].sgpr[10], 42);
//! ```
//!
//! Memory layout: the kernel descriptor at [`DESCRIPTOR`] with the code 256 bytes
//! after it, the kernarg segment at [`KERNARG`], a zeroed data buffer of
//! [`DATA_SIZE`] bytes at [`DATA`], and scratch at [`SCRATCH`] when requested.
//! By default the kernel gets the dispatch pointer in `s[0:1]`, the kernarg
//! pointer in `s[2:3]`, workgroup id X in `s4`, and work-item ids X/Y/Z in
//! `v0`–`v2`.

use arch::code_object::{ComputePgmRsrc1, ComputePgmRsrc2, KernelCodeProperties, KernelDescriptor};
use arch::command::{ChannelEntry, Command, DispatchPacket};
use arch::device::{Device, DeviceError, RunStatus, RunUntil};
use arch::isa::{assemble, Target};
use arch::mmio;

use super::stats::GoldenStats;
use super::wave::Wave;
use super::{GoldenConfig, GoldenGpu};

pub mod probe;
pub mod round_robin;

/// Address of the kernel descriptor (the code starts 256 bytes later).
pub const DESCRIPTOR: u64 = 0x1_0000;
/// Address of the channel-0 ring.
pub const RING: u64 = 0x8_0000;
/// Address of the command block.
pub const BLOCK: u64 = 0x9_0000;
/// Address of the kernarg segment (4 KiB mapped).
pub const KERNARG: u64 = 0xa_0000;
/// Address of the data buffer.
pub const DATA: u64 = 0x10_0000;
/// Size of the data buffer.
pub const DATA_SIZE: u64 = 0x10_0000;
/// Address of the scratch backing store.
pub const SCRATCH: u64 = 0x100_0000;

/// A kernel to run.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// Target (ISA and wave size).
    pub target: Target,
    /// Assembly source.
    pub source: String,
    /// Grid size in work-items.
    pub grid: [u32; 3],
    /// Workgroup size.
    pub workgroup: [u16; 3],
    /// Kernel descriptor (user SGPRs, system SGPRs, sizes...).
    pub descriptor: KernelDescriptor,
    /// Kernarg segment contents.
    pub kernarg: Vec<u8>,
    /// Initial contents of the data buffer (at its start).
    pub data: Vec<u8>,
    /// Watchdog budget.
    pub budget: u64,
    /// Use the pre-lowered fast paths ([`GoldenConfig::fast_paths`]).
    pub fast_paths: bool,
    /// Run with the JIT, compiling a block after this many executions
    /// ([`GoldenConfig::jit`], [`GoldenConfig::jit_threshold`]).
    pub jit: Option<u32>,
}

/// What a finished run left behind.
#[derive(Debug)]
pub struct Finished {
    /// Final state of every wave, in the order they ended.
    pub waves: Vec<Wave>,
    /// The device (memory, stats).
    pub gpu: GoldenGpu,
    /// How `run` returned.
    pub status: RunStatus,
}

impl Finished {
    /// Reads `len` bytes of device memory.
    pub fn read(&self, address: u64, len: usize) -> Vec<u8> {
        let mut out = vec![0; len];
        // The harness only reads mapped buffers; an unmapped read leaves zeros.
        let _ = self.gpu.read(address, &mut out);
        out
    }

    /// Reads a dword of device memory.
    pub fn read_u32(&self, address: u64) -> u32 {
        let b = self.read(address, 4);
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }

    /// Statistics.
    pub fn stats(&self) -> GoldenStats {
        self.gpu.stats()
    }
}

impl Kernel {
    /// One wave of `target`'s size running `source`, with the default user SGPRs.
    pub fn new(target: Target, source: &str) -> Kernel {
        let props = KernelCodeProperties {
            enable_sgpr_dispatch_ptr: true,
            enable_sgpr_kernarg_segment_ptr: true,
            enable_wavefront_size32: !target.wave64,
            ..KernelCodeProperties::default()
        };
        // USER_SGPR_COUNT = 4, workgroup id X, work-item ids X, Y, Z.
        let rsrc2 = ComputePgmRsrc2::from_bits((4 << 1) | (1 << 7) | (2 << 11));
        // 64 VGPR blocks: the maximum allocation.
        let rsrc1 = ComputePgmRsrc1::from_bits(0x3f);
        Kernel {
            target,
            source: source.to_string(),
            grid: [target.wave_size(), 1, 1],
            workgroup: [target.wave_size() as u16, 1, 1],
            descriptor: KernelDescriptor {
                kernel_code_entry_byte_offset: 256,
                compute_pgm_rsrc1: rsrc1,
                compute_pgm_rsrc2: rsrc2,
                kernel_code_properties: props,
                ..KernelDescriptor::default()
            },
            kernarg: Vec::new(),
            data: Vec::new(),
            budget: 1_000_000,
            fast_paths: true,
            jit: None,
        }
    }

    /// Sets the grid and workgroup sizes.
    pub fn grid(mut self, grid: [u32; 3], workgroup: [u16; 3]) -> Kernel {
        self.grid = grid;
        self.workgroup = workgroup;
        self
    }

    /// Sets the kernarg segment.
    pub fn kernarg(mut self, bytes: &[u8]) -> Kernel {
        self.kernarg = bytes.to_vec();
        self
    }

    /// Sets the initial data buffer contents.
    pub fn data(mut self, bytes: &[u8]) -> Kernel {
        self.data = bytes.to_vec();
        self
    }

    /// Builds the device, loads everything, and submits the dispatch (without running).
    pub fn load(&self) -> Result<GoldenGpu, String> {
        let mut config = GoldenConfig::new(self.target.isa);
        config.keep_finished_waves = true;
        config.instruction_budget = self.budget;
        config.fast_paths = self.fast_paths;
        if let Some(threshold) = self.jit {
            config.jit = true;
            config.jit_threshold = threshold;
            config.jit_process_threshold = threshold;
        }
        let mut gpu = GoldenGpu::new(config).map_err(|e| e.to_string())?;
        let code = assemble(self.target, &self.source).map_err(|e| e.to_string())?;
        let e = |e: DeviceError| e.to_string();
        gpu.map(DESCRIPTOR, 0x1_0000 + code.len() as u64)
            .map_err(e)?;
        gpu.write(DESCRIPTOR, &self.descriptor.to_bytes())
            .map_err(e)?;
        gpu.write(DESCRIPTOR + 256, &code).map_err(e)?;
        gpu.map(RING, 0x1000).map_err(e)?;
        gpu.map(BLOCK, 0x1000).map_err(e)?;
        gpu.map(KERNARG, 0x1000).map_err(e)?;
        gpu.write(KERNARG, &self.kernarg).map_err(e)?;
        gpu.map(DATA, DATA_SIZE).map_err(e)?;
        gpu.write(DATA, &self.data).map_err(e)?;
        let per_lane = self.descriptor.private_segment_fixed_size;
        let mut scratch_address = 0;
        if per_lane > 0 {
            let groups: u64 = (0..3)
                .map(|d| u64::from(self.grid[d].div_ceil(u32::from(self.workgroup[d]))))
                .product();
            let items: u32 = self.workgroup.iter().map(|&n| u32::from(n)).product();
            let waves = groups * u64::from(items.div_ceil(self.target.wave_size()));
            let size =
                waves * u64::from(per_lane.div_ceil(4) * 4) * u64::from(self.target.wave_size());
            gpu.map(SCRATCH, size).map_err(e)?;
            scratch_address = SCRATCH;
        }
        let packet = DispatchPacket {
            dimensions: 3,
            workgroup_size: self.workgroup,
            grid_size: self.grid,
            kernel_object: DESCRIPTOR,
            kernarg_address: KERNARG,
            scratch_address,
            ..DispatchPacket::default()
        };
        let mut block = Vec::new();
        Command::Dispatch(packet).write(&mut block);
        let bytes: Vec<u8> = block.iter().flat_map(|d| d.to_le_bytes()).collect();
        gpu.write(BLOCK, &bytes).map_err(e)?;
        let entry = ChannelEntry::new(BLOCK, block.len() as u16).map_err(|e| e.to_string())?;
        gpu.write(RING, &entry.to_bits().to_le_bytes()).map_err(e)?;
        for (reg, value) in [
            (mmio::CH_BASE_LO, RING as u32),
            (mmio::CH_BASE_HI, 0),
            (mmio::CH_SIZE, 8),
            (mmio::CH_GP_GET, 0),
            (mmio::CH_GP_PUT, 1),
            (mmio::CH_CONTROL, mmio::CH_CONTROL_ENABLE),
        ] {
            gpu.mmio_write(mmio::channel_reg(0, reg), value)
                .map_err(e)?;
        }
        Ok(gpu)
    }

    /// Loads and runs until idle; `Err` carries the fault or setup error as text.
    pub fn run(&self) -> Result<Finished, String> {
        let mut gpu = self.load()?;
        let status = gpu.run(RunUntil::Idle).map_err(|e| e.to_string())?;
        Ok(Finished {
            waves: gpu.finished_waves().to_vec(),
            gpu,
            status,
        })
    }
}
