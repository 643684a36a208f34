//! Programs and their kernels: `clCreateProgramWithSource` (built by
//! gpusim's compiler), `clCreateProgramWithBinary`, `clBuildProgram`,
//! `clGetProgramBuildInfo`, `clCreateKernel`,
//! `clSetKernelArg`, `clEnqueueNDRangeKernel`, retain and release. The code
//! object is loaded by the driver on the context's device thread; a dispatch
//! runs there and is waited for before the enqueue returns.

#![allow(non_snake_case)]

use std::ffi::{c_char, c_void, CStr};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use arch::code_object::{KernelArg, ValueKind};
use cosim::workload::alias::SourceKernels;
use sw::driver::kernarg::is_hidden;
use sw::driver::{Arg, LoadedKernel};

use super::context::{device_thread, finish, CONTEXTS};
use super::handles::{Counted, Registry};
use super::info::{answer, Info};
use super::memory::BUFFERS;
use super::platform::device_of;
use crate::cl::*;
use crate::core::worker::DeviceThread;

/// A program: OpenCL C source (built by gpusim's compiler) or a code
/// object, loaded on the context's device once built.
pub struct Program {
    references: AtomicU32,
    context: usize,
    device: Arc<DeviceThread>,
    /// The source, for a program made from one.
    source: Option<String>,
    loaded: Mutex<Option<sw::driver::Program>>,
    /// The code object's bytes once built (`CL_PROGRAM_BINARIES`).
    binary: Mutex<Option<Vec<u8>>>,
    /// Build status, options and log (`clGetProgramBuildInfo`).
    build: Mutex<(cl_int, String, String)>,
    /// Its live kernels: a program with kernels cannot be built again
    /// (`CL_INVALID_OPERATION`).
    kernels: AtomicU32,
    /// A source program's IR and reach once built, and the back-end options
    /// it was built with: seed 002's analysis and recompilation at each
    /// dispatch of its kernels (`cosim::workload::alias`).
    jit: Mutex<Option<Jit>>,
    /// A compiled object or library (`clCompileProgram`, `clLinkProgram
    /// -create-library`): its preprocessed source and binary type.
    pub(super) compiled: Mutex<Option<(String, cl_uint)>>,
    /// The same source built so that every kernel reads the hidden global
    /// offsets (see [`with_global_offsets`]), loaded on first need.
    offsets_variant: Mutex<Option<(sw::driver::Program, Jit)>>,
}

/// An argument as set: the driver's value and, for a buffer, its handle.
pub type ArgSet = (Arg, Option<usize>);

/// What seed 002 needs of a program built from source.
pub type Jit = (Arc<SourceKernels>, compiler::backend::CompileOptions);

impl Program {
    /// Its context's handle.
    pub fn context(&self) -> usize {
        self.context
    }

    /// The source, for a program made from one.
    pub fn source(&self) -> Option<String> {
        self.source.clone()
    }

