//! The entry points whose commands can wait for a user event
//! ([`super::deferred`]): each runs its command at once when nothing is to
//! be waited for, else defers a call of the same entry point, without the
//! wait list, to the moment its turn comes. What the caller may change or
//! free after the call returns is copied first: a kernel's arguments, a
//! fill's pattern, the launch sizes.

#![allow(non_snake_case)]

use std::ffi::c_void;

use super::deferred::{defer, must_defer, wait_blocking};
use super::event::EVENTS;
use super::queue::QUEUES;
use crate::cl::*;

/// Runs an inner enqueue that writes an event into its last argument and
/// returns its status and times, releasing that event.
pub(super) fn inner(call: impl FnOnce(*mut *mut c_void) -> cl_int) -> (cl_int, Option<[u64; 4]>) {
    let mut ev: *mut c_void = std::ptr::null_mut();
    let r = call(&mut ev);
    let times = EVENTS.with(ev, |e| e.profile()).flatten();
    if !ev.is_null() {
        EVENTS.release(ev);
    }
    (r, times)
}

/// The context of `queue`, or `CL_INVALID_COMMAND_QUEUE`.
fn context_of(queue: *mut c_void) -> Result<usize, cl_int> {
    QUEUES
        .with(queue, |q| q.context())
        .ok_or(CL_INVALID_COMMAND_QUEUE)
}

/// The queue's context when the command must wait, `None` when it can
/// run now; an error for a bad queue or wait list.
///
/// # Safety
/// `list` must be null or valid for `n` handles.
pub(super) unsafe fn deferring(
    queue: *mut c_void,
    n: cl_uint,
    list: *const *mut c_void,
) -> Result<Option<usize>, cl_int> {
    let context = context_of(queue)?;
    // SAFETY: by the contract.
    Ok(unsafe { must_defer(context, n, list) }?.then_some(context))
}

/// `clEnqueueNDRangeKernel`, deferred with the kernel's arguments as they
/// are now.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn clEnqueueNDRangeKernel(
    queue: *mut c_void,
    kernel: *mut c_void,
    work_dim: cl_uint,
    global_offset: *const usize,
    global: *const usize,
    local: *const usize,
    n: cl_uint,
    list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    super::guard::status("clEnqueueNDRangeKernel", || {
        let direct = || {
            // SAFETY: the same contract.
            unsafe {
                super::launch::clEnqueueNDRangeKernel(
                    queue,
                    kernel,
                    work_dim,
                    global_offset,
                    global,
                    local,
                    n,
                    list,
                    event,
                )
            }
        };
        // SAFETY: by the contract.
        let context = match unsafe { deferring(queue, n, list) } {
            Ok(None) => return direct(),
            Err(e) => return e,
            Ok(Some(c)) => c,
        };
        if !(1..=3).contains(&work_dim) {
            return CL_INVALID_WORK_DIMENSION;
        }
        if global.is_null() {
            return CL_INVALID_GLOBAL_WORK_SIZE;
        }
        let copy = |p: *const usize| {
            // SAFETY: `work_dim` sizes, by the contract.
            (!p.is_null()).then(|| {
                (0..work_dim as usize)
                    .map(|i| unsafe { *p.add(i) })
                    .collect::<Vec<_>>()
            })
        };
        let (offset, global, local) = (copy(global_offset), copy(global), copy(local));
        let Some(args) = super::program::KERNELS.with(kernel, |k| {
            k.args.lock().unwrap_or_else(|p| p.into_inner()).clone()
        }) else {
            return CL_INVALID_KERNEL;
        };
        super::program::KERNELS.retain(kernel);
        let (q, k) = (queue as usize, kernel as usize);
        let run = Box::new(move || {
            let kernel = k as *mut c_void;
            let ptr = |v: &Option<Vec<usize>>| v.as_ref().map_or(std::ptr::null(), |v| v.as_ptr());
            let out = inner(|ev| {
                // SAFETY: copies of the caller's sizes; live handles (retained).
                unsafe {
                    super::launch::ndrange(
                        q as *mut c_void,
                        kernel,
                        work_dim,
                        ptr(&offset),
                        ptr(&global),
                        ptr(&local),
                        0,
                        std::ptr::null(),
                        ev,
                        Some(args),
                    )
                }
            });
            super::program::KERNELS.release(kernel);
            out
        });
        // SAFETY: by the contract.
        unsafe {
            defer(
                queue,
                context,
                n,
                list,
                event,
                CL_COMMAND_NDRANGE_KERNEL,
                run,
            )
        };
        CL_SUCCESS
    })
}

