//! An unchanged C host program (`tests/loader/round_trip.c`) built with
//! clang-19 against the ICD loader (`libOpenCL.so.1`, Debian
//! `ocl-icd-libopencl1`) runs on this platform through `OCL_ICD_VENDORS`.
//! Skipped, saying so, when clang-19, the headers or the loader are missing.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `libgpusim_opencl.so` of this build (next to the test, or one level up).
fn library() -> PathBuf {
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
    .unwrap_or_else(|| panic!("{name} is not next to {}", exe.display()))
}

/// The loader to link against, if installed.
fn loader() -> Option<PathBuf> {
    [
        "/lib/x86_64-linux-gnu/libOpenCL.so.1",
        "/usr/lib/x86_64-linux-gnu/libOpenCL.so.1",
        "/usr/lib/libOpenCL.so.1",
    ]
    .iter()
    .map(PathBuf::from)
    .find(|p| p.exists())
}

#[test]
fn a_c_program_moves_a_buffer_through_the_loader() {
    let (Some(loader), true) = (loader(), Path::new("/usr/include/CL/cl.h").exists()) else {
        eprintln!("skipped: the ICD loader or the OpenCL headers are not installed (apt-get install ocl-icd-libopencl1 opencl-headers)");
        return;
    };
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/loader/round_trip.c");
    let exe = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gpusim_opencl_round_trip");
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
            eprintln!("skipped: clang-19 does not run ({e})");
            return;
        }
    };
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let run = Command::new(&exe)
        .env("OCL_ICD_VENDORS", library())
        .env_remove("GPUSIM_MODEL")
        .env_remove("GPUSIM_CONFIG")
        .env_remove("GPUSIM_PRESET")
        .output()
        .expect("the program runs");
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success() && out.contains("round trip ok"),
        "{out}{}",
        String::from_utf8_lossy(&run.stderr)
    );
}
