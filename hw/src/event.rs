//! What the clocked GPU reports to a co-simulation harness, in the order it
//! happens: dispatches and workgroups starting, every wave instruction at issue
//! and at retirement, front-end writes to memory. Collected only while
//! [`crate::ClockedGpu::set_events`] is on (lockstep mode).

use arch::device::WaveId;
use arch::isa::Instruction;

use crate::exec::{MemWrite, ScalarState, Writes};

/// Which pass of a sub-vector window an instruction's issue or retirement
/// is (docs/variable-wavefront.md): it ran on lanes `lanes` only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartPass {
    /// The part (0 = lanes 0 .. simd_lanes − 1).
    pub part: u8,
    /// Its lanes.
    pub lanes: u64,
    /// The instruction's first pass (the window's first active part).
    pub first: bool,
    /// The instruction's last pass.
    pub last: bool,
}

/// One retired wave instruction: everything it changed.
#[derive(Clone, Debug)]
pub struct Retire {
    /// The wave.
    pub wave: WaveId,
    /// Byte address of the instruction.
    pub pc: u64,
    /// Per-wave instruction sequence number (0 = the wave's first instruction).
    pub seq: u64,
    /// The instruction.
    pub inst: Instruction,
    /// The EXEC mask it executed under.
    pub exec: u64,
    /// Registers and memory it wrote.
    pub writes: Writes,
    /// Cycle of its writeback.
    pub cycle: u64,
    /// The sub-vector pass it was (`None` in conventional order).
    pub part: Option<PartPass>,
}

/// An event of the clocked GPU.
#[derive(Clone, Debug)]
pub enum Event {
    /// The front end started a dispatch (the golden model prepares the same one).
    Dispatch {
        /// Dispatch number since reset.
        number: u32,
        /// Channel and entry of the DISPATCH command.
        channel: u32,
        /// Entry index.
        entry: u32,
        /// Device address of the dispatch packet (the DISPATCH payload).
        packet_address: u64,
    },
    /// A wave was created with this initial state.
    WaveLaunch {
        /// The wave.
        wave: WaveId,
        /// First instruction.
        pc: u64,
        /// Scalar registers, SCC, MODE at launch.
        scalar: Box<ScalarState>,
        /// `v0`–`v2` (work-item ids) at launch, all 64 lanes.
        vgpr: Box<[[u32; 64]; 3]>,
        /// VGPRs allocated to it.
        vgprs: u16,
        /// Of which the top ones shared by its parts (seed 000 §2; 0: none).
        shared_vgprs: u16,
    },
    /// A wave instruction issued (its functional effect on memory happened now).
    Issue {
        /// The wave.
        wave: WaveId,
        /// Byte address.
        pc: u64,
        /// Per-wave sequence number.
        seq: u64,
        /// Device memory and LDS bytes it wrote (now, at issue).
        memory: Vec<MemWrite>,
        /// The sub-vector pass it is (`None` in conventional order).
        part: Option<PartPass>,
    },
    /// A wave instruction retired.
    Retire(Box<Retire>),
    /// The wave executed `s_endpgm` and left.
    WaveEnd {
        /// The wave.
        wave: WaveId,
    },
    /// The front end wrote device memory (semaphore release, completion signal).
    FrontEndWrite {
        /// Byte address.
        address: u64,
        /// The dword written.
        value: u32,
    },
}