    /// The code object's bytes, once built.
    pub fn binary(&self) -> Option<Vec<u8>> {
        self.binary
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Whether kernels of it are live (it cannot be built again).
    pub(super) fn has_kernels(&self) -> bool {
        self.kernels.load(Ordering::Acquire) > 0
    }

    /// The build log.
    pub(super) fn build_log(&self) -> String {
        self.build
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .2
            .clone()
    }

    /// Sets the build status, options and log.
    pub(super) fn set_build(&self, status: cl_int, options: &str, log: String) {
        *self.build.lock().unwrap_or_else(|e| e.into_inner()) = (status, options.to_string(), log);
    }

    /// The loaded code object, once built.
    pub fn loaded(&self) -> std::sync::MutexGuard<'_, Option<sw::driver::Program>> {
        self.loaded.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Counted for Program {
    fn references(&self) -> &AtomicU32 {
        &self.references
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        let loaded = self.loaded.lock().unwrap_or_else(|p| p.into_inner()).take();
        let variant = self
            .offsets_variant
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        for p in loaded.into_iter().chain(variant.map(|(p, _)| p)) {
            if let Ok(Err(e)) = self.device.call(move |s| s.driver().unload(p)) {
                eprintln!("gpusim-opencl: unloading a program: {e}");
            }
        }
        // SAFETY: no pointer is followed; the context was retained at creation.
        unsafe { super::context::clReleaseContext(self.context as *mut c_void) };
    }
}

/// A kernel: one of a program's, with the arguments set so far.
pub struct Kernel {
    references: AtomicU32,
    program: usize,
    context: usize,
    /// Shared with each dispatch, which takes it to the device thread.
    loaded: Arc<LoadedKernel>,
    /// The explicit parameters, in order.
    params: Vec<KernelArg>,
    /// The arguments set so far, with the buffer handle behind each
    /// buffer argument (its size bounds seed 002's regions; a host-pointer
    /// buffer is synchronised around the dispatch).
    pub(super) args: Mutex<Vec<Option<ArgSet>>>,
    /// The program's seed 002 state, for a kernel of a source program.
    pub(super) jit: Option<Jit>,
}

impl Kernel {
    /// The kernel as the driver loaded it.
    pub fn loaded(&self) -> &Arc<LoadedKernel> {
        &self.loaded
    }

    /// Explicit arguments.
    pub fn num_args(&self) -> usize {
        self.params.len()
    }

    /// Explicit parameter `i`'s metadata.
    pub fn param(&self, i: usize) -> Option<&KernelArg> {
        self.params.get(i)
    }

    /// Bytes of LDS the `__local` arguments set so far ask for.
    pub fn local_arg_bytes(&self) -> u64 {
        let args = self.args.lock().unwrap_or_else(|e| e.into_inner());
        args.iter()
            .flatten()
            .map(|(a, _)| match a {
                Arg::Local(bytes) => u64::from(*bytes),
                _ => 0,
            })
            .sum()
    }

    /// Its context's handle.
    pub fn context(&self) -> usize {
        self.context
    }

    /// Its program's handle.
    pub fn program(&self) -> usize {
        self.program
    }
}

impl Counted for Kernel {
    fn references(&self) -> &AtomicU32 {
        &self.references
    }
}

impl Drop for Kernel {
    fn drop(&mut self) {
        PROGRAMS.with(self.program as *const c_void, |p| {
            p.kernels.fetch_sub(1, Ordering::AcqRel)
        });
        // SAFETY: no pointer is followed; the program was retained at creation.
        unsafe { clReleaseProgram(self.program as *mut c_void) };
    }
}

/// The live programs.
pub static PROGRAMS: Registry<Program> = Registry::new();
/// The live kernels.
pub static KERNELS: Registry<Kernel> = Registry::new();

/// `clCreateProgramWithBinary`: one device, one code object (gfx1030, or
/// gfx803 code the driver translates).
#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn clCreateProgramWithBinary(
    context: *mut c_void,
    num_devices: cl_uint,
    device_list: *const *mut c_void,
    lengths: *const usize,
    binaries: *const *const u8,
    binary_status: *mut cl_int,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    super::guard::handle("clCreateProgramWithBinary", errcode_ret, || {
        let result = (|| {
            if !CONTEXTS.contains(context) {
                return Err(CL_INVALID_CONTEXT);
            }
            if num_devices != 1 || device_list.is_null() || lengths.is_null() || binaries.is_null()
            {
                return Err(CL_INVALID_VALUE);
            }
            // SAFETY: one entry each, by the contract.
            let (d, len, bin) = unsafe { (*device_list, *lengths, *binaries) };
            if device_of(d).is_none() {
                return Err(CL_INVALID_DEVICE);
            }
            if len == 0 || bin.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            // SAFETY: `len` bytes, by the contract.
            let bytes = unsafe { std::slice::from_raw_parts(bin, len) }.to_vec();
            let device = device_thread(context)?;
            let kept = bytes.clone();
            let loaded = device
                .call(move |s| s.driver().load(&bytes).map_err(|e| e.to_string()))
                .map_err(|e| {
                    eprintln!("gpusim-opencl: {e}");
                    CL_OUT_OF_RESOURCES
                })?;
            let status = if loaded.is_ok() {
                CL_SUCCESS
            } else {
                CL_INVALID_BINARY
            };
            if !binary_status.is_null() {
                // SAFETY: one entry, by the contract.
                unsafe { *binary_status = status };
            }
            let loaded = loaded.map_err(|e| {
                eprintln!("gpusim-opencl: the binary does not load: {e}");
                CL_INVALID_BINARY
            })?;
            // SAFETY: a live context (checked); released when the program is freed.
            unsafe { super::context::clRetainContext(context) };
            Ok(PROGRAMS.insert(Program {
                references: AtomicU32::new(1),
                context: context as usize,
                device,
                source: None,
                loaded: Mutex::new(Some(loaded)),
                binary: Mutex::new(Some(kept)),
                build: Mutex::new((CL_BUILD_SUCCESS, String::new(), String::new())),
                kernels: AtomicU32::new(0),
                jit: Mutex::new(None),
                compiled: Mutex::new(None),
                offsets_variant: Mutex::new(None),
            }))
        })();
        finish(result, errcode_ret)
    })
}

/// `clCreateProgramWithSource`: the strings joined (each NUL-terminated
/// when its length is null or 0).
pub(super) unsafe extern "C" fn clCreateProgramWithSource(
    context: *mut c_void,
    count: cl_uint,
    strings: *const *const c_char,
    lengths: *const usize,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    super::guard::handle("clCreateProgramWithSource", errcode_ret, || {
        let result = (|| {
            if !CONTEXTS.contains(context) {
                return Err(CL_INVALID_CONTEXT);
            }
            if count == 0 || strings.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            let mut source = String::new();
            for i in 0..count as usize {
                // SAFETY: `count` strings (and lengths, if given), by the contract.
                let (s, len) = unsafe {
                    (
                        *strings.add(i),
                        if lengths.is_null() {
                            0
                        } else {
                            *lengths.add(i)
                        },
                    )
                };
                if s.is_null() {
                    return Err(CL_INVALID_VALUE);
                }
                let bytes = if len == 0 {
                    // SAFETY: NUL-terminated, by the contract.
                    unsafe { CStr::from_ptr(s) }.to_bytes()
                } else {
                    // SAFETY: `len` bytes, by the contract.
                    unsafe { std::slice::from_raw_parts(s.cast::<u8>(), len) }
                };
                source.push_str(&String::from_utf8_lossy(bytes));
            }
            let device = device_thread(context)?;
            // SAFETY: a live context (checked); released when the program is freed.
            unsafe { super::context::clRetainContext(context) };
            Ok(PROGRAMS.insert(Program {
                references: AtomicU32::new(1),
                context: context as usize,
                device,
                source: Some(source),
                loaded: Mutex::new(None),
                binary: Mutex::new(None),
                build: Mutex::new((CL_BUILD_NONE, String::new(), String::new())),
                kernels: AtomicU32::new(0),
                jit: Mutex::new(None),
                compiled: Mutex::new(None),
                offsets_variant: Mutex::new(None),
            }))
        })();
        finish(result, errcode_ret)
    })
}

/// The `-cl-*` build options the specification defines (OpenCL 1.2, 5.6.4;
/// `-cl-uniform-work-group-size` and `-cl-no-subgroup-ifp` from 2.0 and
/// 2.1): accepted, and they change nothing: the compiler follows its own
/// floating-point rules (docs/floating-point.md) and keeps argument info.
/// Any other `-cl-` option is `CL_INVALID_BUILD_OPTIONS`, as the
/// specification asks.
const CL_OPTIONS: &[&str] = &[
    "-cl-single-precision-constant",
    "-cl-denorms-are-zero",
    "-cl-fp32-correctly-rounded-divide-sqrt",
    "-cl-opt-disable",
    "-cl-mad-enable",
    "-cl-no-signed-zeros",
    "-cl-unsafe-math-optimizations",
    "-cl-finite-math-only",
    "-cl-fast-relaxed-math",
    "-cl-kernel-arg-info",
    "-cl-strict-aliasing",
    "-cl-uniform-work-group-size",
    "-cl-no-subgroup-ifp",
];

/// Build options gpusim's compiler takes: `-D NAME[=VALUE]`, `-I DIR`;
/// `-cl-*` and `-w` options are accepted and change nothing (the compiler
/// follows its own floating-point rules, docs/floating-point.md).
pub fn compile_options(text: &str) -> Result<compiler::CompileOptions, String> {
    let mut o = compiler::CompileOptions::default();
    // `__OPENCL_VERSION__` is the device's OpenCL version, which the
    // runtime defines (clang does not): the device reports OpenCL 1.2
    // (`CL_DEVICE_VERSION`, api/platform.rs).
    o.front.opencl_version = Some(120);
    let mut words = text.split_whitespace();
    while let Some(w) = words.next() {
        let mut value = |flag: &str| -> Result<String, String> {
            match w.strip_prefix(flag) {
                Some("") => words
                    .next()
                    .map(str::to_string)
                    .ok_or(format!("{flag} needs a value")),
                Some(v) => Ok(v.to_string()),
                None => unreachable!("checked by the caller"),
            }
        };
        if w.starts_with("-D") {
            let d = value("-D")?;
            let (name, v) = match d.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (d, None),
            };
            o.front.defines.push((name, v));
        } else if w.starts_with("-I") {
            o = o.include(value("-I")?);
        } else if let Some(v) = w.strip_prefix("-cl-std=") {
            o.front.cl_std = Some(
                compiler::front::parse_cl_std(v)
                    .ok_or(format!("{w}: say CL1.0, CL1.1, CL1.2, CL2.0 or CL3.0"))?,
            );
        } else if !(CL_OPTIONS.contains(&w) || ["-w", "-Werror", "-g"].contains(&w)) {
            return Err(format!(
                "unknown build option `{w}` (gpusim takes -D, -I, -w, -Werror, -g, -cl-std=CL*, \
                 and the -cl-* options of the OpenCL 1.2 specification, section 5.6.4)"
            ));
        }
    }
    Ok(o)
}

