//! Buffers: `clCreateBuffer`, retain, release, `clGetMemObjectInfo`. A
//! buffer is an allocation of the driver on its context's device thread,
//! freed there at the last release.

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
}

impl Counted for Mem {
    fn references(&self) -> &AtomicU32 {
        &self.references
    }
}

impl Drop for Mem {
    fn drop(&mut self) {
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
    if flags & CL_MEM_USE_HOST_PTR != 0 {
        // The device's memory is the model's, not the host's: using the
        // application's memory needs copies at map and unmap, not there yet.
        eprintln!(
            "gpusim-opencl: CL_MEM_USE_HOST_PTR is not supported yet (use CL_MEM_COPY_HOST_PTR)"
        );
        return Err(CL_INVALID_VALUE);
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
            if flags & CL_MEM_COPY_HOST_PTR != 0 {
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
            CL_MEM_HOST_PTR | CL_MEM_ASSOCIATED_MEMOBJECT => Some(Info::Pointers(vec![0])),
            CL_MEM_MAP_COUNT => Some(Info::Uint(
                m.maps.lock().unwrap_or_else(|p| p.into_inner()).len() as cl_uint,
            )),
            CL_MEM_REFERENCE_COUNT => Some(Info::Uint(m.references.load(Ordering::Acquire))),
            CL_MEM_CONTEXT => Some(Info::Pointers(vec![m.context])),
            CL_MEM_OFFSET => Some(Info::Size(0)),
            _ => None,
        });
        let Some(value) = value else {
            return CL_INVALID_MEM_OBJECT;
        };
        // SAFETY: the caller's buffers, by the contract.
        unsafe { answer(value, param_value_size, param_value, param_value_size_ret) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(ok(CL_MEM_USE_HOST_PTR, 64, true), Err(CL_INVALID_VALUE));
    }
}
