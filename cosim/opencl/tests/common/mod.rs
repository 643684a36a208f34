//! What the ICD tests share: the platform found as the loader finds it,
//! each entry point reached through the dispatch table a handle points
//! at, with its C signature (`CL/cl.h`), and the info readers.
// Each test file uses a part of it.
#![allow(dead_code)]

pub use std::ffi::{c_void, CStr};
use std::path::{Path, PathBuf};
use std::process::Command;

pub use gpusim_opencl::api::{clGetExtensionFunctionAddress, clIcdGetPlatformIDsKHR};
pub use gpusim_opencl::cl::*;
pub use gpusim_opencl::icd::Dispatch;

pub type GetInfo =
    unsafe extern "C" fn(*mut c_void, cl_uint, usize, *mut c_void, *mut usize) -> cl_int;
pub type GetDeviceIds = unsafe extern "C" fn(
    *mut c_void,
    cl_device_type,
    cl_uint,
    *mut *mut c_void,
    *mut cl_uint,
) -> cl_int;
pub type CreateContext = unsafe extern "C" fn(
    *const cl_context_properties,
    cl_uint,
    *const *mut c_void,
    *const c_void,
    *mut c_void,
    *mut cl_int,
) -> *mut c_void;
pub type Release = unsafe extern "C" fn(*mut c_void) -> cl_int;

