//! The platform and its one device: `clGetPlatformIDs`, `clGetPlatformInfo`,
//! `clGetDeviceIDs`, `clGetDeviceInfo`, device retain/release.

#![allow(non_snake_case)]

use std::ffi::c_void;
use std::sync::OnceLock;

use super::info::{answer, Info};
use crate::cl::*;
use crate::core::device::DeviceFigures;
use crate::core::settings::Settings;
use crate::icd::Object;

/// The platform: what the environment chose, read once.
pub struct Platform {
    /// The settings, or why the environment's are wrong.
    pub settings: Result<Settings, String>,
}

/// The device: its figures.
pub struct Device {
    /// What `clGetDeviceInfo` reports.
    pub figures: DeviceFigures,
}

fn platform() -> &'static Object<Platform> {
    static PLATFORM: OnceLock<Box<Object<Platform>>> = OnceLock::new();
    PLATFORM.get_or_init(|| {
        Box::new(Object::new(Platform {
            settings: Settings::from_env(),
        }))
    })
}

/// The environment's settings, or why they are wrong.
pub fn settings() -> Result<&'static Settings, &'static str> {
    platform().body.settings.as_ref().map_err(String::as_str)
}

/// The device, or why there is none (the environment's settings are wrong;
/// said once on standard error, since an application sees only the code).
pub(crate) fn device() -> Option<&'static Object<Device>> {
    static DEVICE: OnceLock<Option<Box<Object<Device>>>> = OnceLock::new();
    DEVICE
        .get_or_init(|| match &platform().body.settings {
            Ok(s) => Some(Box::new(Object::new(Device {
                figures: DeviceFigures::of(s),
            }))),
            Err(e) => {
                eprintln!("gpusim-opencl: no device: {e}");
                None
            }
        })
        .as_deref()
}

/// The platform's handle.
pub fn platform_handle() -> *const c_void {
    (platform() as *const Object<Platform>).cast()
}

/// The device's handle (null when the settings are wrong).
pub fn device_handle() -> *const c_void {
    device().map_or(std::ptr::null(), |d| (d as *const Object<Device>).cast())
}

/// The device behind `handle`, if it is this platform's.
pub fn device_of(handle: *const c_void) -> Option<&'static Object<Device>> {
    device().filter(|_| !handle.is_null() && handle == device_handle())
}

/// `clGetPlatformIDs`.
pub(super) unsafe extern "C" fn clGetPlatformIDs(
    num_entries: cl_uint,
    platforms: *mut *mut c_void,
    num_platforms: *mut cl_uint,
) -> cl_int {
    super::guard::status("clGetPlatformIDs", || {
        if (num_entries == 0 && !platforms.is_null())
            || (platforms.is_null() && num_platforms.is_null())
        {
            return CL_INVALID_VALUE;
        }
        if !platforms.is_null() {
            // SAFETY: at least one entry (num_entries > 0), by the contract.
            unsafe { *platforms = platform_handle().cast_mut() };
        }
        if !num_platforms.is_null() {
            // SAFETY: valid for one cl_uint, by the contract.
            unsafe { *num_platforms = 1 };
        }
        CL_SUCCESS
    })
}

/// The answer to a platform query.
fn platform_info(param: cl_platform_info) -> Option<Info> {
    let s = |v: &str| Some(Info::Str(v.into()));
    match param {
        CL_PLATFORM_PROFILE => s("FULL_PROFILE"),
        CL_PLATFORM_VERSION => Some(Info::Str(format!(
            "OpenCL 1.2 gpusim {}",
            env!("CARGO_PKG_VERSION")
        ))),
        CL_PLATFORM_NAME => s("gpusim"),
        CL_PLATFORM_VENDOR => s("gpusim"),
        CL_PLATFORM_EXTENSIONS => s("cl_khr_icd"),
        CL_PLATFORM_ICD_SUFFIX_KHR => s("GPUSIM"),
        _ => None,
    }
}

/// `clGetPlatformInfo`.
pub(super) unsafe extern "C" fn clGetPlatformInfo(
    handle: *mut c_void,
    param_name: cl_platform_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    super::guard::status("clGetPlatformInfo", || {
        if !handle.is_null() && handle.cast_const() != platform_handle() {
            return CL_INVALID_PLATFORM;
        }
        // SAFETY: the caller's buffers, by the contract.
        unsafe {
            answer(
                platform_info(param_name),
                param_value_size,
                param_value,
                param_value_size_ret,
            )
        }
    })
}

/// Device types this platform knows of (others are invalid).
const KNOWN_TYPES: cl_device_type = CL_DEVICE_TYPE_DEFAULT
    | CL_DEVICE_TYPE_CPU
    | CL_DEVICE_TYPE_GPU
    | CL_DEVICE_TYPE_ACCELERATOR
    | CL_DEVICE_TYPE_CUSTOM;

