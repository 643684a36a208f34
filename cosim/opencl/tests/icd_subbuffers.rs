//! Sub-buffers and host-pointer buffers through the dispatch table:
//! sub-buffers share their parent's memory, reach seed 002's dispatch-time
//! alias analysis as the regions they are (identical, disjoint, partially
//! overlapping: the variant cache's counters move accordingly), and a
//! `CL_MEM_USE_HOST_PTR` buffer keeps the application's memory coherent.
//!
//! One test per behaviour that reads the process-wide variant cache
//! counters lives alone in this binary (`seed_002_...`); the other test
//! dispatches a prebuilt binary, which does not go through the analysis.

mod common;
use common::*;

type CreateSub = unsafe extern "C" fn(
    *mut c_void,
    cl_mem_flags,
    cl_uint,
    *const c_void,
    *mut cl_int,
) -> *mut c_void;

struct Ctx {
    d: *mut c_void,
    c: *mut c_void,
    q: *mut c_void,
}

fn context() -> Ctx {
    let p = platform();
    let d = device(p);
    let c = common::context(d);
    let q = queue(c, d);
    Ctx { d, c, q }
}

impl Ctx {
    fn buffer(&self, flags: cl_mem_flags, size: usize, host: *mut c_void) -> *mut c_void {
        let mut err = 1;
        let b = unsafe {
            entry::<CreateBuffer>(self.c, "clCreateBuffer")(self.c, flags, size, host, &mut err)
        };
        assert_eq!(err, CL_SUCCESS);
        b
    }

    fn sub(&self, parent: *mut c_void, origin: usize, size: usize) -> Result<*mut c_void, cl_int> {
        let region = [origin, size];
        let mut err = 1;
        let b = unsafe {
            entry::<CreateSub>(self.c, "clCreateSubBuffer")(
                parent,
                0,
                CL_BUFFER_CREATE_TYPE_REGION,
                region.as_ptr().cast(),
                &mut err,
            )
        };
        if err == CL_SUCCESS {
            assert!(!b.is_null());
            Ok(b)
        } else {
            assert!(b.is_null());
            Err(err)
        }
    }

    fn write(&self, b: *mut c_void, offset: usize, data: &[i32]) {
        let r = unsafe {
            entry::<Transfer>(self.q, "clEnqueueWriteBuffer")(
                self.q,
                b,
                CL_TRUE,
                offset,
                data.len() * 4,
                data.as_ptr().cast_mut().cast(),
                0,
                std::ptr::null(),
                std::ptr::null_mut(),
            )
        };
        assert_eq!(r, CL_SUCCESS);
    }

    fn read(&self, b: *mut c_void, offset: usize, n: usize) -> Vec<i32> {
        let mut out = vec![0i32; n];
        let r = read_into(self.q, b, offset, &mut out, std::ptr::null_mut());
        assert_eq!(r, CL_SUCCESS);
        out
    }

    fn kernel(&self, source: &std::ffi::CStr, name: &std::ffi::CStr) -> *mut c_void {
        let mut err = 1;
        let text = source.as_ptr();
        let prog = unsafe {
            entry::<CreateWithSource>(self.c, "clCreateProgramWithSource")(
                self.c,
                1,
                &text,
                std::ptr::null(),
                &mut err,
            )
        };
        assert_eq!(err, CL_SUCCESS);
        let built = unsafe {
            entry::<Build>(prog, "clBuildProgram")(
                prog,
                1,
                &self.d,
                std::ptr::null(),
                std::ptr::null(),
                std::ptr::null_mut(),
            )
        };
        assert_eq!(built, CL_SUCCESS);
        let k =
            unsafe { entry::<CreateKernel>(prog, "clCreateKernel")(prog, name.as_ptr(), &mut err) };
        assert_eq!(err, CL_SUCCESS);
        k
    }

    fn run(&self, k: *mut c_void, buffers: &[*mut c_void], value: Option<i32>, global: usize) {
        let set: SetArg = entry(k, "clSetKernelArg");
        for (i, b) in buffers.iter().enumerate() {
            let r = unsafe { set(k, i as cl_uint, 8, (b as *const *mut c_void).cast()) };
            assert_eq!(r, CL_SUCCESS);
        }
        if let Some(v) = value {
            let r = unsafe { set(k, buffers.len() as cl_uint, 4, (&v as *const i32).cast()) };
            assert_eq!(r, CL_SUCCESS);
        }
        let r = ndrange(self.q, k, global);
        assert_eq!(r, CL_SUCCESS);
    }
}

const ADD: &std::ffi::CStr = c"__kernel void add(__global int *c, __global const int *a, \
    __global const int *b, int n) {\n\
    int i = get_global_id(0);\n\
    if (i < n) c[i] = a[i] + b[i];\n\
    }\n";

