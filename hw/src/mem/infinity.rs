//! One slice of the memory-side Infinity Cache, between an L2 channel and its
//! DRAM channel (RDNA2's "MALL"): set-associative, write-back, allocating
//! both the lines DRAM returns for reads and the L2's write-backs.
//!
//! The L2 sees the slice as it sees a DRAM channel ([`LineStore`]): a queue
//! of line accesses and completed reads to take. Per cycle, back to front:
//! 1. one line returned by DRAM is installed (a dirty victim is written back
//!    to DRAM: the fill waits while the DRAM queue is full) and handed on to
//!    the L2 from the next cycle;
//! 2. the head of the queue, once arrived, is looked up: a read hit is
//!    answered after `hit_latency` and its transfer on the slice's data bus;
//!    a read miss goes to DRAM (waiting while the DRAM queue is full); a
//!    write is installed dirty (its victim written back) and takes its
//!    transfer time on the bus.
//!
//! The data bus counts bytes, not whole cycles: a line occupies it for
//! `line_bytes / bytes_per_cycle` cycles, fractions carried to the next
//! transfer, so the mean rate equals `bytes_per_cycle` also when it does not
//! divide the line.

use std::collections::VecDeque;

use super::cache::TagArray;
use super::config::MemConfig;
use super::dram::{DramChannel, LineStore};
use super::CacheStats;

/// A queued access from the L2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Access {
    key: u64,
    line: u64,
    write: bool,
}

traces::signals! {
    /// One Infinity Cache slice.
    #[derive(Clone, Debug)]
    pub struct InfinitySlice {
        /// Requests queued from the L2.
        pub queue_count: u16,
        /// Reads answered (hit or DRAM fill) and not yet taken by the L2.
        pub fills_ready: u16,
        /// Reads waiting for DRAM.
        pub dram_reads: u16,
        /// The queue head could not proceed this cycle.
        pub stalled: bool,
        @untraced
        tags: TagArray,
        @untraced
        queue: VecDeque<(u64, Access)>,
        /// (cycle the L2 may take it, line) of answered reads.
        @untraced
        done: Vec<(u64, u64)>,
        /// Reads sent to DRAM and not yet returned.
        @untraced
        misses: u32,
        /// The data bus is free from this many byte-times (cycles × bytes_per_cycle).
        @untraced
        bus_free: u64,
        @untraced
        capacity: usize,
        @untraced
        hit_latency: u64,
        @untraced
        bytes_per_cycle: u64,
        @untraced
        line_bytes: u64,
        @untraced
        channels: u64,
        /// Counters (`uncached`: L2 write-backs absorbed).
        @untraced
        pub stats: CacheStats,
    }
}

impl InfinitySlice {
    /// A cold slice, or `None` when the configuration has no Infinity Cache.
    pub fn new(mem: &MemConfig) -> Option<InfinitySlice> {
        let ic = mem.infinity_cache.as_ref()?;
        let sets = ic.slice_bytes / (ic.ways * mem.line_bytes);
        Some(InfinitySlice {
            queue_count: 0,
            fills_ready: 0,
            dram_reads: 0,
            stalled: false,
            tags: TagArray::new(sets, ic.ways),
            queue: VecDeque::with_capacity(ic.queue as usize),
            done: Vec::new(),
            misses: 0,
            bus_free: 0,
            capacity: ic.queue as usize,
            hit_latency: u64::from(ic.hit_latency),
            bytes_per_cycle: u64::from(ic.bytes_per_cycle),
            line_bytes: u64::from(mem.line_bytes),
            channels: u64::from(mem.l2.channels),
            stats: CacheStats::default(),
        })
    }

    /// Nothing queued, waiting for DRAM or untaken.
    #[inline]
    pub fn idle(&self) -> bool {
        self.queue.is_empty() && self.done.is_empty() && self.misses == 0
    }

    /// The earliest cycle at which this slice's edge may change anything
    /// (its queue head arriving, a line ready for the L2); DRAM fills count
    /// as the DRAM channel's events.
    pub fn next_event(&self) -> u64 {
        let head = self.queue.front().map(|&(ready, _)| ready);
        let fill = self.done.iter().map(|&(d, _)| d).min();
        head.into_iter().chain(fill).min().unwrap_or(u64::MAX)
    }

    /// Books one line on the data bus from cycle `start` on; returns the
    /// cycle its last byte is through.
    fn transfer(&mut self, start: u64) -> u64 {
        let from = (start * self.bytes_per_cycle).max(self.bus_free);
        self.bus_free = from + self.line_bytes;
        self.bus_free.div_ceil(self.bytes_per_cycle)
    }

    /// Writes the dirty victim of installing `key` (if any) back to DRAM.
    fn install(&mut self, key: u64, line: u64, dirty: bool, dram: &mut DramChannel, now: u64) {
        let (_, victim) = self.tags.install(key, dirty);
        if let Some(v) = victim.filter(|v| v.dirty) {
            let vline = v.key * self.channels + line % self.channels;
            dram.push(v.key, vline, true, now + 1);
        }
    }

    /// True when installing `key` needs a DRAM write the queue cannot take.
    fn blocked(&self, key: u64, dram: &DramChannel) -> bool {
        let (_, victim) = self.tags.victim(key);
        victim.is_some_and(|v| v.dirty) && !dram.can_accept()
    }

