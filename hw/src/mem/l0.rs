//! Requester-side blocks: the per-CU caches (instruction, scalar, L0 vector —
//! one block, three configurations) and the front end's uncached port.
//!
//! A CU cache per cycle, back to front:
//! 1. pops one response from the crossbar: a fill installs its line and
//!    answers every merged request; an uncached response answers its one request;
//! 2. delivers hits whose lookup latency has elapsed;
//! 3. moves the oldest miss whose lookup latency has elapsed from the lookup
//!    pipeline into the miss queue (when the queue has room: else the pipeline
//!    holds it), then sends the head of the miss queue into the crossbar when
//!    it holds a credit;
//! 4. looks up the request offered this cycle: hit → hit pipe; read miss →
//!    MSHR (merging with an outstanding fill of the line) and the lookup
//!    pipeline; writes, atomics and `bypass` reads → their own MSHR and the
//!    lookup pipeline (write-through, no write-allocate: the L2 performs them).
//!    No MSHR, or a full lookup pipeline (a miss queue that does not drain) →
//!    the request stays in the input register and the port refuses new ones.
//!
//! The miss queue (`miss_queue` entries) holds only misses that are through
//! the lookup and wait for the crossbar; misses still inside the
//! `hit_latency` pipeline (at most one per stage) do not count against it.

use std::collections::VecDeque;

use super::cache::{MissSlot, MshrFile, TagArray};
use super::config::{CacheConfig, MemConfig};
use super::{Access, CacheStats, MemRequest, MemResponse};
use crate::xbar::fifo::CreditFifo;
use crate::xbar::packet::{Kind, Packet};

/// What the lookup stage decides for the request in the input register (the
/// pure part of the stage; [`CuCache::tick`] applies it at the edge).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lookup {
    /// Resident line: answer after the hit latency.
    Hit(usize),
    /// Needs the L2: take or join an MSHR (and a miss-queue slot when new).
    Miss(MissSlot),
    /// No MSHR or miss-queue room.
    Stall,
}

traces::signals! {
    /// One CU-side cache.
    #[derive(Clone, Debug)]
    pub struct CuCache {
        /// A request waits in the input register.
        pub input_valid: bool,
        /// The waiting request could not proceed this cycle.
        pub stalled: bool,
        /// MSHRs in use.
        pub mshr_used: u16,
        /// Miss-queue entries.
        pub miss_count: u16,
        /// Misses in the lookup pipeline.
        pub miss_pipe_count: u16,
        /// Hits in the lookup pipeline.
        pub hit_count: u16,
        /// The request register.
        @untraced
        pub input: Option<MemRequest>,
        @untraced
        tags: TagArray,
        @untraced
        mshr: MshrFile<u16>,
        /// (ready cycle, tag) of hits in flight.
        @untraced
        hits: VecDeque<(u64, u16)>,
        /// (cycle it leaves the lookup pipeline, packet), in lookup order.
        @untraced
        miss_pipe: VecDeque<(u64, Packet)>,
        /// The miss queue: packets waiting for the crossbar.
        @untraced
        misses: VecDeque<Packet>,
        /// Responses for the requester to take.
        @untraced
        pub out: Vec<MemResponse>,
        /// Requests accepted and not yet in `out`.
        @untraced
        pub outstanding: u32,
        @untraced
        cfg: CacheConfig,
        @untraced
        line_shift: u32,
        /// This cache's line shift minus the hierarchy's: a smaller line
        /// (the instruction cache's 64 bytes) is sent below as part of the
        /// L2 line that holds it (`packet line = line >> (hierarchy shift -
        /// line_shift)`).
        @untraced
        below_shift: u32,
        @untraced
        fill_flits: u32,
        @untraced
        flit_bytes: u32,
        @untraced
        port: usize,
        /// Counters.
        @untraced
        pub stats: CacheStats,
    }
}

impl CuCache {
    /// A cold cache for crossbar port `port`, with the hierarchy's line size.
    pub fn new(cfg: &CacheConfig, mem: &MemConfig, port: usize) -> CuCache {
        CuCache::with_line(cfg, mem, port, mem.line_bytes)
    }

    /// A cold cache for crossbar port `port` whose lines are `line_bytes`
    /// (a power of two, at most the hierarchy's `line_bytes`).
    pub fn with_line(cfg: &CacheConfig, mem: &MemConfig, port: usize, line_bytes: u32) -> CuCache {
        let sets = cfg.size_bytes / (cfg.ways * line_bytes);
        CuCache {
            input_valid: false,
            stalled: false,
            mshr_used: 0,
            miss_count: 0,
            miss_pipe_count: 0,
            hit_count: 0,
            input: None,
            tags: TagArray::new(sets, cfg.ways),
            mshr: MshrFile::new(cfg.mshrs, cfg.mshr_targets),
            hits: VecDeque::new(),
            miss_pipe: VecDeque::with_capacity(cfg.hit_latency as usize),
            misses: VecDeque::with_capacity(cfg.miss_queue as usize),
            out: Vec::new(),
            outstanding: 0,
            cfg: cfg.clone(),
            line_shift: line_bytes.trailing_zeros(),
            below_shift: mem
                .line_bytes
                .trailing_zeros()
                .saturating_sub(line_bytes.trailing_zeros()),
            fill_flits: mem.flits_for(line_bytes),
            flit_bytes: mem.xbar.flit_bytes,
            port,
            stats: CacheStats::default(),
        }
    }

