//! A gang of worker threads that run one job together, once per clock edge:
//! the caller publishes a job of one part per thread, every thread (the
//! caller included) claims its own part first and then any part left, and
//! the caller returns when all parts are done. Parts are independent, so who
//! runs which part does not change what they compute; it only decides how
//! fast — and a part that stays with its thread from edge to edge keeps its
//! data in that core's cache.
//!
//! Why not a general pool (rayon): an edge of a large GPU lasts tens of
//! microseconds, and a pool whose idle threads sleep on a futex spends about
//! as long waking them again (the kernel's scheduler on every edge). Here a
//! waiting thread (a worker waiting for the next job, the caller waiting for
//! parts being run) spins for a while before it parks, so back-to-back
//! edges hand over in well under a microsecond while a gang left idle (a
//! serial stretch of the run, the GPU waiting on the host) costs no CPU.
//! A gang larger than the cores the process may use parks at once (a
//! spinning thread would only take the core from the one it waits for), and
//! since the caller claims parts too, it never waits for a worker that has
//! not started: on a busy machine it runs the parts itself.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{JoinHandle, Thread};
use std::time::{Duration, Instant};

/// How long a waiting thread spins before it parks: longer than the serial
/// part of an edge of a large GPU (a few microseconds), so that a worker
/// stays awake through a run.
const SPIN_BEFORE_PARK: Duration = Duration::from_micros(30);

/// A job: called once per part with the part's index.
type Job<'a> = &'a (dyn Fn(usize) + Sync);

/// The state the caller and the workers share.
struct Shared {
    /// Bumped by the caller once a job is published.
    epoch: AtomicU64,
    /// Per part: claimed in the current job (reset before the epoch moves).
    claimed: Vec<AtomicBool>,
    /// The job of the current epoch, valid until `done` counts every part.
    job: Mutex<Option<Job<'static>>>,
    /// Parts of the current job finished.
    done: AtomicUsize,
    /// A part's panic, handed to the caller.
    panic: Mutex<Option<Box<dyn Any + Send>>>,
    /// Set when the gang is dropped.
    stop: AtomicBool,
    /// Per worker: parked (or about to park) and to be unparked.
    asleep: Vec<AtomicBool>,
    /// The thread that published the current job, and whether it parked
    /// waiting for parts to finish.
    caller: Mutex<Option<Thread>>,
    caller_asleep: AtomicBool,
    /// How long a waiting thread spins before it parks.
    spin: Duration,
}

impl Shared {
    /// Runs part `own`, then every other part still unclaimed. A claim made
    /// late — after the job it was meant for ended and the next was
    /// published — claims a part of the next job, which is then the job
    /// read: the slots are reset only once every part of the last job is
    /// done.
    fn run_parts(&self, own: usize) {
        let parts = self.claimed.len();
        for k in 0..parts {
            let part = (own + k) % parts;
            if self.claimed[part].swap(true, Ordering::SeqCst) {
                continue;
            }
            // Valid: this part is claimed and not done, so the caller has
            // not returned from `Gang::run`.
            let job = *lock(&self.job);
            if let Some(job) = job {
                if let Err(p) = catch_unwind(AssertUnwindSafe(|| job(part))) {
                    lock(&self.panic).get_or_insert(p);
                }
            }
            let done = self.done.fetch_add(1, Ordering::SeqCst) + 1;
            if done == parts && self.caller_asleep.load(Ordering::SeqCst) {
                if let Some(t) = lock(&self.caller).as_ref() {
                    t.unpark();
                }
            }
        }
    }
}

/// Worker threads that run jobs with the calling thread.
pub struct Gang {
    shared: Arc<Shared>,
    threads: Vec<(Thread, Option<JoinHandle<()>>)>,
}

impl Gang {
    /// A gang of `size` (≥ 1) threads: the caller and `size - 1` workers.
    pub fn new(size: usize) -> Result<Gang, String> {
        let helpers = size.saturating_sub(1);
        let shared = Arc::new(Shared {
            epoch: AtomicU64::new(0),
            claimed: (0..size.max(1)).map(|_| AtomicBool::new(true)).collect(),
            job: Mutex::new(None),
            done: AtomicUsize::new(0),
            panic: Mutex::new(None),
            stop: AtomicBool::new(false),
            asleep: (0..helpers).map(|_| AtomicBool::new(false)).collect(),
            caller: Mutex::new(None),
            caller_asleep: AtomicBool::new(false),
            spin: {
                let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
                if size <= cores {
                    SPIN_BEFORE_PARK
                } else {
                    Duration::ZERO
                }
            },
        });
        let mut gang = Gang {
            shared,
            threads: Vec::with_capacity(helpers),
        };
        for i in 0..helpers {
            let shared = Arc::clone(&gang.shared);
            let handle = std::thread::Builder::new()
                .name(format!("gpusim-cu-worker-{}", i + 1))
                .spawn(move || work(&shared, i))
                .map_err(|e| format!("cannot start {size} worker threads: {e}"))?;
            gang.threads.push((handle.thread().clone(), Some(handle)));
        }
        Ok(gang)
    }

    /// Threads, the calling one included.
    pub fn size(&self) -> usize {
        self.threads.len() + 1
    }

