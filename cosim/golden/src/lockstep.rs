//! Stepping the golden GPU one wave instruction at a time, for lockstep
//! co-simulation with the clocked GPU.
//!
//! In lockstep the clocked model drives and the golden model follows: the
//! harness mirrors what the clocked model reports (its `hw::event::Event`s)
//! into the calls below, bypassing the golden front end and scheduler.
//!
//! ```text
//! Event::Dispatch      ─► prepare_dispatch      (the packet is read from golden memory)
//! Event::WaveLaunch    ─► launch_workgroup      (once per workgroup; all its waves)
//! Event::Issue/Retire  ─► step_wave             (one instruction, same path as run)
//! workgroup done       ─► release_workgroup
//! Event::FrontEndWrite ─► Device::write         (signals and semaphore releases)
//! dispatch done        ─► complete_dispatch_silently
//! ```
//!
//! Barriers are the clocked model's business: stepping `s_barrier` is one
//! instruction here and the wave can be stepped again right away (the harness
//! steps in the clocked model's order, which respects the barrier). A wave that
//! ends stays readable until its workgroup is released. A lockstep dispatch is
//! never touched by [`Device::run`](arch::device::Device::run)'s scheduler, and
//! its completion signal is never written by the golden model.

use std::collections::{BTreeMap, BTreeSet};

use arch::command::{DispatchPacket, DISPATCH_PACKET_DWORDS};
use arch::device::{Fault, FaultKind, WaveId};
use arch::isa::Instruction;
use thiserror::Error;

use super::dispatch::{self, DispatchEnv};
use super::exec::Flow;
use super::wave::{Wave, WaveStatus};
use super::{run_wave, DispatchState, GoldenGpu};

/// One instruction executed by [`GoldenGpu::step_wave`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stepped {
    /// Byte address of the instruction.
    pub pc: u64,
    /// The instruction.
    pub inst: Instruction,
    /// Per-wave sequence number (0 = the wave's first instruction), as in the
    /// clocked model's `Retire::seq`.
    pub seq: u64,
    /// EXEC at issue (bits above the wave size are zero).
    pub exec: u64,
    /// What it did to the control flow: [`Flow::End`] (`s_endpgm`),
    /// [`Flow::Barrier`] (`s_barrier`), [`Flow::Jump`] when the next pc is not
    /// the fall-through, else [`Flow::Next`].
    pub flow: Flow,
    /// The wave's pc afterwards (unchanged by `s_endpgm`).
    pub next_pc: u64,
}

impl Stepped {
    /// The instruction ended the wave (`s_endpgm`).
    pub fn ended(&self) -> bool {
        self.flow == Flow::End
    }

    /// The instruction was `s_barrier`.
    pub fn barrier(&self) -> bool {
        self.flow == Flow::Barrier
    }

    /// The instruction moved the pc somewhere other than the next instruction
    /// (a taken branch, `s_setpc`, ...; a branch to the next instruction
    /// counts as not jumping).
    pub fn jumped(&self) -> bool {
        matches!(self.flow, Flow::Jump(_))
    }
}

/// Why a lockstep call failed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LockstepError {
    /// The golden model faulted, as [`Device::run`](arch::device::Device::run)
    /// would have (also recorded in [`GoldenGpu::fault`]).
    #[error("{0}")]
    Fault(Box<Fault>),
    /// [`GoldenGpu::prepare_dispatch`] with a number already in flight.
    #[error("dispatch {0} is already in flight")]
    DispatchExists(u32),
    /// No lockstep dispatch has this number.
    #[error("dispatch {0} was not prepared for lockstep (or is complete)")]
    UnknownDispatch(u32),
    /// The workgroup id is outside the dispatch's grid.
    #[error(
        "dispatch {dispatch} has no workgroup {workgroup:?} (its grid is {grid:?} workgroups)"
    )]
    NoSuchWorkgroup {
        /// Dispatch number.
        dispatch: u32,
        /// The id asked for.
        workgroup: [u32; 3],
        /// Workgroups per dimension.
        grid: [u32; 3],
    },
    /// [`GoldenGpu::launch_workgroup`] of a workgroup that is resident.
    #[error("workgroup {workgroup:?} of dispatch {dispatch} is already resident")]
    WorkgroupExists {
        /// Dispatch number.
        dispatch: u32,
        /// Workgroup id.
        workgroup: [u32; 3],
    },
    /// The workgroup is not resident.
    #[error("workgroup {workgroup:?} of dispatch {dispatch} is not resident")]
    UnknownWorkgroup {
        /// Dispatch number.
        dispatch: u32,
        /// Workgroup id.
        workgroup: [u32; 3],
    },
    /// No resident wave has this id.
    #[error("{0} is not resident")]
    UnknownWave(WaveId),
    /// [`GoldenGpu::step_wave`] of a wave that has executed `s_endpgm`.
    #[error("{0} has ended")]
    WaveEnded(WaveId),
    /// [`GoldenGpu::release_workgroup`] while a wave has not ended.
    #[error("{0} has not ended (at pc {1:#x})")]
    WaveNotEnded(WaveId, u64),
    /// [`GoldenGpu::complete_dispatch_silently`] while workgroups are resident.
    #[error("dispatch {dispatch} still has {resident} resident workgroups")]
    WorkgroupsResident {
        /// Dispatch number.
        dispatch: u32,
        /// Workgroups not yet released.
        resident: usize,
    },
}