const GATHER: &std::ffi::CStr = c"__kernel void gather(__global int *c, __global const int *a, \
    __global const int *idx) {\n\
    int i = get_global_id(0);\n\
    c[i] = a[idx[i]];\n\
    }\n";

/// Seed 002 sees sub-buffers of one buffer as the regions they are. The
/// parent holds 1024 ints p[i] = i * 7; `c` is a separate buffer; the
/// kernel reads `a` and `b` (512 ints each) and writes `c`:
/// identical (a = b = p[0..512]), disjoint (p[0..512], p[512..1024]) and
/// partially overlapping (p[0..512], p[256..768]) sub-buffers are three
/// layouts: three variants compiled, and the disjoint layout again is a
/// cache hit. The results are the CPU's in each case.
#[test]
fn seed_002_sees_identical_disjoint_and_overlapping_sub_buffers() {
    let x = context();
    let p = x.buffer(0, 4096, std::ptr::null_mut());
    let parent: Vec<i32> = (0..1024).map(|i| i * 7).collect();
    x.write(p, 0, &parent);
    let c = x.buffer(0, 2048, std::ptr::null_mut());
    let low = x.sub(p, 0, 2048).expect("p[0..512]");
    let high = x.sub(p, 2048, 2048).expect("p[512..1024]");
    let middle = x.sub(p, 1024, 2048).expect("p[256..768]");
    let k = x.kernel(ADD, c"add");
    let stats = cosim::workload::alias::stats;
    let before = stats();
    let cases = [
        ("identical", low, low, 0usize),
        ("disjoint", low, high, 512),
        ("overlapping", low, middle, 256),
        ("disjoint again", low, high, 512),
    ];
    for (what, a, b, shift) in cases {
        x.run(k, &[c, a, b], Some(512), 512);
        let got = x.read(c, 0, 512);
        let want: Vec<i32> = (0..512).map(|i| parent[i] + parent[i + shift]).collect();
        assert_eq!(got, want, "{what}");
    }
    let after = stats();
    assert_eq!(after.analyses - before.analyses, 4, "{after:?}");
    assert_eq!(after.recompilations - before.recompilations, 3, "{after:?}");
    assert_eq!(after.cache_hits - before.cache_hits, 1, "{after:?}");

    // Where the compiler cannot bound a pointer's reach (`a[idx[i]]`), the
    // region ends where the sub-buffer ends: `a` = p[0..256] below `c` =
    // p[512..768] is disjoint from it, the same facts as two separate
    // buffers, so the second layout is a cache hit. (Were the region taken
    // to the end of the parent's allocation, `a` would overlap `c`: a new
    // variant.)
    let k = x.kernel(GATHER, c"gather");
    let idx: Vec<i32> = (0..256).map(|i| (i * 37) % 256).collect();
    let bidx = x.buffer(0, 1024, std::ptr::null_mut());
    x.write(bidx, 0, &idx);
    let (sep_a, sep_c) = (
        x.buffer(0, 1024, std::ptr::null_mut()),
        x.buffer(0, 1024, std::ptr::null_mut()),
    );
    x.write(sep_a, 0, &parent[..256]);
    let sub_a = x.sub(p, 0, 1024).expect("p[0..256]");
    let sub_c = x.sub(p, 2048, 1024).expect("p[512..768]");
    x.write(p, 0, &parent);
    let before = stats();
    for (what, c, a) in [
        ("separate buffers", sep_c, sep_a),
        ("sub-buffers", sub_c, sub_a),
    ] {
        x.run(k, &[c, a, bidx], None, 256);
        let want: Vec<i32> = idx.iter().map(|&j| parent[j as usize]).collect();
        assert_eq!(x.read(c, 0, 256), want, "{what}");
    }
    let after = stats();
    assert_eq!(after.analyses - before.analyses, 2, "{after:?}");
    assert_eq!(after.recompilations - before.recompilations, 1, "{after:?}");
    assert_eq!(after.cache_hits - before.cache_hits, 1, "{after:?}");
    // The parent sees what the sub-buffers hold, and a write through a
    // sub-buffer lands in the parent at its origin.
    x.write(high, 0, &[-1, -2]);
    assert_eq!(x.read(p, 2048, 2), vec![-1, -2]);
    assert_eq!(x.read(middle, 1024, 2), vec![-1, -2]);
    x.write(p, 0, &parent);
}