/// Calls the transfer entry point (`write`: host to buffer) with handles
/// and addresses as integers.
#[allow(clippy::too_many_arguments)]
fn transfer_now(
    write: bool,
    q: usize,
    b: usize,
    blocking: cl_bool,
    offset: usize,
    size: usize,
    p: usize,
    n: cl_uint,
    list: *const *mut c_void,
    ev: *mut *mut c_void,
) -> cl_int {
    let (q, b) = (q as *mut c_void, b as *mut c_void);
    // SAFETY: the caller's contract (its pointers, as integers).
    unsafe {
        if write {
            super::transfers::clEnqueueWriteBuffer(
                q,
                b,
                blocking,
                offset,
                size,
                p as *const c_void,
                n,
                list,
                ev,
            )
        } else {
            super::transfers::clEnqueueReadBuffer(
                q,
                b,
                blocking,
                offset,
                size,
                p as *mut c_void,
                n,
                list,
                ev,
            )
        }
    }
}

/// A buffer transfer, deferred: the host memory is read or written when
/// the command runs, as the specification allows for a non-blocking
/// transfer; a blocking one waits for it.
///
/// # Safety
/// The contract of the transfer's entry point.
#[allow(clippy::too_many_arguments)]
unsafe fn transfer(
    write: bool,
    queue: *mut c_void,
    buffer: *mut c_void,
    blocking: cl_bool,
    offset: usize,
    size: usize,
    ptr: usize,
    n: cl_uint,
    list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    let (q, b) = (queue as usize, buffer as usize);
    // SAFETY: by the contract.
    let context = match unsafe { deferring(queue, n, list) } {
        Ok(None) => return transfer_now(write, q, b, blocking, offset, size, ptr, n, list, event),
        Err(e) => return e,
        Ok(Some(c)) => c,
    };
    if !super::memory::BUFFERS.contains(buffer) {
        return CL_INVALID_MEM_OBJECT;
    }
    if ptr == 0 {
        return CL_INVALID_VALUE;
    }
    super::memory::BUFFERS.retain(buffer);
    let run = Box::new(move || {
        let out = inner(|ev| {
            transfer_now(
                write,
                q,
                b,
                CL_FALSE,
                offset,
                size,
                ptr,
                0,
                std::ptr::null(),
                ev,
            )
        });
        super::memory::BUFFERS.release(b as *mut c_void);
        out
    });
    let command = if write {
        CL_COMMAND_WRITE_BUFFER
    } else {
        CL_COMMAND_READ_BUFFER
    };
    // SAFETY: by the contract.
    let e = unsafe { defer(queue, context, n, list, event, command, run) };
    if blocking != 0 {
        let name = if write {
            "clEnqueueWriteBuffer"
        } else {
            "clEnqueueReadBuffer"
        };
        if let Err(err) = wait_blocking(name, e) {
            return err;
        }
    }
    CL_SUCCESS
}

/// `clEnqueueWriteBuffer`.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn clEnqueueWriteBuffer(
    queue: *mut c_void,
    buffer: *mut c_void,
    blocking: cl_bool,
    offset: usize,
    size: usize,
    ptr: *const c_void,
    n: cl_uint,
    list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    super::guard::status("clEnqueueWriteBuffer", || {
        // SAFETY: the same contract.
        unsafe {
            transfer(
                true,
                queue,
                buffer,
                blocking,
                offset,
                size,
                ptr as usize,
                n,
                list,
                event,
            )
        }
    })
}

