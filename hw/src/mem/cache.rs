//! Generic cache pieces: a set-associative tag array with LRU replacement and
//! dirty bits, and an MSHR file that merges misses to the same line. Both are
//! storage (RAM-like): reads are `&self`, writes happen at the owner's clock
//! edge through the `&mut self` write ports.

/// A set-associative tag array. Keys are line addresses with the channel
/// interleave already removed by the owner, so the set index uses the low bits.
#[derive(Clone, Debug)]
pub struct TagArray {
    sets: u64,
    ways: usize,
    /// Per way: key + 1 (0 = invalid).
    tags: Vec<u64>,
    /// Per way: last-use stamp (LRU = smallest).
    stamps: Vec<u64>,
    dirty: Vec<bool>,
    /// Per way: only some bytes are valid (allocated by a partial write
    /// without a fill; the L2's byte mask).
    partial: Vec<bool>,
    clock: u64,
}

/// A line pushed out by an install.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evicted {
    /// The key of the evicted line.
    pub key: u64,
    /// It was written since it was filled.
    pub dirty: bool,
}

impl TagArray {
    /// `sets` (a power of two) × `ways`, all invalid.
    pub fn new(sets: u32, ways: u32) -> TagArray {
        let n = sets as usize * ways as usize;
        TagArray {
            sets: u64::from(sets.max(1)),
            ways: ways.max(1) as usize,
            tags: vec![0; n],
            stamps: vec![0; n],
            dirty: vec![false; n],
            partial: vec![false; n],
            clock: 0,
        }
    }

    /// The entries of `key`'s set.
    #[inline]
    fn set_range(&self, key: u64) -> std::ops::Range<usize> {
        let s = (key & (self.sets - 1)) as usize;
        s * self.ways..(s + 1) * self.ways
    }

    /// The entry holding `key`, if resident.
    #[inline]
    pub fn lookup(&self, key: u64) -> Option<usize> {
        let r = self.set_range(key);
        let start = r.start;
        self.tags[r]
            .iter()
            .position(|&t| t == key + 1)
            .map(|w| start + w)
    }

    /// Marks an entry most recently used.
    #[inline]
    pub fn touch(&mut self, entry: usize) {
        self.clock += 1;
        self.stamps[entry] = self.clock;
    }

    /// Drops `key` if resident (a write-through level whose copy went stale).
    pub fn invalidate(&mut self, key: u64) {
        if let Some(e) = self.lookup(key) {
            self.tags[e] = 0;
            self.dirty[e] = false;
            self.partial[e] = false;
        }
    }

    /// Marks an entry written.
    pub fn set_dirty(&mut self, entry: usize) {
        self.dirty[entry] = true;
    }

    /// Whether an entry is dirty.
    pub fn is_dirty(&self, entry: usize) -> bool {
        self.dirty[entry]
    }

    /// Marks an entry as holding only the bytes written to it (`true`: a
    /// write allocated it without a fill) or the whole line (`false`: a
    /// fill merged under the written bytes).
    pub fn set_partial(&mut self, entry: usize, partial: bool) {
        self.partial[entry] = partial;
    }

    /// Whether an entry holds only some of its line's bytes.
    pub fn is_partial(&self, entry: usize) -> bool {
        self.partial[entry]
    }

    /// The entry an install of `key` would replace: an invalid way if any,
    /// else the least recently used; and what it holds.
    pub fn victim(&self, key: u64) -> (usize, Option<Evicted>) {
        let r = self.set_range(key);
        let mut best = r.start;
        for e in r {
            if self.tags[e] == 0 {
                return (e, None);
            }
            if self.stamps[e] < self.stamps[best] {
                best = e;
            }
        }
        let ev = Evicted {
            key: self.tags[best] - 1,
            dirty: self.dirty[best],
        };
        (best, Some(ev))
    }

