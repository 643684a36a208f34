//! What the Khronos ICD loader needs from a vendor library: every object
//! handle (`cl_platform_id`, `cl_device_id`, `cl_context`, …) points at a
//! struct whose first field is the vendor's dispatch table, and the loader
//! calls every entry point through that table (`CL/cl_icd.h`; ocl-icd and
//! the Khronos loader both work this way).
//!
//! The table has an entry for every OpenCL function. The ones this platform
//! implements point at `api`; the others at a stub of the right return kind
//! that fails (`CL_INVALID_OPERATION`, or a null handle) and says on
//! standard error which function is not implemented yet, so an application
//! stops with a clear error rather than a crash through a null pointer.

use std::ffi::c_void;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::Once;

mod table;

pub use table::{ENTRIES, TABLE};

use crate::cl;

/// What an entry point returns, which decides the stub it gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Returns {
    /// A `cl_int` status.
    Status,
    /// A handle or pointer (`cl_mem`, `cl_context`, `void *`, …), null on error.
    Handle,
    /// Nothing (`clSVMFree`).
    Nothing,
}

/// The dispatch table, laid out as `struct _cl_icd_dispatch` (an
/// `AtomicPtr` has the size and representation of a pointer).
#[repr(C)]
pub struct Dispatch {
    entries: [AtomicPtr<c_void>; ENTRIES],
}

impl Dispatch {
    /// The entry called `name`, if the table has one (null before
    /// [`install`]).
    pub fn entry(&self, name: &str) -> Option<*const c_void> {
        TABLE
            .iter()
            .position(|(n, _)| *n == name)
            .map(|i| self.entries[i].load(Ordering::Acquire).cast_const())
    }
}

/// The one table every object points at. Its address is fixed, so an
/// object made at any time points at the filled table; [`install`] fills
/// it before the library hands out its first handle.
static DISPATCH: Dispatch = Dispatch {
    entries: [const { AtomicPtr::new(std::ptr::null_mut()) }; ENTRIES],
};

/// The table every object points at.
pub fn dispatch() -> &'static Dispatch {
    &DISPATCH
}

/// Fills the table once: `implemented(name)` for what the platform
/// implements, stubs for the rest. The library's entry points (the
/// exported functions and the crate's public functions that return handles)
/// call it first: the resolver lives above every module that makes
/// objects, and handing it in here keeps this module below them.
pub fn install(implemented: fn(&str) -> Option<*const c_void>) {
    static FILLED: Once = Once::new();
    FILLED.call_once(|| {
        for (slot, (name, returns)) in DISPATCH.entries.iter().zip(TABLE.iter()) {
            let f = implemented(name)
                .or_else(|| errcode_stub_for(name))
                .unwrap_or(match returns {
                    Returns::Status => not_implemented_status as *const c_void,
                    Returns::Handle => not_implemented_handle as *const c_void,
                    Returns::Nothing => not_implemented_nothing as *const c_void,
                });
            slot.store(f.cast_mut(), Ordering::Release);
        }
    });
}

/// Whether `f` is one of the stubs (tests; `clGetExtensionFunctionAddress`).
pub fn is_stub(f: *const c_void) -> bool {
    f == not_implemented_status as *const c_void
        || f == not_implemented_handle as *const c_void
        || f == not_implemented_nothing as *const c_void
        || TABLE.iter().any(|(n, _)| errcode_stub_for(n) == Some(f))
}

/// Every object a handle points at starts with the dispatch table.
#[repr(C)]
pub struct Object<T> {
    dispatch: &'static Dispatch,
    /// The object itself.
    pub body: T,
}

impl<T> Object<T> {
    /// `body` behind this platform's dispatch table.
    pub fn new(body: T) -> Object<T> {
        Object {
            dispatch: dispatch(),
            body,
        }
    }
}

fn report_stub() {
    // Written without `eprintln!`, which panics when standard error fails:
    // a panic must not unwind out of an `extern "C"` stub.
    // The stubs do not know which entry they stand for (one function serves
    // many); the message says what to look for.
    let _ = std::io::Write::write_all(
        &mut std::io::stderr(),
        b"gpusim-opencl: an OpenCL function this platform does not implement yet was called \
          (see the Status table of docs/opencl.md)\n",
    );
}

// The stubs take no parameters: in the C calling conventions of the targets
// the loader runs on (x86-64 System V, AArch64), the caller owns the argument
// registers and stack, so a callee that ignores its arguments is called
// safely with any of them.

extern "C" fn not_implemented_status() -> cl::cl_int {
    report_stub();
    cl::CL_INVALID_OPERATION
}

extern "C" fn not_implemented_handle() -> *mut c_void {
    report_stub();
    std::ptr::null_mut()
}

extern "C" fn not_implemented_nothing() {
    report_stub();
}

/// Stubs for unimplemented entry points that return a handle and take
/// `errcode_ret` as their last parameter: each knows its parameter count,
/// so it can write `CL_INVALID_OPERATION` there (an application reads that
/// code, and PyOpenCL raises it, rather than whatever was in its variable).
/// Every parameter of these functions is an integer or a pointer, passed
/// the way a `usize` is.
macro_rules! errcode_stub {
    ($name:ident, $($arg:ident),*) => {
        extern "C" fn $name($($arg: usize, )* errcode_ret: *mut cl::cl_int) -> *mut c_void {
            $(let _ = $arg;)*
            report_stub();
            if !errcode_ret.is_null() {
                // SAFETY: null or valid for one `cl_int`, by the contract of
                // every function this stub stands for.
                unsafe { *errcode_ret = cl::CL_INVALID_OPERATION };
            }
            std::ptr::null_mut()
        }
    };
}

errcode_stub!(stub_2, a);
errcode_stub!(stub_3, a, b);
errcode_stub!(stub_4, a, b, c);
errcode_stub!(stub_5, a, b, c, d);
errcode_stub!(stub_6, a, b, c, d, e);
errcode_stub!(stub_7, a, b, c, d, e, f);
errcode_stub!(stub_8, a, b, c, d, e, f, g);
errcode_stub!(stub_10, a, b, c, d, e, f, g, h, i);
errcode_stub!(stub_12, a, b, c, d, e, f, g, h, i, j, k);

/// The stub with `errcode_ret` for `name` (parameter counts from
/// `CL/cl.h`), if it is one of the core functions that return a handle.
fn errcode_stub_for(name: &str) -> Option<*const c_void> {
    let f: *const c_void = match name {
        "clCloneKernel" => stub_2 as *const c_void,
        "clCreateSamplerWithProperties" => stub_3 as *const c_void,
        "clCreateProgramWithIL" => stub_4 as *const c_void,
        "clCreateSampler" | "clCreateProgramWithBuiltInKernels" => stub_5 as *const c_void,
        "clCreateImage" | "clCreatePipe" | "clCreateBufferWithProperties" => {
            stub_6 as *const c_void
        }
        "clCreateImageWithProperties" => stub_7 as *const c_void,
        "clCreateImage2D" => stub_8 as *const c_void,
        "clCreateImage3D" => stub_10 as *const c_void,
        "clEnqueueMapImage" => stub_12 as *const c_void,
        _ => return None,
    };
    Some(f)
}
