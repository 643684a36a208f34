//! The command-line options of issue 25 ("OpenCL C as other people write
//! it"): `-include FILE`, `-U NAME`, `-cl-single-precision-constant`, the
//! wave size in `__AMDGCN_WAVEFRONT_SIZE`, clang's folding of `const`
//! variables in array sizes, and the errors that remain errors.

use compiler::front::{preprocess_to_string, Options};
use compiler::{compile, CompileOptions, Source};
use std::path::PathBuf;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/front")
}

#[test]
fn dash_include_comes_before_the_main_file() {
    let header = data_dir().join("inc/defs.h");
    let opts = Options {
        forced_includes: vec![header],
        ..Default::default()
    };
    // defs.h defines FROM_HEADER as 7 behind an include guard.
    let out = preprocess_to_string("t.cl", "int x = FROM_HEADER;", &opts).expect("ok");
    assert_eq!(out, "int x = 7 ;");
    // A relative name is found through -I, as clang does.
    let opts = Options {
        forced_includes: vec!["defs.h".into()],
        include_dirs: vec![data_dir().join("inc")],
        ..Default::default()
    };
    assert_eq!(
        preprocess_to_string("t.cl", "FROM_HEADER", &opts).expect("ok"),
        "7"
    );
    let opts = Options {
        forced_includes: vec!["no_such_header.h".into()],
        ..Default::default()
    };
    let e = preprocess_to_string("t.cl", "int x;", &opts).expect_err("missing");
    assert_eq!(e.message, "'no_such_header.h' file not found");
}

#[test]
fn dash_u_removes_defines_and_predefined_macros() {
    let opts = Options {
        defines: vec![("W".into(), Some("8".into()))],
        undefines: vec!["W".into(), "__AMDGCN__".into()],
        ..Default::default()
    };
    let out = preprocess_to_string("t.cl", "W defined(__AMDGCN__) __gfx1030__", &opts);
    // `defined` outside #if is just an identifier and the parentheses.
    assert_eq!(out.expect("ok"), "W defined ( __AMDGCN__ ) 1");
    let opts = Options {
        undefines: vec!["1x".into()],
        ..Default::default()
    };
    let e = preprocess_to_string("t.cl", "", &opts).expect_err("bad name");
    assert!(
        e.message.contains("given with -U is not an identifier"),
        "{e}"
    );
}

#[test]
fn predefined_macros_follow_clang_and_the_wave_size() {
    let out = preprocess_to_string(
        "t.cl",
        "__AMDGCN_WAVEFRONT_SIZE CL_VERSION_3_0 cl_khr_fp64 FP_FAST_FMAF __SIZEOF_POINTER__ __GFX10__",
        &Options::default(),
    )
    .expect("ok");
    assert_eq!(out, "32 300 1 1 8 1");
    let opts = Options {
        wave64: true,
        ..Default::default()
    };
    let out = preprocess_to_string(
        "t.cl",
        "__AMDGCN_WAVEFRONT_SIZE __AMDGCN_WAVEFRONT_SIZE__",
        &opts,
    );
    assert_eq!(out.expect("ok"), "64 64");
}

fn ir_text(src: &str, single: bool) -> Result<String, String> {
    let mut o = CompileOptions::default();
    o.front.single_precision_constant = single;
    let c = compile(
        Source::Text {
            name: "t.cl",
            text: src,
        },
        &o,
    )
    .map_err(|d| d.to_string())?;
    Ok(c.ir.iter().map(compiler::ir::print).collect())
}

#[test]
fn single_precision_constant_makes_literals_float() {
    let src = "kernel void k(global float *p) { p[0] = p[1] * 0.1 + 2.5; }";
    let doubled = ir_text(src, false).expect("compiles");
    assert!(
        doubled.contains("f64"),
        "without the flag the literal is double:\n{doubled}"
    );
    let single = ir_text(src, true).expect("compiles");
    assert!(
        !single.contains("f64"),
        "with the flag no double is left:\n{single}"
    );
}

#[test]
fn const_variables_fold_into_array_sizes_and_real_vlas_stay_errors() {
    let ok = "kernel void k(global float *p) { const int T = 4; const int N = T * 2; \
              __local float t[T][N]; t[1][2] = p[0]; p[1] = t[1][2] + N; }";
    ir_text(ok, false).expect("clang folds const int sizes");
    let vla = "kernel void k(global float *p, int n) { const int T = n; float a[T]; a[0] = 1; p[0] = a[0]; }";
    let e = ir_text(vla, false).expect_err("a real VLA");
    assert!(
        e.contains("variable length arrays are not supported"),
        "{e}"
    );
    let nonconst =
        "kernel void k(global float *p) { int T = 4; float a[T]; a[0] = 1; p[0] = a[0]; }";
    let e = ir_text(nonconst, false).expect_err("not const");
    assert!(
        e.contains("variable length arrays are not supported"),
        "{e}"
    );
}

#[test]
fn writing_to_a_struct_kernel_argument_is_reported() {
    let src = "typedef struct { int a; float b; } S;\n\
               kernel void k(S s, global int *p) { s.a = 3; p[0] = s.a; }";
    let e = ir_text(src, false).expect_err("read-only in place");
    assert!(
        e.contains("unsupported: assigning to a struct kernel argument"),
        "{e}"
    );
    let ok = "typedef struct { int a; float b; } S;\n\
              kernel void k(S s, const int2 v, global int *p) { p[0] = s.a + (int)s.b + v.y; }";
    ir_text(ok, false).expect("reading is fine");
}