impl From<Fault> for LockstepError {
    fn from(f: Fault) -> LockstepError {
        LockstepError::Fault(Box::new(f))
    }
}

/// A workgroup launched by the harness.
#[derive(Debug)]
struct LockWorkgroup {
    waves: Vec<Wave>,
    /// Instructions each wave has executed (the next one's sequence number).
    executed: Vec<u64>,
    lds: Vec<u8>,
}

/// The lockstep side of a [`GoldenGpu`]: its dispatches and workgroups.
#[derive(Debug, Default)]
pub(super) struct Lockstep {
    /// Dispatches prepared by [`GoldenGpu::prepare_dispatch`] (their state is in
    /// `GoldenGpu::dispatches`, like the front end's).
    dispatches: BTreeSet<u32>,
    /// Resident workgroups by (dispatch, workgroup id).
    workgroups: BTreeMap<(u32, [u32; 3]), LockWorkgroup>,
}

impl Lockstep {
    /// Every wave of every resident lockstep workgroup, in (dispatch,
    /// workgroup, wave) order.
    pub(super) fn waves(&self) -> impl Iterator<Item = &Wave> {
        self.workgroups.values().flat_map(|wg| &wg.waves)
    }
}

impl GoldenGpu {
    /// Reads the DISPATCH packet (16 dwords) at `packet_address` in device
    /// memory and prepares dispatch `number` exactly as the front end does for
    /// a DISPATCH command of `channel`'s entry `entry` whose payload is there
    /// (same checks, same [`DispatchEnv`]). No workgroup is launched: see
    /// [`GoldenGpu::launch_workgroup`]. A bad packet or kernel descriptor is a
    /// `Command` fault, as from the front end.
    pub fn prepare_dispatch(
        &mut self,
        number: u32,
        channel: u32,
        entry: u32,
        packet_address: u64,
    ) -> Result<(), LockstepError> {
        if self.dispatches.contains_key(&number) {
            return Err(LockstepError::DispatchExists(number));
        }
        let command_fault = |gpu: &mut GoldenGpu, reason: String| {
            gpu.lockstep_fault(Fault::at_step(
                FaultKind::Command {
                    channel,
                    entry,
                    reason,
                },
                gpu.steps,
            ))
        };
        let mut words = [0u32; DISPATCH_PACKET_DWORDS as usize];
        for (i, w) in words.iter_mut().enumerate() {
            let a = packet_address.wrapping_add(4 * i as u64);
            match self.memory.read_u32(a) {
                Ok(v) => *w = v,
                Err(_) => {
                    let reason = format!("dispatch packet word at {a:#x} is not mapped");
                    return Err(command_fault(self, reason));
                }
            }
        }
        // The front end names the command by its header, one dword before the payload.
        let at = packet_address.wrapping_sub(4);
        let packet = match DispatchPacket::from_dwords(&words) {
            Ok(p) => p,
            Err(e) => return Err(command_fault(self, format!("command at {at:#x}: {e}"))),
        };
        let env = match dispatch::prepare(
            self.config.isa,
            number,
            (channel, entry),
            packet,
            packet_address,
            &self.memory,
            self.config.lds_limit,
        ) {
            Ok(env) => env,
            Err(reason) => {
                return Err(command_fault(
                    self,
                    format!("dispatch at {at:#x}: {reason}"),
                ));
            }
        };
        self.counters.dispatches += 1;
        self.next_dispatch = self.next_dispatch.max(number.wrapping_add(1));
        let count = env.workgroup_count();
        self.dispatches.insert(
            number,
            DispatchState {
                env,
                // Nothing left for the scheduler to launch: the harness launches.
                next_workgroup: count,
                live_workgroups: 0,
            },
        );
        self.lockstep.dispatches.insert(number);
        Ok(())
    }

