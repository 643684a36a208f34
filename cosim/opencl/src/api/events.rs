//! Commands that only order others, and event callbacks:
//! `clEnqueueMarkerWithWaitList`, `clEnqueueBarrierWithWaitList`, their
//! OpenCL 1.1 forms (`clEnqueueMarker`, `clEnqueueBarrier`,
//! `clEnqueueWaitForEvents`), `clEnqueueTask`, `clEnqueueMigrateMemObjects`.
//!
//! A queue here is in order and a command that need not wait for a user
//! event has completed when its enqueue returns, so such a marker or
//! barrier has nothing to wait for: it checks its arguments and returns a
//! complete event; one that must wait is deferred ([`super::deferred`]).

#![allow(non_snake_case)]

use std::ffi::c_void;

use super::deferrable::{deferring, inner};
use super::deferred::{check_wait_list, defer};
use super::event::{new_event, EVENTS};
use super::queue::QUEUES;
use crate::cl::*;

/// A marker or barrier of `command` on `queue` after the wait list.
///
/// # Safety
/// `list` must be valid for `n` handles, `event` null or valid for one.
unsafe fn order(
    queue: *mut c_void,
    n: cl_uint,
    list: *const *mut c_void,
    event: *mut *mut c_void,
    command: cl_uint,
) -> cl_int {
    // SAFETY: by the contract.
    if let Some(r) = unsafe { order_deferred(queue, n, list, event, command) } {
        return r;
    }
    let Some(context) = QUEUES.with(queue, |q| q.context()) else {
        return CL_INVALID_COMMAND_QUEUE;
    };
    // SAFETY: by the contract.
    if let Err(e) = unsafe { check_wait_list(n, list, context) } {
        return e;
    }
    if !event.is_null() {
        // SAFETY: by the contract.
        unsafe { *event = new_event(queue, context, command) };
    }
    CL_SUCCESS
}

/// `clEnqueueMarkerWithWaitList`.
pub(super) unsafe extern "C" fn clEnqueueMarkerWithWaitList(
    queue: *mut c_void,
    n: cl_uint,
    list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    // SAFETY: the same contract.
    super::guard::status("clEnqueueMarkerWithWaitList", || unsafe {
        order(queue, n, list, event, CL_COMMAND_MARKER)
    })
}

/// `clEnqueueBarrierWithWaitList`.
pub(super) unsafe extern "C" fn clEnqueueBarrierWithWaitList(
    queue: *mut c_void,
    n: cl_uint,
    list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    // SAFETY: the same contract.
    super::guard::status("clEnqueueBarrierWithWaitList", || unsafe {
        order(queue, n, list, event, CL_COMMAND_BARRIER)
    })
}

/// `clEnqueueMarker` (OpenCL 1.1): the event is required.
pub(super) unsafe extern "C" fn clEnqueueMarker(
    queue: *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    super::guard::status("clEnqueueMarker", || {
        if !QUEUES.contains(queue) {
            return CL_INVALID_COMMAND_QUEUE;
        }
        if event.is_null() {
            return CL_INVALID_VALUE;
        }
        // SAFETY: no wait list; the event slot is valid.
        unsafe { order(queue, 0, std::ptr::null(), event, CL_COMMAND_MARKER) }
    })
}

/// `clEnqueueBarrier` (OpenCL 1.1).
pub(super) unsafe extern "C" fn clEnqueueBarrier(queue: *mut c_void) -> cl_int {
    super::guard::status("clEnqueueBarrier", || {
        // SAFETY: no wait list, no event.
        unsafe {
            order(
                queue,
                0,
                std::ptr::null(),
                std::ptr::null_mut(),
                CL_COMMAND_BARRIER,
            )
        }
    })
}

/// `clEnqueueWaitForEvents` (OpenCL 1.1): the list must not be empty.
pub(super) unsafe extern "C" fn clEnqueueWaitForEvents(
    queue: *mut c_void,
    n: cl_uint,
    list: *const *mut c_void,
) -> cl_int {
    super::guard::status("clEnqueueWaitForEvents", || {
        let Some(context) = QUEUES.with(queue, |q| q.context()) else {
            return CL_INVALID_COMMAND_QUEUE;
        };
        if n == 0 || list.is_null() {
            return CL_INVALID_VALUE;
        }
        for i in 0..n as usize {
            // SAFETY: `n` handles, by the contract.
            let e = unsafe { *list.add(i) };
            match EVENTS.with(e, |ev| ev.context()) {
                None => return CL_INVALID_EVENT,
                Some(c) if c != context => return CL_INVALID_CONTEXT,
                Some(_) => {}
            }
        }
        // Later commands wait for the events: a marker behind them, deferred
        // while one is incomplete.
        // SAFETY: `n` handles (checked above), no event out.
        unsafe { order_deferred(queue, n, list, std::ptr::null_mut(), CL_COMMAND_MARKER) }
            .unwrap_or(CL_SUCCESS)
    })
}