    /// One cycle, with the DRAM channel below.
    pub fn tick(&mut self, now: u64, dram: &mut DramChannel) {
        // 1. One DRAM fill.
        if let Some(line) = dram.peek_fill(now) {
            let key = line / self.channels;
            if !self.blocked(key, dram) {
                dram.take_fill(line);
                self.misses = self.misses.saturating_sub(1);
                self.install(key, line, false, dram, now);
                self.done.push((now + 1, line));
            }
        }
        // 2. The queue head.
        self.stalled = false;
        if let Some(&(ready, a)) = self.queue.front() {
            if ready <= now {
                let hit = self.tags.lookup(a.key);
                let ok = match (a.write, hit) {
                    (false, Some(e)) => {
                        self.tags.touch(e);
                        self.stats.hits += 1;
                        let t = self.transfer(now + self.hit_latency);
                        self.done.push((t, a.line));
                        true
                    }
                    (false, None) if dram.can_accept() => {
                        self.stats.misses += 1;
                        self.misses += 1;
                        dram.push(a.key, a.line, false, now + 1);
                        true
                    }
                    (true, Some(e)) => {
                        self.tags.touch(e);
                        self.tags.set_dirty(e);
                        self.stats.uncached += 1;
                        self.transfer(now);
                        true
                    }
                    (true, None) if !self.blocked(a.key, dram) => {
                        self.stats.uncached += 1;
                        self.install(a.key, a.line, true, dram, now);
                        self.transfer(now);
                        true
                    }
                    _ => false,
                };
                if ok {
                    self.queue.pop_front();
                } else {
                    self.stalled = true;
                    self.stats.stall_cycles += 1;
                }
            }
        }
        self.queue_count = self.queue.len() as u16;
        self.fills_ready = self.done.len() as u16;
        self.dram_reads = self.misses.min(u32::from(u16::MAX)) as u16;
    }
}

impl LineStore for InfinitySlice {
    fn can_accept(&self) -> bool {
        self.queue.len() < self.capacity
    }

    fn push(&mut self, key: u64, line: u64, write: bool, ready_at: u64) -> bool {
        if !self.can_accept() {
            return false;
        }
        self.queue
            .push_back((ready_at, Access { key, line, write }));
        self.queue_count = self.queue.len() as u16;
        true
    }

    fn peek_fill(&self, now: u64) -> Option<u64> {
        self.done
            .iter()
            .filter(|(d, _)| *d <= now)
            .min_by_key(|(d, _)| *d)
            .map(|&(_, line)| line)
    }

    fn take_fill(&mut self, line: u64) {
        if let Some(i) = self.done.iter().position(|&(_, l)| l == line) {
            self.done.swap_remove(i);
        }
        self.fills_ready = self.done.len() as u16;
    }
}

#[cfg(test)]
mod tests {
    use super::super::config::InfinityCacheConfig;
    use super::*;

    fn mem() -> MemConfig {
        MemConfig {
            infinity_cache: Some(InfinityCacheConfig {
                slice_bytes: 128 * 64,
                ways: 4,
                hit_latency: 30,
                bytes_per_cycle: 48,
                queue: 8,
            }),
            ..MemConfig::default()
        }
    }

    /// Runs until `line` is ready; returns the cycle.
    fn read(ic: &mut InfinitySlice, dram: &mut DramChannel, line: u64, now: &mut u64) -> u64 {
        let channels = 4;
        assert!(ic.push(line / channels, line, false, *now));
        for _ in 0..10_000 {
            dram.tick(*now);
            ic.tick(*now, dram);
            if ic.peek_fill(*now) == Some(line) {
                ic.take_fill(line);
                return *now;
            }
            *now += 1;
        }
        panic!("line {line} never returned");
    }

    #[test]
    fn miss_fills_from_dram_then_hits_after_hit_latency() {
        let m = mem();
        let mut ic = InfinitySlice::new(&m).unwrap();
        let mut dram = DramChannel::new(&m);
        let mut now = 0;
        let t0 = now;
        let miss = read(&mut ic, &mut dram, 8, &mut now) - t0;
        assert_eq!(ic.stats.misses, 1);
        // DRAM: latency + row miss + 8-cycle transfer, then one cycle to the L2.
        let d = &m.dram;
        let transfer = u64::from(m.line_bytes.div_ceil(d.bytes_per_cycle));
        assert_eq!(
            miss,
            1 + u64::from(d.latency + d.row_miss_cycles) + transfer + 1
        );
        now += 1;
        let t1 = now;
        let hit = read(&mut ic, &mut dram, 8, &mut now) - t1;
        assert_eq!(ic.stats.hits, 1);
        // 30 cycles + 128 bytes at 48 per cycle (2.67 → 3 cycles).
        assert_eq!(hit, 30 + 3);
        assert!(ic.idle() && dram.idle());
    }

    #[test]
    fn bus_accounts_fractional_cycles() {
        let m = mem();
        let mut ic = InfinitySlice::new(&m).unwrap();
        // Three back-to-back lines at 48 B/cycle take 384 / 48 = 8 cycles, not 9.
        let a = ic.transfer(0);
        let b = ic.transfer(0);
        let c = ic.transfer(0);
        assert_eq!((a, b, c), (3, 6, 8));
    }

    #[test]
    fn write_backs_allocate_dirty_and_evict_to_dram() {
        let m = mem();
        let mut ic = InfinitySlice::new(&m).unwrap();
        let mut dram = DramChannel::new(&m);
        // 16 sets × 4 ways; keys 0, 16, 32, 48, 64 share set 0.
        for (n, key) in [0u64, 16, 32, 48, 64].into_iter().enumerate() {
            assert!(ic.push(key, key * 4, true, n as u64));
            ic.tick(n as u64, &mut dram);
        }
        assert_eq!(ic.stats.uncached, 5);
        assert_eq!(dram.queue_count, 1, "the fifth write evicts a dirty line");
        let mut now = 10;
        let t = read(&mut ic, &mut dram, 16 * 4, &mut now);
        assert!(t - 10 < 40, "a written line is an Infinity Cache hit");
        assert_eq!(ic.stats.hits, 1);
    }
}
