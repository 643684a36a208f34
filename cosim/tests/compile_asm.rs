//! `gpusim compile -S`: the assembly file. `-S -o K.s` writes assembly (not
//! the ELF) with labels for branch targets, and `llvm-mc-19` assembles it to
//! the same `.text` bytes and kernel descriptors as gpusim's own code object
//! (the oracle: LLVM's assembler). Skips without llvm-mc-19 unless
//! `GPUSIM_REQUIRE_LLVM=1` (set by `.ci/run`), where a missing tool fails.

use std::path::{Path, PathBuf};
use std::process::Command;

mod cli_common;
use cli_common::{gpusim, root, temp_dir, text};

/// Whether `tool` runs; when it does not and CI requires it, fails.
fn have(tool: &str) -> bool {
    let ok = Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var("GPUSIM_REQUIRE_LLVM").is_err(),
            "{tool} is missing and GPUSIM_REQUIRE_LLVM is set"
        );
        eprintln!("skipped: {tool} is not installed");
    }
    ok
}

/// The bytes of `section` in the ELF `file` (llvm-objcopy-19).
fn section(file: &Path, section: &str) -> Vec<u8> {
    let out = file.with_extension(format!("{}.bin", section.trim_start_matches('.')));
    let o = Command::new("llvm-objcopy-19")
        .args(["-O", "binary", "--only-section", section])
        .arg(file)
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    std::fs::read(&out).unwrap()
}

/// Compiles `src` with `opts` to an object and to assembly, assembles the
/// latter with llvm-mc-19 and compares `.text` and the descriptors.
fn round_trip(dir: &Path, src: &Path, opts: &[&str]) -> Result<(), String> {
    let stem = format!(
        "{}{}",
        src.file_stem().unwrap().to_string_lossy(),
        opts.join("").replace(['-', '='], "_")
    );
    let obj = dir.join(format!("{stem}.hsaco"));
    let asm = dir.join(format!("{stem}.s"));
    let mc = dir.join(format!("{stem}.o"));
    let inc = root().join("tests/kernels/include");
    let base = [src.to_str().unwrap(), "-I", inc.to_str().unwrap()];
    let mut a: Vec<&str> = base.to_vec();
    a.extend(opts);
    let o = gpusim(&[&["compile"], &a[..], &["-o", obj.to_str().unwrap()]].concat());
    if !o.status.success() {
        // A kernel the compiler refuses is not this test's subject.
        return Ok(());
    }
    let o = gpusim(&[&["compile"], &a[..], &["-S", "-o", asm.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", text(&o));
    let s = std::fs::read_to_string(&asm).map_err(|e| format!("{}: {e}", asm.display()))?;
    if s.starts_with("\x7fELF") {
        return Err(format!("{}: -S wrote an ELF", asm.display()));
    }
    // The file says how to assemble it (wave64 is an llvm-mc option).
    let how = s.lines().next().unwrap_or_default();
    assert!(how.contains("llvm-mc-19"), "{how}");
    let wave64 = opts.contains(&"-mwavefrontsize64");
    assert_eq!(how.contains("-mattr=+wavefrontsize64"), wave64, "{how}");
    let mut mc_args = vec![
        "-triple",
        "amdgcn-amd-amdhsa",
        "-mcpu=gfx1030",
        "-filetype=obj",
    ];
    if wave64 {
        mc_args.push("-mattr=+wavefrontsize64");
    }
    let o = Command::new("llvm-mc-19")
        .args(&mc_args)
        .arg(&asm)
        .arg("-o")
        .arg(&mc)
        .output()
        .unwrap();
    if !o.status.success() {
        return Err(format!(
            "llvm-mc-19 rejects {}: {}",
            asm.display(),
            text(&o)
        ));
    }
    if section(&obj, ".text") != section(&mc, ".text") {
        return Err(format!("{}: .text differs from llvm-mc's assembly", stem));
    }
    // The descriptors, but for the entry offset (bytes 16..24): in
    // llvm-mc's relocatable object it is a relocation the linker fills.
    let (x, y) = (section(&obj, ".rodata"), section(&mc, ".rodata"));
    if x.len() != y.len() {
        return Err(format!(
            "{stem}: {} descriptor bytes vs {}",
            x.len(),
            y.len()
        ));
    }
    for (k, (dx, dy)) in x.chunks(64).zip(y.chunks(64)).enumerate() {
        if dx[..16] != dy[..16] || dx[24..] != dy[24..] {
            return Err(format!(
                "{stem}: descriptor {k} differs:\n  gpusim  {dx:02x?}\n  llvm-mc {dy:02x?}"
            ));
        }
    }
    Ok(())
}

#[test]
fn assembly_from_s_reassembles_to_the_same_code_and_descriptors() {
    if !have("llvm-mc-19") || !have("llvm-objcopy-19") {
        return;
    }
    let dir = temp_dir("asm", "rt");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(root().join("tests/kernels"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
        .collect();
    sources.sort();
    assert!(sources.len() >= 30, "{} sources", sources.len());
    let mut failures = Vec::new();
    for src in &sources {
        for opts in [&[][..], &["-mwavefrontsize64"][..], &["-O0"][..]] {
            if let Err(e) = round_trip(&dir, src, opts) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn s_names_branch_targets_with_labels_and_prints_to_stdout_without_o() {
    let o = gpusim(&[
        "compile",
        "tests/kernels/divergent_loops.cl",
        "-I",
        "tests/kernels/include",
        "-S",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let s = String::from_utf8(o.stdout).unwrap();
    assert!(s.contains(".amdhsa_kernel divergent_loops"), "{s}");
    let branches: Vec<&str> = s
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("s_branch") || l.starts_with("s_cbranch"))
        .collect();
    assert!(branches.len() >= 3, "{s}");
    for b in &branches {
        let target = b.split_whitespace().nth(1).unwrap();
        assert!(target.starts_with(".LBB0_"), "{b}");
        assert!(s.contains(&format!("\n{target}:\n")), "no label {target}");
    }
}

#[test]
fn compile_help_lists_the_options_instead_of_pointing_at_itself() {
    let o = gpusim(&["compile", "--help"]);
    assert!(o.status.success(), "{}", text(&o));
    let h = text(&o);
    assert!(!h.contains("see `gpusim compile --help`"), "{h}");
    for flag in ["-S", "-mwavefrontsize64", "-cl-fast-relaxed-math", "-DNAME"] {
        assert!(h.contains(flag), "{flag} missing from:\n{h}");
    }
}
