//! The golden functional GPU: a complete [`Device`] — MMIO registers, channels
//! and command processing (the front end), the dispatcher, and an
//! instruction-level interpreter that runs a whole wave instruction over its 32
//! or 64 lanes at once.
//!
//! ```text
//! run() loop:  front end pass ─► launch workgroups ─► one scheduling round ─► repeat
//!              (commands, one       (oldest dispatch      (every resident wave runs up
//!               at a time, by        first, up to the       to `quantum` instructions,
//!               channel priority)    residency limit)       in workgroup/wave order)
//! ```
//!
//! Everything is deterministic: the same inputs give the same results and the
//! same step counts (no hash-map iteration, no host time). The "cycle" counter of
//! the functional model counts steps: one per wave instruction and one per
//! front-end command. See `docs/architecture.md` for the contract and every
//! choice made where the ABI or seed 001 left room.
#![deny(missing_docs)]

use std::collections::BTreeMap;

use arch::command::SemaphoreCompare;
use arch::device::{
    BlockedChannel, Device, DeviceError, Fault, FaultKind, LdsOutOfRange, RunStatus, RunUntil,
};
use arch::isa::Isa;
use thiserror::Error;

pub mod channel_activity;
pub mod dispatch;
pub mod exec;
pub mod fp;
mod frontend;
pub mod jit;
pub mod lockstep;
pub mod memory;
pub mod program;
pub mod stats;
pub mod testing;
pub mod wave;

use dispatch::DispatchEnv;
use exec::{Flow, WaveCtx};
use frontend::Channel;
use memory::{MapError, Memory};
use program::ProgramCache;
use stats::{Counters, GoldenStats};
use wave::{Wave, WaveStatus};

pub use lockstep::{LockstepError, Stepped};
pub use wave::{PRIVATE_APERTURE_BASE, SHARED_APERTURE_BASE};

/// Parameters of a golden GPU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoldenConfig {
    /// The ISA it executes.
    pub isa: Isa,
    /// Number of channels (1–64).
    pub channels: u32,
    /// Watchdog: wave instructions one [`Device::run`] call may execute before it
    /// faults with [`FaultKind::Watchdog`].
    pub instruction_budget: u64,
    /// Per-wave watchdog: instructions one wave may execute before it faults
    /// with [`FaultKind::WaveWatchdog`]. Tells a runaway wave from a long
    /// dispatch of many waves; the JIT runs within the same count.
    pub wave_instruction_budget: u64,
    /// Largest LDS allocation a workgroup may request, in bytes.
    pub lds_limit: u32,
    /// Workgroups resident at once (all of them make progress, round-robin).
    pub max_resident_workgroups: u32,
    /// Instructions a wave runs before the scheduler moves to the next wave.
    pub quantum: u32,
    /// Keep the final state of every wave that ends (see
    /// [`GoldenGpu::finished_waves`]); for tests and debugging, off by default.
    pub keep_finished_waves: bool,
    /// Run common instructions through their pre-lowered fast paths
    /// ([`exec::lowered`]); on by default. Off, every instruction takes the
    /// general path — the results are the same (differential tests compare).
    pub fast_paths: bool,
    /// Compile hot blocks of gfx1030 code to host code ([`jit`]); off by
    /// default. Results, statistics and faults are the interpreter's
    /// (differential tests compare); lockstep stepping always interprets.
    pub jit: bool,
    /// Executions of a block start before the JIT compiles it.
    pub jit_threshold: u32,
    /// Executions of a block start, summed over every device of the
    /// process, before the JIT compiles it (at least `jit_threshold`): a
    /// compile costs as much as interpreting the block ~1,000 times, so a
    /// short run does not pay for it, while repeated runs (a benchmark, a
    /// sweep's points) still get compiled code.
    pub jit_process_threshold: u32,
}

