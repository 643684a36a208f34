//! Events: the object every command returns (complete when the command ran
//! at its enqueue, or pending behind a user event: [`super::deferred`]),
//! `clRetainEvent`, `clReleaseEvent`, `clGetEventInfo`,
//! `clGetEventProfilingInfo`, and the check of a wait list.

#![allow(non_snake_case)]

use std::ffi::c_void;
use std::sync::atomic::{AtomicI32, AtomicU32, Ordering};
use std::sync::Mutex;

use super::handles::{Counted, Registry};
use super::info::{answer, Info};
use super::queue::QUEUES;
use crate::cl::*;

/// An event: a command (complete, or deferred behind a user event: see
/// [`super::deferred`]) or a user event.
pub struct Event {
    references: AtomicU32,
    queue: usize,
    context: usize,
    command: AtomicU32,
    /// QUEUED, SUBMIT, START and END in nanoseconds of simulated time, on a
    /// profiling queue (a deferred command's are set when it runs).
    profile: Mutex<Option<[u64; 4]>>,
    /// Whether its queue profiles (a user event: no).
    profiling: bool,
    /// `CL_COMMAND_EXECUTION_STATUS`: `CL_COMPLETE` for a command that ran,
    /// `CL_QUEUED` for a deferred one, a user event's status, or a negative
    /// error.
    pub(super) status: AtomicI32,
    /// Callbacks not yet called: (the status they wait for, the function,
    /// its user data).
    pub(super) callbacks: Mutex<Vec<(cl_int, Callback, usize)>>,
}

/// The callback type of `clSetEventCallback`.
pub type Callback = unsafe extern "C" fn(*mut c_void, cl_int, *mut c_void);

impl Event {
    /// Its context's handle.
    pub fn context(&self) -> usize {
        self.context
    }

    /// Its queue's handle (0 for a user event).
    pub fn queue(&self) -> usize {
        self.queue
    }

    /// Its command type.
    pub fn command(&self) -> cl_uint {
        self.command.load(Ordering::Acquire)
    }

    /// Its execution status.
    pub fn status(&self) -> cl_int {
        self.status.load(Ordering::Acquire)
    }