    /// Installs `key` (most recently used) in place of the victim; returns the
    /// entry and what was evicted.
    pub fn install(&mut self, key: u64, dirty: bool) -> (usize, Option<Evicted>) {
        let (e, ev) = self.victim(key);
        self.tags[e] = key + 1;
        self.dirty[e] = dirty;
        self.partial[e] = false;
        self.touch(e);
        (e, ev)
    }

    /// Valid lines held.
    pub fn occupancy(&self) -> usize {
        self.tags.iter().filter(|&&t| t != 0).count()
    }
}

/// One MSHR: an outstanding line (or one uncached request) and the requests
/// waiting for it.
#[derive(Clone, Debug)]
pub struct Mshr<T> {
    /// In use.
    pub valid: bool,
    /// The line.
    pub line: u64,
    /// A line fill other requests to the line may merge into (false for
    /// writes, atomics and bypassing reads, which wait alone).
    pub fill: bool,
    /// The waiting requests, oldest first (capacity reserved at construction).
    pub targets: Vec<T>,
}

/// A file of MSHRs.
#[derive(Clone, Debug)]
pub struct MshrFile<T> {
    entries: Vec<Mshr<T>>,
    /// Per entry: the line of a valid fill entry, else [`NO_FILL`]. A dense
    /// copy of the match fields so the associative search of a miss scans one
    /// array (files of 100+ entries are searched every lookup).
    fill_keys: Vec<u64>,
    /// Free entries, lowest index on top.
    free: Vec<u32>,
    used: usize,
    max_targets: usize,
}

/// [`MshrFile::fill_keys`] of an entry that is free or not a fill.
const NO_FILL: u64 = u64::MAX;

/// Where a missing request goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MissSlot {
    /// Joins the fill already outstanding in this entry.
    Merge(usize),
    /// Takes this free entry.
    Allocate(usize),
    /// No room: the requester stalls.
    Full,
}

impl<T> MshrFile<T> {
    /// `n` entries of up to `targets` requests each.
    pub fn new(n: u32, targets: u32) -> MshrFile<T> {
        MshrFile {
            entries: (0..n)
                .map(|_| Mshr {
                    valid: false,
                    line: 0,
                    fill: false,
                    targets: Vec::with_capacity(targets as usize),
                })
                .collect(),
            fill_keys: vec![NO_FILL; n as usize],
            free: (0..n).rev().collect(),
            used: 0,
            max_targets: targets.max(1) as usize,
        }
    }

    /// Entries in use.
    pub fn used(&self) -> usize {
        self.used
    }

    /// Pure decision for a miss to `line`: merge into an outstanding fill
    /// (when `mergeable` and it has room), else a free entry, else full.
    pub fn slot_for(&self, line: u64, mergeable: bool) -> MissSlot {
        if mergeable {
            if let Some(i) = self.find_fill(line) {
                if self.entries[i].targets.len() < self.max_targets {
                    return MissSlot::Merge(i);
                }
                // A full fill entry: a second entry for the same line would
                // fetch it twice, so the requester waits instead.
                return MissSlot::Full;
            }
        }
        match self.free.last() {
            Some(&i) => MissSlot::Allocate(i as usize),
            None => MissSlot::Full,
        }
    }

    /// The outstanding fill of `line`, if any.
    #[inline]
    pub fn find_fill(&self, line: u64) -> Option<usize> {
        if line == NO_FILL {
            return None;
        }
        self.fill_keys.iter().position(|&k| k == line)
    }

    /// Write port: applies a decision from [`slot_for`](Self::slot_for).
    pub fn apply(&mut self, slot: MissSlot, line: u64, fill: bool, target: T) {
        match slot {
            MissSlot::Merge(i) => self.entries[i].targets.push(target),
            MissSlot::Allocate(i) => {
                // `i` came from `slot_for`: the top of the free stack.
                match self.free.last() {
                    Some(&top) if top as usize == i => {
                        self.free.pop();
                    }
                    _ => match self.free.iter().position(|&f| f as usize == i) {
                        Some(k) => {
                            self.free.remove(k);
                        }
                        None => return,
                    },
                }
                if fill {
                    self.fill_keys[i] = line;
                }
                let m = &mut self.entries[i];
                m.valid = true;
                m.line = line;
                m.fill = fill;
                m.targets.clear();
                m.targets.push(target);
                self.used += 1;
            }
            MissSlot::Full => {}
        }
    }

