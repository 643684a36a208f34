//! Preprocessor tests: includes through -I, macros with # and ##,
//! conditionals, -D, pragmas, locations.

use compiler::front::{preprocess_to_string, Options};
use std::path::PathBuf;

fn pp(src: &str) -> String {
    preprocess_to_string("t.cl", src, &Options::default()).unwrap_or_else(|d| panic!("{d}"))
}
fn pp_err(src: &str) -> String {
    preprocess_to_string("t.cl", src, &Options::default())
        .expect_err("must fail")
        .to_string()
}
fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/front")
}

#[test]
fn object_and_function_macros() {
    assert_eq!(pp("#define N 4\nint a[N];"), "int a [ 4 ] ;");
    assert_eq!(
        pp("#define SQ(x) ((x) * (x))\nSQ(a + 1)"),
        "( ( a + 1 ) * ( a + 1 ) )"
    );
    assert_eq!(pp("#define F(a, b) a + b\nF((1, 2), 3)"), "( 1 , 2 ) + 3");
    // A function-like macro name without '(' stays an identifier.
    assert_eq!(pp("#define F(a) a\nint F;"), "int F ;");
    // Recursion stops (Prosser hide sets).
    assert_eq!(pp("#define X X + 1\nX"), "X + 1");
    assert_eq!(pp("#define A B\n#define B A\nA B"), "A B");
}

