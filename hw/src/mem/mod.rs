//! The memory hierarchy below the compute units' issue stages: per-CU
//! instruction, scalar and vector (L0) caches, the crossbar, the L2 channels and
//! the DRAM channels. Device memory *contents* live in [`backing::Backing`];
//! these blocks model when each access completes (see `docs/cycle-model.md`).
//!
//! A requester (a CU's instruction fetch, scalar cache, vector memory unit, or
//! the front end) offers one [`MemRequest`] per cycle on its port when
//! [`MemSystem::can_accept`] says so; the matching [`MemResponse`] comes back on
//! the same port some cycles later, in any order for different tags.
//!
//! ```text
//! port ─▶ CU cache (l0.rs) ─▶ xbar req ─▶ L2 channel (l2.rs) ─▶ DRAM channel (dram.rs)
//!   ◀──────── CU cache ◀──── xbar resp ◀──── L2 channel ◀───────── fill
//! ```
//!
//! Blocks are evaluated once per [`MemSystem::tick`]; every hand-over between
//! blocks goes through a credit FIFO (`xbar/fifo.rs`) or a queue whose entries
//! carry the cycle they become visible, so the evaluation order within a tick
//! does not matter and a value moves at most one stage per clock. Idle blocks
//! are skipped, and a hierarchy with nothing in flight costs one comparison.
//!
//! Latency of an uncontended request (cycles from `request` to the cycle
//! `take_responses` returns it), with H the CU cache's `hit_latency`, X the
//! crossbar `latency`, F the flits of the response, L the L2 `hit_latency`,
//! D the DRAM `latency`, R its `row_miss_cycles`, T = line / `bytes_per_cycle`:
//! - CU cache hit: H;
//! - CU cache miss, L2 hit: H + 1 + X + L + 1 + X + F;
//! - CU cache miss, L2 miss (row miss): H + 1 + X + L + D + R + T + 2 + X + F;
//! - atomics add the L2 `atomic_latency`; front-end requests skip H.
//!
//! Optional levels (absent in the default and 1-CU presets, so those behave
//! exactly as before): **GL1** caches (`gl1.rs`), one per shader array, on
//! the CU caches' side of the crossbar — the CU caches then send into and
//! receive from per-port buffers owned by their array's GL1, which forwards
//! misses on the same crossbar port; and an **Infinity Cache** slice
//! (`infinity.rs`) per channel between the L2 channel and its DRAM channel.
//! See `docs/cycle-model.md` and the `navi21` preset.

use serde::{Deserialize, Serialize};

pub mod backing;
pub mod cache;
pub mod config;
pub mod dram;
pub mod gl1;
pub mod icache;
pub mod infinity;
pub mod l0;
pub mod l2;
mod skip;
pub mod staged;

pub use crate::xbar::XbarConfig;
pub use config::{CacheConfig, DramConfig, Gl1Config, InfinityCacheConfig, L2Config, MemConfig};

use crate::xbar::fifo::CreditFifo;
use crate::xbar::packet::Packet;
use crate::xbar::Xbar;
use dram::DramChannel;
use gl1::Gl1Cache;
use icache::{InstPort, SharedInstCache};
use infinity::InfinitySlice;
use l0::{CuCache, FrontPort};
use l2::L2Channel;

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

/// Hit/miss counters of one cache level (summed over its instances).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CacheStats {
    /// Reads that found their line (L2: every request kind).
    pub hits: u64,
    /// Requests that needed the next level (merged ones included).
    pub misses: u64,
    /// Misses that joined an outstanding MSHR instead of sending a request.
    pub mshr_merges: u64,
    /// CU caches: writes, atomics and bypassing reads sent on without lookup.
    pub uncached: u64,
    /// Cycles a request could not proceed (MSHRs, queues full: back-pressure).
    pub stall_cycles: u64,
}

impl CacheStats {
    fn add(&mut self, o: &CacheStats) {
        self.hits += o.hits;
        self.misses += o.misses;
        self.mshr_merges += o.mshr_merges;
        self.uncached += o.uncached;
        self.stall_cycles += o.stall_cycles;
    }
}

