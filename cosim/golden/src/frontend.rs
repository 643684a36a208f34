//! The front end: MMIO registers, channels and command processing, exactly as
//! seed 001 §3 describes a standard channel.
//!
//! * Pending entries are `[GP_GET, GP_PUT)` modulo `Q`; the entry at GP_PUT is
//!   never processed. An entry is read from memory only when the front end starts
//!   it (GPU-owned channels write entries after GP_PUT already covers them).
//! * An entry's command block runs command by command; GP_GET advances (wrapping
//!   to 0 at `Q`) when the last command of the block has completed.
//! * One command is processed per front-end step. Each step serves the channel
//!   with the highest CH_PRIORITY among those that can make progress; equal
//!   priorities take turns (round-robin, starting after the channel served last).
//! * A semaphore acquire that does not hold blocks its channel (CH_STATE =
//!   SEMAPHORE) and is re-checked on every pass; WAIT_FOR_IDLE waits until every
//!   dispatch issued before it (on any channel) has completed.
//! * A malformed entry or command stops the device with a `Command` fault naming
//!   the channel and entry; the reason names the block address and the dword
//!   offset inside the block (a GPU-written block is usually the culprit).
//!
//! GPU-owned channels (seed 001 method 400) need nothing special here: the
//! driver programs GP_GET = g0 (any g0 < Q) and GP_PUT = wrap(g0 − 1) while the
//! channel is disabled, and enables it; the channel then looks full, and every
//! entry is guarded by a semaphore acquire in the entry before it. Semaphores
//! follow the epoch rule of `docs/work-creation.md`: releases write a launch
//! number, acquires compare with `≥`, so an acquire of the next epoch blocks
//! again after the previous one was released.
//!
//! Per-channel activity (entries processed, GP_GET history, acquire and idle
//! waits) is kept in [`ChannelActivity`].

use arch::command::{ChannelEntry, Command, SemaphoreCompare, ENTRY_BYTES};
use arch::device::{BlockedChannel, DeviceError, Fault, FaultKind};
use arch::isa::Isa;
use arch::mmio::{self, wrap};

use super::channel_activity::ChannelActivity;
use super::dispatch;
use super::memory::Memory;
use super::{DispatchState, GoldenGpu};

/// The entry a channel is working on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ActiveEntry {
    /// Command block address.
    block: u64,
    /// Block length in dwords.
    len: u32,
    /// Next command's dword offset in the block.
    cursor: u32,
    /// While in a WAIT_FOR_IDLE: dispatches numbered below this must complete.
    wait_below: Option<u32>,
}

/// A semaphore acquire the channel is stuck on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Waiting {
    address: u64,
    payload: u32,
    compare: SemaphoreCompare,
}

/// One channel's registers and progress.
#[derive(Clone, Debug, Default)]
pub(super) struct Channel {
    base: u64,
    size: u32,
    priority: u32,
    gp_get: u32,
    gp_put: u32,
    enabled: bool,
    state: u32,
    active: Option<ActiveEntry>,
    waiting: Option<Waiting>,
    /// The step at which the current acquire or WAIT_FOR_IDLE first failed.
    stalled_since: Option<u64>,
    activity: ChannelActivity,
}

impl Channel {
    /// True when the channel is enabled and has an entry pending or in progress.
    pub(super) fn has_work(&self) -> bool {
        self.enabled && self.size > 0 && (self.active.is_some() || self.gp_get != self.gp_put)
    }

    /// The report for a channel stuck on a semaphore.
    pub(super) fn blocked(&self, channel: u32, mem: &Memory) -> Option<BlockedChannel> {
        if !self.enabled {
            return None;
        }
        let w = self.waiting?;
        Some(BlockedChannel {
            channel,
            entry: self.gp_get,
            address: w.address,
            payload: w.payload,
            compare: w.compare,
            current: mem.read_u32(w.address).unwrap_or(0),
        })
    }
}

/// Result of trying to advance a channel by one command.
enum Step {
    Progress,
    Stuck,
}

fn mmio_error(offset: u32, reason: impl Into<String>) -> DeviceError {
    DeviceError::Mmio {
        offset,
        reason: reason.into(),
    }
}

impl GoldenGpu {
    fn status(&self) -> u32 {
        let busy = !self.is_idle();
        (u32::from(busy) * mmio::STATUS_BUSY)
            | (u32::from(self.fault.is_some()) * mmio::STATUS_FAULT)
    }

