//! Device memory contents: the storage behind the L2 and DRAM timing models.
//! Mappings are disjoint byte ranges; an access that touches an unmapped byte
//! fails with the first unmapped address (a GPU fault, or a host error).

use std::sync::atomic::{AtomicUsize, Ordering};

pub use arch::device::MapError;

#[derive(Clone, Debug)]
struct Region {
    base: u64,
    bytes: Vec<u8>,
}

impl Region {
    #[inline]
    fn end(&self) -> u64 {
        self.base + self.bytes.len() as u64
    }
}

/// Sparse device memory: sorted, disjoint regions.
///
/// `Sync`: compute units on worker threads read one store at once
/// (`crate::mem::staged`); each of them keeps its own region hint for that.
#[derive(Clone, Debug, Default)]
pub struct Backing {
    regions: Vec<Region>,
    /// Index of the region hit last (accesses are strongly local).
    last: Hint,
}

/// A region index remembered between accesses. Atomic only so that a
/// shared store stays `Sync`; it is written only when it changes.
#[derive(Debug, Default)]
struct Hint(AtomicUsize);

impl Hint {
    #[inline]
    fn get(&self) -> usize {
        self.0.load(Ordering::Relaxed)
    }

    #[inline]
    fn set(&self, i: usize) {
        if self.get() != i {
            self.0.store(i, Ordering::Relaxed);
        }
    }
}

impl Clone for Hint {
    fn clone(&self) -> Hint {
        Hint(AtomicUsize::new(self.get()))
    }
}

impl Backing {
    /// Nothing mapped.
    pub fn new() -> Backing {
        Backing::default()
    }

    /// Maps `[base, base + size)`, zero-filled.
    pub fn map(&mut self, base: u64, size: u64) -> Result<(), MapError> {
        let end = base.checked_add(size).ok_or(MapError::Empty)?;
        if size == 0 {
            return Err(MapError::Empty);
        }
        if let Some(r) = self.regions.iter().find(|r| base < r.end() && r.base < end) {
            return Err(MapError::Overlaps(r.base));
        }
        let at = self.regions.partition_point(|r| r.base < base);
        self.regions.insert(
            at,
            Region {
                base,
                bytes: vec![0; size as usize],
            },
        );
        self.last.set(0);
        Ok(())
    }

    /// Removes the mapping that starts at `base`; returns its size.
    pub fn unmap(&mut self, base: u64) -> Result<u64, MapError> {
        let at = self
            .regions
            .iter()
            .position(|r| r.base == base)
            .ok_or(MapError::NotMapped)?;
        let r = self.regions.remove(at);
        self.last.set(0);
        Ok(r.bytes.len() as u64)
    }

    /// `(base, size)` of every mapping, in address order.
    pub fn mappings(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.regions.iter().map(|r| (r.base, r.bytes.len() as u64))
    }

    #[inline]
    fn find(&self, address: u64) -> Option<usize> {
        let mut hint = self.last.get();
        let i = self.find_from(address, &mut hint);
        self.last.set(hint);
        i
    }

    /// The region holding `address`, trying region `hint` first and
    /// leaving the one found there.
    #[inline]
    fn find_from(&self, address: u64, hint: &mut usize) -> Option<usize> {
        if let Some(r) = self.regions.get(*hint) {
            if address >= r.base && address < r.end() {
                return Some(*hint);
            }
        }
        let at = self.regions.partition_point(|r| r.base <= address);
        let i = at.checked_sub(1)?;
        (address < self.regions[i].end()).then(|| {
            *hint = i;
            i
        })
    }

    /// Reads `out.len()` bytes at `address`; `Err(first unmapped byte)`.
    pub fn read(&self, address: u64, out: &mut [u8]) -> Result<(), u64> {
        let mut hint = self.last.get();
        let r = self.read_hinted(address, out, &mut hint);
        self.last.set(hint);
        r
    }

    /// [`Backing::read`] with the caller's own region hint (readers on
    /// several threads do not share one).
    pub fn read_hinted(&self, address: u64, out: &mut [u8], hint: &mut usize) -> Result<(), u64> {
        let mut done = 0usize;
        while done < out.len() {
            let a = address.wrapping_add(done as u64);
            let i = self.find_from(a, hint).ok_or(a)?;
            let r = &self.regions[i];
            let off = (a - r.base) as usize;
            let n = (r.bytes.len() - off).min(out.len() - done);
            out[done..done + n].copy_from_slice(&r.bytes[off..off + n]);
            done += n;
        }
        Ok(())
    }

    /// `Err(first unmapped byte)` unless every byte of `[address, +len)`
    /// is mapped.
    pub fn check_mapped(&self, address: u64, len: usize, hint: &mut usize) -> Result<(), u64> {
        let mut done = 0usize;
        while done < len {
            let a = address.wrapping_add(done as u64);
            let i = self.find_from(a, hint).ok_or(a)?;
            let r = &self.regions[i];
            done += (r.end() - a).min((len - done) as u64) as usize;
        }
        Ok(())
    }

    /// Writes `data` at `address`; `Err(first unmapped byte)` and nothing written.
    pub fn write(&mut self, address: u64, data: &[u8]) -> Result<(), u64> {
        // Check first so a faulting write changes nothing.
        let mut hint = self.last.get();
        self.check_mapped(address, data.len(), &mut hint)?;
        self.last.set(hint);
        let mut done = 0usize;
        while done < data.len() {
            let a = address.wrapping_add(done as u64);
            let i = self.find(a).ok_or(a)?;
            let r = &mut self.regions[i];
            let off = (a - r.base) as usize;
            let n = (r.bytes.len() - off).min(data.len() - done);
            r.bytes[off..off + n].copy_from_slice(&data[done..done + n]);
            done += n;
        }
        Ok(())
    }

    /// Reads a little-endian dword.
    pub fn read_u32(&self, address: u64) -> Result<u32, u64> {
        let mut b = [0u8; 4];
        self.read(address, &mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    /// Writes a little-endian dword.
    pub fn write_u32(&mut self, address: u64, value: u32) -> Result<(), u64> {
        self.write(address, &value.to_le_bytes())
    }

    /// Reads a little-endian qword.
    pub fn read_u64(&self, address: u64) -> Result<u64, u64> {
        let mut b = [0u8; 8];
        self.read(address, &mut b)?;
        Ok(u64::from_le_bytes(b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_back_across_regions_and_faults_on_holes() {
        let mut m = Backing::new();
        m.map(0x1000, 0x100).unwrap();
        m.map(0x1100, 0x100).unwrap();
        m.write(0x10fe, &[1, 2, 3, 4]).unwrap();
        let mut b = [0u8; 4];
        m.read(0x10fe, &mut b).unwrap();
        assert_eq!(b, [1, 2, 3, 4]);
        assert_eq!(m.read(0x11fe, &mut b), Err(0x1200));
        assert_eq!(m.write(0xffe, &[9, 9, 9]), Err(0xffe));
        assert_eq!(m.map(0x10f0, 4), Err(MapError::Overlaps(0x1000)));
        assert_eq!(m.unmap(0x1100), Ok(0x100));
        assert_eq!(m.write(0x10ff, &[7, 7]), Err(0x1100));
        // The faulting write changed nothing.
        m.read(0x10fe, &mut b[..2]).unwrap();
        assert_eq!(&b[..2], &[1, 2]);
    }
}
