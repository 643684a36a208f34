//! Event skipping in the memory hierarchy (docs/cycle-model.md, "Event
//! skipping"): the cycle of the hierarchy's next state change, and the
//! effect of the edges before it. Every hand-over between blocks goes
//! through a queue whose entries carry the cycle they become visible, and
//! every block's timers (DRAM data, L2 atomics, lookup pipelines) are
//! cycles too, so the next change is the earliest of those cycles; before
//! it, an edge only rewrites the few registers that follow the clock (the
//! crossbar outputs' `busy` count-down, DRAM's `bus_busy`) and counts the
//! stall cycles of a request that cannot be looked up (a CU cache or an L2
//! channel with its MSHRs full: nothing frees one before a response, an
//! event of its own).

use super::MemSystem;

impl MemSystem {
    /// True when nothing is in flight anywhere: no packet, no MSHR, no
    /// DRAM access (an edge then does nothing but count the cycle).
    pub(super) fn nothing_in_flight(&self) -> bool {
        self.front.idle()
            && self.cus.iter().all(|c| c.idle())
            && self.icaches.iter().all(|c| c.idle())
            && self.dram.iter().all(|d| d.idle())
            && self.ic.iter().all(|s| s.idle())
            && self.gl1.iter().all(|g| g.idle())
    }

    /// The earliest cycle at which an edge of the hierarchy may change
    /// anything beyond the registers [`MemSystem::skip`] sets; at or before
    /// the current cycle when the next edge may (also when a response waits
    /// for its requester), `u64::MAX` when nothing is in flight. Stops
    /// looking once it finds a cycle at or before `horizon`.
    pub fn next_event(&self, horizon: u64) -> u64 {
        let mut t = u64::MAX;
        let cu_resp = if self.gl1.is_empty() {
            &self.xbar.port_in
        } else {
            &self.gl1_resp
        };
        for (c, resp) in self.cus.iter().zip(cu_resp.chunks(3)) {
            for (cache, r) in [&c.scalar, &c.vector].into_iter().zip(&resp[1..]) {
                t = t.min(cache.next_event(r));
            }
            if t <= horizon {
                return t;
            }
        }
        for ic in &self.icaches {
            let ports = self.cus[ic.first_cu..ic.first_cu + ic.cus]
                .iter()
                .map(|c| &c.inst);
            t = t.min(ic.next_event(ports, &cu_resp[ic.first_cu * 3]));
            if t <= horizon {
                return t;
            }
        }
        let p = self.cus.len() * 3;
        t = t.min(self.front.next_event(&self.xbar.port_in[p]));
        if self.nothing_in_flight() {
            // Only untaken responses (seen above) can be waiting.
            return t;
        }
        t = t
            .min(self.xbar.req.next_event())
            .min(self.xbar.resp.next_event());
        // (The L2 channels look at their input buffers themselves.)
        let buffers = (self.xbar.port_in.iter())
            .chain(&self.gl1_req)
            .chain(&self.gl1_resp);
        for f in buffers {
            t = t.min(f.head_ready().unwrap_or(u64::MAX));
        }
        for (k, (l2, input)) in self.l2.iter().zip(&self.xbar.l2_in).enumerate() {
            let room = match self.ic.get(k) {
                Some(ic) => super::dram::LineStore::can_accept(ic),
                None => self.dram[k].can_accept(),
            };
            t = t.min(l2.next_event(self.cycle, input, room));
        }
        for d in &self.dram {
            t = t.min(d.next_event());
        }
        for s in &self.ic {
            t = t.min(s.next_event());
        }
        for g in &self.gl1 {
            t = t.min(g.next_event());
        }
        t
    }

    /// The effect of `cycles` edges from now that change nothing but the
    /// clock-following registers (only when [`MemSystem::next_event`] is
    /// at least `cycles` edges away).
    pub fn skip(&mut self, cycles: u64) {
        if cycles == 0 {
            return;
        }
        if !self.nothing_in_flight() {
            let last = self.cycle + cycles - 1;
            for c in &mut self.cus {
                for cache in [&mut c.scalar, &mut c.vector] {
                    cache.skip(cycles);
                }
            }
            for ic in &mut self.icaches {
                ic.skip(cycles);
            }
            for (l2, input) in self.l2.iter_mut().zip(&self.xbar.l2_in) {
                l2.skip(input, self.cycle, cycles);
            }
            self.xbar.req.skip_to(last);
            self.xbar.resp.skip_to(last);
            for d in &mut self.dram {
                d.skip_to(last);
            }
        }
        self.cycle += cycles;
    }
}