/// A build's products: the code object and the kept IR with its reach.
type Built = (Vec<u8>, Arc<SourceKernels>);

/// Builds per source and options, for the process (applications and
/// PyOpenCL build the same program again and again: every
/// `ElementwiseKernel` call site, every test).
fn build_cache() -> &'static Mutex<std::collections::HashMap<(String, String), Built>> {
    static CACHE: std::sync::OnceLock<Mutex<std::collections::HashMap<(String, String), Built>>> =
        std::sync::OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// Builds served from the cache and builds compiled, since the library
/// was loaded.
static BUILD_HITS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
static BUILD_MISSES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// `(hits, compilations)` of the program build cache.
pub fn build_cache_stats() -> (u64, u64) {
    (
        BUILD_HITS.load(Ordering::Relaxed),
        BUILD_MISSES.load(Ordering::Relaxed),
    )
}

/// Compiles `source` with `opts` (parsed from `options`), or takes the
/// result of an earlier identical build. A source with `#include` or
/// options with `-I` is always compiled: the files it includes may have
/// changed. The error is the build log.
fn build_cached(
    source: &str,
    options: &str,
    opts: &compiler::CompileOptions,
) -> Result<Built, String> {
    let cacheable = !source.contains("#include") && !options.contains("-I");
    let key = (source.to_string(), options.to_string());
    if cacheable {
        let hit = build_cache()
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
            .cloned();
        if let Some(b) = hit {
            BUILD_HITS.fetch_add(1, Ordering::Relaxed);
            return Ok(b);
        }
    }
    BUILD_MISSES.fetch_add(1, Ordering::Relaxed);
    let compiled = compiler::compile(
        compiler::Source::Text {
            name: "program.cl",
            text: source,
        },
        opts,
    )
    .map_err(|d| d.to_string())?;
    let built = (
        compiled.code_object.clone(),
        Arc::new(SourceKernels::new(compiled)),
    );
    if cacheable {
        build_cache()
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, built.clone());
    }
    Ok(built)
}

