//! The instruction cache shared by the CUs of a WGP (RDNA2: one 32 KiB
//! cache with 64-byte lines for the two CUs of a work-group processor;
//! `MemConfig::inst_cache_cus`, `inst_line_bytes`).
//!
//! Each CU keeps its own fetch port, an [`InstPort`]: a one-request input
//! register it writes on its clock edge, and the responses delivered to it.
//! The shared cache ([`SharedInstCache`]) is ticked in the memory phase of
//! the edge (`MemSystem::tick_below_cus`, on the calling thread), after
//! every CU: it moves at most one waiting request per cycle from its CUs'
//! ports into its input register (round-robin from the CU after the last
//! one served), ticks the cache, and hands the responses back to the ports.
//! A CU's port refuses new requests while its register is full or while the
//! cache's input register is (a stalled lookup), so with one CU per cache
//! the timing is exactly that of a private cache; and since the CU phase
//! touches only its own port, results are the same for any number of worker
//! threads.

use super::l0::CuCache;
use super::{CuPorts, MemRequest, MemResponse};
use crate::xbar::fifo::CreditFifo;
use crate::xbar::packet::Packet;

/// One CU's instruction-fetch port (owned by the CU's `CuPorts`).
#[derive(Clone, Debug, Default)]
pub struct InstPort {
    /// The request waiting for the shared cache.
    input: Option<MemRequest>,
    /// The shared cache's input register was full after its last edge.
    blocked: bool,
    /// Responses for the CU to take.
    pub out: Vec<MemResponse>,
    /// Requests accepted and not yet in `out`.
    outstanding: u32,
}

impl InstPort {
    /// The port takes a request this cycle.
    #[inline]
    pub fn can_accept(&self) -> bool {
        self.input.is_none() && !self.blocked
    }

    /// Latches a request (only when [`can_accept`](Self::can_accept)).
    pub fn request(&mut self, req: MemRequest) -> bool {
        if !self.can_accept() {
            return false;
        }
        self.input = Some(req);
        self.outstanding += 1;
        true
    }

    /// Nothing waits here and nothing is in flight for this CU.
    pub fn idle(&self) -> bool {
        self.outstanding == 0
    }

    /// A request waits in the register, or a response for the CU.
    fn pending(&self) -> bool {
        self.input.is_some() || !self.out.is_empty()
    }
}

/// The instruction cache of a group of CUs, with the arbiter in front of it.
#[derive(Clone, Debug)]
pub struct SharedInstCache {
    /// The cache (its crossbar port is the first CU's instruction port).
    pub cache: CuCache,
    /// First CU served by this cache.
    pub first_cu: usize,
    /// CUs served (consecutive from `first_cu`).
    pub cus: usize,
    /// Index (within the group) of the CU the arbiter looks at first.
    rr: usize,
    /// Per cache tag: the requesting CU (within the group) and its own tag.
    route: Vec<(u8, u16)>,
    /// Cache tags not in use.
    free: Vec<u16>,
}

impl SharedInstCache {
    /// A cold cache serving `cus` CUs from `first_cu`.
    pub fn new(cache: CuCache, first_cu: usize, cus: usize) -> SharedInstCache {
        SharedInstCache {
            cache,
            first_cu,
            cus,
            rr: 0,
            route: Vec::new(),
            free: Vec::new(),
        }
    }

    /// No request in the cache (its CUs' ports are asked separately).
    pub fn idle(&self) -> bool {
        self.cache.idle()
    }

    /// The earliest cycle at which this cache's edge may change anything
    /// (see [`CuCache::next_event`]); 0 when a port holds a request or a
    /// response (the arbiter or the CU acts).
    pub fn next_event<'a>(
        &self,
        ports: impl Iterator<Item = &'a InstPort>,
        resp: &CreditFifo<Packet>,
    ) -> u64 {
        let mut ports = ports;
        if ports.any(InstPort::pending) {
            return 0;
        }
        self.cache.next_event(resp)
    }

    /// One clock edge: arbitration, the cache's edge, responses to the ports.
    /// `cus` are the group's CUs' ports, in CU order.
    pub fn tick(
        &mut self,
        now: u64,
        cus: &mut [CuPorts],
        xin: &mut CreditFifo<Packet>,
        resp: &mut CreditFifo<Packet>,
    ) {
        if self.cache.can_accept() {
            let n = cus.len();
            let chosen = (0..n)
                .map(|k| (self.rr + k) % n)
                .find(|&k| cus[k].inst.input.is_some());
            if let Some(k) = chosen {
                if let Some(mut req) = cus[k].inst.input.take() {
                    let tag = match self.free.pop() {
                        Some(t) => {
                            self.route[usize::from(t)] = (k as u8, req.tag);
                            t
                        }
                        None => {
                            self.route.push((k as u8, req.tag));
                            (self.route.len() - 1) as u16
                        }
                    };
                    req.tag = tag;
                    self.cache.request(req);
                    self.rr = (k + 1) % n;
                }
            }
        }
        self.cache.tick(now, xin, resp);
        for r in self.cache.out.drain(..) {
            let (k, tag) = self.route[usize::from(r.tag)];
            self.free.push(r.tag);
            if let Some(c) = cus.get_mut(usize::from(k)) {
                c.inst.out.push(MemResponse { tag });
                c.inst.outstanding -= 1;
            }
        }
        let blocked = !self.cache.can_accept();
        for c in cus.iter_mut() {
            c.inst.blocked = blocked;
        }
    }

    /// The effect of `cycles` idle edges (see [`CuCache::skip`]).
    pub fn skip(&mut self, cycles: u64) {
        self.cache.skip(cycles);
    }
}
