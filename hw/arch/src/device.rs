//! The `Device` trait: what the driver needs from any GPU — the cycle model, the
//! golden functional model, or the two in lockstep.

use std::fmt;

use thiserror::Error;

use crate::command::SemaphoreCompare;
use crate::isa::Isa;

/// Base of the shared (LDS) aperture in the flat address space: flat addresses in
/// `[SHARED_APERTURE_BASE, SHARED_APERTURE_BASE + 2^32)` reach the workgroup's LDS.
/// It lies above every 48-bit device address, so it never hides device memory.
/// Kernels read it from `src_shared_base` (gfx1030) or from the code object v5
/// hidden argument `hidden_shared_base` (its high 32 bits; gfx803).
pub const SHARED_APERTURE_BASE: u64 = 0x0001_0000_0000_0000;
/// Base of the private (scratch) aperture in the flat address space
/// (`src_private_base`, `hidden_private_base`).
pub const PRIVATE_APERTURE_BASE: u64 = 0x0002_0000_0000_0000;

/// When [`Device::run`] should return.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunUntil {
    /// Every enabled channel is empty and no wave is running.
    Idle,
    /// At most this many more cycles (steps, for a functional model).
    Cycles(u64),
    /// The 32-bit word at `address` satisfies `compare` against `value` (a completion semaphore).
    Word {
        /// 4-aligned device address.
        address: u64,
        /// Value compared against.
        value: u32,
        /// The comparison.
        compare: SemaphoreCompare,
    },
}

/// Why [`Device::run`] returned without an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunStatus {
    /// The requested condition holds.
    Done,
    /// The cycle budget of [`RunUntil::Cycles`] ran out.
    BudgetExhausted,
    /// Nothing can make progress: every channel with work waits on a semaphore
    /// that no running wave can release (reported, never a hang).
    Blocked(Vec<BlockedChannel>),
}

/// A channel stuck on a semaphore acquire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockedChannel {
    /// Channel index.
    pub channel: u32,
    /// The entry (GP_GET) it is at.
    pub entry: u32,
    /// The semaphore address.
    pub address: u64,
    /// The payload waited for.
    pub payload: u32,
    /// The comparison.
    pub compare: SemaphoreCompare,
    /// The word's current value.
    pub current: u32,
}

impl fmt::Display for BlockedChannel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = match self.compare {
            SemaphoreCompare::Equal => "==",
            SemaphoreCompare::GreaterOrEqual => ">=",
        };
        write!(
            f,
            "front end blocked on channel {} at entry {} waiting for [{:#x}] {op} {} (it holds {})",
            self.channel, self.entry, self.address, self.payload, self.current
        )
    }
}

/// Which wave did something.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WaveId {
    /// Dispatch number since reset.
    pub dispatch: u32,
    /// Workgroup id (x, y, z).
    pub workgroup: [u32; 3],
    /// Wave index within its workgroup.
    pub wave: u32,
}

impl fmt::Display for WaveId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z] = self.workgroup;
        write!(
            f,
            "dispatch {} workgroup ({x},{y},{z}) wave {}",
            self.dispatch, self.wave
        )
    }
}

/// What went wrong in a GPU fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// A memory access outside every mapped range.
    MemoryViolation {
        /// The faulting byte address.
        address: u64,
        /// True for a write.
        write: bool,
    },
    /// An instruction that does not decode or is not implemented.
    IllegalInstruction {
        /// The decoder's message.
        reason: String,
    },
    /// The watchdog fired: the run took its whole budget without finishing
    /// (cycles on a clocked model, wave instructions on the functional one;
    /// the fault's [`Clock`] says which).
    Watchdog {
        /// The budget that was exhausted.
        budget: u64,
    },
    /// The per-wave watchdog fired: one wave ran its whole budget without
    /// ending (cycles resident on a clocked model, instructions executed on
    /// the functional one; the fault's [`Clock`] says which). A long dispatch
    /// of many shorter waves never trips it; a runaway loop does, however
    /// full the GPU is.
    WaveWatchdog {
        /// The per-wave instruction budget that was exhausted.
        budget: u64,
    },
    /// A signal stopped the run (Ctrl-C, or SIGTERM from a batch system's
    /// time limit); what was computed so far is kept.
    Interrupted {
        /// The signal's name, as the user knows it (`SIGINT (Ctrl-C)`, `SIGTERM`).
        signal: &'static str,
    },
    /// Lockstep co-simulation: the clocked model and the golden model
    /// disagree (the report shows both sides).
    LockstepMismatch {
        /// The full report: both sides in one format, the wave's registers.
        report: String,
    },
    /// A malformed channel entry or command block.
    Command {
        /// Channel index.
        channel: u32,
        /// Entry index.
        entry: u32,
        /// What is wrong.
        reason: String,
    },
}