/// Calls the `pfn_notify` of `clBuildProgram`, `clCompileProgram` or
/// `clLinkProgram` (null: none) once the work is done, successful or not.
/// The work is complete when the entry point returns, so the callback runs
/// on the caller's thread before it does.
///
/// # Safety
/// `notify` is null or a `void (CL_CALLBACK *)(cl_program, void *)`.
pub(super) unsafe fn notify_done(
    notify: *const c_void,
    program: *mut c_void,
    user_data: *mut c_void,
) {
    if notify.is_null() {
        return;
    }
    // SAFETY: the callback's type, by the contract.
    let callback: extern "C" fn(*mut c_void, *mut c_void) = unsafe { std::mem::transmute(notify) };
    callback(program, user_data);
}

/// Kernel `name` of the source program `program` built with the hidden
/// global offsets (`backend::CompileOptions::global_offsets`): what a
/// launch runs when the application passes a non-zero global work offset to
/// a kernel whose own build left the offsets out (gpusim's compiler gives
/// them only to kernels that read the offset, which keeps the common
/// kernel's code as short as it was). The variant is compiled with the
/// program's build options, loaded once and kept with the program; its
/// explicit arguments sit where the kernel's do (the hidden ones follow
/// them). `None` for a program without source (a binary): its kernels are
/// what they are.
pub(super) fn with_global_offsets(program: usize, name: &str) -> Option<(Arc<LoadedKernel>, Jit)> {
    let handle = program as *const c_void;
    // The registry's lock is held inside `with`: compile and load outside it.
    let kernel_of = |p: &Program| {
        let variant = p.offsets_variant.lock().unwrap_or_else(|e| e.into_inner());
        let (loaded, jit) = variant.as_ref()?;
        Some((Arc::new(loaded.kernel(name).ok()?.clone()), jit.clone()))
    };
    if let Some(found) = PROGRAMS.with(handle, kernel_of).flatten() {
        return Some(found);
    }
    let (source, options, device) = PROGRAMS.with(handle, |p| {
        let options = p.build.lock().unwrap_or_else(|e| e.into_inner()).1.clone();
        Some((p.source.clone()?, options, p.device.clone()))
    })??;
    let mut opts = compile_options(&options).ok()?;
    opts.backend.global_offsets = true;
    // A NUL cannot occur in a C string of options: the key never meets an
    // application's own build.
    let key = format!("{options}\0global-offsets");
    let (code, kernels) = build_cached(&source, &key, &opts).ok()?;
    let loaded = device
        .call(move |s| s.driver().load(&code).map_err(|e| e.to_string()))
        .ok()?
        .ok()?;
    let lost = PROGRAMS.with(handle, |p| {
        let mut variant = p.offsets_variant.lock().unwrap_or_else(|e| e.into_inner());
        match *variant {
            // Another thread's launch was first: keep its copy.
            Some(_) => Some(loaded),
            None => {
                *variant = Some((loaded, (kernels, opts.backend)));
                None
            }
        }
    })?;
    if let Some(extra) = lost {
        let _ = device.call(move |s| s.driver().unload(extra));
    }
    PROGRAMS.with(handle, kernel_of).flatten()
}

