//! Device memory as one compute unit's clock edge sees it ([`DeviceMem`]),
//! and the staged form that lets compute units run their edges on worker
//! threads with the results of the serial evaluation (`crate::parallel`,
//! docs/cycle-model.md "Worker threads").
//!
//! Memory instructions read and write device memory at issue, and the
//! serial evaluation does so in CU order within an edge: cu0's accesses, then
//! cu1's, and so on. On worker threads every CU's edge instead reads the
//! store **as it was at the start of the edge** and keeps its writes in its
//! own [`EdgeLog`]. After the edge the logs are committed in CU order: a log
//! none of whose reads overlaps a write made before it in the serial order —
//! by a lower-numbered CU this edge ([`WrittenSet`]), or by the same CU
//! earlier this edge — read exactly what the serial evaluation reads, so its
//! writes are applied as they are. A log with such a read (a conflict: two
//! CUs' atomics on one counter, a load of what another CU just stored) is
//! dropped and the CU executes that edge's memory instructions again on the
//! store itself (`Cu::reexecute_staged`), which then holds every earlier
//! write: the serial result, by construction.
//!
//! Conflicts are found per dword: two accesses to different bytes of one
//! dword count as overlapping, which costs a needless re-execution, never a
//! wrong result.

use std::collections::HashSet;
use std::hash::BuildHasherDefault;

use super::backing::Backing;
use crate::hash::AddressHasher;

/// Device memory for one CU's edge: the store itself (serial evaluation),
/// or the start-of-edge store with this CU's log (worker threads).
pub enum DeviceMem<'a> {
    /// Serial evaluation: reads and writes go to the store.
    Direct(&'a mut Backing),
    /// Worker threads: reads see the store as the edge found it, writes are
    /// kept in the log until the edge is committed.
    Staged {
        /// The store as the edge found it (shared by every worker).
        base: &'a Backing,
        /// This CU's accesses this edge.
        log: &'a mut EdgeLog,
    },
}

