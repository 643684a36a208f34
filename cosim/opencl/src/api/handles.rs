//! Handles the application owns (contexts, queues, buffers, events): each
//! is a boxed [`Object`] whose address is the handle, registered while it
//! is live. A handle is looked up in its registry before it is followed, so
//! a stale, foreign or wrong-kind handle is an error code, never a crash.
//!
//! A released object's body is dropped at once, but its shell (the memory
//! the handle points at) is kept in a quarantine for the next
//! [`QUARANTINE`] releases of its kind before it goes back to the allocator.
//! Without it the allocator hands the same address to a new object of the
//! same kind, and a stale handle silently becomes that object; which
//! address comes back depends on frees made on the device thread, so the
//! same calls could answer differently from run to run.

use std::collections::{BTreeSet, VecDeque};
use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard};

use crate::icd::Object;

/// An object counted by `clRetain*` / `clRelease*`.
pub trait Counted {
    /// The reference count (1 at creation).
    fn references(&self) -> &AtomicU32;
}

/// How many released shells of one kind are kept before the oldest is
/// freed (a few hundred KiB per kind at most).
pub const QUARANTINE: usize = 4096;

/// The live handles of one kind, and the shells of the last released ones.
pub struct Registry<T> {
    state: Mutex<Handles>,
    kind: std::marker::PhantomData<fn() -> T>,
}

struct Handles {
    live: BTreeSet<usize>,
    quarantine: VecDeque<usize>,
}

/// A registry's object: the body is `None` once released (its shell in
/// quarantine).
type Shell<T> = Object<Option<T>>;

impl<T: Counted + Send + Sync + 'static> Registry<T> {
    /// An empty registry.
    pub const fn new() -> Registry<T> {
        Registry {
            state: Mutex::new(Handles {
                live: BTreeSet::new(),
                quarantine: VecDeque::new(),
            }),
            kind: std::marker::PhantomData,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Handles> {
        // A panic elsewhere cannot leave the sets half-updated: take them anyway.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A new live handle for `body`.
    pub fn insert(&self, body: T) -> *mut c_void {
        let handle = Box::into_raw(Box::new(Object::new(Some(body))));
        self.lock().live.insert(handle as usize);
        handle.cast()
    }

    /// `f` of the object behind `handle`, if it is a live one of this kind
    /// (under the lock, so a release on another thread cannot free it
    /// meanwhile).
    pub fn with<R>(&self, handle: *const c_void, f: impl FnOnce(&T) -> R) -> Option<R> {
        let state = self.lock();
        if handle.is_null() || !state.live.contains(&(handle as usize)) {
            return None;
        }
        // SAFETY: a live handle points at an object made by `insert` and not
        // yet released (a release removes it from the set, under this lock,
        // first); a live object's body is `Some`.
        unsafe { &*handle.cast::<Shell<T>>() }.body.as_ref().map(f)
    }

    /// Whether `handle` is a live one of this kind.
    pub fn contains(&self, handle: *const c_void) -> bool {
        self.with(handle, |_| ()).is_some()
    }

    /// `clRetain*`: false for a handle that is not live.
    pub fn retain(&self, handle: *const c_void) -> bool {
        self.with(handle, |o| o.references().fetch_add(1, Ordering::AcqRel))
            .is_some()
    }

    /// `clRelease*`: false for a handle that is not live; the last release
    /// drops the body (after the lock is released, so its drop may release
    /// other handles) and quarantines the shell.
    pub fn release(&self, handle: *const c_void) -> bool {
        let (body, expired) = {
            let mut state = self.lock();
            if handle.is_null() || !state.live.contains(&(handle as usize)) {
                return false;
            }
            // SAFETY: live (checked under the lock), so made by `insert`; no
            // other reference exists while the lock is held (`with` takes it).
            let o = unsafe { &mut *handle.cast_mut().cast::<Shell<T>>() };
            if o.body
                .as_ref()
                .is_some_and(|b| b.references().fetch_sub(1, Ordering::AcqRel) != 1)
            {
                return true;
            }
            state.live.remove(&(handle as usize));
            let body = o.body.take();
            state.quarantine.push_back(handle as usize);
            let expired = if state.quarantine.len() > QUARANTINE {
                state.quarantine.pop_front()
            } else {
                None
            };
            (body, expired)
        };
        if let Some(old) = expired {
            // SAFETY: made by `Box::into_raw` in `insert`, released (not
            // live) and out of the quarantine: nothing refers to it.
            drop(unsafe { Box::from_raw(old as *mut Shell<T>) });
        }
        drop(body);
        true
    }
}