    /// Launches workgroup `workgroup` of lockstep dispatch `dispatch`: its waves
    /// with the initial registers the dispatcher gives them and its zeroed
    /// LDS. Returns the number of waves (ids `0..n` of the workgroup).
    pub fn launch_workgroup(
        &mut self,
        dispatch: u32,
        workgroup: [u32; 3],
    ) -> Result<u32, LockstepError> {
        let d = self
            .dispatches
            .get_mut(&dispatch)
            .filter(|_| self.lockstep.dispatches.contains(&dispatch))
            .ok_or(LockstepError::UnknownDispatch(dispatch))?;
        let grid = d.env.workgroups;
        if workgroup.iter().zip(&grid).any(|(&id, &n)| id >= n) {
            return Err(LockstepError::NoSuchWorkgroup {
                dispatch,
                workgroup,
                grid,
            });
        }
        let key = (dispatch, workgroup);
        if self.lockstep.workgroups.contains_key(&key) {
            return Err(LockstepError::WorkgroupExists {
                dispatch,
                workgroup,
            });
        }
        let [x, y, z] = workgroup.map(u64::from);
        let [nx, ny, _] = grid.map(u64::from);
        let waves = d.env.workgroup_waves(x + nx * (y + ny * z));
        d.live_workgroups += 1;
        let n = waves.len();
        self.counters.workgroups += 1;
        self.counters.waves += n as u64;
        self.lockstep.workgroups.insert(
            key,
            LockWorkgroup {
                waves,
                executed: vec![0; n],
                lds: vec![0; d.env.lds_bytes as usize],
            },
        );
        Ok(n as u32)
    }

    /// Executes exactly one instruction of wave `id` through the same
    /// per-instruction path as [`Device::run`](arch::device::Device::run)
    /// (fast paths included), counting it in the statistics and the device's
    /// step counter. `s_barrier` does not hold the wave: it may be stepped
    /// again at once.
    pub fn step_wave(&mut self, id: WaveId) -> Result<Stepped, LockstepError> {
        let wg = self
            .lockstep
            .workgroups
            .get_mut(&(id.dispatch, id.workgroup))
            .ok_or(LockstepError::UnknownWave(id))?;
        let i = id.wave as usize;
        let (Some(wave), Some(executed)) = (wg.waves.get_mut(i), wg.executed.get_mut(i)) else {
            return Err(LockstepError::UnknownWave(id));
        };
        if wave.status == WaveStatus::Ended {
            return Err(LockstepError::WaveEnded(id));
        }
        // Launched workgroups keep their dispatch (complete_dispatch_silently
        // refuses while any is resident).
        let d = self
            .dispatches
            .get(&id.dispatch)
            .ok_or(LockstepError::UnknownDispatch(id.dispatch))?;
        let (pc, exec, seq) = (wave.pc, wave.exec(), *executed);
        // The instruction as the run loop will fetch it (decoding it now
        // fills the cache the run loop then hits; a fetch fault is reported
        // by the run loop, located like any other).
        let inst = self
            .programs
            .fetch(wave.target, pc, &self.memory)
            .ok()
            .map(|d| d.inst);
        let result = run_wave(
            wave,
            &mut wg.lds,
            &d.env,
            &mut self.memory,
            &mut self.programs,
            &mut self.counters,
            &mut self.steps,
            1,
            None,
        );
        let inst = match (result, inst) {
            (Ok(1), Some(inst)) => inst,
            (Err(f), _) => return Err(self.lockstep_fault(f)),
            // A running wave always executes its one instruction, and an
            // instruction that did not decode faults above.
            (Ok(_), _) => return Err(LockstepError::WaveEnded(id)),
        };
        *executed += 1;
        let flow = match wave.status {
            WaveStatus::Ended => Flow::End,
            WaveStatus::Barrier => {
                wave.status = WaveStatus::Running;
                Flow::Barrier
            }
            WaveStatus::Running if wave.pc == pc.wrapping_add(u64::from(inst.size)) => Flow::Next,
            WaveStatus::Running => Flow::Jump(wave.pc),
        };
        Ok(Stepped {
            pc,
            inst,
            seq,
            exec,
            flow,
            next_pc: wave.pc,
        })
    }

