//! The decode-once program cache.
//!
//! Instructions are decoded the first time a wave reaches their address and kept,
//! keyed by (ISA, wave size, page of code, dword slot in the page): the same bytes
//! decode differently in wave32 and wave64 (lane-mask operands), so the wave size
//! is part of the key. A host write to device memory drops the pages it overlaps
//! (a loader that rewrites code is seen); stores by the GPU itself are not
//! tracked, like a real instruction cache without `s_icache_inv` coherence.
//!
//! Fetching is on the interpreter's hot path (once per wave instruction), so
//! the page used last is remembered: a fetch in the same page is an index into
//! a flat slot array, with no map lookup and no copy of the instruction.

use std::collections::BTreeMap;

use arch::device::Fault;
use arch::isa::{decode, Instruction, Isa, Target};

use super::exec::lowered::{self, Lowered};
use super::exec::{is_vector, violation};
use super::memory::Memory;
use super::wave::illegal;

/// Bytes of code per cache page.
const PAGE_BITS: u32 = 12;
/// Dword slots per page.
const SLOTS: usize = 1 << (PAGE_BITS - 2);

/// Cache key of a page: ISA, wave64, page number.
type Key = (Isa, bool, u64);

/// A decoded instruction, its lowered form (see [`fast`]) and what the
/// interpreter's per-instruction bookkeeping needs, worked out once.
#[derive(Clone, Copy, Debug)]
pub struct Decoded {
    /// The instruction.
    pub inst: Instruction,
    /// Its fast-path form, or [`Lowered::Generic`].
    pub lowered: Lowered,
    /// It runs on the vector side (counts EXEC's lanes; see [`super::exec::is_vector`]).
    pub vector: bool,
}

/// One page of decoded instructions. Slots hold boxes so that an empty page
/// is 8 KiB rather than ~150 KiB of `Option<Decoded>` (a fresh device pays for
/// zeroing and faulting in every page it touches).
#[derive(Debug)]
struct Page {
    key: Key,
    slots: Box<[Option<Box<Decoded>>; SLOTS]>,
}

/// The tag of the page holding `pc` for the target whose [`target_bits`] are
/// `bits`, as the hot path compares it: the page's address with the target in
/// bits 2 and up (below the page bits, so room for 2^9 targets), so one
/// comparison checks the page, the target, and (bits 0–1 of `pc` kept) that
/// `pc` is 4-byte aligned.
#[inline(always)]
fn hot_tag(bits: u64, pc: u64) -> u64 {
    (pc & !(PAGE_MASK & !3)) | bits
}

/// The target's part of `hot_tag` (see [`ProgramCache::fetch_tagged`]).
#[inline(always)]
pub fn target_bits(target: Target) -> u64 {
    ((target.isa as u64) << 1 | u64::from(target.wave64)) << 2
}

/// Byte offsets within a page.
const PAGE_MASK: u64 = (1 << PAGE_BITS) - 1;

/// Decoded instructions by address.
#[derive(Debug, Default)]
pub struct ProgramCache {
    /// Pages in creation order.
    pages: Vec<Page>,
    /// Page index by key (deterministic order; only consulted on a page change).
    index: BTreeMap<Key, usize>,
    /// The page fetched from last: its [`hot_tag`] and index (`None` after an
    /// invalidation).
    last: Option<(u64, usize)>,
    decoded: u64,
    /// Lower instructions to fast paths (off: everything runs the general path).
    lowering: bool,
}

impl ProgramCache {
    /// An empty cache that lowers instructions to fast paths.
    pub fn new() -> ProgramCache {
        ProgramCache::with_fast_paths(true)
    }

    /// An empty cache; `fast_paths` false keeps every instruction on the
    /// general path (for differential testing).
    pub fn with_fast_paths(fast_paths: bool) -> ProgramCache {
        ProgramCache {
            lowering: fast_paths,
            ..ProgramCache::default()
        }
    }

