//! Contexts: `clCreateContext`, `clCreateContextFromType`, retain, release
//! and `clGetContextInfo`. A context holds the one device, the properties it
//! was created with, and (from its first queue or buffer) the device thread
//! that owns its `Session`.

#![allow(non_snake_case)]

use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use super::handles::{Counted, Registry};
use super::info::{answer, Info};
use super::platform::{device_handle, device_of, matches_type, platform_handle, settings};
use crate::cl::*;
use crate::core::worker::DeviceThread;

/// A context: the one device, the properties it was created with, and
/// the device thread its queues and buffers use (started at the first).
pub struct Context {
    references: AtomicU32,
    /// The properties as given, with their terminating 0 (empty: none given).
    properties: Vec<cl_context_properties>,
    device: Mutex<Option<Arc<DeviceThread>>>,
}

impl Counted for Context {
    fn references(&self) -> &AtomicU32 {
        &self.references
    }
}

/// The live contexts.
pub static CONTEXTS: Registry<Context> = Registry::new();

/// The device thread of the context `handle`, started on first use with the
/// environment's model and configuration. `CL_INVALID_CONTEXT` for a handle
/// that is not one; `CL_OUT_OF_RESOURCES` (and the reason on standard error)
/// when the model cannot be built.
pub fn device_thread(handle: *const c_void) -> Result<Arc<DeviceThread>, cl_int> {
    CONTEXTS
        .with(handle, |c| {
            let mut device = c.device.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(d) = &*device {
                return Ok(d.clone());
            }
            let settings = settings().map_err(|_| CL_OUT_OF_RESOURCES)?;
            match DeviceThread::start(settings.session_options()) {
                Ok(d) => Ok(device.insert(Arc::new(d)).clone()),
                Err(e) => {
                    eprintln!("gpusim-opencl: the device cannot start: {e}");
                    Err(CL_OUT_OF_RESOURCES)
                }
            }
        })
        .unwrap_or(Err(CL_INVALID_CONTEXT))
}

/// Sets `*errcode_ret` if the caller asked for it.
///
/// # Safety
/// `errcode_ret` must be null or valid for one `cl_int`.
pub(super) unsafe fn set_error(errcode_ret: *mut cl_int, code: cl_int) {
    if !errcode_ret.is_null() {
        // SAFETY: by the contract.
        unsafe { *errcode_ret = code };
    }
}

/// Reads a 0-terminated property list: only `CL_CONTEXT_PLATFORM` with this
/// platform is a property a context here can have.
///
/// # Safety
/// `properties` must be null or a 0-terminated list of key-value pairs.
unsafe fn read_properties(
    properties: *const cl_context_properties,
) -> Result<Vec<cl_context_properties>, cl_int> {
    let mut out = Vec::new();
    if properties.is_null() {
        return Ok(out);
    }
    let mut p = properties;
    loop {
        // SAFETY: the list is 0-terminated, by the contract.
        let key = unsafe { *p };
        out.push(key);
        if key == 0 {
            return Ok(out);
        }
        // SAFETY: a key is followed by its value.
        let value = unsafe { *p.add(1) };
        if key != CL_CONTEXT_PLATFORM {
            return Err(CL_INVALID_PROPERTY);
        }
        if value as *const c_void != platform_handle() {
            return Err(CL_INVALID_PLATFORM);
        }
        if out[..out.len() - 1].chunks(2).any(|kv| kv[0] == key) {
            // The same property twice.
            return Err(CL_INVALID_PROPERTY);
        }
        out.push(value);
        // SAFETY: the next key follows the value.
        p = unsafe { p.add(2) };
    }
}

/// A new context with `properties`, registered as live.
fn create(properties: Vec<cl_context_properties>) -> *mut c_void {
    CONTEXTS.insert(Context {
        references: AtomicU32::new(1),
        properties,
        device: Mutex::new(None),
    })
}