/// `clEnqueueTask`: the kernel as one work-item in one work-group.
pub(super) unsafe extern "C" fn clEnqueueTask(
    queue: *mut c_void,
    kernel: *mut c_void,
    n: cl_uint,
    list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    super::guard::status("clEnqueueTask", || {
        let one = 1usize;
        // SAFETY: the same contract, with one-entry sizes.
        let r = unsafe {
            super::deferrable::clEnqueueNDRangeKernel(
                queue,
                kernel,
                1,
                std::ptr::null(),
                &one,
                &one,
                n,
                list,
                event,
            )
        };
        if r == CL_SUCCESS && !event.is_null() {
            // SAFETY: just written by the launch.
            let e = unsafe { *event };
            EVENTS.with(e, |ev| ev.set_command(CL_COMMAND_TASK));
        }
        r
    })
}

/// `clEnqueueMigrateMemObjects`: the simulated GPU's memory is the only
/// memory a buffer has (a host-pointer buffer's mirror is refreshed around
/// every command anyway), so there is nothing to move; the arguments are
/// checked and the event is complete.
pub(super) unsafe extern "C" fn clEnqueueMigrateMemObjects(
    queue: *mut c_void,
    num: cl_uint,
    objects: *const *mut c_void,
    flags: cl_bitfield,
    n: cl_uint,
    list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    super::guard::status("clEnqueueMigrateMemObjects", || {
        let Some(context) = QUEUES.with(queue, |q| q.context()) else {
            return CL_INVALID_COMMAND_QUEUE;
        };
        let known = CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
        if num == 0 || objects.is_null() || flags & !known != 0 {
            return CL_INVALID_VALUE;
        }
        for i in 0..num as usize {
            // SAFETY: `num` handles, by the contract.
            let m = unsafe { *objects.add(i) };
            match super::memory::BUFFERS.with(m, |b| b.context) {
                None => return CL_INVALID_MEM_OBJECT,
                Some(c) if c != context => return CL_INVALID_CONTEXT,
                Some(_) => {}
            }
        }
        // SAFETY: by the contract.
        unsafe { order(queue, n, list, event, CL_COMMAND_MIGRATE_MEM_OBJECTS) }
    })
}

/// `clUnloadPlatformCompiler`: the compiler is part of this library and
/// holds nothing to release; a hint, as the specification allows.
pub(super) unsafe extern "C" fn clUnloadPlatformCompiler(platform: *mut c_void) -> cl_int {
    super::guard::status("clUnloadPlatformCompiler", || {
        if platform.cast_const() != super::platform::platform_handle() {
            return CL_INVALID_PLATFORM;
        }
        CL_SUCCESS
    })
}

/// `clUnloadCompiler` (OpenCL 1.1): as [`clUnloadPlatformCompiler`].
pub(super) unsafe extern "C" fn clUnloadCompiler() -> cl_int {
    CL_SUCCESS
}

/// A marker or barrier that has to wait: deferred, with nothing to do.
///
/// # Safety
/// `list` must be null or valid for `n` handles, `event` null or valid for one.
unsafe fn order_deferred(
    queue: *mut c_void,
    n: cl_uint,
    list: *const *mut c_void,
    event: *mut *mut c_void,
    command: cl_uint,
) -> Option<cl_int> {
    // SAFETY: by the contract.
    let context = match unsafe { deferring(queue, n, list) } {
        Ok(None) => return None,
        Err(e) => return Some(e),
        Ok(Some(c)) => c,
    };
    let q = queue as usize;
    let run = Box::new(move || {
        inner(|ev| {
            // SAFETY: a live (retained) queue, no wait list.
            unsafe { clEnqueueMarkerWithWaitList(q as *mut c_void, 0, std::ptr::null(), ev) }
        })
    });
    // SAFETY: by the contract.
    unsafe { defer(queue, context, n, list, event, command, run) };
    Some(CL_SUCCESS)
}
