//! One graphics L1 cache (GL1): shared by the CU caches of one shader array,
//! between their crossbar ports and the crossbar. Read-only, as RDNA's GL1:
//! whole-line reads allocate; writes, atomics and partial (bypassing) reads
//! pass through to the L2 after the lookup, and a write or atomic drops a
//! resident copy of its line (the L2 holds the data).
//!
//! The GL1 sits on the ports of its CUs: each CU cache sends into its own
//! request buffer toward the GL1 (`cu_req`) and takes responses from its own
//! buffer (`cu_resp`); the GL1 forwards misses into the same port's crossbar
//! input (`xin`) unchanged, so the L2's answer comes back on that port's
//! crossbar buffer (`port_in`), where the GL1 takes it. A fill is recognised
//! by its MSHR: the response names the line and the (port, tag) that opened it.
//!
//! Per cycle, back to front:
//! 1. one response per port from the crossbar (while the response queue has
//!    room): a fill installs its line and answers every merged request, on
//!    their own ports; any other response passes through;
//! 2. due responses go to their CU's buffer, one per port at a time: a
//!    response of F flits holds the port for F cycles (64 B per cycle);
//! 3. lookups whose `hit_latency` has elapsed leave the pipeline for the
//!    crossbar, up to `lookups_per_cycle`, each when its port holds a credit;
//! 4. up to `lookups_per_cycle` requests from different ports (round robin)
//!    are looked up: a hit is answered after `hit_latency`; a miss joins the
//!    line's MSHR or opens one and enters the pipeline; others enter the
//!    pipeline. No MSHR, a full pipeline or a full response queue leaves the
//!    request in its buffer (its credit does not return).

use std::collections::VecDeque;

use super::cache::{MissSlot, MshrFile, TagArray};
use super::config::{Gl1Config, MemConfig};
use super::CacheStats;
use crate::xbar::fifo::CreditFifo;
use crate::xbar::packet::{Kind, Packet};

/// A request waiting for a line fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Target {
    port: u16,
    tag: u16,
}

/// What the lookup stage does with one request (pure decision).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Decision {
    /// The line is resident (entry).
    Hit(usize),
    /// A whole-line read: join or open an MSHR.
    Miss(MissSlot),
    /// Not cached here: to the L2 after the lookup.
    PassThrough,
    /// Leave the request in its buffer.
    Stall,
}

traces::signals! {
    /// One GL1 cache.
    #[derive(Clone, Debug)]
    pub struct Gl1Cache {
        /// MSHRs in use.
        pub mshr_used: u16,
        /// Requests in the lookup pipeline (misses and pass-throughs).
        pub pipe_count: u16,
        /// Responses waiting for their CU's buffer.
        pub resp_count: u16,
        /// A request could not proceed this cycle.
        pub stalled: bool,
        @untraced
        tags: TagArray,
        @untraced
        mshr: MshrFile<Target>,
        /// Per MSHR: the (port, tag) whose packet went to the L2.
        @untraced
        primary: Vec<Target>,
        /// (cycle it leaves the pipeline, packet), in lookup order.
        @untraced
        pipe: VecDeque<(u64, Packet)>,
        /// (ready cycle, response), ordered by ready cycle.
        @untraced
        deliver: VecDeque<(u64, Packet)>,
        /// Per port: the cycle its response link is free again.
        @untraced
        link_free: Vec<u64>,
        /// First crossbar port served.
        @untraced
        first_port: usize,
        /// Next port the round robin starts from (relative).
        @untraced
        rr: usize,
        @untraced
        cfg: Gl1Config,
        @untraced
        line_flits: u32,
        /// Counters.
        @untraced
        pub stats: CacheStats,
    }
}

impl Gl1Cache {
    /// A cold GL1 serving the crossbar ports `first_port .. first_port + ports`.
    pub fn new(cfg: &Gl1Config, mem: &MemConfig, first_port: usize, ports: usize) -> Gl1Cache {
        let sets = cfg.size_bytes / (cfg.ways * mem.line_bytes);
        Gl1Cache {
            mshr_used: 0,
            pipe_count: 0,
            resp_count: 0,
            stalled: false,
            tags: TagArray::new(sets, cfg.ways),
            mshr: MshrFile::new(cfg.mshrs, cfg.mshr_targets),
            primary: vec![Target { port: 0, tag: 0 }; cfg.mshrs as usize],
            pipe: VecDeque::new(),
            deliver: VecDeque::new(),
            link_free: vec![0; ports],
            first_port,
            rr: 0,
            cfg: cfg.clone(),
            line_flits: mem.flits_for(mem.line_bytes),
            stats: CacheStats::default(),
        }
    }

