//! The front end (host interface and channels, seed 001 §3): MMIO channel
//! registers, GP_GET/GP_PUT, channel-entry fetch, command-block fetch and
//! parsing, semaphore acquire (with polling) and release, wait-for-idle,
//! completion signals and channel priority — the observable behaviour of
//! `docs/architecture.md` "The front end", now taking cycles.
//!
//! ```text
//!  stage 1  responses   entry / block / semaphore reads return from the memory
//!                       system's front-end port (tag = channel, kind, generation)
//!  stage 2  arbitrate   among enabled channels that can act this cycle: highest
//!                       CH_PRIORITY, ties round-robin after the channel served last
//!  stage 3  act         one action of the command processor: start an entry fetch,
//!                       or run one command (NOP, DISPATCH, WAIT_FOR_IDLE, ACQUIRE,
//!                       RELEASE), which keeps the processor busy `command_cycles`
//!  stage 4  outbox      one memory request per cycle onto the front-end port
//! ```
//!
//! Reads take their functional value when their response arrives (an entry is
//! read when the channel starts it, so GPU-written entries guarded by an
//! acquire work); writes (releases, completion signals) change memory when the
//! command runs and then travel through the memory system for their timing.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use arbitrary_int::u48;
use arch::command::DispatchPacket;
use arch::command::{ChannelEntry, Command, CommandOpcode, SemaphoreCompare, ENTRY_BYTES};
use arch::device::{BlockedChannel, DeviceError, Fault, FaultKind};
use arch::mmio;
use serde::{Deserialize, Serialize};

use crate::event::Event;
use crate::mem::backing::Backing;
use crate::mem::{Access, MemRequest, MemResponse, MemSystem, Unit};
use crate::stats::ChannelStats;

mod channel;

pub use channel::{ChannelRegs, Phase};

/// Parameters of the front end.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FrontEndConfig {
    /// Number of channels (1–64).
    pub channels: u32,
    /// Cycles the command processor spends on one command (parse and act).
    /// Default 4: a small microcoded processor; no public RDNA2 figure.
    pub command_cycles: u16,
    /// Cycles between re-reads of a semaphore whose acquire failed. Default 64.
    pub poll_interval: u16,
    /// Cycles the host needs to notice that the GPU finished something and
    /// submit the next work: completion seen by the CPU (interrupt or poll),
    /// the driver's submission, and the doorbell's MMIO write across PCIe.
    /// The GPU model itself never waits for it: host-side flows and the
    /// GPU-created-work latency comparison read it (`docs/performance.md`).
    /// Default 10 000: 5 µs at 2 GHz, the launch latency of a null kernel
    /// that has stayed at about 5 µs for a decade "regardless of hardware",
    /// attributed to PCIe latency (NVIDIA developer forum, "kernel launch
    /// latency", 2018; `docs/config.md` cites it).
    pub host_round_trip_cycles: u32,
}

impl Default for FrontEndConfig {
    fn default() -> Self {
        FrontEndConfig {
            channels: 4,
            command_cycles: 4,
            poll_interval: 64,
            host_round_trip_cycles: 10_000,
        }
    }
}

impl FrontEndConfig {
    /// Checks the values; the error names the field and the reason.
    pub fn validate(&self) -> Result<(), String> {
        if !(1..=64).contains(&self.channels) {
            return Err(format!(
                "frontend.channels: must be 1 to 64 (is {})",
                self.channels
            ));
        }
        if self.command_cycles == 0 {
            return Err("frontend.command_cycles: must be at least 1".into());
        }
        if self.poll_interval == 0 {
            return Err("frontend.poll_interval: must be at least 1".into());
        }
        Ok(())
    }
}

/// A DISPATCH command handed to the dispatcher.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DispatchRequest {
    /// Dispatch number since reset.
    pub number: u32,
    /// Channel it came from.
    pub channel: u32,
    /// Entry index (GP_GET) of the command.
    pub entry: u32,
    /// The packet.
    pub packet: DispatchPacket,
    /// Device address of the packet (the DISPATCH payload).
    pub packet_address: u64,
}

