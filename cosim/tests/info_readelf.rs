//! `gpusim info` prints every kernel's argument layout exactly as the code
//! object's metadata says, checked for every corpus object of all three
//! targets against the committed `llvm-readelf-19 --notes` decoding of the
//! same note (`tests/kernels/expected/<target>/<kernel>.notes`).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_norway::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The metadata note as llvm-readelf decodes it.
fn notes_yaml(text: &str) -> Value {
    let doc = corpus::readelf_metadata_yaml(text);
    serde_norway::from_str(&doc).unwrap_or_else(|e| panic!("readelf YAML: {e}\n{doc}"))
}

/// One argument row as llvm-readelf gives it: offset, size, value kind,
/// address space ("-" when absent).
fn readelf_args(kernel: &Value) -> Vec<[String; 4]> {
    let field = |a: &Value, k: &str| match a.get(k) {
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::String(s)) => s.clone(),
        _ => "-".to_string(),
    };
    kernel
        .get(".args")
        .and_then(Value::as_sequence)
        .map(|args| {
            args.iter()
                .map(|a| {
                    [
                        field(a, ".offset"),
                        field(a, ".size"),
                        field(a, ".value_kind"),
                        field(a, ".address_space"),
                    ]
                })
                .collect()
        })
        .unwrap_or_default()
}

/// `gpusim info`'s argument rows per kernel: the last four columns (a type
/// name may contain spaces, these never do).
fn info_args(text: &str) -> Vec<(String, Vec<[String; 4]>)> {
    let mut out: Vec<(String, Vec<[String; 4]>)> = Vec::new();
    let mut in_args = false;
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("kernel ") {
            out.push((name.trim().to_string(), Vec::new()));
            in_args = false;
        } else if line.trim() == "arguments:" {
            in_args = true;
        } else if in_args {
            let cols: Vec<&str> = line.split_whitespace().collect();
            if cols.first() == Some(&"#") {
                continue;
            }
            if cols.len() < 6 || cols[0].parse::<usize>().is_err() {
                in_args = false;
                continue;
            }
            let n = cols.len();
            let row = [cols[n - 4], cols[n - 3], cols[n - 2], cols[n - 1]].map(str::to_string);
            out.last_mut().expect("a kernel line first").1.push(row);
        }
    }
    out
}

#[test]
fn info_argument_layouts_equal_llvm_readelf_notes() {
    let mut kernels = 0;
    let mut args = 0;
    for target in ["gfx803", "gfx1030", "gfx1030-w64"] {
        let dir = repo().join("tests/kernels/prebuilt").join(target);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "hsaco"))
            .collect();
        files.sort();
        for file in files {
            let stem = file.file_stem().unwrap().to_string_lossy().to_string();
            let notes = repo()
                .join("tests/kernels/expected")
                .join(target)
                .join(format!("{stem}.notes"));
            let yaml = notes_yaml(&std::fs::read_to_string(&notes).unwrap());
            let o = Command::new(env!("CARGO_BIN_EXE_gpusim"))
                .args(["info", file.to_str().unwrap()])
                .output()
                .unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let ours = info_args(&String::from_utf8_lossy(&o.stdout));
            let theirs = yaml
                .get("amdhsa.kernels")
                .and_then(Value::as_sequence)
                .expect("amdhsa.kernels");
            assert_eq!(ours.len(), theirs.len(), "{target}/{stem}: kernel count");
            for (k, (name, rows)) in theirs.iter().zip(&ours) {
                let want_name = k.get(".name").and_then(Value::as_str).unwrap();
                assert_eq!(name, want_name, "{target}/{stem}");
                let want = readelf_args(k);
                assert_eq!(rows, &want, "{target}/{stem}: kernel {name}");
                kernels += 1;
                args += rows.len();
            }
        }
    }
    assert!(kernels >= 3 * 24, "{kernels} kernels");
    assert!(args >= kernels * 2, "{args} arguments");
}
