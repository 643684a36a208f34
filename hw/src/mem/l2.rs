//! One L2 channel: set-associative, write-back with dirty lines,
//! write-allocate, MSHRs, atomics executed here.
//!
//! Per cycle, back to front:
//! 1. the oldest response whose time has come goes into the response network
//!    (one per cycle, when the channel holds a credit);
//! 2. one line returned by DRAM is installed (a dirty victim is written back to
//!    DRAM — the fill waits while the DRAM queue is full) and every request
//!    waiting in its MSHR is answered (atomics after the ALU latency);
//! 3. the head of the input buffer is looked up. A hit answers after
//!    `hit_latency` (writes and atomics mark the line dirty; an atomic holds its
//!    line for `atomic_latency` more cycles, and requests to a held line wait).
//!    A miss joins the line's MSHR or takes a free one and sends a DRAM read
//!    after `hit_latency`; a write of a whole line allocates without reading.
//!    Full MSHRs, a full DRAM queue or a full response queue leave the packet
//!    in the input buffer: its credit does not return, and the crossbar backs up.

use std::collections::VecDeque;

use super::cache::{MissSlot, MshrFile, TagArray};
use super::config::MemConfig;
use super::dram::DramChannel;
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
    /// A whole-line write to an absent line: install it without reading DRAM.
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
        /// Responses waiting to leave.
        pub resp_count: u16,
        /// The input head could not proceed this cycle.
        pub stalled: bool,
        /// Lines held by the atomic unit.
        pub atomic_lines: u8,
        @untraced
        tags: TagArray,
        @untraced
        mshr: MshrFile<Target>,
        /// (ready cycle, response packet).
        @untraced
        pending: VecDeque<(u64, Packet)>,
        /// (line, free from cycle) of lines held by atomics.
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
            resp_count: 0,
            stalled: false,
            atomic_lines: 0,
            tags: TagArray::new(sets, l2.ways),
            mshr: MshrFile::new(l2.mshrs, l2.mshr_targets),
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
        self.mshr.used() == 0 && self.pending.is_empty()
    }

    /// The response to `p`, due at `ready`; writes and atomics dirty `entry`.
    fn answer(&mut self, p: Packet, entry: usize, ready: u64) {
        let (kind, flits) = match p.kind() {
            Kind::Read => (Kind::ReadData, u32::from(p.flits.value())),
            Kind::Write => (Kind::WriteAck, 1),
            Kind::Atomic | Kind::AtomicRet => (Kind::AtomicAck, 1),
            other => (other, 1),
        };
        let mut ready = ready;
        match p.kind() {
            Kind::Write => self.tags.set_dirty(entry),
            k if k.is_atomic() => {
                self.tags.set_dirty(entry);
                ready += self.atomic_latency;
                self.atomic_busy.push((p.line(), ready));
            }
            _ => {}
        }
        let r = Packet::new(kind, p.port(), p.tag, p.line(), flits);
        // Keep `pending` ordered by ready cycle so the head is the oldest due.
        let at = self.pending.partition_point(|&(t, _)| t <= ready);
        self.pending.insert(at, (ready, r));
    }

    /// One cycle. `input` is this channel's buffer from the request network,
    /// `out` its buffer into the response network.
    pub fn tick(
        &mut self,
        now: u64,
        input: &mut CreditFifo<Packet>,
        out: &mut CreditFifo<Packet>,
        dram: &mut DramChannel,
    ) {
        // 1. One response out.
        if let Some(&(ready, r)) = self.pending.front() {
            if ready <= now && out.push(r, now + 1).is_ok() {
                self.pending.pop_front();
            }
        }
        self.atomic_busy.retain(|&(_, free)| free > now);
        // 2. One fill from DRAM.
        if let Some(line) = dram.peek_fill(now) {
            let key = line / self.channels;
            let (_, victim) = self.tags.victim(key);
            let writeback = victim.filter(|v| v.dirty);
            if writeback.is_none() || dram.can_accept() {
                dram.take_fill(line);
                if let Some(v) = writeback {
                    let vline = v.key * self.channels + line % self.channels;
                    dram.push(v.key, vline, true, now + 1);
                }
                let (entry, _) = self.tags.install(key, false);
                if let Some(i) = self.mshr.find_fill(line) {
                    let scratch = &mut self.scratch;
                    scratch.clear();
                    self.mshr.retire(i, |t| scratch.push(t.packet));
                    for k in 0..self.scratch.len() {
                        let p = self.scratch[k];
                        self.answer(p, entry, now + 1);
                    }
                }
            }
        }
        // 3. Lookup.
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
        self.resp_count = self.pending.len() as u16;
        self.atomic_lines = self.atomic_busy.len().min(255) as u8;
    }

    /// Pure decision of the lookup stage for the input head `p`, given
    /// whether the DRAM queue has room this cycle.
    fn eval_lookup(&self, p: &Packet, dram_room: bool) -> Decision {
        if self.pending.len() >= self.response_queue {
            return Decision::Stall;
        }
        let line = p.line();
        if self.atomic_busy.iter().any(|&(l, _)| l == line) {
            return Decision::Stall;
        }
        let key = line / self.channels;
        if let Some(e) = self.tags.lookup(key) {
            return Decision::Hit(e);
        }
        let whole_line = p.kind() == Kind::Write && u32::from(p.flits.value()) >= self.line_flits;
        if whole_line && self.mshr.find_fill(line).is_none() {
            let (_, victim) = self.tags.victim(key);
            let dirty = victim.is_some_and(|v| v.dirty);
            return if dirty && !dram_room {
                Decision::Stall
            } else {
                Decision::Allocate
            };
        }
        match self.mshr.slot_for(line, true) {
            MissSlot::Allocate(_) if !dram_room => Decision::Stall,
            MissSlot::Full => Decision::Stall,
            slot => Decision::Miss(slot),
        }
    }

    /// The lookup stage: decides, then applies at the edge; false leaves the
    /// packet in the input buffer (stall).
    fn lookup(&mut self, p: Packet, now: u64, dram: &mut DramChannel) -> bool {
        let line = p.line();
        let key = line / self.channels;
        let done = now + self.hit_latency;
        match self.eval_lookup(&p, dram.can_accept()) {
            Decision::Stall => false,
            Decision::Hit(e) => {
                self.tags.touch(e);
                self.stats.hits += 1;
                self.answer(p, e, done);
                true
            }
            Decision::Allocate => {
                // Write-allocate without reading: every byte is overwritten.
                let (e, victim) = self.tags.install(key, false);
                if let Some(v) = victim.filter(|v| v.dirty) {
                    let vline = v.key * self.channels + line % self.channels;
                    dram.push(v.key, vline, true, done);
                }
                self.stats.misses += 1;
                self.answer(p, e, done);
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