    /// Runs `job(p)` for every part `p` in `0..size()`, on this thread
    /// (part 0 first) and the workers (worker `w`, part `w` first), and
    /// returns when all have finished; a part's panic is resumed here.
    pub fn run(&mut self, job: &(dyn Fn(usize) + Sync)) {
        let s = &*self.shared;
        let parts = s.claimed.len();
        // SAFETY: the job's lifetime is erased only while it is published:
        // a part is run only once claimed, and this function does not
        // return (nor unwind: parts run under `catch_unwind`) before every
        // part is done; the slot is cleared before returning, and every
        // part stays claimed until the next job is published.
        let erased: Job<'static> = unsafe { std::mem::transmute::<Job<'_>, Job<'static>>(job) };
        *lock(&s.job) = Some(erased);
        *lock(&s.caller) = Some(std::thread::current());
        s.done.store(0, Ordering::SeqCst);
        for c in &s.claimed {
            c.store(false, Ordering::SeqCst);
        }
        s.epoch.fetch_add(1, Ordering::SeqCst);
        for ((thread, _), asleep) in self.threads.iter().zip(&s.asleep) {
            if asleep.load(Ordering::SeqCst) {
                thread.unpark();
            }
        }
        s.run_parts(0);
        let mut wait = Backoff::new(s.spin);
        while s.done.load(Ordering::SeqCst) != parts {
            if wait.exhausted() {
                // As a worker parks (below): the thread finishing the last
                // part sees the flag, or this thread sees every part done.
                s.caller_asleep.store(true, Ordering::SeqCst);
                if s.done.load(Ordering::SeqCst) != parts {
                    std::thread::park();
                }
                s.caller_asleep.store(false, Ordering::SeqCst);
            }
        }
        *lock(&s.job) = None;
        if let Some(p) = lock(&s.panic).take() {
            std::panic::resume_unwind(p);
        }
    }
}

impl Drop for Gang {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        self.shared.epoch.fetch_add(1, Ordering::SeqCst);
        for (thread, handle) in &mut self.threads {
            thread.unpark();
            if let Some(h) = handle.take() {
                let _ = h.join();
            }
        }
    }
}

/// A worker thread's loop: wait for a new epoch, run what parts it can
/// claim.
fn work(s: &Shared, helper: usize) {
    let mut seen = 0u64;
    loop {
        let mut wait = Backoff::new(s.spin);
        loop {
            let e = s.epoch.load(Ordering::SeqCst);
            if e != seen {
                seen = e;
                break;
            }
            if wait.exhausted() {
                // Parked until the caller sees the flag; checking the epoch
                // after raising it closes the race with a job published
                // just before.
                s.asleep[helper].store(true, Ordering::SeqCst);
                if s.epoch.load(Ordering::SeqCst) == seen && !s.stop.load(Ordering::SeqCst) {
                    std::thread::park();
                }
                s.asleep[helper].store(false, Ordering::SeqCst);
            }
        }
        if s.stop.load(Ordering::SeqCst) {
            return;
        }
        s.run_parts(helper + 1);
    }
}

/// A mutex guard also after another thread panicked holding it (the gang
/// reports that panic itself).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Spin for a while, then give up (the caller parks).
struct Backoff {
    limit: Duration,
    start: Option<Instant>,
    spins: u32,
}

impl Backoff {
    fn new(limit: Duration) -> Backoff {
        Backoff {
            limit,
            start: None,
            spins: 0,
        }
    }

    /// One more spin; true once the wait has lasted `limit` (the clock is
    /// read every 64 spins: a read costs more than a spin).
    fn exhausted(&mut self) -> bool {
        if self.limit.is_zero() {
            return true;
        }
        self.spins = self.spins.wrapping_add(1);
        std::hint::spin_loop();
        if self.spins % 64 != 0 {
            return false;
        }
        let start = *self.start.get_or_insert_with(Instant::now);
        start.elapsed() > self.limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_part_runs_once_per_job() {
        let mut gang = Gang::new(3).unwrap();
        for round in 0..1000u64 {
            let hits: Vec<AtomicU64> = (0..3).map(|_| AtomicU64::new(0)).collect();
            gang.run(&|p| {
                hits[p].fetch_add(round + 1, Ordering::Relaxed);
            });
            for h in &hits {
                assert_eq!(h.load(Ordering::Relaxed), round + 1);
            }
        }
    }

    #[test]
    fn a_parked_gang_wakes_for_the_next_job() {
        let mut gang = Gang::new(2).unwrap();
        std::thread::sleep(SPIN_BEFORE_PARK * 100);
        let hits = AtomicU64::new(0);
        gang.run(&|_| {
            hits.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(hits.load(Ordering::Relaxed), 2);
    }

    #[test]
    fn a_parts_panic_reaches_the_caller_and_the_gang_goes_on() {
        let mut gang = Gang::new(2).unwrap();
        let r = catch_unwind(AssertUnwindSafe(|| {
            gang.run(&|p| {
                if p == 1 {
                    panic!("part 1 fails");
                }
            })
        }));
        assert!(r.is_err());
        let hits = AtomicU64::new(0);
        gang.run(&|_| {
            hits.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(hits.load(Ordering::Relaxed), 2);
    }

    #[test]
    fn a_gang_larger_than_the_machine_finishes_every_job() {
        let mut gang = Gang::new(16).unwrap();
        let hits = AtomicU64::new(0);
        for _ in 0..200 {
            gang.run(&|_| {
                hits.fetch_add(1, Ordering::Relaxed);
            });
        }
        assert_eq!(hits.load(Ordering::Relaxed), 200 * 16);
    }
}
