//! The buffer commands as they run on the device: `clEnqueueWriteBuffer`,
//! `clEnqueueReadBuffer`, `clEnqueueCopyBuffer`, `clEnqueueFillBuffer`,
//! `clEnqueueMapBuffer`, `clEnqueueUnmapMemObject`. Each runs before it
//! returns; the entry points the application calls defer them first when
//! they must wait ([`super::deferrable`], [`super::deferrable_maps`]).

#![allow(non_snake_case)]

use std::ffi::c_void;

use super::context::finish;
use super::deferred::check_wait_list;
use super::event::new_event;
use super::memory::{Mirror, BUFFERS};
use super::queue::QUEUES;
use crate::cl::*;

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
    let Some((context, device)) = QUEUES.with(queue, |q| (q.context(), q.device())) else {
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
        let (_, write, invalidate) = match map_flags(buffer, flags) {
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

/// A map's flags checked, against the buffer's host access too:
/// `(read, write, invalidate)`.
pub(super) fn map_flags(
    buffer: *mut c_void,
    flags: cl_map_flags,
) -> Result<(bool, bool, bool), cl_int> {
    let known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    let invalidate = flags & CL_MAP_WRITE_INVALIDATE_REGION != 0;
    if flags & !known != 0 || (invalidate && flags & (CL_MAP_READ | CL_MAP_WRITE) != 0) {
        return Err(CL_INVALID_VALUE);
    }
    let write = flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0;
    let read = flags & CL_MAP_READ != 0;
    match BUFFERS.with(buffer, |m| m.flags) {
        Some(f) if (read && !host_may(f, false)) || (write && !host_may(f, true)) => {
            Err(CL_INVALID_OPERATION)
        }
        _ => Ok((read, write, invalidate)),
    }
}
