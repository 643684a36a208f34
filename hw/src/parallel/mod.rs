//! Compute units on worker threads, with results identical for any thread
//! count (docs/cycle-model.md, "Worker threads").
//!
//! One clock edge of the compute units is evaluated by `threads` workers; CU
//! `i` goes to worker `i % threads` (interleaved, so that the ordered section
//! below becomes a pipeline instead of a chain), each worker ticks its CUs in
//! increasing index order. Everything a CU's edge reads or writes is its own —
//! its registers, its three caches ([`CuPorts`]), its event buffer — except
//! **device memory** (the [`Backing`]), which memory instructions read and
//! write at issue and the decode cache reads on a miss. The serial model
//! accesses it in CU order within a cycle (cu0's accesses, then cu1's, …), and
//! racy programs and atomics observe that order. To keep it by construction,
//! device memory is an *ordered section*: CU `i` may touch it only once every
//! CU `j < i` has finished its edge ([`Turn`]); the first access waits for
//! that ([`BackingPort`] takes the lock lazily), so a CU whose edge does not
//! touch memory (most edges) never waits, and a CU that does runs its edge up
//! to its first access in parallel with the others.
//!
//! Lockstep events go to a buffer per CU and are appended in CU order after
//! the edge, so the event stream is the serial one. With a fault injection
//! armed (tests of the lockstep checker) the edge runs serially.

pub mod ordered;

use std::cell::OnceCell;
use std::sync::Mutex;

use ordered::{BackingPort, Turn};

use crate::cu::{Cu, TickCtx};
use crate::event::Event;
use crate::mem::backing::Backing;
use crate::mem::CuPorts;

/// The worker pool and the per-edge scratch of the parallel evaluation.
pub struct CuWorkers {
    pool: rayon::ThreadPool,
    threads: usize,
    turn: Turn,
    /// Events of each CU's edge (kept to reuse their allocations).
    events: Vec<Vec<Event>>,
}

impl CuWorkers {
    /// `threads` workers (≥ 2; the calling thread is one of them) for `cus`
    /// compute units, or the reason the threads could not be started.
    pub fn new(threads: usize, cus: usize) -> Result<CuWorkers, String> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads - 1)
            .thread_name(|i| format!("gpusim-cu-worker-{i}"))
            .build()
            .map_err(|e| format!("cannot start {threads} worker threads: {e}"))?;
        Ok(CuWorkers {
            pool,
            threads,
            turn: Turn::new(cus),
            events: vec![Vec::new(); cus],
        })
    }

    /// Worker threads, the calling one included.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// One clock edge of every CU, evaluated by the workers; lockstep
    /// events (when `events` is given) are appended in CU order.
    pub fn tick(
        &mut self,
        now: u64,
        cus: &mut [Cu],
        ports: &mut [CuPorts],
        backing: &mut Backing,
        events: Option<&mut Vec<Event>>,
    ) {
        self.turn.reset();
        let events_on = events.is_some();
        let shared = Mutex::new(std::mem::take(backing));
        let threads = self.threads;
        let mut shares: Vec<Vec<Share<'_>>> = (0..threads).map(|_| Vec::new()).collect();
        for (i, ((cu, port), ev)) in cus
            .iter_mut()
            .zip(ports.iter_mut())
            .zip(self.events.iter_mut())
            .enumerate()
        {
            shares[i % threads].push(Share {
                index: i,
                cu,
                port,
                events: ev,
            });
        }
        let (turn, shared_ref) = (&self.turn, &shared);
        let mut shares = shares.into_iter();
        let own = shares.next().unwrap_or_default();
        self.pool.in_place_scope(|s| {
            for share in shares {
                s.spawn(move |_| run_share(share, threads, now, events_on, shared_ref, turn));
            }
            run_share(own, threads, now, events_on, shared_ref, turn);
        });
        *backing = shared.into_inner().unwrap_or_else(|e| e.into_inner());
        if let Some(out) = events {
            for ev in &mut self.events {
                out.append(ev);
            }
        }
    }
}

/// One CU handed to a worker for an edge.
struct Share<'a> {
    index: usize,
    cu: &'a mut Cu,
    port: &'a mut CuPorts,
    events: &'a mut Vec<Event>,
}

/// Ticks a worker's CUs in index order, each behind the ordered section.
fn run_share(
    share: Vec<Share<'_>>,
    threads: usize,
    now: u64,
    events_on: bool,
    shared: &Mutex<Backing>,
    turn: &Turn,
) {
    // Marks this worker's CUs finished also if an edge panics, so the
    // workers waiting for their turn go on and the panic reaches the caller
    // instead of a hang.
    // A worker's CUs are `first, first + threads, …` (see `CuWorkers::tick`).
    let first = share.first().map_or(0, |s| s.index);
    let mut finish = Finish {
        turn,
        left: (first..).step_by(threads).take(share.len()),
    };
    for s in share {
        {
            let mut inject = None;
            let mut cx = TickCtx {
                now,
                backing: BackingPort::Ordered {
                    shared,
                    turn,
                    cu: s.index,
                    guard: OnceCell::new(),
                },
                mem: s.port,
                events: events_on.then_some(s.events),
                inject: &mut inject,
            };
            s.cu.tick(&mut cx);
        }
        // The lock (if taken) was released with `cx` above, before the
        // next CU may take it.
        finish.left.next();
        turn.finish(s.index);
    }
}

/// The CUs of a worker not finished yet (the rest of its share's indices,
/// advanced as each CU finishes); marked finished when dropped.
struct Finish<'a, I: Iterator<Item = usize>> {
    turn: &'a Turn,
    left: I,
}

impl<I: Iterator<Item = usize>> Drop for Finish<'_, I> {
    fn drop(&mut self) {
        for i in self.left.by_ref() {
            self.turn.finish(i);
        }
    }
}
