//! The C entry points: argument checks, handles, and the `clGet*Info`
//! answers; what they answer comes from `core`. Only the three functions an
//! ICD loader looks up by name are exported from the library; the loader
//! reaches the others through the dispatch table (`icd`), so they never
//! interpose on another vendor's symbols.

use std::ffi::{c_char, c_void, CStr};

use crate::cl::*;

mod context;
mod deferrable;
mod deferrable_maps;
mod deferred;
mod event;
mod events;
pub mod guard;
mod handles;
pub mod info;
mod launch;
mod link;
mod memory;
mod platform;
mod program;
mod query;
mod queue;
mod rect;
mod transfers;

/// The platform's handle (the dispatch table filled first).
pub fn platform_handle() -> *const c_void {
    crate::icd::install(implemented);
    platform::platform_handle()
}

/// The device's handle, null if the settings are wrong (the dispatch table
/// filled first).
pub fn device_handle() -> *const c_void {
    crate::icd::install(implemented);
    platform::device_handle()
}
pub use program::build_cache_stats;

/// The address of the entry point called `name`, if this platform
/// implements it (the dispatch table's resolver).
pub fn implemented(name: &str) -> Option<*const c_void> {
    let f: *const c_void = match name {
        "clGetPlatformIDs" => platform::clGetPlatformIDs as *const c_void,
        "clGetPlatformInfo" => platform::clGetPlatformInfo as *const c_void,
        "clGetDeviceIDs" => platform::clGetDeviceIDs as *const c_void,
        "clGetDeviceInfo" => platform::clGetDeviceInfo as *const c_void,
        "clRetainDevice" => platform::clRetainDevice as *const c_void,
        "clReleaseDevice" => platform::clReleaseDevice as *const c_void,
        "clCreateContext" => context::clCreateContext as *const c_void,
        "clCreateContextFromType" => context::clCreateContextFromType as *const c_void,
        "clRetainContext" => context::clRetainContext as *const c_void,
        "clReleaseContext" => context::clReleaseContext as *const c_void,
        "clGetContextInfo" => context::clGetContextInfo as *const c_void,
        "clCreateCommandQueue" => queue::clCreateCommandQueue as *const c_void,
        "clCreateCommandQueueWithProperties" => {
            queue::clCreateCommandQueueWithProperties as *const c_void
        }
        "clRetainCommandQueue" => queue::clRetainCommandQueue as *const c_void,
        "clReleaseCommandQueue" => queue::clReleaseCommandQueue as *const c_void,
        "clGetCommandQueueInfo" => queue::clGetCommandQueueInfo as *const c_void,
        "clFlush" => queue::clFlush as *const c_void,
        "clFinish" => deferred::clFinish as *const c_void,
        "clEnqueueWriteBuffer" => deferrable::clEnqueueWriteBuffer as *const c_void,
        "clEnqueueReadBuffer" => deferrable::clEnqueueReadBuffer as *const c_void,
        "clEnqueueCopyBuffer" => deferrable::clEnqueueCopyBuffer as *const c_void,
        "clEnqueueReadBufferRect" => deferrable_maps::clEnqueueReadBufferRect as *const c_void,
        "clEnqueueWriteBufferRect" => deferrable_maps::clEnqueueWriteBufferRect as *const c_void,
        "clEnqueueCopyBufferRect" => deferrable_maps::clEnqueueCopyBufferRect as *const c_void,
        "clEnqueueFillBuffer" => deferrable::clEnqueueFillBuffer as *const c_void,
        "clEnqueueMapBuffer" => deferrable_maps::clEnqueueMapBuffer as *const c_void,
        "clEnqueueUnmapMemObject" => deferrable_maps::clEnqueueUnmapMemObject as *const c_void,
        "clWaitForEvents" => deferred::clWaitForEvents as *const c_void,
        "clEnqueueMarkerWithWaitList" => events::clEnqueueMarkerWithWaitList as *const c_void,
        "clEnqueueBarrierWithWaitList" => events::clEnqueueBarrierWithWaitList as *const c_void,
        "clEnqueueMarker" => events::clEnqueueMarker as *const c_void,
        "clEnqueueBarrier" => events::clEnqueueBarrier as *const c_void,
        "clEnqueueWaitForEvents" => events::clEnqueueWaitForEvents as *const c_void,
        "clEnqueueTask" => events::clEnqueueTask as *const c_void,
        "clSetEventCallback" => deferred::clSetEventCallback as *const c_void,
        "clRetainEvent" => event::clRetainEvent as *const c_void,
        "clReleaseEvent" => event::clReleaseEvent as *const c_void,
        "clGetEventInfo" => event::clGetEventInfo as *const c_void,
        "clCreateUserEvent" => deferred::clCreateUserEvent as *const c_void,
        "clSetUserEventStatus" => deferred::clSetUserEventStatus as *const c_void,
        "clGetEventProfilingInfo" => event::clGetEventProfilingInfo as *const c_void,
        "clCreateBuffer" => memory::clCreateBuffer as *const c_void,
        "clCreateSubBuffer" => memory::clCreateSubBuffer as *const c_void,
        "clCreateProgramWithBinary" => program::clCreateProgramWithBinary as *const c_void,
        "clBuildProgram" => program::clBuildProgram as *const c_void,
        "clCompileProgram" => link::clCompileProgram as *const c_void,
        "clLinkProgram" => link::clLinkProgram as *const c_void,
        "clCreateProgramWithSource" => program::clCreateProgramWithSource as *const c_void,
        "clGetProgramBuildInfo" => program::clGetProgramBuildInfo as *const c_void,
        "clRetainProgram" => program::clRetainProgram as *const c_void,
        "clReleaseProgram" => program::clReleaseProgram as *const c_void,
        "clCreateKernel" => program::clCreateKernel as *const c_void,
        "clCreateKernelsInProgram" => program::clCreateKernelsInProgram as *const c_void,
        "clEnqueueMigrateMemObjects" => events::clEnqueueMigrateMemObjects as *const c_void,
        "clUnloadPlatformCompiler" => events::clUnloadPlatformCompiler as *const c_void,
        "clUnloadCompiler" => events::clUnloadCompiler as *const c_void,
        "clGetProgramInfo" => query::clGetProgramInfo as *const c_void,
        "clGetKernelInfo" => query::clGetKernelInfo as *const c_void,
        "clGetKernelWorkGroupInfo" => query::clGetKernelWorkGroupInfo as *const c_void,
        "clGetKernelArgInfo" => query::clGetKernelArgInfo as *const c_void,
        "clRetainKernel" => program::clRetainKernel as *const c_void,
        "clReleaseKernel" => program::clReleaseKernel as *const c_void,
        "clSetKernelArg" => program::clSetKernelArg as *const c_void,
        "clEnqueueNDRangeKernel" => deferrable::clEnqueueNDRangeKernel as *const c_void,
        "clRetainMemObject" => memory::clRetainMemObject as *const c_void,
        "clReleaseMemObject" => memory::clReleaseMemObject as *const c_void,
        "clGetMemObjectInfo" => memory::clGetMemObjectInfo as *const c_void,
        "clSetMemObjectDestructorCallback" => {
            memory::clSetMemObjectDestructorCallback as *const c_void
        }
        "clGetExtensionFunctionAddress" => clGetExtensionFunctionAddress as *const c_void,
        "clGetExtensionFunctionAddressForPlatform" => {
            clGetExtensionFunctionAddressForPlatform as *const c_void
        }
        _ => return None,
    };
    Some(f)
}