/// Counters of the hierarchy.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MemStats {
    /// Requests accepted, all ports.
    pub requests: u64,
    /// Requests offered on a port that could not take them (dropped).
    pub rejected: u64,
    /// Instruction caches.
    pub inst: CacheStats,
    /// Scalar data caches.
    pub scalar: CacheStats,
    /// L0 vector caches.
    pub vector: CacheStats,
    /// L2 channels.
    pub l2: CacheStats,
    /// Input-cycles a ready crossbar packet lost arbitration (both networks).
    pub xbar_conflicts: u64,
    /// Output-cycles the crossbar had a packet but no credit toward the receiver.
    pub xbar_backpressure: u64,
    /// Crossbar packets delivered (both networks).
    pub xbar_packets: u64,
    /// Bytes read from DRAM.
    pub dram_bytes_read: u64,
    /// Bytes written to DRAM (L2 write-backs).
    pub dram_bytes_written: u64,
    /// DRAM accesses to an open row.
    pub dram_row_hits: u64,
    /// DRAM accesses that opened a row.
    pub dram_row_misses: u64,
    /// GL1 caches (when configured; `uncached`: requests passed through).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gl1: Option<CacheStats>,
    /// Infinity Cache slices (when configured; `uncached`: L2 write-backs absorbed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infinity_cache: Option<CacheStats>,
}

/// One CU's ports: its instruction-fetch port (into the instruction cache
/// its WGP shares, [`icache`]) and its scalar and vector caches — the part
/// of the hierarchy a CU's clock edge talks to. A CU is handed its own
/// `CuPorts` (not the whole [`MemSystem`]), so compute units can be
/// evaluated by different threads (`crate::parallel`): nothing here is
/// shared with another CU.
#[derive(Clone, Debug)]
pub struct CuPorts {
    inst: InstPort,
    scalar: CuCache,
    vector: CuCache,
    line_bytes: u32,
    /// Requests accepted on these ports.
    requests: u64,
    /// Requests offered while a port could not take them.
    rejected: u64,
}

impl CuPorts {
    fn cache(&self, unit: Unit) -> Option<&CuCache> {
        match unit {
            Unit::Scalar => Some(&self.scalar),
            Unit::Vector => Some(&self.vector),
            Unit::Inst | Unit::FrontEnd => None,
        }
    }

    fn cache_mut(&mut self, unit: Unit) -> Option<&mut CuCache> {
        match unit {
            Unit::Scalar => Some(&mut self.scalar),
            Unit::Vector => Some(&mut self.vector),
            Unit::Inst | Unit::FrontEnd => None,
        }
    }

    /// Bytes per cache line.
    pub fn line_bytes(&self) -> u32 {
        self.line_bytes
    }

    /// True when port `unit` can take a request this cycle (`_cu` names the
    /// CU these ports belong to; it is there so a CU speaks to its ports as
    /// it speaks to [`MemSystem`]).
    pub fn can_accept(&self, _cu: usize, unit: Unit) -> bool {
        match unit {
            Unit::Inst => self.inst.can_accept(),
            _ => self.cache(unit).is_some_and(|c| c.can_accept()),
        }
    }

    /// Offers a request on port `unit` this cycle (see [`MemSystem::request`]).
    pub fn request(&mut self, _cu: usize, unit: Unit, req: MemRequest) {
        let taken = match unit {
            Unit::Inst => self.inst.request(req),
            _ => self.cache_mut(unit).is_some_and(|c| c.request(req)),
        };
        if taken {
            self.requests += 1;
        } else {
            self.rejected += 1;
        }
    }

    /// Moves the responses delivered to port `unit` into `out`.
    pub fn take_responses(&mut self, _cu: usize, unit: Unit, out: &mut Vec<MemResponse>) {
        match unit {
            Unit::Inst => out.append(&mut self.inst.out),
            _ => {
                if let Some(c) = self.cache_mut(unit) {
                    out.append(&mut c.out);
                }
            }
        }
    }

    /// The vector L0's `(accesses, misses)` since reset (see
    /// [`MemSystem::vector_l0_counts`]).
    pub fn vector_l0_counts(&self, _cu: usize) -> (u64, u64) {
        let s = &self.vector.stats;
        (s.hits + s.misses, s.misses)
    }

    /// True when no request is in flight in these caches (nor from the
    /// fetch port).
    fn idle(&self) -> bool {
        self.inst.idle() && self.scalar.idle() && self.vector.idle()
    }

    /// One clock edge of the scalar and vector caches; `xin` and `resp` are
    /// this CU's three crossbar request inputs and response outputs, in
    /// port order (the first, the instruction port's, is its WGP's shared
    /// instruction cache's, ticked in [`MemSystem::tick_below_cus`]).
    fn tick(&mut self, now: u64, xin: &mut [CreditFifo<Packet>], resp: &mut [CreditFifo<Packet>]) {
        for ((cache, xin), resp) in [&mut self.scalar, &mut self.vector]
            .into_iter()
            .zip(&mut xin[1..])
            .zip(&mut resp[1..])
        {
            if !cache.idle() {
                cache.tick(now, xin, resp);
            }
        }
    }
}

