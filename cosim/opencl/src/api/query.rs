//! Program and kernel queries: `clGetProgramInfo`, `clGetKernelInfo`,
//! `clGetKernelWorkGroupInfo`, answered from the loaded code object's
//! metadata.

#![allow(non_snake_case)]

use std::ffi::c_void;
use std::sync::atomic::Ordering;

use super::handles::Counted;
use super::info::{answer, Info};
use super::platform::{device_handle, device_of};
use super::program::{KERNELS, PROGRAMS};
use crate::cl::*;

/// `clGetProgramInfo`. `CL_PROGRAM_BINARIES` is an array of one pointer
/// the caller allocated `CL_PROGRAM_BINARY_SIZES` bytes behind.
pub(super) unsafe extern "C" fn clGetProgramInfo(
    handle: *mut c_void,
    param_name: cl_program_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    super::guard::status("clGetProgramInfo", || {
        if param_name == CL_PROGRAM_BINARIES {
            let Some(binary) = PROGRAMS.with(handle, |p| p.binary()) else {
                return CL_INVALID_PROGRAM;
            };
            let size = std::mem::size_of::<*mut u8>();
            if !param_value.is_null() {
                if param_value_size < size {
                    return CL_INVALID_VALUE;
                }
                // SAFETY: one pointer slot (checked size), by the contract.
                let out = unsafe { *param_value.cast::<*mut u8>() };
                // A null slot asks for nothing; an unbuilt program has no binary.
                if let (false, Some(b)) = (out.is_null(), binary) {
                    // SAFETY: the caller allocated CL_PROGRAM_BINARY_SIZES bytes there.
                    unsafe { std::ptr::copy_nonoverlapping(b.as_ptr(), out, b.len()) };
                }
            }
            if !param_value_size_ret.is_null() {
                // SAFETY: valid for one size_t, by the contract.
                unsafe { *param_value_size_ret = size };
            }
            return CL_SUCCESS;
        }
        let value = PROGRAMS.with(handle, |p| {
            let names = || -> Option<Vec<String>> {
                let loaded = p.loaded();
                loaded
                    .as_ref()
                    .map(|l| l.kernels.iter().map(|k| k.kernel.name.clone()).collect())
            };
            match param_name {
                CL_PROGRAM_REFERENCE_COUNT => {
                    Some(Ok(Info::Uint(p.references().load(Ordering::Acquire))))
                }
                CL_PROGRAM_CONTEXT => Some(Ok(Info::Pointers(vec![p.context()]))),
                CL_PROGRAM_NUM_DEVICES => Some(Ok(Info::Uint(1))),
                CL_PROGRAM_DEVICES => Some(Ok(Info::Pointers(vec![device_handle() as usize]))),
                CL_PROGRAM_SOURCE => Some(Ok(Info::Str(p.source().unwrap_or_default()))),
                CL_PROGRAM_BINARY_SIZES => {
                    Some(Ok(Info::Sizes(vec![p.binary().map_or(0, |b| b.len())])))
                }
                CL_PROGRAM_NUM_KERNELS => Some(
                    names()
                        .map(|n| Info::Size(n.len()))
                        .ok_or(CL_INVALID_PROGRAM_EXECUTABLE),
                ),
                CL_PROGRAM_KERNEL_NAMES => Some(
                    names()
                        .map(|n| Info::Str(n.join(";")))
                        .ok_or(CL_INVALID_PROGRAM_EXECUTABLE),
                ),
                _ => None,
            }
        });
        let value = match value {
            None => return CL_INVALID_PROGRAM,
            Some(None) => None,
            Some(Some(Err(e))) => return e,
            Some(Some(Ok(v))) => Some(v),
        };
        // SAFETY: the caller's buffers, by the contract.
        unsafe { answer(value, param_value_size, param_value, param_value_size_ret) }
    })
}

/// `clGetKernelInfo`.
pub(super) unsafe extern "C" fn clGetKernelInfo(
    handle: *mut c_void,
    param_name: cl_kernel_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    super::guard::status("clGetKernelInfo", || {
        let value = KERNELS.with(handle, |k| match param_name {
            CL_KERNEL_FUNCTION_NAME => Some(Info::Str(k.loaded().kernel.name.clone())),
            CL_KERNEL_NUM_ARGS => Some(Info::Uint(k.num_args() as cl_uint)),
            CL_KERNEL_REFERENCE_COUNT => Some(Info::Uint(k.references().load(Ordering::Acquire))),
            CL_KERNEL_CONTEXT => Some(Info::Pointers(vec![k.context()])),
            CL_KERNEL_PROGRAM => Some(Info::Pointers(vec![k.program()])),
            CL_KERNEL_ATTRIBUTES => Some(Info::Str(String::new())),
            _ => None,
        });
        let Some(value) = value else {
            return CL_INVALID_KERNEL;
        };
        // SAFETY: the caller's buffers, by the contract.
        unsafe { answer(value, param_value_size, param_value, param_value_size_ret) }
    })
}

/// `clGetKernelWorkGroupInfo`: the kernel's limits from its metadata.
pub(super) unsafe extern "C" fn clGetKernelWorkGroupInfo(
    handle: *mut c_void,
    device: *mut c_void,
    param_name: cl_kernel_work_group_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    super::guard::status("clGetKernelWorkGroupInfo", || {
        if !device.is_null() && device_of(device).is_none() {
            return CL_INVALID_DEVICE;
        }
        let value = KERNELS.with(handle, |k| {
            let kernel = &k.loaded().kernel;
            let md = &kernel.metadata;
            let limit = match md.max_flat_workgroup_size {
                0 => 1024,
                n => n.min(1024),
            };
            match param_name {
                CL_KERNEL_WORK_GROUP_SIZE => Some(Info::Size(limit as usize)),
                CL_KERNEL_COMPILE_WORK_GROUP_SIZE => Some(Info::Sizes(
                    md.reqd_workgroup_size
                        .map_or(vec![0; 3], |s| s.iter().map(|&v| v as usize).collect()),
                )),
                CL_KERNEL_LOCAL_MEM_SIZE => Some(Info::Ulong(u64::from(
                    md.group_segment_fixed_size
                        .max(kernel.descriptor.group_segment_fixed_size),
                ))),
                CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE => {
                    Some(Info::Size(kernel.wavefront_size() as usize))
                }
                CL_KERNEL_PRIVATE_MEM_SIZE => {
                    Some(Info::Ulong(u64::from(md.private_segment_fixed_size)))
                }
                _ => None,
            }
        });
        let Some(value) = value else {
            return CL_INVALID_KERNEL;
        };
        // SAFETY: the caller's buffers, by the contract.
        unsafe { answer(value, param_value_size, param_value, param_value_size_ret) }
    })
}