/// Whether the device (a GPU, the default) is of `device_type`; an error
/// for a type that is not one.
pub fn matches_type(device_type: cl_device_type) -> Result<bool, cl_int> {
    if device_type != CL_DEVICE_TYPE_ALL && device_type & !KNOWN_TYPES != 0 || device_type == 0 {
        return Err(CL_INVALID_DEVICE_TYPE);
    }
    Ok(device_type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT) != 0)
}

/// `clGetDeviceIDs`.
pub(super) unsafe extern "C" fn clGetDeviceIDs(
    handle: *mut c_void,
    device_type: cl_device_type,
    num_entries: cl_uint,
    devices: *mut *mut c_void,
    num_devices: *mut cl_uint,
) -> cl_int {
    super::guard::status("clGetDeviceIDs", || {
        if !handle.is_null() && handle.cast_const() != platform_handle() {
            return CL_INVALID_PLATFORM;
        }
        let wanted = match matches_type(device_type) {
            Ok(w) => w,
            Err(e) => return e,
        };
        if (num_entries == 0 && !devices.is_null()) || (devices.is_null() && num_devices.is_null())
        {
            return CL_INVALID_VALUE;
        }
        if !wanted || device().is_none() {
            return CL_DEVICE_NOT_FOUND;
        }
        if !devices.is_null() {
            // SAFETY: at least one entry (num_entries > 0), by the contract.
            unsafe { *devices = device_handle().cast_mut() };
        }
        if !num_devices.is_null() {
            // SAFETY: valid for one cl_uint, by the contract.
            unsafe { *num_devices = 1 };
        }
        CL_SUCCESS
    })
}

/// The answer to a device query.
pub fn device_info(f: &DeviceFigures, param: cl_device_info) -> Option<Info> {
    use Info::*;
    let yes = Uint(CL_TRUE);
    let no = Uint(CL_FALSE);
    Some(match param {
        CL_DEVICE_TYPE => Ulong(CL_DEVICE_TYPE_GPU),
        // AMD's PCI vendor id: the simulated GPU is an AMD RDNA2 part.
        CL_DEVICE_VENDOR_ID => Uint(0x1002),
        CL_DEVICE_MAX_COMPUTE_UNITS => Uint(f.compute_units),
        CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS => Uint(3),
        CL_DEVICE_MAX_WORK_GROUP_SIZE => Size(f.max_work_group_size),
        CL_DEVICE_MAX_WORK_ITEM_SIZES => Sizes(vec![f.max_work_group_size; 3]),
        // Doubles are claimed (cl_khr_fp64: the compiler's double library
        // meets the specification's bounds, docs/compiler.md); half is not
        // (its arithmetic compiles, most of its built-ins do not yet).
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE | CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE => Uint(1),
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF | CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF => Uint(0),
        // Scalar code: every lane is a work-item, vectors are unrolled.
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR..=CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR..=CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT => Uint(1),
        CL_DEVICE_MAX_CLOCK_FREQUENCY => Uint(f.clock_mhz),
        CL_DEVICE_ADDRESS_BITS => Uint(64),
        CL_DEVICE_MAX_MEM_ALLOC_SIZE => Ulong(f.max_alloc_bytes),
        CL_DEVICE_IMAGE_SUPPORT => no,
        CL_DEVICE_MAX_READ_IMAGE_ARGS | CL_DEVICE_MAX_WRITE_IMAGE_ARGS | CL_DEVICE_MAX_SAMPLERS => {
            Uint(0)
        }
        CL_DEVICE_IMAGE2D_MAX_WIDTH..=CL_DEVICE_IMAGE3D_MAX_DEPTH
        | CL_DEVICE_IMAGE_MAX_BUFFER_SIZE
        | CL_DEVICE_IMAGE_MAX_ARRAY_SIZE => Size(0),
        // The OpenCL 1.2 minimum; kernel arguments travel in the kernarg segment.
        CL_DEVICE_MAX_PARAMETER_SIZE => Size(1024),
        CL_DEVICE_MEM_BASE_ADDR_ALIGN => Uint(f.base_align_bits),
        CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE => Uint(128),
        CL_DEVICE_SINGLE_FP_CONFIG => Ulong(CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA),
        // What OpenCL 1.2 requires of a device with cl_khr_fp64 (9.3):
        // gfx1030's double unit has each (MODE's round and denormal fields).
        CL_DEVICE_DOUBLE_FP_CONFIG => Ulong(
            CL_FP_FMA
                | CL_FP_ROUND_TO_NEAREST
                | CL_FP_ROUND_TO_ZERO
                | CL_FP_ROUND_TO_INF
                | CL_FP_INF_NAN
                | CL_FP_DENORM,
        ),
        CL_DEVICE_GLOBAL_MEM_CACHE_TYPE => Uint(CL_READ_WRITE_CACHE),
        CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE => Uint(f.cache_line_bytes),
        CL_DEVICE_GLOBAL_MEM_CACHE_SIZE => Ulong(f.global_cache_bytes),
        CL_DEVICE_GLOBAL_MEM_SIZE => Ulong(f.global_mem_bytes),
        // Constant memory is global memory read through the scalar cache,
        // so a larger `__constant` buffer works too (it is not refused);
        // the device reports the specification's minimum, 64 KiB, because
        // programs (the conformance tests among them) size work by this
        // figure, and a simulated dispatch over a gigabyte takes hours.
        CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE => Ulong(64 * 1024),
        CL_DEVICE_MAX_CONSTANT_ARGS => Uint(8),
        CL_DEVICE_LOCAL_MEM_TYPE => Uint(CL_LOCAL),
        CL_DEVICE_LOCAL_MEM_SIZE => Ulong(f.local_mem_bytes),
        CL_DEVICE_ERROR_CORRECTION_SUPPORT => no,
        CL_DEVICE_PROFILING_TIMER_RESOLUTION => Size(f.timer_resolution_ns),
        CL_DEVICE_ENDIAN_LITTLE => yes,
        // The device exists; nothing runs on it yet (no queues in this slice).
        CL_DEVICE_AVAILABLE => yes,
        // gpusim's OpenCL C compiler builds source programs, also in two
        // steps (clCompileProgram, then clLinkProgram).
        CL_DEVICE_COMPILER_AVAILABLE => yes,
        CL_DEVICE_LINKER_AVAILABLE => yes,
        CL_DEVICE_EXECUTION_CAPABILITIES => Ulong(CL_EXEC_KERNEL),
        CL_DEVICE_QUEUE_PROPERTIES => Ulong(CL_QUEUE_PROFILING_ENABLE),
        CL_DEVICE_NAME => Str(f.name.clone()),
        CL_DEVICE_VENDOR => Str("gpusim".into()),
        CL_DRIVER_VERSION => Str(format!("{} ({})", env!("CARGO_PKG_VERSION"), f.description)),
        CL_DEVICE_PROFILE => Str("FULL_PROFILE".into()),
        CL_DEVICE_VERSION => Str(format!("OpenCL 1.2 gpusim ({})", f.description)),
        CL_DEVICE_OPENCL_C_VERSION => Str("OpenCL C 1.2 ".into()),
        CL_DEVICE_EXTENSIONS => Str(DEVICE_EXTENSIONS.to_string()),
        CL_DEVICE_BUILT_IN_KERNELS => Str(String::new()),
        CL_DEVICE_PLATFORM => Pointers(vec![platform_handle() as usize]),
        CL_DEVICE_HOST_UNIFIED_MEMORY => no,
        CL_DEVICE_PARENT_DEVICE => Pointers(vec![0]),
        CL_DEVICE_PARTITION_MAX_SUB_DEVICES => Uint(0),
        CL_DEVICE_PARTITION_PROPERTIES | CL_DEVICE_PARTITION_TYPE => Pointers(vec![0]),
        CL_DEVICE_PARTITION_AFFINITY_DOMAIN => Ulong(0),
        CL_DEVICE_REFERENCE_COUNT => Uint(1),
        CL_DEVICE_PREFERRED_INTEROP_USER_SYNC => yes,
        CL_DEVICE_PRINTF_BUFFER_SIZE => Size(0),
        _ => return None,
    })
}

