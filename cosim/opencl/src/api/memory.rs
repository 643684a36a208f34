//! Buffers: `clCreateBuffer`, retain, release, `clGetMemObjectInfo`,
//! `clSetMemObjectDestructorCallback`. A buffer is an allocation of the
//! driver on its context's device thread, freed there at the last release;
//! its destructor callbacks run after that, newest first.

#![allow(non_snake_case)]

use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use sw::driver::memory::Allocation;

use super::context::{device_thread, CONTEXTS};
use super::handles::{Counted, Registry};
use super::info::{answer, Info};
use super::platform::device;
use crate::cl::*;
use crate::core::worker::DeviceThread;

/// A buffer.
pub struct Mem {
    references: AtomicU32,
    /// The context (retained while the buffer lives).
    pub context: usize,
    /// The flags it was created with.
    pub flags: cl_mem_flags,
    /// Its device memory.
    pub allocation: Allocation,
    /// The device thread that owns that memory.
    pub device: Arc<DeviceThread>,
    /// Host copies of mapped ranges (`clEnqueueMapBuffer`), until unmapped.
    pub maps: std::sync::Mutex<Vec<Mapping>>,
    /// For a sub-buffer: its parent (retained while it lives) and its
    /// origin there; its allocation is a window of the parent's.
    pub parent: Option<(usize, usize)>,
    /// `CL_MEM_USE_HOST_PTR`: the application's memory this buffer mirrors
    /// (for a sub-buffer of such a buffer, the parent's at its origin); 0
    /// otherwise. See [`Mirror`].
    pub host_ptr: usize,
    /// `clSetMemObjectDestructorCallback`: the callbacks with the handle
    /// and user data each gets, in registration order.
    pub destructors: std::sync::Mutex<Vec<(MemCallback, usize, usize)>>,
}

/// The callback type of `clSetMemObjectDestructorCallback`.
pub type MemCallback = unsafe extern "C" fn(*mut c_void, *mut c_void);

/// A `CL_MEM_USE_HOST_PTR` buffer's two copies. The simulated GPU cannot
/// address the application's memory, so the buffer lives in device memory
/// and the application's memory is kept coherent with it: the host copy is
/// written to the device before every command that uses the buffer and read
/// back after one that may write it (writes, copies to it, fills, kernels;
/// `on_buffers` in `queue.rs`), and a map returns the
/// application's own pointer (`host_ptr + offset`, as the specification
/// requires) with the device's bytes in it. So the application's memory is
/// up to date whenever a command on the buffer has completed, which is at
/// least what the specification promises (after a map, or a blocking
/// command, or `clFinish`).
#[derive(Clone, Copy, Debug)]
pub struct Mirror {
    /// The device memory.
    pub allocation: Allocation,
    /// The application's memory, `allocation.size` bytes.
    pub host: usize,
}

impl Mirror {
    /// The mirror of the buffer `m`, if it uses a host pointer.
    pub fn from(m: &Mem) -> Option<Mirror> {
        (m.host_ptr != 0).then_some(Mirror {
            allocation: m.allocation,
            host: m.host_ptr,
        })
    }

    /// Application memory to device (on the device thread).
    pub fn push(&self, s: &mut cosim::session::Session) -> Result<(), String> {
        // SAFETY: the application gave `size` bytes at `host` for the
        // buffer's life and does not touch them while a command on the
        // buffer runs (its enqueue is still waiting for this thread).
        let bytes = unsafe {
            std::slice::from_raw_parts(self.host as *const u8, self.allocation.size as usize)
        };
        s.driver()
            .upload(self.allocation, 0, bytes)
            .map_err(|e| e.to_string())
    }

    /// Device memory to the application's (on the device thread).
    pub fn pull(&self, s: &mut cosim::session::Session) -> Result<(), String> {
        let bytes = s
            .driver()
            .download_range(self.allocation, 0, self.allocation.size)
            .map_err(|e| e.to_string())?;
        // SAFETY: as in `push`.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.host as *mut u8, bytes.len()) };
        Ok(())
    }
}

