//! Sparse device memory: mapped regions backed by lazily allocated pages.
//!
//! A region is mapped with [`Memory::map`] and reads as zero until written.
//! Pages are allocated on the first write, so mapping a large region costs
//! nothing until it is used. Every access names its byte range; an access that
//! touches an unmapped byte fails with that byte's address (the first one), which
//! the caller turns into a host [`arch::device::DeviceError::Unmapped`] or a GPU
//! [`arch::device::FaultKind::MemoryViolation`].
//!
//! Regions are kept in a `Vec` sorted by base address (no hashing: lookups are a
//! binary search, iteration order is the address order), with a one-entry cache
//! of the last region hit because accesses are highly local.

use std::cell::Cell;

/// Bytes per backing page.
const PAGE_BITS: u32 = 16;
/// Bytes per backing page.
const PAGE: u64 = 1 << PAGE_BITS;

/// One mapped range.
#[derive(Clone, Debug)]
struct Region {
    base: u64,
    size: u64,
    /// Page `i` backs `[base + i * PAGE, min(base + (i + 1) * PAGE, end))`; `None` reads as zero.
    pages: Vec<Option<Box<[u8]>>>,
}

impl Region {
    fn end(&self) -> u64 {
        self.base + self.size
    }

    /// Bytes page `page` backs: a whole page, or what is left of the region
    /// for its last page. Every access is bounded by the region's end, so a
    /// small mapping (a signal, a kernarg block) allocates and zeroes only its
    /// own bytes, not 64 KiB.
    fn page_len(&self, page: usize) -> usize {
        (self.size - ((page as u64) << PAGE_BITS)).min(PAGE) as usize
    }
}

/// A zero-filled page of `len` bytes.
fn zeroed_page(len: usize) -> Box<[u8]> {
    vec![0u8; len].into_boxed_slice()
}

pub use arch::device::MapError;

/// Sparse device memory.
#[derive(Debug)]
pub struct Memory {
    /// Sorted by `base`, non-overlapping.
    regions: Vec<Region>,
    /// Index of the region hit last (a hint; always re-checked).
    last: Cell<usize>,
    /// The vector-memory fast paths may use [`Memory::page_bytes`] (off only
    /// for differential tests, see `GoldenConfig::fast_paths`).
    fast_paths: bool,
}

impl Default for Memory {
    fn default() -> Memory {
        Memory {
            regions: Vec::new(),
            last: Cell::new(0),
            fast_paths: true,
        }
    }
}

impl Memory {
    /// Empty memory: every address is unmapped.
    pub fn new() -> Memory {
        Memory::default()
    }

    /// Allows or forbids the interpreter's direct page-access fast paths.
    pub fn set_fast_paths(&mut self, on: bool) {
        self.fast_paths = on;
    }

    /// True when the interpreter may use its direct page-access fast paths.
    #[inline]
    pub fn fast_paths(&self) -> bool {
        self.fast_paths
    }

    /// Maps `[base, base + size)`, zero-filled.
    pub fn map(&mut self, base: u64, size: u64) -> Result<(), MapError> {
        let end = base.checked_add(size).ok_or(MapError::Empty)?;
        if size == 0 {
            return Err(MapError::Empty);
        }
        let at = self.regions.partition_point(|r| r.base < base);
        if let Some(prev) = at.checked_sub(1).and_then(|i| self.regions.get(i)) {
            if prev.end() > base {
                return Err(MapError::Overlaps(prev.base));
            }
        }
        if let Some(next) = self.regions.get(at) {
            if next.base < end {
                return Err(MapError::Overlaps(next.base));
            }
        }
        let pages = size.div_ceil(PAGE) as usize;
        self.regions.insert(
            at,
            Region {
                base,
                size,
                pages: vec![None; pages],
            },
        );
        Ok(())
    }

    /// Removes the mapping that starts at `base`.
    pub fn unmap(&mut self, base: u64) -> Result<(), MapError> {
        let at = self
            .regions
            .binary_search_by_key(&base, |r| r.base)
            .map_err(|_| MapError::NotMapped)?;
        self.regions.remove(at);
        self.last.set(0);
        Ok(())
    }

    /// The mapped ranges `(base, size)` in address order.
    pub fn mappings(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.regions.iter().map(|r| (r.base, r.size))
    }