    /// The input register is free.
    #[inline]
    pub fn can_accept(&self) -> bool {
        self.input.is_none()
    }

    /// Latches a request (only when [`can_accept`](Self::can_accept)).
    pub fn request(&mut self, req: MemRequest) -> bool {
        if self.input.is_some() {
            return false;
        }
        self.input = Some(req);
        self.input_valid = true;
        self.outstanding += 1;
        true
    }

    /// Nothing in flight for this port.
    #[inline]
    pub fn idle(&self) -> bool {
        self.outstanding == 0
    }

    /// The earliest cycle at which this cache's edge may change anything,
    /// `resp` being its response buffer (`u64::MAX`: never without a new
    /// request; at or before the current cycle: now). Event skipping
    /// (docs/cycle-model.md) jumps only over edges before it.
    pub fn next_event(&self, resp: &CreditFifo<Packet>) -> u64 {
        // Untaken responses: the CU acts. A request in the input register
        // or a miss waiting for a credit is looked up or retried every edge.
        if !self.out.is_empty() || !self.misses.is_empty() {
            return 0;
        }
        if let Some(req) = &self.input {
            // A stalled lookup stays stalled (counting `stall_cycles`) until
            // a fill or the lookup pipeline's drain, events seen below.
            if !self.stalled || self.eval_lookup(req) != Lookup::Stall {
                return 0;
            }
        }
        if self.idle() {
            return u64::MAX;
        }
        let hits = self.hits.front().map(|&(ready, _)| ready.saturating_sub(1));
        let pipe = self.miss_pipe.front().map(|&(exit, _)| exit);
        [resp.head_ready(), hits, pipe]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(u64::MAX)
    }

    /// The effect of `cycles` edges before [`CuCache::next_event`]: a
    /// stalled lookup counts its stall cycles.
    pub fn skip(&mut self, cycles: u64) {
        if self.input.is_some() {
            self.stats.stall_cycles += cycles;
        }
    }

    fn flits(&self, bytes: u16) -> u32 {
        // Bytes beyond the line break the request contract; clamping keeps
        // the 5-bit flit field from wrapping.
        u32::from(bytes)
            .min(self.flit_bytes * self.fill_flits)
            .div_ceil(self.flit_bytes)
            .max(1)
    }

    /// Pure lookup decision for `req`.
    fn eval_lookup(&self, req: &MemRequest) -> Lookup {
        let line = req.address >> self.line_shift;
        let cacheable = matches!(req.access, Access::Read) && !req.bypass;
        if cacheable {
            if let Some(e) = self.tags.lookup(line) {
                return Lookup::Hit(e);
            }
        }
        let slot = self.mshr.slot_for(line, cacheable);
        // One miss per pipeline stage: a pipeline that cannot drain into the
        // miss queue takes no new miss.
        let pipe_full = self.miss_pipe.len() as u64 >= u64::from(self.cfg.hit_latency);
        match slot {
            MissSlot::Merge(_) => Lookup::Miss(slot),
            MissSlot::Allocate(_) if !pipe_full => Lookup::Miss(slot),
            _ => Lookup::Stall,
        }
    }