/// One mapped range: the host bytes the application got, where they come
/// from, and whether the unmap writes them back.
pub struct Mapping {
    /// The host copy (its address is the pointer returned).
    pub bytes: Box<[u8]>,
    /// Offset in the buffer.
    pub offset: usize,
    /// Mapped for writing.
    pub write: bool,
    /// For a `CL_MEM_USE_HOST_PTR` buffer: the application's own memory at
    /// the offset, returned instead of `bytes` (then empty).
    pub host: usize,
}

impl Mapping {
    /// The pointer the application got.
    pub fn pointer(&self) -> *const c_void {
        if self.host != 0 {
            self.host as *const c_void
        } else {
            self.bytes.as_ptr().cast()
        }
    }
}

impl Counted for Mem {
    fn references(&self) -> &AtomicU32 {
        &self.references
    }
}

impl Drop for Mem {
    fn drop(&mut self) {
        self.free();
        let callbacks = std::mem::take(
            self.destructors
                .get_mut()
                .unwrap_or_else(|e| e.into_inner()),
        );
        for (f, handle, user_data) in callbacks.into_iter().rev() {
            // SAFETY: the application's callback with the arguments it
            // registered, as the specification calls it: after the memory
            // is gone, newest first.
            unsafe { f(handle as *mut c_void, user_data as *mut c_void) };
        }
    }
}

impl Mem {
    /// Frees the memory (a sub-buffer: releases its parent) and the
    /// reference to the context.
    fn free(&mut self) {
        if let Some((parent, _)) = self.parent {
            // A window of the parent's memory: nothing to free but the
            // reference to the parent.
            // SAFETY: no pointer is followed; both retained at creation.
            unsafe {
                clReleaseMemObject(parent as *mut c_void);
                super::context::clReleaseContext(self.context as *mut c_void);
            }
            return;
        }
        let a = self.allocation;
        match self.device.call(move |s| s.driver().free(a)) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => eprintln!("gpusim-opencl: freeing a buffer: {e}"),
            Err(e) => eprintln!("gpusim-opencl: freeing a buffer: {e}"),
        }
        // SAFETY: no pointer is followed; the context was retained at creation.
        unsafe { super::context::clReleaseContext(self.context as *mut c_void) };
    }
}

/// The live buffers.
pub static BUFFERS: Registry<Mem> = Registry::new();

const ACCESS: cl_mem_flags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
const HOST_ACCESS: cl_mem_flags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
const KNOWN: cl_mem_flags =
    ACCESS | HOST_ACCESS | CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

/// The checks of `clCreateBuffer` that need no device: the flags, the
/// size (at most the device's largest allocation) and the host pointer.
pub fn check_buffer(
    flags: cl_mem_flags,
    size: usize,
    host_ptr_given: bool,
    max: u64,
) -> Result<(), cl_int> {
    let one_of = |set: cl_mem_flags| (flags & set).count_ones() <= 1;
    if flags & !KNOWN != 0
        || !one_of(ACCESS)
        || !one_of(HOST_ACCESS)
        || (flags & CL_MEM_USE_HOST_PTR != 0
            && flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0)
    {
        return Err(CL_INVALID_VALUE);
    }
    if size == 0 || size as u64 > max {
        return Err(CL_INVALID_BUFFER_SIZE);
    }
    let wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
    if wants_ptr != host_ptr_given {
        return Err(CL_INVALID_HOST_PTR);
    }
    Ok(())
}