    /// True when every byte of `[address, address + len)` is mapped.
    pub fn is_mapped(&self, address: u64, len: u64) -> bool {
        let mut at = address;
        let Some(end) = address.checked_add(len) else {
            return false;
        };
        while at < end {
            match self.region_index(at) {
                Some(i) => at = self.regions[i].end(),
                None => return false,
            }
        }
        true
    }

    /// Index of the region containing `address`.
    #[inline]
    fn region_index(&self, address: u64) -> Option<usize> {
        let hint = self.last.get();
        if let Some(r) = self.regions.get(hint) {
            if address >= r.base && address < r.end() {
                return Some(hint);
            }
        }
        let at = self.regions.partition_point(|r| r.base <= address);
        let i = at.checked_sub(1)?;
        let r = &self.regions[i];
        if address < r.end() {
            self.last.set(i);
            Some(i)
        } else {
            None
        }
    }

    /// Reads `out.len()` bytes at `address`; on failure returns the first unmapped address.
    pub fn read(&self, address: u64, out: &mut [u8]) -> Result<(), u64> {
        let mut done = 0usize;
        while done < out.len() {
            let at = address.wrapping_add(done as u64);
            let i = self.region_index(at).ok_or(at)?;
            let r = &self.regions[i];
            let offset = at - r.base;
            let page = (offset >> PAGE_BITS) as usize;
            let in_page = (offset & (PAGE - 1)) as usize;
            let room =
                (PAGE as usize - in_page).min((r.end() - at).min(usize::MAX as u64) as usize);
            let n = room.min(out.len() - done);
            match &r.pages[page] {
                Some(p) => out[done..done + n].copy_from_slice(&p[in_page..in_page + n]),
                None => out[done..done + n].fill(0),
            }
            done += n;
        }
        Ok(())
    }

    /// Writes `data` at `address`; on failure returns the first unmapped address
    /// and writes nothing.
    pub fn write(&mut self, address: u64, data: &[u8]) -> Result<(), u64> {
        // Check first so that a failing access has no partial effect.
        if !self.is_mapped(address, data.len() as u64) {
            let mut at = address;
            while self.region_index(at).is_some() {
                at = self.regions[self.last.get()].end();
            }
            return Err(at);
        }
        let mut done = 0usize;
        while done < data.len() {
            let at = address + done as u64;
            let i = self.region_index(at).ok_or(at)?;
            let r = &mut self.regions[i];
            let offset = at - r.base;
            let page = (offset >> PAGE_BITS) as usize;
            let in_page = (offset & (PAGE - 1)) as usize;
            let room =
                (PAGE as usize - in_page).min((r.end() - at).min(usize::MAX as u64) as usize);
            let n = room.min(data.len() - done);
            let len = r.page_len(page);
            let p = r.pages[page].get_or_insert_with(|| zeroed_page(len));
            p[in_page..in_page + n].copy_from_slice(&data[done..done + n]);
            done += n;
        }
        Ok(())
    }

    /// The bytes `[address, address + len)` when they lie inside one page of
    /// one mapping (a page never written reads as zeros, `len` at most 16);
    /// `None` otherwise, and the caller takes [`Memory::read`]'s general path.
    #[inline]
    pub fn page_bytes(&self, address: u64, len: usize) -> Option<&[u8]> {
        static ZEROS: [u8; 16] = [0; 16];
        let (r, page, in_page) = self.locate(address, len)?;
        match &self.regions[r].pages[page] {
            Some(p) => p.get(in_page..in_page + len),
            None => ZEROS.get(..len),
        }
    }

    /// [`Memory::page_bytes`] for writing (allocates the page).
    #[inline]
    pub fn page_bytes_mut(&mut self, address: u64, len: usize) -> Option<&mut [u8]> {
        let (r, page, in_page) = self.locate(address, len)?;
        let region = &mut self.regions[r];
        let page_len = region.page_len(page);
        let p = region.pages[page].get_or_insert_with(|| zeroed_page(page_len));
        p.get_mut(in_page..in_page + len)
    }