/// `clBuildProgram`: compiles a source program with gpusim's compiler and
/// loads it (the diagnostics are the build log); a binary is built already.
pub(super) unsafe extern "C" fn clBuildProgram(
    program: *mut c_void,
    num_devices: cl_uint,
    device_list: *const *mut c_void,
    options: *const c_char,
    notify: *const c_void,
    user_data: *mut c_void,
) -> cl_int {
    super::guard::status("clBuildProgram", || {
        let status = (|| {
            if (num_devices == 0) != device_list.is_null()
                || (notify.is_null() && !user_data.is_null())
            {
                return CL_INVALID_VALUE;
            }
            for i in 0..num_devices as usize {
                // SAFETY: `num_devices` handles, by the contract.
                if device_of(unsafe { *device_list.add(i) }).is_none() {
                    return CL_INVALID_DEVICE;
                }
            }
            let options = if options.is_null() {
                String::new()
            } else {
                // SAFETY: NUL-terminated, by the contract.
                unsafe { CStr::from_ptr(options) }
                    .to_string_lossy()
                    .into_owned()
            };
            let Some((source, device, kernels)) = PROGRAMS.with(program, |p| {
                (
                    p.source.clone(),
                    p.device.clone(),
                    p.kernels.load(Ordering::Acquire),
                )
            }) else {
                return CL_INVALID_PROGRAM;
            };
            if kernels > 0 {
                return CL_INVALID_OPERATION;
            }
            let Some(source) = source else {
                return CL_SUCCESS;
            };
            let set = |status: cl_int, log: String| {
                PROGRAMS.with(program, |p| {
                    *p.build.lock().unwrap_or_else(|e| e.into_inner()) =
                        (status, options.clone(), log)
                });
            };
            let opts = match compile_options(&options) {
                Ok(o) => o,
                Err(e) => {
                    set(CL_BUILD_ERROR, e);
                    return CL_INVALID_BUILD_OPTIONS;
                }
            };
            let (code, jit) = match build_cached(&source, &options, &opts) {
                Ok((code, kernels)) => (code, (kernels, opts.backend)),
                Err(log) => {
                    set(CL_BUILD_ERROR, log);
                    return CL_BUILD_PROGRAM_FAILURE;
                }
            };
            let kept = code.clone();
            let loaded =
                match device.call(move |s| s.driver().load(&code).map_err(|e| e.to_string())) {
                    Ok(Ok(p)) => p,
                    Ok(Err(e)) | Err(e) => {
                        set(
                            CL_BUILD_ERROR,
                            format!("the compiled code object does not load: {e}"),
                        );
                        return CL_BUILD_PROGRAM_FAILURE;
                    }
                };
            let old = PROGRAMS.with(program, |p| {
                *p.binary.lock().unwrap_or_else(|e| e.into_inner()) = Some(kept);
                *p.jit.lock().unwrap_or_else(|e| e.into_inner()) = Some(jit);
                p.loaded
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .replace(loaded)
            });
            if let Some(Some(old)) = old {
                // Built again: the previous code goes.
                let _ = device.call(move |s| s.driver().unload(old));
            }
            let stale = PROGRAMS.with(program, |p| {
                p.offsets_variant
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .take()
            });
            if let Some(Some((stale, _))) = stale {
                let _ = device.call(move |s| s.driver().unload(stale));
            }
            set(CL_BUILD_SUCCESS, String::new());
            CL_SUCCESS
        })();
        if matches!(status, CL_SUCCESS | CL_BUILD_PROGRAM_FAILURE) {
            // SAFETY: a callback and its data, by the contract.
            unsafe { notify_done(notify, program, user_data) };
        }
        status
    })
}