/// What the front end sees of the rest of the GPU each cycle.
#[derive(Clone, Debug, Default)]
pub struct FrontEndIn<'a> {
    /// The dispatcher can take a new dispatch this cycle.
    pub dispatcher_ready: bool,
    /// Dispatches whose every wave has ended and whose memory transactions
    /// have all completed this cycle (their completion signals are written now).
    pub completed: &'a [u32],
    /// Bit c set while channel c has a dispatch in flight (informational; the
    /// front end tracks dispatches itself for WAIT_FOR_IDLE).
    pub busy_channels: u64,
}

/// What the front end drives each cycle.
#[derive(Clone, Debug, Default)]
pub struct FrontEndOut {
    /// A dispatch for the dispatcher (only when it was ready).
    pub dispatch: Option<DispatchRequest>,
    /// A malformed entry or command block, or an unmapped address: the GPU stops.
    pub fault: Option<Fault>,
}

/// Request kinds in a response tag.
const KIND_ENTRY: u16 = 0;
const KIND_BLOCK: u16 = 1;
const KIND_SEMAPHORE: u16 = 2;
const KIND_WRITE: u16 = 3;

/// Tag layout: [15:10] channel, [9:8] kind, [7:0] generation (stale responses
/// of an abandoned entry are recognised and dropped).
fn tag(channel: usize, kind: u16, generation: u8) -> u16 {
    (channel as u16) << 10 | kind << 8 | u16::from(generation)
}

traces::signals! {
    /// The command processor's own registers.
    #[derive(Clone, Debug, Default)]
    pub struct ProcessorRegs {
        /// Cycles left on the current command.
        pub busy: u16,
        /// Channel served last (round-robin pointer).
        pub last_served: u8,
        /// Channel acted on this cycle.
        pub grant: u8,
        /// A channel was acted on this cycle.
        pub grant_valid: bool,
        /// Next dispatch number.
        pub next_dispatch: u32,
        /// Dispatches handed out and not completed.
        pub outstanding: u16,
        /// Memory requests waiting for the port.
        pub outbox_len: u16,
    }
}

/// A dispatch handed out and not yet completed.
#[derive(Clone, Copy, Debug)]
struct InFlight {
    channel: u32,
    entry: u32,
    signal: u64,
}

/// The front end.
#[derive(Clone, Debug)]
pub struct FrontEnd {
    config: FrontEndConfig,
    /// Per-channel registers.
    ch: Vec<ChannelRegs>,
    /// Per-channel generation of in-flight reads.
    generation: Vec<u8>,
    cp: ProcessorRegs,
    in_flight: BTreeMap<u32, InFlight>,
    /// Dispatch numbers not yet completed (for WAIT_FOR_IDLE).
    outstanding: BTreeSet<u32>,
    outbox: VecDeque<MemRequest>,
    responses: Vec<MemResponse>,
    line_bytes: u64,
    /// At the end of the last tick, a request was still waiting for the port
    /// or the memory system was busy: the front end must keep ticking to
    /// drain its responses (an untaken response keeps the memory system busy,
    /// so a GPU whose last command was a release would never become idle).
    port_busy: bool,
    /// Per-channel activity for the statistics (not hardware state).
    activity: Vec<ChannelStats>,
    /// Per channel: cycle the pending acquire first failed or the pending
    /// WAIT_FOR_IDLE started waiting (statistics only).
    stalled_since: Vec<Option<u64>>,
}

impl FrontEnd {
    /// Every channel disabled.
    pub fn new(config: &FrontEndConfig) -> FrontEnd {
        let n = config.channels.clamp(1, 64) as usize;
        FrontEnd {
            config: config.clone(),
            ch: vec![ChannelRegs::default(); n],
            generation: vec![0; n],
            cp: ProcessorRegs::default(),
            in_flight: BTreeMap::new(),
            outstanding: BTreeSet::new(),
            outbox: VecDeque::new(),
            responses: Vec::new(),
            line_bytes: 128,
            port_busy: false,
            activity: (0..n as u32)
                .map(|channel| ChannelStats {
                    channel,
                    ..ChannelStats::default()
                })
                .collect(),
            stalled_since: vec![None; n],
        }
    }