    /// Index of the page holding `key`, created empty when missing.
    #[inline]
    fn page(&mut self, key: Key) -> usize {
        match self.index.get(&key) {
            Some(&i) => i,
            None => {
                let i = self.pages.len();
                let slots: Box<[Option<Box<Decoded>>]> = vec![None; SLOTS].into_boxed_slice();
                self.pages.push(Page {
                    key,
                    slots: slots.try_into().expect("SLOTS slots"),
                });
                self.index.insert(key, i);
                i
            }
        }
    }

    /// The instruction at `pc` for `target`, decoding it on first use.
    #[inline(always)]
    pub fn fetch(&mut self, target: Target, pc: u64, mem: &Memory) -> Result<&Decoded, Fault> {
        self.fetch_tagged(target, target_bits(target), pc, mem)
    }

    /// [`ProgramCache::fetch`] with `bits` = [`target_bits`]`(target)`
    /// worked out by the caller (once per wave rather than per instruction).
    #[inline(always)]
    pub fn fetch_tagged(
        &mut self,
        target: Target,
        bits: u64,
        pc: u64,
        mem: &Memory,
    ) -> Result<&Decoded, Fault> {
        // The hot case, inlined into the interpreter loop: same page as last
        // time, already decoded.
        if let Some((tag, i)) = self.last {
            let slot = ((pc >> 2) as usize) & (SLOTS - 1);
            if tag == hot_tag(bits, pc) && self.pages[i].slots[slot].is_some() {
                return self.pages[i].slots[slot]
                    .as_deref()
                    .ok_or_else(|| illegal("program cache slot unexpectedly empty"));
            }
        }
        self.fetch_slow(target, pc, mem)
    }

    /// [`ProgramCache::fetch`] on a page change or a first visit.
    #[inline(never)]
    fn fetch_slow(&mut self, target: Target, pc: u64, mem: &Memory) -> Result<&Decoded, Fault> {
        if pc % 4 != 0 {
            return Err(illegal(format!(
                "program counter {pc:#x} is not 4-byte aligned"
            )));
        }
        let key = (target.isa, target.wave64, pc >> PAGE_BITS);
        let slot = ((pc >> 2) as usize) & (SLOTS - 1);
        let page = self.page(key);
        self.last = Some((hot_tag(target_bits(target), pc), page));
        if self.pages[page].slots[slot].is_none() {
            let inst = decode_at(target, pc, mem)?;
            let lowered = if self.lowering {
                lowered::lower(&inst, pc)
            } else {
                Lowered::Generic
            };
            let vector = is_vector(inst.family);
            self.pages[page].slots[slot] = Some(Box::new(Decoded {
                inst,
                lowered,
                vector,
            }));
            self.decoded += 1;
        }
        self.pages[page].slots[slot]
            .as_deref()
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
        let before = self.pages.len();
        self.pages.retain(|p| p.key.2 < first || p.key.2 > last);
        if self.pages.len() != before {
            self.reindex();
        }
    }

    /// Drops everything.
    pub fn clear(&mut self) {
        self.pages.clear();
        self.reindex();
    }

    fn reindex(&mut self) {
        self.index = self
            .pages
            .iter()
            .enumerate()
            .map(|(i, p)| (p.key, i))
            .collect();
        self.last = None;
    }

    /// Instructions decoded since creation (a measure of cache effectiveness).
    pub fn decoded(&self) -> u64 {
        self.decoded
    }
}

/// Reads and decodes the instruction at `pc`.
#[cold]
fn decode_at(target: Target, pc: u64, mem: &Memory) -> Result<Instruction, Fault> {
    // Read up to the longest encoding (12 bytes), fewer at the end of mapped memory.
    let mut bytes = [0u8; 12];
    let mut len = 0;
    while len < 12 && mem.read(pc + len as u64, &mut bytes[len..len + 4]).is_ok() {
        len += 4;
    }
    if len == 0 {
        return Err(violation(pc, false));
    }
    decode(target, &bytes[..len])
        .map_err(|e| illegal(format!("cannot decode the instruction at {pc:#x}: {e}")))
}