/// `clIcdGetPlatformIDsKHR` (cl_khr_icd): the platforms of this library,
/// with `clGetPlatformIDs`'s contract. The loader calls it first.
///
/// # Safety
/// `platforms` must be null or valid for `num_entries` handles, and
/// `num_platforms` null or valid for one `cl_uint`.
#[no_mangle]
pub unsafe extern "C" fn clIcdGetPlatformIDsKHR(
    num_entries: cl_uint,
    platforms: *mut *mut c_void,
    num_platforms: *mut cl_uint,
) -> cl_int {
    crate::icd::install(implemented);
    guard::status("clIcdGetPlatformIDsKHR", || {
        // SAFETY: the same contract.
        unsafe { platform::clGetPlatformIDs(num_entries, platforms, num_platforms) }
    })
}

/// `clGetExtensionFunctionAddress`: the extension functions of this
/// platform by name: `clIcdGetPlatformIDsKHR` so far; also
/// `clGetPlatformInfo`, which ocl-icd looks up this way (or as an exported
/// symbol) to check `cl_khr_icd` before it trusts the dispatch table. Null
/// for any other name.
///
/// # Safety
/// `func_name` must be null or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn clGetExtensionFunctionAddress(func_name: *const c_char) -> *mut c_void {
    crate::icd::install(implemented);
    guard::handle(
        "clGetExtensionFunctionAddress",
        std::ptr::null_mut(),
        || {
            if func_name.is_null() {
                return std::ptr::null_mut();
            }
            // SAFETY: a NUL-terminated string, by the contract.
            let name = unsafe { CStr::from_ptr(func_name) };
            match name.to_bytes() {
                b"clIcdGetPlatformIDsKHR" => clIcdGetPlatformIDsKHR as *mut c_void,
                b"clGetPlatformInfo" => platform::clGetPlatformInfo as *mut c_void,
                _ => std::ptr::null_mut(),
            }
        },
    )
}

/// `clGetExtensionFunctionAddressForPlatform`: as
/// [`clGetExtensionFunctionAddress`], for this platform only.
///
/// # Safety
/// `func_name` must be null or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn clGetExtensionFunctionAddressForPlatform(
    platform: *mut c_void,
    func_name: *const c_char,
) -> *mut c_void {
    guard::handle(
        "clGetExtensionFunctionAddressForPlatform",
        std::ptr::null_mut(),
        || {
            if platform.cast_const() != platform_handle() {
                return std::ptr::null_mut();
            }
            // SAFETY: the same contract.
            unsafe { clGetExtensionFunctionAddress(func_name) }
        },
    )
}