/// One CU's side of the hierarchy for its clock edge: its three caches, the
/// three request inputs and response outputs they use (the crossbar's, or
/// their GL1's buffers), and where the edge notes that they had work. The
/// caches tick right after their CU (`crate::parallel`), on the same
/// worker: they exchange packets with the levels below only through credit
/// FIFOs whose entries are visible from the next cycle and whose credits
/// return at the clock edge, so ticking them before those levels gives what
/// ticking them after does.
pub struct CuSide<'a> {
    /// The CU's caches (its ports for `Cu::tick`).
    pub ports: &'a mut CuPorts,
    req: &'a mut [CreditFifo<Packet>],
    resp: &'a mut [CreditFifo<Packet>],
    busy: &'a mut bool,
}

impl CuSide<'_> {
    /// One clock edge of the CU's caches, after the CU's own.
    pub fn tick(&mut self, now: u64) {
        let busy = !self.ports.idle();
        // Written only when it changes: neighbouring CUs' flags share a
        // cache line, and their CUs may tick on other cores.
        if *self.busy != busy {
            *self.busy = busy;
        }
        if busy {
            self.ports.tick(now, self.req, self.resp);
        }
    }
}

/// The whole hierarchy./// The whole hierarchy.
#[derive(Clone, Debug)]
pub struct MemSystem {
    config: MemConfig,
    cycle: u64,
    cus: Vec<CuPorts>,
    /// The instruction caches, one per `inst_cache_cus` CUs.
    icaches: Vec<SharedInstCache>,
    front: FrontPort,
    xbar: Xbar,
    l2: Vec<L2Channel>,
    dram: Vec<DramChannel>,
    /// GL1 caches, one per shader array (empty without `gl1`).
    gl1: Vec<Gl1Cache>,
    /// Per CU port: its cache's buffer toward its GL1 (empty without `gl1`).
    gl1_req: Vec<CreditFifo<Packet>>,
    /// Per CU port: the GL1's buffer toward the CU cache (empty without `gl1`).
    gl1_resp: Vec<CreditFifo<Packet>>,
    /// Infinity Cache slices, one per channel (empty without `infinity_cache`).
    ic: Vec<InfinitySlice>,
    /// Per CU: its caches had work on this edge ([`CuSide::tick`]).
    cu_busy: Vec<bool>,
    requests: u64,
    rejected: u64,
}

impl MemSystem {
    /// A hierarchy for `cus` compute units.
    ///
    /// # Panics
    /// When the configuration is invalid: check it first with
    /// [`MemConfig::validate_for`] or use [`try_new`](Self::try_new).
    pub fn new(config: &MemConfig, cus: usize) -> MemSystem {
        match MemSystem::try_new(config, cus) {
            Ok(m) => m,
            Err(e) => panic!("invalid memory configuration: {e}"),
        }
    }

    /// A hierarchy for `cus` compute units, or the configuration error.
    pub fn try_new(config: &MemConfig, cus: usize) -> Result<MemSystem, String> {
        config.validate_for(cus)?;
        let ports = cus * 3 + 1;
        let channels = config.l2.channels as usize;
        let depth = config.xbar.fifo_depth as u16;
        Ok(MemSystem {
            config: config.clone(),
            cycle: 0,
            cus: (0..cus)
                .map(|cu| CuPorts {
                    inst: InstPort::default(),
                    scalar: CuCache::new(&config.scalar_cache, config, cu * 3 + 1),
                    vector: CuCache::new(&config.vector_cache, config, cu * 3 + 2),
                    line_bytes: config.line_bytes,
                    requests: 0,
                    rejected: 0,
                })
                .collect(),
            icaches: (0..cus)
                .step_by(config.inst_cache_cus as usize)
                .map(|first| {
                    let n = (config.inst_cache_cus as usize).min(cus - first);
                    let c = &config.inst_cache;
                    let cache = CuCache::with_line(c, config, first * 3, config.inst_line_bytes);
                    SharedInstCache::new(cache, first, n)
                })
                .collect(),
            front: FrontPort::new(config, cus * 3, usize::from(depth)),
            xbar: Xbar::new(ports, channels, depth, config.xbar.latency),
            l2: (0..channels).map(|_| L2Channel::new(config)).collect(),
            dram: (0..channels).map(|_| DramChannel::new(config)).collect(),
            gl1: gl1_caches(config, cus),
            gl1_req: buffers(config.gl1.is_some(), cus * 3, depth),
            gl1_resp: buffers(config.gl1.is_some(), cus * 3, depth),
            ic: (0..channels)
                .filter_map(|_| InfinitySlice::new(config))
                .collect(),
            cu_busy: vec![false; cus],
            requests: 0,
            rejected: 0,
        })
    }