    fn channel_reg(&mut self, offset: u32) -> Result<(usize, u32), DeviceError> {
        if offset % 4 != 0 {
            return Err(mmio_error(offset, "MMIO offsets are 4-byte aligned"));
        }
        let (ch, reg) = mmio::split_channel_reg(offset)
            .ok_or_else(|| mmio_error(offset, "no register at this offset"))?;
        if ch >= self.config.channels {
            return Err(mmio_error(
                offset,
                format!(
                    "channel {ch} does not exist (the device has {})",
                    self.config.channels
                ),
            ));
        }
        Ok((ch as usize, reg))
    }

    /// Reads an MMIO register.
    pub(super) fn mmio_read_reg(&mut self, offset: u32) -> Result<u32, DeviceError> {
        Ok(match offset {
            mmio::GPU_ID => match self.config.isa {
                Isa::Gfx1030 => mmio::GPU_ID_GFX1030,
                Isa::Gfx803 => mmio::GPU_ID_GFX803,
            },
            mmio::STATUS => self.status(),
            mmio::CHANNEL_COUNT => self.config.channels,
            mmio::CYCLE_LO => self.steps as u32,
            mmio::CYCLE_HI => (self.steps >> 32) as u32,
            _ => {
                let (ch, reg) = self.channel_reg(offset)?;
                let c = &self.channels[ch];
                match reg {
                    mmio::CH_BASE_LO => c.base as u32,
                    mmio::CH_BASE_HI => (c.base >> 32) as u32,
                    mmio::CH_SIZE => c.size,
                    mmio::CH_PRIORITY => c.priority,
                    mmio::CH_GP_GET => c.gp_get,
                    mmio::CH_GP_PUT => c.gp_put,
                    mmio::CH_CONTROL => u32::from(c.enabled) * mmio::CH_CONTROL_ENABLE,
                    mmio::CH_STATE => c.state,
                    _ => return Err(mmio_error(offset, "no register at this offset")),
                }
            }
        })
    }

    /// Writes an MMIO register.
    pub(super) fn mmio_write_reg(&mut self, offset: u32, value: u32) -> Result<(), DeviceError> {
        if matches!(
            offset,
            mmio::GPU_ID | mmio::STATUS | mmio::CHANNEL_COUNT | mmio::CYCLE_LO | mmio::CYCLE_HI
        ) {
            return Err(mmio_error(offset, "the register is read-only"));
        }
        let (ch, reg) = self.channel_reg(offset)?;
        let c = &mut self.channels[ch];
        let disabled_only = |c: &Channel, what: &str| {
            if c.enabled {
                Err(mmio_error(
                    offset,
                    format!(
                        "channel {ch}: {what} may only be written while the channel is disabled"
                    ),
                ))
            } else {
                Ok(())
            }
        };
        match reg {
            mmio::CH_BASE_LO => {
                disabled_only(c, "CH_BASE_LO")?;
                c.base = (c.base & !0xffff_ffff) | u64::from(value);
            }
            mmio::CH_BASE_HI => {
                disabled_only(c, "CH_BASE_HI")?;
                c.base = (c.base & 0xffff_ffff) | (u64::from(value) << 32);
            }
            mmio::CH_SIZE => {
                disabled_only(c, "CH_SIZE")?;
                c.size = value;
            }
            mmio::CH_PRIORITY => c.priority = value,
            mmio::CH_GP_GET => {
                disabled_only(c, "CH_GP_GET")?;
                if c.size > 0 && value >= c.size {
                    return Err(mmio_error(
                        offset,
                        format!(
                            "channel {ch}: GP_GET {value} is not below the ring size {}",
                            c.size
                        ),
                    ));
                }
                c.gp_get = value;
                // A new g0 abandons any partly processed entry.
                c.active = None;
                c.waiting = None;
                c.stalled_since = None;
            }
            mmio::CH_GP_PUT => {
                if c.size > 0 && value >= c.size {
                    return Err(mmio_error(
                        offset,
                        format!(
                            "channel {ch}: GP_PUT {value} is not below the ring size {}",
                            c.size
                        ),
                    ));
                }
                c.gp_put = value;
            }
            mmio::CH_CONTROL => {
                if value & !mmio::CH_CONTROL_ENABLE != 0 {
                    return Err(mmio_error(
                        offset,
                        format!("channel {ch}: undefined CH_CONTROL bits in {value:#x}"),
                    ));
                }
                let enable = value & mmio::CH_CONTROL_ENABLE != 0;
                if enable && (c.size == 0 || c.gp_get >= c.size || c.gp_put >= c.size) {
                    return Err(mmio_error(
                        offset,
                        format!(
                            "channel {ch}: cannot enable with size {}, GP_GET {}, GP_PUT {}",
                            c.size, c.gp_get, c.gp_put
                        ),
                    ));
                }
                if enable && c.base % ENTRY_BYTES != 0 {
                    return Err(mmio_error(
                        offset,
                        format!(
                            "channel {ch}: ring base {:#x} is not 8-byte aligned",
                            c.base
                        ),
                    ));
                }
                c.enabled = enable;
            }
            mmio::CH_STATE => return Err(mmio_error(offset, "CH_STATE is read-only")),
            _ => return Err(mmio_error(offset, "no register at this offset")),
        }
        Ok(())
    }

