//! Rectangular transfers, maps and unmaps that can wait for a user event
//! ([`super::deferred`]), as [`super::deferrable`] does for the other
//! commands: each runs its command at once when nothing is to be waited
//! for, else defers a call of the immediate entry point, without the wait
//! list, to the moment its turn comes. What the caller may change after the
//! call returns (origins, regions) is copied first; a map registers its
//! host copy at the enqueue, so the pointer is returned at once and its
//! bytes arrive when the command runs (the specification: the pointer may be
//! used once the map's event is complete).

#![allow(non_snake_case)]

use std::ffi::c_void;

use super::context::finish;
use super::deferrable::{deferring, inner};
use super::deferred::{defer, wait_blocking};
use super::memory::{Mapping, BUFFERS};
use super::transfers::map_flags;
use crate::cl::*;

/// An immediate entry point's call with the wait list and event given.
type Now = Box<dyn Fn(cl_uint, *const *mut c_void, *mut *mut c_void) -> cl_int + Send>;

/// Runs `now` with the wait list when nothing is to be waited for; else
/// checks what a deferred command could no longer report (`check`) and
/// defers it, called without one, with `buffers` retained until it has run;
/// a blocking command waits for it (`name` says which in a timeout).
///
/// # Safety
/// `list` must be null or valid for `n` handles, `event` null or valid for
/// one.
#[allow(clippy::too_many_arguments)]
unsafe fn now_or_deferred(
    name: &str,
    queue: *mut c_void,
    n: cl_uint,
    list: *const *mut c_void,
    event: *mut *mut c_void,
    command: cl_uint,
    buffers: &[*mut c_void],
    blocking: bool,
    check: impl FnOnce() -> Result<(), cl_int>,
    now: Now,
) -> cl_int {
    // SAFETY: by the contract.
    let context = match unsafe { deferring(queue, n, list) } {
        Ok(None) => return now(n, list, event),
        Err(e) => return e,
        Ok(Some(c)) => c,
    };
    if let Err(e) = check() {
        return e;
    }
    if !buffers.iter().all(|&b| BUFFERS.contains(b)) {
        return CL_INVALID_MEM_OBJECT;
    }
    let held: Vec<usize> = buffers.iter().map(|&b| b as usize).collect();
    for &b in &held {
        BUFFERS.retain(b as *const c_void);
    }
    let run = Box::new(move || {
        let out = inner(|ev| now(0, std::ptr::null(), ev));
        for &b in &held {
            BUFFERS.release(b as *mut c_void);
        }
        out
    });
    // SAFETY: by the contract.
    let e = unsafe { defer(queue, context, n, list, event, command, run) };
    if blocking {
        if let Err(err) = wait_blocking(name, e) {
            return err;
        }
    }
    CL_SUCCESS
}

/// A copy of an origin or region argument (three `size_t`), or `None` for
/// a null pointer (the immediate entry point then answers
/// `CL_INVALID_VALUE`).
///
/// # Safety
/// `p` must be null or valid for three values.
unsafe fn three(p: *const usize) -> Option<[usize; 3]> {
    // SAFETY: by the contract.
    (!p.is_null()).then(|| unsafe { [*p, *p.add(1), *p.add(2)] })
}

/// The pointer to pass for a copy made by [`three`].
fn at(v: &Option<[usize; 3]>) -> *const usize {
    v.as_ref().map_or(std::ptr::null(), |v| v.as_ptr())
}

