//! What the whole compiler (front end, lowering, back end) refuses is
//! reported as `file:line:col: error:` in OpenCL's own words: the built-in
//! as the user called it with its argument types, OpenCL type names
//! (`double`, `long`, `half`), never an IR type (`f64`, `i64`), an IR block
//! or a Rust enum variant of the compiler (`WorkgroupSize(0)`, `HwExp2`).
//! Parse and type errors are tests/front_errors/; these are the later ones.

use compiler::{compile, CompileOptions, Source};

/// Words that only exist inside the compiler.
const INTERNAL: [&str; 12] = [
    "i64", "f64", "f16", "i16", "i8 ", "i1 ", "ptr.", "block", "Some(", "Hw", "Builtin", "(0)",
];

/// Compiles `src` as `t.cl`; the rendered diagnostic.
fn error_of(src: &str) -> String {
    match compile(
        Source::Text {
            name: "t.cl",
            text: src,
        },
        &CompileOptions::default(),
    ) {
        Ok(_) => panic!(
            "compiled without error (now supported? move it to the conformance corpus):\n{src}"
        ),
        Err(d) => d.to_string(),
    }
}

fn check(src: &str, want: &str) {
    let got = error_of(src);
    let first = got.lines().next().unwrap_or("");
    assert_eq!(first, want, "\n{got}");
    for w in INTERNAL {
        assert!(!first.contains(w), "internal name {w:?} in: {first}");
    }
}

#[test]
fn unsupported_builtins_are_named_as_called() {
    check(
        "__kernel void k(__global uchar *o) {\n  __constant uchar *p = __builtin_amdgcn_implicitarg_ptr();\n  o[0] = p[0];\n}\n",
        "t.cl:2:25: error: unsupported: the built-in __builtin_amdgcn_implicitarg_ptr()",
    );
}

/// `half` arithmetic and `half` kernel arguments compile with cl_khr_fp16
/// enabled (conformance kernel `half_arith`); without the pragma a `half`
/// parameter is refused as clang refuses it, by the type's name.
#[test]
fn half_is_named_half() {
    check(
        "__kernel void k(__global half *o, half h) {\n  o[0] = o[1] * h;\n}\n",
        "t.cl:1:40: error: declaring function parameter of type 'half' is not allowed; did you forget * ?",
    );
}

#[test]
fn program_scope_variables_that_are_refused_say_why() {
    check(
        "__constant int a = 1;\n\
         __constant int *const p = &a;\n\
         kernel void k(global int *o) { o[0] = *p; }\n",
        "t.cl:2:27: error: unsupported: an address in the initializer of program-scope variable `p`",
    );
}
