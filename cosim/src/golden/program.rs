//! The decode-once program cache.
//!
//! Instructions are decoded the first time a wave reaches their address and kept,
//! keyed by (ISA, wave size, page of code, dword slot in the page): the same bytes
//! decode differently in wave32 and wave64 (lane-mask operands), so the wave size
//! is part of the key. A host write to device memory drops the pages it overlaps
//! (a loader that rewrites code is seen); stores by the GPU itself are not
//! tracked, like a real instruction cache without `s_icache_inv` coherence.

use std::collections::BTreeMap;

use arch::device::Fault;
use arch::isa::{decode, Instruction, Isa, Target};

use super::exec::violation;
use super::memory::Memory;
use super::wave::illegal;

/// Bytes of code per cache page.
const PAGE_BITS: u32 = 12;
/// Dword slots per page.
const SLOTS: usize = 1 << (PAGE_BITS - 2);

/// Decoded instructions by address.
#[derive(Debug, Default)]
pub struct ProgramCache {
    pages: BTreeMap<(Isa, bool, u64), Vec<Option<Instruction>>>,
    decoded: u64,
}

impl ProgramCache {
    /// An empty cache.
    pub fn new() -> ProgramCache {
        ProgramCache::default()
    }

    /// The instruction at `pc` for `target`, decoding it on first use.
    #[inline]
    pub fn fetch(&mut self, target: Target, pc: u64, mem: &Memory) -> Result<&Instruction, Fault> {
        if pc % 4 != 0 {
            return Err(illegal(format!(
                "program counter {pc:#x} is not 4-byte aligned"
            )));
        }
        let key = (target.isa, target.wave64, pc >> PAGE_BITS);
        let slot = ((pc >> 2) as usize) & (SLOTS - 1);
        let page = self.pages.entry(key).or_insert_with(|| vec![None; SLOTS]);
        if page[slot].is_none() {
            // Read up to the longest encoding (12 bytes), fewer at the end of mapped memory.
            let mut bytes = [0u8; 12];
            let mut len = 0;
            while len < 12 && mem.read(pc + len as u64, &mut bytes[len..len + 4]).is_ok() {
                len += 4;
            }
            if len == 0 {
                return Err(violation(pc, false));
            }
            let inst = decode(target, &bytes[..len])
                .map_err(|e| illegal(format!("cannot decode the instruction at {pc:#x}: {e}")))?;
            page[slot] = Some(inst);
            self.decoded += 1;
        }
        page[slot]
            .as_ref()
            .ok_or_else(|| illegal("program cache slot unexpectedly empty"))
    }

    /// Drops every page overlapping `[address, address + len)`.
    pub fn invalidate(&mut self, address: u64, len: u64) {
        if len == 0 || self.pages.is_empty() {
            return;
        }
        // An instruction starting up to 8 bytes before the range may overlap it.
        let first = address.saturating_sub(8) >> PAGE_BITS;
        let last = address.saturating_add(len - 1) >> PAGE_BITS;
        self.pages
            .retain(|&(_, _, page), _| page < first || page > last);
    }

    /// Drops everything.
    pub fn clear(&mut self) {
        self.pages.clear();
    }

    /// Instructions decoded since creation (a measure of cache effectiveness).
    pub fn decoded(&self) -> u64 {
        self.decoded
    }
}
