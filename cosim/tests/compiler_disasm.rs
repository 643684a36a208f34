//! Disassembly oracle for gpusim's compiler (issue 15): every corpus kernel
//! gpusim compiles, wave32 and wave64, is written to a code object;
//! `llvm-objdump-19 -d` must print exactly what `gpusim disasm` prints (every
//! line: header, symbols, addresses, encodings, instructions), and
//! `llvm-readelf-19 --notes` must read the metadata note with the kernel's
//! name, symbol, wave size, LDS size and the same explicit arguments
//! (offset, size, kind, address space) as clang's object of the same kernel.
//! Skipped, saying why, when LLVM 19 is not installed. (The seed-004 test
//! objects get the same oracle in `sw/compiler/tests/backend_support`.)
//!
//! `cargo test --release -p cosim --test compiler_disasm -- --nocapture`

mod compiler_common;

use std::process::Command;

use compiler_common::{compiling_corpus, have, root, scratch};

/// The fewest corpus kernels gpusim compiles per wave size today (27 of 34
/// when this test was written): fewer is a regression.
const FLOOR: usize = 27;

/// Writes the object into `test`'s own scratch directory: the two tests run
/// in parallel threads of one process and write the same file names, so a
/// shared directory let one truncate a file while the other read it.
fn object_file(
    test: &str,
    name: &str,
    wave64: bool,
    bytes: &[u8],
) -> (std::path::PathBuf, String) {
    let dir = scratch(&format!("compiler-disasm-{test}"));
    let file = format!("{name}-w{}.hsaco", if wave64 { 64 } else { 32 });
    std::fs::write(dir.join(&file), bytes).unwrap();
    (dir, file)
}