    /// The crossbar ports this GL1 serves.
    pub fn ports(&self) -> std::ops::Range<usize> {
        self.first_port..self.first_port + self.link_free.len()
    }

    /// Nothing outstanding in the GL1 itself.
    pub fn idle(&self) -> bool {
        self.mshr.used() == 0 && self.pipe.is_empty() && self.deliver.is_empty()
    }

    /// The earliest cycle at which this GL1's edge may change anything:
    /// a response due on a free link, a lookup leaving the pipeline
    /// (requests and responses in its buffers count as the buffers' events).
    pub fn next_event(&self) -> u64 {
        let deliver = self.deliver.iter().map(|&(ready, r)| {
            let local = r.port().wrapping_sub(self.first_port);
            let free = self.link_free.get(local).copied().unwrap_or(0);
            ready.max(free)
        });
        let pipe = self.pipe.front().map(|&(exit, _)| exit);
        deliver.chain(pipe).min().unwrap_or(u64::MAX)
    }

    fn pipe_room(&self) -> bool {
        (self.pipe.len() as u64)
            < u64::from(self.cfg.hit_latency) * u64::from(self.cfg.lookups_per_cycle)
    }

    /// Queues response `r` for delivery from cycle `at` (ordered by ready cycle).
    fn enqueue(&mut self, r: Packet, at: u64) {
        let i = self.deliver.partition_point(|&(t, _)| t <= at);
        self.deliver.insert(i, (at, r));
    }

    /// Pure decision of the lookup stage for `p`.
    fn eval_lookup(&self, p: &Packet) -> Decision {
        let room = self.deliver.len() < self.cfg.response_queue as usize;
        let line = p.line();
        let fill = p.kind() == Kind::Read && u32::from(p.flits.value()) >= self.line_flits;
        if !fill {
            return if self.pipe_room() {
                Decision::PassThrough
            } else {
                Decision::Stall
            };
        }
        if let Some(e) = self.tags.lookup(line) {
            return if room {
                Decision::Hit(e)
            } else {
                Decision::Stall
            };
        }
        match self.mshr.slot_for(line, true) {
            MissSlot::Full => Decision::Stall,
            MissSlot::Allocate(_) if !self.pipe_room() => Decision::Stall,
            slot => Decision::Miss(slot),
        }
    }