/// What a [`Fault`]'s `cycle` counts, so the report names the right unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Clock {
    /// Clock cycles (the clocked model).
    #[default]
    Cycles,
    /// Steps of the functional model: one per wave instruction and one per
    /// front-end command. Its watchdog budget counts wave instructions.
    Steps,
}

/// A GPU fault: the device stops and reports where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// What happened.
    pub kind: FaultKind,
    /// The wave, if a wave caused it.
    pub wave: Option<WaveId>,
    /// Program counter (byte address) of the instruction, if any.
    pub pc: Option<u64>,
    /// The instruction's disassembly, if it decoded.
    pub instruction: Option<String>,
    /// Cycle (or step, see `clock`) count at the fault.
    pub cycle: u64,
    /// What `cycle` counts.
    pub clock: Clock,
}

impl Fault {
    /// A fault of `kind` at clock cycle `cycle` (the clocked model), tied to
    /// no wave or instruction (set `wave`, `pc` and `instruction` after).
    pub fn at_cycle(kind: FaultKind, cycle: u64) -> Fault {
        Fault {
            kind,
            wave: None,
            pc: None,
            instruction: None,
            cycle,
            clock: Clock::Cycles,
        }
    }

    /// A fault of `kind` at step `step` of the functional model, tied to no
    /// wave or instruction.
    pub fn at_step(kind: FaultKind, step: u64) -> Fault {
        Fault {
            clock: Clock::Steps,
            ..Fault::at_cycle(kind, step)
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            FaultKind::MemoryViolation { address, write } => write!(
                f,
                "GPU fault: {} of unmapped address {address:#x}",
                if *write { "write" } else { "read" }
            )?,
            FaultKind::IllegalInstruction { reason } => {
                write!(f, "GPU fault: illegal instruction: {reason}")?
            }
            // The limit, its unit and how to raise it: a long legitimate run
            // and a runaway kernel look the same from here.
            FaultKind::Watchdog { budget } => match self.clock {
                Clock::Cycles => write!(
                    f,
                    "GPU fault: watchdog: {budget} cycles without finishing (a runaway kernel? \
                     `--watchdog N` or the configuration's `watchdog_cycles` raises the limit)"
                )?,
                Clock::Steps => write!(
                    f,
                    "GPU fault: watchdog: {budget} wave instructions without finishing (a runaway \
                     kernel? `--watchdog N` raises the limit)"
                )?,
            },
            FaultKind::WaveWatchdog { budget } => match self.clock {
                Clock::Cycles => write!(
                    f,
                    "GPU fault: watchdog: one wave resident {budget} cycles without ending (a \
                     runaway loop? `--wave-watchdog N` or the configuration's \
                     `wave_watchdog_cycles` raises the per-wave limit)"
                )?,
                Clock::Steps => write!(
                    f,
                    "GPU fault: watchdog: one wave executed {budget} instructions without \
                     ending (a runaway loop? `--wave-watchdog N` raises the per-wave limit)"
                )?,
            },
            FaultKind::Command {
                channel,
                entry,
                reason,
            } => write!(f, "GPU fault: channel {channel} entry {entry}: {reason}")?,
            FaultKind::LockstepMismatch { report } => write!(f, "lockstep mismatch: {report}")?,
            FaultKind::Interrupted { signal } => write!(f, "interrupted by {signal}")?,
        }
        if let Some(wave) = &self.wave {
            write!(f, "; {wave}")?;
        }
        if let Some(pc) = self.pc {
            write!(f, "; pc {pc:#x}")?;
        }
        if let Some(text) = &self.instruction {
            write!(f, "; `{text}`")?;
        }
        match self.clock {
            Clock::Cycles => write!(f, "; cycle {}", self.cycle),
            Clock::Steps => write!(f, "; step {}", self.cycle),
        }
    }
}

/// A device-level error returned by [`Device`] calls.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DeviceError {
    /// A host access (read/write) outside every mapped range, or a bad mapping.
    #[error("host access to unmapped device memory at {address:#x} (+{len} bytes)")]
    Unmapped {
        /// Start address.
        address: u64,
        /// Length.
        len: u64,
    },
    /// A mapping overlaps an existing one or is empty.
    #[error("cannot map [{base:#x}, +{size:#x}): {reason}")]
    BadMapping {
        /// Base address.
        base: u64,
        /// Size.
        size: u64,
        /// Why.
        reason: String,
    },
    /// An MMIO offset that names no register, or a write to a read-only register.
    #[error("bad MMIO access at offset {offset:#x}: {reason}")]
    Mmio {
        /// Register offset.
        offset: u32,
        /// Why.
        reason: String,
    },
    /// The GPU faulted; the device stays stopped.
    #[error("{0}")]
    Fault(Box<Fault>),
}