/// `clEnqueueReadBuffer`.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn clEnqueueReadBuffer(
    queue: *mut c_void,
    buffer: *mut c_void,
    blocking: cl_bool,
    offset: usize,
    size: usize,
    ptr: *mut c_void,
    n: cl_uint,
    list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    super::guard::status("clEnqueueReadBuffer", || {
        // SAFETY: the same contract.
        unsafe {
            transfer(
                false,
                queue,
                buffer,
                blocking,
                offset,
                size,
                ptr as usize,
                n,
                list,
                event,
            )
        }
    })
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
    list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    super::guard::status("clEnqueueCopyBuffer", || {
        let (q, s, d) = (queue as usize, src as usize, dst as usize);
        let now = move |n: cl_uint, list: *const *mut c_void, ev: *mut *mut c_void| {
            // SAFETY: the caller's contract.
            unsafe {
                super::transfers::clEnqueueCopyBuffer(
                    q as *mut c_void,
                    s as *mut c_void,
                    d as *mut c_void,
                    src_offset,
                    dst_offset,
                    size,
                    n,
                    list,
                    ev,
                )
            }
        };
        // SAFETY: by the contract.
        let context = match unsafe { deferring(queue, n, list) } {
            Ok(None) => return now(n, list, event),
            Err(e) => return e,
            Ok(Some(c)) => c,
        };
        if !super::memory::BUFFERS.contains(src) || !super::memory::BUFFERS.contains(dst) {
            return CL_INVALID_MEM_OBJECT;
        }
        super::memory::BUFFERS.retain(src);
        super::memory::BUFFERS.retain(dst);
        let run = Box::new(move || {
            let out = inner(|ev| now(0, std::ptr::null(), ev));
            super::memory::BUFFERS.release(s as *mut c_void);
            super::memory::BUFFERS.release(d as *mut c_void);
            out
        });
        // SAFETY: by the contract.
        unsafe { defer(queue, context, n, list, event, CL_COMMAND_COPY_BUFFER, run) };
        CL_SUCCESS
    })
}

/// `clEnqueueFillBuffer`, deferred with a copy of the pattern.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn clEnqueueFillBuffer(
    queue: *mut c_void,
    buffer: *mut c_void,
    pattern: *const c_void,
    pattern_size: usize,
    offset: usize,
    size: usize,
    n: cl_uint,
    list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    super::guard::status("clEnqueueFillBuffer", || {
        // SAFETY: by the contract.
        let context = match unsafe { deferring(queue, n, list) } {
            Ok(None) => {
                // SAFETY: the same contract.
                return unsafe {
                    super::transfers::clEnqueueFillBuffer(
                        queue,
                        buffer,
                        pattern,
                        pattern_size,
                        offset,
                        size,
                        n,
                        list,
                        event,
                    )
                };
            }
            Err(e) => return e,
            Ok(Some(c)) => c,
        };
        if pattern.is_null() || !pattern_size.is_power_of_two() || pattern_size > 128 {
            return CL_INVALID_VALUE;
        }
        if !super::memory::BUFFERS.contains(buffer) {
            return CL_INVALID_MEM_OBJECT;
        }
        // SAFETY: `pattern_size` bytes, by the contract.
        let bytes =
            unsafe { std::slice::from_raw_parts(pattern.cast::<u8>(), pattern_size) }.to_vec();
        super::memory::BUFFERS.retain(buffer);
        let (q, b) = (queue as usize, buffer as usize);
        let run = Box::new(move || {
            let out = inner(|ev| {
                // SAFETY: the copied pattern; a live (retained) buffer.
                unsafe {
                    super::transfers::clEnqueueFillBuffer(
                        q as *mut c_void,
                        b as *mut c_void,
                        bytes.as_ptr().cast(),
                        bytes.len(),
                        offset,
                        size,
                        0,
                        std::ptr::null(),
                        ev,
                    )
                }
            });
            super::memory::BUFFERS.release(b as *mut c_void);
            out
        });
        // SAFETY: by the contract.
        unsafe { defer(queue, context, n, list, event, CL_COMMAND_FILL_BUFFER, run) };
        CL_SUCCESS
    })
}
