//! Every math built-in of the one table ([`compiler::front::library::table::MATH`])
//! compiled for every type it is defined on (float, float2/3/4/8/16), wave32
//! and wave64 (every one is implemented for float); a built-in not
//! implemented yet fails with an error that names the OpenCL function and
//! its argument types, never an internal name.

use compiler::front::library::table::{Impl, Shape, MATH};
use compiler::{compile, CompileOptions, Source};

const WIDTHS: [u8; 6] = [1, 2, 3, 4, 8, 16];

fn ty(base: &str, n: u8) -> String {
    if n == 1 {
        base.to_string()
    } else {
        format!("{base}{n}")
    }
}

/// A kernel calling `name` once on `floatN` operands read from memory.
fn kernel(name: &str, shape: Shape, n: u8) -> String {
    kernel_of("float", name, shape, n)
}

/// The same on `baseN` operands (`float`, `double` or `half`).
fn kernel_of(base: &str, name: &str, shape: Shape, n: u8) -> String {
    let f = ty(base, n);
    let i = ty("int", n);
    let (call, out) = match shape {
        Shape::F1 => (format!("{name}(a)"), f.clone()),
        Shape::F2 => (format!("{name}(a, b)"), f.clone()),
        Shape::F3 => (format!("{name}(a, b, a)"), f.clone()),
        Shape::FI => (format!("{name}(a, k)"), f.clone()),
        Shape::IF => (format!("{name}(a)"), i.clone()),
        Shape::FPtrF => (format!("{name}(a, &pf) + pf"), f.clone()),
        Shape::FPtrI => (format!("{name}(a, &pi) + convert_{f}(pi)"), f.clone()),
        Shape::F2PtrI => (format!("{name}(a, b, &pi) + convert_{f}(pi)"), f.clone()),
    };
    format!(
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void k(__global const {f} *x, __global const {i} *ki, __global {out} *o) {{
  uint g = get_global_id(0);
  {f} a = x[g], b = x[g + 1], pf;
  {i} k = ki[g], pi;
  o[g] = {call};
}}"
    )
}

#[test]
fn every_math_builtin_compiles_for_every_float_type() {
    let mut missing = Vec::new();
    let mut compiled = 0;
    for m in MATH {
        for n in WIDTHS {
            for wave64 in [false, true] {
                let src = kernel(m.name, m.shape, n);
                let mut o = CompileOptions::default();
                o.backend.wave64 = wave64;
                match compile(
                    Source::Text {
                        name: "t.cl",
                        text: &src,
                    },
                    &o,
                ) {
                    Ok(_) => compiled += 1,
                    Err(d) => {
                        let msg = d.message.clone();
                        let want = format!("{}({}", m.name, ty("float", n));
                        assert!(
                            msg.contains("unsupported")
                                && msg.contains(&want)
                                && !msg.contains("__gpusim"),
                            "{} on {} (wave64={wave64}): {d}\n{src}",
                            m.name,
                            ty("float", n)
                        );
                        if let Impl::Native(_) = m.f32 {
                            panic!("native {} failed: {d}", m.name);
                        }
                        if !wave64 {
                            missing.push(format!("{}({})", m.name, ty("float", n)));
                        }
                    }
                }
            }
        }
    }
    eprintln!("compiled {compiled}; not implemented: {missing:?}");
    assert!(
        missing.is_empty(),
        "math built-ins not implemented: {missing:?}"
    );
}

/// The `double` forms (cl_khr_fp64): every row of the table but the ones
/// listed (not written yet, or `half_*`/`native_*`, which OpenCL defines
/// on `float` alone) compiles for `double` … `double16`, wave32 and
/// wave64; the listed ones fail with their OpenCL call (or, for
/// `half_*`/`native_*`, as clang does: no matching overload).
#[test]
fn every_math_builtin_but_the_listed_compiles_for_every_double_type() {
    const NOT_YET: [&str; 0] = [];
    let mut unexpected = Vec::new();
    for m in MATH {
        let absent = NOT_YET.contains(&m.name)
            || m.name.starts_with("half_")
            || m.name.starts_with("native_");
        for n in WIDTHS {
            let wave64 = n % 2 == 1;
            let src = kernel_of("double", m.name, m.shape, n);
            let mut o = CompileOptions::default();
            o.backend.wave64 = wave64;
            let r = compile(
                Source::Text {
                    name: "t.cl",
                    text: &src,
                },
                &o,
            );
            match (r, absent) {
                (Ok(_), false) => {}
                (Err(d), true) => {
                    // `half_divide` and `native_divide` (and `recip`,
                    // `rsqrt`, `sqrt`) share one node, named `native_*`.
                    let native = m.name.replacen("half_", "native_", 1);
                    let named = [m.name, native.as_str()].iter().any(|f| {
                        let want = format!("unsupported: the built-in {f}({}", ty("double", n));
                        d.message.starts_with(&want)
                    });
                    let float_only = d.message.starts_with("no matching overload");
                    assert!(named || float_only, "{}: {d}", m.name);
                }
                (Ok(_), true) => {
                    unexpected.push(format!("{}({}) compiles", m.name, ty("double", n)))
                }
                (Err(d), false) => unexpected.push(format!("{}({}): {d}", m.name, ty("double", n))),
            }
        }
    }
    assert!(unexpected.is_empty(), "{unexpected:#?}");
}

