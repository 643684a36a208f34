//! User events and the commands deferred behind them: `clCreateUserEvent`,
//! `clSetUserEventStatus`, the waits (`clWaitForEvents`, `clFinish`) and
//! event callbacks at their transitions.
//!
//! A command runs before its enqueue returns unless it has to wait: its wait
//! list holds an event that is not complete (a user event not yet set, or a
//! command deferred itself), or a command enqueued before it on the context
//! is still deferred (queues are in order, and a context's queues share one
//! device thread, so they are kept in one order). Such a command is kept in
//! a pending list with a `CL_QUEUED` event and runs, in order, when what it
//! waits for completes; when an event it waits for fails (a negative
//! status), it does not run and its event gets
//! `CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST`. The commands that can be
//! deferred are kernels (`clEnqueueNDRangeKernel`, `clEnqueueTask`: the
//! arguments as they were at the enqueue), buffer reads, writes, copies and
//! fills, markers, barriers, `clEnqueueWaitForEvents`, migrations
//! ([`super::deferrable`]), rectangular transfers, maps and unmaps
//! ([`super::deferrable_maps`]): every command of the platform.
//!
//! A wait (`clWaitForEvents`, `clFinish`, a blocking command that had to be
//! deferred) on something only another thread can complete waits at most
//! [`WAIT_TIMEOUT_VAR`] seconds (default 60), then fails with
//! `CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST` and says so on standard
//! error: a single-threaded program that waits for a user event it never
//! sets would otherwise hang for ever.

#![allow(non_snake_case)]

use std::cell::Cell;
use std::collections::VecDeque;
use std::ffi::c_void;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use super::context::{finish, CONTEXTS};
use super::event::{pending_event, validate_wait_list, Callback, EVENTS};
use super::queue::QUEUES;
use crate::cl::*;

/// Seconds a wait for an event lasts at most (`0`: for ever).
pub const WAIT_TIMEOUT_VAR: &str = "GPUSIM_WAIT_TIMEOUT";

/// What a deferred command does when it runs: its status and its times.
type Run = Box<dyn FnOnce() -> (cl_int, Option<[u64; 4]>) + Send>;

/// A deferred command.
struct Pending {
    context: usize,
    event: usize,
    waits: Vec<usize>,
    run: Option<Run>,
}

/// The deferred commands, in enqueue order, and the contexts one of whose
/// commands is running now (taken from the list).
struct State {
    pending: VecDeque<Pending>,
    running: Vec<usize>,
}

static STATE: Mutex<State> = Mutex::new(State {
    pending: VecDeque::new(),
    running: Vec::new(),
});
/// Signalled whenever an event's status changes.
static CHANGED: Condvar = Condvar::new();

thread_local! {
    /// This thread is running a deferred command (its inner enqueue must
    /// not defer it again).
    static RUNNING: Cell<bool> = const { Cell::new(false) };
}

fn state() -> std::sync::MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(|p| p.into_inner())
}

/// Whether a command on `context` with this wait list must be deferred
/// (see the module documentation), after checking the list.
///
/// # Safety
/// `list` must be null or valid for `n` handles.
pub(super) unsafe fn must_defer(
    context: usize,
    n: cl_uint,
    list: *const *mut c_void,
) -> Result<bool, cl_int> {
    // SAFETY: by the contract.
    unsafe { validate_wait_list(n, list, context) }?;
    if RUNNING.with(Cell::get) {
        return Ok(false);
    }
    let busy = {
        let s = state();
        s.pending.iter().any(|p| p.context == context) || s.running.contains(&context)
    };
    // SAFETY: `n` handles (checked above).
    Ok(busy
        || unsafe { handles(n, list) }
            .iter()
            .any(|&e| status(e) != CL_COMPLETE))
}

/// Whether a command that cannot be deferred may run now; otherwise
/// `CL_INVALID_OPERATION`, said on standard error.
///
/// # Safety
/// `list` must be null or valid for `n` handles.
pub(super) unsafe fn refuse_if_waiting(
    context: usize,
    n: cl_uint,
    list: *const *mut c_void,
) -> Result<(), cl_int> {
    // SAFETY: by the contract.
    if unsafe { must_defer(context, n, list) }? {
        eprintln!(
            "gpusim-opencl: this command cannot wait for a user event or a deferred command \
             yet (CL_INVALID_OPERATION)"
        );
        return Err(CL_INVALID_OPERATION);
    }
    Ok(())
}