    /// The channels' registers (for statistics and tests).
    pub fn channels(&self) -> &[ChannelRegs] {
        &self.ch
    }

    /// Every channel's activity since reset, indexed by channel.
    pub fn channel_stats(&self) -> &[ChannelStats] {
        &self.activity
    }

    /// Reads CHANNEL_COUNT or a channel register; other offsets are the GPU's
    /// (`Err` here means "not a front-end register").
    pub fn mmio_read(&mut self, offset: u32) -> Result<u32, DeviceError> {
        if offset == mmio::CHANNEL_COUNT {
            return Ok(self.ch.len() as u32);
        }
        let (c, reg) = self.channel_offset(offset)?;
        self.ch[c].read(reg).ok_or_else(|| DeviceError::Mmio {
            offset,
            reason: "no channel register at this offset".into(),
        })
    }

    /// Writes a channel register.
    pub fn mmio_write(&mut self, offset: u32, value: u32) -> Result<(), DeviceError> {
        if offset == mmio::CHANNEL_COUNT {
            return Err(DeviceError::Mmio {
                offset,
                reason: "CHANNEL_COUNT is read-only".into(),
            });
        }
        let (c, reg) = self.channel_offset(offset)?;
        let before = (self.ch[c].gp_get, self.ch[c].size);
        self.ch[c].write(offset, reg, value)?;
        if (self.ch[c].gp_get, self.ch[c].size) != before || reg == mmio::CH_GP_GET {
            // Reads in flight for the abandoned entry are dropped on arrival.
            self.generation[c] = self.generation[c].wrapping_add(1);
            self.stalled_since[c] = None;
        }
        Ok(())
    }

    fn channel_offset(&self, offset: u32) -> Result<(usize, u32), DeviceError> {
        if offset % 4 != 0 {
            return Err(DeviceError::Mmio {
                offset,
                reason: "unaligned register offset".into(),
            });
        }
        match mmio::split_channel_reg(offset) {
            Some((c, reg)) if (c as usize) < self.ch.len() => Ok((c as usize, reg)),
            Some((c, _)) => Err(DeviceError::Mmio {
                offset,
                reason: format!("channel {c} does not exist ({} channels)", self.ch.len()),
            }),
            None => Err(DeviceError::Mmio {
                offset,
                reason: "no register at this offset".into(),
            }),
        }
    }

    /// True when no enabled channel has work and no front-end request is
    /// waiting for the port or its response.
    pub fn is_idle(&self) -> bool {
        !self.port_busy && self.ch.iter().all(|c| !c.enabled || !c.has_work())
    }

    /// True while dispatches handed out have not completed.
    pub fn dispatches_in_flight(&self) -> bool {
        !self.outstanding.is_empty()
    }

    /// Channels waiting on a semaphore (for deadlock reports).
    pub fn blocked(&self, backing: &Backing) -> Vec<BlockedChannel> {
        self.ch
            .iter()
            .enumerate()
            .filter(|(_, c)| {
                c.enabled && matches!(c.state, Phase::Polling | Phase::ReadingSemaphore)
            })
            .map(|(i, c)| BlockedChannel {
                channel: i as u32,
                entry: c.gp_get,
                address: c.sem_address.value(),
                payload: c.sem_payload,
                compare: c.compare(),
                current: backing.read_u32(c.sem_address.value()).unwrap_or(0),
            })
            .collect()
    }

    /// The earliest cycle at which the front end's edge may do more than
    /// count down (semaphore poll timers, the command processor's busy
    /// count, the acquire-wait counters): at or before `now` when the edge
    /// at `now` may, `u64::MAX` when only a completion or a memory response
    /// (other blocks' events) can wake it. `dispatcher_ready` and
    /// `mem_busy` are the inputs its edge would see.
    pub fn next_event(&self, now: u64, dispatcher_ready: bool, mem_busy: bool) -> u64 {
        if !self.outbox.is_empty() || self.port_busy != mem_busy {
            return now;
        }
        let mut t = u64::MAX;
        for c in &self.ch {
            if c.enabled && c.state == Phase::Polling {
                // The edge that brings the timer to 0 acts.
                t = t.min(now + u64::from(c.poll_timer.max(1)) - 1);
            } else if self.eligible(c, dispatcher_ready) {
                // The first edge with the command processor free acts.
                t = t.min(now + u64::from(self.cp.busy));
            }
        }
        t
    }