impl GoldenConfig {
    /// Defaults for `isa`: 4 channels, a budget of 2^28 wave instructions per run
    /// and 2^24 per wave (25 times the longest wave of the repository's
    /// workloads; an infinite loop stops within a few seconds),
    /// 64 KiB of LDS per workgroup, 16 resident workgroups, a quantum of 256.
    pub fn new(isa: Isa) -> GoldenConfig {
        GoldenConfig {
            isa,
            channels: 4,
            instruction_budget: 1 << 28,
            wave_instruction_budget: 1 << 24,
            lds_limit: 64 * 1024,
            max_resident_workgroups: 16,
            quantum: 256,
            keep_finished_waves: false,
            fast_paths: true,
            jit: jit::default_on(),
            jit_threshold: jit::default_threshold(),
            jit_process_threshold: jit::default_process_threshold(),
        }
    }
}

/// An invalid [`GoldenConfig`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("invalid golden GPU configuration: {0}")]
pub struct ConfigError(String);

/// A dispatch in flight.
#[derive(Debug)]
struct DispatchState {
    env: DispatchEnv,
    /// Next workgroup (linear index) to launch.
    next_workgroup: u64,
    /// Workgroups launched and not yet finished.
    live_workgroups: u64,
}

/// A resident workgroup.
#[derive(Debug)]
struct Workgroup {
    /// Dispatch number (key into `GoldenGpu::dispatches`).
    dispatch: u32,
    waves: Vec<Wave>,
    lds: Vec<u8>,
}

/// The golden functional GPU.
#[derive(Debug)]
pub struct GoldenGpu {
    config: GoldenConfig,
    memory: Memory,
    programs: ProgramCache,
    channels: Vec<Channel>,
    /// Round-robin pointer: the channel served last.
    last_served: usize,
    /// Dispatches in flight, by number (oldest first).
    dispatches: BTreeMap<u32, DispatchState>,
    next_dispatch: u32,
    resident: Vec<Workgroup>,
    steps: u64,
    counters: Counters,
    fault: Option<Fault>,
    finished: Vec<Wave>,
    /// The earliest LDS access outside its allocation of a retired workgroup.
    lds_out_of_range: Option<LdsOutOfRange>,
    /// Workgroups launched and stepped by a lockstep harness ([`lockstep`]).
    lockstep: lockstep::Lockstep,
    /// The JIT, when [`GoldenConfig::jit`] is on.
    jit: Option<jit::Jit>,
}

/// What a scheduling round did.
struct Round {
    executed: u64,
}

impl GoldenGpu {
    /// A GPU with nothing mapped, every channel disabled.
    pub fn new(config: GoldenConfig) -> Result<GoldenGpu, ConfigError> {
        if !(1..=64).contains(&config.channels) {
            return Err(ConfigError(format!(
                "{} channels (1 to 64 are supported)",
                config.channels
            )));
        }
        if config.max_resident_workgroups == 0 || config.quantum == 0 {
            return Err(ConfigError(
                "max_resident_workgroups and quantum must be at least 1".into(),
            ));
        }
        if config.wave_instruction_budget == 0 {
            return Err(ConfigError(
                "the per-wave watchdog (wave_instruction_budget) must be at least 1".into(),
            ));
        }
        let jit = if config.jit {
            Some(
                jit::Jit::new(
                    config.jit_threshold,
                    config.jit_process_threshold,
                    config.fast_paths,
                )
                .map_err(|e| ConfigError(e.to_string()))?,
            )
        } else {
            None
        };
        Ok(GoldenGpu {
            jit,
            channels: (0..config.channels).map(|_| Channel::default()).collect(),
            memory: {
                let mut m = Memory::new();
                m.set_fast_paths(config.fast_paths);
                m
            },
            programs: ProgramCache::with_fast_paths(config.fast_paths),
            config,
            last_served: 0,
            dispatches: BTreeMap::new(),
            next_dispatch: 0,
            resident: Vec::new(),
            steps: 0,
            counters: Counters::default(),
            fault: None,
            finished: Vec::new(),
            lds_out_of_range: None,
            lockstep: lockstep::Lockstep::default(),
        })
    }

    /// The configuration.
    pub fn config(&self) -> &GoldenConfig {
        &self.config
    }

    /// Statistics since reset.
    pub fn stats(&self) -> GoldenStats {
        let mut stats = self.counters.snapshot(self.steps);
        stats.channels = self
            .channel_activity()
            .into_iter()
            .filter(|c| c.is_active())
            .collect();
        stats
    }