/// The `half` forms (cl_khr_fp16): every row of the table but
/// `half_*`/`native_*` (defined on `float` alone: no matching overload, as
/// clang) compiles for `half` … `half16`, wave32 and wave64.
#[test]
fn every_math_builtin_compiles_for_every_half_type() {
    let mut unexpected = Vec::new();
    for m in MATH {
        let absent = m.name.starts_with("half_") || m.name.starts_with("native_");
        for n in WIDTHS {
            let src = kernel_of("half", m.name, m.shape, n);
            let mut o = CompileOptions::default();
            o.backend.wave64 = n % 2 == 1;
            let r = compile(
                Source::Text {
                    name: "t.cl",
                    text: &src,
                },
                &o,
            );
            match (r, absent) {
                (Ok(_), false) => {}
                (Err(d), true) => assert!(
                    d.message.starts_with("no matching overload"),
                    "{}: {d}",
                    m.name
                ),
                (Ok(_), true) => unexpected.push(format!("{}({}) compiles", m.name, ty("half", n))),
                (Err(d), false) => unexpected.push(format!("{}({}): {d}", m.name, ty("half", n))),
            }
        }
    }
    assert!(unexpected.is_empty(), "{unexpected:#?}");
}

/// The built-ins missing before (the double gamma functions) compile, and
/// a call with no matching overload is reported as the OpenCL call with
/// its argument types, never by a library name.
#[test]
fn former_gaps_compile_and_errors_name_opencl_calls() {
    for src in [
        "__kernel void k(__global double *o) { o[0] = tgamma(o[1]); }",
        "__kernel void k(__global double4 *o) { o[0] = lgamma(o[1]); }",
        "__kernel void k(__global double2 *o, __global int2 *s) { o[0] = lgamma_r(o[1], s); }",
    ] {
        compile(
            Source::Text {
                name: "t.cl",
                text: src,
            },
            &CompileOptions::default(),
        )
        .unwrap_or_else(|d| panic!("{src}: {d}"));
    }
    for (src, want) in [
        (
            "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n__kernel void k(__global half2 *o) { o[0] = sub_group_reduce_add(o[1]); }",
            "no matching overload of 'sub_group_reduce_add' for argument types (half2)",
        ),
        (
            "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n__kernel void k(__global half *o) { o[0] = native_sin(o[1]); }",
            "no matching overload of 'native_sin' for argument types (half)",
        ),
    ] {
        let d = compile(
            Source::Text {
                name: "t.cl",
                text: src,
            },
            &CompileOptions::default(),
        )
        .expect_err(src);
        assert!(d.message.starts_with(want), "{d}");
        assert!(!d.to_string().contains("__gpusim"), "{d}");
    }
}