    /// The effect of `cycles` edges that only count down (at most
    /// [`FrontEnd::next_event`] − now).
    pub fn skip(&mut self, cycles: u64) {
        let n16 = cycles.min(u64::from(u16::MAX)) as u16;
        for c in self.ch.iter_mut() {
            if c.enabled && c.state == Phase::Polling {
                c.poll_timer = c.poll_timer.saturating_sub(n16);
                c.acquire_wait_cycles += cycles;
            } else if c.state == Phase::ReadingSemaphore {
                c.acquire_wait_cycles += cycles;
            }
        }
        self.cp.grant_valid = false;
        self.cp.busy = self.cp.busy.saturating_sub(n16);
    }

    /// One clock. `events` collects front-end memory writes in lockstep mode.
    pub fn tick(
        &mut self,
        input: &FrontEndIn<'_>,
        backing: &mut Backing,
        mem: &mut MemSystem,
        cycle: u64,
        mut events: Option<&mut Vec<Event>>,
    ) -> FrontEndOut {
        let mut out = FrontEndOut::default();
        self.line_bytes = u64::from(mem.line_bytes().max(4));
        // Completions: signals are written now, WAIT_FOR_IDLE sees them this cycle.
        for &number in input.completed {
            self.outstanding.remove(&number);
            if let Some(d) = self.in_flight.remove(&number) {
                if d.signal != 0 {
                    if let Err(f) = self.write_word(backing, d.signal, 1, &mut events) {
                        let reason = format!(
                            "completion signal {:#x} of dispatch {number} is not mapped (first unmapped byte {f:#x})",
                            d.signal
                        );
                        out.fault = Some(self.fault(d.channel as usize, d.entry, reason, cycle));
                        return out;
                    }
                }
            }
        }
        if let Err(f) = self.take_responses(backing, mem, cycle) {
            out.fault = Some(f);
            return out;
        }
        for c in self.ch.iter_mut() {
            if c.enabled && c.state == Phase::Polling {
                c.poll_timer = c.poll_timer.saturating_sub(1);
                c.acquire_wait_cycles += 1;
            } else if c.state == Phase::ReadingSemaphore {
                c.acquire_wait_cycles += 1;
            }
        }
        self.cp.grant_valid = false;
        if self.cp.busy > 0 {
            self.cp.busy -= 1;
        } else if let Some(c) = self.arbitrate(input.dispatcher_ready) {
            self.cp.grant = c as u8;
            self.cp.grant_valid = true;
            self.cp.last_served = c as u8;
            match self.act(c, backing, cycle, &mut events) {
                Ok(d) => out.dispatch = d,
                Err(f) => {
                    out.fault = Some(f);
                    return out;
                }
            }
        }
        // One request per cycle onto the port.
        if let Some(&req) = self.outbox.front() {
            if mem.can_accept(0, Unit::FrontEnd) {
                mem.request(0, Unit::FrontEnd, req);
                self.outbox.pop_front();
            }
        }
        self.port_busy = !self.outbox.is_empty() || mem.busy();
        self.cp.outstanding = self.outstanding.len().min(u16::MAX as usize) as u16;
        self.cp.outbox_len = self.outbox.len().min(u16::MAX as usize) as u16;
        out
    }