    /// Processes commands (at most `limit`) until no channel can make progress;
    /// returns how many were processed.
    pub(super) fn front_end_pass(&mut self, limit: u64) -> Result<u64, Fault> {
        let n = self.channels.len();
        let mut done = 0u64;
        while done < limit {
            // Arbitration order: priority first, then round-robin after `last_served`.
            let mut order: Vec<usize> = (0..n).filter(|&i| self.channels[i].has_work()).collect();
            if order.is_empty() {
                break;
            }
            let last = self.last_served;
            order.sort_by_key(|&i| {
                (
                    std::cmp::Reverse(self.channels[i].priority),
                    (i + n - last - 1) % n,
                )
            });
            let mut progressed = false;
            for ch in order {
                let step = match self.step_channel(ch) {
                    Ok(step) => step,
                    Err(f) => {
                        self.channels[ch].state = mmio::CH_STATE_ERROR;
                        return Err(f);
                    }
                };
                if let Step::Progress = step {
                    self.last_served = ch;
                    self.steps += 1;
                    self.counters.commands += 1;
                    done += 1;
                    progressed = true;
                    break;
                }
            }
            if !progressed {
                break;
            }
        }
        Ok(done)
    }

    fn command_fault(&self, ch: usize, reason: String) -> Fault {
        Fault::at_step(
            FaultKind::Command {
                channel: ch as u32,
                entry: self.channels[ch].gp_get,
                reason,
            },
            self.steps,
        )
    }

    fn set_state(&mut self, ch: usize, state: u32) {
        self.channels[ch].state = state;
    }