/// `clCreateBuffer`.
pub(super) unsafe extern "C" fn clCreateBuffer(
    context: *mut c_void,
    flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    super::guard::handle("clCreateBuffer", errcode_ret, || {
        let result = (|| {
            if !CONTEXTS.contains(context) {
                return Err(CL_INVALID_CONTEXT);
            }
            let max = device().map_or(0, |d| d.body.figures.max_alloc_bytes);
            check_buffer(flags, size, !host_ptr.is_null(), max)?;
            let mut bytes = vec![0u8; size];
            if flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR) != 0 {
                // SAFETY: the host pointer holds `size` bytes, by the contract.
                unsafe {
                    std::ptr::copy_nonoverlapping(host_ptr.cast::<u8>(), bytes.as_mut_ptr(), size)
                };
            }
            let device = device_thread(context)?;
            let allocation = device
                .call(move |s| s.driver().create_buffer(&bytes))
                .map_err(|e| {
                    eprintln!("gpusim-opencl: {e}");
                    CL_OUT_OF_RESOURCES
                })?
                .map_err(|e| {
                    eprintln!("gpusim-opencl: allocating {size} bytes: {e}");
                    CL_OUT_OF_RESOURCES
                })?;
            // SAFETY: a live context (checked); released when the buffer is freed.
            unsafe { super::context::clRetainContext(context) };
            Ok(BUFFERS.insert(Mem {
                references: AtomicU32::new(1),
                context: context as usize,
                flags: if flags & ACCESS == 0 {
                    flags | CL_MEM_READ_WRITE
                } else {
                    flags
                },
                allocation,
                device,
                maps: std::sync::Mutex::new(Vec::new()),
                destructors: std::sync::Mutex::new(Vec::new()),
                parent: None,
                host_ptr: if flags & CL_MEM_USE_HOST_PTR != 0 {
                    host_ptr as usize
                } else {
                    0
                },
            }))
        })();
        super::context::finish(result, errcode_ret)
    })
}

/// The checks of `clCreateSubBuffer` that need no device: the flags against
/// the parent's (OpenCL 1.2, 5.2.1), the region, the alignment
/// (`align` bytes). The flags the sub-buffer gets: those given, the
/// parent's access, host-access and host-pointer flags where none is given.
pub fn check_sub_buffer(
    parent_flags: cl_mem_flags,
    parent_size: usize,
    flags: cl_mem_flags,
    origin: usize,
    size: usize,
    align: usize,
) -> Result<cl_mem_flags, cl_int> {
    let host_ptr_flags = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
    let one_of = |set: cl_mem_flags| (flags & set).count_ones() <= 1;
    if flags & !KNOWN != 0 || flags & host_ptr_flags != 0 || !one_of(ACCESS) || !one_of(HOST_ACCESS)
    {
        return Err(CL_INVALID_VALUE);
    }
    // A sub-buffer may not allow what its parent forbids.
    let device_writes = |f: cl_mem_flags| f & CL_MEM_READ_ONLY == 0;
    let device_reads = |f: cl_mem_flags| f & CL_MEM_WRITE_ONLY == 0;
    if (device_writes(flags) && flags & ACCESS != 0 && !device_writes(parent_flags))
        || (device_reads(flags) && flags & ACCESS != 0 && !device_reads(parent_flags))
    {
        return Err(CL_INVALID_VALUE);
    }
    let host_writes = |f: cl_mem_flags| f & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS) == 0;
    let host_reads = |f: cl_mem_flags| f & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS) == 0;
    if flags & HOST_ACCESS != 0
        && ((host_writes(flags) && !host_writes(parent_flags))
            || (host_reads(flags) && !host_reads(parent_flags)))
    {
        return Err(CL_INVALID_VALUE);
    }
    if size == 0 {
        return Err(CL_INVALID_BUFFER_SIZE);
    }
    if !origin
        .checked_add(size)
        .is_some_and(|end| end <= parent_size)
    {
        return Err(CL_INVALID_VALUE);
    }
    if origin % align != 0 {
        return Err(CL_MISALIGNED_SUB_BUFFER_OFFSET);
    }
    let mut out = flags;
    for set in [ACCESS, HOST_ACCESS] {
        if flags & set == 0 {
            out |= parent_flags & set;
        }
    }
    Ok(out | (parent_flags & host_ptr_flags))
}

/// `cl_buffer_region`.
#[repr(C)]
pub struct BufferRegion {
    origin: usize,
    size: usize,
}