/// The other families, for every element type and width they are defined
/// on (wave32 for even widths, wave64 for odd ones and scalars).
#[test]
fn common_integer_relational_and_geometric_builtins_compile_for_every_type() {
    const INT: [&str; 8] = [
        "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong",
    ];
    // (call, operand element types, result: "T" = the operand type,
    // "I" = the signed-int type of the same shape, "U" = unsigned, "S" = scalar element)
    let cases: &[(&str, &[&str], &str)] = &[
        ("clamp(a, b, c)", &INT, "T"),
        ("abs(a)", &INT, "U"),
        ("abs_diff(a, b)", &INT, "U"),
        ("add_sat(a, b)", &INT, "T"),
        ("sub_sat(a, b)", &INT, "T"),
        ("hadd(a, b)", &INT, "T"),
        ("rhadd(a, b)", &INT, "T"),
        ("clz(a)", &INT, "T"),
        ("ctz(a)", &INT, "T"),
        ("popcount(a)", &INT, "T"),
        ("mad_hi(a, b, c)", &INT, "T"),
        ("mul_hi(a, b)", &INT, "T"),
        ("rotate(a, b)", &INT, "T"),
        ("min(a, b)", &INT, "T"),
        ("max(a, b)", &INT, "T"),
        ("bitselect(a, b, c)", &INT, "T"),
        (
            "mad_sat(a, b, c)",
            &[
                "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong",
            ],
            "T",
        ),
        ("mad24(a, b, c)", &["int", "uint"], "T"),
        ("mul24(a, b)", &["int", "uint"], "T"),
        ("clamp(a, b, c)", &["float", "half"], "T"),
        ("mix(a, b, c)", &["float", "half"], "T"),
        ("step(a, b)", &["float", "half"], "T"),
        ("smoothstep(a, b, c)", &["float", "half"], "T"),
        ("sign(a)", &["float", "half"], "T"),
        ("degrees(a)", &["float", "half"], "T"),
        ("radians(a)", &["float", "half"], "T"),
        ("min(a, b)", &["float", "half"], "T"),
        ("max(a, b)", &["float", "half"], "T"),
        ("bitselect(a, b, c)", &["float", "half"], "T"),
        ("isequal(a, b)", &["float", "half"], "I"),
        ("isnotequal(a, b)", &["float", "half"], "I"),
        ("isgreater(a, b)", &["float", "half"], "I"),
        ("isgreaterequal(a, b)", &["float", "half"], "I"),
        ("isless(a, b)", &["float", "half"], "I"),
        ("islessequal(a, b)", &["float", "half"], "I"),
        ("islessgreater(a, b)", &["float", "half"], "I"),
        ("isordered(a, b)", &["float", "half"], "I"),
        ("isunordered(a, b)", &["float", "half"], "I"),
        ("isnan(a)", &["float", "half"], "I"),
        ("isinf(a)", &["float", "half"], "I"),
        ("isfinite(a)", &["float", "half"], "I"),
        ("isnormal(a)", &["float", "half"], "I"),
        ("signbit(a)", &["float", "half"], "I"),
    ];
    let mut n = 0;
    for &(call, elems, ret) in cases {
        for &e in elems {
            for w in WIDTHS {
                let t = ty(e, w);
                let r = match ret {
                    "T" => t.clone(),
                    "U" => ty(&format!("u{}", e.trim_start_matches('u')), w),
                    // A relational function's vector result has the
                    // operands' element size: `short` for half.
                    _ if e == "half" && w > 1 => ty("short", w),
                    _ => ty("int", w),
                };
                let src = format!(
                    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void k(__global {t} *x, __global {r} *o) {{
  uint g = get_global_id(0);
  {t} a = x[g], b = x[g + 1], c = x[g + 2];
  o[g] = {call};
}}"
                );
                let mut o = CompileOptions::default();
                o.backend.wave64 = w % 2 == 1;
                compile(
                    Source::Text {
                        name: "t.cl",
                        text: &src,
                    },
                    &o,
                )
                .unwrap_or_else(|d| panic!("{call} on {t}: {d}"));
                n += 1;
            }
        }
    }
    // Geometric: float .. float4 and half .. half4, scalar results except
    // cross/normalize.
    for (e, w) in [1u8, 2, 3, 4]
        .into_iter()
        .flat_map(|w| [("float", w), ("half", w)])
    {
        let t = ty(e, w);
        for call in [
            "dot(a, b)",
            "length(a)",
            "distance(a, b)",
            "fast_length(a)",
            "fast_distance(a, b)",
        ] {
            let src = format!("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n__kernel void k(__global {t} *x, __global {e} *o) {{ uint g = get_global_id(0); {t} a = x[g], b = x[g + 1]; o[g] = {call}; }}");
            compile(
                Source::Text {
                    name: "t.cl",
                    text: &src,
                },
                &CompileOptions::default(),
            )
            .unwrap_or_else(|d| panic!("{call} on {t}: {d}"));
            n += 1;
        }
        for call in ["normalize(a)", "fast_normalize(a)"]
            .into_iter()
            .chain((w >= 3).then_some("cross(a, b)"))
        {
            let src = format!("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n__kernel void k(__global {t} *x, __global {t} *o) {{ uint g = get_global_id(0); {t} a = x[g], b = x[g + 1]; o[g] = {call}; }}");
            compile(
                Source::Text {
                    name: "t.cl",
                    text: &src,
                },
                &CompileOptions::default(),
            )
            .unwrap_or_else(|d| panic!("{call} on {t}: {d}"));
            n += 1;
        }
    }
    eprintln!("compiled {n}");
}

/// The build script's split of the library is whole: every function it
/// found compiles as one translation unit (so a function no test calls is
/// still checked), and compiling one function on demand brings exactly its
/// callees (`__gpusim_sin_f32` needs the trigonometric reduction, not
/// `erf`).
#[test]
fn the_prepared_library_compiles_whole_and_in_parts() {
    use compiler::front::library;
    let all = library::compile_all().unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = library::names().collect();
    assert!(names.len() > 200, "only {} library functions", names.len());
    for n in &names {
        assert!(
            all.function(n).is_some(),
            "{n} is not defined by the whole library"
        );
    }
    let sin = library::source_of(Some("__gpusim_sin_f32")).expect("sin is in the library");
    assert!(sin.contains("__gpusim_sin_f32"));
    assert!(!sin.contains("__gpusim_erf_f32"), "sin's part holds erf");
    assert!(!sin.contains("#define"), "the parts are preprocessed");
    let (part, id) = library::function("__gpusim_sin_f32")
        .unwrap_or_else(|e| panic!("{e}"))
        .expect("sin is in the library");
    assert_eq!(part.tu.functions[id.0 as usize].name, "__gpusim_sin_f32");
    assert!(part.tu.functions.len() < all.tu.functions.len() / 10);
    assert!(library::function("__gpusim_no_such_f32").unwrap().is_none());
}
