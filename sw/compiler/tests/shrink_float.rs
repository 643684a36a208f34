//! Float shrinking (`ir::opt::shrink_float`): a float operation written in
//! double, `(float)((double)x * 0.5)`, compiles to the f32 instruction at
//! `-O`, as clang's InstCombine makes it; what would change the result (a
//! constant that is not a float, a division) keeps the f64 instructions.
//! That the results are clang's bit for bit is
//! `tests/conformance.rs` (kernel `flt_shrink`).

use compiler::{compile, CompileOptions, Source};

/// The instruction mnemonics of kernel `src` at `-O`.
fn listing(src: &str) -> String {
    let c = compile(
        Source::Text {
            name: "t.cl",
            text: src,
        },
        &CompileOptions::default(),
    )
    .unwrap_or_else(|d| panic!("{d}"));
    c.kernels[0].listing()
}

fn kernel(body: &str) -> String {
    format!(
        "__kernel void k(__global float *o, __global int *c) {{\n  int i = get_global_id(0);\n  float a = o[i], b = o[i + 64];\n  {body}\n}}\n"
    )
}

#[test]
fn exact_float_operations_written_in_double_are_done_in_float() {
    for (body, op) in [
        ("o[i] = a * 0.5;", "v_mul_f32"),
        ("o[i] = a + 1.0;", "v_add_f32"),
        ("o[i] = (double)a - (double)b;", "v_sub_f32"),
        ("c[i] = a < 0.5;", "v_cmp_"),
    ] {
        let l = listing(&kernel(body));
        assert!(
            !l.contains("f64"),
            "{body}: an f64 instruction is left:\n{l}"
        );
        assert!(
            l.lines().any(|x| x.contains(op) && x.contains("f32")),
            "{body}: no f32 {op}:\n{l}"
        );
    }
}

#[test]
fn inexact_ones_stay_in_double() {
    for body in [
        "o[i] = a * 0.1;",
        "o[i] = a / 3.0;",
        "o[i] = (double)a * (double)b * 0.75;",
    ] {
        let l = listing(&kernel(body));
        assert!(l.contains("f64"), "{body}: shrunk although inexact:\n{l}");
    }
}