    /// What the JIT compiled and ran (`None` with the JIT off), with the
    /// instructions the interpreter ran outside compiled blocks.
    pub fn jit_stats(&self) -> Option<jit::JitStats> {
        let mut s = self.jit.as_ref()?.stats().clone();
        let total: u64 = self.counters.by_family.iter().sum();
        let in_blocks: u64 = s.native.iter().chain(&s.fallback).sum();
        s.interpreted = total.saturating_sub(in_blocks);
        Some(s)
    }

    /// The fault that stopped the device, if any.
    pub fn fault(&self) -> Option<&Fault> {
        self.fault.as_ref()
    }

    /// The final state of every wave that has ended, in the order they ended
    /// (only kept when [`GoldenConfig::keep_finished_waves`] is set).
    pub fn finished_waves(&self) -> &[Wave] {
        &self.finished
    }

    /// The waves currently resident (running, at a barrier, or ended in a
    /// workgroup that is still running), for state dumps; lockstep workgroups
    /// ([`GoldenGpu::launch_workgroup`]) come last.
    pub fn resident_waves(&self) -> impl Iterator<Item = &Wave> {
        self.resident
            .iter()
            .flat_map(|wg| &wg.waves)
            .chain(self.lockstep.waves())
    }

    /// Read-only access to device memory (for tests and state dumps).
    pub fn memory(&self) -> &Memory {
        &self.memory
    }

    /// True when no enabled channel has work and no dispatch is in flight.
    pub fn is_idle(&self) -> bool {
        self.dispatches.is_empty() && self.channels.iter().all(|c| !c.has_work())
    }

    fn stop(&mut self, fault: Fault) -> DeviceError {
        self.fault = Some(fault.clone());
        DeviceError::Fault(Box::new(fault))
    }

    fn word_holds(
        &self,
        address: u64,
        value: u32,
        compare: SemaphoreCompare,
    ) -> Result<bool, DeviceError> {
        let word = self
            .memory
            .read_u32(address)
            .map_err(|a| DeviceError::Unmapped { address: a, len: 4 })?;
        Ok(compare.holds(word, value))
    }

    /// Launches workgroups from the oldest dispatches until the residency limit.
    fn launch_workgroups(&mut self) {
        let limit = self.config.max_resident_workgroups as usize;
        for (&number, d) in self.dispatches.iter_mut() {
            while self.resident.len() < limit && d.next_workgroup < d.env.workgroup_count() {
                let waves = d.env.workgroup_waves(d.next_workgroup);
                d.next_workgroup += 1;
                d.live_workgroups += 1;
                self.counters.workgroups += 1;
                self.counters.waves += waves.len() as u64;
                self.resident.push(Workgroup {
                    dispatch: number,
                    waves,
                    lds: vec![0; d.env.lds_bytes as usize],
                });
            }
            if self.resident.len() >= limit {
                break;
            }
        }
    }

    /// Runs every resident wave for up to `quantum` instructions (never more than
    /// `limit` in total), then releases barriers and retires finished workgroups.
    fn schedule_round(&mut self, limit: u64) -> Result<Round, Fault> {
        let mut executed = 0u64;
        let quantum = u64::from(self.config.quantum);
        let wave_budget = self.config.wave_instruction_budget;
        for wg in self.resident.iter_mut() {
            let Some(d) = self.dispatches.get(&wg.dispatch) else {
                continue;
            };
            for wave in wg.waves.iter_mut() {
                if wave.status != WaveStatus::Running {
                    continue;
                }
                let wave_left = wave_budget.saturating_sub(wave.instructions);
                if wave_left == 0 {
                    // It wants one instruction more than its budget.
                    let (pc, target) = (wave.pc, wave.target);
                    let text = self.programs.fetch(target, pc, &self.memory).ok();
                    return Err(Fault {
                        wave: Some(wave.id),
                        pc: Some(pc),
                        instruction: text.map(|d| d.inst.to_string()),
                        ..Fault::at_step(
                            FaultKind::WaveWatchdog {
                                budget: wave_budget,
                            },
                            self.steps,
                        )
                    });
                }
                let allowed = quantum.min(limit - executed).min(wave_left);
                if allowed == 0 {
                    break;
                }
                executed += run_wave(
                    wave,
                    &mut wg.lds,
                    &d.env,
                    &mut self.memory,
                    &mut self.programs,
                    &mut self.counters,
                    &mut self.steps,
                    allowed,
                    self.jit.as_mut(),
                )?;
            }
            // Barrier: released once every wave that has not ended is waiting.
            if wg.waves.iter().any(|w| w.status == WaveStatus::Barrier)
                && wg.waves.iter().all(|w| w.status != WaveStatus::Running)
            {
                for w in wg
                    .waves
                    .iter_mut()
                    .filter(|w| w.status == WaveStatus::Barrier)
                {
                    w.status = WaveStatus::Running;
                }
            }
        }
        self.retire_workgroups()?;
        Ok(Round { executed })
    }

