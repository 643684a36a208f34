//! Instruction fetch: a round-robin arbiter picks one wave per cycle whose
//! instruction buffer has room and sends a `fetch_bytes` request through the
//! memory system's instruction port. Up to `ibuf_bytes / fetch_bytes` fetches
//! per wave are in flight; chunks are accepted in address order.
//!
//! [`Fetch`] holds the arbiter's registers; each wave's instruction buffer
//! window (`ib_end`, `fetch_next`, `fetch_done`, `fetch_inflight`, `epoch`)
//! lives in its wave slot. [`Fetch::eval`] is the pure arbitration.

use arbitrary_int::{u48, u6};

use super::wave::{a48, Wave};
use super::{Cu, TickCtx};
use crate::mem::{Access, MemRequest, Unit};

traces::signals! {
/// The instruction fetch arbiter (`gpu.cuN.fetch`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Fetch {
    /// A fetch request entered the memory system this cycle.
    pub req_valid: bool,
    /// Its wave slot.
    pub req_wave: u6,
    /// Its address.
    pub req_addr: u48,
    /// Round-robin pointer: the slot considered first next time.
    pub rr: u6,
    /// Fetches in flight (all waves).
    pub outstanding: u16,
}
}

impl Fetch {
    /// The slot whose buffer gets the next fetch: the first, from `rr` on,
    /// of the waves with room (`depth` bytes ahead of their pc).
    #[inline]
    pub fn eval(&self, waves: &[Wave], depth: u64) -> Option<usize> {
        let n = waves.len();
        let rr = usize::from(self.rr.value());
        (0..n).map(|k| (rr + k) % n).find(|&slot| {
            let w = &waves[slot];
            w.valid && !w.ending && w.fetch_next.value() < w.pc.max(w.ib_end).value() + depth
        })
    }
}

/// Tag layout: slot [5:0], epoch [9:6], chunk number mod 64 [15:10].
fn tag(slot: usize, epoch: u8, chunk: u64) -> u16 {
    (slot as u16 & 0x3f) | (u16::from(epoch) & 0xf) << 6 | ((chunk & 0x3f) as u16) << 10
}

impl Cu {
    pub(super) fn fetch_response(&mut self, tag: u16) {
        let slot = usize::from(tag & 0x3f);
        let epoch = ((tag >> 6) & 0xf) as u8;
        let chunk = u64::from(tag >> 10);
        let fb = u64::from(self.cfg.fetch_bytes);
        let Some(w) = self.waves.get_mut(slot) else {
            return;
        };
        if !w.valid || w.epoch.value() != epoch || w.fetch_inflight == 0 {
            return;
        }
        w.fetch_inflight -= 1;
        let first = (w.ib_end.value() / fb) & 0x3f;
        let rel = (chunk.wrapping_sub(first)) & 0x3f;
        if rel < 16 {
            w.fetch_done |= 1 << rel;
        }
        while w.fetch_done & 1 != 0 {
            w.fetch_done >>= 1;
            w.ib_end = a48(w.ib_end.value() + fb);
        }
    }

    pub(super) fn fetch(&mut self, cx: &mut TickCtx<'_>) {
        self.fetch.req_valid = false;
        if self.resident == 0 || !cx.mem.can_accept(self.index, Unit::Inst) {
            return;
        }
        let n = self.waves.len();
        let fb = u64::from(self.cfg.fetch_bytes);
        let depth = u64::from(self.cfg.ibuf_bytes);
        if let Some(slot) = self.fetch.eval(&self.waves, depth) {
            let w = &mut self.waves[slot];
            if w.fetch_next < w.ib_end {
                w.fetch_next = w.ib_end;
            }
            let address = w.fetch_next.value();
            let chunk = address / fb;
            cx.mem.request(
                self.index,
                Unit::Inst,
                MemRequest {
                    tag: tag(slot, w.epoch.value(), chunk),
                    access: Access::Read,
                    address,
                    bytes: fb as u16,
                    bypass: false,
                },
            );
            w.fetch_next = a48(address + fb);
            w.fetch_inflight += 1;
            self.fetch = Fetch {
                req_valid: true,
                req_wave: u6::new((slot & 63) as u8),
                req_addr: u48::new(address & ((1 << 48) - 1)),
                rr: u6::new(((slot + 1) % n) as u8 & 63),
                outstanding: self.fetch.outstanding + 1,
            };
            self.stats.fetch_requests += 1;
        }
    }

    /// Empties a wave's instruction buffer and restarts fetch at `pc`.
    pub(super) fn flush(&mut self, slot: usize, pc: u64) {
        let fb = u64::from(self.cfg.fetch_bytes);
        let w = &mut self.waves[slot];
        w.pc = a48(pc);
        w.ib_end = a48(pc & !(fb - 1));
        w.fetch_next = w.ib_end;
        w.fetch_done = 0;
        w.fetch_inflight = 0;
        w.epoch = w.epoch.wrapping_add(arbitrary_int::u4::new(1));
    }
}
