//! Single-instruction probes: one wave with set registers, mapped memory and
//! an LDS allocation, on which one decoded instruction executes directly
//! (no front end, no program). For opcode-level semantics and coverage
//! tests.
//!
//! ```
//! use arch::isa::Target;
//! use golden::testing::probe::Probe;
//!
//! let mut p = Probe::new(Target::GFX1030_W32);
//! p.wave.vgpr[1] = [5; 64];
//! p.exec("v_add_nc_u32 v2, v1, 7").unwrap();
//! assert_eq!(p.wave.vgpr[2][0], 12);
//! ```

use arch::code_object::KernelDescriptor;
use arch::command::DispatchPacket;
use arch::device::Fault;
use arch::isa::{Instruction, Target};

use crate::dispatch::{DispatchEnv, ScratchLayout};
use crate::exec::{execute, Flow, WaveCtx};
use crate::memory::Memory;
use crate::wave::Wave;

/// Base of the mapped memory window.
pub const MEM: u64 = 0x10_0000;
/// Size of the mapped memory window.
pub const MEM_SIZE: u64 = 0x1_0000;
/// Base of the scratch backing store (mapped, [`SCRATCH_SIZE`] bytes).
pub const SCRATCH: u64 = 0x40_0000;
/// Size of the scratch backing store.
pub const SCRATCH_SIZE: u64 = 0x4_0000;
/// Bytes of LDS.
pub const LDS_SIZE: usize = 0x1_0000;
/// Scratch bytes per lane.
pub const SCRATCH_PER_LANE: u32 = 256;

/// A wave, memory and LDS to execute single instructions on.
pub struct Probe {
    /// The wave (64 VGPRs, EXEC all ones).
    pub wave: Wave,
    /// Device memory: [`MEM`] and [`SCRATCH`] windows are mapped and zeroed;
    /// the wave's scratch slice (FLAT_SCRATCH) starts at [`SCRATCH`].
    pub mem: Memory,
    /// The workgroup's LDS ([`LDS_SIZE`] bytes).
    pub lds: Vec<u8>,
    /// The dispatch the wave pretends to belong to.
    pub env: DispatchEnv,
    /// Value of the step counter (`s_memtime`, `s_getreg SHADER_CYCLES`).
    pub now: u64,
}

impl Probe {
    /// A probe for `target`.
    pub fn new(target: Target) -> Probe {
        let mut wave = Wave::new(Default::default(), target, 64);
        wave.set_exec(u64::MAX);
        // The wave's scratch slice starts at SCRATCH (gfx803: FLAT_SCRATCH_HI
        // = 0 slices past the hidden private base; gfx1030: the register).
        wave.flat_scratch = SCRATCH;
        let mut mem = Memory::new();
        // The windows are fixed, disjoint and aligned: mapping cannot fail.
        mem.map(MEM, MEM_SIZE).expect("probe memory window");
        mem.map(SCRATCH, SCRATCH_SIZE)
            .expect("probe scratch window");
        let env = DispatchEnv {
            number: 0,
            channel: 0,
            entry: 0,
            target,
            packet: DispatchPacket::default(),
            descriptor: KernelDescriptor::default(),
            dispatch_ptr: MEM,
            code_entry: 0,
            lds_bytes: LDS_SIZE as u32,
            scratch: ScratchLayout {
                base: SCRATCH,
                per_lane: SCRATCH_PER_LANE,
                index_stride: 64,
            },
            hidden_private_base: SCRATCH,
            vgprs: 64,
            workgroups: [1, 1, 1],
            waves_per_workgroup: 1,
        };
        Probe {
            wave,
            mem,
            lds: vec![0; LDS_SIZE],
            env,
            now: 0,
        }
    }

    /// Executes a decoded instruction at `pc` 0.
    pub fn run(&mut self, inst: &Instruction) -> Result<Flow, Fault> {
        let mut ctx = WaveCtx {
            wave: &mut self.wave,
            mem: &mut self.mem,
            lds: &mut self.lds,
            env: &self.env,
            pc: 0,
            now: self.now,
        };
        execute(&mut ctx, inst)
    }

    /// Assembles, decodes and executes one instruction; errors are text
    /// (assembler, decoder or the fault's debug form).
    pub fn exec(&mut self, text: &str) -> Result<Flow, String> {
        let target = self.wave.target;
        let bytes = arch::isa::assemble(target, text).map_err(|e| e.to_string())?;
        let inst = arch::isa::decode(target, &bytes).map_err(|e| e.to_string())?;
        self.run(&inst).map_err(|f| format!("{f:?}"))
    }

    /// Sets every lane of `v{reg}` from `f(lane)`.
    pub fn set_vgpr(&mut self, reg: usize, f: impl Fn(usize) -> u32) {
        for (l, x) in self.wave.vgpr[reg].iter_mut().enumerate() {
            *x = f(l);
        }
    }

    /// Writes bytes at a mapped address.
    pub fn poke(&mut self, address: u64, data: &[u8]) {
        self.mem
            .write(address, data)
            .unwrap_or_else(|a| panic!("probe: {a:#x} is not mapped"));
    }

    /// Reads a dword at a mapped address.
    pub fn peek_u32(&self, address: u64) -> u32 {
        self.mem
            .read_u32(address)
            .unwrap_or_else(|a| panic!("probe: {a:#x} is not mapped"))
    }
}
