//! Counters of a clocked run, serialisable as JSON for sweeps.

use serde::Serialize;

use crate::mem::MemStats;

/// Instruction classes counted at issue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Class {
    /// Scalar ALU (SOP1/SOP2/SOPK/SOPC, non-branch SOPP that reach the SALU).
    Salu,
    /// Vector ALU.
    Valu,
    /// Vector memory (FLAT, GLOBAL, SCRATCH, MUBUF, MTBUF).
    Vmem,
    /// Scalar memory.
    Smem,
    /// LDS (DS).
    Lds,
    /// Branches and jumps.
    Branch,
    /// Everything else (waits, barriers, nops, `s_endpgm`, ...).
    Other,
}

/// Instructions by class.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ByClass {
    /// Scalar ALU.
    pub salu: u64,
    /// Vector ALU.
    pub valu: u64,
    /// Vector memory.
    pub vmem: u64,
    /// Scalar memory.
    pub smem: u64,
    /// LDS.
    pub lds: u64,
    /// Branches.
    pub branch: u64,
    /// Other.
    pub other: u64,
}

impl ByClass {
    /// Counts one instruction of `class`.
    #[inline]
    pub fn add(&mut self, class: Class) {
        match class {
            Class::Salu => self.salu += 1,
            Class::Valu => self.valu += 1,
            Class::Vmem => self.vmem += 1,
            Class::Smem => self.smem += 1,
            Class::Lds => self.lds += 1,
            Class::Branch => self.branch += 1,
            Class::Other => self.other += 1,
        }
    }

    /// All classes.
    pub fn total(&self) -> u64 {
        self.salu + self.valu + self.vmem + self.smem + self.lds + self.branch + self.other
    }
}

/// Why a SIMD's scheduler issued nothing in a cycle while it had waves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Stall {
    /// Waiting for an ALU result (scoreboard).
    Dependency,
    /// `s_waitcnt` counters not low enough.
    Waitcnt,
    /// Waiting at `s_barrier`.
    Barrier,
    /// The VALU was busy (multi-pass or bank conflicts) or the LDS was busy with conflicts.
    BankConflict,
    /// No wave resident or all sleeping/ending.
    NoReadyWave,
    /// The next instruction is not in the instruction buffer.
    Fetch,
    /// A memory queue was full.
    Backpressure,
}

/// Stall cycles by reason (per SIMD-cycle without issue).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stalls {
    /// Scoreboard dependencies.
    pub dependency: u64,
    /// `s_waitcnt`.
    pub waitcnt: u64,
    /// Barriers.
    pub barrier: u64,
    /// Busy VALU/LDS pipes (multi-pass, VGPR or LDS bank conflicts).
    pub bank_conflict: u64,
    /// No ready wave at all.
    pub no_ready_wave: u64,
    /// Instruction fetch.
    pub fetch: u64,
    /// Memory backpressure.
    pub backpressure: u64,
}

impl Stalls {
    /// Counts one stalled SIMD-cycle.
    #[inline]
    pub fn add(&mut self, s: Stall) {
        match s {
            Stall::Dependency => self.dependency += 1,
            Stall::Waitcnt => self.waitcnt += 1,
            Stall::Barrier => self.barrier += 1,
            Stall::BankConflict => self.bank_conflict += 1,
            Stall::NoReadyWave => self.no_ready_wave += 1,
            Stall::Fetch => self.fetch += 1,
            Stall::Backpressure => self.backpressure += 1,
        }
    }
}

/// Counters of one compute unit.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CuStats {
    /// Instructions issued, by class.
    pub instructions: ByClass,
    /// Sum over issued instructions of active lanes (EXEC population for
    /// vector instructions, 1 for scalar ones).
    pub active_lane_instructions: u64,
    /// Cycles in which the CU had at least one wave resident.
    pub active_cycles: u64,
    /// SIMD-cycles in which a VALU pass was executing.
    pub valu_busy_cycles: u64,
    /// Stalls by reason.
    pub stalls: Stalls,
    /// Extra cycles added by VGPR bank read conflicts.
    pub vgpr_bank_conflict_cycles: u64,
    /// Extra cycles added by LDS bank conflicts.
    pub lds_bank_conflict_cycles: u64,
    /// Wave64 VALU half-passes skipped because their EXEC half was zero.
    pub skipped_halves: u64,
    /// Vector memory cache-line requests sent.
    pub vmem_requests: u64,
    /// Scalar memory requests sent.
    pub smem_requests: u64,
    /// Instruction fetch requests sent.
    pub fetch_requests: u64,
    /// Workgroups launched on this CU.
    pub workgroups: u64,
    /// Waves launched on this CU.
    pub waves: u64,
    /// Instructions per cycle over the run's cycles (filled by [`crate::ClockedGpu::stats`]).
    pub ipc: f64,
    /// VALU utilisation: busy SIMD-cycles / (SIMDs × cycles).
    pub valu_utilisation: f64,
}

/// One dispatch's span.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DispatchStats {
    /// Dispatch number.
    pub number: u32,
    /// Cycle the dispatcher accepted it.
    pub start: u64,
    /// Cycle it completed (0 while running).
    pub end: u64,
    /// `end - start`.
    pub cycles: u64,
    /// Workgroups.
    pub workgroups: u64,
    /// Waves.
    pub waves: u64,
}

/// Everything counted since reset.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct GpuStats {
    /// Cycles since reset.
    pub cycles: u64,
    /// Instructions issued, all CUs, by class.
    pub instructions: ByClass,
    /// Active-lane instructions, all CUs.
    pub active_lane_instructions: u64,
    /// Per dispatch.
    pub dispatches: Vec<DispatchStats>,
    /// Per compute unit.
    pub cus: Vec<CuStats>,
    /// Stalls summed over CUs.
    pub stalls: Stalls,
    /// `(cycle, waves resident on the whole GPU)` every `cu.occupancy_sample` cycles.
    pub occupancy: Vec<(u64, u32)>,
    /// The memory hierarchy's counters.
    pub memory: MemStats,
}
