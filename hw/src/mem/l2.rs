//! One L2 channel: set-associative, write-back with dirty lines,
//! write-allocate without a fill (a line's byte mask), MSHRs, atomics
//! executed here.
//!
//! A write that misses allocates its line without reading DRAM, whether it
//! covers the whole line or not: the line keeps a byte mask of what was
//! written (modelled as a `partial` flag, since the model moves no data), as
//! AMD's L2 (TCC) does (docs/cycle-model.md, "Partial-line writes at the
//! L2"). Further writes merge into it; a read or an atomic that finds a
//! partial line needs the other bytes, so it misses: DRAM is read once and
//! the fill merges under the written bytes (the line becomes whole, still
//! dirty).
//!
//! Three buffers hold a channel's answers:
//! - the **lookup pipeline** (`hit_latency` stages, one lookup enters per
//!   cycle): hits and whole-line write allocations travel through it;
//! - the **response queue** (`response_queue` entries): answers that left the
//!   pipeline (or were answered by a DRAM fill) and wait for the response
//!   network, or for their line's atomic unit;
//! - the **atomic unit**, per line: an atomic occupies its line for
//!   `atomic_latency` cycles once its data is there (out of the pipeline or
//!   the fill). The next atomic to the same line starts when it is done, so
//!   same-line atomics complete one per `atomic_latency`; any other request to
//!   a line being modified is answered after the atomic. Requests to other
//!   lines are not held up (per-line hold, no head-of-line blocking).
//!
//! Per cycle, back to front:
//! 1. the oldest lookup whose `hit_latency` has elapsed leaves the pipeline
//!    into the response queue, when the queue has room (else the pipeline
//!    holds it, and the ones behind it: an elastic pipeline);
//! 2. the oldest due response goes into the response network (one per cycle,
//!    when the channel holds a credit);
//! 3. one line returned by DRAM is installed (a dirty victim is written back to
//!    DRAM — the fill waits while the DRAM queue is full) and every request
//!    waiting in its MSHR is answered (the fill waits until the response queue
//!    has room for all of them, or is empty);
//! 4. the head of the input buffer is looked up. A hit or a write to an absent
//!    line enters the pipeline (writes and atomics mark the line dirty). A
//!    miss (or a read or atomic of a partial line) joins
//!    the line's MSHR or takes a free one and sends a DRAM read after
//!    `hit_latency`. Full MSHRs, a full DRAM queue or a full pipeline (a
//!    response queue that does not drain) leave the packet in the input
//!    buffer: its credit does not return, and the crossbar backs up.

use std::collections::VecDeque;

use super::cache::{MissSlot, MshrFile, TagArray};
use super::config::MemConfig;
use super::dram::LineStore;
use super::CacheStats;
use crate::xbar::fifo::CreditFifo;
use crate::xbar::packet::{Kind, Packet};

/// A request waiting in an L2 MSHR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Target {
    packet: Packet,
}

/// What the lookup stage does with the input head.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Decision {
    /// The line is resident (entry).
    Hit(usize),
    /// A write to an absent line: install it without reading DRAM (a
    /// partial write leaves it partial).
    Allocate,
    /// Join or open an MSHR (opening one sends a DRAM read).
    Miss(MissSlot),
    /// Leave the packet in the input buffer.
    Stall,
}

traces::signals! {
    /// One L2 channel.
    #[derive(Clone, Debug)]
    pub struct L2Channel {
        /// MSHRs in use.
        pub mshr_used: u16,
        /// Lookups in the `hit_latency` pipeline.
        pub pipe_count: u16,
        /// Responses out of the pipeline, waiting to leave (or for their line's
        /// atomic unit).
        pub resp_count: u16,
        /// The input head could not proceed this cycle.
        pub stalled: bool,
        /// Lines held by the atomic unit.
        pub atomic_lines: u8,
        @untraced
        tags: TagArray,
        @untraced
        mshr: MshrFile<Target>,
        /// (cycle it leaves the pipeline, response packet), in lookup order.
        @untraced
        pipe: VecDeque<(u64, Packet)>,
        /// The response queue: (ready cycle, response packet), ordered by
        /// ready cycle so the head is the oldest due.
        @untraced
        pending: VecDeque<(u64, Packet)>,
        /// (line, free from cycle) of lines whose atomic unit is busy.
        @untraced
        atomic_busy: Vec<(u64, u64)>,
        /// Reused buffer for the requests a fill answers.
        @untraced
        scratch: Vec<Packet>,
        @untraced
        channels: u64,
        @untraced
        hit_latency: u64,
        @untraced
        atomic_latency: u64,
        @untraced
        response_queue: usize,
        @untraced
        line_flits: u32,
        /// Counters.
        @untraced
        pub stats: CacheStats,
    }
}