/// The `n` handles of `list`.
///
/// # Safety
/// `list` must be null or valid for `n` handles.
unsafe fn handles(n: cl_uint, list: *const *mut c_void) -> Vec<usize> {
    (0..n as usize)
        // SAFETY: by the contract.
        .map(|i| unsafe { *list.add(i) } as usize)
        .collect()
}

/// An event's status (a released one counts as complete: it has nothing
/// left to wait for).
fn status(e: usize) -> cl_int {
    EVENTS
        .with(e as *const c_void, |ev| ev.status())
        .unwrap_or(CL_COMPLETE)
}

/// Sets `event`'s status and calls the callbacks that status reaches (a
/// callback for `CL_SUBMITTED` is due at `CL_SUBMITTED`, `CL_RUNNING`,
/// `CL_COMPLETE` or an error), outside every lock.
pub(super) fn set_status(event: usize, to: cl_int) {
    let due: Vec<(Callback, usize)> = EVENTS
        .with(event as *const c_void, |e| {
            let mut callbacks = e.callbacks.lock().unwrap_or_else(|p| p.into_inner());
            e.status.store(to, std::sync::atomic::Ordering::Release);
            let (due, later): (Vec<_>, Vec<_>) = callbacks
                .drain(..)
                .partition(|&(wanted, _, _)| to <= wanted);
            *callbacks = later;
            due.into_iter().map(|(_, f, data)| (f, data)).collect()
        })
        .unwrap_or_default();
    for (f, data) in due {
        // The status the callback is for, or the error.
        // SAFETY: the application's callback with its own data.
        unsafe { f(event as *mut c_void, to, data as *mut c_void) };
    }
    let _s = state();
    CHANGED.notify_all();
}

/// Defers a command of `command` type on `queue` behind `n` events of
/// `list`: its event (`CL_QUEUED`) is written to `event`, and `run` runs
/// when its turn comes. Runs what can run now.
///
/// # Safety
/// `list` must be valid for `n` handles, `event` null or valid for one.
pub(super) unsafe fn defer(
    queue: *mut c_void,
    context: usize,
    n: cl_uint,
    list: *const *mut c_void,
    event: *mut *mut c_void,
    command: cl_uint,
    run: Run,
) -> usize {
    let e = pending_event(queue as usize, context, command, CL_QUEUED) as usize;
    // SAFETY: by the contract.
    let waits = unsafe { handles(n, list) };
    // Kept alive while the command is pending: its queue, the events it
    // waits for, and its own event (the application may release its
    // reference at once).
    QUEUES.retain(queue);
    for &w in &waits {
        EVENTS.retain(w as *const c_void);
    }
    if !event.is_null() {
        EVENTS.retain(e as *const c_void);
        // SAFETY: by the contract.
        unsafe { *event = e as *mut c_void };
    }
    state().pending.push_back(Pending {
        context,
        event: e,
        waits,
        run: Some(run),
    });
    drain();
    e
}

