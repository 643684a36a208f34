//! One DRAM channel: a request queue served in order, a data bus of
//! `bytes_per_cycle`, and banks that keep one row open.
//!
//! Per cycle: the head request, once arrived, starts (one command per cycle).
//! Its data is ready after `latency` (+ `row_miss_cycles` when its bank has
//! another row open) and then occupies the channel's data bus for the line's
//! transfer time, after any earlier transfer — so N lines take at least
//! N × line / bandwidth cycles. Reads then hand the line to the L2
//! (`take_fill`); writes just finish.
//!
//! Address map: within the channel, consecutive rows go to consecutive banks.

use std::collections::VecDeque;

use super::config::MemConfig;

/// What an L2 channel sends its misses and write-backs to: a DRAM channel,
/// or an Infinity Cache slice in front of one. Lines are given as the
/// channel-local `key` (line / channels) and the global `line`.
pub trait LineStore {
    /// The queue has room this cycle (the L2 holds this as its credit).
    fn can_accept(&self) -> bool;
    /// Queues a line access visible from cycle `ready_at`; false when full.
    fn push(&mut self, key: u64, line: u64, write: bool, ready_at: u64) -> bool;
    /// The first read completed by `now`, if any (without removing it).
    fn peek_fill(&self, now: u64) -> Option<u64>;
    /// Removes the completed read of `line`.
    fn take_fill(&mut self, line: u64);
}

impl LineStore for DramChannel {
    #[inline]
    fn can_accept(&self) -> bool {
        DramChannel::can_accept(self)
    }
    #[inline]
    fn push(&mut self, key: u64, line: u64, write: bool, ready_at: u64) -> bool {
        DramChannel::push(self, key, line, write, ready_at)
    }
    #[inline]
    fn peek_fill(&self, now: u64) -> Option<u64> {
        DramChannel::peek_fill(self, now)
    }
    #[inline]
    fn take_fill(&mut self, line: u64) {
        DramChannel::take_fill(self, line)
    }
}

/// A queued access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct DramReq {
    /// Channel-local line number (line / channels).
    key: u64,
    /// The global line address (returned with a fill).
    line: u64,
    write: bool,
}

/// Counters of one channel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DramStats {
    /// Bytes read.
    pub bytes_read: u64,
    /// Bytes written.
    pub bytes_written: u64,
    /// Accesses to the open row.
    pub row_hits: u64,
    /// Accesses needing another row.
    pub row_misses: u64,
}

traces::signals! {
    /// One DRAM channel.
    #[derive(Clone, Debug)]
    pub struct DramChannel {
        /// Requests queued.
        pub queue_count: u16,
        /// Reads started and not yet returned.
        pub reads_inflight: u16,
        /// The data bus has transfers scheduled.
        pub bus_busy: bool,
        @untraced
        queue: VecDeque<(u64, DramReq)>,
        /// Per bank: open row + 1 (0 = closed).
        @untraced
        open_row: Vec<u64>,
        @untraced
        bus_free: u64,
        /// (completion cycle, line) of reads in flight.
        @untraced
        done: Vec<(u64, u64)>,
        @untraced
        capacity: usize,
        @untraced
        latency: u64,
        @untraced
        row_miss: u64,
        @untraced
        transfer: u64,
        @untraced
        line_bytes: u64,
        @untraced
        row_shift: u32,
        @untraced
        banks: u64,
        /// Counters.
        @untraced
        pub stats: DramStats,
    }
}

impl DramChannel {
    /// An idle channel, every row closed.
    pub fn new(mem: &MemConfig) -> DramChannel {
        let d = &mem.dram;
        DramChannel {
            queue_count: 0,
            reads_inflight: 0,
            bus_busy: false,
            queue: VecDeque::with_capacity(d.queue as usize),
            open_row: vec![0; d.banks as usize],
            bus_free: 0,
            done: Vec::new(),
            capacity: d.queue as usize,
            latency: u64::from(d.latency),
            row_miss: u64::from(d.row_miss_cycles),
            transfer: u64::from(mem.line_bytes.div_ceil(d.bytes_per_cycle)),
            line_bytes: u64::from(mem.line_bytes),
            row_shift: d.row_bytes.trailing_zeros(),
            banks: u64::from(d.banks),
            stats: DramStats::default(),
        }
    }

    /// The queue has room (the L2 holds this as its credit).
    #[inline]
    pub fn can_accept(&self) -> bool {
        self.queue.len() < self.capacity
    }

    /// Queues a line access visible from cycle `ready_at`; false when full.
    pub fn push(&mut self, key: u64, line: u64, write: bool, ready_at: u64) -> bool {
        if !self.can_accept() {
            return false;
        }
        self.queue
            .push_back((ready_at, DramReq { key, line, write }));
        self.queue_count = self.queue.len() as u16;
        true
    }

    /// Nothing queued or in flight.
    #[inline]
    pub fn idle(&self) -> bool {
        self.queue.is_empty() && self.done.is_empty()
    }

    /// One cycle.
    pub fn tick(&mut self, now: u64) {
        self.bus_busy = self.bus_free > now;
        let Some(&(ready, req)) = self.queue.front() else {
            return;
        };
        if ready > now {
            return;
        }
        self.queue.pop_front();
        let row_global = (req.key * self.line_bytes) >> self.row_shift;
        let bank = (row_global % self.banks) as usize;
        let row = row_global / self.banks;
        let mut access = self.latency;
        if self.open_row[bank] == row + 1 {
            self.stats.row_hits += 1;
        } else {
            self.stats.row_misses += 1;
            self.open_row[bank] = row + 1;
            access += self.row_miss;
        }
        let data_start = (now + access).max(self.bus_free);
        self.bus_free = data_start + self.transfer;
        if req.write {
            self.stats.bytes_written += self.line_bytes;
        } else {
            self.stats.bytes_read += self.line_bytes;
            self.done.push((self.bus_free, req.line));
        }
        self.queue_count = self.queue.len() as u16;
        self.reads_inflight = self.done.len() as u16;
    }

    /// The earliest cycle at which this channel's edge may change anything
    /// besides `bus_busy` (its queue head arriving, a read's data ready for
    /// the level above).
    pub fn next_event(&self) -> u64 {
        let head = self.queue.front().map(|&(ready, _)| ready);
        let fill = self.done.iter().map(|&(d, _)| d).min();
        head.into_iter().chain(fill).min().unwrap_or(u64::MAX)
    }

    /// `bus_busy` after an edge at `last` that started nothing (the edges
    /// event skipping jumps over; only a channel with work ticks).
    pub fn skip_to(&mut self, last: u64) {
        if !self.idle() {
            self.bus_busy = self.bus_free > last;
        }
    }

    /// The first read completed by `now`, if any (without removing it).
    pub fn peek_fill(&self, now: u64) -> Option<u64> {
        self.done
            .iter()
            .filter(|(d, _)| *d <= now)
            .min_by_key(|(d, _)| *d)
            .map(|&(_, line)| line)
    }

    /// Removes the completed read of `line`.
    pub fn take_fill(&mut self, line: u64) {
        if let Some(i) = self.done.iter().position(|&(_, l)| l == line) {
            self.done.swap_remove(i);
        }
        self.reads_inflight = self.done.len() as u16;
    }
}
