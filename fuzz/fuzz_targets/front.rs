//! Fuzz the compiler front end (preprocessor, parser, semantic analysis):
//! any bytes, read as source text, must give a typed AST or a diagnostic —
//! never a panic, a stack overflow or a hang. The corpus kernels make good
//! seeds: `cargo +nightly fuzz run front tests/kernels/`.
#![no_main]

use compiler::front::{compile_to_typed_ast, Options, Source};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let opts = Options {
        include_dirs: vec!["tests/kernels/include".into(), "sw/devlib".into()],
        ..Default::default()
    };
    let _ = compile_to_typed_ast(
        Source::Text {
            name: "fuzz.cl",
            text: &text,
        },
        &opts,
    );
});