    /// Whether channel `c` can act this cycle.
    fn eligible(&self, c: &ChannelRegs, dispatcher_ready: bool) -> bool {
        if !c.enabled {
            return false;
        }
        match c.state {
            Phase::NeedEntry => c.pending() > 0,
            Phase::Ready => {
                let opcode = c.block.get(usize::from(c.cursor)).map(|w| (w & 0xff) as u8);
                dispatcher_ready || opcode != Some(CommandOpcode::Dispatch as u8)
            }
            Phase::Polling => c.poll_timer == 0,
            Phase::WaitIdle => self.outstanding.range(..c.wfi_before).next().is_none(),
            Phase::FetchingEntry
            | Phase::FetchingBlock { .. }
            | Phase::ReadingSemaphore
            | Phase::Error => false,
        }
    }

    /// Highest priority among eligible channels; ties round-robin after the last served.
    fn arbitrate(&self, dispatcher_ready: bool) -> Option<usize> {
        let n = self.ch.len();
        let start = usize::from(self.cp.last_served) + 1;
        let mut best: Option<usize> = None;
        for k in 0..n {
            let i = (start + k) % n;
            if self.eligible(&self.ch[i], dispatcher_ready)
                && best.map_or(true, |b| self.ch[i].priority > self.ch[b].priority)
            {
                best = Some(i);
            }
        }
        best
    }

    /// One command-processor action on channel `c`.
    fn act(
        &mut self,
        c: usize,
        backing: &mut Backing,
        cycle: u64,
        events: &mut Option<&mut Vec<Event>>,
    ) -> Result<Option<DispatchRequest>, Fault> {
        let busy = self.config.command_cycles.saturating_sub(1);
        match self.ch[c].state {
            Phase::NeedEntry => {
                let gp_get = self.ch[c].gp_get;
                let a = &mut self.activity[c];
                if a.gp_get_history.last() != Some(&gp_get) {
                    a.record_gp_get(gp_get);
                }
                let address = self.ch[c].base.value() + u64::from(gp_get) * ENTRY_BYTES;
                self.read(c, KIND_ENTRY, address, ENTRY_BYTES as u16);
                self.ch[c].set(Phase::FetchingEntry);
                Ok(None)
            }
            Phase::Polling => {
                let address = self.ch[c].sem_address.value();
                self.read(c, KIND_SEMAPHORE, address, 4);
                self.ch[c].set(Phase::ReadingSemaphore);
                Ok(None)
            }
            Phase::WaitIdle => {
                if let Some(since) = self.stalled_since[c].take() {
                    self.activity[c].idle_wait_cycles += cycle - since;
                }
                self.command_done(c);
                Ok(None)
            }
            Phase::Ready => {
                self.cp.busy = busy;
                self.run_command(c, backing, cycle, events)
            }
            _ => Ok(None),
        }
    }

    /// Runs the command at channel `c`'s cursor.
    fn run_command(
        &mut self,
        c: usize,
        backing: &mut Backing,
        cycle: u64,
        events: &mut Option<&mut Vec<Event>>,
    ) -> Result<Option<DispatchRequest>, Fault> {
        let ch = &self.ch[c];
        let cursor = usize::from(ch.cursor);
        let entry = ch.gp_get;
        let payload_address = ch.block_address + 4 * (cursor as u64 + 1);
        let (block_address, block_len) = (ch.block_address, ch.block_len);
        let parsed = Command::read(&ch.block[cursor..]);
        let (command, used) = parsed.map_err(|e| {
            // Name the block and the dword offset: a GPU-written block has no
            // host-side source the user could look the entry up in.
            let reason = format!(
                "block {:#x} ({} dwords), offset {cursor} dwords: command at {:#x}: {e}",
                block_address,
                block_len,
                block_address + 4 * cursor as u64
            );
            self.fault(c, entry, reason, cycle)
        })?;
        self.ch[c].cursor += used as u16;
        match command {
            Command::Nop { .. } => self.command_done(c),
            Command::Dispatch(packet) => {
                let number = self.cp.next_dispatch;
                self.cp.next_dispatch = number.wrapping_add(1);
                self.outstanding.insert(number);
                self.in_flight.insert(
                    number,
                    InFlight {
                        channel: c as u32,
                        entry,
                        signal: packet.completion_signal,
                    },
                );
                self.activity[c].dispatches += 1;
                self.command_done(c);
                return Ok(Some(DispatchRequest {
                    number,
                    channel: c as u32,
                    entry,
                    packet,
                    packet_address: payload_address,
                }));
            }
            Command::WaitForIdle => {
                self.ch[c].wfi_before = self.cp.next_dispatch;
                if self
                    .outstanding
                    .range(..self.cp.next_dispatch)
                    .next()
                    .is_none()
                {
                    self.command_done(c);
                } else {
                    self.ch[c].set(Phase::WaitIdle);
                    self.activity[c].idle_waits += 1;
                    self.stalled_since[c] = Some(cycle);
                }
            }
            Command::SemaphoreAcquire {
                address,
                payload,
                compare,
            } => {
                let ch = &mut self.ch[c];
                ch.sem_address = u48::new(address & ((1 << 48) - 1));
                ch.sem_payload = payload;
                ch.sem_ge = compare == SemaphoreCompare::GreaterOrEqual;
                ch.set(Phase::ReadingSemaphore);
                self.read(c, KIND_SEMAPHORE, address, 4);
            }
            Command::SemaphoreRelease { address, payload } => {
                if let Err(a) = self.write_word(backing, address, payload, events) {
                    let reason = format!(
                        "semaphore release to {address:#x}: address not mapped (first unmapped byte {a:#x})"
                    );
                    return Err(self.fault(c, entry, reason, cycle));
                }
                self.activity[c].releases += 1;
                self.command_done(c);
            }
        }
        Ok(None)
    }

