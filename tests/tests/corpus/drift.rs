//! Drift check: rebuild the corpus with LLVM 19 and compare with the
//! committed objects and oracle files.

use std::process::Command;

#[test]
fn committed_objects_match_a_fresh_llvm_build() {
    let tools = [
        "clang-19",
        "ld.lld-19",
        "llvm-objdump-19",
        "llvm-readelf-19",
    ];
    let missing = corpus::missing_tools(&tools);
    if !missing.is_empty() {
        eprintln!(
            "skipping the corpus drift check: {} not on PATH",
            missing.join(", ")
        );
        return;
    }
    let script = corpus::kernels_dir().join("build.sh");
    let out = Command::new("bash")
        .arg(&script)
        .arg("--check")
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "{} --check failed (run `bash tests/kernels/build.sh` and commit):\n{}\n{}",
        script.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