/// `clCreateSubBuffer`: a window of a buffer's memory (region type only).
/// It shares the parent's device memory, so a kernel writing through one
/// sees the other's bytes; the driver's dispatch-time alias analysis (seed
/// 002) sees sub-buffers of one buffer as the regions they are.
pub(super) unsafe extern "C" fn clCreateSubBuffer(
    buffer: *mut c_void,
    flags: cl_mem_flags,
    create_type: cl_uint,
    info: *const c_void,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    super::guard::handle("clCreateSubBuffer", errcode_ret, || {
        let result = (|| {
            let Some(parent) = BUFFERS.with(buffer, |m| {
                (
                    m.parent,
                    m.flags,
                    m.allocation,
                    m.context,
                    m.device.clone(),
                    m.host_ptr,
                )
            }) else {
                return Err(CL_INVALID_MEM_OBJECT);
            };
            let (grand, parent_flags, allocation, context, thread, host_ptr) = parent;
            if grand.is_some() {
                return Err(CL_INVALID_MEM_OBJECT);
            }
            if create_type != CL_BUFFER_CREATE_TYPE_REGION || info.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            // SAFETY: a `cl_buffer_region`, by the contract.
            let region = unsafe { &*info.cast::<BufferRegion>() };
            let align = device().map_or(256, |d| d.body.figures.base_align_bits as usize / 8);
            let flags = check_sub_buffer(
                parent_flags,
                allocation.size as usize,
                flags,
                region.origin,
                region.size,
                align.max(1),
            )?;
            // SAFETY: a live buffer (checked); released when this one is freed.
            unsafe { clRetainMemObject(buffer) };
            // SAFETY: the context is live while its buffer is.
            unsafe { super::context::clRetainContext(context as *mut c_void) };
            Ok(BUFFERS.insert(Mem {
                references: AtomicU32::new(1),
                context,
                flags,
                allocation: Allocation {
                    address: allocation.address + region.origin as u64,
                    size: region.size as u64,
                },
                device: thread,
                maps: std::sync::Mutex::new(Vec::new()),
                destructors: std::sync::Mutex::new(Vec::new()),
                parent: Some((buffer as usize, region.origin)),
                host_ptr: if host_ptr == 0 {
                    0
                } else {
                    host_ptr + region.origin
                },
            }))
        })();
        super::context::finish(result, errcode_ret)
    })
}

/// `clRetainMemObject`.
pub(super) unsafe extern "C" fn clRetainMemObject(handle: *mut c_void) -> cl_int {
    super::guard::status("clRetainMemObject", || {
        if BUFFERS.retain(handle) {
            CL_SUCCESS
        } else {
            CL_INVALID_MEM_OBJECT
        }
    })
}

/// `clReleaseMemObject`: the last release frees the device memory.
pub(super) unsafe extern "C" fn clReleaseMemObject(handle: *mut c_void) -> cl_int {
    super::guard::status("clReleaseMemObject", || {
        if BUFFERS.release(handle) {
            CL_SUCCESS
        } else {
            CL_INVALID_MEM_OBJECT
        }
    })
}

/// `clGetMemObjectInfo`.
pub(super) unsafe extern "C" fn clGetMemObjectInfo(
    handle: *mut c_void,
    param_name: cl_mem_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    super::guard::status("clGetMemObjectInfo", || {
        let value = BUFFERS.with(handle, |m| match param_name {
            CL_MEM_TYPE => Some(Info::Uint(CL_MEM_OBJECT_BUFFER)),
            CL_MEM_FLAGS => Some(Info::Ulong(m.flags)),
            CL_MEM_SIZE => Some(Info::Size(m.allocation.size as usize)),
            CL_MEM_HOST_PTR => Some(Info::Pointers(vec![m.host_ptr])),
            CL_MEM_ASSOCIATED_MEMOBJECT => Some(Info::Pointers(vec![m.parent.map_or(0, |p| p.0)])),
            CL_MEM_MAP_COUNT => Some(Info::Uint(
                m.maps.lock().unwrap_or_else(|p| p.into_inner()).len() as cl_uint,
            )),
            CL_MEM_REFERENCE_COUNT => Some(Info::Uint(m.references.load(Ordering::Acquire))),
            CL_MEM_CONTEXT => Some(Info::Pointers(vec![m.context])),
            CL_MEM_OFFSET => Some(Info::Size(m.parent.map_or(0, |p| p.1))),
            _ => None,
        });
        let Some(value) = value else {
            return CL_INVALID_MEM_OBJECT;
        };
        // SAFETY: the caller's buffers, by the contract.
        unsafe { answer(value, param_value_size, param_value, param_value_size_ret) }
    })
}