    /// The entry `i` (for a response naming it).
    pub fn get(&self, i: usize) -> Option<&Mshr<T>> {
        self.entries.get(i).filter(|m| m.valid)
    }

    /// Frees entry `i`, handing its targets to `f` in arrival order.
    pub fn retire(&mut self, i: usize, mut f: impl FnMut(&T)) {
        if let Some(m) = self.entries.get_mut(i).filter(|m| m.valid) {
            for t in &m.targets {
                f(t);
            }
            m.targets.clear();
            m.valid = false;
            self.used -= 1;
            self.fill_keys[i] = NO_FILL;
            // Keep the lowest free index on top (allocation order as a
            // priority encoder would pick it).
            let at = self.free.partition_point(|&f| f as usize > i);
            self.free.insert(at, i as u32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lru_replaces_least_recently_used_way() {
        let mut t = TagArray::new(2, 2);
        // Keys 0, 2, 4 share set 0.
        t.install(0, false);
        t.install(2, false);
        let e0 = t.lookup(0).unwrap();
        t.touch(e0);
        let (_, ev) = t.install(4, false);
        assert_eq!(
            ev,
            Some(Evicted {
                key: 2,
                dirty: false
            })
        );
        assert!(t.lookup(0).is_some());
        assert!(t.lookup(2).is_none());
        assert!(t.lookup(4).is_some());
        // Other set untouched.
        assert!(t.lookup(1).is_none());
    }

    #[test]
    fn dirty_bit_travels_with_the_eviction() {
        let mut t = TagArray::new(1, 1);
        let (e, _) = t.install(7, false);
        t.set_dirty(e);
        let (_, ev) = t.install(9, false);
        assert_eq!(
            ev,
            Some(Evicted {
                key: 7,
                dirty: true
            })
        );
        assert!(!t.is_dirty(t.lookup(9).unwrap()));
    }

    #[test]
    fn mshr_merges_fills_only_and_limits_targets() {
        let mut m: MshrFile<u16> = MshrFile::new(2, 2);
        let s = m.slot_for(5, true);
        assert_eq!(s, MissSlot::Allocate(0));
        m.apply(s, 5, true, 1);
        assert_eq!(m.slot_for(5, true), MissSlot::Merge(0));
        m.apply(MissSlot::Merge(0), 5, true, 2);
        // Targets full: wait rather than fetch twice.
        assert_eq!(m.slot_for(5, true), MissSlot::Full);
        // Non-mergeable requests take their own entry.
        assert_eq!(m.slot_for(5, false), MissSlot::Allocate(1));
        m.apply(MissSlot::Allocate(1), 5, false, 3);
        assert_eq!(m.slot_for(6, true), MissSlot::Full);
        let mut got = Vec::new();
        m.retire(0, |t| got.push(*t));
        assert_eq!(got, [1, 2]);
        assert_eq!(m.used(), 1);
        assert_eq!(m.slot_for(6, true), MissSlot::Allocate(0));
        // Freed out of order, entries are still taken lowest first, and a
        // retired fill no longer matches its line.
        m.apply(MissSlot::Allocate(0), 6, true, 4);
        m.retire(1, |_| {});
        m.retire(0, |_| {});
        assert_eq!(m.find_fill(6), None);
        assert_eq!(m.slot_for(7, true), MissSlot::Allocate(0));
        m.apply(MissSlot::Allocate(0), 7, true, 5);
        assert_eq!(m.slot_for(8, true), MissSlot::Allocate(1));
        assert_eq!(m.find_fill(7), Some(0));
    }
}
