//! Command queues, events, and the buffer commands: `clCreateCommandQueue`
//! (and `…WithProperties`), retain, release, `clGetCommandQueueInfo`,
//! `clFlush`, `clFinish`, `clEnqueueWriteBuffer`, `clEnqueueReadBuffer`,
//! and the events they return. Queues are in order, and a command runs on
//! the device thread before its enqueue returns, so its event is complete
//! when the application sees it, unless it waits for a user event
//! ([`super::deferred`]).

#![allow(non_snake_case)]

use std::ffi::c_void;
use std::sync::atomic::{AtomicI32, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use super::context::{device_thread, finish, CONTEXTS};
use super::handles::{Counted, Registry};
use super::info::{answer, Info};
use super::memory::{Mirror, BUFFERS};
use super::platform::{device_handle, device_of};
use crate::cl::*;
use crate::core::worker::DeviceThread;

/// A command queue.
pub struct Queue {
    references: AtomicU32,
    /// Its context (retained while the queue lives).
    context: usize,
    device: Arc<DeviceThread>,
    /// `CL_QUEUE_PROFILING_ENABLE`: its events carry times.
    profiling: bool,
}

impl Queue {
    /// Its context's handle.
    pub fn context(&self) -> usize {
        self.context
    }

    /// The device thread its commands run on.
    pub fn device(&self) -> Arc<DeviceThread> {
        self.device.clone()
    }
}

impl Counted for Queue {
    fn references(&self) -> &AtomicU32 {
        &self.references
    }
}

impl Drop for Queue {
    fn drop(&mut self) {
        // SAFETY: no pointer is followed; the context was retained at creation.
        unsafe { super::context::clReleaseContext(self.context as *mut c_void) };
    }
}

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
            q.profiling.then(|| {
                let clock = q.device.clock();
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
        .with(queue as *const c_void, |q| q.profiling)
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

/// The live queues.
pub static QUEUES: Registry<Queue> = Registry::new();
/// The live events.
pub static EVENTS: Registry<Event> = Registry::new();

/// A queue on `context`'s device with `properties`: profiling (the device
/// does not report out-of-order execution).
fn create(
    context: *mut c_void,
    device: *mut c_void,
    properties: cl_bitfield,
) -> Result<*mut c_void, cl_int> {
    if !CONTEXTS.contains(context) {
        return Err(CL_INVALID_CONTEXT);
    }
    if device_of(device).is_none() {
        return Err(CL_INVALID_DEVICE);
    }
    if properties & !CL_QUEUE_PROFILING_ENABLE != 0 {
        return Err(if properties & !0b11 != 0 {
            CL_INVALID_VALUE
        } else {
            CL_INVALID_QUEUE_PROPERTIES
        });
    }
    let device = device_thread(context)?;
    // SAFETY: a live context (checked); released when the queue is freed.
    unsafe { super::context::clRetainContext(context) };
    Ok(QUEUES.insert(Queue {
        references: AtomicU32::new(1),
        context: context as usize,
        device,
        profiling: properties & CL_QUEUE_PROFILING_ENABLE != 0,
    }))
}

/// `clCreateCommandQueue`.
pub(super) unsafe extern "C" fn clCreateCommandQueue(
    context: *mut c_void,
    device: *mut c_void,
    properties: cl_command_queue_properties,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    super::guard::handle("clCreateCommandQueue", errcode_ret, || {
        finish(create(context, device, properties), errcode_ret)
    })
}

/// `clCreateCommandQueueWithProperties`: `CL_QUEUE_PROPERTIES` is the only
/// property.
pub(super) unsafe extern "C" fn clCreateCommandQueueWithProperties(
    context: *mut c_void,
    device: *mut c_void,
    properties: *const cl_queue_properties,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    super::guard::handle("clCreateCommandQueueWithProperties", errcode_ret, || {
        let mut bits = 0;
        let mut p = properties;
        while !p.is_null() {
            // SAFETY: a 0-terminated list of key-value pairs, by the contract.
            let key = unsafe { *p };
            if key == 0 {
                break;
            }
            if key != cl_queue_properties::from(CL_QUEUE_PROPERTIES) {
                return finish(Err(CL_INVALID_VALUE), errcode_ret);
            }
            // SAFETY: a key is followed by its value.
            bits = unsafe { *p.add(1) };
            // SAFETY: the next key follows.
            p = unsafe { p.add(2) };
        }
        finish(create(context, device, bits), errcode_ret)
    })
}

/// `clRetainCommandQueue`.
pub(super) unsafe extern "C" fn clRetainCommandQueue(handle: *mut c_void) -> cl_int {
    super::guard::status("clRetainCommandQueue", || {
        if QUEUES.retain(handle) {
            CL_SUCCESS
        } else {
            CL_INVALID_COMMAND_QUEUE
        }
    })
}

/// `clReleaseCommandQueue`.
pub(super) unsafe extern "C" fn clReleaseCommandQueue(handle: *mut c_void) -> cl_int {
    super::guard::status("clReleaseCommandQueue", || {
        if QUEUES.release(handle) {
            CL_SUCCESS
        } else {
            CL_INVALID_COMMAND_QUEUE
        }
    })
}

/// `clGetCommandQueueInfo`.
pub(super) unsafe extern "C" fn clGetCommandQueueInfo(
    handle: *mut c_void,
    param_name: cl_command_queue_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    super::guard::status("clGetCommandQueueInfo", || {
        let value = QUEUES.with(handle, |q| match param_name {
            CL_QUEUE_CONTEXT => Some(Info::Pointers(vec![q.context])),
            CL_QUEUE_DEVICE => Some(Info::Pointers(vec![device_handle() as usize])),
            CL_QUEUE_REFERENCE_COUNT => Some(Info::Uint(q.references.load(Ordering::Acquire))),
            CL_QUEUE_PROPERTIES => Some(Info::Ulong(if q.profiling {
                CL_QUEUE_PROFILING_ENABLE
            } else {
                0
            })),
            _ => None,
        });
        let Some(value) = value else {
            return CL_INVALID_COMMAND_QUEUE;
        };
        // SAFETY: the caller's buffers, by the contract.
        unsafe { answer(value, param_value_size, param_value, param_value_size_ret) }
    })
}

/// `clFlush`: commands run as they are enqueued; nothing is pending.
pub(super) unsafe extern "C" fn clFlush(handle: *mut c_void) -> cl_int {
    super::guard::status("clFlush", || {
        if QUEUES.contains(handle) {
            CL_SUCCESS
        } else {
            CL_INVALID_COMMAND_QUEUE
        }
    })
}

/// `clFinish`: waits for the context's deferred commands
/// ([`super::deferred`]); the others have completed.
pub(super) unsafe extern "C" fn clFinish(handle: *mut c_void) -> cl_int {
    super::guard::status("clFinish", || {
        let Some(context) = QUEUES.with(handle, |q| q.context) else {
            return CL_INVALID_COMMAND_QUEUE;
        };
        match super::deferred::wait_context(context) {
            Ok(()) => CL_SUCCESS,
            Err(e) => e,
        }
    })
}

/// Checks a wait list: every event must be live and of the queue's context,
/// and the command must not have to wait ([`super::deferred`]: a command
/// that cannot be deferred is refused, `CL_INVALID_OPERATION`).
///
/// # Safety
/// `list` must be null or valid for `n` handles.
pub(super) unsafe fn check_wait_list(
    n: cl_uint,
    list: *const *mut c_void,
    context: usize,
) -> Result<(), cl_int> {
    // SAFETY: by the contract.
    unsafe { super::deferred::refuse_if_waiting(context, n, list) }
}

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

/// Whether the host may write (`write`) or read a buffer created with
/// `flags` (`CL_MEM_HOST_*`; a forbidden transfer or map is
/// `CL_INVALID_OPERATION`).
pub(super) fn host_may(flags: cl_mem_flags, write: bool) -> bool {
    let forbidden = if write {
        CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS
    } else {
        CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS
    };
    flags & forbidden == 0
}

/// Runs a buffer transfer of `size` bytes at `offset` of `buffer` on
/// `queue`'s device ([`on_buffers`]): `write` copies from `ptr` to the
/// buffer, else from the buffer to `ptr`. The event, if asked for, is
/// complete.
///
/// # Safety
/// `ptr` must be valid for `size` bytes, `wait_list` for `n` handles, and
/// `event` null or valid for one handle.
#[allow(clippy::too_many_arguments)]
unsafe fn transfer(
    queue: *mut c_void,
    buffer: *mut c_void,
    write: bool,
    offset: usize,
    size: usize,
    ptr: *mut c_void,
    n: cl_uint,
    wait_list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    // A buffer that is not one is `on_buffers`' error, before these checks.
    let flags = BUFFERS.with(buffer, |m| m.flags).unwrap_or(0);
    let check = |a: &[sw::driver::memory::Allocation]| {
        if !host_may(flags, write) {
            return Err(CL_INVALID_OPERATION);
        }
        if ptr.is_null() || size == 0 || !fits(&a[0], offset, size) {
            return Err(CL_INVALID_VALUE);
        }
        Ok(())
    };
    let host = ptr as usize;
    let run = move |s: &mut cosim::session::Session, a: Vec<sw::driver::memory::Allocation>| {
        let d = s.driver();
        if write {
            // SAFETY: `ptr` holds `size` bytes, by the contract, and the
            // application does not touch them while its enqueue waits.
            let bytes = unsafe { std::slice::from_raw_parts(host as *const u8, size) };
            d.upload(a[0], offset as u64, bytes)
                .map_err(|e| e.to_string())
        } else {
            let bytes = d
                .download_range(a[0], offset as u64, size as u64)
                .map_err(|e| e.to_string())?;
            // SAFETY: as above.
            unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), host as *mut u8, size) };
            Ok(())
        }
    };
    let command = if write {
        CL_COMMAND_WRITE_BUFFER
    } else {
        CL_COMMAND_READ_BUFFER
    };
    // SAFETY: by the contract.
    unsafe {
        on_buffers(
            queue,
            &[(buffer, write)],
            n,
            wait_list,
            event,
            command,
            check,
            run,
        )
    }
}