    /// The command at the cursor completed: next command, or the entry is done.
    fn command_done(&mut self, c: usize) {
        let ch = &mut self.ch[c];
        self.activity[c].commands += 1;
        if ch.cursor >= ch.block_len {
            ch.gp_get = if ch.gp_get + 1 >= ch.size {
                0
            } else {
                ch.gp_get + 1
            };
            ch.entries_done = ch.entries_done.wrapping_add(1);
            self.activity[c].entries_processed += 1;
            self.activity[c].record_gp_get(ch.gp_get);
            ch.cursor = 0;
            ch.block_len = 0;
            ch.block.clear();
            ch.set(Phase::NeedEntry);
        } else {
            ch.set(Phase::Ready);
        }
    }

    fn read(&mut self, c: usize, kind: u16, address: u64, bytes: u16) {
        self.outbox.push_back(MemRequest {
            tag: tag(c, kind, self.generation[c]),
            access: Access::Read,
            address,
            bytes,
            bypass: true,
        });
    }

    /// A front-end write: memory changes now, the request carries its timing.
    fn write_word(
        &mut self,
        backing: &mut Backing,
        address: u64,
        value: u32,
        events: &mut Option<&mut Vec<Event>>,
    ) -> Result<(), u64> {
        backing.write_u32(address, value)?;
        if let Some(ev) = events.as_deref_mut() {
            ev.push(Event::FrontEndWrite { address, value });
        }
        self.outbox.push_back(MemRequest {
            tag: tag(0, KIND_WRITE, 0),
            access: Access::Write,
            address,
            bytes: 4,
            bypass: true,
        });
        Ok(())
    }

    /// Stage 1: responses to entry, block and semaphore reads.
    fn take_responses(
        &mut self,
        backing: &Backing,
        mem: &mut MemSystem,
        cycle: u64,
    ) -> Result<(), Fault> {
        let mut responses = std::mem::take(&mut self.responses);
        responses.clear();
        mem.take_responses(0, Unit::FrontEnd, &mut responses);
        let mut result = Ok(());
        for r in &responses {
            let (c, kind, generation) = (usize::from(r.tag >> 10), (r.tag >> 8) & 3, r.tag as u8);
            if kind == KIND_WRITE || c >= self.ch.len() || generation != self.generation[c] {
                continue;
            }
            if let Err(f) = self.response(c, kind, backing, cycle) {
                result = Err(f);
                break;
            }
        }
        self.responses = responses;
        result
    }

