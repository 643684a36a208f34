//! What the ICD tests share: the platform found as the loader finds it,
//! each entry point reached through the dispatch table a handle points
//! at, with its C signature (`CL/cl.h`), and the info readers.
// Each test file uses a part of it.
#![allow(dead_code)]

pub use std::ffi::{c_void, CStr};

pub use gpusim_opencl::api::{clGetExtensionFunctionAddress, clIcdGetPlatformIDsKHR};
pub use gpusim_opencl::cl::*;
pub use gpusim_opencl::icd::Dispatch;

pub type GetInfo =
    unsafe extern "C" fn(*mut c_void, cl_uint, usize, *mut c_void, *mut usize) -> cl_int;
pub type GetDeviceIds = unsafe extern "C" fn(
    *mut c_void,
    cl_device_type,
    cl_uint,
    *mut *mut c_void,
    *mut cl_uint,
) -> cl_int;
pub type CreateContext = unsafe extern "C" fn(
    *const cl_context_properties,
    cl_uint,
    *const *mut c_void,
    *const c_void,
    *mut c_void,
    *mut cl_int,
) -> *mut c_void;
pub type Release = unsafe extern "C" fn(*mut c_void) -> cl_int;

/// The entry `name` of the table `handle` points at, as the loader finds it.
pub fn entry<F: Copy>(handle: *mut c_void, name: &str) -> F {
    // SAFETY: every handle of this platform starts with its table.
    let table = unsafe { *(handle as *const &'static Dispatch) };
    let f = table.entry(name).expect("the table has every entry");
    assert!(!f.is_null());
    assert_eq!(
        std::mem::size_of::<F>(),
        std::mem::size_of::<*const c_void>()
    );
    // SAFETY: F is the entry's C signature (cl_icd.h).
    unsafe { std::mem::transmute_copy(&f) }
}

pub fn platform() -> *mut c_void {
    let f = unsafe { clGetExtensionFunctionAddress(c"clIcdGetPlatformIDsKHR".as_ptr()) };
    assert_eq!(f, clIcdGetPlatformIDsKHR as *mut c_void);
    let (mut p, mut n) = (std::ptr::null_mut(), 0);
    assert_eq!(
        unsafe { clIcdGetPlatformIDsKHR(1, &mut p, &mut n) },
        CL_SUCCESS
    );
    assert_eq!(n, 1);
    assert!(!p.is_null());
    p
}

pub fn string(f: GetInfo, handle: *mut c_void, param: cl_uint) -> String {
    let mut size = 0;
    assert_eq!(
        unsafe { f(handle, param, 0, std::ptr::null_mut(), &mut size) },
        CL_SUCCESS
    );
    let mut buf = vec![0u8; size];
    let r = unsafe {
        f(
            handle,
            param,
            size,
            buf.as_mut_ptr().cast(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS);
    CStr::from_bytes_with_nul(&buf)
        .expect("NUL-terminated")
        .to_str()
        .unwrap()
        .to_string()
}

pub fn scalar<T: Copy + Default>(f: GetInfo, handle: *mut c_void, param: cl_uint) -> T {
    let mut v = T::default();
    let size = std::mem::size_of::<T>();
    let r = unsafe {
        f(
            handle,
            param,
            size,
            (&mut v as *mut T).cast(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS, "param {param:#x}");
    v
}

pub fn device(p: *mut c_void) -> *mut c_void {
    let get: GetDeviceIds = entry(p, "clGetDeviceIDs");
    let (mut d, mut n) = (std::ptr::null_mut(), 0);
    assert_eq!(
        unsafe { get(p, CL_DEVICE_TYPE_GPU, 1, &mut d, &mut n) },
        CL_SUCCESS
    );
    assert_eq!(n, 1);
    d
}

pub type CreateQueue =
    unsafe extern "C" fn(*mut c_void, *mut c_void, cl_bitfield, *mut cl_int) -> *mut c_void;
pub type CreateBuffer =
    unsafe extern "C" fn(*mut c_void, cl_mem_flags, usize, *mut c_void, *mut cl_int) -> *mut c_void;
pub type Transfer = unsafe extern "C" fn(
    *mut c_void,
    *mut c_void,
    cl_bool,
    usize,
    usize,
    *mut c_void,
    cl_uint,
    *const *mut c_void,
    *mut *mut c_void,
) -> cl_int;

pub type CreateWithBinary = unsafe extern "C" fn(
    *mut c_void,
    cl_uint,
    *const *mut c_void,
    *const usize,
    *const *const u8,
    *mut cl_int,
    *mut cl_int,
) -> *mut c_void;
pub type Build = unsafe extern "C" fn(
    *mut c_void,
    cl_uint,
    *const *mut c_void,
    *const i8,
    *const c_void,
    *mut c_void,
) -> cl_int;
pub type CreateKernel = unsafe extern "C" fn(*mut c_void, *const i8, *mut cl_int) -> *mut c_void;
pub type SetArg = unsafe extern "C" fn(*mut c_void, cl_uint, usize, *const c_void) -> cl_int;
pub type NdRange = unsafe extern "C" fn(
    *mut c_void,
    *mut c_void,
    cl_uint,
    *const usize,
    *const usize,
    *const usize,
    cl_uint,
    *const *mut c_void,
    *mut *mut c_void,
) -> cl_int;

pub type CreateWithSource = unsafe extern "C" fn(
    *mut c_void,
    cl_uint,
    *const *const i8,
    *const usize,
    *mut cl_int,
) -> *mut c_void;
pub type BuildInfo = unsafe extern "C" fn(
    *mut c_void,
    *mut c_void,
    cl_uint,
    usize,
    *mut c_void,
    *mut usize,
) -> cl_int;

pub type Fill = unsafe extern "C" fn(
    *mut c_void,
    *mut c_void,
    *const c_void,
    usize,
    usize,
    usize,
    cl_uint,
    *const *mut c_void,
    *mut *mut c_void,
) -> cl_int;
pub type CopyBuffer = unsafe extern "C" fn(
    *mut c_void,
    *mut c_void,
    *mut c_void,
    usize,
    usize,
    usize,
    cl_uint,
    *const *mut c_void,
    *mut *mut c_void,
) -> cl_int;
pub type WorkGroupInfo = unsafe extern "C" fn(
    *mut c_void,
    *mut c_void,
    cl_uint,
    usize,
    *mut c_void,
    *mut usize,
) -> cl_int;

pub type Map = unsafe extern "C" fn(
    *mut c_void,
    *mut c_void,
    cl_bool,
    cl_map_flags,
    usize,
    usize,
    cl_uint,
    *const *mut c_void,
    *mut *mut c_void,
    *mut cl_int,
) -> *mut c_void;
pub type Unmap = unsafe extern "C" fn(
    *mut c_void,
    *mut c_void,
    *mut c_void,
    cl_uint,
    *const *mut c_void,
    *mut *mut c_void,
) -> cl_int;