/// `clEnqueueReadBufferRect` and `clEnqueueWriteBufferRect`, deferrable.
#[allow(clippy::too_many_arguments)]
unsafe fn host_rect(
    write: bool,
    queue: *mut c_void,
    buffer: *mut c_void,
    blocking: cl_bool,
    origins: [*const usize; 3],
    pitches: [usize; 4],
    ptr: usize,
    n: cl_uint,
    list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    // SAFETY: three values each, by the contract.
    let [bo, ho, region] = origins.map(|p| unsafe { three(p) });
    let (q, b) = (queue as usize, buffer as usize);
    let now: Now = Box::new(move |n, list, ev| {
        let (queue, buffer) = (q as *mut c_void, b as *mut c_void);
        let [brp, bsp, hrp, hsp] = pitches;
        // SAFETY: the caller's contract; copies of its origins and region.
        unsafe {
            if write {
                super::rect::clEnqueueWriteBufferRect(
                    queue,
                    buffer,
                    CL_TRUE,
                    at(&bo),
                    at(&ho),
                    at(&region),
                    brp,
                    bsp,
                    hrp,
                    hsp,
                    ptr as *const c_void,
                    n,
                    list,
                    ev,
                )
            } else {
                super::rect::clEnqueueReadBufferRect(
                    queue,
                    buffer,
                    CL_TRUE,
                    at(&bo),
                    at(&ho),
                    at(&region),
                    brp,
                    bsp,
                    hrp,
                    hsp,
                    ptr as *mut c_void,
                    n,
                    list,
                    ev,
                )
            }
        }
    });
    let (name, command) = if write {
        ("clEnqueueWriteBufferRect", CL_COMMAND_WRITE_BUFFER_RECT)
    } else {
        ("clEnqueueReadBufferRect", CL_COMMAND_READ_BUFFER_RECT)
    };
    // A deferred command cannot report its geometry errors any more: check
    // what can be checked now.
    let complete = [bo, ho, region].iter().all(Option::is_some) && ptr != 0;
    // SAFETY: by the contract.
    unsafe {
        now_or_deferred(
            name,
            queue,
            n,
            list,
            event,
            command,
            &[buffer],
            blocking != 0,
            || complete.then_some(()).ok_or(CL_INVALID_VALUE),
            now,
        )
    }
}

/// `clEnqueueReadBufferRect`, deferrable.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn clEnqueueReadBufferRect(
    queue: *mut c_void,
    buffer: *mut c_void,
    blocking: cl_bool,
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    buffer_row_pitch: usize,
    buffer_slice_pitch: usize,
    host_row_pitch: usize,
    host_slice_pitch: usize,
    ptr: *mut c_void,
    n: cl_uint,
    list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    super::guard::status("clEnqueueReadBufferRect", || {
        let pitches = [
            buffer_row_pitch,
            buffer_slice_pitch,
            host_row_pitch,
            host_slice_pitch,
        ];
        // SAFETY: the same contract.
        unsafe {
            host_rect(
                false,
                queue,
                buffer,
                blocking,
                [buffer_origin, host_origin, region],
                pitches,
                ptr as usize,
                n,
                list,
                event,
            )
        }
    })
}

/// `clEnqueueWriteBufferRect`, deferrable.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn clEnqueueWriteBufferRect(
    queue: *mut c_void,
    buffer: *mut c_void,
    blocking: cl_bool,
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    buffer_row_pitch: usize,
    buffer_slice_pitch: usize,
    host_row_pitch: usize,
    host_slice_pitch: usize,
    ptr: *const c_void,
    n: cl_uint,
    list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    super::guard::status("clEnqueueWriteBufferRect", || {
        let pitches = [
            buffer_row_pitch,
            buffer_slice_pitch,
            host_row_pitch,
            host_slice_pitch,
        ];
        // SAFETY: the same contract.
        unsafe {
            host_rect(
                true,
                queue,
                buffer,
                blocking,
                [buffer_origin, host_origin, region],
                pitches,
                ptr as usize,
                n,
                list,
                event,
            )
        }
    })
}

