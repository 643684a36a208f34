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
            CL_KERNEL_ATTRIBUTES => Some(Info::Str(attributes(&k.loaded().kernel.metadata))),
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
                // The kernel's own LDS and what its `__local` arguments set
                // so far ask for (the specification's "local memory used").
                CL_KERNEL_LOCAL_MEM_SIZE => Some(Info::Ulong(
                    u64::from(
                        md.group_segment_fixed_size
                            .max(kernel.descriptor.group_segment_fixed_size),
                    ) + k.local_arg_bytes(),
                )),
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

/// `CL_KERNEL_ATTRIBUTES`: the kernel's attributes as OpenCL C writes them,
/// from the code object's metadata (`reqd_work_group_size(8,2,1)
/// work_group_size_hint(4,2,1) vec_type_hint(uchar2)`), empty for none.
fn attributes(md: &arch::code_object::KernelMetadata) -> String {
    let dims = |d: [u32; 3]| format!("{},{},{}", d[0], d[1], d[2]);
    let mut out = Vec::new();
    if let Some(d) = md.reqd_workgroup_size {
        out.push(format!("reqd_work_group_size({})", dims(d)));
    }
    if let Some(d) = md.workgroup_size_hint {
        out.push(format!("work_group_size_hint({})", dims(d)));
    }
    if let Some(t) = &md.vec_type_hint {
        out.push(format!("vec_type_hint({t})"));
    }
    out.join(" ")
}

/// `clGetKernelArgInfo`: an explicit argument's address and access
/// qualifiers, type name, type qualifiers and name, from the code object's
/// metadata. gpusim's compiler always records them (as clang-19 does with
/// `-cl-kernel-arg-info`); a binary without a name for the argument
/// answers `CL_KERNEL_ARG_INFO_NOT_AVAILABLE`.
pub(super) unsafe extern "C" fn clGetKernelArgInfo(
    handle: *mut c_void,
    index: cl_uint,
    param_name: cl_kernel_arg_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    super::guard::status("clGetKernelArgInfo", || {
        let value = KERNELS.with(handle, |k| {
            let Some(arg) = k.param(index as usize) else {
                return Err(CL_INVALID_ARG_INDEX);
            };
            if arg.name.is_none() {
                return Err(CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
            }
            arg_info(arg, param_name).ok_or(CL_INVALID_VALUE)
        });
        let value = match value {
            None => return CL_INVALID_KERNEL,
            Some(Err(e)) => return e,
            Some(Ok(v)) => v,
        };
        // SAFETY: the caller's buffers, by the contract.
        unsafe {
            answer(
                Some(value),
                param_value_size,
                param_value,
                param_value_size_ret,
            )
        }
    })
}

/// One answer of [`clGetKernelArgInfo`]; `None` for an unknown query.
fn arg_info(arg: &arch::code_object::KernelArg, param_name: cl_kernel_arg_info) -> Option<Info> {
    use arch::code_object::AddressSpace as S;
    Some(match param_name {
        CL_KERNEL_ARG_ADDRESS_QUALIFIER => Info::Uint(match arg.address_space {
            Some(S::Global) => CL_KERNEL_ARG_ADDRESS_GLOBAL,
            Some(S::Local) => CL_KERNEL_ARG_ADDRESS_LOCAL,
            Some(S::Constant) => CL_KERNEL_ARG_ADDRESS_CONSTANT,
            _ => CL_KERNEL_ARG_ADDRESS_PRIVATE,
        }),
        // Images (the only arguments with an access qualifier) are not
        // supported, so every argument answers NONE.
        CL_KERNEL_ARG_ACCESS_QUALIFIER => Info::Uint(CL_KERNEL_ARG_ACCESS_NONE),
        CL_KERNEL_ARG_TYPE_NAME => Info::Str(arg.type_name.clone().unwrap_or_default()),
        CL_KERNEL_ARG_TYPE_QUALIFIER => {
            let mut q = CL_KERNEL_ARG_TYPE_NONE;
            for (set, bit) in [
                (arg.is_const, CL_KERNEL_ARG_TYPE_CONST),
                (arg.is_restrict, CL_KERNEL_ARG_TYPE_RESTRICT),
                (arg.is_volatile, CL_KERNEL_ARG_TYPE_VOLATILE),
                (arg.is_pipe, CL_KERNEL_ARG_TYPE_PIPE),
            ] {
                if set {
                    q |= bit;
                }
            }
            Info::Ulong(q)
        }
        CL_KERNEL_ARG_NAME => Info::Str(arg.name.clone().unwrap_or_default()),
        _ => return None,
    })
}