/// `pfn_notify` is a function pointer, null or not; `user_data` without it
/// is invalid.
type Notify = Option<unsafe extern "C" fn(*const i8, *const c_void, usize, *mut c_void)>;

/// `clCreateContext`.
pub(super) unsafe extern "C" fn clCreateContext(
    properties: *const cl_context_properties,
    num_devices: cl_uint,
    devices: *const *mut c_void,
    pfn_notify: Notify,
    user_data: *mut c_void,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    super::guard::handle("clCreateContext", errcode_ret, || {
        let result = (|| {
            if devices.is_null()
                || num_devices == 0
                || (pfn_notify.is_none() && !user_data.is_null())
            {
                return Err(CL_INVALID_VALUE);
            }
            for i in 0..num_devices as usize {
                // SAFETY: `num_devices` handles, by the contract.
                let d = unsafe { *devices.add(i) };
                if device_of(d).is_none() {
                    return Err(CL_INVALID_DEVICE);
                }
            }
            // SAFETY: by the contract.
            let properties = unsafe { read_properties(properties) }?;
            Ok(create(properties))
        })();
        finish(result, errcode_ret)
    })
}

/// `clCreateContextFromType`.
pub(super) unsafe extern "C" fn clCreateContextFromType(
    properties: *const cl_context_properties,
    device_type: cl_device_type,
    pfn_notify: Notify,
    user_data: *mut c_void,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    super::guard::handle("clCreateContextFromType", errcode_ret, || {
        let result = (|| {
            if pfn_notify.is_none() && !user_data.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            // SAFETY: by the contract.
            let properties = unsafe { read_properties(properties) }?;
            if !matches_type(device_type)? || device_handle().is_null() {
                return Err(CL_DEVICE_NOT_FOUND);
            }
            Ok(create(properties))
        })();
        finish(result, errcode_ret)
    })
}

/// The handle, or null with the error code.
pub(super) fn finish(result: Result<*mut c_void, cl_int>, errcode_ret: *mut cl_int) -> *mut c_void {
    let (handle, code) = match result {
        Ok(h) => (h, CL_SUCCESS),
        Err(e) => (std::ptr::null_mut(), e),
    };
    // SAFETY: the entry points' callers pass a valid pointer or null.
    unsafe { set_error(errcode_ret, code) };
    handle
}

/// `clRetainContext`.
pub(super) unsafe extern "C" fn clRetainContext(handle: *mut c_void) -> cl_int {
    super::guard::status("clRetainContext", || {
        if CONTEXTS.retain(handle) {
            CL_SUCCESS
        } else {
            CL_INVALID_CONTEXT
        }
    })
}

/// `clReleaseContext`: the last release frees it (its device thread ends
/// when the last queue and buffer holding it are gone too).
pub(super) unsafe extern "C" fn clReleaseContext(handle: *mut c_void) -> cl_int {
    super::guard::status("clReleaseContext", || {
        if CONTEXTS.release(handle) {
            CL_SUCCESS
        } else {
            CL_INVALID_CONTEXT
        }
    })
}

/// `clGetContextInfo`.
pub(super) unsafe extern "C" fn clGetContextInfo(
    handle: *mut c_void,
    param_name: cl_context_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    super::guard::status("clGetContextInfo", || {
        let value = CONTEXTS.with(handle, |c| match param_name {
            CL_CONTEXT_REFERENCE_COUNT => Some(Info::Uint(c.references.load(Ordering::Acquire))),
            CL_CONTEXT_NUM_DEVICES => Some(Info::Uint(1)),
            CL_CONTEXT_DEVICES => Some(Info::Pointers(vec![device_handle() as usize])),
            CL_CONTEXT_PROPERTIES => Some(Info::Pointers(
                c.properties.iter().map(|&p| p as usize).collect(),
            )),
            _ => None,
        });
        let Some(value) = value else {
            return CL_INVALID_CONTEXT;
        };
        // SAFETY: the caller's buffers, by the contract.
        unsafe { answer(value, param_value_size, param_value, param_value_size_ret) }
    })
}