    /// Its profiling times.
    pub fn profile(&self) -> Option<[u64; 4]> {
        *self.profile.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Sets its profiling times (a deferred command's, when it ran).
    pub fn set_profile(&self, times: Option<[u64; 4]>) {
        if self.profiling {
            *self.profile.lock().unwrap_or_else(|p| p.into_inner()) = times;
        }
    }

    /// Sets the command type (`clEnqueueTask` reuses the NDRange path).
    pub fn set_command(&self, command: cl_uint) {
        self.command.store(command, Ordering::Release);
    }
}

impl Counted for Event {
    fn references(&self) -> &AtomicU32 {
        &self.references
    }
}

/// A complete event of `command` on `queue`, timed (on a profiling queue)
/// by the last command this thread ran on the device
/// ([`crate::core::worker::take_last_command`]), or at the device's time now
/// for a command that ran nothing there (a marker, a map of a host-pointer
/// buffer).
pub(super) fn new_event(queue: *mut c_void, context: usize, command: cl_uint) -> *mut c_void {
    let ran = crate::core::worker::take_last_command();
    let profile = QUEUES
        .with(queue, |q| {
            q.profiling().then(|| {
                let device = q.device();
                let clock = device.clock();
                let (start, end) = ran.unwrap_or_else(|| (clock.now(), clock.now()));
                // Commands run when enqueued: queued, submitted and started
                // at once, in simulated time.
                let (start, end) = (clock.ns(start), clock.ns(end));
                [start, start, start, end]
            })
        })
        .flatten();
    EVENTS.insert(Event {
        references: AtomicU32::new(1),
        queue: queue as usize,
        context,
        command: AtomicU32::new(command),
        profiling: profile.is_some(),
        profile: Mutex::new(profile),
        status: AtomicI32::new(CL_COMPLETE),
        callbacks: Mutex::new(Vec::new()),
    })
}

/// An event of `command` on `queue` with `status` and no times yet: a
/// deferred command (`CL_QUEUED`), or on no queue (0) a user event
/// (`CL_SUBMITTED`).
pub(super) fn pending_event(
    queue: usize,
    context: usize,
    command: cl_uint,
    status: cl_int,
) -> *mut c_void {
    let profiling = QUEUES
        .with(queue as *const c_void, |q| q.profiling())
        .unwrap_or(false);
    EVENTS.insert(Event {
        references: AtomicU32::new(1),
        queue,
        context,
        command: AtomicU32::new(command),
        profiling,
        profile: Mutex::new(None),
        status: AtomicI32::new(status),
        callbacks: Mutex::new(Vec::new()),
    })
}

/// `clGetEventProfilingInfo`: the times of a command of a profiling queue,
/// in nanoseconds of simulated time (see [`crate::core::worker::SimClock`]).
pub(super) unsafe extern "C" fn clGetEventProfilingInfo(
    event: *mut c_void,
    param_name: cl_profiling_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    super::guard::status("clGetEventProfilingInfo", || {
        let Some((profile, status)) = EVENTS.with(event, |e| (e.profile(), e.status())) else {
            return CL_INVALID_EVENT;
        };
        let index = match param_name {
            CL_PROFILING_COMMAND_QUEUED => 0,
            CL_PROFILING_COMMAND_SUBMIT => 1,
            CL_PROFILING_COMMAND_START => 2,
            // COMPLETE (OpenCL 2.0): no child commands, so END.
            CL_PROFILING_COMMAND_END | CL_PROFILING_COMMAND_COMPLETE => 3,
            _ => return CL_INVALID_VALUE,
        };
        // A user event, an event of a queue without profiling, or a
        // command that has not completed.
        let Some(times) = profile.filter(|_| status == CL_COMPLETE) else {
            return CL_PROFILING_INFO_NOT_AVAILABLE;
        };
        // SAFETY: the caller's buffers, by the contract.
        unsafe {
            answer(
                Some(Info::Ulong(times[index])),
                param_value_size,
                param_value,
                param_value_size_ret,
            )
        }
    })
}

/// The live events.
pub static EVENTS: Registry<Event> = Registry::new();
/// Checks a wait list: every event must be live and of the queue's context.
///
/// # Safety
/// `list` must be null or valid for `n` handles.
pub(super) unsafe fn validate_wait_list(
    n: cl_uint,
    list: *const *mut c_void,
    context: usize,
) -> Result<(), cl_int> {
    if (n == 0) != list.is_null() {
        return Err(CL_INVALID_EVENT_WAIT_LIST);
    }
    for i in 0..n as usize {
        // SAFETY: `n` handles, by the contract.
        let e = unsafe { *list.add(i) };
        match EVENTS.with(e, |ev| ev.context) {
            Some(c) if c == context => {}
            Some(_) => return Err(CL_INVALID_CONTEXT),
            None => return Err(CL_INVALID_EVENT_WAIT_LIST),
        }
    }
    Ok(())
}

/// `clRetainEvent`.
pub(super) unsafe extern "C" fn clRetainEvent(handle: *mut c_void) -> cl_int {
    super::guard::status("clRetainEvent", || {
        if EVENTS.retain(handle) {
            CL_SUCCESS
        } else {
            CL_INVALID_EVENT
        }
    })
}

/// `clReleaseEvent`.
pub(super) unsafe extern "C" fn clReleaseEvent(handle: *mut c_void) -> cl_int {
    super::guard::status("clReleaseEvent", || {
        if EVENTS.release(handle) {
            CL_SUCCESS
        } else {
            CL_INVALID_EVENT
        }
    })
}

/// `clGetEventInfo`.
pub(super) unsafe extern "C" fn clGetEventInfo(
    handle: *mut c_void,
    param_name: cl_event_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    super::guard::status("clGetEventInfo", || {
        let value = EVENTS.with(handle, |e| match param_name {
            CL_EVENT_COMMAND_QUEUE => Some(Info::Pointers(vec![e.queue])),
            CL_EVENT_CONTEXT => Some(Info::Pointers(vec![e.context])),
            CL_EVENT_COMMAND_TYPE => Some(Info::Uint(e.command.load(Ordering::Acquire))),
            CL_EVENT_REFERENCE_COUNT => Some(Info::Uint(e.references.load(Ordering::Acquire))),
            CL_EVENT_COMMAND_EXECUTION_STATUS => Some(Info::Uint(e.status() as cl_uint)),
            _ => None,
        });
        let Some(value) = value else {
            return CL_INVALID_EVENT;
        };
        // SAFETY: the caller's buffers, by the contract.
        unsafe { answer(value, param_value_size, param_value, param_value_size_ret) }
    })
}