impl L2Channel {
    /// A cold channel.
    pub fn new(mem: &MemConfig) -> L2Channel {
        let l2 = &mem.l2;
        let sets = l2.size_bytes / (l2.ways * mem.line_bytes);
        L2Channel {
            mshr_used: 0,
            pipe_count: 0,
            resp_count: 0,
            stalled: false,
            atomic_lines: 0,
            tags: TagArray::new(sets, l2.ways),
            mshr: MshrFile::new(l2.mshrs, l2.mshr_targets),
            pipe: VecDeque::with_capacity(l2.hit_latency as usize),
            pending: VecDeque::with_capacity(l2.response_queue as usize),
            atomic_busy: Vec::new(),
            scratch: Vec::with_capacity(l2.mshr_targets as usize),
            channels: u64::from(l2.channels),
            hit_latency: u64::from(l2.hit_latency),
            atomic_latency: u64::from(l2.atomic_latency),
            response_queue: l2.response_queue as usize,
            line_flits: mem.flits_for(mem.line_bytes),
            stats: CacheStats::default(),
        }
    }

    /// Nothing outstanding.
    pub fn idle(&self) -> bool {
        self.mshr.used() == 0 && self.pipe.is_empty() && self.pending.is_empty()
    }

    /// The response to `p` (writes and atomics dirty `entry`: the tag array
    /// changes at the lookup, the timing follows).
    fn respond(&mut self, p: Packet, entry: usize) -> Packet {
        let (kind, flits) = match p.kind() {
            Kind::Read => (Kind::ReadData, u32::from(p.flits.value())),
            Kind::Write => (Kind::WriteAck, 1),
            Kind::Atomic | Kind::AtomicRet => (Kind::AtomicAck, 1),
            other => (other, 1),
        };
        if p.kind() == Kind::Write || p.kind().is_atomic() {
            self.tags.set_dirty(entry);
        }
        Packet::new(kind, p.port(), p.tag, p.line(), flits)
    }

    /// Queues response `r`, whose data is there at cycle `at`: it waits for
    /// an atomic still modifying its line; an atomic then occupies the line's
    /// atomic unit for `atomic_latency`.
    fn enqueue(&mut self, r: Packet, at: u64) {
        let line = r.line();
        let held = self.atomic_busy.iter().position(|&(l, _)| l == line);
        let start = held.map_or(at, |i| at.max(self.atomic_busy[i].1));
        let ready = if r.kind() == Kind::AtomicAck {
            let done = start + self.atomic_latency;
            match held {
                Some(i) => self.atomic_busy[i].1 = done,
                None => self.atomic_busy.push((line, done)),
            }
            done
        } else {
            start
        };
        let at = self.pending.partition_point(|&(t, _)| t <= ready);
        self.pending.insert(at, (ready, r));
    }

    /// One cycle. `input` is this channel's buffer from the request network,
    /// `out` its buffer into the response network, `dram` what is below
    /// (a DRAM channel or an Infinity Cache slice).
    pub fn tick<B: LineStore>(
        &mut self,
        now: u64,
        input: &mut CreditFifo<Packet>,
        out: &mut CreditFifo<Packet>,
        dram: &mut B,
    ) {
        self.atomic_busy.retain(|&(_, free)| free > now);
        // 1. One lookup out of the pipeline, when the response queue has room.
        if let Some(&(exit, r)) = self.pipe.front() {
            if exit <= now && self.pending.len() < self.response_queue {
                self.pipe.pop_front();
                self.enqueue(r, now);
            }
        }
        // 2. One response out.
        if let Some(&(ready, r)) = self.pending.front() {
            if ready <= now && out.push(r, now + 1).is_ok() {
                self.pending.pop_front();
            }
        }
        // 3. One fill from DRAM.
        if let Some(line) = dram.peek_fill(now) {
            let key = line / self.channels;
            // A partial line still resident takes the fill in place (merged
            // under its written bytes); otherwise the fill installs a line.
            let resident = self.tags.lookup(key);
            // Only a fill that installs a line evicts one.
            let writeback = match resident {
                Some(_) => None,
                None => self.tags.victim(key).1.filter(|v| v.dirty),
            };
            let answers = self
                .mshr
                .find_fill(line)
                .and_then(|i| self.mshr.get(i))
                .map_or(0, |m| m.targets.len());
            let room =
                self.pending.is_empty() || self.pending.len() + answers <= self.response_queue;
            if room && (writeback.is_none() || dram.can_accept()) {
                dram.take_fill(line);
                if let Some(v) = writeback {
                    let vline = v.key * self.channels + line % self.channels;
                    dram.push(v.key, vline, true, now + 1);
                }
                let entry = match resident {
                    Some(e) => {
                        self.tags.set_partial(e, false);
                        self.tags.touch(e);
                        e
                    }
                    None => self.tags.install(key, false).0,
                };
                if let Some(i) = self.mshr.find_fill(line) {
                    let scratch = &mut self.scratch;
                    scratch.clear();
                    self.mshr.retire(i, |t| scratch.push(t.packet));
                    for k in 0..self.scratch.len() {
                        let r = self.respond(self.scratch[k], entry);
                        self.enqueue(r, now + 1);
                    }
                }
            }
        }
        // 4. Lookup.
        self.stalled = false;
        if let Some(&p) = input.front(now) {
            if self.lookup(p, now, dram) {
                input.pop(now);
            } else {
                self.stalled = true;
                self.stats.stall_cycles += 1;
            }
        }
        self.mshr_used = self.mshr.used() as u16;
        self.pipe_count = self.pipe.len() as u16;
        self.resp_count = self.pending.len() as u16;
        self.atomic_lines = self.atomic_busy.len().min(255) as u8;
    }

