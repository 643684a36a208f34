//! Parser tests: every corpus kernel parses; syntax errors have locations.

use compiler::front::{parse_text, Options};
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repo root")
}

/// Every corpus `.cl` (tests/kernels and tests/kernels/work).
pub fn corpus_files() -> Vec<PathBuf> {
    let mut v = Vec::new();
    for d in ["tests/kernels", "tests/kernels/work"] {
        for e in std::fs::read_dir(repo().join(d)).expect("corpus dir") {
            let p = e.expect("entry").path();
            if p.extension().is_some_and(|x| x == "cl") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

#[test]
fn corpus_parses() {
    let opts = Options {
        include_dirs: vec![
            repo().join("tests/kernels/include"),
            repo().join("sw/devlib"),
        ],
        ..Default::default()
    };
    let files = corpus_files();
    assert!(files.len() >= 35, "corpus has {} files", files.len());
    for f in files {
        let text = std::fs::read_to_string(&f).expect("read");
        if let Err(d) = parse_text(f.to_str().unwrap(), &text, &opts) {
            panic!("{d}");
        }
    }
}

#[test]
fn syntax_errors_point_at_the_token() {
    let e =
        parse_text("t.cl", "kernel void k() { int x = 1 }", &Options::default()).expect_err("bad");
    assert_eq!(e.to_string(), "t.cl:1:29: error: expected ';' after declaration, found '}'\nkernel void k() { int x = 1 }\n                            ^");
}
