//! In-process compile time of every corpus kernel gpusim's compiler accepts
//! (front end, lowering, back end and code-object writing: `compiler::compile`
//! on the source text, so no file reading), wave32. The whole-process
//! comparison against clang-19 is `scripts/compiler_compile_time.sh`
//! (docs/compiler-eval.md §4).
//!
//! `cargo bench -p compiler --bench compile`

use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn corpus() -> Vec<(String, String)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/kernels"))
        .expect("tests/kernels")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).expect("read"))
        })
        .collect()
}

fn compile_corpus(c: &mut Criterion) {
    let opts = compiler::CompileOptions::default().include(root().join("tests/kernels/include"));
    let mut group = c.benchmark_group("compile");
    group.sample_size(20);
    for (name, text) in corpus() {
        let src = || compiler::Source::Text {
            name: &name,
            text: &text,
        };
        // Kernels the compiler does not accept yet are not timed.
        if compiler::compile(src(), &opts).is_err() {
            continue;
        }
        group.bench_function(name.as_str(), |b| {
            b.iter(|| {
                compiler::compile(src(), &opts)
                    .expect("compiles")
                    .code_object
                    .len()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, compile_corpus);
criterion_main!(benches);