/// `clEnqueueCopyBufferRect`, deferrable.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn clEnqueueCopyBufferRect(
    queue: *mut c_void,
    src: *mut c_void,
    dst: *mut c_void,
    src_origin: *const usize,
    dst_origin: *const usize,
    region: *const usize,
    src_row_pitch: usize,
    src_slice_pitch: usize,
    dst_row_pitch: usize,
    dst_slice_pitch: usize,
    n: cl_uint,
    list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    super::guard::status("clEnqueueCopyBufferRect", || {
        // SAFETY: three values each, by the contract.
        let [so, d_o, r] = [src_origin, dst_origin, region].map(|p| unsafe { three(p) });
        let complete = [so, d_o, r].iter().all(Option::is_some);
        let (q, s, d) = (queue as usize, src as usize, dst as usize);
        let now: Now = Box::new(move |n, list, ev| {
            // SAFETY: the caller's contract; copies of its origins and region.
            unsafe {
                super::rect::clEnqueueCopyBufferRect(
                    q as *mut c_void,
                    s as *mut c_void,
                    d as *mut c_void,
                    at(&so),
                    at(&d_o),
                    at(&r),
                    src_row_pitch,
                    src_slice_pitch,
                    dst_row_pitch,
                    dst_slice_pitch,
                    n,
                    list,
                    ev,
                )
            }
        });
        // SAFETY: by the contract.
        unsafe {
            now_or_deferred(
                "clEnqueueCopyBufferRect",
                queue,
                n,
                list,
                event,
                CL_COMMAND_COPY_BUFFER_RECT,
                &[src, dst],
                false,
                || complete.then_some(()).ok_or(CL_INVALID_VALUE),
                now,
            )
        }
    })
}

/// `clEnqueueMapBuffer`, deferrable: the host copy is registered (and its
/// pointer returned) now, its bytes read from the device when the command
/// runs; a blocking map waits for that.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn clEnqueueMapBuffer(
    queue: *mut c_void,
    buffer: *mut c_void,
    blocking: cl_bool,
    flags: cl_map_flags,
    offset: usize,
    size: usize,
    n: cl_uint,
    list: *const *mut c_void,
    event: *mut *mut c_void,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    super::guard::handle("clEnqueueMapBuffer", errcode_ret, || {
        // SAFETY: by the contract.
        let context = match unsafe { deferring(queue, n, list) } {
            Ok(None) => {
                // SAFETY: the same contract.
                return unsafe {
                    super::transfers::clEnqueueMapBuffer(
                        queue,
                        buffer,
                        blocking,
                        flags,
                        offset,
                        size,
                        n,
                        list,
                        event,
                        errcode_ret,
                    )
                };
            }
            Err(e) => return finish(Err(e), errcode_ret),
            Ok(Some(c)) => c,
        };
        let (_, write, invalidate) = match map_flags(buffer, flags) {
            Ok(f) => f,
            Err(e) => return finish(Err(e), errcode_ret),
        };
        let registered = BUFFERS.with(buffer, |m| {
            if m.context != context {
                return Err(CL_INVALID_CONTEXT);
            }
            if size == 0
                || offset
                    .checked_add(size)
                    .map_or(true, |e| e as u64 > m.allocation.size)
            {
                return Err(CL_INVALID_VALUE);
            }
            let host = if m.host_ptr != 0 {
                m.host_ptr + offset
            } else {
                0
            };
            let bytes = vec![0; if host != 0 { 0 } else { size }].into_boxed_slice();
            let mut maps = m.maps.lock().unwrap_or_else(|p| p.into_inner());
            maps.push(Mapping {
                bytes,
                offset,
                write,
                host,
            });
            Ok(maps.last().map_or(0, |mp| mp.pointer() as usize))
        });
        let pointer = match registered {
            None => return finish(Err(CL_INVALID_MEM_OBJECT), errcode_ret),
            Some(Err(e)) => return finish(Err(e), errcode_ret),
            Some(Ok(p)) => p,
        };
        BUFFERS.retain(buffer);
        let (q, b) = (queue as usize, buffer as usize);
        let run = Box::new(move || {
            let out = inner(|ev| {
                // SAFETY: live (retained) handles, no wait list.
                unsafe {
                    fill_mapping(
                        q as *mut c_void,
                        b as *mut c_void,
                        pointer,
                        offset,
                        size,
                        invalidate,
                        ev,
                    )
                }
            });
            BUFFERS.release(b as *mut c_void);
            out
        });
        // SAFETY: by the contract.
        let e = unsafe { defer(queue, context, n, list, event, CL_COMMAND_MAP_BUFFER, run) };
        if blocking != 0 {
            if let Err(err) = wait_blocking("clEnqueueMapBuffer", e) {
                return finish(Err(err), errcode_ret);
            }
        }
        finish(Ok(pointer as *mut c_void), errcode_ret)
    })
}

