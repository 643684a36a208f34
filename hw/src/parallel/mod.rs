//! Compute units on worker threads, with results identical for any thread
//! count (docs/cycle-model.md, "Worker threads").
//!
//! One clock edge of the compute units is evaluated by `threads` workers; CU
//! `i` goes to worker `i % threads`, each worker ticks its CUs in increasing
//! index order. Everything a CU's edge reads or writes is its own — its
//! registers, its three caches ([`CuPorts`]), its event buffer — except
//! **device memory** (the [`Backing`]), which memory instructions read and
//! write at issue. The serial model accesses it in CU order within a cycle
//! (cu0's accesses, then cu1's, …), and racy programs and atomics observe
//! that order. Here every CU reads the store as the edge found it and keeps
//! its writes in its own log ([`crate::mem::staged`]); after the edge the
//! logs are committed in CU order, and a CU one of whose reads overlaps a
//! write made before it in that order executes its memory instructions of
//! the edge again on the store: the serial result, by construction, with no
//! waiting between workers during the edge.
//!
//! Lockstep events go to a buffer per CU and are appended in CU order after
//! the edge, so the event stream is the serial one. With a fault injection
//! armed (tests of the lockstep checker) the edge runs serially.

pub mod gang;
pub mod governor;

use std::sync::Mutex;

use gang::Gang;

use crate::cu::{Cu, TickCtx};
use crate::event::Event;
use crate::mem::backing::Backing;
use crate::mem::staged::{DeviceMem, EdgeLog, WrittenSet};
use crate::mem::CuSide;

/// What the compute-unit phase of an edge tells the rest of the edge, so
/// that the caller need not read every CU's registers again (on worker
/// threads they sit in another core's cache).
#[derive(Clone, Copy, Debug, Default)]
pub struct CuPhaseReport {
    /// CUs not idle after their edge.
    pub busy: usize,
    /// Some CU faulted.
    pub faulted: bool,
    /// Some CU ended a workgroup.
    pub ended: bool,
    /// Some CU wrote device memory (staged edges only).
    wrote: bool,
    /// CUs that executed their memory instructions again at the commit (a
    /// read overlapped an earlier write of the edge).
    pub reexecuted: usize,
}

impl CuPhaseReport {
    /// Adds CU `cu` after its edge; returns whether it is busy.
    pub fn add(&mut self, cu: &Cu) -> bool {
        let busy = !cu.is_idle();
        self.busy += usize::from(busy);
        self.faulted |= cu.fault.is_some();
        self.ended |= !cu.ended_wgs.is_empty();
        busy
    }

    fn merge(&mut self, o: &CuPhaseReport) {
        self.busy += o.busy;
        self.faulted |= o.faulted;
        self.ended |= o.ended;
        self.wrote |= o.wrote;
    }
}

/// The worker pool and the per-edge scratch of the parallel evaluation.
pub struct CuWorkers {
    gang: Gang,
    /// Each CU's device-memory accesses of the edge.
    logs: Vec<EdgeLog>,
    /// Events of each CU's edge (kept to reuse their allocations).
    events: Vec<Vec<Event>>,
    /// Dwords written by the CUs committed so far this edge.
    written: WrittenSet,
    /// Each CU was busy after the last parallel edge (how the next edge's
    /// CUs are shared out).
    busy: Vec<bool>,
    /// Per worker: its CUs whose last edge touched device memory, in CU
    /// order.
    logged: Vec<Vec<u32>>,
}

impl CuWorkers {
    /// `threads` workers (≥ 2; the calling thread is one of them) for `cus`
    /// compute units, or the reason the threads could not be started.
    pub fn new(threads: usize, cus: usize) -> Result<CuWorkers, String> {
        Ok(CuWorkers {
            gang: Gang::new(threads)?,
            logs: vec![EdgeLog::default(); cus],
            events: vec![Vec::new(); cus],
            written: WrittenSet::default(),
            busy: vec![true; cus],
            logged: vec![Vec::new(); threads],
        })
    }

    /// Worker threads, the calling one included.
    pub fn threads(&self) -> usize {
        self.gang.size()
    }