/// `clGetProgramBuildInfo`: status, options and log of the last build.
pub(super) unsafe extern "C" fn clGetProgramBuildInfo(
    program: *mut c_void,
    device: *mut c_void,
    param_name: cl_program_build_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    super::guard::status("clGetProgramBuildInfo", || {
        if device_of(device).is_none() {
            return CL_INVALID_DEVICE;
        }
        let value = PROGRAMS.with(program, |p| {
            let b = p.build.lock().unwrap_or_else(|e| e.into_inner());
            match param_name {
                CL_PROGRAM_BUILD_STATUS => Some(Info::Uint(b.0 as cl_uint)),
                CL_PROGRAM_BUILD_OPTIONS => Some(Info::Str(b.1.clone())),
                CL_PROGRAM_BUILD_LOG => Some(Info::Str(b.2.clone())),
                CL_PROGRAM_BINARY_TYPE => {
                    let compiled = p.compiled.lock().unwrap_or_else(|e| e.into_inner());
                    Some(Info::Uint(match (&*compiled, p.loaded().is_some()) {
                        (Some((_, kind)), _) => *kind,
                        (None, true) => CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
                        (None, false) => CL_PROGRAM_BINARY_TYPE_NONE,
                    }))
                }
                _ => None,
            }
        });
        let Some(value) = value else {
            return CL_INVALID_PROGRAM;
        };
        // SAFETY: the caller's buffers, by the contract.
        unsafe { answer(value, param_value_size, param_value, param_value_size_ret) }
    })
}