/// clCreateSubBuffer's error codes, the sub-buffer's info, and a
/// `CL_MEM_USE_HOST_PTR` buffer: the application's memory holds the
/// kernel's results once the dispatch completed, a map returns the
/// application's own pointer, and the unmap brings host writes to the
/// device.
#[test]
fn sub_buffer_checks_and_host_pointer_buffers() {
    let x = context();
    let p = x.buffer(0, 4096, std::ptr::null_mut());
    assert_eq!(x.sub(p, 4, 64), Err(CL_MISALIGNED_SUB_BUFFER_OFFSET));
    assert_eq!(x.sub(p, 0, 0), Err(CL_INVALID_BUFFER_SIZE));
    assert_eq!(x.sub(p, 3840, 512), Err(CL_INVALID_VALUE));
    let s = x.sub(p, 256, 512).expect("a sub-buffer");
    assert_eq!(
        x.sub(s, 0, 64),
        Err(CL_INVALID_MEM_OBJECT),
        "a sub-buffer of a sub-buffer"
    );
    assert_eq!(x.sub(x.q, 0, 64), Err(CL_INVALID_MEM_OBJECT));
    let info: GetInfo = entry(s, "clGetMemObjectInfo");
    assert_eq!(scalar::<usize>(info, s, CL_MEM_OFFSET), 256);
    assert_eq!(scalar::<usize>(info, s, CL_MEM_SIZE), 512);
    assert_eq!(
        scalar::<usize>(info, s, CL_MEM_ASSOCIATED_MEMOBJECT),
        p as usize
    );

    // saxpy from the corpus's prebuilt gfx1030 object: y = 2x + y.
    let code = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/kernels/prebuilt/gfx1030/saxpy.hsaco"),
    )
    .expect("the prebuilt corpus object");
    let (len, ptr) = (code.len(), code.as_ptr());
    let (mut err, mut status) = (1, 1);
    let prog = unsafe {
        entry::<CreateWithBinary>(x.c, "clCreateProgramWithBinary")(
            x.c,
            1,
            &x.d,
            &len,
            &ptr,
            &mut status,
            &mut err,
        )
    };
    assert_eq!(err, CL_SUCCESS);
    let k =
        unsafe { entry::<CreateKernel>(prog, "clCreateKernel")(prog, c"saxpy".as_ptr(), &mut err) };
    assert_eq!(err, CL_SUCCESS);
    let n = 256usize;
    let mut xs: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let mut ys: Vec<f32> = vec![1.0; n];
    let bx = x.buffer(
        CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY,
        n * 4,
        xs.as_mut_ptr().cast(),
    );
    let by = x.buffer(CL_MEM_USE_HOST_PTR, n * 4, ys.as_mut_ptr().cast());
    let info: GetInfo = entry(by, "clGetMemObjectInfo");
    assert_eq!(
        scalar::<usize>(info, by, CL_MEM_HOST_PTR),
        ys.as_ptr() as usize
    );
    let set: SetArg = entry(k, "clSetKernelArg");
    let (nn, a) = (n as u32, 2.0f32);
    unsafe {
        assert_eq!(set(k, 0, 4, (&nn as *const u32).cast()), CL_SUCCESS);
        assert_eq!(set(k, 1, 4, (&a as *const f32).cast()), CL_SUCCESS);
        assert_eq!(set(k, 2, 8, (&bx as *const *mut c_void).cast()), CL_SUCCESS);
        assert_eq!(set(k, 3, 8, (&by as *const *mut c_void).cast()), CL_SUCCESS);
    }
    let global = n;
    let r = ndrange(x.q, k, global);
    assert_eq!(r, CL_SUCCESS);
    // The application's own memory holds the results.
    let want: Vec<f32> = (0..n).map(|i| 2.0 * i as f32 + 1.0).collect();
    assert_eq!(ys, want);
    // A map returns the application's pointer at the offset.
    let map: Map = entry(x.q, "clEnqueueMapBuffer");
    let mapped = unsafe {
        map(
            x.q,
            by,
            CL_TRUE,
            CL_MAP_READ | CL_MAP_WRITE,
            16,
            64,
            0,
            std::ptr::null(),
            std::ptr::null_mut(),
            &mut err,
        )
    };
    assert_eq!(err, CL_SUCCESS);
    assert_eq!(mapped as usize, ys.as_ptr() as usize + 16);
    // Written through the mapping, seen by the device after the unmap.
    unsafe { *mapped.cast::<f32>() = -5.0 };
    let unmap: Unmap = entry(x.q, "clEnqueueUnmapMemObject");
    let r = unsafe { unmap(x.q, by, mapped, 0, std::ptr::null(), std::ptr::null_mut()) };
    assert_eq!(r, CL_SUCCESS);
    let mut back = [0f32; 1];
    let r = read_into(x.q, by, 16, &mut back, std::ptr::null_mut());
    assert_eq!(r, CL_SUCCESS);
    assert_eq!(back[0], -5.0);
    // An ALLOC_HOST_PTR buffer is an ordinary one here (no host pointer).
    let alloc = x.buffer(CL_MEM_ALLOC_HOST_PTR, 64, std::ptr::null_mut());
    assert_eq!(scalar::<usize>(info, alloc, CL_MEM_HOST_PTR), 0);
    for h in [alloc, bx, by, s, p] {
        assert_eq!(
            unsafe { entry::<Release>(h, "clReleaseMemObject")(h) },
            CL_SUCCESS
        );
    }
    drop(xs);
}
