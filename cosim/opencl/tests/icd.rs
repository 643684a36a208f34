//! The platform as the ICD loader sees it: `clIcdGetPlatformIDsKHR` found
//! through `clGetExtensionFunctionAddress`, then every call through the
//! dispatch table the handles point at: platform, device, contexts, stubs.

mod common;
use common::*;
use gpusim_opencl::icd;

#[test]
fn the_loader_finds_the_platform_and_its_strings() {
    let p = platform();
    let info: GetInfo = entry(p, "clGetPlatformInfo");
    assert_eq!(string(info, p, CL_PLATFORM_NAME), "gpusim");
    assert_eq!(string(info, p, CL_PLATFORM_ICD_SUFFIX_KHR), "GPUSIM");
    assert!(string(info, p, CL_PLATFORM_EXTENSIONS).contains("cl_khr_icd"));
    assert!(string(info, p, CL_PLATFORM_VERSION).starts_with("OpenCL 1.2 "));
    // A parameter the platform does not have, and a foreign handle.
    let mut size = 0;
    let r = unsafe { info(p, 0x7777, 0, std::ptr::null_mut(), &mut size) };
    assert_eq!(r, CL_INVALID_VALUE);
    let mut other = 0u64;
    let r = unsafe {
        info(
            (&mut other as *mut u64).cast(),
            CL_PLATFORM_NAME,
            0,
            std::ptr::null_mut(),
            &mut size,
        )
    };
    assert_eq!(r, CL_INVALID_PLATFORM);
}

