//! `gpusim disasm` on every corpus object of all three targets equals the
//! committed `llvm-objdump-19 -d` output, line for line.

use std::path::{Path, PathBuf};

fn kernels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels")
}

#[test]
fn corpus_disassembly_equals_llvm_objdump() {
    let mut objects = 0;
    let mut lines = 0;
    let mut mismatches = Vec::new();
    for target in ["gfx803", "gfx1030", "gfx1030-w64"] {
        let prebuilt = kernels_dir().join("prebuilt").join(target);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&prebuilt)
            .unwrap_or_else(|e| panic!("{}: {e}", prebuilt.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "hsaco"))
            .collect();
        files.sort();
        assert!(files.len() >= 24, "{target}: only {} objects", files.len());
        for file in files {
            objects += 1;
            let name = file.file_name().unwrap().to_string_lossy().to_string();
            let expected_path = kernels_dir()
                .join("expected")
                .join(target)
                .join(name.replace(".hsaco", ".dis"));
            let expected = std::fs::read_to_string(&expected_path)
                .unwrap_or_else(|e| panic!("{}: {e}", expected_path.display()));
            let bytes = std::fs::read(&file).unwrap();
            let ours = match cosim::cli::disasm::listing(&bytes, &name) {
                Ok(text) => text,
                Err(e) => {
                    mismatches.push(format!("{target}/{name}: {}", e.message));
                    e.partial
                }
            };
            let ours: Vec<&str> = ours.lines().collect();
            for (i, want) in expected.lines().enumerate() {
                lines += 1;
                let got = ours.get(i).copied().unwrap_or("<missing>");
                if got != want {
                    mismatches.push(format!(
                        "{target}/{name}:{}:\n  llvm: {want}\n  ours: {got}",
                        i + 1
                    ));
                }
            }
            if ours.len() > expected.lines().count() {
                mismatches.push(format!(
                    "{target}/{name}: {} extra lines",
                    ours.len() - expected.lines().count()
                ));
            }
        }
    }
    println!(
        "{objects} objects, {lines} lines compared, {} mismatches",
        mismatches.len()
    );
    for m in mismatches.iter().take(40) {
        println!("{m}");
    }
    assert!(
        mismatches.is_empty(),
        "{} mismatching lines (first ones printed above)",
        mismatches.len()
    );
}

/// The hand-made code object v2 fixture: its `.text` starts with the 256-byte
/// `amd_kernel_code_t`, which llvm-objdump disassembles as code, with runs of
/// zero bytes shown as `...` and an undecodable dword as `.long`
/// (`v2_gfx803.dis.txt`, produced by llvm-objdump-19 before the symbol types
/// are patched: docs/code-objects.md).
#[test]
fn v2_fixture_disassembly_equals_llvm_objdump() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../hw/arch/tests/data/code_object");
    let bytes = std::fs::read(dir.join("v2_gfx803.co")).unwrap();
    let expected = std::fs::read_to_string(dir.join("v2_gfx803.dis.txt")).unwrap();
    let ours = cosim::cli::disasm::listing(&bytes, "v2_gfx803.co")
        .unwrap_or_else(|e| panic!("{}\n{}", e.message, e.partial));
    // The committed text starts at "Disassembly of section": drop our file line.
    let ours = ours.split_once("Disassembly of section").unwrap().1;
    let expected = expected.split_once("Disassembly of section").unwrap().1;
    assert_eq!(ours, expected);
    assert!(ours.contains("\t\t...\n"));
    assert!(ours.contains(
        "\t.long 0xffffffff                                           // 000000001A68: FFFFFFFF\n"
    ));
}