/// Why a device memory mapping could not be made or removed (the backing
/// stores of both GPUs report these; [`DeviceError::bad_mapping`] words them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapError {
    /// Zero size, or the range wraps past 2^64.
    Empty,
    /// The range overlaps the mapping that starts at this address.
    Overlaps(u64),
    /// No mapping starts at the address given to unmap.
    NotMapped,
}

impl DeviceError {
    /// The [`DeviceError::BadMapping`] for a refused map or unmap of `[base, +size)`.
    pub fn bad_mapping(base: u64, size: u64, e: MapError) -> DeviceError {
        let reason = match e {
            MapError::Empty => "the range is empty or wraps around".to_string(),
            MapError::Overlaps(other) => format!("overlaps the mapping at {other:#x}"),
            MapError::NotMapped => "no mapping starts there".to_string(),
        };
        DeviceError::BadMapping { base, size, reason }
    }
}

/// Any GPU the driver can drive.
pub trait Device {
    /// The ISA the device executes.
    fn isa(&self) -> Isa;
    /// Makes `[base, base + size)` device memory (zero-filled). Accesses outside
    /// every mapped range fault.
    fn map(&mut self, base: u64, size: u64) -> Result<(), DeviceError>;
    /// Removes the mapping that starts at `base`.
    fn unmap(&mut self, base: u64) -> Result<(), DeviceError>;
    /// Host read of device memory.
    fn read(&self, address: u64, out: &mut [u8]) -> Result<(), DeviceError>;
    /// Host write of device memory.
    fn write(&mut self, address: u64, data: &[u8]) -> Result<(), DeviceError>;
    /// Reads an MMIO register (see [`crate::mmio`]).
    fn mmio_read(&mut self, offset: u32) -> Result<u32, DeviceError>;
    /// Writes an MMIO register.
    fn mmio_write(&mut self, offset: u32, value: u32) -> Result<(), DeviceError>;
    /// Advances time until `until` holds, the budget runs out, nothing can make
    /// progress, or the GPU faults (an `Err(DeviceError::Fault)`).
    fn run(&mut self, until: RunUntil) -> Result<RunStatus, DeviceError>;
    /// Cycles (or steps) since reset.
    fn now(&self) -> u64;
    /// The first LDS access outside its work-group's allocation since the
    /// device was built, if any (a model that does not track it: `None`).
    fn lds_out_of_range(&self) -> Option<LdsOutOfRange> {
        None
    }
}

/// An LDS access at or beyond the end of its work-group's allocation (static
/// plus dynamic LDS). RDNA clamps it (a read returns 0, a write is dropped:
/// the models do the same), so the run goes on; but a kernel that does it
/// was almost always given too little dynamic LDS, so the models record the
/// first one and the harness reports it after the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LdsOutOfRange {
    /// The wave.
    pub wave: WaveId,
    /// Byte address of the instruction.
    pub pc: u64,
    /// Its disassembly.
    pub instruction: String,
    /// The first LDS byte address outside the allocation it accessed.
    pub address: u64,
    /// True for a write (or the write of an atomic).
    pub write: bool,
    /// The work-group's LDS allocation in bytes.
    pub lds_bytes: u32,
    /// Cycle (or step, see `clock`) at which it issued.
    pub cycle: u64,
    /// What `cycle` counts.
    pub clock: Clock,
}

impl fmt::Display for LdsOutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "LDS {} at byte {:#x}, beyond the work-group's {} bytes of LDS; {}",
            if self.write { "write" } else { "read" },
            self.address,
            self.lds_bytes,
            self.location()
        )
    }
}

impl LdsOutOfRange {
    /// Where it happened: `WAVE; pc PC; `INSTRUCTION`; cycle C` (or `step S`).
    pub fn location(&self) -> String {
        let unit = match self.clock {
            Clock::Cycles => "cycle",
            Clock::Steps => "step",
        };
        format!(
            "{}; pc {:#x}; `{}`; {unit} {}",
            self.wave, self.pc, self.instruction, self.cycle
        )
    }

    /// The earlier of two records (by clock, then wave): what a model with
    /// several sources (compute units, workgroups) reports, whatever order
    /// it collected them in.
    pub fn earlier(a: Option<LdsOutOfRange>, b: Option<LdsOutOfRange>) -> Option<LdsOutOfRange> {
        match (a, b) {
            (Some(a), Some(b)) => Some(if (b.cycle, b.wave) < (a.cycle, a.wave) {
                b
            } else {
                a
            }),
            (a, b) => a.or(b),
        }
    }
}
