//! The ordered section of a parallel clock edge: device memory as one CU's
//! edge sees it ([`BackingPort`]) and the turn that gives it to CU `i` only
//! once every CU before it has finished ([`Turn`]). A leaf: the CU reads
//! memory through it, the worker pool (`super`) hands it out.

use std::cell::OnceCell;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use crate::mem::backing::Backing;

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
    pub(super) fn reset(&mut self) {
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
    pub(super) fn finish(&self, cu: usize) {
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