    /// One clock edge of every CU and its caches, evaluated by the workers
    /// on staged device memory and committed in CU order; lockstep events
    /// (when `events` is given) are appended in CU order.
    ///
    /// Each worker takes a contiguous range of CUs holding an equal share of
    /// the CUs busy after the last edge: contiguous, so that neighbouring
    /// CUs' state (in per-CU arrays) is not written by two cores.
    pub fn tick<'m>(
        &mut self,
        now: u64,
        cus: &mut [Cu],
        sides: impl Iterator<Item = CuSide<'m>>,
        backing: &mut Backing,
        events: Option<&mut Vec<Event>>,
    ) -> CuPhaseReport {
        let events_on = events.is_some();
        let threads = self.gang.size();
        let mut report = CuPhaseReport::default();
        {
            let base: &Backing = backing;
            let total = self.busy.iter().filter(|&&b| b).count().max(1);
            let each_share = cus.len() / threads + 1;
            let mut shares: Vec<Outcome<'_>> = self
                .logged
                .iter_mut()
                .map(|logged| Outcome {
                    cus: Vec::with_capacity(each_share),
                    report: CuPhaseReport::default(),
                    logged: std::mem::take(logged),
                })
                .collect();
            let each = cus
                .iter_mut()
                .zip(sides)
                .zip(self.logs.iter_mut())
                .zip(self.events.iter_mut())
                .zip(self.busy.iter_mut());
            let (mut worker, mut seen) = (0, 0);
            for (i, ((((cu, side), log), ev), busy)) in each.enumerate() {
                // Worker w takes the CUs up to the (w + 1)-th N-th of the
                // busy ones.
                if *busy {
                    while worker + 1 < threads && seen * threads >= total * (worker + 1) {
                        worker += 1;
                    }
                    seen += 1;
                }
                shares[worker].cus.push(Share {
                    index: i as u32,
                    cu,
                    side,
                    log,
                    events: ev,
                    busy,
                });
            }
            let shares: Vec<Mutex<_>> = shares.into_iter().map(Mutex::new).collect();
            self.gang.run(&|w| {
                // Each worker locks only its own share: never contended.
                let mut share = shares[w].lock().unwrap_or_else(|e| e.into_inner());
                run_share(&mut share, now, events_on, base);
            });
            for (s, logged) in shares.into_iter().zip(&mut self.logged) {
                let s = s.into_inner().unwrap_or_else(|e| e.into_inner());
                report.merge(&s.report);
                *logged = s.logged;
            }
        }
        if report.wrote {
            report.reexecuted = self.commit(cus, backing);
        }
        if let Some(out) = events {
            for ev in &mut self.events {
                out.append(ev);
            }
        }
        report
    }
    /// Commits the logs of the CUs that touched memory, in CU order
    /// (`crate::mem::staged`). Only needed when some CU wrote: otherwise
    /// every read saw the store as the serial evaluation does. The logs and
    /// staged instructions are emptied by their workers at the next edge,
    /// not here, so that this thread writes nothing of a CU it need not.
    /// Returns how many CUs executed their memory instructions again.
    fn commit(&mut self, cus: &mut [Cu], backing: &mut Backing) -> usize {
        self.written.clear();
        let mut again = 0;
        // Workers' ranges are contiguous and in order, so their lists of CUs
        // that touched memory follow each other in CU order.
        for &i in self.logged.iter().flatten() {
            let i = i as usize;
            let log = &mut self.logs[i];
            if log.conflicts(&self.written) {
                cus[i].reexecute_staged(backing, Some(&mut self.events[i]));
                log.record_writes(&mut self.written);
                again += 1;
            } else {
                log.apply(backing, &mut self.written);
            }
        }
        again
    }
}

/// A worker's CUs for an edge and what it reports of them.
struct Outcome<'a> {
    cus: Vec<Share<'a>>,
    report: CuPhaseReport,
    /// Indices of its CUs whose edge touched device memory.
    logged: Vec<u32>,
}

/// One CU handed to a worker for an edge.
struct Share<'a> {
    index: u32,
    cu: &'a mut Cu,
    side: CuSide<'a>,
    log: &'a mut EdgeLog,
    events: &'a mut Vec<Event>,
    /// Busy after the edge (written only when it changes).
    busy: &'a mut bool,
}

/// Ticks a worker's CUs in index order on staged device memory, each
/// followed by its caches.
fn run_share(out: &mut Outcome<'_>, now: u64, events_on: bool, base: &Backing) {
    // Counted here and stored once: the workers' outcomes are neighbours in
    // memory, and a store per CU would bounce their cache line between cores.
    let mut report = CuPhaseReport::default();
    let mut logged = std::mem::take(&mut out.logged);
    logged.clear();
    for s in &mut out.cus {
        if !s.log.is_empty() {
            s.log.clear();
        }
        s.cu.clear_staged();
        let mut inject = None;
        let mut cx = TickCtx {
            now,
            backing: DeviceMem::Staged {
                base,
                log: &mut *s.log,
            },
            mem: &mut *s.side.ports,
            events: events_on.then_some(&mut *s.events),
            inject: &mut inject,
        };
        s.cu.tick(&mut cx);
        s.side.tick(now);
        let busy = report.add(s.cu);
        if !s.log.is_empty() {
            logged.push(s.index);
            report.wrote |= s.log.writes() > 0;
        }
        if *s.busy != busy {
            *s.busy = busy;
        }
    }
    out.report = report;
    out.logged = logged;
}
