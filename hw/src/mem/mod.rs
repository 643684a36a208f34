//! The memory hierarchy below the compute units' issue stages: per-CU
//! instruction, scalar and vector (L0) caches, the crossbar, the L2 channels and
//! the DRAM channels. Device memory *contents* live in [`backing::Backing`];
//! these blocks model when each access completes (see `docs/cycle-model.md`).
//!
//! INTERFACE CONTRACT (the placeholder below answers every request after a
//! fixed latency; the real hierarchy keeps these names and meanings):
//! a requester (a CU's instruction fetch, scalar cache, vector memory unit, or
//! the front end) offers one [`MemRequest`] per cycle on its port when
//! [`MemSystem::can_accept`] says so; the matching [`MemResponse`] comes back on
//! the same port some cycles later, in any order for different tags.

use serde::{Deserialize, Serialize};

pub mod backing;

/// Which requester port of a CU (or the front end) a request enters by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Unit {
    /// Instruction fetch (through the CU's instruction cache).
    #[default]
    Inst,
    /// Scalar data (through the CU's scalar cache).
    Scalar,
    /// Vector memory (through the CU's L0 vector cache).
    Vector,
    /// The front end's port (channel entries, command blocks, semaphores); `cu` is ignored.
    FrontEnd,
}

/// What a request does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Access {
    /// Read bytes of one cache line.
    #[default]
    Read,
    /// Write bytes of one cache line.
    Write,
    /// Atomic read-modify-write performed at the L2.
    Atomic {
        /// The pre-op value returns to the requester.
        returns: bool,
    },
}

/// One cache-line request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemRequest {
    /// Requester-chosen tag, returned in the response.
    pub tag: u16,
    /// What it does.
    pub access: Access,
    /// Byte address of the first byte touched (the line is `address / line_bytes`).
    pub address: u64,
    /// Bytes touched within the line (1 to the line size).
    pub bytes: u16,
    /// Bypass the CU-side caches (GLC/DLC/SLC semantics on gfx1030 loads).
    pub bypass: bool,
}

/// The completion of a [`MemRequest`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemResponse {
    /// The request's tag.
    pub tag: u16,
}

/// Parameters of the memory hierarchy (placeholder: one latency).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MemConfig {
    /// Cache line size in bytes.
    pub line_bytes: u32,
    /// Cycles from request to response.
    pub latency: u32,
}

impl Default for MemConfig {
    fn default() -> Self {
        MemConfig {
            line_bytes: 128,
            latency: 100,
        }
    }
}

/// Counters of the hierarchy.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MemStats {
    /// Requests accepted, all ports.
    pub requests: u64,
}

/// The whole hierarchy.
#[derive(Clone, Debug)]
pub struct MemSystem {
    config: MemConfig,
    cycle: u64,
    /// (due cycle, cu, unit, response), in arrival order.
    pending: std::collections::VecDeque<(u64, usize, Unit, MemResponse)>,
    ready: Vec<(usize, Unit, MemResponse)>,
    stats: MemStats,
}

impl MemSystem {
    /// A hierarchy for `cus` compute units.
    pub fn new(config: &MemConfig, cus: usize) -> MemSystem {
        let _ = cus;
        MemSystem {
            config: config.clone(),
            cycle: 0,
            pending: Default::default(),
            ready: Vec::new(),
            stats: MemStats::default(),
        }
    }

    /// Bytes per cache line.
    pub fn line_bytes(&self) -> u32 {
        self.config.line_bytes
    }

    /// True when port (`cu`, `unit`) can take a request this cycle.
    pub fn can_accept(&self, cu: usize, unit: Unit) -> bool {
        let _ = (cu, unit);
        true
    }

    /// Offers a request on port (`cu`, `unit`) this cycle (only after `can_accept`).
    pub fn request(&mut self, cu: usize, unit: Unit, req: MemRequest) {
        self.stats.requests += 1;
        let due = self.cycle + u64::from(self.config.latency);
        self.pending
            .push_back((due, cu, unit, MemResponse { tag: req.tag }));
    }

    /// Moves the responses delivered to port (`cu`, `unit`) into `out`.
    pub fn take_responses(&mut self, cu: usize, unit: Unit, out: &mut Vec<MemResponse>) {
        self.ready.retain(|&(c, u, r)| {
            if c == cu && u == unit {
                out.push(r);
                false
            } else {
                true
            }
        });
    }

    /// One clock edge.
    pub fn tick(&mut self) {
        self.cycle += 1;
        while let Some(&(due, cu, unit, r)) = self.pending.front() {
            if due > self.cycle {
                break;
            }
            self.pending.pop_front();
            self.ready.push((cu, unit, r));
        }
    }

    /// True while any request is in flight.
    pub fn busy(&self) -> bool {
        !self.pending.is_empty() || !self.ready.is_empty()
    }

    /// Counters since reset.
    pub fn stats(&self) -> MemStats {
        self.stats.clone()
    }
}

impl traces::Probe for MemSystem {
    fn probe(&self, name: &str, t: &mut traces::Tracer) {
        t.scope(name, |t| {
            t.signal("pending", 32, self.pending.len() as u64);
        });
    }
}
