//! Programs and kernels through the dispatch table: code objects, sources
//! built by gpusim's compiler, binaries, dispatches on the simulated GPU.

mod common;
use common::*;

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
    let c = context(d);
    let mut err = 1;
    let q = queue(c, d);
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

/// OpenCL C source built by gpusim's compiler runs on the simulated GPU; a
/// source with an error fails to build and the log says where.
#[test]
fn source_programs_are_built_by_gpusims_compiler() {
    let p = platform();
    let d = device(p);
    let c = context(d);
    let mut err = 1;
    let q = queue(c, d);
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
    let r = ndrange(q, k, global);
    assert_eq!(r, CL_SUCCESS);
    let mut back = vec![0f32; n];
    let r = read_into(q, buf, 0, &mut back, std::ptr::null_mut());
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

/// A built program's binary (what PyOpenCL caches) makes an equivalent
/// program.
#[test]
fn a_built_programs_binary_loads_again() {
    let p = platform();
    let d = device(p);
    let c = context(d);
    let mut err = 1;
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

/// A gfx803 (GCN3) code object, prebuilt by clang-19 from the corpus's
/// saxpy, through `clCreateProgramWithBinary`: the driver translates it at
/// load time (seed 003) and it runs on the simulated gfx1030; the program's
/// binary is the one given.
#[test]
fn a_gfx803_binary_runs_through_create_program_with_binary() {
    let code = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/kernels/prebuilt/gfx803/saxpy.hsaco"),
    )
    .expect("the prebuilt gfx803 object");
    assert_eq!(&code[..4], b"\x7fELF");
    let p = platform();
    let d = device(p);
    let c = context(d);
    let mut err = 1;
    let q = queue(c, d);
    let (len, ptr) = (code.len(), code.as_ptr());
    let mut status = 1;
    let prog = unsafe {
        entry::<CreateWithBinary>(c, "clCreateProgramWithBinary")(
            c,
            1,
            &d,
            &len,
            &ptr,
            &mut status,
            &mut err,
        )
    };
    assert_eq!((err, status), (CL_SUCCESS, CL_SUCCESS));
    let info: GetInfo = entry(prog, "clGetProgramInfo");
    assert_eq!(
        scalar::<usize>(info, prog, CL_PROGRAM_BINARY_SIZES),
        code.len()
    );
    let k =
        unsafe { entry::<CreateKernel>(prog, "clCreateKernel")(prog, c"saxpy".as_ptr(), &mut err) };
    assert_eq!(err, CL_SUCCESS);
    let n = 1000usize;
    let mut x: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let mut y = vec![1.0f32; n];
    let create_buffer: CreateBuffer = entry(c, "clCreateBuffer");
    let bx = unsafe {
        create_buffer(
            c,
            CL_MEM_COPY_HOST_PTR,
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
    let (nn, a) = (n as u32, 2.0f32);
    unsafe {
        assert_eq!(set(k, 0, 4, (&nn as *const u32).cast()), CL_SUCCESS);
        assert_eq!(set(k, 1, 4, (&a as *const f32).cast()), CL_SUCCESS);
        assert_eq!(set(k, 2, 8, (&bx as *const *mut c_void).cast()), CL_SUCCESS);
        assert_eq!(set(k, 3, 8, (&by as *const *mut c_void).cast()), CL_SUCCESS);
    }
    let global = 1024usize;
    let r = ndrange(q, k, global);
    assert_eq!(r, CL_SUCCESS);
    let mut out = vec![0f32; n];
    let r = read_into(q, by, 0, &mut out, std::ptr::null_mut());
    assert_eq!(r, CL_SUCCESS);
    // Small integers: exact whether the multiply-add is fused or not.
    let want: Vec<f32> = (0..n).map(|i| 2.0 * i as f32 + 1.0).collect();
    assert_eq!(out, want);
    for (h, name) in [
        (k, "clReleaseKernel"),
        (prog, "clReleaseProgram"),
        (bx, "clReleaseMemObject"),
        (by, "clReleaseMemObject"),
        (q, "clReleaseCommandQueue"),
        (c, "clReleaseContext"),
    ] {
        assert_eq!(
            unsafe { entry::<Release>(h, name)(h) },
            CL_SUCCESS,
            "{name}"
        );
    }
}