    /// (region, page, offset in page) of a `len`-byte access that stays in one
    /// page of one mapping.
    #[inline]
    fn locate(&self, address: u64, len: usize) -> Option<(usize, usize, usize)> {
        let i = self.region_index(address)?;
        let r = &self.regions[i];
        let offset = address - r.base;
        if offset.checked_add(len as u64)? > r.size {
            return None;
        }
        let in_page = (offset & (PAGE - 1)) as usize;
        if in_page.checked_add(len)? > PAGE as usize {
            return None;
        }
        Some((i, (offset >> PAGE_BITS) as usize, in_page))
    }

    /// Reads a little-endian dword.
    #[inline]
    pub fn read_u32(&self, address: u64) -> Result<u32, u64> {
        let mut b = [0u8; 4];
        self.read(address, &mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    /// Reads a little-endian qword.
    #[inline]
    pub fn read_u64(&self, address: u64) -> Result<u64, u64> {
        let mut b = [0u8; 8];
        self.read(address, &mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    /// Writes a little-endian dword.
    #[inline]
    pub fn write_u32(&mut self, address: u64, value: u32) -> Result<(), u64> {
        self.write(address, &value.to_le_bytes())
    }

    /// Writes a little-endian qword.
    #[inline]
    pub fn write_u64(&mut self, address: u64, value: u64) -> Result<(), u64> {
        self.write(address, &value.to_le_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_read_write_and_faults() {
        let mut m = Memory::new();
        m.map(0x1000, 0x3_0000).unwrap();
        m.map(0x3_1000, 0x1000).unwrap();
        assert_eq!(m.map(0x2000, 0x10), Err(MapError::Overlaps(0x1000)));
        assert_eq!(m.map(0x0, 0x1001), Err(MapError::Overlaps(0x1000)));
        assert_eq!(m.map(0x10, 0), Err(MapError::Empty));
        assert_eq!(m.read_u32(0x1000), Ok(0));
        // A write spanning a page boundary and two adjacent regions.
        let data: Vec<u8> = (0..=255).collect();
        m.write(0x3_1000 - 100, &data).unwrap();
        let mut back = vec![0u8; 256];
        m.read(0x3_1000 - 100, &mut back).unwrap();
        assert_eq!(back, data);
        // First unmapped byte is reported, nothing written.
        assert_eq!(m.write(0x3_2000 - 2, &[1, 2, 3, 4]), Err(0x3_2000));
        assert_eq!(m.read_u32(0x3_2000 - 4), Ok(0));
        assert_eq!(m.read_u32(0xffc), Err(0xffc));
        assert_eq!(m.read_u32(0x3_1ffe), Err(0x3_2000));
        m.unmap(0x3_1000).unwrap();
        assert_eq!(m.read_u32(0x3_1000), Err(0x3_1000));
        assert_eq!(m.unmap(0x3_1000), Err(MapError::NotMapped));
        assert!(m.is_mapped(0x1000, 0x3_0000));
        assert!(!m.is_mapped(0x1000, 0x3_0001));
    }

    #[test]
    fn short_last_pages_hold_only_the_region() {
        let mut m = Memory::new();
        // A 4-byte region and one whose last page is partial.
        m.map(0x10_0000, 4).unwrap();
        m.map(0x20_0000, PAGE + 12).unwrap();
        m.write_u32(0x10_0000, 7).unwrap();
        assert_eq!(m.regions[0].pages[0].as_ref().map(|p| p.len()), Some(4));
        assert_eq!(m.read_u32(0x10_0000), Ok(7));
        assert_eq!(m.write_u32(0x10_0002, 1), Err(0x10_0004));
        assert!(m.page_bytes_mut(0x10_0000, 8).is_none());
        let data: Vec<u8> = (0..20).collect();
        m.write(0x20_0000 + PAGE - 8, &data).unwrap();
        assert_eq!(m.regions[1].pages[1].as_ref().map(|p| p.len()), Some(12));
        let mut back = [0u8; 20];
        m.read(0x20_0000 + PAGE - 8, &mut back).unwrap();
        assert_eq!(&back[..], &data[..]);
        assert_eq!(m.page_bytes(0x20_0000 + PAGE + 8, 4), Some(&data[16..20]));
        assert!(m.page_bytes(0x20_0000 + PAGE + 10, 4).is_none());
        m.page_bytes_mut(0x20_0000 + PAGE + 8, 4)
            .unwrap()
            .copy_from_slice(&[9; 4]);
        assert_eq!(m.read_u32(0x20_0000 + PAGE + 8), Ok(0x0909_0909));
    }
}
