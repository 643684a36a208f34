//! Bad API use gets the specification's error codes.
//!
//! - `tests/loader/errors.c`, through the ICD loader, on this platform and
//!   on PoCL (the reference implementation; the checks PoCL 3.1 does not
//!   honour are named in the program and left out there);
//! - released and wrong-kind handles for every entry point that takes a
//!   handle, through the dispatch table (the loader would follow such a
//!   handle before the platform sees it);
//! - a panic inside an entry point is an error code, not an abort.

mod common;

use common::*;

#[test]
fn a_c_program_gets_the_specifications_codes_on_gpusim_and_on_pocl() {
    for icd in [Icd::Gpusim, Icd::Pocl] {
        if let Some(out) = run_c_on(icd, "errors", &[], &[]) {
            assert!(out.contains("errors ok"), "{icd:?}: {out}");
            let checks: u32 = out
                .split_whitespace()
                .nth(2)
                .and_then(|n| n.parse().ok())
                .expect("a count");
            assert!(checks > 100, "{icd:?}: {out}");
            if let Icd::Gpusim = icd {
                assert!(out.contains("(0 left out"), "{out}");
            }
        }
    }
}

type Retain = unsafe extern "C" fn(*mut c_void) -> cl_int;
type Wait = unsafe extern "C" fn(cl_uint, *const *mut c_void) -> cl_int;

/// One live object of every kind, and one released.
struct World {
    d: *mut c_void,
    c: *mut c_void,
    q: *mut c_void,
    b: *mut c_void,
    prog: *mut c_void,
    k: *mut c_void,
    ev: *mut c_void,
}

const SOURCE: &std::ffi::CStr = c"__kernel void k(__global int *a) { a[get_global_id(0)] += 1; }";