    /// Advances channel `ch` by one command (fetching its entry first if needed).
    fn step_channel(&mut self, ch: usize) -> Result<Step, Fault> {
        let c = &self.channels[ch];
        let active = match c.active {
            Some(a) => a,
            None => {
                let at = c.base + u64::from(c.gp_get) * ENTRY_BYTES;
                let bits = self.memory.read_u64(at).map_err(|_| {
                    self.command_fault(ch, format!("channel entry at {at:#x} is not mapped"))
                })?;
                let entry = ChannelEntry::from_bits(bits).map_err(|e| {
                    self.command_fault(ch, format!("entry {bits:#018x} at {at:#x}: {e}"))
                })?;
                let gp_get = self.channels[ch].gp_get;
                let activity = &mut self.channels[ch].activity;
                if activity.gp_get_history.last() != Some(&gp_get) {
                    activity.record_gp_get(gp_get);
                }
                let a = ActiveEntry {
                    block: entry.address.into(),
                    len: u32::from(entry.length_dwords),
                    cursor: 0,
                    wait_below: None,
                };
                self.channels[ch].active = Some(a);
                self.set_state(ch, mmio::CH_STATE_RUNNING);
                a
            }
        };
        let at = active.block + u64::from(active.cursor) * 4;
        // Every command fault names the block and the dword offset inside it.
        let place = |offset: u32| {
            format!(
                "block {:#x} ({} dwords), offset {offset} dwords",
                active.block, active.len
            )
        };
        let header = self.memory.read_u32(at).map_err(|_| {
            self.command_fault(
                ch,
                format!("{}: command at {at:#x} is not mapped", place(active.cursor)),
            )
        })?;
        let need = (1 + (header >> 16)).min(active.len - active.cursor) as usize;
        let mut words = vec![0u32; need];
        for (i, w) in words.iter_mut().enumerate() {
            let a = at + 4 * i as u64;
            *w = self.memory.read_u32(a).map_err(|_| {
                self.command_fault(
                    ch,
                    format!(
                        "{}: command block word at {a:#x} is not mapped",
                        place(active.cursor + i as u32)
                    ),
                )
            })?;
        }
        let (command, used) = Command::read(&words).map_err(|e| {
            self.command_fault(
                ch,
                format!("{}: command at {at:#x}: {e}", place(active.cursor)),
            )
        })?;
        match command {
            Command::Nop { .. } => {}
            Command::Dispatch(packet) => {
                let number = self.next_dispatch;
                let entry = self.channels[ch].gp_get;
                let env = dispatch::prepare(
                    self.config.isa,
                    number,
                    (ch as u32, entry),
                    packet,
                    at + 4,
                    &self.memory,
                    self.config.lds_limit,
                )
                .map_err(|reason| {
                    self.command_fault(
                        ch,
                        format!("{}: dispatch at {at:#x}: {reason}", place(active.cursor)),
                    )
                })?;
                self.next_dispatch += 1;
                self.counters.dispatches += 1;
                self.channels[ch].activity.dispatches += 1;
                self.dispatches.insert(
                    number,
                    DispatchState {
                        env,
                        next_workgroup: 0,
                        live_workgroups: 0,
                    },
                );
            }
            Command::WaitForIdle => {
                let below = active.wait_below.unwrap_or(self.next_dispatch);
                if self.dispatches.range(..below).next().is_some() {
                    if let Some(a) = self.channels[ch].active.as_mut() {
                        a.wait_below = Some(below);
                    }
                    self.set_state(ch, mmio::CH_STATE_WAIT_IDLE);
                    self.stall(ch, false);
                    return Ok(Step::Stuck);
                }
                self.unstall(ch, false);
            }
            Command::SemaphoreAcquire {
                address,
                payload,
                compare,
            } => {
                let word = self.memory.read_u32(address).map_err(|_| {
                    self.command_fault(
                        ch,
                        format!(
                            "{}: semaphore {address:#x} is not mapped",
                            place(active.cursor)
                        ),
                    )
                })?;
                let holds = compare.holds(word, payload);
                if !holds {
                    self.channels[ch].waiting = Some(Waiting {
                        address,
                        payload,
                        compare,
                    });
                    self.set_state(ch, mmio::CH_STATE_SEMAPHORE);
                    self.stall(ch, true);
                    return Ok(Step::Stuck);
                }
                self.unstall(ch, true);
                self.channels[ch].activity.acquires += 1;
            }
            Command::SemaphoreRelease { address, payload } => {
                self.memory.write_u32(address, payload).map_err(|_| {
                    self.command_fault(
                        ch,
                        format!(
                            "{}: semaphore {address:#x} is not mapped",
                            place(active.cursor)
                        ),
                    )
                })?;
                self.channels[ch].activity.releases += 1;
            }
        }
        let c = &mut self.channels[ch];
        c.waiting = None;
        c.state = mmio::CH_STATE_RUNNING;
        c.activity.commands += 1;
        let cursor = active.cursor + used as u32;
        if cursor >= active.len {
            // The block is complete: the entry retires and GP_GET moves on.
            c.active = None;
            c.gp_get = wrap(i64::from(c.gp_get) + 1, c.size);
            c.activity.entries_processed += 1;
            c.activity.record_gp_get(c.gp_get);
            if c.gp_get == c.gp_put {
                c.state = mmio::CH_STATE_IDLE;
            }
        } else {
            c.active = Some(ActiveEntry {
                cursor,
                wait_below: None,
                ..active
            });
        }
        Ok(Step::Progress)
    }
}

impl GoldenGpu {
    /// Notes that channel `ch` could not complete its acquire (`acquire`) or
    /// WAIT_FOR_IDLE; the first failure starts the wait clock.
    fn stall(&mut self, ch: usize, acquire: bool) {
        let now = self.steps;
        let c = &mut self.channels[ch];
        if c.stalled_since.is_none() {
            c.stalled_since = Some(now);
            if acquire {
                c.activity.acquires_waited += 1;
            } else {
                c.activity.idle_waits += 1;
            }
        }
    }

    /// The acquire or WAIT_FOR_IDLE of channel `ch` completed: stop its clock.
    fn unstall(&mut self, ch: usize, acquire: bool) {
        let now = self.steps;
        let c = &mut self.channels[ch];
        if let Some(since) = c.stalled_since.take() {
            let waited = now.saturating_sub(since);
            if acquire {
                c.activity.acquire_wait_steps += waited;
            } else {
                c.activity.idle_wait_steps += waited;
            }
        }
    }

    /// Every channel's front-end activity since reset, indexed by channel.
    pub fn channel_activity(&self) -> Vec<ChannelActivity> {
        self.channels
            .iter()
            .enumerate()
            .map(|(i, c)| ChannelActivity {
                channel: i as u32,
                ..c.activity.clone()
            })
            .collect()
    }
}