/// `clSetMemObjectDestructorCallback`: `pfn_notify(memobj, user_data)`
/// after the buffer's last release has freed it.
pub(super) unsafe extern "C" fn clSetMemObjectDestructorCallback(
    memobj: *mut c_void,
    pfn_notify: Option<MemCallback>,
    user_data: *mut c_void,
) -> cl_int {
    super::guard::status("clSetMemObjectDestructorCallback", || {
        let Some(f) = pfn_notify else {
            return if BUFFERS.contains(memobj) {
                CL_INVALID_VALUE
            } else {
                CL_INVALID_MEM_OBJECT
            };
        };
        match BUFFERS.with(memobj, |m| {
            m.destructors
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((f, memobj as usize, user_data as usize))
        }) {
            Some(()) => CL_SUCCESS,
            None => CL_INVALID_MEM_OBJECT,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sub_buffer_arguments_are_checked() {
        let rw = CL_MEM_READ_WRITE;
        let ok =
            |parent, flags, origin, size| check_sub_buffer(parent, 1024, flags, origin, size, 256);
        assert_eq!(ok(rw, 0, 256, 256), Ok(rw));
        assert_eq!(ok(CL_MEM_READ_ONLY, 0, 0, 16), Ok(CL_MEM_READ_ONLY));
        assert_eq!(
            ok(CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, 0, 16),
            Err(CL_INVALID_VALUE)
        );
        assert_eq!(ok(CL_MEM_READ_ONLY, rw, 0, 16), Err(CL_INVALID_VALUE));
        assert_eq!(ok(rw, CL_MEM_READ_ONLY, 0, 16), Ok(CL_MEM_READ_ONLY));
        assert_eq!(
            ok(CL_MEM_HOST_NO_ACCESS | rw, CL_MEM_HOST_READ_ONLY, 0, 16),
            Err(CL_INVALID_VALUE)
        );
        assert_eq!(ok(rw, CL_MEM_COPY_HOST_PTR, 0, 16), Err(CL_INVALID_VALUE));
        assert_eq!(ok(rw, 0, 0, 0), Err(CL_INVALID_BUFFER_SIZE));
        assert_eq!(ok(rw, 0, 768, 512), Err(CL_INVALID_VALUE));
        assert_eq!(ok(rw, 0, 4, 16), Err(CL_MISALIGNED_SUB_BUFFER_OFFSET));
        assert_eq!(
            ok(rw | CL_MEM_USE_HOST_PTR, 0, 0, 16),
            Ok(rw | CL_MEM_USE_HOST_PTR)
        );
    }

    #[test]
    fn buffer_arguments_are_checked() {
        let ok = |f, size, ptr| check_buffer(f, size, ptr, 1 << 20);
        assert_eq!(ok(CL_MEM_READ_WRITE, 64, false), Ok(()));
        assert_eq!(
            ok(CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY, 64, true),
            Ok(())
        );
        assert_eq!(
            ok(CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, false),
            Err(CL_INVALID_VALUE)
        );
        assert_eq!(ok(1 << 30, 64, false), Err(CL_INVALID_VALUE));
        assert_eq!(ok(0, 0, false), Err(CL_INVALID_BUFFER_SIZE));
        assert_eq!(ok(0, (1 << 20) + 1, false), Err(CL_INVALID_BUFFER_SIZE));
        assert_eq!(
            ok(CL_MEM_COPY_HOST_PTR, 64, false),
            Err(CL_INVALID_HOST_PTR)
        );
        assert_eq!(ok(0, 64, true), Err(CL_INVALID_HOST_PTR));
        assert_eq!(ok(CL_MEM_USE_HOST_PTR, 64, true), Ok(()));
        assert_eq!(ok(CL_MEM_USE_HOST_PTR, 64, false), Err(CL_INVALID_HOST_PTR));
    }
}
