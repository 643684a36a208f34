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

    /// Adds `o`'s counts class by class (GPU totals from the CUs').
    pub fn accumulate(&mut self, o: &ByClass) {
        self.salu += o.salu;
        self.valu += o.valu;
        self.vmem += o.vmem;
        self.smem += o.smem;
        self.lds += o.lds;
        self.branch += o.branch;
        self.other += o.other;
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

    /// Counts `cycles` stall cycles for reason `s` (event skipping applies
    /// many waiting edges at once).
    pub fn add_cycles(&mut self, s: Stall, cycles: u64) {
        match s {
            Stall::Dependency => self.dependency += cycles,
            Stall::Waitcnt => self.waitcnt += cycles,
            Stall::Barrier => self.barrier += cycles,
            Stall::BankConflict => self.bank_conflict += cycles,
            Stall::NoReadyWave => self.no_ready_wave += cycles,
            Stall::Fetch => self.fetch += cycles,
            Stall::Backpressure => self.backpressure += cycles,
        }
    }

    /// Adds `o`'s cycles reason by reason (GPU totals from the CUs').
    pub fn accumulate(&mut self, o: &Stalls) {
        self.dependency += o.dependency;
        self.waitcnt += o.waitcnt;
        self.barrier += o.barrier;
        self.bank_conflict += o.bank_conflict;
        self.no_ready_wave += o.no_ready_wave;
        self.fetch += o.fetch;
        self.backpressure += o.backpressure;
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
    /// VALU passes skipped because their part's EXEC bits were zero (wave64
    /// halves on SIMD32, quarters on a 16-lane SIMD).
    pub skipped_halves: u64,
    /// Instruction passes issued inside sub-vector windows (one per part).
    pub subvector_passes: u64,
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
    /// Most waves resident at once (after a launch).
    pub peak_resident_waves: u64,
    /// Most VGPR rows allocated at once, over its SIMDs (after a launch).
    pub peak_vgpr_rows: u64,
    /// Waves launched with a shared VGPR region (seed 000 §2).
    pub shared_vgpr_waves: u64,
    /// VGPR rows those waves did not take thanks to the shared region
    /// (summed over waves).
    pub vgpr_rows_shared: u64,
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

/// GP_GET values kept per channel in [`ChannelStats::gp_get_history`]; later
/// changes are counted in `history_truncated` but not stored (the golden
/// model's `GP_GET_HISTORY_LIMIT`, so both histories compare).
pub const GP_GET_HISTORY_LIMIT: usize = 4096;

/// What one channel of the front end did since reset (the golden model's
/// `ChannelActivity`, with its waits in cycles instead of steps).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ChannelStats {
    /// The channel index.
    pub channel: u32,
    /// Entries whose command block completed (GP_GET advanced past them).
    pub entries_processed: u64,
    /// Commands completed.
    pub commands: u64,
    /// DISPATCH commands handed to the dispatcher.
    pub dispatches: u64,
    /// GP_GET as the channel moved: its value when the channel first started
    /// an entry, then its value after every advance (at most
    /// [`GP_GET_HISTORY_LIMIT`] values).
    pub gp_get_history: Vec<u32>,
    /// True when more GP_GET changes happened than the history keeps.
    pub history_truncated: bool,
    /// SEMAPHORE_ACQUIRE commands completed.
    pub acquires: u64,
    /// Acquires whose first read did not hold (the channel polled).
    pub acquires_waited: u64,
    /// Cycles from each waited acquire's first failing read response to the
    /// read response that held.
    pub acquire_wait_cycles: u64,
    /// SEMAPHORE_RELEASE commands executed (completion signals not included).
    pub releases: u64,
    /// WAIT_FOR_IDLE commands that had to wait.
    pub idle_waits: u64,
    /// Cycles from a waiting WAIT_FOR_IDLE's start to the cycle it completed.
    pub idle_wait_cycles: u64,
}

impl ChannelStats {
    /// Records a GP_GET value (the first start of an entry, or an advance).
    pub(crate) fn record_gp_get(&mut self, gp_get: u32) {
        if self.gp_get_history.len() < GP_GET_HISTORY_LIMIT {
            self.gp_get_history.push(gp_get);
        } else {
            self.history_truncated = true;
        }
    }

    /// True when the channel started an entry or ran a command.
    pub fn is_active(&self) -> bool {
        self.commands > 0 || !self.gp_get_history.is_empty()
    }
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
    /// Front-end activity of every channel that started an entry or ran a
    /// command, in channel order.
    pub channels: Vec<ChannelStats>,
}
