//! The device memory allocator: first-fit over one device address range.
//!
//! Every allocation gets its own span of whole 4 KiB pages followed by one
//! unmapped guard page, and only the allocation's own bytes (rounded up to a
//! dword) are mapped on the device. A kernel that runs off the end of a
//! buffer therefore touches unmapped memory and the device reports a fault
//! instead of silently corrupting the neighbouring buffer.
//!
//! The allocator itself is pure bookkeeping; [`super::Driver`] pairs each
//! allocation with `Device::map` / `Device::unmap`.

use std::collections::BTreeMap;
use std::ops::Range;

use super::error::DriverError;

/// Default start of the device heap: 4 GiB, so that device addresses need
/// all 64 bits of a pointer and a truncated (32-bit) pointer never aliases a
/// buffer.
pub const DEFAULT_HEAP_BASE: u64 = 0x1_0000_0000;
/// Default size of the device heap address range (64 GiB of address space;
/// only mapped allocations cost host memory in a model).
pub const DEFAULT_HEAP_SIZE: u64 = 0x10_0000_0000;
/// Allocation spans are whole pages of this size.
pub const PAGE: u64 = 0x1000;
/// Every allocation is at least this aligned (the largest alignment the
/// hardware asks for anywhere but code: kernel code entries are 256-aligned).
pub const MIN_ALIGN: u64 = 256;

/// One live allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Allocation {
    /// Device address of the first byte.
    pub address: u64,
    /// Bytes requested.
    pub size: u64,
}

impl Allocation {
    /// Bytes mapped on the device: the size rounded up to a whole dword (at
    /// least one dword, since a mapping cannot be empty).
    pub fn mapped_size(&self) -> u64 {
        self.size.max(1).div_ceil(4) * 4
    }

    /// The device addresses the allocation covers.
    pub fn range(&self) -> Range<u64> {
        self.address..self.address + self.size
    }
}

/// First-fit allocator over `[base, base + size)`.
#[derive(Clone, Debug)]
pub struct Heap {
    range: Range<u64>,
    /// Free spans, sorted by address, never adjacent (coalesced).
    free: Vec<Range<u64>>,
    /// Live allocations by address, with the span each one reserves.
    live: BTreeMap<u64, (Allocation, Range<u64>)>,
}

impl Heap {
    /// A heap over `[base, base + size)`; both must be page-aligned.
    pub fn new(base: u64, size: u64) -> Result<Heap, DriverError> {
        let end = base.checked_add(size).filter(|&e| e <= 1 << 48);
        match end {
            Some(end) if base % PAGE == 0 && size % PAGE == 0 && size > 0 => Ok(Heap {
                range: base..end,
                // One free span: the whole heap.
                free: std::iter::once(base..end).collect(),
                live: BTreeMap::new(),
            }),
            _ => Err(DriverError::BadHeap { base, size }),
        }
    }

    /// The address range the heap manages.
    pub fn range(&self) -> Range<u64> {
        self.range.clone()
    }

    /// Reserves `size` bytes aligned to `align` (a power of two; raised to
    /// [`MIN_ALIGN`]).
    pub fn alloc(&mut self, size: u64, align: u64) -> Result<Allocation, DriverError> {
        if !align.is_power_of_two() {
            return Err(DriverError::BadAlignment(align));
        }
        let align = align.max(MIN_ALIGN);
        let too_big = || DriverError::OutOfMemory {
            size,
            align,
            free: self.free_bytes(),
        };
        // The span: the allocation's pages plus one guard page.
        let len = size
            .max(1)
            .checked_next_multiple_of(PAGE)
            .and_then(|l| l.checked_add(PAGE))
            .ok_or_else(too_big)?;
        let (slot, start) = self
            .free
            .iter()
            .enumerate()
            .find_map(|(i, r)| {
                let start = r.start.checked_next_multiple_of(align)?;
                (start.checked_add(len)? <= r.end).then_some((i, start))
            })
            .ok_or_else(too_big)?;
        let r = self.free.remove(slot);
        let span = start..start + len;
        if span.end < r.end {
            self.free.insert(slot, span.end..r.end);
        }
        if r.start < start {
            self.free.insert(slot, r.start..start);
        }
        let a = Allocation {
            address: start,
            size,
        };
        self.live.insert(start, (a, span));
        Ok(a)
    }