    /// Removes finished workgroups and completes finished dispatches.
    fn retire_workgroups(&mut self) -> Result<(), Fault> {
        let mut i = 0;
        while i < self.resident.len() {
            if self.resident[i]
                .waves
                .iter()
                .all(|w| w.status == WaveStatus::Ended)
            {
                let mut wg = self.resident.remove(i);
                for w in &mut wg.waves {
                    let record = w.lds_out_of_range.take().map(|b| *b);
                    self.lds_out_of_range =
                        LdsOutOfRange::earlier(self.lds_out_of_range.take(), record);
                }
                if self.config.keep_finished_waves {
                    self.finished.extend(wg.waves.iter().cloned());
                }
                let done = match self.dispatches.get_mut(&wg.dispatch) {
                    Some(d) => {
                        d.live_workgroups -= 1;
                        d.live_workgroups == 0 && d.next_workgroup == d.env.workgroup_count()
                    }
                    None => false,
                };
                if done {
                    self.complete_dispatch(wg.dispatch)?;
                }
            } else {
                i += 1;
            }
        }
        Ok(())
    }

    /// A dispatch's last wave ended: write its completion signal and forget it.
    fn complete_dispatch(&mut self, number: u32) -> Result<(), Fault> {
        let Some(d) = self.dispatches.remove(&number) else {
            return Ok(());
        };
        let signal = d.env.packet.completion_signal;
        if signal != 0 && self.memory.write_u32(signal, 1).is_err() {
            return Err(Fault::at_step(
                FaultKind::Command {
                    channel: d.env.channel,
                    entry: d.env.entry,
                    reason: format!(
                        "completion signal {signal:#x} of dispatch {number} is not mapped"
                    ),
                },
                self.steps,
            ));
        }
        Ok(())
    }

