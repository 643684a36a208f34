//! The panic boundary of every entry point. A Rust panic must not unwind
//! into the application's C frames (since Rust 1.81 it aborts the process
//! there): each `extern "C"` function runs its body under
//! [`std::panic::catch_unwind`], and a panic (a bug of this platform or of
//! the model under it) becomes an error code the application can handle,
//! with the function's name and the panic's message on standard error.

use std::any::Any;
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::cl::*;

/// What an entry point answers when its body panicked: the specification
/// has no code for an implementation bug; `CL_OUT_OF_RESOURCES` ("a failure
/// to allocate resources required by the OpenCL implementation") is the one
/// every entry point may return and applications treat as fatal.
pub const PANICKED: cl_int = CL_OUT_OF_RESOURCES;

/// The text of a panic's payload.
fn message(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)")
}

/// Panics caught at an entry point or on a device thread so far.
static CAUGHT: AtomicU64 = AtomicU64::new(0);

/// How many panics the entry points and the device threads have caught
/// since the library was loaded (the fuzz test's oracle: it must stay 0).
pub fn panics_caught() -> u64 {
    CAUGHT.load(Ordering::Relaxed)
}

/// Counts a panic caught on a device thread.
pub(crate) fn count_panic() {
    CAUGHT.fetch_add(1, Ordering::Relaxed);
}

fn report(name: &str, payload: &(dyn Any + Send)) {
    count_panic();
    // `eprintln!` itself panics if standard error fails; this is already the
    // recovery path, so a second failure is ignored.
    let text = format!(
        "gpusim-opencl: internal error in {name}: {}; it returns CL_OUT_OF_RESOURCES\n",
        message(payload)
    );
    let _ = std::io::Write::write_all(&mut std::io::stderr(), text.as_bytes());
}

/// Runs the body of `name`, which returns a status code.
pub(crate) fn status(name: &str, body: impl FnOnce() -> cl_int) -> cl_int {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(code) => code,
        Err(p) => {
            report(name, &*p);
            PANICKED
        }
    }
}

/// Runs the body of `name`, which returns a handle or pointer (and sets
/// `*errcode_ret` itself); after a panic: null, and `PANICKED` in
/// `*errcode_ret` if the caller gave one.
pub(crate) fn handle(
    name: &str,
    errcode_ret: *mut cl_int,
    body: impl FnOnce() -> *mut c_void,
) -> *mut c_void {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(h) => h,
        Err(p) => {
            report(name, &*p);
            if !errcode_ret.is_null() {
                // SAFETY: null or valid for one `cl_int`, by every entry
                // point's contract.
                unsafe { *errcode_ret = PANICKED };
            }
            std::ptr::null_mut()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_an_error_code() {
        assert_eq!(status("clTest", || panic!("planted")), PANICKED);
        assert_eq!(status("clTest", || CL_INVALID_VALUE), CL_INVALID_VALUE);
        let mut code = CL_SUCCESS;
        let h = handle("clTest", &mut code, || panic!("planted {}", 2));
        assert!(h.is_null());
        assert_eq!(code, PANICKED);
        assert!(handle("clTest", std::ptr::null_mut(), || panic!()).is_null());
    }
}
