//! Lockstep co-simulation: the clocked GPU (`hw`) drives, the golden GPU
//! follows one wave-instruction at a time, and every retired instruction is
//! compared. See `docs/cycle-model.md` ("Lockstep") for the rules.
//!
//! ```text
//! hw event            golden action                       comparison
//! Dispatch            prepare_dispatch                     —
//! WaveLaunch          launch_workgroup (first wave of it)  initial registers
//! Issue               step_wave → record                   pc, sequence number
//! Retire              —                                    written registers, EXEC,
//!                                                          memory bytes, vs the record
//! WaveEnd             release_workgroup (last wave)        ended, instruction counts
//! FrontEndWrite       write into golden memory             —
//! run(Idle) returns   —                                    all device memory
//! ```
//!
//! `checker.rs` steers the golden GPU by the events and compares; the
//! comparisons themselves are `launch.rs` (initial state), `retire.rs` (a
//! pure function from the golden record and the retirement to their
//! differences) and `memory.rs` (bytes written each cycle, all memory at
//! the end).

use std::collections::{BTreeMap, VecDeque};

use arch::device::{Device, DeviceError, Fault, RunStatus, RunUntil, WaveId};
use arch::isa::Isa;
use golden::GoldenGpu;
use hw::ClockedGpu;

mod checker;
mod launch;
mod memory;
mod replay;
mod report;
mod retire;

use checker::{mismatch, Checker};
pub use replay::ReplayedWindow;
use replay::{HostOp, ReplayLog};
use report::Report;
use retire::Record;

/// Per-wave lockstep bookkeeping.
#[derive(Debug, Default)]
struct WaveTrack {
    records: VecDeque<Record>,
    issued: u64,
    retired: u64,
    /// `(VGPRs, of which shared by the parts)`: the golden GPU does not
    /// alias a shared region, so a mismatch report names it.
    shared_vgprs: (u16, u16),
}

/// Counters of a lockstep run.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct LockstepStats {
    /// Instructions compared at retirement.
    pub compared: u64,
    /// Waves whose initial state was compared.
    pub waves: u64,
    /// Bytes of device memory compared at the end of runs.
    pub memory_bytes_compared: u64,
}

/// The clocked GPU and the golden GPU in lockstep, as one [`Device`].
pub struct LockstepGpu {
    hw: ClockedGpu,
    golden: GoldenGpu,
    waves: BTreeMap<WaveId, WaveTrack>,
    /// Live waves per (dispatch, workgroup).
    workgroups: BTreeMap<(u32, [u32; 3]), u32>,
    /// Workgroups released per dispatch.
    released: BTreeMap<u32, u64>,
    stats: LockstepStats,
    /// What replays a run up to a mismatch with tracing on.
    replay: ReplayLog,
}

impl LockstepGpu {
    /// Pairs a clocked GPU with a golden GPU (which must execute gfx1030).
    pub fn new(mut hw: ClockedGpu, golden: GoldenGpu) -> Result<LockstepGpu, String> {
        if golden.isa() != Isa::Gfx1030 {
            return Err(format!(
                "the golden GPU executes {}, the clocked GPU gfx1030",
                golden.isa()
            ));
        }
        hw.set_events(true);
        Ok(LockstepGpu {
            hw,
            golden,
            waves: BTreeMap::new(),
            workgroups: BTreeMap::new(),
            released: BTreeMap::new(),
            stats: LockstepStats::default(),
            replay: ReplayLog::default(),
        })
    }

    /// The clocked GPU.
    pub fn clocked(&self) -> &ClockedGpu {
        &self.hw
    }

    /// The clocked GPU, mutably (fault injection in tests, tracing).
    pub fn clocked_mut(&mut self) -> &mut ClockedGpu {
        // Whatever the caller changes must be in the state a replay starts from.
        self.replay.restart();
        &mut self.hw
    }

    /// Writes a VCD of the clocked GPU's cycles `to - cycles_before ..= to`
    /// (signals selected by `filter`, all when `None`) to `path`, by replaying
    /// this device's run on a copy of the clocked GPU without the checker —
    /// after a mismatch, `to` is the fault's cycle. See `replay.rs`.
    pub fn replay_waveform(
        &self,
        path: &std::path::Path,
        to: u64,
        cycles_before: u64,
        filter: Option<String>,
    ) -> Result<ReplayedWindow, String> {
        self.replay.waveform(path, to, cycles_before, filter)
    }