    /// One cycle. The slices are indexed by port − `first_port`: `cu_req`
    /// and `cu_resp` are the CU caches' buffers toward and from the GL1,
    /// `xin` the crossbar's request inputs and `port_in` its response
    /// buffers of the same ports.
    pub fn tick(
        &mut self,
        now: u64,
        cu_req: &mut [CreditFifo<Packet>],
        cu_resp: &mut [CreditFifo<Packet>],
        xin: &mut [CreditFifo<Packet>],
        port_in: &mut [CreditFifo<Packet>],
    ) {
        let ports = self.link_free.len();
        // 1. Responses from the crossbar.
        for resp in port_in.iter_mut().take(ports) {
            let Some(&p) = resp.front(now) else {
                continue;
            };
            let fill = (p.kind() == Kind::ReadData)
                .then(|| self.mshr.find_fill(p.line()))
                .flatten()
                .filter(|&i| {
                    self.primary[i]
                        == Target {
                            port: p.port() as u16,
                            tag: p.tag,
                        }
                });
            let answers = fill
                .and_then(|i| self.mshr.get(i))
                .map_or(1, |m| m.targets.len());
            let cap = self.cfg.response_queue as usize;
            if !self.deliver.is_empty() && self.deliver.len() + answers > cap {
                continue;
            }
            resp.pop(now);
            match fill {
                Some(i) => {
                    let line = p.line();
                    self.tags.install(line, false);
                    let mut answered = Vec::with_capacity(answers);
                    self.mshr.retire(i, |t| answered.push(*t));
                    for t in answered {
                        let r = Packet::new(
                            Kind::ReadData,
                            usize::from(t.port),
                            t.tag,
                            line,
                            self.line_flits,
                        );
                        self.enqueue(r, now + 1);
                    }
                }
                None => self.enqueue(p, now + 1),
            }
        }
        // 2. Deliveries, one response per port link at a time.
        let mut k = 0;
        while k < self.deliver.len() {
            let (ready, r) = self.deliver[k];
            if ready > now {
                break;
            }
            let local = r.port().wrapping_sub(self.first_port);
            let flits = u64::from(r.link_flits().max(1));
            let free = self.link_free.get(local).copied().unwrap_or(u64::MAX);
            if free <= now && cu_resp[local].push(r, now + flits).is_ok() {
                self.link_free[local] = now + flits;
                self.deliver.remove(k);
            } else {
                k += 1;
            }
        }
        // 3. Pipeline → crossbar.
        for _ in 0..self.cfg.lookups_per_cycle {
            let Some(&(exit, p)) = self.pipe.front() else {
                break;
            };
            let local = p.port().wrapping_sub(self.first_port);
            if exit > now || xin[local].push(p, now + 1).is_err() {
                break;
            }
            self.pipe.pop_front();
        }
        // 4. Lookups, round robin over the ports.
        self.stalled = false;
        let mut done = 0;
        let mut last = None;
        for n in 0..ports {
            if done == self.cfg.lookups_per_cycle {
                break;
            }
            let local = (self.rr + n) % ports;
            let Some(&p) = cu_req[local].front(now) else {
                continue;
            };
            let exit = now + u64::from(self.cfg.hit_latency);
            let line = p.line();
            match self.eval_lookup(&p) {
                Decision::Stall => {
                    self.stalled = true;
                    self.stats.stall_cycles += 1;
                    continue;
                }
                Decision::Hit(e) => {
                    self.tags.touch(e);
                    self.stats.hits += 1;
                    let r = Packet::new(Kind::ReadData, p.port(), p.tag, line, self.line_flits);
                    self.enqueue(r, exit);
                }
                Decision::Miss(slot) => {
                    self.stats.misses += 1;
                    let target = Target {
                        port: p.port() as u16,
                        tag: p.tag,
                    };
                    if let MissSlot::Merge(_) = slot {
                        self.stats.mshr_merges += 1;
                    } else if let MissSlot::Allocate(i) = slot {
                        self.primary[i] = target;
                        self.pipe.push_back((exit, p));
                    }
                    self.mshr.apply(slot, line, true, target);
                }
                Decision::PassThrough => {
                    if p.kind() != Kind::Read {
                        // Write-through to the L2: a resident copy is stale.
                        self.tags.invalidate(line);
                    }
                    self.stats.uncached += 1;
                    self.pipe.push_back((exit, p));
                }
            }
            cu_req[local].pop(now);
            done += 1;
            last = Some(local);
        }
        if let Some(l) = last {
            self.rr = (l + 1) % ports.max(1);
        }
        self.mshr_used = self.mshr.used() as u16;
        self.pipe_count = self.pipe.len() as u16;
        self.resp_count = self.deliver.len() as u16;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> (Gl1Config, MemConfig) {
        let g = Gl1Config {
            shader_engines: 1,
            arrays_per_engine: 1,
            size_bytes: 4096,
            ways: 4,
            hit_latency: 10,
            mshrs: 4,
            mshr_targets: 4,
            lookups_per_cycle: 1,
            response_queue: 8,
        };
        (g, MemConfig::default())
    }

    fn fifos(n: usize) -> Vec<CreditFifo<Packet>> {
        (0..n).map(|_| CreditFifo::new(8)).collect()
    }

    struct Bench {
        gl1: Gl1Cache,
        cu_req: Vec<CreditFifo<Packet>>,
        cu_resp: Vec<CreditFifo<Packet>>,
        xin: Vec<CreditFifo<Packet>>,
        port_in: Vec<CreditFifo<Packet>>,
        now: u64,
    }

    impl Bench {
        fn new(ports: usize) -> Bench {
            let (g, m) = config();
            Bench {
                gl1: Gl1Cache::new(&g, &m, 6, ports),
                cu_req: fifos(ports),
                cu_resp: fifos(ports),
                xin: fifos(ports),
                port_in: fifos(ports),
                now: 0,
            }
        }
        fn tick(&mut self) {
            self.gl1.tick(
                self.now,
                &mut self.cu_req,
                &mut self.cu_resp,
                &mut self.xin,
                &mut self.port_in,
            );
            for f in self
                .cu_req
                .iter_mut()
                .chain(&mut self.cu_resp)
                .chain(&mut self.xin)
                .chain(&mut self.port_in)
            {
                f.commit();
            }
            self.now += 1;
        }
        /// Runs until port `local`'s CU buffer holds a response; returns it and the cycle.
        fn wait_resp(&mut self, local: usize) -> (Packet, u64) {
            for _ in 0..1000 {
                if let Some(p) = self.cu_resp[local].pop(self.now) {
                    return (p, self.now);
                }
                // The "L2": answer every forwarded read 20 cycles later.
                for k in 0..self.xin.len() {
                    if let Some(p) = self.xin[k].pop(self.now) {
                        let kind = if p.kind() == Kind::Read {
                            Kind::ReadData
                        } else {
                            Kind::WriteAck
                        };
                        let r = Packet::new(kind, p.port(), p.tag, p.line(), 2);
                        self.port_in[k].push(r, self.now + 20).unwrap();
                    }
                }
                self.tick();
            }
            panic!("no response on port {local}");
        }
    }

    #[test]
    fn miss_then_hit_and_hit_latency() {
        let mut b = Bench::new(2);
        b.cu_req[0]
            .push(Packet::new(Kind::Read, 6, 3, 100, 2), 0)
            .unwrap();
        let (r, t_miss) = b.wait_resp(0);
        assert_eq!((r.kind(), r.tag, r.line()), (Kind::ReadData, 3, 100));
        assert_eq!(b.gl1.stats.misses, 1);
        // The other CU port of the array hits the installed line.
        let start = b.now;
        b.cu_req[1]
            .push(Packet::new(Kind::Read, 7, 9, 100, 2), start)
            .unwrap();
        let (r, t_hit) = b.wait_resp(1);
        assert_eq!((r.port(), r.tag), (7, 9));
        assert_eq!(b.gl1.stats.hits, 1);
        // Lookup 10, then two flits on the link to the CU.
        assert_eq!(t_hit - start, 10 + 2);
        assert!(t_miss > t_hit - start + 20);
        assert!(b.gl1.idle());
    }

    #[test]
    fn merged_misses_share_one_l2_request() {
        let mut b = Bench::new(2);
        b.cu_req[0]
            .push(Packet::new(Kind::Read, 6, 1, 40, 2), 0)
            .unwrap();
        b.cu_req[1]
            .push(Packet::new(Kind::Read, 7, 2, 40, 2), 0)
            .unwrap();
        let (r0, _) = b.wait_resp(0);
        let (r1, _) = b.wait_resp(1);
        assert_eq!((r0.tag, r1.tag), (1, 2));
        assert_eq!(b.gl1.stats.misses, 2);
        assert_eq!(b.gl1.stats.mshr_merges, 1);
    }

    #[test]
    fn writes_pass_through_and_drop_the_line() {
        let mut b = Bench::new(1);
        b.cu_req[0]
            .push(Packet::new(Kind::Read, 6, 1, 5, 2), 0)
            .unwrap();
        b.wait_resp(0);
        let now = b.now;
        b.cu_req[0]
            .push(Packet::new(Kind::Write, 6, 2, 5, 1), now)
            .unwrap();
        let (r, _) = b.wait_resp(0);
        assert_eq!(r.kind(), Kind::WriteAck);
        assert_eq!(b.gl1.stats.uncached, 1);
        let now = b.now;
        b.cu_req[0]
            .push(Packet::new(Kind::Read, 6, 3, 5, 2), now)
            .unwrap();
        b.wait_resp(0);
        assert_eq!(b.gl1.stats.misses, 2, "the write dropped the GL1 copy");
    }
}
