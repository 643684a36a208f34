//! Test-only fault injection: corrupts one result of one wave before it is
//! applied and reported, so that lockstep tests can prove the checker catches
//! a wrong value. Set with [`crate::ClockedGpu::inject`]; each injection fires once.

use arch::device::WaveId;

/// What to corrupt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InjectKind {
    /// XOR `1 << bit` into lane `lane` of the first VGPR written by the wave's
    /// next VALU instruction that writes that lane.
    ValuLane {
        /// Lane (0–63).
        lane: u8,
        /// Bit (0–31).
        bit: u8,
    },
    /// Flip bit `bit` of EXEC in the next instruction of the wave that writes EXEC.
    ExecBit {
        /// Bit (0–63).
        bit: u8,
    },
    /// Invert SCC in the next instruction of the wave that writes SCC.
    Scc,
    /// XOR `mask` into the first byte of the next memory write of the wave
    /// (reported and re-applied to memory with the corrupted byte).
    StoreByte {
        /// XOR mask (non-zero).
        mask: u8,
    },
}

/// One pending injection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Injection {
    /// The wave whose result is corrupted.
    pub wave: WaveId,
    /// What is corrupted.
    pub kind: InjectKind,
}
