//! The platform as the ICD loader sees it: `clIcdGetPlatformIDsKHR` found
//! through `clGetExtensionFunctionAddress`, then every call through the
//! dispatch table the handles point at.

use std::ffi::{c_void, CStr};

use gpusim_opencl::api::{clGetExtensionFunctionAddress, clIcdGetPlatformIDsKHR};
use gpusim_opencl::cl::*;
use gpusim_opencl::icd::{self, Dispatch};

type GetInfo = unsafe extern "C" fn(*mut c_void, cl_uint, usize, *mut c_void, *mut usize) -> cl_int;
type GetDeviceIds = unsafe extern "C" fn(
    *mut c_void,
    cl_device_type,
    cl_uint,
    *mut *mut c_void,
    *mut cl_uint,
) -> cl_int;
type CreateContext = unsafe extern "C" fn(
    *const cl_context_properties,
    cl_uint,
    *const *mut c_void,
    *const c_void,
    *mut c_void,
    *mut cl_int,
) -> *mut c_void;
type Release = unsafe extern "C" fn(*mut c_void) -> cl_int;

/// The entry `name` of the table `handle` points at, as the loader finds it.
fn entry<F: Copy>(handle: *mut c_void, name: &str) -> F {
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

fn platform() -> *mut c_void {
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

fn string(f: GetInfo, handle: *mut c_void, param: cl_uint) -> String {
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

fn scalar<T: Copy + Default>(f: GetInfo, handle: *mut c_void, param: cl_uint) -> T {
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

fn device(p: *mut c_void) -> *mut c_void {
    let get: GetDeviceIds = entry(p, "clGetDeviceIDs");
    let (mut d, mut n) = (std::ptr::null_mut(), 0);
    assert_eq!(
        unsafe { get(p, CL_DEVICE_TYPE_GPU, 1, &mut d, &mut n) },
        CL_SUCCESS
    );
    assert_eq!(n, 1);
    d
}

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
    let unload: NoArgs = entry(p, "clUnloadCompiler");
    assert!(icd::is_stub(unload as *const c_void));
    assert_eq!(unsafe { unload() }, CL_INVALID_OPERATION);
    for (name, _) in icd::TABLE {
        let f: *const c_void = entry(p, name);
        assert!(!f.is_null(), "{name}");
    }
}

type CreateQueue =
    unsafe extern "C" fn(*mut c_void, *mut c_void, cl_bitfield, *mut cl_int) -> *mut c_void;
type CreateBuffer =
    unsafe extern "C" fn(*mut c_void, cl_mem_flags, usize, *mut c_void, *mut cl_int) -> *mut c_void;
type Transfer = unsafe extern "C" fn(
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

/// A buffer made from host bytes, partly overwritten, reads back through
/// the simulated device's memory; the events are complete; every handle is
/// refused once released.
#[test]
fn buffers_round_trip_through_a_queue() {
    let p = platform();
    let d = device(p);
    let create: CreateContext = entry(d, "clCreateContext");
    let mut err = 1;
    let c = unsafe {
        create(
            std::ptr::null(),
            1,
            &d,
            std::ptr::null(),
            std::ptr::null_mut(),
            &mut err,
        )
    };
    assert_eq!(err, CL_SUCCESS);
    let create_queue: CreateQueue = entry(c, "clCreateCommandQueue");
    let q = unsafe { create_queue(c, d, 0, &mut err) };
    assert_eq!(err, CL_SUCCESS);
    let profiling = unsafe { create_queue(c, d, 1 << 1, &mut err) };
    assert_eq!(
        (profiling, err),
        (std::ptr::null_mut(), CL_INVALID_QUEUE_PROPERTIES)
    );
    let create_buffer: CreateBuffer = entry(c, "clCreateBuffer");
    let mut host: Vec<u32> = (0..256).collect();
    let size = host.len() * 4;
    let b = unsafe {
        create_buffer(
            c,
            CL_MEM_COPY_HOST_PTR,
            size,
            host.as_mut_ptr().cast(),
            &mut err,
        )
    };
    assert_eq!(err, CL_SUCCESS);
    let write: Transfer = entry(q, "clEnqueueWriteBuffer");
    let read: Transfer = entry(q, "clEnqueueReadBuffer");
    let mut patch = [0xdead_beefu32, 7];
    let mut ev = std::ptr::null_mut();
    let r = unsafe {
        write(
            q,
            b,
            CL_TRUE,
            8,
            8,
            patch.as_mut_ptr().cast(),
            0,
            std::ptr::null(),
            &mut ev,
        )
    };
    assert_eq!(r, CL_SUCCESS);
    let event_info: GetInfo = entry(ev, "clGetEventInfo");
    assert_eq!(
        scalar::<cl_uint>(event_info, ev, CL_EVENT_COMMAND_TYPE),
        CL_COMMAND_WRITE_BUFFER
    );
    assert_eq!(
        scalar::<cl_int>(event_info, ev, CL_EVENT_COMMAND_EXECUTION_STATUS),
        CL_COMPLETE
    );
    let mut back = vec![0u32; 256];
    let r = unsafe {
        read(
            q,
            b,
            CL_TRUE,
            0,
            size,
            back.as_mut_ptr().cast(),
            1,
            &ev,
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS);
    host[2] = 0xdead_beef;
    host[3] = 7;
    assert_eq!(back, host);
    // Past the end, a null pointer, a wait list without events: refused.
    let r = unsafe {
        read(
            q,
            b,
            CL_TRUE,
            4,
            size,
            back.as_mut_ptr().cast(),
            0,
            std::ptr::null(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r, CL_INVALID_VALUE);
    let r = unsafe {
        read(
            q,
            b,
            CL_TRUE,
            0,
            4,
            std::ptr::null_mut(),
            0,
            std::ptr::null(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r, CL_INVALID_VALUE);
    let r = unsafe {
        read(
            q,
            b,
            CL_TRUE,
            0,
            4,
            back.as_mut_ptr().cast(),
            1,
            std::ptr::null(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r, CL_INVALID_EVENT_WAIT_LIST);
    let mem_info: GetInfo = entry(b, "clGetMemObjectInfo");
    assert_eq!(scalar::<usize>(mem_info, b, CL_MEM_SIZE), size);
    assert_eq!(scalar::<usize>(mem_info, b, CL_MEM_CONTEXT), c as usize);
    let finish: Release = entry(q, "clFinish");
    assert_eq!(unsafe { finish(q) }, CL_SUCCESS);
    for (handle, name, stale) in [
        (ev, "clReleaseEvent", CL_INVALID_EVENT),
        (b, "clReleaseMemObject", CL_INVALID_MEM_OBJECT),
        (q, "clReleaseCommandQueue", CL_INVALID_COMMAND_QUEUE),
        (c, "clReleaseContext", CL_INVALID_CONTEXT),
    ] {
        let release: Release = entry(handle, name);
        assert_eq!(unsafe { release(handle) }, CL_SUCCESS, "{name}");
        assert_eq!(unsafe { release(handle) }, stale, "{name} twice");
    }
}

type CreateWithBinary = unsafe extern "C" fn(
    *mut c_void,
    cl_uint,
    *const *mut c_void,
    *const usize,
    *const *const u8,
    *mut cl_int,
    *mut cl_int,
) -> *mut c_void;
type Build = unsafe extern "C" fn(
    *mut c_void,
    cl_uint,
    *const *mut c_void,
    *const i8,
    *const c_void,
    *mut c_void,
) -> cl_int;
type CreateKernel = unsafe extern "C" fn(*mut c_void, *const i8, *mut cl_int) -> *mut c_void;
type SetArg = unsafe extern "C" fn(*mut c_void, cl_uint, usize, *const c_void) -> cl_int;
type NdRange = unsafe extern "C" fn(
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

/// The corpus's saxpy, prebuilt by clang-19 for gfx1030, runs on the
/// simulated GPU through the API: y = 2x + 1 for 1000 elements (a grid of
/// 1024, the last work-items guarded by n).
#[test]
fn saxpy_from_a_binary_runs_on_the_simulated_gpu() {
    let code = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/kernels/prebuilt/gfx1030/saxpy.hsaco"),
    )
    .expect("the prebuilt corpus object");
    let p = platform();
    let d = device(p);
    let create: CreateContext = entry(d, "clCreateContext");
    let mut err = 1;
    let c = unsafe {
        create(
            std::ptr::null(),
            1,
            &d,
            std::ptr::null(),
            std::ptr::null_mut(),
            &mut err,
        )
    };
    assert_eq!(err, CL_SUCCESS);
    let q = unsafe { entry::<CreateQueue>(c, "clCreateCommandQueue")(c, d, 0, &mut err) };
    assert_eq!(err, CL_SUCCESS);
    let with_binary: CreateWithBinary = entry(c, "clCreateProgramWithBinary");
    let (len, ptr) = (code.len(), code.as_ptr());
    let mut status = 1;
    let prog = unsafe { with_binary(c, 1, &d, &len, &ptr, &mut status, &mut err) };
    assert_eq!((err, status), (CL_SUCCESS, CL_SUCCESS));
    let junk = [0u8; 64];
    let junk_ptr = junk.as_ptr();
    let bad = unsafe { with_binary(c, 1, &d, &junk.len(), &junk_ptr, &mut status, &mut err) };
    assert_eq!(
        (bad, err, status),
        (std::ptr::null_mut(), CL_INVALID_BINARY, CL_INVALID_BINARY)
    );
    let build: Build = entry(prog, "clBuildProgram");
    assert_eq!(
        unsafe {
            build(
                prog,
                1,
                &d,
                std::ptr::null(),
                std::ptr::null(),
                std::ptr::null_mut(),
            )
        },
        CL_SUCCESS
    );
    let create_kernel: CreateKernel = entry(prog, "clCreateKernel");
    let missing = unsafe { create_kernel(prog, c"nope".as_ptr(), &mut err) };
    assert_eq!(
        (missing, err),
        (std::ptr::null_mut(), CL_INVALID_KERNEL_NAME)
    );
    let k = unsafe { create_kernel(prog, c"saxpy".as_ptr(), &mut err) };
    assert_eq!(err, CL_SUCCESS);

    let n = 1000usize;
    let mut x: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let mut y = vec![1.0f32; n];
    let create_buffer: CreateBuffer = entry(c, "clCreateBuffer");
    let bx = unsafe {
        create_buffer(
            c,
            CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY,
            n * 4,
            x.as_mut_ptr().cast(),
            &mut err,
        )
    };
    assert_eq!(err, CL_SUCCESS);
    let by = unsafe {
        create_buffer(
            c,
            CL_MEM_COPY_HOST_PTR,
            n * 4,
            y.as_mut_ptr().cast(),
            &mut err,
        )
    };
    assert_eq!(err, CL_SUCCESS);
    let set: SetArg = entry(k, "clSetKernelArg");
    let ndrange: NdRange = entry(q, "clEnqueueNDRangeKernel");
    let global = 1024usize;
    let local = 64usize;
    // Not every argument is set yet.
    let r = unsafe {
        ndrange(
            q,
            k,
            1,
            std::ptr::null(),
            &global,
            &local,
            0,
            std::ptr::null(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r, CL_INVALID_KERNEL_ARGS);
    let (nn, a) = (n as u32, 2.0f32);
    assert_eq!(
        unsafe { set(k, 0, 4, (&nn as *const u32).cast()) },
        CL_SUCCESS
    );
    assert_eq!(
        unsafe { set(k, 1, 4, (&a as *const f32).cast()) },
        CL_SUCCESS
    );
    assert_eq!(
        unsafe { set(k, 2, 8, (&bx as *const *mut c_void).cast()) },
        CL_SUCCESS
    );
    assert_eq!(
        unsafe { set(k, 3, 8, (&by as *const *mut c_void).cast()) },
        CL_SUCCESS
    );
    assert_eq!(
        unsafe { set(k, 4, 8, (&by as *const *mut c_void).cast()) },
        CL_INVALID_ARG_INDEX
    );
    assert_eq!(
        unsafe { set(k, 1, 8, (&a as *const f32).cast()) },
        CL_INVALID_ARG_SIZE
    );
    let bad_local = 48usize;
    let r = unsafe {
        ndrange(
            q,
            k,
            1,
            std::ptr::null(),
            &global,
            &bad_local,
            0,
            std::ptr::null(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(
        r, CL_INVALID_WORK_GROUP_SIZE,
        "1024 is not a multiple of 48"
    );
    let mut ev = std::ptr::null_mut();
    let r = unsafe {
        ndrange(
            q,
            k,
            1,
            std::ptr::null(),
            &global,
            &local,
            0,
            std::ptr::null(),
            &mut ev,
        )
    };
    assert_eq!(r, CL_SUCCESS);
    let event_info: GetInfo = entry(ev, "clGetEventInfo");
    assert_eq!(
        scalar::<cl_uint>(event_info, ev, CL_EVENT_COMMAND_TYPE),
        CL_COMMAND_NDRANGE_KERNEL
    );
    let read: Transfer = entry(q, "clEnqueueReadBuffer");
    let mut back = vec![0f32; n];
    let r = unsafe {
        read(
            q,
            by,
            CL_TRUE,
            0,
            n * 4,
            back.as_mut_ptr().cast(),
            0,
            std::ptr::null(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS);
    let want: Vec<f32> = (0..n).map(|i| 2.0 * i as f32 + 1.0).collect();
    assert_eq!(back, want);
    for (handle, name) in [
        (ev, "clReleaseEvent"),
        (k, "clReleaseKernel"),
        (prog, "clReleaseProgram"),
        (bx, "clReleaseMemObject"),
        (by, "clReleaseMemObject"),
        (q, "clReleaseCommandQueue"),
        (c, "clReleaseContext"),
    ] {
        let release: Release = entry(handle, name);
        assert_eq!(unsafe { release(handle) }, CL_SUCCESS, "{name}");
    }
}

type CreateWithSource = unsafe extern "C" fn(
    *mut c_void,
    cl_uint,
    *const *const i8,
    *const usize,
    *mut cl_int,
) -> *mut c_void;
type BuildInfo = unsafe extern "C" fn(
    *mut c_void,
    *mut c_void,
    cl_uint,
    usize,
    *mut c_void,
    *mut usize,
) -> cl_int;

/// OpenCL C source built by gpusim's compiler runs on the simulated GPU; a
/// source with an error fails to build and the log says where.
#[test]
fn source_programs_are_built_by_gpusims_compiler() {
    let p = platform();
    let d = device(p);
    let create: CreateContext = entry(d, "clCreateContext");
    let mut err = 1;
    let c = unsafe {
        create(
            std::ptr::null(),
            1,
            &d,
            std::ptr::null(),
            std::ptr::null_mut(),
            &mut err,
        )
    };
    assert_eq!(err, CL_SUCCESS);
    let q = unsafe { entry::<CreateQueue>(c, "clCreateCommandQueue")(c, d, 0, &mut err) };
    let with_source: CreateWithSource = entry(c, "clCreateProgramWithSource");
    let build: Build = entry(c, "clBuildProgram");
    let build_info: BuildInfo = entry(c, "clGetProgramBuildInfo");
    let create_kernel: CreateKernel = entry(c, "clCreateKernel");

    let bad = c"__kernel void k(__global int *p) { p[0] = undeclared; }";
    let prog = unsafe { with_source(c, 1, &bad.as_ptr(), std::ptr::null(), &mut err) };
    assert_eq!(err, CL_SUCCESS);
    let k = unsafe { create_kernel(prog, c"k".as_ptr(), &mut err) };
    assert_eq!(
        (k, err),
        (std::ptr::null_mut(), CL_INVALID_PROGRAM_EXECUTABLE),
        "not built yet"
    );
    let r = unsafe {
        build(
            prog,
            1,
            &d,
            std::ptr::null(),
            std::ptr::null(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r, CL_BUILD_PROGRAM_FAILURE);
    let mut size = 0;
    assert_eq!(
        unsafe {
            build_info(
                prog,
                d,
                CL_PROGRAM_BUILD_LOG,
                0,
                std::ptr::null_mut(),
                &mut size,
            )
        },
        CL_SUCCESS
    );
    let mut log = vec![0u8; size];
    let r = unsafe {
        build_info(
            prog,
            d,
            CL_PROGRAM_BUILD_LOG,
            size,
            log.as_mut_ptr().cast(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS);
    let log = String::from_utf8_lossy(&log);
    assert!(
        log.contains("program.cl:1:") && log.contains("undeclared"),
        "{log}"
    );
    let r = unsafe {
        build(
            prog,
            0,
            std::ptr::null(),
            c"-O9".as_ptr(),
            std::ptr::null(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r, CL_INVALID_BUILD_OPTIONS);

    let good = c"__kernel void axpb(__global float *y, float a, float b, uint n) {
        uint i = get_global_id(0);
        if (i < n) y[i] = a * y[i] + SHIFT + b;
    }";
    let prog = unsafe { with_source(c, 1, &good.as_ptr(), std::ptr::null(), &mut err) };
    let r = unsafe {
        build(
            prog,
            1,
            &d,
            c"-D SHIFT=1.0f -cl-fast-relaxed-math".as_ptr(),
            std::ptr::null(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS);
    let k = unsafe { create_kernel(prog, c"axpb".as_ptr(), &mut err) };
    assert_eq!(err, CL_SUCCESS);
    let n = 300usize;
    let mut y: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let buf = unsafe {
        entry::<CreateBuffer>(c, "clCreateBuffer")(
            c,
            CL_MEM_COPY_HOST_PTR,
            n * 4,
            y.as_mut_ptr().cast(),
            &mut err,
        )
    };
    assert_eq!(err, CL_SUCCESS);
    let set: SetArg = entry(k, "clSetKernelArg");
    let (a, b, nn) = (3.0f32, 0.5f32, n as u32);
    assert_eq!(
        unsafe { set(k, 0, 8, (&buf as *const *mut c_void).cast()) },
        CL_SUCCESS
    );
    assert_eq!(
        unsafe { set(k, 1, 4, (&a as *const f32).cast()) },
        CL_SUCCESS
    );
    assert_eq!(
        unsafe { set(k, 2, 4, (&b as *const f32).cast()) },
        CL_SUCCESS
    );
    assert_eq!(
        unsafe { set(k, 3, 4, (&nn as *const u32).cast()) },
        CL_SUCCESS
    );
    let global = 320usize;
    let r = unsafe {
        entry::<NdRange>(q, "clEnqueueNDRangeKernel")(
            q,
            k,
            1,
            std::ptr::null(),
            &global,
            std::ptr::null(),
            0,
            std::ptr::null(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS);
    let mut back = vec![0f32; n];
    let r = unsafe {
        entry::<Transfer>(q, "clEnqueueReadBuffer")(
            q,
            buf,
            CL_TRUE,
            0,
            n * 4,
            back.as_mut_ptr().cast(),
            0,
            std::ptr::null(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS);
    let want: Vec<f32> = (0..n).map(|i| 3.0 * i as f32 + 1.0 + 0.5).collect();
    assert_eq!(back, want);
    for (handle, name) in [
        (k, "clReleaseKernel"),
        (prog, "clReleaseProgram"),
        (buf, "clReleaseMemObject"),
        (q, "clReleaseCommandQueue"),
        (c, "clReleaseContext"),
    ] {
        assert_eq!(
            unsafe { entry::<Release>(handle, name)(handle) },
            CL_SUCCESS,
            "{name}"
        );
    }
}

type Fill = unsafe extern "C" fn(
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
type CopyBuffer = unsafe extern "C" fn(
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
type WorkGroupInfo = unsafe extern "C" fn(
    *mut c_void,
    *mut c_void,
    cl_uint,
    usize,
    *mut c_void,
    *mut usize,
) -> cl_int;

/// Fills and copies run on the device's memory; the program and kernel
/// queries answer from the code object's metadata.
#[test]
fn fills_copies_and_queries() {
    let p = platform();
    let d = device(p);
    let mut err = 1;
    let c = unsafe {
        entry::<CreateContext>(d, "clCreateContext")(
            std::ptr::null(),
            1,
            &d,
            std::ptr::null(),
            std::ptr::null_mut(),
            &mut err,
        )
    };
    let q = unsafe { entry::<CreateQueue>(c, "clCreateCommandQueue")(c, d, 0, &mut err) };
    let create_buffer: CreateBuffer = entry(c, "clCreateBuffer");
    let a = unsafe { create_buffer(c, 0, 64, std::ptr::null_mut(), &mut err) };
    let b = unsafe { create_buffer(c, 0, 64, std::ptr::null_mut(), &mut err) };
    assert_eq!(err, CL_SUCCESS);
    let fill: Fill = entry(q, "clEnqueueFillBuffer");
    let copy: CopyBuffer = entry(q, "clEnqueueCopyBuffer");
    let seven = 7u32;
    let r = unsafe {
        fill(
            q,
            a,
            (&seven as *const u32).cast(),
            4,
            8,
            32,
            0,
            std::ptr::null(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS);
    let r = unsafe {
        fill(
            q,
            a,
            (&seven as *const u32).cast(),
            4,
            2,
            32,
            0,
            std::ptr::null(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(
        r, CL_INVALID_VALUE,
        "the offset is not a multiple of the pattern"
    );
    let r = unsafe { copy(q, a, b, 8, 0, 16, 0, std::ptr::null(), std::ptr::null_mut()) };
    assert_eq!(r, CL_SUCCESS);
    let r = unsafe { copy(q, a, a, 0, 8, 16, 0, std::ptr::null(), std::ptr::null_mut()) };
    assert_eq!(r, CL_MEM_COPY_OVERLAP);
    let mut back = [0u32; 16];
    let r = unsafe {
        entry::<Transfer>(q, "clEnqueueReadBuffer")(
            q,
            b,
            CL_TRUE,
            0,
            64,
            back.as_mut_ptr().cast(),
            0,
            std::ptr::null(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS);
    assert_eq!(back, [7, 7, 7, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);

    let src = c"__kernel void one(__global int *p) { p[get_global_id(0)] = 1; }
                __kernel void two(__global int *p, int v) { p[get_global_id(0)] = v; }";
    let prog = unsafe {
        entry::<CreateWithSource>(c, "clCreateProgramWithSource")(
            c,
            1,
            &src.as_ptr(),
            std::ptr::null(),
            &mut err,
        )
    };
    let r = unsafe {
        entry::<Build>(prog, "clBuildProgram")(
            prog,
            0,
            std::ptr::null(),
            std::ptr::null(),
            std::ptr::null(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS);
    let program_info: GetInfo = entry(prog, "clGetProgramInfo");
    assert_eq!(
        string(program_info, prog, CL_PROGRAM_KERNEL_NAMES),
        "one;two"
    );
    assert_eq!(
        scalar::<usize>(program_info, prog, CL_PROGRAM_NUM_KERNELS),
        2
    );
    let k =
        unsafe { entry::<CreateKernel>(prog, "clCreateKernel")(prog, c"two".as_ptr(), &mut err) };
    assert_eq!(err, CL_SUCCESS);
    let kernel_info: GetInfo = entry(k, "clGetKernelInfo");
    assert_eq!(string(kernel_info, k, CL_KERNEL_FUNCTION_NAME), "two");
    assert_eq!(scalar::<cl_uint>(kernel_info, k, CL_KERNEL_NUM_ARGS), 2);
    assert_eq!(
        scalar::<usize>(kernel_info, k, CL_KERNEL_PROGRAM),
        prog as usize
    );
    let wg: WorkGroupInfo = entry(k, "clGetKernelWorkGroupInfo");
    let mut size = 0usize;
    let r = unsafe {
        wg(
            k,
            d,
            CL_KERNEL_WORK_GROUP_SIZE,
            8,
            (&mut size as *mut usize).cast(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS);
    assert!((1..=1024).contains(&size), "{size}");
    let mut multiple = 0usize;
    let r = unsafe {
        wg(
            k,
            d,
            CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
            8,
            (&mut multiple as *mut usize).cast(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!((r, multiple), (CL_SUCCESS, 32), "gfx1030 wave32");
}

type Map = unsafe extern "C" fn(
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
type Unmap = unsafe extern "C" fn(
    *mut c_void,
    *mut c_void,
    *mut c_void,
    cl_uint,
    *const *mut c_void,
    *mut *mut c_void,
) -> cl_int;

/// A range mapped for writing reaches the device at the unmap; one mapped
/// for reading shows the device's bytes.
#[test]
fn maps_write_back_at_the_unmap() {
    let p = platform();
    let d = device(p);
    let mut err = 1;
    let c = unsafe {
        entry::<CreateContext>(d, "clCreateContext")(
            std::ptr::null(),
            1,
            &d,
            std::ptr::null(),
            std::ptr::null_mut(),
            &mut err,
        )
    };
    let q = unsafe { entry::<CreateQueue>(c, "clCreateCommandQueue")(c, d, 0, &mut err) };
    let b = unsafe {
        entry::<CreateBuffer>(c, "clCreateBuffer")(c, 0, 32, std::ptr::null_mut(), &mut err)
    };
    assert_eq!(err, CL_SUCCESS);
    let map: Map = entry(q, "clEnqueueMapBuffer");
    let unmap: Unmap = entry(q, "clEnqueueUnmapMemObject");
    let w = unsafe {
        map(
            q,
            b,
            CL_TRUE,
            CL_MAP_WRITE_INVALIDATE_REGION,
            8,
            16,
            0,
            std::ptr::null(),
            std::ptr::null_mut(),
            &mut err,
        )
    };
    assert_eq!(err, CL_SUCCESS);
    assert_eq!(
        scalar::<cl_uint>(entry(b, "clGetMemObjectInfo"), b, CL_MEM_MAP_COUNT),
        1
    );
    unsafe { std::slice::from_raw_parts_mut(w.cast::<u8>(), 16) }.copy_from_slice(&[5; 16]);
    assert_eq!(
        unsafe { unmap(q, b, w, 0, std::ptr::null(), std::ptr::null_mut()) },
        CL_SUCCESS
    );
    assert_eq!(
        unsafe { unmap(q, b, w, 0, std::ptr::null(), std::ptr::null_mut()) },
        CL_INVALID_VALUE,
        "not mapped any more"
    );
    let r = unsafe {
        map(
            q,
            b,
            CL_TRUE,
            CL_MAP_READ,
            0,
            32,
            0,
            std::ptr::null(),
            std::ptr::null_mut(),
            &mut err,
        )
    };
    assert_eq!(err, CL_SUCCESS);
    let seen = unsafe { std::slice::from_raw_parts(r.cast::<u8>(), 32) }.to_vec();
    let mut want = vec![0u8; 32];
    want[8..24].fill(5);
    assert_eq!(seen, want);
    assert_eq!(
        unsafe { unmap(q, b, r, 0, std::ptr::null(), std::ptr::null_mut()) },
        CL_SUCCESS
    );
    let bad = unsafe {
        map(
            q,
            b,
            CL_TRUE,
            CL_MAP_READ,
            16,
            32,
            0,
            std::ptr::null(),
            std::ptr::null_mut(),
            &mut err,
        )
    };
    assert_eq!(
        (bad, err),
        (std::ptr::null_mut(), CL_INVALID_VALUE),
        "past the end"
    );
}

/// A built program's binary (what PyOpenCL caches) makes an equivalent
/// program.
#[test]
fn a_built_programs_binary_loads_again() {
    let p = platform();
    let d = device(p);
    let mut err = 1;
    let c = unsafe {
        entry::<CreateContext>(d, "clCreateContext")(
            std::ptr::null(),
            1,
            &d,
            std::ptr::null(),
            std::ptr::null_mut(),
            &mut err,
        )
    };
    let src = c"__kernel void z(__global int *p) { p[get_global_id(0)] = 0; }";
    let prog = unsafe {
        entry::<CreateWithSource>(c, "clCreateProgramWithSource")(
            c,
            1,
            &src.as_ptr(),
            std::ptr::null(),
            &mut err,
        )
    };
    let info: GetInfo = entry(prog, "clGetProgramInfo");
    assert_eq!(
        scalar::<usize>(info, prog, CL_PROGRAM_BINARY_SIZES),
        0,
        "not built yet"
    );
    let r = unsafe {
        entry::<Build>(prog, "clBuildProgram")(
            prog,
            0,
            std::ptr::null(),
            std::ptr::null(),
            std::ptr::null(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS);
    let size = scalar::<usize>(info, prog, CL_PROGRAM_BINARY_SIZES);
    assert!(size > 0);
    let mut binary = vec![0u8; size];
    let mut slot = binary.as_mut_ptr();
    let r = unsafe {
        info(
            prog,
            CL_PROGRAM_BINARIES,
            8,
            (&mut slot as *mut *mut u8).cast(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS);
    assert_eq!(&binary[..4], b"\x7fELF");
    let (len, ptr) = (binary.len(), binary.as_ptr());
    let again = unsafe {
        entry::<CreateWithBinary>(c, "clCreateProgramWithBinary")(
            c,
            1,
            &d,
            &len,
            &ptr,
            std::ptr::null_mut(),
            &mut err,
        )
    };
    assert_eq!(err, CL_SUCCESS);
    let k =
        unsafe { entry::<CreateKernel>(again, "clCreateKernel")(again, c"z".as_ptr(), &mut err) };
    assert!(!k.is_null() && err == CL_SUCCESS);
}