#[test]
fn llvm_objdump_prints_what_gpusim_disasm_prints_for_every_compiled_kernel() {
    const TEST: &str = "objdump";
    if !have("llvm-objdump-19") {
        println!("skipped: llvm-objdump-19 is not installed (the oracle)");
        return;
    }
    let mut failures = Vec::new();
    let mut compared = 0;
    for wave64 in [false, true] {
        let compiled = compiling_corpus(wave64);
        assert!(
            compiled.len() >= FLOOR,
            "wave64={wave64}: only {} corpus kernels compile",
            compiled.len()
        );
        for (name, c) in compiled {
            // Both tools run in the object's directory on the same relative
            // name, so their header lines are comparable.
            let (dir, file) = object_file(TEST, &name, wave64, &c.code_object);
            let mut llvm = Command::new("llvm-objdump-19");
            llvm.arg("-d").current_dir(&dir);
            if wave64 {
                // The gfx10 ELF header does not carry the wave size.
                llvm.arg("--mattr=+wavefrontsize64");
            }
            let theirs = llvm.arg(&file).output().unwrap();
            let ours = Command::new(env!("CARGO_BIN_EXE_gpusim"))
                .args(["disasm", &file])
                .current_dir(&dir)
                .output()
                .unwrap();
            let (theirs_text, ours_text) = (
                String::from_utf8_lossy(&theirs.stdout),
                String::from_utf8_lossy(&ours.stdout),
            );
            if !theirs.status.success() || !ours.status.success() {
                failures.push(format!(
                    "{file}: llvm-objdump {} / gpusim disasm {}: {}{}",
                    theirs.status,
                    ours.status,
                    String::from_utf8_lossy(&theirs.stderr),
                    String::from_utf8_lossy(&ours.stderr)
                ));
                continue;
            }
            let instructions = ours_text
                .lines()
                .filter(|l| l.starts_with('\t') || l.starts_with("  "))
                .count();
            if instructions < 3 {
                failures.push(format!("{file}: gpusim disasm lists no code:\n{ours_text}"));
            }
            if let Some((i, (t, o))) = theirs_text
                .lines()
                .zip(ours_text.lines())
                .enumerate()
                .find(|(_, (t, o))| t != o)
            {
                failures.push(format!(
                    "{file}:{}:\n  llvm-objdump: {t}\n  gpusim:      {o}",
                    i + 1
                ));
            } else if theirs_text.lines().count() != ours_text.lines().count() {
                failures.push(format!(
                    "{file}: llvm-objdump prints {} lines, gpusim disasm {}",
                    theirs_text.lines().count(),
                    ours_text.lines().count()
                ));
            }
            compared += 1;
        }
    }
    println!("{compared} gpusim-compiled objects disassemble identically");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The explicit (non-hidden) arguments of every kernel in a `--notes` dump:
/// `(offset, size, value_kind, address_space)`.
fn explicit_args(notes: &str) -> Vec<(String, String, String, String)> {
    let mut args = Vec::new();
    let mut current: Option<[String; 4]> = None;
    let mut flush = |c: &mut Option<[String; 4]>| {
        if let Some([o, s, k, a]) = c.take() {
            if !k.starts_with("hidden_") {
                args.push((o, s, k, a));
            }
        }
    };
    let mut in_args = false;
    for line in notes.lines() {
        let t = line.trim_start();
        let indent = line.len() - t.len();
        if t.starts_with("- .args:") {
            in_args = true;
            continue;
        }
        if !in_args {
            continue;
        }
        if indent <= 4 {
            // The kernel's own fields follow its argument list.
            flush(&mut current);
            in_args = false;
            continue;
        }
        let t = match t.strip_prefix("- ") {
            Some(rest) => {
                flush(&mut current);
                current = Some(Default::default());
                rest
            }
            None => t,
        };
        let Some((key, value)) = t.split_once(':') else {
            continue;
        };
        let value = value.trim().to_string();
        if let Some(c) = current.as_mut() {
            match key {
                ".offset" => c[0] = value,
                ".size" => c[1] = value,
                ".value_kind" => c[2] = value,
                ".address_space" => c[3] = value,
                _ => {}
            }
        }
    }
    flush(&mut current);
    args
}

fn notes(dir: &std::path::Path, file: &str) -> Result<String, String> {
    let o = Command::new("llvm-readelf-19")
        .args(["--notes", file])
        .current_dir(dir)
        .output()
        .map_err(|e| e.to_string())?;
    if !o.status.success() {
        return Err(String::from_utf8_lossy(&o.stderr).into_owned());
    }
    Ok(String::from_utf8_lossy(&o.stdout).into_owned())
}

#[test]
fn llvm_readelf_reads_the_metadata_of_every_compiled_kernel() {
    const TEST: &str = "readelf";
    if !have("llvm-readelf-19") {
        println!("skipped: llvm-readelf-19 is not installed (the oracle)");
        return;
    }
    let mut failures = Vec::new();
    for wave64 in [false, true] {
        let compiled = compiling_corpus(wave64);
        assert!(compiled.len() >= FLOOR);
        for (name, c) in compiled {
            let (dir, file) = object_file(TEST, &name, wave64, &c.code_object);
            let text = match notes(&dir, &file) {
                Ok(t) => t,
                Err(e) => {
                    failures.push(format!("{file}: {e}"));
                    continue;
                }
            };
            let wave = if wave64 { 64 } else { 32 };
            let mut needles = vec![
                "NT_AMDGPU_METADATA".to_string(),
                "amdhsa.target:   amdgcn-amd-amdhsa--gfx1030".into(),
                format!(".wavefront_size: {wave}"),
            ];
            for k in &c.kernels {
                needles.push(format!(".name:           {}", k.name));
                needles.push(format!(".symbol:         {}.kd", k.name));
                needles.push(format!(
                    ".group_segment_fixed_size: {}",
                    k.descriptor.group_segment_fixed_size
                ));
            }
            for n in needles {
                if !text.contains(&n) {
                    failures.push(format!("{file}: `{n}` missing from --notes"));
                }
            }
            // clang's object of the same kernel (committed) is the reference
            // for the argument layout the workloads rely on.
            let target = if wave64 { "gfx1030-w64" } else { "gfx1030" };
            let clang_dir = root().join("tests/kernels/prebuilt").join(target);
            if clang_dir.join(format!("{name}.hsaco")).exists() {
                let clang = notes(&clang_dir, &format!("{name}.hsaco")).unwrap();
                let (ours, want) = (explicit_args(&text), explicit_args(&clang));
                if want.is_empty() || ours != want {
                    failures.push(format!(
                        "{file}: explicit arguments differ from clang's\n  clang: {want:?}\n  ours:  {ours:?}"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
