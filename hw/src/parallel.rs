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

use std::cell::OnceCell;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use crate::cu::{Cu, TickCtx};
use crate::event::Event;
use crate::mem::backing::Backing;
use crate::mem::CuPorts;

/// Spins before a waiting worker starts yielding its core (the machine may
/// run more threads than it has cores).
const SPINS_BEFORE_YIELD: u32 = 64;

/// Device memory as one CU's clock edge sees it: the GPU's own backing store
/// (serial evaluation), or the shared store behind the ordered section.
pub enum BackingPort<'a> {
    /// Serial evaluation: the store itself.
    Direct(&'a mut Backing),
    /// Worker threads: the store, locked once CU `cu`'s turn has come.
    Ordered {
        /// The shared store.
        shared: &'a Mutex<Backing>,
        /// Which CUs have finished their edge.
        turn: &'a Turn,
        /// This CU.
        cu: usize,
        /// The lock, taken at the first access.
        guard: OnceCell<MutexGuard<'a, Backing>>,
    },
}

impl BackingPort<'_> {
    fn acquire<'a>(shared: &'a Mutex<Backing>, turn: &Turn, cu: usize) -> MutexGuard<'a, Backing> {
        turn.wait_for(cu);
        // Only the CU whose turn it is takes the lock, so it is never contended;
        // a poisoned lock means another worker panicked, which the caller reports.
        shared.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Deref for BackingPort<'_> {
    type Target = Backing;

    fn deref(&self) -> &Backing {
        match self {
            BackingPort::Direct(b) => b,
            BackingPort::Ordered {
                shared,
                turn,
                cu,
                guard,
            } => guard.get_or_init(|| Self::acquire(shared, turn, *cu)),
        }
    }
}

impl DerefMut for BackingPort<'_> {
    fn deref_mut(&mut self) -> &mut Backing {
        match self {
            BackingPort::Direct(b) => b,
            BackingPort::Ordered {
                shared,
                turn,
                cu,
                guard,
            } => {
                if guard.get().is_none() {
                    let _ = guard.set(Self::acquire(shared, turn, *cu));
                }
                match guard.get_mut() {
                    Some(g) => g,
                    None => unreachable!("the guard was set just above"),
                }
            }
        }
    }
}

/// Which CUs have finished this edge: `prefix` counts the CUs `0..prefix`
/// that all have.
pub struct Turn {
    done: Vec<AtomicBool>,
    prefix: AtomicUsize,
}

impl Turn {
    /// For `cus` compute units, none finished.
    pub fn new(cus: usize) -> Turn {
        Turn {
            done: (0..cus).map(|_| AtomicBool::new(false)).collect(),
            prefix: AtomicUsize::new(0),
        }
    }

    /// Starts a new edge.
    fn reset(&mut self) {
        for d in &mut self.done {
            *d.get_mut() = false;
        }
        *self.prefix.get_mut() = 0;
    }

    /// Blocks until every CU before `cu` has finished.
    fn wait_for(&self, cu: usize) {
        let mut spins = 0u32;
        while self.prefix.load(Ordering::Acquire) < cu {
            if spins < SPINS_BEFORE_YIELD {
                spins += 1;
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }

    /// Marks `cu` finished and moves the prefix over every finished CU.
    fn finish(&self, cu: usize) {
        self.done[cu].store(true, Ordering::SeqCst);
        loop {
            let p = self.prefix.load(Ordering::SeqCst);
            if p >= self.done.len() || !self.done[p].load(Ordering::SeqCst) {
                return;
            }
            // Whoever moves it first wins; the loser re-reads.
            let _ = self
                .prefix
                .compare_exchange(p, p + 1, Ordering::SeqCst, Ordering::SeqCst);
        }
    }
}

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
                s.spawn(move |_| run_share(share, now, events_on, shared_ref, turn));
            }
            run_share(own, now, events_on, shared_ref, turn);
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
    now: u64,
    events_on: bool,
    shared: &Mutex<Backing>,
    turn: &Turn,
) {
    // Marks this worker's CUs finished also if an edge panics, so the
    // workers waiting for their turn go on and the panic reaches the caller
    // instead of a hang.
    let mut finish = Finish {
        turn,
        left: share.iter().map(|s| s.index).collect(),
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
        finish.left.pop_front();
        turn.finish(s.index);
    }
}

/// The CUs of a worker not finished yet; marked finished when dropped.
struct Finish<'a> {
    turn: &'a Turn,
    left: std::collections::VecDeque<usize>,
}

impl Drop for Finish<'_> {
    fn drop(&mut self) {
        for &i in &self.left {
            self.turn.finish(i);
        }
    }
}