/// `clEnqueueWriteBuffer` (blocking or not: it completes before it returns).
#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn clEnqueueWriteBuffer(
    queue: *mut c_void,
    buffer: *mut c_void,
    _blocking: cl_bool,
    offset: usize,
    size: usize,
    ptr: *const c_void,
    num_events: cl_uint,
    wait_list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    super::guard::status("clEnqueueWriteBuffer", || {
        // SAFETY: the same contract.
        unsafe {
            transfer(
                queue,
                buffer,
                true,
                offset,
                size,
                ptr.cast_mut(),
                num_events,
                wait_list,
                event,
            )
        }
    })
}

/// `clEnqueueReadBuffer` (blocking or not: it completes before it returns).
#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn clEnqueueReadBuffer(
    queue: *mut c_void,
    buffer: *mut c_void,
    _blocking: cl_bool,
    offset: usize,
    size: usize,
    ptr: *mut c_void,
    num_events: cl_uint,
    wait_list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    super::guard::status("clEnqueueReadBuffer", || {
        // SAFETY: the same contract.
        unsafe {
            transfer(
                queue, buffer, false, offset, size, ptr, num_events, wait_list, event,
            )
        }
    })
}

/// `clWaitForEvents`: every event is complete already; the list is checked.
pub(super) unsafe extern "C" fn clWaitForEvents(n: cl_uint, list: *const *mut c_void) -> cl_int {
    super::guard::status("clWaitForEvents", || {
        if n == 0 || list.is_null() {
            return CL_INVALID_VALUE;
        }
        let mut context = None;
        for i in 0..n as usize {
            // SAFETY: `n` handles, by the contract.
            let e = unsafe { *list.add(i) };
            match (EVENTS.with(e, |ev| ev.context), context) {
                (None, _) => return CL_INVALID_EVENT,
                (Some(c), Some(first)) if c != first => return CL_INVALID_CONTEXT,
                (Some(c), _) => context = Some(c),
            }
        }
        let events: Vec<usize> = (0..n as usize)
            // SAFETY: `n` handles, by the contract.
            .map(|i| unsafe { *list.add(i) } as usize)
            .collect();
        match super::deferred::wait_events("clWaitForEvents", &events) {
            Ok(()) => CL_SUCCESS,
            Err(e) => e,
        }
    })
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

/// Runs `f` on `queue`'s device with the allocations of `buffers` (all of
/// the queue's context), after checking the wait list; makes the event.
/// Each buffer comes with whether `f` may write it: the host-pointer
/// buffers among them are pushed before `f`, and only those it may write
/// are pulled back after it (the others' device bytes are the ones just
/// pushed).
///
/// # Safety
/// `wait_list` must be valid for `n` handles, `event` null or valid for one.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn on_buffers(
    queue: *mut c_void,
    buffers: &[(*mut c_void, bool)],
    n: cl_uint,
    wait_list: *const *mut c_void,
    event: *mut *mut c_void,
    command: cl_uint,
    check: impl FnOnce(&[sw::driver::memory::Allocation]) -> Result<(), cl_int>,
    f: impl FnOnce(
            &mut cosim::session::Session,
            Vec<sw::driver::memory::Allocation>,
        ) -> Result<(), String>
        + Send
        + 'static,
) -> cl_int {
    let Some((context, device)) = QUEUES.with(queue, |q| (q.context, q.device.clone())) else {
        return CL_INVALID_COMMAND_QUEUE;
    };
    let mut allocations = Vec::new();
    let mut pushed = Vec::new();
    let mut pulled = Vec::new();
    for &(b, writes) in buffers {
        match BUFFERS.with(b, |m| (m.context, m.allocation, Mirror::from(m))) {
            None => return CL_INVALID_MEM_OBJECT,
            Some((c, _, _)) if c != context => return CL_INVALID_CONTEXT,
            Some((_, a, mirror)) => {
                allocations.push(a);
                pushed.extend(mirror);
                pulled.extend(mirror.filter(|_| writes));
            }
        }
    }
    if let Err(e) = check(&allocations) {
        return e;
    }
    // SAFETY: by the contract.
    if let Err(e) = unsafe { check_wait_list(n, wait_list, context) } {
        return e;
    }
    let run = move |s: &mut cosim::session::Session| {
        for m in &pushed {
            m.push(s)?;
        }
        f(s, allocations)?;
        for m in &pulled {
            m.pull(s)?;
        }
        Ok(())
    };
    match device.call(run) {
        Ok(Ok(())) => {}
        Ok(Err(e)) | Err(e) => {
            eprintln!("gpusim-opencl: a buffer command failed: {e}");
            return CL_OUT_OF_RESOURCES;
        }
    }
    if !event.is_null() {
        // SAFETY: valid for one handle, by the contract.
        unsafe { *event = new_event(queue, context, command) };
    }
    CL_SUCCESS
}

