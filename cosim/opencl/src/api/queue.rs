//! Command queues: `clCreateCommandQueue` (and `…WithProperties`), retain,
//! release, `clGetCommandQueueInfo` and `clFlush`. Queues are in order, and
//! a command runs on the device thread before its enqueue returns unless it
//! waits for an event ([`super::deferred`]).

#![allow(non_snake_case)]

use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use super::context::{device_thread, finish, CONTEXTS};
use super::handles::{Counted, Registry};
use super::info::{answer, Info};
use super::platform::{device_handle, device_of};
use crate::cl::*;
use crate::core::worker::DeviceThread;

/// A command queue.
pub struct Queue {
    references: AtomicU32,
    /// Its context (retained while the queue lives).
    context: usize,
    device: Arc<DeviceThread>,
    /// `CL_QUEUE_PROFILING_ENABLE`: its events carry times.
    profiling: bool,
}

impl Queue {
    /// Its context's handle.
    pub fn context(&self) -> usize {
        self.context
    }

    /// Whether its events carry times (`CL_QUEUE_PROFILING_ENABLE`).
    pub fn profiling(&self) -> bool {
        self.profiling
    }

    /// The device thread its commands run on.
    pub fn device(&self) -> Arc<DeviceThread> {
        self.device.clone()
    }
}

impl Counted for Queue {
    fn references(&self) -> &AtomicU32 {
        &self.references
    }
}

impl Drop for Queue {
    fn drop(&mut self) {
        // SAFETY: no pointer is followed; the context was retained at creation.
        unsafe { super::context::clReleaseContext(self.context as *mut c_void) };
    }
}

/// The live queues.
pub static QUEUES: Registry<Queue> = Registry::new();

/// A queue on `context`'s device with `properties`: profiling (the device
/// does not report out-of-order execution).
fn create(
    context: *mut c_void,
    device: *mut c_void,
    properties: cl_bitfield,
) -> Result<*mut c_void, cl_int> {
    if !CONTEXTS.contains(context) {
        return Err(CL_INVALID_CONTEXT);
    }
    if device_of(device).is_none() {
        return Err(CL_INVALID_DEVICE);
    }
    if properties & !CL_QUEUE_PROFILING_ENABLE != 0 {
        return Err(if properties & !0b11 != 0 {
            CL_INVALID_VALUE
        } else {
            CL_INVALID_QUEUE_PROPERTIES
        });
    }
    let device = device_thread(context)?;
    // SAFETY: a live context (checked); released when the queue is freed.
    unsafe { super::context::clRetainContext(context) };
    Ok(QUEUES.insert(Queue {
        references: AtomicU32::new(1),
        context: context as usize,
        device,
        profiling: properties & CL_QUEUE_PROFILING_ENABLE != 0,
    }))
}

/// `clCreateCommandQueue`.
pub(super) unsafe extern "C" fn clCreateCommandQueue(
    context: *mut c_void,
    device: *mut c_void,
    properties: cl_command_queue_properties,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    super::guard::handle("clCreateCommandQueue", errcode_ret, || {
        finish(create(context, device, properties), errcode_ret)
    })
}

/// `clCreateCommandQueueWithProperties`: `CL_QUEUE_PROPERTIES` is the only
/// property.
pub(super) unsafe extern "C" fn clCreateCommandQueueWithProperties(
    context: *mut c_void,
    device: *mut c_void,
    properties: *const cl_queue_properties,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    super::guard::handle("clCreateCommandQueueWithProperties", errcode_ret, || {
        let mut bits = 0;
        let mut p = properties;
        while !p.is_null() {
            // SAFETY: a 0-terminated list of key-value pairs, by the contract.
            let key = unsafe { *p };
            if key == 0 {
                break;
            }
            if key != cl_queue_properties::from(CL_QUEUE_PROPERTIES) {
                return finish(Err(CL_INVALID_VALUE), errcode_ret);
            }
            // SAFETY: a key is followed by its value.
            bits = unsafe { *p.add(1) };
            // SAFETY: the next key follows.
            p = unsafe { p.add(2) };
        }
        finish(create(context, device, bits), errcode_ret)
    })
}

/// `clRetainCommandQueue`.
pub(super) unsafe extern "C" fn clRetainCommandQueue(handle: *mut c_void) -> cl_int {
    super::guard::status("clRetainCommandQueue", || {
        if QUEUES.retain(handle) {
            CL_SUCCESS
        } else {
            CL_INVALID_COMMAND_QUEUE
        }
    })
}

/// `clReleaseCommandQueue`.
pub(super) unsafe extern "C" fn clReleaseCommandQueue(handle: *mut c_void) -> cl_int {
    super::guard::status("clReleaseCommandQueue", || {
        if QUEUES.release(handle) {
            CL_SUCCESS
        } else {
            CL_INVALID_COMMAND_QUEUE
        }
    })
}

/// `clGetCommandQueueInfo`.
pub(super) unsafe extern "C" fn clGetCommandQueueInfo(
    handle: *mut c_void,
    param_name: cl_command_queue_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    super::guard::status("clGetCommandQueueInfo", || {
        let value = QUEUES.with(handle, |q| match param_name {
            CL_QUEUE_CONTEXT => Some(Info::Pointers(vec![q.context])),
            CL_QUEUE_DEVICE => Some(Info::Pointers(vec![device_handle() as usize])),
            CL_QUEUE_REFERENCE_COUNT => Some(Info::Uint(q.references.load(Ordering::Acquire))),
            CL_QUEUE_PROPERTIES => Some(Info::Ulong(if q.profiling {
                CL_QUEUE_PROFILING_ENABLE
            } else {
                0
            })),
            _ => None,
        });
        let Some(value) = value else {
            return CL_INVALID_COMMAND_QUEUE;
        };
        // SAFETY: the caller's buffers, by the contract.
        unsafe { answer(value, param_value_size, param_value, param_value_size_ret) }
    })
}

/// `clFlush`: commands run as they are enqueued; nothing is pending.
pub(super) unsafe extern "C" fn clFlush(handle: *mut c_void) -> cl_int {
    super::guard::status("clFlush", || {
        if QUEUES.contains(handle) {
            CL_SUCCESS
        } else {
            CL_INVALID_COMMAND_QUEUE
        }
    })
}