impl DeviceMem<'_> {
    /// The same memory for a shorter borrow (one instruction's execution).
    pub fn reborrow(&mut self) -> DeviceMem<'_> {
        match self {
            DeviceMem::Direct(b) => DeviceMem::Direct(b),
            DeviceMem::Staged { base, log } => DeviceMem::Staged { base, log },
        }
    }

    /// True on worker threads (writes are kept until the edge is committed).
    pub fn is_staged(&self) -> bool {
        matches!(self, DeviceMem::Staged { .. })
    }

    /// The store as this edge reads it. Instruction decoding reads code
    /// here; in the staged form that is the store as the edge found it (see
    /// docs/cycle-model.md on code written by the kernel).
    pub fn contents(&self) -> &Backing {
        match self {
            DeviceMem::Direct(b) => b,
            DeviceMem::Staged { base, .. } => base,
        }
    }

    /// Reads `out.len()` bytes at `address`; `Err(first unmapped byte)`.
    pub fn read(&mut self, address: u64, out: &mut [u8]) -> Result<(), u64> {
        match self {
            DeviceMem::Direct(b) => b.read(address, out),
            DeviceMem::Staged { base, log } => {
                base.read_hinted(address, out, &mut log.hint)?;
                log.accesses.push(Access {
                    address,
                    len: out.len() as u32,
                    data: READ,
                });
                Ok(())
            }
        }
    }

    /// Reads a little-endian dword.
    pub fn read_u32(&mut self, address: u64) -> Result<u32, u64> {
        let mut b = [0u8; 4];
        self.read(address, &mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    /// `Err(first unmapped byte)` unless `[address, +len)` is mapped; reads
    /// nothing (a store checks its whole footprint before its first write).
    pub fn check_mapped(&mut self, address: u64, len: usize) -> Result<(), u64> {
        match self {
            DeviceMem::Direct(b) => b.check_mapped(address, len, &mut 0),
            DeviceMem::Staged { base, log } => base.check_mapped(address, len, &mut log.hint),
        }
    }

    /// Writes `data` at `address`; `Err(first unmapped byte)` and nothing
    /// written.
    pub fn write(&mut self, address: u64, data: &[u8]) -> Result<(), u64> {
        match self {
            DeviceMem::Direct(b) => b.write(address, data),
            DeviceMem::Staged { base, log } => {
                base.check_mapped(address, data.len(), &mut log.hint)?;
                log.accesses.push(Access {
                    address,
                    len: data.len() as u32,
                    data: log.data.len() as u32,
                });
                log.data.extend_from_slice(data);
                log.writes += 1;
                Ok(())
            }
        }
    }
}

/// `Access::data` of a read.
const READ: u32 = u32::MAX;

/// One access of a staged edge.
#[derive(Clone, Copy, Debug)]
struct Access {
    address: u64,
    len: u32,
    /// Offset of the written bytes in `EdgeLog::data`, or [`READ`].
    data: u32,
}

impl Access {
    /// The dwords it touches.
    fn dwords(&self) -> std::ops::Range<u64> {
        let end = self.address.saturating_add(u64::from(self.len.max(1)) - 1);
        self.address / 4..end / 4 + 1
    }
}

/// One CU's device-memory accesses during one staged edge, in issue order.
#[derive(Clone, Debug, Default)]
pub struct EdgeLog {
    accesses: Vec<Access>,
    data: Vec<u8>,
    writes: usize,
    /// The CU's region hint into the shared store.
    hint: usize,
    /// This CU's own writes while [`EdgeLog::conflicts`] walks the log.
    own: WrittenSet,
}

impl EdgeLog {
    /// Empties the log for the next edge (keeping its allocations).
    pub fn clear(&mut self) {
        self.accesses.clear();
        self.data.clear();
        self.writes = 0;
    }

    /// True when the edge accessed no device memory.
    pub fn is_empty(&self) -> bool {
        self.accesses.is_empty()
    }

    /// Writes logged this edge.
    pub fn writes(&self) -> usize {
        self.writes
    }

    /// True when a read of this edge may have seen other bytes than the
    /// serial evaluation would: it overlaps a write in `earlier` (the CUs
    /// committed before this one, this edge) or one of this log's own
    /// writes made before it.
    pub fn conflicts(&mut self, earlier: &WrittenSet) -> bool {
        if earlier.is_empty() && self.writes == 0 {
            return false;
        }
        self.own.clear();
        for a in &self.accesses {
            if a.data == READ {
                if a.dwords()
                    .any(|d| earlier.contains(d) || self.own.contains(d))
                {
                    return true;
                }
            } else {
                self.own.insert(a.dwords());
            }
        }
        false
    }

    /// Applies the writes, in order, to `backing` and records them in
    /// `written`.
    pub fn apply(&self, backing: &mut Backing, written: &mut WrittenSet) {
        for a in self.accesses.iter().filter(|a| a.data != READ) {
            let at = a.data as usize;
            // Mapped: checked when the write was logged, and mappings do not
            // change during an edge.
            let applied = backing.write(a.address, &self.data[at..at + a.len as usize]);
            debug_assert!(applied.is_ok(), "a logged write was checked to be mapped");
        }
        self.record_writes(written);
    }

    /// Records the log's writes in `written` without applying them (the CU
    /// executed its instructions again on the store, which wrote the same
    /// addresses: addresses come from registers, not from memory).
    pub fn record_writes(&self, written: &mut WrittenSet) {
        for a in self.accesses.iter().filter(|a| a.data != READ) {
            written.insert(a.dwords());
        }
    }
}

/// Dwords of device memory written so far this edge.
#[derive(Clone, Debug, Default)]
pub struct WrittenSet {
    dwords: HashSet<u64, BuildHasherDefault<AddressHasher>>,
}

impl WrittenSet {
    /// Nothing written (keeps the allocation).
    pub fn clear(&mut self) {
        self.dwords.clear();
    }

    /// True when nothing was written.
    pub fn is_empty(&self) -> bool {
        self.dwords.is_empty()
    }

    fn contains(&self, dword: u64) -> bool {
        self.dwords.contains(&dword)
    }

    fn insert(&mut self, dwords: std::ops::Range<u64>) {
        self.dwords.extend(dwords);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> Backing {
        let mut b = Backing::new();
        b.map(0x1000, 0x100).unwrap();
        b
    }

    #[test]
    fn a_staged_write_is_invisible_until_applied_and_then_lands() {
        let mut b = store();
        let mut log = EdgeLog::default();
        {
            let mut m = DeviceMem::Staged {
                base: &b,
                log: &mut log,
            };
            m.write(0x1010, &[1, 2, 3, 4]).unwrap();
            // Reads see the start of the edge, and then conflict with the
            // CU's own earlier write.
            assert_eq!(m.read_u32(0x1010), Ok(0));
            assert_eq!(m.write(0x2000, &[1]), Err(0x2000));
        }
        assert!(log.conflicts(&WrittenSet::default()));
        let mut written = WrittenSet::default();
        log.apply(&mut b, &mut written);
        assert_eq!(b.read_u32(0x1010), Ok(0x0403_0201));
        assert!(written.contains(0x1010 / 4));
    }

    #[test]
    fn reads_conflict_only_with_dwords_written_before_them() {
        let b = store();
        let mut earlier = WrittenSet::default();
        earlier.insert(0x1020 / 4..0x1020 / 4 + 1);
        let mut log = EdgeLog::default();
        let mut m = DeviceMem::Staged {
            base: &b,
            log: &mut log,
        };
        m.read(0x1024, &mut [0u8; 4]).unwrap();
        // A write after the read does not change what it read.
        m.write(0x1030, &[9]).unwrap();
        m.read(0x1000, &mut [0u8; 2]).unwrap();
        assert!(!log.conflicts(&earlier));
        // A byte read inside a written dword conflicts.
        let mut m = DeviceMem::Staged {
            base: &b,
            log: &mut log,
        };
        m.read(0x1023, &mut [0u8; 1]).unwrap();
        assert!(log.conflicts(&earlier));
        log.clear();
        assert!(log.is_empty() && !log.conflicts(&earlier));
    }
}
