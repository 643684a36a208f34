//! Every corpus kernel goes through the whole front end without an error,
//! and the typed AST has the facts later stages rely on.

use compiler::front::tast::{ExprKind, Stmt, ValueKind};
use compiler::front::types::{AddrSpace, Type};
use compiler::front::{compile_to_typed_ast, Options, Source};
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("repo root")
}

fn opts() -> Options {
    Options { include_dirs: vec![repo().join("tests/kernels/include"), repo().join("sw/devlib")], ..Default::default() }
}

fn corpus_files() -> Vec<PathBuf> {
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
fn every_corpus_kernel_type_checks() {
    let files = corpus_files();
    assert!(files.len() >= 35, "corpus has {} files", files.len());
    let mut kernels = 0;
    for f in &files {
        let tu = compile_to_typed_ast(Source::Path(f), &opts()).unwrap_or_else(|d| panic!("{d}"));
        let n = tu.kernels().count();
        assert!(n >= 1, "{} has no kernel", f.display());
        kernels += n;
    }
    assert!(kernels >= files.len());
}