    /// Channels stuck on a semaphore, for [`RunStatus::Blocked`].
    fn blocked_channels(&self) -> Vec<BlockedChannel> {
        self.channels
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.blocked(i as u32, &self.memory))
            .collect()
    }

    /// The watchdog fault, naming the first wave that still wants to run.
    fn watchdog_fault(&mut self) -> Option<Fault> {
        let wave = self
            .resident
            .iter()
            .flat_map(|wg| &wg.waves)
            .find(|w| w.status == WaveStatus::Running)?;
        let (id, pc, target) = (wave.id, wave.pc, wave.target);
        let instruction = self
            .programs
            .fetch(target, pc, &self.memory)
            .ok()
            .map(|d| d.inst.to_string());
        let kind = FaultKind::Watchdog {
            budget: self.config.instruction_budget,
        };
        Some(Fault {
            wave: Some(id),
            pc: Some(pc),
            instruction,
            ..Fault::at_step(kind, self.steps)
        })
    }

    /// [`Device::run`] with `hook` called after every scheduling round (a
    /// bounded number of instructions per resident wave): for a progress
    /// indicator or an interruption check. A fault the hook returns stops
    /// the run as a fault of the GPU would.
    pub fn run_observed<H>(&mut self, until: RunUntil, hook: H) -> Result<RunStatus, DeviceError>
    where
        H: FnMut(&GoldenGpu) -> Result<(), Box<Fault>>,
    {
        if let Some(f) = &self.fault {
            return Err(DeviceError::Fault(Box::new(f.clone())));
        }
        self.run_inner(until, hook)
    }

    fn run_inner<H>(&mut self, until: RunUntil, mut hook: H) -> Result<RunStatus, DeviceError>
    where
        H: FnMut(&GoldenGpu) -> Result<(), Box<Fault>>,
    {
        let start = self.steps;
        let budget = self.config.instruction_budget;
        let mut executed = 0u64;
        loop {
            match until {
                RunUntil::Idle if self.is_idle() => return Ok(RunStatus::Done),
                RunUntil::Word {
                    address,
                    value,
                    compare,
                } if self.word_holds(address, value, compare)? => return Ok(RunStatus::Done),
                RunUntil::Cycles(n) if self.steps - start >= n => {
                    return Ok(RunStatus::BudgetExhausted)
                }
                RunUntil::Cycles(_) if self.is_idle() => return Ok(RunStatus::Done),
                _ => {}
            }
            let command_limit = match until {
                RunUntil::Cycles(n) => (start + n).saturating_sub(self.steps),
                _ => u64::MAX,
            };
            let commands = self
                .front_end_pass(command_limit)
                .map_err(|f| self.stop(f))?;
            self.launch_workgroups();
            let remaining = budget - executed;
            if remaining == 0 {
                if let Some(fault) = self.watchdog_fault() {
                    return Err(self.stop(fault));
                }
            }
            let mut limit = remaining;
            if let RunUntil::Cycles(n) = until {
                limit = limit.min((start + n).saturating_sub(self.steps));
            }
            let round = self.schedule_round(limit).map_err(|f| self.stop(f))?;
            executed += round.executed;
            hook(self).map_err(|f| self.stop(*f))?;
            if commands == 0 && round.executed == 0 && self.resident.is_empty() {
                // Nothing moved and nothing can: report instead of spinning.
                if self.is_idle() {
                    return Ok(match until {
                        RunUntil::Word { .. } => RunStatus::Blocked(Vec::new()),
                        _ => RunStatus::Done,
                    });
                }
                return Ok(RunStatus::Blocked(self.blocked_channels()));
            }
        }
    }
}

/// Runs one wave for up to `limit` instructions; returns how many it executed.
/// Also lockstep's way to execute one instruction ([`GoldenGpu::step_wave`],
/// `limit` 1): one call site fewer for the interpreter's hot functions than a
/// separate per-instruction function, which keeps them inlined here.
#[allow(clippy::too_many_arguments)]
fn run_wave(
    wave: &mut Wave,
    lds: &mut [u8],
    env: &DispatchEnv,
    memory: &mut Memory,
    programs: &mut ProgramCache,
    counters: &mut Counters,
    steps: &mut u64,
    limit: u64,
    mut jit: Option<&mut jit::Jit>,
) -> Result<u64, Fault> {
    let mut n = 0;
    let (target, bits) = (wave.target, program::target_bits(wave.target));
    // At a block start (the wave's first instruction here, a jump target, the
    // end of a compiled block): where the JIT may take over.
    let mut block_start = true;
    while n < limit && wave.status == WaveStatus::Running {
        if block_start {
            if let Some(j) = jit.as_deref_mut() {
                let ran = j.enter(wave, lds, env, memory, programs, counters, steps, limit - n)?;
                if ran > 0 {
                    n += ran;
                    continue;
                }
            }
            block_start = false;
        }
        let pc = wave.pc;
        let decoded = match programs.fetch_tagged(target, bits, pc, memory) {
            Ok(d) => d,
            Err(f) => return Err(locate(f, wave, pc, None, *steps)),
        };
        let inst = &decoded.inst;
        // Lanes at issue (a scalar instruction counts one).
        let lanes = if decoded.vector {
            u64::from(wave.exec().count_ones())
        } else {
            1
        };
        if let Some(flow) = exec::lowered::execute(wave, &decoded.lowered) {
            // A lowered instruction: the same bookkeeping as below (a lowered
            // instruction never waits at a barrier or ends the wave).
            counters.by_family[inst.family as usize] += 1;
            counters.active_lanes += lanes;
            *steps += 1;
            n += 1;
            wave.pc = match flow {
                Flow::Jump(target) => {
                    block_start = true;
                    target
                }
                _ => pc.wrapping_add(u64::from(inst.size)),
            };
            continue;
        }
        let mut ctx = WaveCtx {
            wave,
            mem: memory,
            lds,
            env,
            pc,
            now: *steps,
        };
        let flow = match exec::execute(&mut ctx, inst) {
            Ok(flow) => flow,
            Err(f) => return Err(locate(f, wave, pc, Some(inst.to_string()), *steps)),
        };
        counters.by_family[inst.family as usize] += 1;
        counters.active_lanes += lanes;
        *steps += 1;
        n += 1;
        match flow {
            Flow::Next => wave.pc = pc.wrapping_add(u64::from(inst.size)),
            Flow::Jump(target) => {
                wave.pc = target;
                block_start = true;
            }
            Flow::Barrier => {
                wave.pc = pc.wrapping_add(u64::from(inst.size));
                wave.status = WaveStatus::Barrier;
            }
            Flow::End => wave.status = WaveStatus::Ended,
        }
    }
    wave.instructions += n;
    Ok(n)
}