/// Whether `offset + size` fits in `a` (and does not overflow).
fn fits(a: &sw::driver::memory::Allocation, offset: usize, size: usize) -> bool {
    offset
        .checked_add(size)
        .is_some_and(|end| end as u64 <= a.size)
}

/// `clEnqueueCopyBuffer`.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn clEnqueueCopyBuffer(
    queue: *mut c_void,
    src: *mut c_void,
    dst: *mut c_void,
    src_offset: usize,
    dst_offset: usize,
    size: usize,
    n: cl_uint,
    wait_list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    super::guard::status("clEnqueueCopyBuffer", || {
        let check = |a: &[sw::driver::memory::Allocation]| {
            if size == 0 || !fits(&a[0], src_offset, size) || !fits(&a[1], dst_offset, size) {
                return Err(CL_INVALID_VALUE);
            }
            if src == dst && src_offset.max(dst_offset) - src_offset.min(dst_offset) < size {
                return Err(CL_MEM_COPY_OVERLAP);
            }
            Ok(())
        };
        let copy = move |s: &mut cosim::session::Session,
                         a: Vec<sw::driver::memory::Allocation>| {
            let d = s.driver();
            let bytes = d
                .download_range(a[0], src_offset as u64, size as u64)
                .map_err(|e| e.to_string())?;
            d.upload(a[1], dst_offset as u64, &bytes)
                .map_err(|e| e.to_string())
        };
        // SAFETY: by the contract.
        unsafe {
            on_buffers(
                queue,
                &[(src, false), (dst, true)],
                n,
                wait_list,
                event,
                CL_COMMAND_COPY_BUFFER,
                check,
                copy,
            )
        }
    })
}

