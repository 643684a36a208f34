//! Separate compilation: `clCompileProgram` and `clLinkProgram`.
//!
//! gpusim's compiler compiles one translation unit at a time, so a compiled
//! object here is its source preprocessed (with its options' `-D`/`-I` and
//! its embedded headers) and parsed (syntax errors are the compile's), and
//! linking compiles the objects' preprocessed sources as one unit: a
//! function declared in one object and defined in another is then defined,
//! and a kernel may call it. The limit of this model: two objects may not
//! both define a function or global of one name (`static` ones included),
//! which a real linker would allow for `static`; the link log says which.

#![allow(non_snake_case)]

use std::ffi::{c_char, c_void, CStr};

use super::context::{finish, CONTEXTS};
use super::program::{compile_options, PROGRAMS};
use crate::cl::*;

/// A C string argument, or "" for null.
///
/// # Safety
/// `p` must be null or NUL-terminated.
unsafe fn text(p: *const c_char) -> String {
    if p.is_null() {
        String::new()
    } else {
        // SAFETY: by the contract.
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    }
}

/// Checks a device list of the one device.
///
/// # Safety
/// `list` must be null or valid for `n` handles.
unsafe fn check_devices(n: cl_uint, list: *const *mut c_void) -> Result<(), cl_int> {
    if (n == 0) != list.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    for i in 0..n as usize {
        // SAFETY: `n` handles, by the contract.
        if super::platform::device_of(unsafe { *list.add(i) }).is_none() {
            return Err(CL_INVALID_DEVICE);
        }
    }
    Ok(())
}