    /// The earliest cycle at which this channel's edge may change anything
    /// (its lookup pipeline, response queue, atomic units, and the head of
    /// its `input` buffer); DRAM fills count as the DRAM channel's events.
    /// A head that cannot be looked up (`dram_room`: the level below has
    /// room) stays stalled, counting `stall_cycles`, until one of those
    /// events frees what it waits for.
    pub fn next_event(&self, now: u64, input: &CreditFifo<Packet>, dram_room: bool) -> u64 {
        let mut head = input.head_ready();
        if let Some(p) = input.front(now) {
            // Visible: looked up at the next edge.
            if !(self.stalled && self.eval_lookup(p, dram_room) == Decision::Stall) {
                return 0;
            }
            head = None;
        }
        let atomic = self.atomic_busy.iter().map(|&(_, free)| free).min();
        let pipe = self.pipe.front().map(|&(exit, _)| exit);
        let pending = self.pending.front().map(|&(ready, _)| ready);
        [atomic, pipe, pending, head]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(u64::MAX)
    }

    /// The effect of `cycles` edges from `now` before
    /// [`L2Channel::next_event`]: a stalled input head counts its stall
    /// cycles.
    pub fn skip(&mut self, input: &CreditFifo<Packet>, now: u64, cycles: u64) {
        if input.front(now).is_some() {
            self.stats.stall_cycles += cycles;
        }
    }

    /// Pure decision of the lookup stage for the input head `p`, given
    /// whether the DRAM queue has room this cycle.
    fn eval_lookup(&self, p: &Packet, dram_room: bool) -> Decision {
        // One lookup per stage: a pipeline that cannot drain into the
        // response queue takes nothing more.
        if self.pipe.len() as u64 >= self.hit_latency {
            return Decision::Stall;
        }
        let line = p.line();
        let key = line / self.channels;
        let write = p.kind() == Kind::Write;
        match self.tags.lookup(key) {
            // A partial line has only the written bytes: a write merges into
            // it, a read or an atomic needs the rest from DRAM (a miss below).
            Some(e) if write || !self.tags.is_partial(e) => return Decision::Hit(e),
            Some(_) => {}
            None if write && self.mshr.find_fill(line).is_none() => {
                let (_, victim) = self.tags.victim(key);
                let dirty = victim.is_some_and(|v| v.dirty);
                return if dirty && !dram_room {
                    Decision::Stall
                } else {
                    Decision::Allocate
                };
            }
            None => {}
        }
        match self.mshr.slot_for(line, true) {
            MissSlot::Allocate(_) if !dram_room => Decision::Stall,
            MissSlot::Full => Decision::Stall,
            slot => Decision::Miss(slot),
        }
    }

    /// The lookup stage: decides, then applies at the edge; false leaves the
    /// packet in the input buffer (stall).
    fn lookup<B: LineStore>(&mut self, p: Packet, now: u64, dram: &mut B) -> bool {
        let line = p.line();
        let key = line / self.channels;
        let done = now + self.hit_latency;
        match self.eval_lookup(&p, dram.can_accept()) {
            Decision::Stall => false,
            Decision::Hit(e) => {
                self.tags.touch(e);
                if p.kind() == Kind::Write && u32::from(p.flits.value()) >= self.line_flits {
                    // Every byte written: the line is whole again.
                    self.tags.set_partial(e, false);
                }
                self.stats.hits += 1;
                let r = self.respond(p, e);
                self.pipe.push_back((done, r));
                true
            }
            Decision::Allocate => {
                // Write-allocate without reading DRAM: the line keeps the
                // written bytes (partial unless the write covers it).
                let (e, victim) = self.tags.install(key, false);
                self.tags
                    .set_partial(e, u32::from(p.flits.value()) < self.line_flits);
                if let Some(v) = victim.filter(|v| v.dirty) {
                    let vline = v.key * self.channels + line % self.channels;
                    dram.push(v.key, vline, true, done);
                }
                self.stats.misses += 1;
                let r = self.respond(p, e);
                self.pipe.push_back((done, r));
                true
            }
            Decision::Miss(slot) => {
                if let MissSlot::Merge(_) = slot {
                    self.stats.mshr_merges += 1;
                } else {
                    dram.push(key, line, false, done);
                }
                self.mshr.apply(slot, line, true, Target { packet: p });
                self.stats.misses += 1;
                true
            }
        }
    }
}