/// `clEnqueueFillBuffer`: `pattern` repeated over `size` bytes at `offset`.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn clEnqueueFillBuffer(
    queue: *mut c_void,
    buffer: *mut c_void,
    pattern: *const c_void,
    pattern_size: usize,
    offset: usize,
    size: usize,
    n: cl_uint,
    wait_list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    super::guard::status("clEnqueueFillBuffer", || {
        if pattern.is_null() || !pattern_size.is_power_of_two() || pattern_size > 128 {
            return CL_INVALID_VALUE;
        }
        // SAFETY: `pattern_size` bytes, by the contract.
        let unit =
            unsafe { std::slice::from_raw_parts(pattern.cast::<u8>(), pattern_size) }.to_vec();
        let check = |a: &[sw::driver::memory::Allocation]| {
            if size == 0
                || offset % pattern_size != 0
                || size % pattern_size != 0
                || !fits(&a[0], offset, size)
            {
                return Err(CL_INVALID_VALUE);
            }
            Ok(())
        };
        let fill = move |s: &mut cosim::session::Session,
                         a: Vec<sw::driver::memory::Allocation>| {
            let bytes: Vec<u8> = unit.iter().copied().cycle().take(size).collect();
            s.driver()
                .upload(a[0], offset as u64, &bytes)
                .map_err(|e| e.to_string())
        };
        // SAFETY: by the contract.
        unsafe {
            on_buffers(
                queue,
                &[(buffer, true)],
                n,
                wait_list,
                event,
                CL_COMMAND_FILL_BUFFER,
                check,
                fill,
            )
        }
    })
}

