//! Handles the application owns (contexts, queues, buffers, events): each
//! is a boxed [`Object`] whose address is the handle, registered while it
//! is live. A handle is looked up in its registry before it is followed, so
//! a stale, foreign or wrong-kind handle is an error code, never a crash.

use std::collections::BTreeSet;
use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard};

use crate::icd::Object;

/// An object counted by `clRetain*` / `clRelease*`.
pub trait Counted {
    /// The reference count (1 at creation).
    fn references(&self) -> &AtomicU32;
}

/// The live handles of one kind.
pub struct Registry<T> {
    live: Mutex<BTreeSet<usize>>,
    kind: std::marker::PhantomData<fn() -> T>,
}

impl<T: Counted + Send + Sync + 'static> Registry<T> {
    /// An empty registry.
    pub const fn new() -> Registry<T> {
        Registry {
            live: Mutex::new(BTreeSet::new()),
            kind: std::marker::PhantomData,
        }
    }

    fn lock(&self) -> MutexGuard<'_, BTreeSet<usize>> {
        // A panic elsewhere cannot leave the set half-updated: take it anyway.
        self.live.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A new live handle for `body`.
    pub fn insert(&self, body: T) -> *mut c_void {
        let handle = Box::into_raw(Box::new(Object::new(body)));
        self.lock().insert(handle as usize);
        handle.cast()
    }

    /// `f` of the object behind `handle`, if it is a live one of this kind
    /// (under the lock, so a release on another thread cannot free it
    /// meanwhile).
    pub fn with<R>(&self, handle: *const c_void, f: impl FnOnce(&T) -> R) -> Option<R> {
        let live = self.lock();
        if handle.is_null() || !live.contains(&(handle as usize)) {
            return None;
        }
        // SAFETY: a live handle points at an object made by `insert` and not
        // yet freed (a release removes it from the set, under this lock, first).
        Some(f(&unsafe { &*handle.cast::<Object<T>>() }.body))
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
    /// frees the object (dropped after the lock is released, so its drop may
    /// release other handles).
    pub fn release(&self, handle: *const c_void) -> bool {
        let freed = {
            let mut live = self.lock();
            if handle.is_null() || !live.contains(&(handle as usize)) {
                return false;
            }
            // SAFETY: live (checked under the lock).
            let o = unsafe { &*handle.cast::<Object<T>>() };
            if o.body.references().fetch_sub(1, Ordering::AcqRel) != 1 {
                return true;
            }
            live.remove(&(handle as usize));
            // SAFETY: made by `Box::into_raw` in `insert`, no longer reachable.
            unsafe { Box::from_raw(handle.cast_mut().cast::<Object<T>>()) }
        };
        drop(freed);
        true
    }
}