/// Fills in where a fault happened.
fn locate(mut f: Fault, wave: &Wave, pc: u64, text: Option<String>, now: u64) -> Fault {
    f.wave.get_or_insert(wave.id);
    f.pc.get_or_insert(pc);
    if f.instruction.is_none() {
        f.instruction = text;
    }
    f.cycle = now;
    f
}

fn map_error(base: u64, size: u64, e: MapError) -> DeviceError {
    DeviceError::bad_mapping(base, size, e)
}

impl Device for GoldenGpu {
    fn isa(&self) -> Isa {
        self.config.isa
    }

    fn map(&mut self, base: u64, size: u64) -> Result<(), DeviceError> {
        self.memory
            .map(base, size)
            .map_err(|e| map_error(base, size, e))?;
        self.programs.invalidate(base, size);
        if let Some(j) = &mut self.jit {
            j.invalidate(base, size);
        }
        Ok(())
    }

    fn unmap(&mut self, base: u64) -> Result<(), DeviceError> {
        let size = self
            .memory
            .mappings()
            .find(|&(b, _)| b == base)
            .map_or(0, |(_, s)| s);
        self.memory.unmap(base).map_err(|e| map_error(base, 0, e))?;
        self.programs.invalidate(base, size);
        if let Some(j) = &mut self.jit {
            j.invalidate(base, size);
        }
        Ok(())
    }

    fn read(&self, address: u64, out: &mut [u8]) -> Result<(), DeviceError> {
        self.memory
            .read(address, out)
            .map_err(|_| DeviceError::Unmapped {
                address,
                len: out.len() as u64,
            })
    }

    fn write(&mut self, address: u64, data: &[u8]) -> Result<(), DeviceError> {
        self.memory
            .write(address, data)
            .map_err(|_| DeviceError::Unmapped {
                address,
                len: data.len() as u64,
            })?;
        self.programs.invalidate(address, data.len() as u64);
        if let Some(j) = &mut self.jit {
            j.invalidate(address, data.len() as u64);
        }
        Ok(())
    }

    fn mmio_read(&mut self, offset: u32) -> Result<u32, DeviceError> {
        self.mmio_read_reg(offset)
    }

    fn mmio_write(&mut self, offset: u32, value: u32) -> Result<(), DeviceError> {
        self.mmio_write_reg(offset, value)
    }

    fn run(&mut self, until: RunUntil) -> Result<RunStatus, DeviceError> {
        self.run_observed(until, |_| Ok(()))
    }

    /// The earliest out-of-range LDS access, of retired workgroups and of
    /// the waves still resident (a run that stopped early).
    fn lds_out_of_range(&self) -> Option<LdsOutOfRange> {
        let resident = self.resident.iter().flat_map(|wg| &wg.waves);
        resident
            .chain(self.lockstep.waves())
            .filter_map(|w| w.lds_out_of_range.as_deref().cloned())
            .fold(self.lds_out_of_range.clone(), |a, b| {
                LdsOutOfRange::earlier(a, Some(b))
            })
    }

    fn now(&self) -> u64 {
        self.steps
    }
}