    /// Bytes per cache line.
    pub fn line_bytes(&self) -> u32 {
        self.config.line_bytes
    }

    /// The configuration.
    pub fn config(&self) -> &MemConfig {
        &self.config
    }

    /// Clock edges since reset.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// The L2 channel serving byte `address` (line address modulo channels).
    pub fn channel_of(&self, address: u64) -> usize {
        self.xbar
            .channel_of(address >> self.config.line_bytes.trailing_zeros())
    }

    /// Counters of L2 channel `ch` and its DRAM channel.
    pub fn channel_stats(&self, ch: usize) -> Option<(CacheStats, dram::DramStats)> {
        Some((
            self.l2.get(ch)?.stats.clone(),
            self.dram.get(ch)?.stats.clone(),
        ))
    }

    /// Every CU's side of the hierarchy, in CU order, for the compute-unit
    /// phase of an edge; [`MemSystem::tick_below_cus`] completes the edge.
    pub fn cu_sides(&mut self) -> impl Iterator<Item = CuSide<'_>> {
        let (req, resp) = if self.gl1.is_empty() {
            (&mut self.xbar.req.inputs, &mut self.xbar.port_in)
        } else {
            (&mut self.gl1_req, &mut self.gl1_resp)
        };
        self.cus
            .iter_mut()
            .zip(req.chunks_mut(3))
            .zip(resp.chunks_mut(3))
            .zip(self.cu_busy.iter_mut())
            .map(|(((ports, req), resp), busy)| CuSide {
                ports,
                req,
                resp,
                busy,
            })
    }

    /// Every CU's ports, in CU order (read-only: event skipping asks a CU
    /// about its next event with them).
    pub fn cu_ports(&self) -> &[CuPorts] {
        &self.cus
    }

    /// True when port (`cu`, `unit`) can take a request this cycle.
    pub fn can_accept(&self, cu: usize, unit: Unit) -> bool {
        match unit {
            Unit::FrontEnd => self.front.can_accept(),
            _ => self.cus.get(cu).is_some_and(|c| c.can_accept(cu, unit)),
        }
    }

    /// Offers a request on port (`cu`, `unit`) this cycle (only after
    /// `can_accept`; a request the port cannot take, or on a CU that does not
    /// exist, is dropped and counted in [`MemStats::rejected`]).
    pub fn request(&mut self, cu: usize, unit: Unit, req: MemRequest) {
        match unit {
            Unit::FrontEnd => {
                if self.front.request(req) {
                    self.requests += 1;
                } else {
                    self.rejected += 1;
                }
            }
            _ => match self.cus.get_mut(cu) {
                Some(c) => c.request(cu, unit, req),
                None => self.rejected += 1,
            },
        }
    }

    /// Moves the responses delivered to port (`cu`, `unit`) into `out`.
    pub fn take_responses(&mut self, cu: usize, unit: Unit, out: &mut Vec<MemResponse>) {
        match unit {
            Unit::FrontEnd => out.append(&mut self.front.out),
            _ => {
                if let Some(c) = self.cus.get_mut(cu) {
                    c.take_responses(cu, unit, out);
                }
            }
        }
    }

    /// One clock edge of the whole hierarchy (no compute units attached:
    /// the GPU ticks the CU caches with their CUs, [`MemSystem::cu_sides`]).
    pub fn tick(&mut self) {
        let now = self.cycle;
        for mut side in self.cu_sides() {
            side.tick(now);
        }
        self.tick_below_cus();
    }

    /// The clock edge below the CU caches (after [`CuSide::tick`] of every
    /// CU): channels, crossbar, GL1s, the front end's port.
    pub fn tick_below_cus(&mut self) {
        let now = self.cycle;
        self.cycle += 1;
        // The CU caches count as in flight if they were before their edge.
        // The flags first: one cache line, where `nothing_in_flight` reads
        // every CU's caches (another core's, on worker threads).
        if !self.cu_busy.contains(&true) && self.nothing_in_flight() {
            return;
        }
        // First, as if ticked with their CUs: they hand packets to the
        // levels below through the same credit buffers as the CU caches.
        self.tick_icaches(now);
        self.tick_channels(now);
        self.xbar.tick(now);
        if !self.gl1.is_empty() {
            self.tick_gl1(now);
        }
        let p = self.cus.len() * 3;
        if !self.front.idle() {
            self.front
                .tick(now, &mut self.xbar.req.inputs[p], &mut self.xbar.port_in[p]);
        }
        self.xbar.commit();
    }

    /// The shared instruction caches: arbitration among their CUs' fetch
    /// ports, the cache, responses back to the ports.
    fn tick_icaches(&mut self, now: u64) {
        let (req, resp) = if self.gl1.is_empty() {
            (&mut self.xbar.req.inputs, &mut self.xbar.port_in)
        } else {
            (&mut self.gl1_req, &mut self.gl1_resp)
        };
        for ic in &mut self.icaches {
            let cus = &mut self.cus[ic.first_cu..ic.first_cu + ic.cus];
            if !ic.idle() || cus.iter().any(|c| !c.inst.idle()) {
                let p = ic.first_cu * 3;
                ic.tick(now, cus, &mut req[p], &mut resp[p]);
            }
        }
    }

    /// The memory channels: each L2 channel over its DRAM channel, or over
    /// an Infinity Cache slice over it when the slices are configured.
    fn tick_channels(&mut self, now: u64) {
        use dram::LineStore;
        let buffers = self
            .xbar
            .l2_in
            .iter_mut()
            .zip(self.xbar.resp.inputs.iter_mut());
        let channels = self.l2.iter_mut().zip(self.dram.iter_mut());
        for (k, ((l2, dram), (input, out))) in channels.zip(buffers).enumerate() {
            if !dram.idle() {
                dram.tick(now);
            }
            match self.ic.get_mut(k) {
                Some(ic) => {
                    if !ic.idle() || dram.peek_fill(now).is_some() {
                        ic.tick(now, dram);
                    }
                    if !(l2.idle() && input.is_empty() && ic.peek_fill(now).is_none()) {
                        l2.tick(now, input, out, ic);
                    }
                }
                None => {
                    if !(l2.idle() && input.is_empty() && dram.peek_fill(now).is_none()) {
                        l2.tick(now, input, out, dram);
                    }
                }
            }
        }
    }

    /// The GL1 caches between the CU caches and the crossbar: CU caches talk
    /// to their GL1's buffers, the GL1s to the crossbar (the front end's
    /// port is the caller's, as without GL1s).
    fn tick_gl1(&mut self, now: u64) {
        let xin = &mut self.xbar.req.inputs;
        let resp = &mut self.xbar.port_in;
        for g in &mut self.gl1 {
            let r = g.ports();
            let cus_busy = self.cu_busy[r.start / 3..r.end / 3].contains(&true);
            if cus_busy || !g.idle() {
                g.tick(
                    now,
                    &mut self.gl1_req[r.clone()],
                    &mut self.gl1_resp[r.clone()],
                    &mut xin[r.clone()],
                    &mut resp[r],
                );
            }
        }
        for f in self.gl1_req.iter_mut().chain(self.gl1_resp.iter_mut()) {
            f.commit();
        }
    }

    /// True while any request is in flight, any response is untaken, or
    /// DRAM still has write-backs to do.
    pub fn busy(&self) -> bool {
        let port_busy = |c: &CuCache| !c.idle() || !c.out.is_empty();
        !self.front.idle()
            || !self.front.out.is_empty()
            || self.cus.iter().any(|c| {
                !c.inst.idle()
                    || !c.inst.out.is_empty()
                    || port_busy(&c.scalar)
                    || port_busy(&c.vector)
            })
            || self.icaches.iter().any(|c| !c.idle())
            || self.dram.iter().any(|d| !d.idle())
            || self.ic.iter().any(|s| !s.idle())
            || self.gl1.iter().any(|g| !g.idle())
    }

    /// CU `cu`'s vector L0 `(accesses, misses)` since reset (the mode
    /// control unit's inputs, `cu/subvec.rs`).
    pub fn vector_l0_counts(&self, cu: usize) -> (u64, u64) {
        self.cus.get(cu).map_or((0, 0), |c| c.vector_l0_counts(cu))
    }

    /// Counters since reset.
    pub fn stats(&self) -> MemStats {
        let mut s = MemStats {
            requests: self.requests,
            rejected: self.rejected,
            ..MemStats::default()
        };
        for c in &self.cus {
            s.requests += c.requests;
            s.rejected += c.rejected;
            s.scalar.add(&c.scalar.stats);
            s.vector.add(&c.vector.stats);
        }
        for c in &self.icaches {
            s.inst.add(&c.cache.stats);
        }
        for l in &self.l2 {
            s.l2.add(&l.stats);
        }
        for sw in [&self.xbar.req, &self.xbar.resp] {
            s.xbar_conflicts += sw.stats.conflicts;
            s.xbar_backpressure += sw.stats.backpressure;
            s.xbar_packets += sw.stats.packets;
        }
        if !self.gl1.is_empty() {
            let mut g = CacheStats::default();
            self.gl1.iter().for_each(|c| g.add(&c.stats));
            s.gl1 = Some(g);
        }
        if !self.ic.is_empty() {
            let mut ic = CacheStats::default();
            self.ic.iter().for_each(|c| ic.add(&c.stats));
            s.infinity_cache = Some(ic);
        }
        for d in &self.dram {
            s.dram_bytes_read += d.stats.bytes_read;
            s.dram_bytes_written += d.stats.bytes_written;
            s.dram_row_hits += d.stats.row_hits;
            s.dram_row_misses += d.stats.row_misses;
        }
        s
    }
}