    /// Releases the allocation starting at `address`.
    pub fn free(&mut self, address: u64) -> Result<Allocation, DriverError> {
        let (a, span) = self
            .live
            .remove(&address)
            .ok_or(DriverError::UnknownAllocation(address))?;
        let at = self.free.partition_point(|r| r.start < span.start);
        self.free.insert(at, span);
        // Coalesce with the right neighbour, then with the left one.
        if at + 1 < self.free.len() && self.free[at].end == self.free[at + 1].start {
            let right = self.free.remove(at + 1);
            self.free[at].end = right.end;
        }
        if at > 0 && self.free[at - 1].end == self.free[at].start {
            let me = self.free.remove(at);
            self.free[at - 1].end = me.end;
        }
        Ok(a)
    }

    /// The live allocation containing `address`, if any.
    pub fn find(&self, address: u64) -> Option<Allocation> {
        let (_, (a, _)) = self.live.range(..=address).next_back()?;
        a.range().contains(&address).then_some(*a)
    }

    /// Live allocations, by address.
    pub fn allocations(&self) -> impl Iterator<Item = Allocation> + '_ {
        self.live.values().map(|(a, _)| *a)
    }

    /// Bytes of address space not reserved by any allocation.
    pub fn free_bytes(&self) -> u64 {
        self.free.iter().map(|r| r.end - r.start).sum()
    }

    /// The free spans (for tests and diagnostics).
    pub fn free_spans(&self) -> &[Range<u64>] {
        &self.free
    }
}

#[cfg(test)]
#[allow(clippy::single_range_in_vec_init)] // a list of spans that happens to hold one
mod tests {
    use super::*;

    #[test]
    fn first_fit_with_guard_pages_and_alignment() {
        let mut h = Heap::new(0x10000, 0x10000).unwrap();
        let a = h.alloc(100, 1).unwrap();
        assert_eq!(a.address, 0x10000);
        assert_eq!(a.mapped_size(), 100);
        // 100 bytes take one page, then one guard page.
        let b = h.alloc(0x1001, 16).unwrap();
        assert_eq!(b.address, 0x12000);
        assert_eq!(b.mapped_size(), 0x1004);
        // 64 KiB alignment is honoured (the next 64 KiB boundary is past the end).
        assert!(matches!(
            h.alloc(4, 0x10000),
            Err(DriverError::OutOfMemory { .. })
        ));
        let c = h.alloc(4, 0x4000).unwrap();
        assert_eq!(c.address, 0x18000);
        assert_eq!(h.find(0x12fff), Some(b));
        assert_eq!(h.find(0x11000), None, "guard page belongs to nobody");
        assert_eq!(h.alloc(1, 3), Err(DriverError::BadAlignment(3)));
    }

    #[test]
    fn free_coalesces_and_space_is_reused() {
        let mut h = Heap::new(0x10000, 0x10000).unwrap();
        let a = h.alloc(0x1000, 1).unwrap();
        let b = h.alloc(0x1000, 1).unwrap();
        let c = h.alloc(0x1000, 1).unwrap();
        assert_eq!(h.free_spans(), &[0x16000..0x20000]);
        h.free(b.address).unwrap();
        assert_eq!(h.free_spans(), &[0x12000..0x14000, 0x16000..0x20000]);
        h.free(a.address).unwrap();
        assert_eq!(h.free_spans(), &[0x10000..0x14000, 0x16000..0x20000]);
        h.free(c.address).unwrap();
        assert_eq!(h.free_spans(), &[0x10000..0x20000]);
        assert_eq!(
            h.free(c.address),
            Err(DriverError::UnknownAllocation(c.address))
        );
        // The whole range can be taken again: 15 pages + 1 guard.
        let big = h.alloc(0xf000, 1).unwrap();
        assert_eq!(big.address, 0x10000);
        assert_eq!(h.free_bytes(), 0);
    }

    #[test]
    fn bad_heaps_are_rejected() {
        assert!(Heap::new(0x10001, 0x1000).is_err());
        assert!(Heap::new(0x10000, 0).is_err());
        assert!(Heap::new(u64::MAX - 0xfff, 0x2000).is_err());
    }
}