/// `clRetainProgram`.
pub(super) unsafe extern "C" fn clRetainProgram(handle: *mut c_void) -> cl_int {
    super::guard::status("clRetainProgram", || {
        if PROGRAMS.retain(handle) {
            CL_SUCCESS
        } else {
            CL_INVALID_PROGRAM
        }
    })
}

/// `clReleaseProgram`: the last release (kernels hold one each) unloads it.
pub(super) unsafe extern "C" fn clReleaseProgram(handle: *mut c_void) -> cl_int {
    super::guard::status("clReleaseProgram", || {
        if PROGRAMS.release(handle) {
            CL_SUCCESS
        } else {
            CL_INVALID_PROGRAM
        }
    })
}

/// `clCreateKernel`.
pub(super) unsafe extern "C" fn clCreateKernel(
    program: *mut c_void,
    name: *const c_char,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    super::guard::handle("clCreateKernel", errcode_ret, || {
        let result = (|| {
            if name.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            // SAFETY: a NUL-terminated string, by the contract.
            let name = unsafe { CStr::from_ptr(name) }
                .to_string_lossy()
                .into_owned();
            let found = PROGRAMS.with(program, |p| {
                let loaded = p.loaded.lock().unwrap_or_else(|e| e.into_inner());
                let kernel = loaded.as_ref().and_then(|l| l.kernel(&name).ok().cloned());
                let jit = p.jit.lock().unwrap_or_else(|e| e.into_inner()).clone();
                (p.context, loaded.is_some(), kernel, jit)
            });
            let Some((context, built, kernel, jit)) = found else {
                return Err(CL_INVALID_PROGRAM);
            };
            if !built {
                return Err(CL_INVALID_PROGRAM_EXECUTABLE);
            }
            let loaded = kernel.ok_or(CL_INVALID_KERNEL_NAME)?;
            let params: Vec<KernelArg> = loaded
                .kernel
                .metadata
                .args
                .iter()
                .filter(|a| !is_hidden(&a.value_kind))
                .cloned()
                .collect();
            // SAFETY: a live program (checked); released when the kernel is freed.
            unsafe { clRetainProgram(program) };
            PROGRAMS.with(program, |p| p.kernels.fetch_add(1, Ordering::AcqRel));
            Ok(KERNELS.insert(Kernel {
                references: AtomicU32::new(1),
                program: program as usize,
                context,
                args: Mutex::new(vec![None; params.len()]),
                params,
                loaded: Arc::new(loaded),
                jit,
            }))
        })();
        finish(result, errcode_ret)
    })
}

/// `clCreateKernelsInProgram`: a kernel for every kernel of the built
/// program, in the code object's order.
pub(super) unsafe extern "C" fn clCreateKernelsInProgram(
    program: *mut c_void,
    num_kernels: cl_uint,
    kernels: *mut *mut c_void,
    num_kernels_ret: *mut cl_uint,
) -> cl_int {
    super::guard::status("clCreateKernelsInProgram", || {
        let Some(names) = PROGRAMS.with(program, |p| {
            p.loaded().as_ref().map(|l| {
                l.kernels
                    .iter()
                    .map(|k| k.kernel.name.clone())
                    .collect::<Vec<_>>()
            })
        }) else {
            return CL_INVALID_PROGRAM;
        };
        let Some(names) = names else {
            return CL_INVALID_PROGRAM_EXECUTABLE;
        };
        if !kernels.is_null() && (num_kernels as usize) < names.len() {
            return CL_INVALID_VALUE;
        }
        if !kernels.is_null() {
            let mut made = Vec::new();
            for name in &names {
                let Ok(c) = std::ffi::CString::new(name.as_str()) else {
                    return CL_INVALID_PROGRAM_EXECUTABLE;
                };
                let mut err = CL_SUCCESS;
                // SAFETY: a live program and a NUL-terminated name.
                let k = unsafe { clCreateKernel(program, c.as_ptr(), &mut err) };
                if err != CL_SUCCESS {
                    for k in made {
                        // SAFETY: made just above.
                        unsafe { clReleaseKernel(k) };
                    }
                    return err;
                }
                made.push(k);
            }
            for (i, k) in made.into_iter().enumerate() {
                // SAFETY: `num_kernels` slots (checked above), by the contract.
                unsafe { *kernels.add(i) = k };
            }
        }
        if !num_kernels_ret.is_null() {
            // SAFETY: one `cl_uint`, by the contract.
            unsafe { *num_kernels_ret = names.len() as cl_uint };
        }
        CL_SUCCESS
    })
}