/// Runs (or fails) every deferred command whose turn has come, until none
/// has.
pub(super) fn drain() {
    loop {
        let next = {
            let mut s = state();
            let mut seen: Vec<usize> = s.running.clone();
            let mut found = None;
            for (i, p) in s.pending.iter().enumerate() {
                if seen.contains(&p.context) {
                    continue;
                }
                seen.push(p.context);
                let statuses: Vec<cl_int> = p.waits.iter().map(|&w| status(w)).collect();
                if statuses.iter().any(|&st| st < 0) {
                    found = Some((i, false));
                    break;
                }
                if statuses.iter().all(|&st| st == CL_COMPLETE) {
                    found = Some((i, true));
                    break;
                }
            }
            found.and_then(|(i, ok)| {
                let p = s.pending.remove(i)?;
                s.running.push(p.context);
                Some((p, ok))
            })
        };
        let Some((mut p, ok)) = next else {
            return;
        };
        if ok {
            set_status(p.event, CL_SUBMITTED);
            set_status(p.event, CL_RUNNING);
            RUNNING.with(|r| r.set(true));
            let (r, times) = p.run.take().map_or((CL_SUCCESS, None), |run| run());
            RUNNING.with(|r| r.set(false));
            EVENTS.with(p.event as *const c_void, |e| e.set_profile(times));
            set_status(
                p.event,
                if r == CL_SUCCESS {
                    CL_COMPLETE
                } else {
                    r.min(-1)
                },
            );
        } else {
            set_status(p.event, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        }
        state().running.retain(|&c| c != p.context);
        finished(&p);
    }
}

/// Drops what a pending command kept alive.
fn finished(p: &Pending) {
    for &w in &p.waits {
        EVENTS.release(w as *const c_void);
    }
    if let Some(q) = EVENTS.with(p.event as *const c_void, |e| e.queue()) {
        QUEUES.release(q as *const c_void);
    }
    EVENTS.release(p.event as *const c_void);
}

/// The longest a wait lasts ([`WAIT_TIMEOUT_VAR`]; `None`: for ever).
fn timeout() -> Option<Duration> {
    let secs = std::env::var(WAIT_TIMEOUT_VAR)
        .ok()
        .and_then(|v| v.trim().parse::<f64>().ok())
        .unwrap_or(60.0);
    (secs > 0.0).then(|| Duration::from_secs_f64(secs))
}

/// Waits until `done` holds (checked under the state lock whenever an event
/// changes), at most the timeout; `what` names the wait in the message.
fn wait_until(what: &str, mut done: impl FnMut(&State) -> bool) -> Result<(), cl_int> {
    let limit = timeout();
    let start = Instant::now();
    let mut s = state();
    loop {
        if done(&s) {
            return Ok(());
        }
        let left = match limit {
            Some(l) => match l.checked_sub(start.elapsed()) {
                Some(d) if !d.is_zero() => d,
                _ => {
                    eprintln!(
                        "gpusim-opencl: {what}: still waiting after {:.1} s (a user event no one \
                         set?); giving up with CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST \
                         ({WAIT_TIMEOUT_VAR} sets the limit)",
                        l.as_secs_f64()
                    );
                    return Err(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
                }
            },
            // Re-check now and then even without a limit.
            None => Duration::from_secs(1),
        };
        s = CHANGED
            .wait_timeout(s, left)
            .unwrap_or_else(|p| p.into_inner())
            .0;
    }
}

/// Waits for `events` to complete: `CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST`
/// if one fails (or the wait times out).
pub(super) fn wait_events(what: &str, events: &[usize]) -> Result<(), cl_int> {
    let mut failed = false;
    wait_until(what, |_| {
        let st: Vec<cl_int> = events.iter().map(|&e| status(e)).collect();
        failed = st.iter().any(|&s| s < 0);
        failed || st.iter().all(|&s| s == CL_COMPLETE)
    })?;
    if failed {
        Err(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    } else {
        Ok(())
    }
}

/// Waits until no command of `context` is deferred or running (`clFinish`).
pub(super) fn wait_context(context: usize) -> Result<(), cl_int> {
    if RUNNING.with(Cell::get) {
        return Ok(());
    }
    wait_until("clFinish", |s| {
        !s.pending.iter().any(|p| p.context == context) && !s.running.contains(&context)
    })
}

/// A deferred blocking command: waits for its event; on a timeout the
/// command is withdrawn (it must not touch the caller's memory after the
/// call returned) and its event fails.
pub(super) fn wait_blocking(what: &str, event: usize) -> Result<(), cl_int> {
    let waited = wait_events(what, &[event]);
    if waited.is_err() {
        let withdrawn = {
            let mut s = state();
            s.pending
                .iter()
                .position(|p| p.event == event)
                .and_then(|i| s.pending.remove(i))
        };
        if let Some(p) = withdrawn {
            set_status(p.event, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
            finished(&p);
        }
    }
    waited
}

/// `clCreateUserEvent`: an event the application completes
/// (`CL_SUBMITTED` until then).
pub(super) unsafe extern "C" fn clCreateUserEvent(
    context: *mut c_void,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    super::guard::handle("clCreateUserEvent", errcode_ret, || {
        if !CONTEXTS.contains(context) {
            return finish(Err(CL_INVALID_CONTEXT), errcode_ret);
        }
        let e = pending_event(0, context as usize, CL_COMMAND_USER, CL_SUBMITTED);
        finish(Ok(e), errcode_ret)
    })
}

/// `clSetUserEventStatus`: `CL_COMPLETE` runs the commands waiting for it,
/// a negative status fails them; once only.
pub(super) unsafe extern "C" fn clSetUserEventStatus(event: *mut c_void, to: cl_int) -> cl_int {
    super::guard::status("clSetUserEventStatus", || {
        let Some((queue, st)) = EVENTS.with(event, |e| (e.queue(), e.status())) else {
            return CL_INVALID_EVENT;
        };
        if queue != 0 || EVENTS.with(event, |e| e.command()) != Some(CL_COMMAND_USER) {
            return CL_INVALID_EVENT;
        }
        if to > CL_COMPLETE {
            return CL_INVALID_VALUE;
        }
        if st != CL_SUBMITTED {
            return CL_INVALID_OPERATION;
        }
        set_status(event as usize, to);
        drain();
        CL_SUCCESS
    })
}

/// `clSetEventCallback`: called now (with the event's status) if the event
/// has reached the status it is for, else at that transition.
pub(super) unsafe extern "C" fn clSetEventCallback(
    event: *mut c_void,
    wanted: cl_int,
    callback: Option<Callback>,
    user_data: *mut c_void,
) -> cl_int {
    super::guard::status("clSetEventCallback", || {
        let Some(f) = callback else {
            return if EVENTS.contains(event) {
                CL_INVALID_VALUE
            } else {
                CL_INVALID_EVENT
            };
        };
        if !EVENTS.contains(event) {
            return CL_INVALID_EVENT;
        }
        if ![CL_COMPLETE, CL_RUNNING, CL_SUBMITTED].contains(&wanted) {
            return CL_INVALID_VALUE;
        }
        // Registered under the event's lock, so a transition on another
        // thread either sees it or has already stored the status read here.
        let now = EVENTS.with(event, |e| {
            let mut callbacks = e.callbacks.lock().unwrap_or_else(|p| p.into_inner());
            let st = e.status();
            if st <= wanted {
                Some(st)
            } else {
                callbacks.push((wanted, f, user_data as usize));
                None
            }
        });
        match now {
            None => CL_INVALID_EVENT,
            Some(Some(st)) => {
                // SAFETY: the application's callback with its own data.
                unsafe { f(event, st, user_data) };
                CL_SUCCESS
            }
            Some(None) => CL_SUCCESS,
        }
    })
}

/// `clFinish`: waits for the context's deferred commands; the others have
/// completed.
pub(super) unsafe extern "C" fn clFinish(handle: *mut c_void) -> cl_int {
    super::guard::status("clFinish", || {
        let Some(context) = QUEUES.with(handle, |q| q.context()) else {
            return CL_INVALID_COMMAND_QUEUE;
        };
        match wait_context(context) {
            Ok(()) => CL_SUCCESS,
            Err(e) => e,
        }
    })
}

/// Checks a wait list: every event must be live and of the queue's context,
/// and the command must not have to wait (a command that cannot be
/// deferred is refused, `CL_INVALID_OPERATION`).
///
/// # Safety
/// `list` must be null or valid for `n` handles.
pub(super) unsafe fn check_wait_list(
    n: cl_uint,
    list: *const *mut c_void,
    context: usize,
) -> Result<(), cl_int> {
    // SAFETY: by the contract.
    unsafe { refuse_if_waiting(context, n, list) }
}

/// `clWaitForEvents`: the list checked (live events of one context), then
/// waits for its deferred commands and user events.
pub(super) unsafe extern "C" fn clWaitForEvents(n: cl_uint, list: *const *mut c_void) -> cl_int {
    super::guard::status("clWaitForEvents", || {
        if n == 0 || list.is_null() {
            return CL_INVALID_VALUE;
        }
        let mut context = None;
        for i in 0..n as usize {
            // SAFETY: `n` handles, by the contract.
            let e = unsafe { *list.add(i) };
            match (EVENTS.with(e, |ev| ev.context()), context) {
                (None, _) => return CL_INVALID_EVENT,
                (Some(c), Some(first)) if c != first => return CL_INVALID_CONTEXT,
                (Some(c), _) => context = Some(c),
            }
        }
        let events: Vec<usize> = (0..n as usize)
            // SAFETY: `n` handles, by the contract.
            .map(|i| unsafe { *list.add(i) } as usize)
            .collect();
        match wait_events("clWaitForEvents", &events) {
            Ok(()) => CL_SUCCESS,
            Err(e) => e,
        }
    })
}