/// `clEnqueueUnmapMemObject`, deferrable: the mapping must exist at the
/// enqueue (a deferred map's does); it is written back when the command
/// runs.
pub(super) unsafe extern "C" fn clEnqueueUnmapMemObject(
    queue: *mut c_void,
    buffer: *mut c_void,
    mapped: *mut c_void,
    n: cl_uint,
    list: *const *mut c_void,
    event: *mut *mut c_void,
) -> cl_int {
    super::guard::status("clEnqueueUnmapMemObject", || {
        let (q, b, p) = (queue as usize, buffer as usize, mapped as usize);
        let now: Now = Box::new(move |n, list, ev| {
            // SAFETY: the caller's contract.
            unsafe {
                super::transfers::clEnqueueUnmapMemObject(
                    q as *mut c_void,
                    b as *mut c_void,
                    p as *mut c_void,
                    n,
                    list,
                    ev,
                )
            }
        });
        // The mapping must exist at the enqueue (a deferred map's does).
        let mapping_known = || {
            let known = BUFFERS.with(buffer, |m| {
                let maps = m.maps.lock().unwrap_or_else(|e| e.into_inner());
                maps.iter().any(|mp| mp.pointer() == mapped.cast_const())
            });
            match known {
                None => Err(CL_INVALID_MEM_OBJECT),
                Some(false) => Err(CL_INVALID_VALUE),
                Some(true) => Ok(()),
            }
        };
        // SAFETY: by the contract.
        unsafe {
            now_or_deferred(
                "clEnqueueUnmapMemObject",
                queue,
                n,
                list,
                event,
                CL_COMMAND_UNMAP_MEM_OBJECT,
                &[buffer],
                false,
                mapping_known,
                now,
            )
        }
    })
}

/// The bytes of a deferred map, when it runs: the range read from the
/// device into the host copy registered at the enqueue (found by its
/// `pointer`; nothing to read for a host-pointer buffer, whose mirror keeps
/// the application's memory current, or an invalidating map).
///
/// # Safety
/// `event` null or valid for one handle.
pub(super) unsafe fn fill_mapping(
    queue: *mut c_void,
    buffer: *mut c_void,
    pointer: usize,
    offset: usize,
    size: usize,
    invalidate: bool,
    event: *mut *mut c_void,
) -> cl_int {
    let mirrored = BUFFERS.with(buffer, |m| m.host_ptr != 0).unwrap_or(false);
    let got = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = got.clone();
    let read = move |s: &mut cosim::session::Session, a: Vec<sw::driver::memory::Allocation>| {
        if !(mirrored || invalidate) {
            *sink.lock().unwrap_or_else(|p| p.into_inner()) = s
                .driver()
                .download_range(a[0], offset as u64, size as u64)
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    };
    // SAFETY: by the contract.
    let r = unsafe {
        super::transfers::on_buffers(
            queue,
            &[(buffer, false)],
            0,
            std::ptr::null(),
            event,
            CL_COMMAND_MAP_BUFFER,
            |_| Ok(()),
            read,
        )
    };
    let bytes = std::mem::take(&mut *got.lock().unwrap_or_else(|p| p.into_inner()));
    if r == CL_SUCCESS && !bytes.is_empty() {
        BUFFERS.with(buffer, |m| {
            let mut maps = m.maps.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(mp) = maps.iter_mut().find(|mp| mp.pointer() as usize == pointer) {
                mp.bytes.copy_from_slice(&bytes);
            }
        });
    }
    r
}