/// `clRetainKernel`.
pub(super) unsafe extern "C" fn clRetainKernel(handle: *mut c_void) -> cl_int {
    super::guard::status("clRetainKernel", || {
        if KERNELS.retain(handle) {
            CL_SUCCESS
        } else {
            CL_INVALID_KERNEL
        }
    })
}

/// `clReleaseKernel`.
pub(super) unsafe extern "C" fn clReleaseKernel(handle: *mut c_void) -> cl_int {
    super::guard::status("clReleaseKernel", || {
        if KERNELS.release(handle) {
            CL_SUCCESS
        } else {
            CL_INVALID_KERNEL
        }
    })
}

/// The driver argument for parameter `param` from `clSetKernelArg`'s size
/// and value: a buffer handle for a global pointer, bytes by value, or the
/// size of a `__local` allocation (value null).
///
/// # Safety
/// `value` must be null or valid for `size` bytes.
unsafe fn argument(
    param: &KernelArg,
    context: usize,
    size: usize,
    value: *const c_void,
) -> Result<ArgSet, cl_int> {
    let plain = |a: Arg| Ok((a, None));
    match param.value_kind {
        ValueKind::GlobalBuffer => {
            if size != std::mem::size_of::<*mut c_void>() {
                return Err(CL_INVALID_ARG_SIZE);
            }
            if value.is_null() {
                return plain(Arg::Buffer(0));
            }
            // SAFETY: a handle's worth of bytes (checked size).
            let handle = unsafe { *value.cast::<*const c_void>() };
            if handle.is_null() {
                return plain(Arg::Buffer(0));
            }
            match BUFFERS.with(handle, |m| (m.context, m.allocation.address)) {
                Some((c, address)) if c == context => {
                    Ok((Arg::Buffer(address), Some(handle as usize)))
                }
                _ => Err(CL_INVALID_MEM_OBJECT),
            }
        }
        ValueKind::DynamicSharedPointer => {
            if !value.is_null() {
                return Err(CL_INVALID_ARG_VALUE);
            }
            let bytes = u32::try_from(size).map_err(|_| CL_INVALID_ARG_SIZE)?;
            if bytes == 0 {
                return Err(CL_INVALID_ARG_SIZE);
            }
            plain(Arg::Local(bytes))
        }
        ValueKind::ByValue => {
            if size != param.size as usize {
                return Err(CL_INVALID_ARG_SIZE);
            }
            if value.is_null() {
                return Err(CL_INVALID_ARG_VALUE);
            }
            // SAFETY: `size` bytes, by the contract.
            plain(Arg::Value(
                unsafe { std::slice::from_raw_parts(value.cast::<u8>(), size) }.to_vec(),
            ))
        }
        _ => {
            eprintln!(
                "gpusim-opencl: argument kind {} is not supported yet",
                param.value_kind.name()
            );
            Err(CL_INVALID_ARG_VALUE)
        }
    }
}

/// `clSetKernelArg`.
pub(super) unsafe extern "C" fn clSetKernelArg(
    kernel: *mut c_void,
    index: cl_uint,
    size: usize,
    value: *const c_void,
) -> cl_int {
    super::guard::status("clSetKernelArg", || {
        let set = KERNELS.with(kernel, |k| {
            let param = k.params.get(index as usize).ok_or(CL_INVALID_ARG_INDEX)?;
            // SAFETY: by the contract.
            let arg = unsafe { argument(param, k.context, size, value) }?;
            k.args.lock().unwrap_or_else(|p| p.into_inner())[index as usize] = Some(arg);
            Ok(())
        });
        match set {
            None => CL_INVALID_KERNEL,
            Some(Ok(())) => CL_SUCCESS,
            Some(Err(e)) => e,
        }
    })
}
