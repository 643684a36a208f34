//! Instruction fetch: a round-robin arbiter picks one wave per cycle whose
//! instruction buffer has room and sends a `fetch_bytes` request through the
//! memory system's instruction port. Up to `ibuf_bytes / fetch_bytes` fetches
//! per wave are in flight; chunks are accepted in address order.
//!
//! [`Fetch`] holds the arbiter's registers; each wave's instruction buffer
//! window (`ib_end`, `fetch_next`, `fetch_done`, `fetch_inflight`, `epoch`)
//! lives in its wave slot. [`Fetch::eval`] is the pure arbitration.

use arbitrary_int::{u4, u48, u6};

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
            w.valid
                && !w.ending
                && w.fetch_next.value() < w.pc.max(w.ib_end).value() + depth
                // No stale response shares the current epoch.
                && w.fetch_pending[usize::from(w.epoch.value())] == w.fetch_inflight
        })
    }
}

/// The epoch after `epoch` with no response in flight (the next one when
/// every epoch has some: [`Fetch::eval`] then waits for them to drain).
pub(super) fn next_epoch(epoch: u4, pending: &[u8; 16]) -> u4 {
    (1..=16u8)
        .map(|k| epoch.wrapping_add(u4::new(k & 0xf)))
        .find(|e| pending[usize::from(e.value())] == 0 && *e != epoch)
        .unwrap_or_else(|| epoch.wrapping_add(u4::new(1)))
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
        let p = &mut w.fetch_pending[usize::from(epoch & 0xf)];
        *p = p.saturating_sub(1);
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
            let p = &mut w.fetch_pending[usize::from(w.epoch.value())];
            *p = p.saturating_add(1);
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
        w.epoch = next_epoch(w.epoch, &w.fetch_pending);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A flush skips the epochs that still have responses in flight, so a
    /// stale response is never taken for a current one.
    #[test]
    fn next_epoch_skips_epochs_with_responses_in_flight() {
        let mut pending = [0u8; 16];
        assert_eq!(next_epoch(u4::new(3), &pending), u4::new(4));
        pending[4] = 2;
        pending[5] = 1;
        assert_eq!(next_epoch(u4::new(3), &pending), u4::new(6));
        pending[15] = 1;
        pending[0] = 1;
        assert_eq!(next_epoch(u4::new(14), &pending), u4::new(1));
        // Every epoch busy: the next one, and fetch waits for it to drain.
        let all = [1u8; 16];
        assert_eq!(next_epoch(u4::new(15), &all), u4::new(0));
    }
}