#[test]
fn the_device_reports_the_default_gpus_figures() {
    let p = platform();
    let d = device(p);
    let info: GetInfo = entry(d, "clGetDeviceInfo");
    let config = hw::GpuConfig::default_config();
    assert_eq!(string(info, d, CL_DEVICE_NAME), "gfx1030");
    assert_eq!(
        scalar::<cl_uint>(info, d, CL_DEVICE_MAX_COMPUTE_UNITS),
        config.cus
    );
    assert_eq!(
        scalar::<cl_ulong>(info, d, CL_DEVICE_TYPE),
        CL_DEVICE_TYPE_GPU
    );
    assert_eq!(
        scalar::<usize>(info, d, CL_DEVICE_MAX_WORK_GROUP_SIZE),
        1024
    );
    assert_eq!(
        scalar::<cl_ulong>(info, d, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE),
        u64::from(config.memory.l2.channels * config.memory.l2.size_bytes)
    );
    assert_eq!(scalar::<usize>(info, d, CL_DEVICE_PLATFORM), p as usize);
    let mut sizes = [0usize; 3];
    let r = unsafe {
        info(
            d,
            CL_DEVICE_MAX_WORK_ITEM_SIZES,
            24,
            sizes.as_mut_ptr().cast(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!((r, sizes), (CL_SUCCESS, [1024; 3]));
    // Doubles are claimed, with what OpenCL 1.2 requires of them (9.3);
    // PyOpenCL promotes `int / int` to float64 only then.
    let extensions = string(info, d, CL_DEVICE_EXTENSIONS);
    assert!(
        extensions.split(' ').any(|e| e == "cl_khr_fp64"),
        "{extensions}"
    );
    assert!(!extensions.contains("cl_khr_fp16"), "{extensions}");
    let fp64 = scalar::<cl_ulong>(info, d, CL_DEVICE_DOUBLE_FP_CONFIG);
    let required = CL_FP_FMA
        | CL_FP_ROUND_TO_NEAREST
        | CL_FP_ROUND_TO_ZERO
        | CL_FP_ROUND_TO_INF
        | CL_FP_INF_NAN
        | CL_FP_DENORM;
    assert_eq!(fp64 & required, required);
    assert_eq!(
        scalar::<cl_uint>(info, d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE),
        1
    );
    // Only a GPU is there; a device type that is no type is an error.
    let get: GetDeviceIds = entry(p, "clGetDeviceIDs");
    let mut n = 0;
    let r = unsafe { get(p, CL_DEVICE_TYPE_CPU, 0, std::ptr::null_mut(), &mut n) };
    assert_eq!(r, CL_DEVICE_NOT_FOUND);
    let r = unsafe { get(p, 1 << 40, 0, std::ptr::null_mut(), &mut n) };
    assert_eq!(r, CL_INVALID_DEVICE_TYPE);
}

#[test]
fn contexts_are_counted_and_stale_handles_refused() {
    let p = platform();
    let d = device(p);
    let create: CreateContext = entry(d, "clCreateContext");
    let props = [CL_CONTEXT_PLATFORM, p as cl_context_properties, 0];
    let mut err = 1;
    let c = unsafe {
        create(
            props.as_ptr(),
            1,
            &d,
            std::ptr::null(),
            std::ptr::null_mut(),
            &mut err,
        )
    };
    assert_eq!(err, CL_SUCCESS);
    assert!(!c.is_null());
    let info: GetInfo = entry(c, "clGetContextInfo");
    let retain: Release = entry(c, "clRetainContext");
    let release: Release = entry(c, "clReleaseContext");
    assert_eq!(unsafe { retain(c) }, CL_SUCCESS);
    assert_eq!(scalar::<cl_uint>(info, c, CL_CONTEXT_REFERENCE_COUNT), 2);
    assert_eq!(scalar::<usize>(info, c, CL_CONTEXT_DEVICES), d as usize);
    let mut got = [0isize; 3];
    let r = unsafe {
        info(
            c,
            CL_CONTEXT_PROPERTIES,
            24,
            got.as_mut_ptr().cast(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!((r, got), (CL_SUCCESS, props));
    assert_eq!(unsafe { release(c) }, CL_SUCCESS);
    assert_eq!(unsafe { release(c) }, CL_SUCCESS);
    // Freed: the handle is now refused, not followed.
    assert_eq!(unsafe { release(c) }, CL_INVALID_CONTEXT);
    let mut size = 0;
    let r = unsafe {
        info(
            c,
            CL_CONTEXT_REFERENCE_COUNT,
            0,
            std::ptr::null_mut(),
            &mut size,
        )
    };
    assert_eq!(r, CL_INVALID_CONTEXT);
    // Bad arguments are error codes.
    let bad_props = [0x7777isize, 1, 0];
    let c = unsafe {
        create(
            bad_props.as_ptr(),
            1,
            &d,
            std::ptr::null(),
            std::ptr::null_mut(),
            &mut err,
        )
    };
    assert_eq!((c, err), (std::ptr::null_mut(), CL_INVALID_PROPERTY));
    let stranger: *mut c_void = 8usize as *mut c_void;
    let c = unsafe {
        create(
            std::ptr::null(),
            1,
            &stranger,
            std::ptr::null(),
            std::ptr::null_mut(),
            &mut err,
        )
    };
    assert_eq!((c, err), (std::ptr::null_mut(), CL_INVALID_DEVICE));
}

/// A function the platform does not implement yet fails with an error code
/// (through a stub), never through a null entry.
#[test]
fn unimplemented_entries_are_stubs_that_fail() {
    let p = platform();
    type NoArgs = unsafe extern "C" fn() -> cl_int;
    // A stub takes no parameters, so calling it with none is sound.
    let unload: NoArgs = entry(p, "clEnqueueNativeKernel");
    assert!(icd::is_stub(unload as *const c_void));
    assert_eq!(unsafe { unload() }, CL_INVALID_OPERATION);
    // A stub for a function returning a handle writes its errcode_ret.
    type CloneKernel = unsafe extern "C" fn(*mut c_void, *mut cl_int) -> *mut c_void;
    let clone_kernel: CloneKernel = entry(p, "clCloneKernel");
    assert!(icd::is_stub(clone_kernel as *const c_void));
    let mut err = 12345;
    let e = unsafe { clone_kernel(std::ptr::null_mut(), &mut err) };
    assert_eq!((e, err), (std::ptr::null_mut(), CL_INVALID_OPERATION));
    type Image2d = unsafe extern "C" fn(
        *mut c_void,
        cl_bitfield,
        *const c_void,
        usize,
        usize,
        usize,
        *mut c_void,
        *mut cl_int,
    ) -> *mut c_void;
    let image: Image2d = entry(p, "clCreateImage2D");
    let mut err = 12345;
    let i = unsafe {
        image(
            std::ptr::null_mut(),
            0,
            std::ptr::null(),
            1,
            1,
            0,
            std::ptr::null_mut(),
            &mut err,
        )
    };
    assert_eq!((i, err), (std::ptr::null_mut(), CL_INVALID_OPERATION));
    for (name, _) in icd::TABLE {
        let f: *const c_void = entry(p, name);
        assert!(!f.is_null(), "{name}");
    }
}