    /// The golden GPU.
    pub fn golden(&self) -> &GoldenGpu {
        &self.golden
    }

    /// Counters so far.
    pub fn stats(&self) -> &LockstepStats {
        &self.stats
    }

    /// Runs `until` like [`Device::run`], calling `hook` after every clock edge
    /// of the clocked GPU once its events have been checked (tracing, progress,
    /// interruption: an `Err` stops the run with that fault).
    pub fn run_with<H>(&mut self, until: RunUntil, mut hook: H) -> Result<RunStatus, DeviceError>
    where
        H: FnMut(&ClockedGpu) -> Result<(), Box<Fault>>,
    {
        self.replay.push(&self.hw, HostOp::Run { until });
        let LockstepGpu {
            hw,
            golden,
            waves,
            workgroups,
            released,
            stats,
            replay: _,
        } = self;
        let mut checker = Checker {
            golden,
            waves,
            workgroups,
            released,
            stats,
            events: Vec::new(),
            touched: Vec::new(),
        };
        let status = hw.run_with(until, |hw| {
            hw.swap_events(&mut checker.events);
            let result = checker.check(hw);
            let hooked = hook(hw);
            result.and(hooked)
        });
        // A fault of the clocked model: events before it were checked already.
        let status = status?;
        // Both models have executed exactly the instructions the clocked model
        // issued, and front-end writes are mirrored: at every return the two
        // memories must agree (the driver usually waits on a fence word, not
        // for idleness, so this is where a run ends).
        if status == RunStatus::Done {
            self.finish()
                .map_err(|f| DeviceError::Fault(Box::new(*f)))?;
        }
        Ok(status)
    }

    /// End-of-run checks: every wave that has left retired what it issued
    /// (checked at its end), and all device memory is identical.
    fn finish(&mut self) -> Result<(), Box<Fault>> {
        let cycle = self.hw.now();
        for (id, t) in self.waves.iter().filter(|_| self.hw.is_idle()) {
            if t.issued != t.retired {
                return Err(mismatch(
                    Report::new(*id, None, cycle)
                        .line(format!(
                            "instruction-count parity: the cycle model issued {} instructions and retired {}",
                            t.issued, t.retired
                        ))
                        .text(),
                    *id,
                    None,
                    cycle,
                ));
            }
        }
        memory::compare_all(
            &self.hw,
            &self.golden,
            &mut self.stats.memory_bytes_compared,
        )
    }
}

impl Device for LockstepGpu {
    fn isa(&self) -> Isa {
        Isa::Gfx1030
    }

    fn map(&mut self, base: u64, size: u64) -> Result<(), DeviceError> {
        self.replay.push(&self.hw, HostOp::Map { base, size });
        self.hw.map(base, size)?;
        self.golden.map(base, size)
    }

    fn unmap(&mut self, base: u64) -> Result<(), DeviceError> {
        self.replay.push(&self.hw, HostOp::Unmap { base });
        self.hw.unmap(base)?;
        self.golden.unmap(base)
    }

    fn read(&self, address: u64, out: &mut [u8]) -> Result<(), DeviceError> {
        self.hw.read(address, out)
    }

    fn write(&mut self, address: u64, data: &[u8]) -> Result<(), DeviceError> {
        let op = HostOp::Write {
            address,
            data: data.to_vec(),
        };
        self.replay.push(&self.hw, op);
        self.hw.write(address, data)?;
        self.golden.write(address, data)
    }

    fn mmio_read(&mut self, offset: u32) -> Result<u32, DeviceError> {
        self.replay.push(&self.hw, HostOp::MmioRead { offset });
        self.hw.mmio_read(offset)
    }

    fn mmio_write(&mut self, offset: u32, value: u32) -> Result<(), DeviceError> {
        // Only the clocked model's front end runs; the golden model follows events.
        self.replay
            .push(&self.hw, HostOp::MmioWrite { offset, value });
        self.hw.mmio_write(offset, value)
    }

    fn run(&mut self, until: RunUntil) -> Result<RunStatus, DeviceError> {
        self.run_with(until, |_| Ok(()))
    }

    fn now(&self) -> u64 {
        self.hw.now()
    }

    /// The clocked GPU's record (in cycles); the golden GPU's if only it saw one.
    fn lds_out_of_range(&self) -> Option<arch::device::LdsOutOfRange> {
        self.hw
            .lds_out_of_range()
            .or_else(|| self.golden.lds_out_of_range())
    }
}