#[test]
fn stringize_and_paste() {
    assert_eq!(pp("#define S(x) #x\nS(a  +  \"q\")"), r#""a + \"q\"""#);
    assert_eq!(
        pp("#define CAT(a, b) a ## b\nCAT(gs_, id) CAT(1, 2u)"),
        "gs_id 12u"
    );
    assert_eq!(pp("#define CAT(a, b) a ## b\nCAT(, x) CAT(y, )"), "x y");
    // Arguments of ## are not expanded, other arguments are.
    assert_eq!(pp("#define N 3\n#define C(a) a ## 1 a\nC(N)"), "N1 3");
    assert_eq!(pp("#define V(...) f(__VA_ARGS__)\nV(1, 2)"), "f ( 1 , 2 )");
    assert!(pp_err("#define P(a, b) a ## b\nP(+, /)")
        .contains("pasting formed '+/', an invalid preprocessing token"));
}

#[test]
fn conditionals() {
    let src = "#define A 2\n#if A > 1 && defined(A)\nyes\n#elif 1\nno1\n#else\nno2\n#endif\n\
               #ifdef B\nno3\n#else\nyes2\n#endif\n#if 0\n#if 1\nno4\n#endif\n#elif (3 % 2) == 1 ? 1 : 0\nyes3\n#endif\n\
               #ifndef A\nno5\n#endif\n#if -1 < 0u\nno6\n#else\nyes4\n#endif";
    assert_eq!(pp(src), "yes\nyes2\nyes3\nyes4");
    assert!(pp_err("#if 1\nx").contains("t.cl:1:1: error: unterminated conditional directive"));
    assert!(pp_err("#endif").contains("#endif without #if"));
    assert!(pp_err("#if 1 / 0\n#endif").contains("division by zero in preprocessor expression"));
    assert!(pp_err("#error stop here").contains("t.cl:1:2: error: #error stop here"));
}

#[test]
fn command_line_defines() {
    let opts = Options {
        defines: vec![("W".into(), Some("8".into())), ("FLAG".into(), None)],
        ..Default::default()
    };
    let out = preprocess_to_string("t.cl", "#if FLAG\nint a[W];\n#endif", &opts).expect("ok");
    assert_eq!(out, "int a [ 8 ] ;");
    // Predefined macros of the gfx1030 target; without -cl-std, OpenCL C
    // 1.2 as in clang-19.
    assert_eq!(
        pp("__OPENCL_C_VERSION__ __ATOMIC_ACQUIRE __OPENCL_MEMORY_SCOPE_DEVICE"),
        "120 2 2"
    );
}

/// `__OPENCL_C_VERSION__`, `CL_VERSION_*` and the feature macros per
/// `-cl-std`, as `clang-19 -x cl [-cl-std=…] -target amdgcn-amd-amdhsa
/// -mcpu=gfx1030 -dM -E - </dev/null` lists them; `__OPENCL_VERSION__`
/// only when a runtime gives the device's version (clang never defines it).
#[test]
fn version_macros_follow_cl_std_as_in_clang() {
    let text = "__OPENCL_C_VERSION__ CL_VERSION_1_0 CL_VERSION_1_1 CL_VERSION_1_2 \
                CL_VERSION_2_0 CL_VERSION_3_0 __OPENCL_VERSION__ \
                __opencl_c_generic_address_space __opencl_c_named_address_space_builtins \
                __opencl_c_fp64 cl_khr_subgroups __opencl_c_int64";
    let run = |cl_std: Option<u32>, opencl_version: Option<u32>| {
        let opts = Options {
            cl_std,
            opencl_version,
            ..Default::default()
        };
        preprocess_to_string("t.cl", text, &opts).expect("ok")
    };
    assert_eq!(
        run(None, None),
        "120 100 110 120 200 300 __OPENCL_VERSION__ __opencl_c_generic_address_space 1 \
         __opencl_c_fp64 cl_khr_subgroups 1"
    );
    assert_eq!(run(Some(120), None), run(None, None));
    assert_eq!(
        run(Some(200), None),
        "200 100 110 120 200 300 __OPENCL_VERSION__ 1 __opencl_c_named_address_space_builtins \
         __opencl_c_fp64 1 1"
    );
    assert_eq!(
        run(Some(300), Some(120)),
        "300 100 110 120 200 300 120 __opencl_c_generic_address_space 1 1 cl_khr_subgroups 1"
    );
    assert!(run(Some(110), None).starts_with("110 "));
    assert_eq!(compiler::front::parse_cl_std("cl2.0"), Some(200));
    assert_eq!(compiler::front::parse_cl_std("CL2.1"), None);
}

#[test]
fn includes_through_dash_i() {
    let dir = data_dir();
    let main = std::fs::read_to_string(dir.join("pp_main.cl")).expect("read");
    // Not found without -I (the header lives in inc/).
    let e = preprocess_to_string(
        dir.join("pp_main.cl").to_str().unwrap(),
        &main,
        &Options::default(),
    )
    .expect_err("no -I");
    assert_eq!(e.message, "'defs.h' file not found");
    assert_eq!((e.line, e.col), (1, 10));
    let opts = Options {
        include_dirs: vec![dir.join("inc")],
        ..Default::default()
    };
    let out = preprocess_to_string("pp_main.cl", &main, &opts).expect("ok");
    // The include guard keeps the second include empty.
    assert_eq!(out, "int x = 7 ;");
}

#[test]
fn pragma_unroll_becomes_a_token() {
    assert_eq!(pp("#pragma unroll\nfor"), "<Unroll(None)>\nfor");
    assert_eq!(
        pp("#define U 4\n#pragma unroll U\nfor"),
        "<Unroll(Some(4))>\nfor"
    );
    assert_eq!(
        pp("#define U32 _Pragma(\"unroll 32\")\nU32 for"),
        "<Unroll(Some(32))> for"
    );
    // `EXTENSION all` (or cl_khr_fp16) enables half parameters; other
    // extensions and unknown pragmas leave nothing.
    assert_eq!(
        pp("#pragma OPENCL FP_CONTRACT OFF\n#pragma OPENCL EXTENSION all : enable\n#pragma foo"),
        "<FpContract(false)>\n<Fp16(true)>"
    );
    assert_eq!(
        pp("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#pragma OPENCL EXTENSION cl_khr_fp16 : disable"),
        "<Fp16(false)>"
    );
    assert!(pp_err("#pragma unroll 0\n").contains("invalid value '0'; must be positive"));
}

#[test]
fn locations_survive_macros() {
    // A token from a macro body is reported where the macro is used.
    let d = preprocess_to_string("t.cl", "#define BAD @\nint x;\n  BAD", &Options::default())
        .expect_err("bad char");
    assert_eq!(
        (d.line, d.col),
        (1, 13),
        "lexing happens before expansion: the '@' itself"
    );
    let d = pp_err("#define F(a) a\nF(1");
    assert!(
        d.starts_with("t.cl:2:1: error: unterminated function-like macro invocation"),
        "{d}"
    );
    let d = pp_err("#define F(a) a\nF(1, 2)");
    assert!(d.starts_with("t.cl:2:1: error: too many arguments provided to function-like macro invocation 'F'\nF(1, 2)\n^"), "{d}");
}

#[test]
fn object_like_macros_paste_and_keep_hash() {
    assert_eq!(pp("#define X a ## b\nX"), "ab");
    // `#` in an object-like macro is an ordinary token.
    assert_eq!(pp("#define H # x\nH"), "# x");
}

#[test]
fn errors_inside_headers_name_the_header() {
    let dir = data_dir();
    let opts = Options {
        include_dirs: vec![dir.join("inc")],
        ..Default::default()
    };
    let src = "#include \"bad.h\"\nkernel void k(global int *p) { p[0] = helper(1); }\n";
    let d = compiler::front::compile_to_typed_ast(
        compiler::front::Source::Text {
            name: "main.cl",
            text: src,
        },
        &opts,
    )
    .expect_err("header error");
    assert!(d.path.ends_with("inc/bad.h"), "{}", d.path);
    assert_eq!(
        (d.line, d.col, d.message.as_str()),
        (2, 14, "use of undeclared identifier 'missing_in_header'")
    );
    assert_eq!(d.source_line, "  return x + missing_in_header;");
}

#[test]
fn self_inclusion_and_bad_defines_are_errors() {
    let dir = data_dir();
    let opts = Options {
        include_dirs: vec![dir.join("inc")],
        ..Default::default()
    };
    let d = preprocess_to_string("m.cl", "#include \"self.h\"\n", &opts)
        .expect_err("recursive include");
    assert_eq!(d.message, "#include nested too deeply");
    assert!(d.path.ends_with("self.h"));
    let opts = Options {
        defines: vec![("1BAD".into(), None)],
        ..Default::default()
    };
    let d = preprocess_to_string("m.cl", "", &opts).expect_err("bad -D");
    assert_eq!(
        d.to_string(),
        "<command line>:1:1: error: macro name '1BAD' given with -D is not an identifier\n\n^"
    );
}

#[test]
fn caret_keeps_tabs() {
    let d =
        preprocess_to_string("t.cl", "\tint x;\n\t\t@", &Options::default()).expect_err("bad char");
    assert_eq!(
        d.to_string(),
        "t.cl:2:3: error: invalid character '@' in source\n\t\t@\n\t\t^"
    );
}

/// `#line N ["name"]` renumbers the lines after it and renames the file
/// for `__LINE__` and `__FILE__` (C99 6.10.4; the Khronos test
/// `kernel_preprocessor_macros` starts with one, and gpusim refused it:
/// "#line is not supported").
#[test]
fn line_directives_renumber_and_rename() {
    assert_eq!(pp("__LINE__ __FILE__"), "1 \"t.cl\"");
    assert_eq!(
        pp("a __LINE__\n#line 100\nb __LINE__\nc __LINE__ __FILE__"),
        "a 1\nb 100\nc 101 \"t.cl\""
    );
    assert_eq!(
        pp("#line 7 \"gen.cl\"\n__LINE__ __FILE__\n#line 1\n__LINE__ __FILE__"),
        "7 \"gen.cl\"\n1 \"t.cl\""
    );
    assert!(pp_err("#line x\n").contains("#line needs a line number"));
}