/// A fresh directory for a compile's embedded headers.
fn header_dir() -> std::io::Result<std::path::PathBuf> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir().join(format!(
        "gpusim-opencl-headers-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// `clCompileProgram`: preprocesses and parses a source program with its
/// options and the embedded headers (each a source program, found by
/// `#include` under its name).
#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn clCompileProgram(
    program: *mut c_void,
    num_devices: cl_uint,
    device_list: *const *mut c_void,
    options: *const c_char,
    num_headers: cl_uint,
    headers: *const *mut c_void,
    header_names: *const *const c_char,
    notify: *const c_void,
    user_data: *mut c_void,
) -> cl_int {
    super::guard::status("clCompileProgram", || {
        let status = (|| {
            let Some((source, has_kernels)) =
                PROGRAMS.with(program, |p| (p.source(), p.has_kernels()))
            else {
                return CL_INVALID_PROGRAM;
            };
            // SAFETY: by the contract.
            if let Err(e) = unsafe { check_devices(num_devices, device_list) } {
                return e;
            }
            if (num_headers == 0) != headers.is_null()
                || (num_headers == 0) != header_names.is_null()
                || (notify.is_null() && !user_data.is_null())
            {
                return CL_INVALID_VALUE;
            }
            let Some(source) = source else {
                // A program made from a binary has no source to compile.
                return CL_INVALID_OPERATION;
            };
            if has_kernels {
                return CL_INVALID_OPERATION;
            }
            // SAFETY: by the contract.
            let options = unsafe { text(options) };
            let set = |status: cl_int, log: String| {
                PROGRAMS.with(program, |p| p.set_build(status, &options, log));
            };
            let mut opts = match compile_options(&options) {
                Ok(o) => o,
                Err(e) => {
                    set(CL_BUILD_ERROR, e);
                    return CL_INVALID_COMPILER_OPTIONS;
                }
            };
            let mut embedded = Vec::new();
            for i in 0..num_headers as usize {
                // SAFETY: `num_headers` entries each, by the contract.
                let (h, name) = unsafe { (*headers.add(i), *header_names.add(i)) };
                let Some(Some(text_of)) = PROGRAMS.with(h, |p| p.source()) else {
                    return CL_INVALID_OPERATION;
                };
                // SAFETY: NUL-terminated, by the contract.
                let name = unsafe { text(name) };
                if name.is_empty() || name.contains("..") || name.starts_with('/') {
                    return CL_INVALID_VALUE;
                }
                embedded.push((name, text_of));
            }
            let dir = if embedded.is_empty() {
                None
            } else {
                let Ok(dir) = header_dir() else {
                    return CL_OUT_OF_HOST_MEMORY;
                };
                for (name, body) in &embedded {
                    let path = dir.join(name);
                    let written = path
                        .parent()
                        .map_or(Ok(()), std::fs::create_dir_all)
                        .and_then(|()| std::fs::write(&path, body));
                    if written.is_err() {
                        let _ = std::fs::remove_dir_all(&dir);
                        return CL_OUT_OF_HOST_MEMORY;
                    }
                }
                opts.front.include_dirs.insert(0, dir.clone());
                Some(dir)
            };
            let compiled =
                compiler::front::preprocess_to_string("program.cl", &source, &opts.front).and_then(
                    |pp| compiler::front::parse_text("program.cl", &pp, &opts.front).map(|_| pp),
                );
            if let Some(dir) = dir {
                let _ = std::fs::remove_dir_all(dir);
            }
            match compiled {
                Ok(pp) => {
                    PROGRAMS.with(program, |p| {
                        *p.compiled.lock().unwrap_or_else(|e| e.into_inner()) =
                            Some((pp, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT));
                    });
                    set(CL_BUILD_SUCCESS, String::new());
                    CL_SUCCESS
                }
                Err(d) => {
                    set(CL_BUILD_ERROR, d.to_string());
                    CL_COMPILE_PROGRAM_FAILURE
                }
            }
        })();
        if matches!(status, CL_SUCCESS | CL_COMPILE_PROGRAM_FAILURE) {
            // SAFETY: a callback and its data, by the contract.
            unsafe { super::program::notify_done(notify, program, user_data) };
        }
        status
    })
}

/// `clLinkProgram`: the compiled objects and libraries as one unit, built
/// into an executable program (or, with `-create-library`, kept as a
/// library for another link).
#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn clLinkProgram(
    context: *mut c_void,
    num_devices: cl_uint,
    device_list: *const *mut c_void,
    options: *const c_char,
    num_programs: cl_uint,
    programs: *const *mut c_void,
    notify: *const c_void,
    user_data: *mut c_void,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    super::guard::handle("clLinkProgram", errcode_ret, || {
        let result = (|| {
            if !CONTEXTS.contains(context) {
                return Err(CL_INVALID_CONTEXT);
            }
            // SAFETY: by the contract.
            unsafe { check_devices(num_devices, device_list) }?;
            if num_programs == 0 || programs.is_null() || (notify.is_null() && !user_data.is_null())
            {
                return Err(CL_INVALID_VALUE);
            }
            // SAFETY: by the contract.
            let options = unsafe { text(options) };
            let mut library = false;
            let mut build_options = Vec::new();
            for word in options.split_whitespace() {
                match word {
                    "-create-library" => library = true,
                    // Accepted, nothing to do: one unit is compiled anyway.
                    "-enable-link-options" => {}
                    w if w.starts_with("-cl-") => build_options.push(w),
                    _ => return Err(CL_INVALID_LINKER_OPTIONS),
                }
            }
            let mut unit = String::new();
            for i in 0..num_programs as usize {
                // SAFETY: `num_programs` handles, by the contract.
                let h = unsafe { *programs.add(i) };
                let Some((c, compiled)) = PROGRAMS.with(h, |p| {
                    let compiled = p.compiled.lock().unwrap_or_else(|e| e.into_inner()).clone();
                    (p.context(), compiled)
                }) else {
                    return Err(CL_INVALID_PROGRAM);
                };
                if c != context as usize {
                    return Err(CL_INVALID_CONTEXT);
                }
                let Some((pp, _)) = compiled else {
                    return Err(CL_INVALID_OPERATION);
                };
                unit.push_str(&pp);
                unit.push('\n');
            }
            let text = std::ffi::CString::new(unit.clone()).map_err(|_| CL_INVALID_VALUE)?;
            let strings = [text.as_ptr()];
            let mut err = CL_SUCCESS;
            // SAFETY: one NUL-terminated string.
            let linked = unsafe {
                super::program::clCreateProgramWithSource(
                    context,
                    1,
                    strings.as_ptr(),
                    std::ptr::null(),
                    &mut err,
                )
            };
            if err != CL_SUCCESS {
                return Err(err);
            }
            if library {
                PROGRAMS.with(linked, |p| {
                    *p.compiled.lock().unwrap_or_else(|e| e.into_inner()) =
                        Some((unit, CL_PROGRAM_BINARY_TYPE_LIBRARY));
                    p.set_build(CL_BUILD_SUCCESS, &options, String::new());
                });
                return Ok((linked, CL_SUCCESS));
            }
            let build =
                std::ffi::CString::new(build_options.join(" ")).map_err(|_| CL_INVALID_VALUE)?;
            // SAFETY: a live program, a NUL-terminated option string.
            let built = unsafe {
                super::program::clBuildProgram(
                    linked,
                    0,
                    std::ptr::null(),
                    build.as_ptr(),
                    std::ptr::null(),
                    std::ptr::null_mut(),
                )
            };
            if built != CL_SUCCESS {
                // The link began, so the program object is the caller's,
                // with the reason in its build log (OpenCL 1.2 §5.6.3).
                PROGRAMS.with(linked, |p| {
                    let log = p.build_log();
                    p.set_build(CL_BUILD_ERROR, &options, log)
                });
                return Ok((linked, CL_LINK_PROGRAM_FAILURE));
            }
            PROGRAMS.with(linked, |p| {
                p.set_build(CL_BUILD_SUCCESS, &options, String::new())
            });
            Ok((linked, CL_SUCCESS))
        })();
        if let Ok((linked, _)) = result {
            // SAFETY: a callback and its data, by the contract.
            unsafe { super::program::notify_done(notify, linked, user_data) };
        }
        let handle = finish(result.map(|(linked, _)| linked), errcode_ret);
        if let Ok((_, CL_LINK_PROGRAM_FAILURE)) = result {
            // SAFETY: the caller's pointer or null, as `finish` took it.
            unsafe { super::context::set_error(errcode_ret, CL_LINK_PROGRAM_FAILURE) };
        }
        handle
    })
}