    fn response(
        &mut self,
        c: usize,
        kind: u16,
        backing: &Backing,
        cycle: u64,
    ) -> Result<(), Fault> {
        let entry_index = self.ch[c].gp_get;
        match (kind, self.ch[c].state) {
            (KIND_ENTRY, Phase::FetchingEntry) => {
                let address = self.ch[c].base.value() + u64::from(entry_index) * ENTRY_BYTES;
                let bits = backing.read_u64(address).map_err(|a| {
                    self.fault(
                        c,
                        entry_index,
                        format!(
                            "ring entry at {address:#x} is not mapped (first unmapped byte {a:#x})"
                        ),
                        cycle,
                    )
                })?;
                let entry = ChannelEntry::from_bits(bits)
                    .map_err(|e| self.fault(c, entry_index, e.to_string(), cycle))?;
                let start = entry.address.value();
                let len = u64::from(entry.length_dwords);
                let first = start / self.line_bytes;
                let last = (start + 4 * len - 1) / self.line_bytes;
                let lines = (last - first + 1) as u16;
                let ch = &mut self.ch[c];
                ch.block_address = start;
                ch.block_len = entry.length_dwords;
                ch.set(Phase::FetchingBlock { lines });
                for line in first..=last {
                    let lo = (line * self.line_bytes).max(start);
                    let hi = ((line + 1) * self.line_bytes).min(start + 4 * len);
                    self.read(c, KIND_BLOCK, lo, (hi - lo) as u16);
                }
            }
            (KIND_BLOCK, Phase::FetchingBlock { lines }) if lines > 1 => {
                self.ch[c].set(Phase::FetchingBlock { lines: lines - 1 });
            }
            (KIND_BLOCK, Phase::FetchingBlock { .. }) => {
                let ch = &mut self.ch[c];
                let mut bytes = vec![0u8; 4 * usize::from(ch.block_len)];
                let address = ch.block_address;
                if let Err(a) = backing.read(address, &mut bytes) {
                    let reason = format!(
                        "command block at {address:#x} is not mapped (first unmapped byte {a:#x})"
                    );
                    return Err(self.fault(c, entry_index, reason, cycle));
                }
                let ch = &mut self.ch[c];
                ch.block.clear();
                ch.block.extend(
                    bytes
                        .chunks_exact(4)
                        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]])),
                );
                ch.cursor = 0;
                ch.set(Phase::Ready);
            }
            (KIND_SEMAPHORE, Phase::ReadingSemaphore) => {
                let address = self.ch[c].sem_address.value();
                let word = backing.read_u32(address).map_err(|a| {
                    self.fault(
                        c,
                        entry_index,
                        format!(
                            "semaphore {address:#x} is not mapped (first unmapped byte {a:#x})"
                        ),
                        cycle,
                    )
                })?;
                let ch = &mut self.ch[c];
                ch.sem_seen = word;
                let holds = ch.compare().holds(word, ch.sem_payload);
                if holds {
                    let a = &mut self.activity[c];
                    a.acquires += 1;
                    if let Some(since) = self.stalled_since[c].take() {
                        a.acquire_wait_cycles += cycle - since;
                    }
                    self.command_done(c);
                } else {
                    ch.poll_timer = self.config.poll_interval;
                    ch.set(Phase::Polling);
                    if self.stalled_since[c].is_none() {
                        self.stalled_since[c] = Some(cycle);
                        self.activity[c].acquires_waited += 1;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// A `Command` fault; the channel enters ERROR.
    fn fault(&mut self, c: usize, entry: u32, reason: String, cycle: u64) -> Fault {
        self.ch[c].set(Phase::Error);
        Fault::at_cycle(
            FaultKind::Command {
                channel: c as u32,
                entry,
                reason,
            },
            cycle,
        )
    }
}

impl traces::Probe for FrontEnd {
    fn probe(&self, name: &str, t: &mut traces::Tracer) {
        t.scope(name, |t| {
            self.cp.probe("cp", t);
            // `ch0`, `ch1`, ...: sampled as one run (see `traces::Tracer::flat_run`).
            self.ch.probe("ch", t);
        });
    }
}

#[cfg(test)]
mod tests;