impl MemSystem {
    /// The instruction cache CU `cu` fetches through.
    fn icache_of(&self, cu: usize) -> Option<&SharedInstCache> {
        let n = self.config.inst_cache_cus.max(1) as usize;
        self.icaches.get(cu / n)
    }

    /// Emits CU `cu`'s caches (`icache` — its WGP's, the same signals in
    /// both CUs' scopes —, `scache`, `l0`) under the current scope, so that
    /// the GPU can place them in the CU's own scope.
    pub fn probe_cu(&self, cu: usize, t: &mut traces::Tracer) {
        use traces::Probe;
        if let Some(c) = self.cus.get(cu) {
            if let Some(ic) = self.icache_of(cu) {
                ic.cache.probe("icache", t);
            }
            c.scalar.probe("scache", t);
            c.vector.probe("l0", t);
        }
    }

    /// Emits the shared parts (`fe_port`, `xbar`, `l2_N`, `dram_N`) under the
    /// current scope.
    pub fn probe_shared(&self, t: &mut traces::Tracer) {
        use traces::Probe;
        self.front.probe("fe_port", t);
        self.xbar.probe("xbar", t);
        if !self.gl1.is_empty() {
            self.gl1.probe("gl1_", t);
        }
        self.l2.probe("l2_", t);
        if !self.ic.is_empty() {
            self.ic.probe("ic_", t);
        }
        self.dram.probe("dram_", t);
    }
}