    /// Removes workgroup `workgroup` of `dispatch` once every wave of it has
    /// ended (kept in [`GoldenGpu::finished_waves`] when
    /// [`GoldenConfig::keep_finished_waves`](super::GoldenConfig::keep_finished_waves)
    /// is set).
    pub fn release_workgroup(
        &mut self,
        dispatch: u32,
        workgroup: [u32; 3],
    ) -> Result<(), LockstepError> {
        let key = (dispatch, workgroup);
        let wg = self
            .lockstep
            .workgroups
            .get(&key)
            .ok_or(LockstepError::UnknownWorkgroup {
                dispatch,
                workgroup,
            })?;
        if let Some(w) = wg.waves.iter().find(|w| w.status != WaveStatus::Ended) {
            return Err(LockstepError::WaveNotEnded(w.id, w.pc));
        }
        if let Some(mut wg) = self.lockstep.workgroups.remove(&key) {
            for w in &mut wg.waves {
                let record = w.lds_out_of_range.take().map(|b| *b);
                self.lds_out_of_range =
                    arch::device::LdsOutOfRange::earlier(self.lds_out_of_range.take(), record);
            }
            if self.config.keep_finished_waves {
                self.finished.extend(wg.waves);
            }
        }
        if let Some(d) = self.dispatches.get_mut(&dispatch) {
            d.live_workgroups -= 1;
        }
        Ok(())
    }

    /// Forgets lockstep dispatch `number` without writing its completion
    /// signal (the clocked front end writes it; the harness mirrors that write
    /// with [`Device::write`](arch::device::Device::write)). Every workgroup of
    /// it must have been released.
    pub fn complete_dispatch_silently(&mut self, number: u32) -> Result<(), LockstepError> {
        if !self.lockstep.dispatches.contains(&number) {
            return Err(LockstepError::UnknownDispatch(number));
        }
        let resident = self
            .lockstep
            .workgroups
            .range((number, [0; 3])..=(number, [u32::MAX; 3]))
            .count();
        if resident > 0 {
            return Err(LockstepError::WorkgroupsResident {
                dispatch: number,
                resident,
            });
        }
        self.lockstep.dispatches.remove(&number);
        self.dispatches.remove(&number);
        Ok(())
    }

    /// A resident lockstep wave (registers, pc, status), also after it ended
    /// until its workgroup is released.
    pub fn wave(&self, id: WaveId) -> Option<&Wave> {
        self.lockstep
            .workgroups
            .get(&(id.dispatch, id.workgroup))?
            .waves
            .get(id.wave as usize)
    }

    /// Mutable access to a resident lockstep wave, for a harness that must
    /// carry over a value the two models may legitimately disagree on (the
    /// step counter `s_memtime` and `SHADER_CYCLES` read is not the clocked
    /// model's cycle count).
    pub fn wave_mut(&mut self, id: WaveId) -> Option<&mut Wave> {
        self.lockstep
            .workgroups
            .get_mut(&(id.dispatch, id.workgroup))?
            .waves
            .get_mut(id.wave as usize)
    }

    /// Instructions wave `id` has executed through [`GoldenGpu::step_wave`]
    /// (the next one's sequence number).
    pub fn wave_instructions(&self, id: WaveId) -> Option<u64> {
        self.lockstep
            .workgroups
            .get(&(id.dispatch, id.workgroup))?
            .executed
            .get(id.wave as usize)
            .copied()
    }

    /// The LDS of a resident lockstep workgroup (its allocation, all bytes).
    pub fn lds(&self, dispatch: u32, workgroup: [u32; 3]) -> Option<&[u8]> {
        self.lockstep
            .workgroups
            .get(&(dispatch, workgroup))
            .map(|wg| wg.lds.as_slice())
    }

    /// What the golden model knows about dispatch `number` while it is in
    /// flight (grid, wave size, VGPRs per wave, LDS bytes, scratch layout).
    pub fn dispatch_env(&self, number: u32) -> Option<&DispatchEnv> {
        self.dispatches.get(&number).map(|d| &d.env)
    }

    /// Records a fault (as [`Device::run`](arch::device::Device::run) does
    /// when it stops) and wraps it.
    fn lockstep_fault(&mut self, f: Fault) -> LockstepError {
        self.fault = Some(f.clone());
        LockstepError::Fault(Box::new(f))
    }
}
