//! Queues and buffers through the dispatch table: transfers, fills,
//! copies, maps, events.

mod common;
use common::*;

/// A buffer made from host bytes, partly overwritten, reads back through
/// the simulated device's memory; the events are complete; every handle is
/// refused once released.
#[test]
fn buffers_round_trip_through_a_queue() {
    let p = platform();
    let d = device(p);
    let c = context(d);
    let mut err = 1;
    let create_queue: CreateQueue = entry(c, "clCreateCommandQueue");
    let q = unsafe { create_queue(c, d, 0, &mut err) };
    assert_eq!(err, CL_SUCCESS);
    // Out-of-order execution is a valid property the device does not report.
    let out_of_order = unsafe { create_queue(c, d, 1 << 0, &mut err) };
    assert_eq!(
        (out_of_order, err),
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

/// Fills and copies run on the device's memory; the program and kernel
/// queries answer from the code object's metadata.
#[test]
fn fills_copies_and_queries() {
    let p = platform();
    let d = device(p);
    let c = context(d);
    let mut err = 1;
    let q = queue(c, d);
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
    let r = read_into(q, b, 0, &mut back, std::ptr::null_mut());
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

/// A range mapped for writing reaches the device at the unmap; one mapped
/// for reading shows the device's bytes.
#[test]
fn maps_write_back_at_the_unmap() {
    let p = platform();
    let d = device(p);
    let c = context(d);
    let mut err = 1;
    let q = queue(c, d);
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