/// `clEnqueueMapBuffer`: a host copy of the range (read from the device
/// unless the whole region is to be overwritten), kept until unmapped.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn clEnqueueMapBuffer(
    queue: *mut c_void,
    buffer: *mut c_void,
    _blocking: cl_bool,
    flags: cl_map_flags,
    offset: usize,
    size: usize,
    n: cl_uint,
    wait_list: *const *mut c_void,
    event: *mut *mut c_void,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    super::guard::handle("clEnqueueMapBuffer", errcode_ret, || {
        let (_, write, invalidate) = match super::deferrable_maps::map_flags(buffer, flags) {
            Ok(f) => f,
            Err(e) => return finish(Err(e), errcode_ret),
        };
        let mirrored = BUFFERS.with(buffer, |m| m.host_ptr != 0).unwrap_or(false);
        let got = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = got.clone();
        let check = |a: &[sw::driver::memory::Allocation]| {
            if size == 0 || !fits(&a[0], offset, size) {
                return Err(CL_INVALID_VALUE);
            }
            Ok(())
        };
        let read = move |s: &mut cosim::session::Session,
                         a: Vec<sw::driver::memory::Allocation>| {
            // A host-pointer buffer maps to the application's memory, just
            // pushed: nothing to read.
            let bytes = if mirrored {
                Vec::new()
            } else if invalidate {
                vec![0; size]
            } else {
                s.driver()
                    .download_range(a[0], offset as u64, size as u64)
                    .map_err(|e| e.to_string())?
            };
            *sink.lock().unwrap_or_else(|p| p.into_inner()) = bytes;
            Ok(())
        };
        // SAFETY: by the contract.
        let r = unsafe {
            on_buffers(
                queue,
                &[(buffer, false)],
                n,
                wait_list,
                event,
                CL_COMMAND_MAP_BUFFER,
                check,
                read,
            )
        };
        if r != CL_SUCCESS {
            return finish(Err(r), errcode_ret);
        }
        let bytes =
            std::mem::take(&mut *got.lock().unwrap_or_else(|p| p.into_inner())).into_boxed_slice();
        let mapped = BUFFERS.with(buffer, |m| {
            let mut maps = m.maps.lock().unwrap_or_else(|p| p.into_inner());
            // A host-pointer buffer maps to the application's own memory,
            // which the mirror keeps current.
            let host = if m.host_ptr != 0 {
                m.host_ptr + offset
            } else {
                0
            };
            maps.push(super::memory::Mapping {
                bytes,
                offset,
                write,
                host,
            });
            maps.last()
                .map_or(std::ptr::null_mut(), |mp| mp.pointer().cast_mut())
        });
        match mapped {
            Some(p) => finish(Ok(p), errcode_ret),
            None => finish(Err(CL_INVALID_MEM_OBJECT), errcode_ret),
        }
    })
}

/// `clEnqueueUnmapMemObject`: writes a range mapped for writing back to the
/// device and drops the host copy.
pub(super) unsafe extern "C" fn clEnqueueUnmapMemObject(
    queue: *mut c_void,
    buffer: *mut c_void,
    mapped: *mut c_void,
    n: cl_uint,
    wait_list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    super::guard::status("clEnqueueUnmapMemObject", || {
        // Checked before the mapping is taken, so a bad queue loses nothing.
        if !QUEUES.contains(queue) {
            return CL_INVALID_COMMAND_QUEUE;
        }
        let taken = BUFFERS.with(buffer, |m| {
            let mut maps = m.maps.lock().unwrap_or_else(|p| p.into_inner());
            let i = maps
                .iter()
                .position(|mp| mp.pointer() == mapped.cast_const())?;
            Some(maps.remove(i))
        });
        let mapping = match taken {
            None => return CL_INVALID_MEM_OBJECT,
            Some(None) => return CL_INVALID_VALUE,
            Some(Some(m)) => m,
        };
        let back = move |s: &mut cosim::session::Session,
                         a: Vec<sw::driver::memory::Allocation>| {
            if !mapping.write || mapping.host != 0 {
                // A host-pointer buffer's bytes were pushed before this.
                return Ok(());
            }
            s.driver()
                .upload(a[0], mapping.offset as u64, &mapping.bytes)
                .map_err(|e| e.to_string())
        };
        // SAFETY: by the contract.
        unsafe {
            on_buffers(
                queue,
                // A write mapping of a host-pointer buffer is in the
                // application's memory, pushed before `back`.
                &[(buffer, false)],
                n,
                wait_list,
                event,
                CL_COMMAND_UNMAP_MEM_OBJECT,
                |_| Ok(()),
                back,
            )
        }
    })
}