/// `clGetDeviceInfo`.
/// The extensions the device claims: each one's functions compile and
/// run (doubles: the library against a long-double reference; the atomics:
/// the compiler's atomic tests against clang's objects).
const DEVICE_EXTENSIONS: &str = "cl_khr_fp64 cl_khr_byte_addressable_store \
     cl_khr_global_int32_base_atomics cl_khr_global_int32_extended_atomics \
     cl_khr_local_int32_base_atomics cl_khr_local_int32_extended_atomics \
     cl_khr_int64_base_atomics cl_khr_int64_extended_atomics";

pub(super) unsafe extern "C" fn clGetDeviceInfo(
    handle: *mut c_void,
    param_name: cl_device_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    super::guard::status("clGetDeviceInfo", || {
        let Some(d) = device_of(handle) else {
            return CL_INVALID_DEVICE;
        };
        // SAFETY: the caller's buffers, by the contract.
        unsafe {
            answer(
                device_info(&d.body.figures, param_name),
                param_value_size,
                param_value,
                param_value_size_ret,
            )
        }
    })
}

/// `clRetainDevice`: the device is a root device (nothing to count).
pub(super) unsafe extern "C" fn clRetainDevice(handle: *mut c_void) -> cl_int {
    super::guard::status("clRetainDevice", || match device_of(handle) {
        Some(_) => CL_SUCCESS,
        None => CL_INVALID_DEVICE,
    })
}

/// `clReleaseDevice`: as [`clRetainDevice`].
pub(super) unsafe extern "C" fn clReleaseDevice(handle: *mut c_void) -> cl_int {
    super::guard::status("clReleaseDevice", || {
        // SAFETY: no pointer is dereferenced.
        unsafe { clRetainDevice(handle) }
    })
}