/// The GL1 caches of `config` for `cus` CUs: array `a` serves the CUs
/// `a × cus / arrays ..` (contiguous, as even as the division allows).
fn gl1_caches(config: &MemConfig, cus: usize) -> Vec<Gl1Cache> {
    let Some(g) = &config.gl1 else {
        return Vec::new();
    };
    let arrays = g.arrays() as usize;
    (0..arrays)
        .map(|a| {
            let first = a * cus / arrays;
            let end = (a + 1) * cus / arrays;
            Gl1Cache::new(g, config, first * 3, (end - first) * 3)
        })
        .collect()
}

/// `n` credit buffers of `depth` slots when `present`, else none.
fn buffers(present: bool, n: usize, depth: u16) -> Vec<CreditFifo<Packet>> {
    if present {
        (0..n).map(|_| CreditFifo::new(depth)).collect()
    } else {
        Vec::new()
    }
}

impl traces::Probe for MemSystem {
    fn probe(&self, name: &str, t: &mut traces::Tracer) {
        t.scope(name, |t| {
            for (i, c) in self.cus.iter().enumerate() {
                t.indexed("cu", i, |t, n| {
                    t.scope(n, |t| {
                        if let Some(ic) = self.icache_of(i) {
                            ic.cache.probe("icache", t);
                        }
                        c.scalar.probe("scache", t);
                        c.vector.probe("l0", t);
                    })
                });
            }
            self.front.probe("fe_port", t);
            self.xbar.probe("xbar", t);
            if !self.gl1.is_empty() {
                self.gl1.probe("gl1_", t);
            }
            self.l2.probe("l2_", t);
            if !self.ic.is_empty() {
                self.ic.probe("ic_", t);
            }
            self.dram.probe("dram_", t);
        });
    }
}