/// The entry `name` of the table `handle` points at, as the loader finds it.
pub fn entry<F: Copy>(handle: *mut c_void, name: &str) -> F {
    // SAFETY: every handle of this platform starts with its table.
    let table = unsafe { *(handle as *const &'static Dispatch) };
    let f = table.entry(name).expect("the table has every entry");
    assert!(!f.is_null());
    assert_eq!(
        std::mem::size_of::<F>(),
        std::mem::size_of::<*const c_void>()
    );
    // SAFETY: F is the entry's C signature (cl_icd.h).
    unsafe { std::mem::transmute_copy(&f) }
}

pub fn platform() -> *mut c_void {
    let f = unsafe { clGetExtensionFunctionAddress(c"clIcdGetPlatformIDsKHR".as_ptr()) };
    assert_eq!(f, clIcdGetPlatformIDsKHR as *mut c_void);
    let (mut p, mut n) = (std::ptr::null_mut(), 0);
    assert_eq!(
        unsafe { clIcdGetPlatformIDsKHR(1, &mut p, &mut n) },
        CL_SUCCESS
    );
    assert_eq!(n, 1);
    assert!(!p.is_null());
    p
}

pub fn string(f: GetInfo, handle: *mut c_void, param: cl_uint) -> String {
    let mut size = 0;
    assert_eq!(
        unsafe { f(handle, param, 0, std::ptr::null_mut(), &mut size) },
        CL_SUCCESS
    );
    let mut buf = vec![0u8; size];
    let r = unsafe {
        f(
            handle,
            param,
            size,
            buf.as_mut_ptr().cast(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS);
    CStr::from_bytes_with_nul(&buf)
        .expect("NUL-terminated")
        .to_str()
        .unwrap()
        .to_string()
}

pub fn scalar<T: Copy + Default>(f: GetInfo, handle: *mut c_void, param: cl_uint) -> T {
    let mut v = T::default();
    let size = std::mem::size_of::<T>();
    let r = unsafe {
        f(
            handle,
            param,
            size,
            (&mut v as *mut T).cast(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(r, CL_SUCCESS, "param {param:#x}");
    v
}

pub fn device(p: *mut c_void) -> *mut c_void {
    let get: GetDeviceIds = entry(p, "clGetDeviceIDs");
    let (mut d, mut n) = (std::ptr::null_mut(), 0);
    assert_eq!(
        unsafe { get(p, CL_DEVICE_TYPE_GPU, 1, &mut d, &mut n) },
        CL_SUCCESS
    );
    assert_eq!(n, 1);
    d
}

pub type CreateQueue =
    unsafe extern "C" fn(*mut c_void, *mut c_void, cl_bitfield, *mut cl_int) -> *mut c_void;
pub type CreateBuffer =
    unsafe extern "C" fn(*mut c_void, cl_mem_flags, usize, *mut c_void, *mut cl_int) -> *mut c_void;
pub type Transfer = unsafe extern "C" fn(
    *mut c_void,
    *mut c_void,
    cl_bool,
    usize,
    usize,
    *mut c_void,
    cl_uint,
    *const *mut c_void,
    *mut *mut c_void,
) -> cl_int;

pub type CreateWithBinary = unsafe extern "C" fn(
    *mut c_void,
    cl_uint,
    *const *mut c_void,
    *const usize,
    *const *const u8,
    *mut cl_int,
    *mut cl_int,
) -> *mut c_void;
pub type Build = unsafe extern "C" fn(
    *mut c_void,
    cl_uint,
    *const *mut c_void,
    *const i8,
    *const c_void,
    *mut c_void,
) -> cl_int;
pub type CreateKernel = unsafe extern "C" fn(*mut c_void, *const i8, *mut cl_int) -> *mut c_void;
pub type SetArg = unsafe extern "C" fn(*mut c_void, cl_uint, usize, *const c_void) -> cl_int;
pub type NdRange = unsafe extern "C" fn(
    *mut c_void,
    *mut c_void,
    cl_uint,
    *const usize,
    *const usize,
    *const usize,
    cl_uint,
    *const *mut c_void,
    *mut *mut c_void,
) -> cl_int;

pub type CreateWithSource = unsafe extern "C" fn(
    *mut c_void,
    cl_uint,
    *const *const i8,
    *const usize,
    *mut cl_int,
) -> *mut c_void;
pub type BuildInfo = unsafe extern "C" fn(
    *mut c_void,
    *mut c_void,
    cl_uint,
    usize,
    *mut c_void,
    *mut usize,
) -> cl_int;

pub type Fill = unsafe extern "C" fn(
    *mut c_void,
    *mut c_void,
    *const c_void,
    usize,
    usize,
    usize,
    cl_uint,
    *const *mut c_void,
    *mut *mut c_void,
) -> cl_int;
pub type CopyBuffer = unsafe extern "C" fn(
    *mut c_void,
    *mut c_void,
    *mut c_void,
    usize,
    usize,
    usize,
    cl_uint,
    *const *mut c_void,
    *mut *mut c_void,
) -> cl_int;
pub type WorkGroupInfo = unsafe extern "C" fn(
    *mut c_void,
    *mut c_void,
    cl_uint,
    usize,
    *mut c_void,
    *mut usize,
) -> cl_int;

pub type Map = unsafe extern "C" fn(
    *mut c_void,
    *mut c_void,
    cl_bool,
    cl_map_flags,
    usize,
    usize,
    cl_uint,
    *const *mut c_void,
    *mut *mut c_void,
    *mut cl_int,
) -> *mut c_void;
pub type Unmap = unsafe extern "C" fn(
    *mut c_void,
    *mut c_void,
    *mut c_void,
    cl_uint,
    *const *mut c_void,
    *mut *mut c_void,
) -> cl_int;

/// A context on the device `d` (created: asserted).
pub fn context(d: *mut c_void) -> *mut c_void {
    let mut err = 1;
    let c = unsafe {
        entry::<CreateContext>(d, "clCreateContext")(
            std::ptr::null(),
            1,
            &d,
            std::ptr::null(),
            std::ptr::null_mut(),
            &mut err,
        )
    };
    assert_eq!(err, CL_SUCCESS);
    c
}

/// An in-order queue of the context `c` on the device `d` (created: asserted).
pub fn queue(c: *mut c_void, d: *mut c_void) -> *mut c_void {
    let mut err = 1;
    let q = unsafe { entry::<CreateQueue>(c, "clCreateCommandQueue")(c, d, 0, &mut err) };
    assert_eq!(err, CL_SUCCESS);
    q
}

/// `clEnqueueNDRangeKernel` of `k` on `q` over `global` work-items in one
/// dimension: no offset, no local size, no events.
pub fn ndrange(q: *mut c_void, k: *mut c_void, global: usize) -> cl_int {
    unsafe {
        entry::<NdRange>(q, "clEnqueueNDRangeKernel")(
            q,
            k,
            1,
            std::ptr::null(),
            &global,
            std::ptr::null(),
            0,
            std::ptr::null(),
            std::ptr::null_mut(),
        )
    }
}

/// A blocking `clEnqueueReadBuffer` of `out` from `offset` of `b` on `q`,
/// no wait list; the event, if `event` is given.
pub fn read_into<T: Copy>(
    q: *mut c_void,
    b: *mut c_void,
    offset: usize,
    out: &mut [T],
    event: *mut *mut c_void,
) -> cl_int {
    unsafe {
        entry::<Transfer>(q, "clEnqueueReadBuffer")(
            q,
            b,
            CL_TRUE,
            offset,
            std::mem::size_of_val(out),
            out.as_mut_ptr().cast(),
            0,
            std::ptr::null(),
            event,
        )
    }
}

/// The variable `.ci/run` sets: with it, a missing tool (the ICD loader,
/// the headers, clang-19, clinfo, PoCL, PyOpenCL) fails the test instead of
/// skipping it, so "passed" in CI means "ran".
pub const REQUIRE: &str = "GPUSIM_REQUIRE_OPENCL";

/// A test that cannot run because `why`: says so and returns (the caller
/// then skips), or panics when [`REQUIRE`] is set.
pub fn skip(why: &str) {
    if std::env::var_os(REQUIRE).is_some_and(|v| !v.is_empty() && v != "0") {
        panic!("{REQUIRE} is set but {why}");
    }
    eprintln!("skipped: {why}");
}

/// `libgpusim_opencl.so` of this build (cargo builds the cdylib with the
/// library the tests link: `target/<profile>/deps/` or `target/<profile>/`).
pub fn library() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's path");
    let deps = exe.parent().expect("target/<profile>/deps");
    let name = format!(
        "{}gpusim_opencl{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    [
        deps.join(&name),
        deps.parent().expect("target/<profile>").join(&name),
    ]
    .into_iter()
    .find(|p| p.exists())
    .unwrap_or_else(|| {
        panic!(
            "{name} is not next to {}: build it with cargo build --release -p gpusim-opencl",
            exe.display()
        )
    })
}

/// The loader to link against, if installed.
pub fn loader() -> Option<PathBuf> {
    [
        "/lib/x86_64-linux-gnu/libOpenCL.so.1",
        "/usr/lib/x86_64-linux-gnu/libOpenCL.so.1",
        "/usr/lib/libOpenCL.so.1",
    ]
    .iter()
    .map(PathBuf::from)
    .find(|p| p.exists())
}

/// Builds `tests/loader/NAME.c` against the loader and runs it with `args`
/// on this platform; its standard output, or `None` (said) when the tools
/// are missing.
pub fn run_c(name: &str, args: &[&Path], vars: &[(&str, &str)]) -> Option<String> {
    run_c_on(Icd::Gpusim, name, args, vars)
}

/// The OpenCL implementation a C program runs on.
#[derive(Clone, Copy, Debug)]
pub enum Icd {
    /// This platform (`libgpusim_opencl.so` of this build).
    Gpusim,
    /// PoCL (Debian `pocl-opencl-icd`), the reference implementation on the CPU.
    Pocl,
}

/// PoCL's `.icd` file, if installed.
pub fn pocl() -> Option<PathBuf> {
    let icd = PathBuf::from("/etc/OpenCL/vendors/pocl.icd");
    icd.exists().then_some(icd)
}

/// As [`run_c`], on `icd`.
pub fn run_c_on(icd: Icd, name: &str, args: &[&Path], vars: &[(&str, &str)]) -> Option<String> {
    let vendors = match icd {
        Icd::Gpusim => library(),
        Icd::Pocl => match pocl() {
            Some(p) => p,
            None => {
                skip("PoCL is not installed (apt-get install pocl-opencl-icd)");
                return None;
            }
        },
    };
    let (Some(loader), true) = (loader(), Path::new("/usr/include/CL/cl.h").exists()) else {
        skip("the ICD loader or the OpenCL headers are not installed (apt-get install ocl-icd-libopencl1 opencl-headers)");
        return None;
    };
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/loader/{name}.c"));
    // One executable per call: tests run in parallel threads.
    static BUILT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let nth = BUILT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let exe = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("gpusim_opencl_{name}_{}_{nth}", std::process::id()));
    let built = match Command::new("clang-19")
        .arg("-O1")
        .arg(&source)
        .arg("-o")
        .arg(&exe)
        .arg(&loader)
        .output()
    {
        Ok(o) => o,
        Err(e) => {
            skip(&format!("clang-19 does not run ({e})"));
            return None;
        }
    };
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let run = Command::new(&exe)
        .args(args)
        .env("OCL_ICD_VENDORS", &vendors)
        .env_remove("GPUSIM_MODEL")
        .env_remove("GPUSIM_CONFIG")
        .env_remove("GPUSIM_PRESET")
        .envs(vars.iter().copied())
        .output()
        .expect("the program runs");
    let out = String::from_utf8_lossy(&run.stdout).into_owned();
    let _ = std::fs::remove_file(&exe);
    assert!(
        run.status.success(),
        "{icd:?}: {out}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    Some(out)
}