fn world() -> World {
    let p = platform();
    let d = device(p);
    let c = context(d);
    let mut err = 1;
    let q = queue(c, d);
    let b = unsafe {
        entry::<CreateBuffer>(c, "clCreateBuffer")(c, 0, 256, std::ptr::null_mut(), &mut err)
    };
    assert_eq!(err, CL_SUCCESS);
    let text = SOURCE.as_ptr();
    let prog = unsafe {
        entry::<CreateWithSource>(c, "clCreateProgramWithSource")(
            c,
            1,
            &text,
            std::ptr::null(),
            &mut err,
        )
    };
    assert_eq!(err, CL_SUCCESS);
    let build: Build = entry(prog, "clBuildProgram");
    let built = unsafe {
        build(
            prog,
            0,
            std::ptr::null(),
            std::ptr::null(),
            std::ptr::null(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(built, CL_SUCCESS);
    let k = unsafe { entry::<CreateKernel>(prog, "clCreateKernel")(prog, c"k".as_ptr(), &mut err) };
    assert_eq!(err, CL_SUCCESS);
    let mut host = [0u8; 16];
    let mut ev = std::ptr::null_mut();
    let r = read_into(q, b, 0, &mut host, &mut ev);
    assert_eq!(r, CL_SUCCESS);
    World {
        d,
        c,
        q,
        b,
        prog,
        k,
        ev,
    }
}

impl World {
    /// Every object but one, released in an order that frees them all.
    fn release(&self) {
        for (h, name) in [
            (self.ev, "clReleaseEvent"),
            (self.k, "clReleaseKernel"),
            (self.prog, "clReleaseProgram"),
            (self.b, "clReleaseMemObject"),
            (self.q, "clReleaseCommandQueue"),
            (self.c, "clReleaseContext"),
        ] {
            assert_eq!(
                unsafe { entry::<Release>(self.d, name)(h) },
                CL_SUCCESS,
                "{name}"
            );
        }
    }
}

/// Every entry point that takes a handle answers the specification's
/// `CL_INVALID_<KIND>` for a released one of that kind, a live one of
/// another kind, and the address of something that is no handle at all.
#[test]
fn released_and_wrong_kind_handles_get_the_invalid_object_code() {
    let live = world();
    let gone = world();
    gone.release();
    let mut scratch = [0u8; 64];
    let not_a_handle = scratch.as_mut_ptr().cast::<c_void>();
    let t = live.d;
    let mut checked = 0;
    // (released handle, a live one of another kind, the code)
    let kinds = [
        (gone.c, live.q, CL_INVALID_CONTEXT, "context"),
        (gone.q, live.c, CL_INVALID_COMMAND_QUEUE, "queue"),
        (gone.b, live.k, CL_INVALID_MEM_OBJECT, "buffer"),
        (gone.prog, live.b, CL_INVALID_PROGRAM, "program"),
        (gone.k, live.prog, CL_INVALID_KERNEL, "kernel"),
        (gone.ev, live.q, CL_INVALID_EVENT, "event"),
    ];
    for (released, other, code, kind) in kinds {
        for bad in [released, other, not_a_handle, std::ptr::null_mut()] {
            let mut expect = |name: &str, got: cl_int| {
                checked += 1;
                assert_eq!(got, code, "{name} with a bad {kind} handle {bad:?}");
            };
            let mut size = 0usize;
            let mut out = [0u8; 64];
            let info = |name: &str| {
                let mut value = [0u8; 64];
                unsafe {
                    entry::<GetInfo>(t, name)(
                        bad,
                        0x1000,
                        64,
                        value.as_mut_ptr().cast(),
                        std::ptr::null_mut(),
                    )
                }
            };
            let handle_err = |f: &dyn Fn(&mut cl_int) -> *mut c_void| {
                let mut e = 1;
                let h = f(&mut e);
                assert!(h.is_null());
                e
            };
            match kind {
                "context" => {
                    for name in ["clRetainContext", "clReleaseContext"] {
                        expect(name, unsafe { entry::<Retain>(t, name)(bad) });
                    }
                    expect("clGetContextInfo", info("clGetContextInfo"));
                    expect(
                        "clCreateCommandQueue",
                        handle_err(&|e| unsafe {
                            entry::<CreateQueue>(t, "clCreateCommandQueue")(bad, live.d, 0, e)
                        }),
                    );
                    expect(
                        "clCreateBuffer",
                        handle_err(&|e| unsafe {
                            entry::<CreateBuffer>(t, "clCreateBuffer")(
                                bad,
                                0,
                                64,
                                std::ptr::null_mut(),
                                e,
                            )
                        }),
                    );
                    let text = SOURCE.as_ptr();
                    expect(
                        "clCreateProgramWithSource",
                        handle_err(&|e| unsafe {
                            entry::<CreateWithSource>(t, "clCreateProgramWithSource")(
                                bad,
                                1,
                                &text,
                                std::ptr::null(),
                                e,
                            )
                        }),
                    );
                    type UserEvent = unsafe extern "C" fn(*mut c_void, *mut cl_int) -> *mut c_void;
                    expect(
                        "clCreateUserEvent",
                        handle_err(&|e| unsafe {
                            entry::<UserEvent>(t, "clCreateUserEvent")(bad, e)
                        }),
                    );
                    type Link = unsafe extern "C" fn(
                        *mut c_void,
                        cl_uint,
                        *const *mut c_void,
                        *const std::ffi::c_char,
                        cl_uint,
                        *const *mut c_void,
                        *const c_void,
                        *mut c_void,
                        *mut cl_int,
                    ) -> *mut c_void;
                    expect(
                        "clLinkProgram",
                        handle_err(&|e| unsafe {
                            entry::<Link>(t, "clLinkProgram")(
                                bad,
                                0,
                                std::ptr::null(),
                                std::ptr::null(),
                                1,
                                &live.prog,
                                std::ptr::null(),
                                std::ptr::null_mut(),
                                e,
                            )
                        }),
                    );
                }
                "queue" => {
                    for name in [
                        "clRetainCommandQueue",
                        "clReleaseCommandQueue",
                        "clFlush",
                        "clFinish",
                    ] {
                        expect(name, unsafe { entry::<Retain>(t, name)(bad) });
                    }
                    expect("clGetCommandQueueInfo", info("clGetCommandQueueInfo"));
                    for name in ["clEnqueueReadBuffer", "clEnqueueWriteBuffer"] {
                        let got = unsafe {
                            entry::<Transfer>(t, name)(
                                bad,
                                live.b,
                                CL_TRUE,
                                0,
                                16,
                                out.as_mut_ptr().cast(),
                                0,
                                std::ptr::null(),
                                std::ptr::null_mut(),
                            )
                        };
                        expect(name, got);
                    }
                    let pattern = 0u32;
                    let got = unsafe {
                        entry::<Fill>(t, "clEnqueueFillBuffer")(
                            bad,
                            live.b,
                            (&pattern as *const u32).cast(),
                            4,
                            0,
                            16,
                            0,
                            std::ptr::null(),
                            std::ptr::null_mut(),
                        )
                    };
                    expect("clEnqueueFillBuffer", got);
                    let got = unsafe {
                        entry::<CopyBuffer>(t, "clEnqueueCopyBuffer")(
                            bad,
                            live.b,
                            live.b,
                            0,
                            64,
                            16,
                            0,
                            std::ptr::null(),
                            std::ptr::null_mut(),
                        )
                    };
                    expect("clEnqueueCopyBuffer", got);
                    expect(
                        "clEnqueueMapBuffer",
                        handle_err(&|e| unsafe {
                            entry::<Map>(t, "clEnqueueMapBuffer")(
                                bad,
                                live.b,
                                CL_TRUE,
                                CL_MAP_READ,
                                0,
                                16,
                                0,
                                std::ptr::null(),
                                std::ptr::null_mut(),
                                e,
                            )
                        }),
                    );
                    let got = unsafe {
                        entry::<Unmap>(t, "clEnqueueUnmapMemObject")(
                            bad,
                            live.b,
                            out.as_mut_ptr().cast(),
                            0,
                            std::ptr::null(),
                            std::ptr::null_mut(),
                        )
                    };
                    expect("clEnqueueUnmapMemObject", got);
                    let global = 64usize;
                    let got = unsafe {
                        entry::<NdRange>(t, "clEnqueueNDRangeKernel")(
                            bad,
                            live.k,
                            1,
                            std::ptr::null(),
                            &global,
                            std::ptr::null(),
                            0,
                            std::ptr::null(),
                            std::ptr::null_mut(),
                        )
                    };
                    expect("clEnqueueNDRangeKernel", got);
                }
                "buffer" => {
                    for name in ["clRetainMemObject", "clReleaseMemObject"] {
                        expect(name, unsafe { entry::<Retain>(t, name)(bad) });
                    }
                    expect("clGetMemObjectInfo", info("clGetMemObjectInfo"));
                    let got = unsafe {
                        entry::<Transfer>(t, "clEnqueueReadBuffer")(
                            live.q,
                            bad,
                            CL_TRUE,
                            0,
                            16,
                            out.as_mut_ptr().cast(),
                            0,
                            std::ptr::null(),
                            std::ptr::null_mut(),
                        )
                    };
                    expect("clEnqueueReadBuffer", got);
                    let got = unsafe {
                        entry::<SetArg>(t, "clSetKernelArg")(
                            live.k,
                            0,
                            std::mem::size_of::<*mut c_void>(),
                            (&bad as *const *mut c_void).cast(),
                        )
                    };
                    if !bad.is_null() {
                        // A null buffer argument is allowed (a null pointer).
                        expect("clSetKernelArg", got);
                    }
                }
                "program" => {
                    for name in ["clRetainProgram", "clReleaseProgram"] {
                        expect(name, unsafe { entry::<Retain>(t, name)(bad) });
                    }
                    expect("clGetProgramInfo", info("clGetProgramInfo"));
                    let got = unsafe {
                        entry::<BuildInfo>(t, "clGetProgramBuildInfo")(
                            bad,
                            live.d,
                            CL_PROGRAM_BUILD_STATUS,
                            64,
                            out.as_mut_ptr().cast(),
                            &mut size,
                        )
                    };
                    expect("clGetProgramBuildInfo", got);
                    let got = unsafe {
                        entry::<Build>(t, "clBuildProgram")(
                            bad,
                            0,
                            std::ptr::null(),
                            std::ptr::null(),
                            std::ptr::null(),
                            std::ptr::null_mut(),
                        )
                    };
                    expect("clBuildProgram", got);
                    type Compile = unsafe extern "C" fn(
                        *mut c_void,
                        cl_uint,
                        *const *mut c_void,
                        *const std::ffi::c_char,
                        cl_uint,
                        *const *mut c_void,
                        *const *const std::ffi::c_char,
                        *const c_void,
                        *mut c_void,
                    ) -> cl_int;
                    let got = unsafe {
                        entry::<Compile>(t, "clCompileProgram")(
                            bad,
                            0,
                            std::ptr::null(),
                            std::ptr::null(),
                            0,
                            std::ptr::null(),
                            std::ptr::null(),
                            std::ptr::null(),
                            std::ptr::null_mut(),
                        )
                    };
                    expect("clCompileProgram", got);
                    expect(
                        "clCreateKernel",
                        handle_err(&|e| unsafe {
                            entry::<CreateKernel>(t, "clCreateKernel")(bad, c"k".as_ptr(), e)
                        }),
                    );
                }
                "kernel" => {
                    for name in ["clRetainKernel", "clReleaseKernel"] {
                        expect(name, unsafe { entry::<Retain>(t, name)(bad) });
                    }
                    expect("clGetKernelInfo", info("clGetKernelInfo"));
                    let got = unsafe {
                        entry::<WorkGroupInfo>(t, "clGetKernelWorkGroupInfo")(
                            bad,
                            live.d,
                            0x11B0,
                            64,
                            out.as_mut_ptr().cast(),
                            &mut size,
                        )
                    };
                    expect("clGetKernelWorkGroupInfo", got);
                    let got = unsafe {
                        entry::<SetArg>(t, "clSetKernelArg")(bad, 0, 8, out.as_ptr().cast())
                    };
                    expect("clSetKernelArg", got);
                    let global = 64usize;
                    let got = unsafe {
                        entry::<NdRange>(t, "clEnqueueNDRangeKernel")(
                            live.q,
                            bad,
                            1,
                            std::ptr::null(),
                            &global,
                            std::ptr::null(),
                            0,
                            std::ptr::null(),
                            std::ptr::null_mut(),
                        )
                    };
                    expect("clEnqueueNDRangeKernel", got);
                }
                _ => {
                    for name in ["clRetainEvent", "clReleaseEvent"] {
                        expect(name, unsafe { entry::<Retain>(t, name)(bad) });
                    }
                    expect("clGetEventInfo", info("clGetEventInfo"));
                    expect("clGetEventProfilingInfo", info("clGetEventProfilingInfo"));
                    type SetStatus = unsafe extern "C" fn(*mut c_void, cl_int) -> cl_int;
                    expect("clSetUserEventStatus", unsafe {
                        entry::<SetStatus>(t, "clSetUserEventStatus")(bad, CL_COMPLETE)
                    });
                    let got = unsafe { entry::<Wait>(t, "clWaitForEvents")(1, &bad) };
                    expect("clWaitForEvents", got);
                    // In a wait list, a bad event is the list's error.
                    let got = unsafe {
                        entry::<Transfer>(t, "clEnqueueReadBuffer")(
                            live.q,
                            live.b,
                            CL_TRUE,
                            0,
                            16,
                            out.as_mut_ptr().cast(),
                            1,
                            &bad,
                            std::ptr::null_mut(),
                        )
                    };
                    assert_eq!(
                        got, CL_INVALID_EVENT_WAIT_LIST,
                        "a bad event in a wait list"
                    );
                }
            }
        }
    }
    assert!(checked > 150, "{checked} checks");
    // The device and platform queries with handles that are neither.
    let got = unsafe {
        entry::<GetInfo>(t, "clGetDeviceInfo")(
            live.c,
            CL_DEVICE_TYPE,
            8,
            scratch.as_mut_ptr().cast(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(got, CL_INVALID_DEVICE);
    let got = unsafe {
        entry::<GetInfo>(t, "clGetPlatformInfo")(
            live.c,
            CL_PLATFORM_NAME,
            64,
            scratch.as_mut_ptr().cast(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(got, CL_INVALID_PLATFORM);
    live.release();
}
