//! Front-end timing over the corpus: every kernel file through
//! `compile_to_typed_ast` (preprocess, parse, check; headers read from disk
//! each time), repeated; prints the mean per file and the total.
//!
//!     cargo run --release -p compiler --example front_bench -- [REPEATS]
//!
//! Compare with clang's front end alone on the same files:
//!     time (for f in tests/kernels/*.cl; do clang-19 -x cl -cl-std=CL2.0 \
//!       -target amdgcn-amd-amdhsa -mcpu=gfx1030 -nogpulib \
//!       -I tests/kernels/include -I sw/devlib -fsyntax-only $f; done)

use compiler::front::{compile_to_typed_ast, Options, Source};
use std::path::{Path, PathBuf};
use std::time::Instant;

fn main() {
    let repeats: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repo root");
    let opts = Options {
        include_dirs: vec![root.join("tests/kernels/include"), root.join("sw/devlib")],
        ..Default::default()
    };
    let mut files: Vec<PathBuf> = Vec::new();
    for d in ["tests/kernels", "tests/kernels/work"] {
        for e in std::fs::read_dir(root.join(d)).expect("corpus") {
            let p = e.expect("entry").path();
            if p.extension().is_some_and(|x| x == "cl") {
                files.push(p);
            }
        }
    }
    files.sort();
    let t = Instant::now();
    for _ in 0..repeats {
        for f in &files {
            compile_to_typed_ast(Source::Path(f), &opts).expect("corpus compiles");
        }
    }
    let total = t.elapsed();
    let per = total / (repeats * files.len() as u32);
    println!(
        "front_bench: {} files x {repeats}: {:?} total, {:?} per file (mean)",
        files.len(),
        total,
        per
    );
}