    /// One cycle. `xin` is this port's buffer into the request network,
    /// `resp` the response network's buffer toward this port.
    pub fn tick(&mut self, now: u64, xin: &mut CreditFifo<Packet>, resp: &mut CreditFifo<Packet>) {
        // 1. One response from the L2.
        if let Some(p) = resp.pop(now) {
            let i = usize::from(p.tag);
            if let Some(m) = self.mshr.get(i) {
                if m.fill {
                    let line = m.line;
                    self.tags.install(line, false);
                }
                let out = &mut self.out;
                let mut n = 0;
                self.mshr.retire(i, |&tag| {
                    out.push(MemResponse { tag });
                    n += 1;
                });
                self.outstanding -= n;
            }
        }
        // 2. Hits whose latency has elapsed (visible from the next cycle on).
        while let Some(&(ready, tag)) = self.hits.front() {
            if ready > now + 1 {
                break;
            }
            self.hits.pop_front();
            self.out.push(MemResponse { tag });
            self.outstanding -= 1;
        }
        // 3. Lookup pipeline → miss queue → crossbar, one packet per cycle.
        if let Some(&(exit, p)) = self.miss_pipe.front() {
            if exit <= now && self.misses.len() < self.cfg.miss_queue as usize {
                self.miss_pipe.pop_front();
                self.misses.push_back(p);
            }
        }
        if let Some(&p) = self.misses.front() {
            if xin.push(p, now + 1).is_ok() {
                self.misses.pop_front();
            }
        }
        // 4. Lookup.
        self.stalled = false;
        if let Some(req) = self.input {
            let line = req.address >> self.line_shift;
            match self.eval_lookup(&req) {
                Lookup::Hit(e) => {
                    self.tags.touch(e);
                    self.hits
                        .push_back((now + u64::from(self.cfg.hit_latency), req.tag));
                    self.stats.hits += 1;
                    self.input = None;
                }
                Lookup::Miss(slot) => {
                    let cacheable = matches!(req.access, Access::Read) && !req.bypass;
                    self.mshr.apply(slot, line, cacheable, req.tag);
                    match slot {
                        MissSlot::Merge(_) => {
                            self.stats.misses += 1;
                            self.stats.mshr_merges += 1;
                        }
                        MissSlot::Allocate(i) => {
                            let (kind, flits) = match req.access {
                                Access::Read if cacheable => (Kind::Read, self.fill_flits),
                                Access::Read => (Kind::Read, self.flits(req.bytes)),
                                Access::Write => (Kind::Write, self.flits(req.bytes)),
                                Access::Atomic { returns: true } => (Kind::AtomicRet, 1),
                                Access::Atomic { returns: false } => (Kind::Atomic, 1),
                            };
                            if cacheable {
                                self.stats.misses += 1;
                            } else {
                                self.stats.uncached += 1;
                            }
                            let below = line >> self.below_shift;
                            let p = Packet::new(kind, self.port, i as u16, below, flits);
                            let ready = now + u64::from(self.cfg.hit_latency);
                            self.miss_pipe.push_back((ready, p));
                        }
                        MissSlot::Full => {}
                    }
                    self.input = None;
                }
                Lookup::Stall => {
                    self.stalled = true;
                    self.stats.stall_cycles += 1;
                }
            }
        }
        self.input_valid = self.input.is_some();
        self.mshr_used = self.mshr.used() as u16;
        self.miss_count = self.misses.len() as u16;
        self.miss_pipe_count = self.miss_pipe.len() as u16;
        self.hit_count = self.hits.len() as u16;
    }
}

traces::signals! {
    /// The front end's port: no cache; requests go to the L2 as they come.
    #[derive(Clone, Debug)]
    pub struct FrontPort {
        /// Requests waiting for the crossbar.
        pub queue_count: u16,
        @untraced
        queue: VecDeque<Packet>,
        @untraced
        capacity: usize,
        /// Responses for the front end to take.
        @untraced
        pub out: Vec<MemResponse>,
        /// Requests accepted and not yet in `out`.
        @untraced
        pub outstanding: u32,
        @untraced
        line_shift: u32,
        @untraced
        flit_bytes: u32,
        @untraced
        port: usize,
    }
}

impl FrontPort {
    /// The port with index `port` and a queue of `capacity` requests.
    pub fn new(mem: &MemConfig, port: usize, capacity: usize) -> FrontPort {
        FrontPort {
            queue_count: 0,
            queue: VecDeque::with_capacity(capacity),
            capacity: capacity.max(1),
            out: Vec::new(),
            outstanding: 0,
            line_shift: mem.line_bytes.trailing_zeros(),
            flit_bytes: mem.xbar.flit_bytes,
            port,
        }
    }

    /// The queue has room.
    pub fn can_accept(&self) -> bool {
        self.queue.len() < self.capacity
    }

    /// Queues a request (the packet's tag is the request's tag).
    pub fn request(&mut self, req: MemRequest) -> bool {
        if !self.can_accept() {
            return false;
        }
        let flits = u32::from(req.bytes)
            .min(1 << self.line_shift)
            .div_ceil(self.flit_bytes)
            .max(1);
        let (kind, flits) = match req.access {
            Access::Read => (Kind::Read, flits),
            Access::Write => (Kind::Write, flits),
            Access::Atomic { returns: true } => (Kind::AtomicRet, 1),
            Access::Atomic { returns: false } => (Kind::Atomic, 1),
        };
        let line = req.address >> self.line_shift;
        self.queue
            .push_back(Packet::new(kind, self.port, req.tag, line, flits));
        self.outstanding += 1;
        self.queue_count = self.queue.len() as u16;
        true
    }

    /// Nothing in flight for this port.
    pub fn idle(&self) -> bool {
        self.outstanding == 0
    }

    /// As [`CuCache::next_event`], for the front end's port.
    pub fn next_event(&self, resp: &CreditFifo<Packet>) -> u64 {
        if !self.out.is_empty() || !self.queue.is_empty() {
            return 0;
        }
        if self.idle() {
            return u64::MAX;
        }
        resp.head_ready().unwrap_or(u64::MAX)
    }

    /// One cycle (see [`CuCache::tick`]).
    pub fn tick(&mut self, now: u64, xin: &mut CreditFifo<Packet>, resp: &mut CreditFifo<Packet>) {
        if let Some(p) = resp.pop(now) {
            self.out.push(MemResponse { tag: p.tag });
            self.outstanding -= 1;
        }
        if let Some(&p) = self.queue.front() {
            if xin.push(p, now + 1).is_ok() {
                self.queue.pop_front();
            }
        }
        self.queue_count = self.queue.len() as u16;
    }
}
