//! The device library's `double` math (cl_khr_fp64), measured on the
//! golden GPU: each built-in compiled into `o[i] = f(x[i], y[i])` on
//! special values, every binade of both signs, arguments near multiples
//! of pi/2 (and up to 1e300 for the trigonometric functions) and random
//! values, compared with glibc's `long double` functions on the host
//! (64-bit significand: about 2^-11 ULP of a double; `f64_support/
//! reference.c`, built with clang-19). The error is in ULPs of the exact
//! result's double binade (2^-1074 for denormals), as the OpenCL
//! conformance tests count it: a correctly rounded function measures at
//! most 0.5, so the specification's "0 ULP" for `sqrt`, `fmod` and the
//! like is checked as <= 0.5 (plus the reference's 2^-9) for `sqrt` and
//! as 0 for the exact ones. NaN and infinity must match exactly.
//!
//! The reference needs clang-19: the test skips without it, and fails
//! instead with `GPUSIM_REQUIRE_LLVM=1` (as `.ci/run` sets). A CI slice
//! of about 1.3 x 10^4 inputs per function runs by default;
//! `GPUSIM_ULP_FULL=1` runs 2^20 random inputs more per function.

mod backend_support;
use backend_support::{build_kernel, run, TestArg};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// The reference program, built once per process (None: no clang-19).
fn reference_exe() -> Option<&'static PathBuf> {
    static EXE: OnceLock<Option<PathBuf>> = OnceLock::new();
    EXE.get_or_init(|| {
        let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/f64_support/reference.c");
        let exe = std::env::temp_dir().join(format!("gpusim_f64_ref_{}", std::process::id()));
        let out = Command::new("clang-19")
            .args(["-O2", "-o"])
            .arg(&exe)
            .arg(&src)
            .arg("-lm")
            .output();
        let ok = matches!(&out, Ok(o) if o.status.success());
        if !ok {
            let require = std::env::var("GPUSIM_REQUIRE_LLVM").is_ok_and(|v| v == "1");
            assert!(
                !require,
                "GPUSIM_REQUIRE_LLVM=1 but clang-19 cannot build the reference: {out:?}"
            );
            eprintln!("skipped: clang-19 cannot build the long double reference");
            return None;
        }
        Some(exe)
    })
    .as_ref()
}

fn random_count() -> usize {
    if std::env::var("GPUSIM_ULP_FULL").is_ok_and(|v| v == "1") {
        1 << 20
    } else {
        1 << 13
    }
}

/// xorshift64: reproducible random bit patterns.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A double with a random significand and exponent in [lo, hi), either sign.
    fn in_binades(&mut self, lo: i32, hi: i32) -> f64 {
        let b = self.next();
        let e = lo + (b >> 53) as i32 % (hi - lo);
        let m = f64::from_bits((b & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
        let v = m * 2f64.powi(e);
        if b & (1 << 52) != 0 {
            -v
        } else {
            v
        }
    }
}

const SPECIAL: [f64; 18] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    -0.5,
    2.0,
    -2.0,
    3.0,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    f64::MIN_POSITIVE,
    5e-324,
    -5e-324,
    f64::MAX,
    -f64::MAX,
    1e-300,
];

/// Where a function's interesting arguments are (random values go there
/// half of the time, random bit patterns the other half).
#[derive(Clone, Copy)]
enum Range {
    /// Exponent range of |x|.
    Binades(i32, i32),
    /// Uniform in (-a, a).
    Within(f64),
}

/// One-operand inputs.
fn inputs1(seed: u64, range: Range) -> Vec<f64> {
    let mut v = SPECIAL.to_vec();
    for e in 0..2047u64 {
        for m in [0u64, 0x5_5555_5555_5555] {
            let b = (e << 52) | m;
            v.push(f64::from_bits(b));
            v.push(-f64::from_bits(b));
        }
    }
    for k in (1..200_000i64).step_by(397).chain([1, 2, 3, 4, 5, 6, 1000]) {
        let c = k as f64 * std::f64::consts::FRAC_PI_2;
        for d in [-1i64, 0, 1] {
            v.push(f64::from_bits((c.to_bits() as i64 + d) as u64));
        }
    }
    let mut r = Rng(seed);
    for i in 0..random_count() {
        // Quiet NaNs only: a signalling NaN operand of fmin/fmax gives a
        // quiet NaN (the hardware's IEEE mode, as in ROCm's ocml).
        v.push(if i % 2 == 0 {
            let f = f64::from_bits(r.next());
            if f.is_nan() {
                f64::from_bits(f.to_bits() | (1 << 51))
            } else {
                f
            }
        } else {
            match range {
                Range::Binades(lo, hi) => r.in_binades(lo, hi),
                Range::Within(a) => {
                    let u = (r.next() >> 11) as f64 / (1u64 << 53) as f64;
                    a * (2.0 * u - 1.0)
                }
            }
        });
    }
    v
}

/// Runs `expr` (in `a`, `b`, and `n = (int)b`) on the golden GPU, wave32
/// and wave64 alternately by chunk.
fn run_gpu(expr: &str, xs: &[f64], ys: &[f64]) -> Vec<f64> {
    let src = format!(
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void k(__global const double *x, __global const double *y, __global double *o) {{
  uint i = get_global_id(0);
  double a = x[i];
  double b = y[i];
  int n = (int)b;
  int q = 0;
  double p = 0.0;
  o[i] = {expr};
}}"
    );
    let words = |v: &[f64]| -> Vec<u32> {
        v.iter()
            .flat_map(|f| {
                let b = f.to_bits();
                [b as u32, (b >> 32) as u32]
            })
            .collect()
    };
    let mut out = Vec::with_capacity(xs.len());
    let chunk = 1 << 14;
    let k32 = build_kernel(&src, false);
    let k64 = build_kernel(&src, true);
    for (c, (xc, yc)) in xs.chunks(chunk).zip(ys.chunks(chunk)).enumerate() {
        let n = xc.len().div_ceil(64) * 64;
        let mut x = xc.to_vec();
        let mut y = yc.to_vec();
        x.resize(n, 0.0);
        y.resize(n, 0.0);
        let k = if c % 2 == 1 { &k64 } else { &k32 };
        let r = run(
            k,
            n as u32,
            64,
            &[
                TestArg::Buf(words(&x)),
                TestArg::Buf(words(&y)),
                TestArg::Buf(vec![0; 2 * n]),
            ],
        )
        .unwrap_or_else(|e| panic!("{expr}: {e}"));
        out.extend(
            r[2][..2 * xc.len()]
                .chunks(2)
                .map(|w| f64::from_bits(u64::from(w[0]) | (u64::from(w[1]) << 32))),
        );
    }
    out
}

/// The reference's error of each result.
fn errors(name: &str, xs: &[f64], ys: &[f64], got: &[f64]) -> Vec<f64> {
    let exe = reference_exe().expect("checked by the caller");
    let mut child = Command::new(exe)
        .arg(name)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the reference runs");
    let mut input = Vec::with_capacity(xs.len() * 24);
    for i in 0..xs.len() {
        for v in [xs[i], ys[i], got[i]] {
            input.extend_from_slice(&v.to_le_bytes());
        }
    }
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().expect("the reference finishes");
    writer
        .join()
        .expect("writer")
        .expect("write to the reference");
    assert!(out.status.success(), "reference {name} failed");
    out.stdout
        .chunks(8)
        .map(|b| f64::from_le_bytes(b.try_into().expect("8 bytes")))
        .collect()
}

/// Measures `expr` against the reference `name` and asserts `bound`.
fn check(name: &str, expr: &str, bound: f64, xs: &[f64], ys: &[f64]) {
    if reference_exe().is_none() {
        return;
    }
    let got = run_gpu(expr, xs, ys);
    let err = errors(name, xs, ys, &got);
    let mut worst = (0.0f64, 0usize);
    let mut bad = Vec::new();
    for (i, &e) in err.iter().enumerate() {
        if e > worst.0 {
            worst = (e, i);
        }
        if e > bound && bad.len() < 8 {
            bad.push(format!(
                "  {name}({:e} [{:#018x}], {:e}) = {:e} [{:#018x}] ({e} ulp)",
                xs[i],
                xs[i].to_bits(),
                ys[i],
                got[i],
                got[i].to_bits()
            ));
        }
    }
    println!("| `{name}` | {bound} | {:.2} | {} |", worst.0, got.len());
    assert!(
        bad.is_empty(),
        "{name}: errors over {bound} ULP:\n{}",
        bad.join("\n")
    );
}

fn check1(name: &str, bound: f64, seed: u64, range: Range) {
    let xs = inputs1(seed, range);
    let ys = vec![0.0; xs.len()];
    check(name, &format!("{name}(a)"), bound, &xs, &ys);
}

/// Two operands: specials crossed, then random pairs (in `range` half of
/// the time), each paired with a second operand from `yrange`.
fn check2(name: &str, expr: &str, bound: f64, seed: u64, range: Range, yrange: Range) {
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    for &a in &SPECIAL {
        for &b in &SPECIAL {
            xs.push(a);
            ys.push(b);
        }
    }
    let mut r = Rng(seed ^ 0x9e37_79b9_7f4a_7c15);
    let a = inputs1(seed, range);
    let b = inputs1(seed.wrapping_mul(31).wrapping_add(7), yrange);
    for i in 0..a.len() {
        xs.push(a[i]);
        ys.push(if r.next() % 8 == 0 {
            b[(i * 7) % b.len()]
        } else {
            b[i]
        });
    }
    check(name, expr, bound, &xs, &ys);
}

const WIDE: Range = Range::Binades(-30, 30);

/// The bound of a correctly rounded function ("0 ULP" in the
/// specification): half an ULP, plus the reference's own error.
const CR: f64 = 0.5 + 1.0 / 512.0;

#[test]
fn exact_functions() {
    for (n, seed) in [
        ("floor", 1),
        ("ceil", 2),
        ("trunc", 3),
        ("round", 4),
        ("rint", 5),
        ("fabs", 6),
        ("logb", 7),
    ] {
        check1(n, 0.0, seed, Range::Binades(-5, 60));
    }
    check1("sqrt", CR, 8, Range::Binades(-1074, 1023));
    for (n, seed) in [("fmod", 11), ("remainder", 12), ("copysign", 14)] {
        check2(n, &format!("{n}(a, b)"), 0.0, seed, WIDE, WIDE);
    }
    // Correctly rounded: x - y, and fma's one rounding.
    check2("fdim", "fdim(a, b)", CR, 13, WIDE, WIDE);
    for (n, seed) in [
        ("fmin", 15),
        ("fmax", 16),
        ("maxmag", 17),
        ("minmag", 18),
        ("nextafter", 19),
    ] {
        check2(n, &format!("{n}(a, b)"), 0.0, seed, WIDE, WIDE);
    }
    check2("fma", "fma(a, b, a)", CR, 20, WIDE, WIDE);
    // Exact but for denormal results, which round once.
    check2("ldexp", "ldexp(a, n)", CR, 21, WIDE, Range::Within(2200.0));
}

#[test]
fn exponentials_and_logarithms() {
    check1("exp", 3.0, 31, Range::Within(745.0));
    check1("exp2", 3.0, 32, Range::Within(1075.0));
    check1("exp10", 3.0, 33, Range::Within(324.0));
    check1("expm1", 3.0, 34, Range::Within(60.0));
    check1("log", 3.0, 35, Range::Binades(-1074, 1024));
    check1("log2", 3.0, 36, Range::Binades(-1074, 1024));
    check1("log10", 3.0, 37, Range::Binades(-1074, 1024));
    check1("log1p", 2.0, 38, Range::Binades(-60, 10));
    check1("cbrt", 2.0, 39, Range::Binades(-1074, 1024));
    check1("rsqrt", 2.0, 40, Range::Binades(-1074, 1024));
}

#[test]
fn powers() {
    check2(
        "pow",
        "pow(a, b)",
        16.0,
        41,
        Range::Binades(-10, 10),
        Range::Within(300.0),
    );
    check2(
        "powr",
        "powr(a, b)",
        16.0,
        42,
        Range::Binades(-10, 10),
        Range::Within(300.0),
    );
    check2(
        "pown",
        "pown(a, n)",
        16.0,
        43,
        Range::Binades(-4, 4),
        Range::Within(400.0),
    );
    check2("rootn", "rootn(a, n)", 16.0, 44, WIDE, Range::Within(40.0));
    check2("hypot", "hypot(a, b)", 4.0, 45, WIDE, WIDE);
}

#[test]
fn trigonometric() {
    check1("sin", 4.0, 51, Range::Within(1e6));
    check1("cos", 4.0, 52, Range::Within(1e6));
    check1("tan", 5.0, 53, Range::Within(1e6));
    check1("sin", 4.0, 54, Range::Binades(20, 1024));
    check1("cos", 4.0, 55, Range::Binades(20, 1024));
    check1("sinpi", 4.0, 64, Range::Within(8.0));
    check1("cospi", 4.0, 65, Range::Within(8.0));
    check1("tanpi", 6.0, 66, Range::Within(8.0));
    check1("asin", 4.0, 56, Range::Within(1.0));
    check1("acos", 4.0, 57, Range::Within(1.0));
    check1("atan", 5.0, 58, WIDE);
    check2("atan2", "atan2(a, b)", 6.0, 59, WIDE, WIDE);
    check1("asinpi", 5.0, 60, Range::Within(1.0));
    check1("acospi", 5.0, 61, Range::Within(1.0));
    check1("atanpi", 5.0, 62, WIDE);
    check2("atan2pi", "atan2pi(a, b)", 6.0, 63, WIDE, WIDE);
}

#[test]
fn hyperbolic_and_error_functions() {
    check1("sinh", 4.0, 71, Range::Within(720.0));
    check1("cosh", 4.0, 72, Range::Within(720.0));
    check1("tanh", 5.0, 73, Range::Within(25.0));
    check1("asinh", 4.0, 74, WIDE);
    check1("acosh", 4.0, 75, Range::Binades(0, 40));
    check1("atanh", 5.0, 76, Range::Within(1.0));
    check1("erf", 16.0, 77, Range::Within(7.0));
    check1("erfc", 16.0, 78, Range::Within(28.0));
}

/// tgamma (16 ULP) over its whole finite range and beyond (Gamma
/// overflows past 171.6 and underflows below about -184); lgamma (no
/// bound in the specification: ULPs of max(|f|, 1), asserted at 16 like
/// the float one) over a wide range.
#[test]
fn gamma_functions() {
    check1("tgamma", 16.0, 79, Range::Within(200.0));
    check1("tgamma", 16.0, 80, Range::Within(12.0));
    check1("lgamma", 16.0, 81, Range::Within(60.0));
    check1("lgamma", 16.0, 82, Range::Binades(-30, 300));
    // lgamma_r's sign: Gamma(x) < 0 where floor(x) is odd and negative.
    let xs: Vec<f64> = inputs1(83, Range::Within(200.0))
        .into_iter()
        .filter(|x| x.is_finite() && *x != x.round())
        .collect();
    let got = run_gpu("(lgamma_r(a, &q), (double)q)", &xs, &vec![0.0; xs.len()]);
    let value = run_gpu("lgamma_r(a, &q)", &xs, &vec![0.0; xs.len()]);
    let plain = run_gpu("lgamma(a)", &xs, &vec![0.0; xs.len()]);
    for i in 0..xs.len() {
        let x = xs[i];
        let want = if x > 0.0 || x.floor().rem_euclid(2.0) == 0.0 {
            1.0
        } else {
            -1.0
        };
        assert_eq!(got[i], want, "lgamma_r({x:e}) sign");
        assert_eq!(
            value[i].to_bits(),
            plain[i].to_bits(),
            "lgamma_r({x:e}) value"
        );
    }
}

/// The pointer forms store their second result; vectors apply the scalar
/// function per component.
#[test]
fn pointer_and_vector_forms() {
    if reference_exe().is_none() {
        return;
    }
    let xs: Vec<f64> = inputs1(91, WIDE).into_iter().take(4096).collect();
    let ys = vec![0.0; xs.len()];
    // sincos: sin in o, cos checked through a second kernel expression.
    let s = run_gpu("sincos(a, &p) + 0.0 * p", &xs, &ys);
    let c = run_gpu("(sincos(a, &p), p)", &xs, &ys);
    let want_s = run_gpu("sin(a)", &xs, &ys);
    let want_c = run_gpu("cos(a)", &xs, &ys);
    for i in 0..xs.len() {
        let same = |a: f64, b: f64| a == b || (a.is_nan() && b.is_nan());
        assert!(same(s[i], want_s[i]), "sincos sin({})", xs[i]);
        assert!(
            same(c[i], want_c[i]),
            "sincos cos({}) = {} want {}",
            xs[i],
            c[i],
            want_c[i]
        );
    }
    // frexp: m 2^e == x, m in [0.5, 1).
    let m = run_gpu("frexp(a, &q)", &xs, &ys);
    let e = run_gpu("(double)(frexp(a, &q), q)", &xs, &ys);
    for i in 0..xs.len() {
        let x = xs[i];
        if x.is_finite() && x != 0.0 {
            assert!(
                (0.5..1.0).contains(&m[i].abs()),
                "frexp({x}) mantissa {}",
                m[i]
            );
            // Two steps, so a denormal or the largest x is rebuilt exactly.
            let e = e[i] as i32;
            let back = m[i] * 2f64.powi(e / 2) * 2f64.powi(e - e / 2);
            assert_eq!(back, x, "frexp({x}) = {} 2^{}", m[i], e);
        }
    }
    // A double4 through the per-component path, against the scalar one.
    let v = run_gpu(
        "dot(exp((double4)(a, a * 0.5, -a, 1.0)), (double4)(1.0, 1e-3, 1e-6, 1e-9))",
        &xs,
        &ys,
    );
    let sc = run_gpu(
        "fma(1e-9, exp(1.0), fma(1e-6, exp(-a), fma(1e-3, exp(a * 0.5), exp(a))))",
        &xs,
        &ys,
    );
    for i in 0..xs.len() {
        assert!(
            v[i].to_bits() == sc[i].to_bits() || (v[i].is_nan() && sc[i].is_nan()),
            "double4 exp({})",
            xs[i]
        );
    }
}

/// Common, relational and geometric functions on `double4` against the
/// host (exact formulas, or a 2-ULP tolerance where rounding order
/// differs), relational results as `long4` -1/0 and scalar 1/0.
#[test]
fn common_relational_and_geometric_on_double_vectors() {
    let src = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void k(__global const double4 *x, __global double4 *o, __global long4 *l, __global int *s) {
  uint i = get_global_id(0);
  double4 a = x[i];
  o[4*i] = clamp(a, -1.0, 1.0);
  o[4*i+1] = normalize(a);
  o[4*i+2] = (double4)(dot(a, a), length(a), distance(a, 2.0 * a), sign(a.x));
  o[4*i+3] = select(a, -a, isless(a, (double4)(0.0))) + step(0.5, a);
  l[i] = isnan(a) + isinf(a) * 2 + signbit(a) * 4 + isgreater(a, (double4)(1.0)) * 8;
  s[i] = isnan(a.x) + 2 * signbit(a.y) + 4 * any(isless(a, (double4)(0.0))) + 8 * all(isfinite(a));
}";
    let vals = [
        0.3,
        -2.5,
        1e200,
        -1e-310,
        f64::NAN,
        f64::INFINITY,
        -0.0,
        7.0,
    ];
    let mut xs = Vec::new();
    for i in 0..64 {
        for j in 0..4 {
            xs.push(vals[(i * 3 + j * 5 + i / 8) % vals.len()]);
        }
    }
    let words = |v: &[f64]| -> Vec<u32> {
        v.iter()
            .flat_map(|f| [f.to_bits() as u32, (f.to_bits() >> 32) as u32])
            .collect()
    };
    let k = build_kernel(src, false);
    let r = run(
        &k,
        64,
        64,
        &[
            TestArg::Buf(words(&xs)),
            TestArg::Buf(vec![0; 64 * 16 * 2]),
            TestArg::Buf(vec![0; 64 * 4 * 2]),
            TestArg::Buf(vec![0; 64]),
        ],
    )
    .expect("runs");
    let d =
        |w: &[u32], i: usize| f64::from_bits(u64::from(w[2 * i]) | (u64::from(w[2 * i + 1]) << 32));
    let close = |g: f64, w: f64| {
        g == w
            || (g.is_nan() && w.is_nan())
            || ((g - w).abs() <= 4.0 * f64::EPSILON * w.abs() + 2.0 * 5e-324)
    };
    for i in 0..64 {
        let a: Vec<f64> = xs[4 * i..4 * i + 4].to_vec();
        for j in 0..4 {
            // fmin(fmax(x, lo), hi), the specification's definition: NaN gives lo.
            let want = if a[j].is_nan() {
                -1.0
            } else {
                a[j].clamp(-1.0, 1.0)
            };
            assert!(close(d(&r[1], 16 * i + j), want), "clamp({:?})[{j}]", a);
            let sel = if a[j] < 0.0 { -a[j] } else { a[j] } + if a[j] < 0.5 { 0.0 } else { 1.0 };
            assert!(
                close(d(&r[1], 16 * i + 12 + j), sel),
                "select/step({:?})[{j}]",
                a
            );
            let want_l = -(i64::from(a[j].is_nan())
                + 2 * i64::from(a[j].is_infinite())
                + 4 * i64::from(a[j].is_sign_negative())
                + 8 * i64::from(a[j] > 1.0));
            let got_l = d(&r[2], 4 * i + j).to_bits() as i64;
            assert_eq!(got_l, want_l, "relational({:?})[{j}]", a);
        }
        let dot: f64 = a.iter().map(|v| v * v).sum();
        let len = a.iter().map(|v| v * v).sum::<f64>().sqrt();
        // Only where the host's plain formula neither overflows nor underflows.
        if dot.is_finite() && dot > 1e-300 {
            assert!(close(d(&r[1], 16 * i + 8), dot), "dot({a:?})");
            assert!(close(d(&r[1], 16 * i + 9), len), "length({a:?})");
            assert!(close(d(&r[1], 16 * i + 10), len), "distance({a:?})");
            for j in 0..4 {
                assert!(
                    close(d(&r[1], 16 * i + 4 + j), a[j] / len),
                    "normalize({a:?})[{j}]"
                );
            }
        }
        let sg = if a[0].is_nan() {
            0.0
        } else if a[0] == 0.0 {
            a[0]
        } else {
            a[0].signum()
        };
        assert!(close(d(&r[1], 16 * i + 11), sg), "sign({})", a[0]);
        let want_s = i32::from(a[0].is_nan())
            + 2 * i32::from(a[1].is_sign_negative())
            + 4 * i32::from(a.iter().any(|v| *v < 0.0))
            + 8 * i32::from(a.iter().all(|v| v.is_finite()));
        assert_eq!(r[3][i] as i32, want_s, "scalar relational/any/all({a:?})");
    }
}

/// Sub-group and work-group functions on `double` (wave32 and wave64,
/// groups of 256 and of 100, whose last wave is partial) against the host:
/// integer-valued doubles, so sums are exact whatever the order.
#[test]
fn sub_group_and_work_group_functions_on_double() {
    let src = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void k(__global const double *x, __global double *o) {
  size_t g = get_global_id(0);
  double v = x[g];
  o[8 * g] = sub_group_reduce_add(v);
  o[8 * g + 1] = sub_group_scan_inclusive_add(v);
  o[8 * g + 2] = sub_group_scan_exclusive_max(v);
  o[8 * g + 3] = sub_group_broadcast(v, 1u);
  o[8 * g + 4] = work_group_reduce_add(v);
  o[8 * g + 5] = work_group_scan_exclusive_add(v);
  o[8 * g + 6] = work_group_reduce_min(v);
  o[8 * g + 7] = work_group_broadcast(v, 5);
}";
    let n = 800usize;
    let mut r = Rng(99);
    let xs: Vec<f64> = (0..n)
        .map(|_| ((r.next() >> 40) as i64 - (1 << 23)) as f64)
        .collect();
    let words: Vec<u32> = xs
        .iter()
        .flat_map(|f| [f.to_bits() as u32, (f.to_bits() >> 32) as u32])
        .collect();
    for wave64 in [false, true] {
        let w = if wave64 { 64 } else { 32 };
        let k = build_kernel(src, wave64);
        for wg in [256usize, 100] {
            let out = run(
                &k,
                n as u32,
                wg as u32,
                &[TestArg::Buf(words.clone()), TestArg::Buf(vec![0; 16 * n])],
            )
            .expect("runs");
            let got = |i: usize| {
                f64::from_bits(u64::from(out[1][2 * i]) | (u64::from(out[1][2 * i + 1]) << 32))
            };
            for (gi, group) in xs.chunks(wg).enumerate() {
                for (l, _) in group.iter().enumerate() {
                    let g = gi * wg + l;
                    let sg = &group[l / w * w..(l / w * w + w).min(group.len())];
                    let sl = l % w;
                    let want = [
                        sg.iter().sum::<f64>(),
                        sg[..=sl].iter().sum(),
                        sg[..sl].iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b)),
                        sg[1],
                        group.iter().sum(),
                        group[..l].iter().sum(),
                        group.iter().fold(f64::INFINITY, |a, &b| a.min(b)),
                        group[5],
                    ];
                    for (j, want) in want.iter().enumerate() {
                        assert_eq!(
                            got(8 * g + j),
                            *want,
                            "function {j}, work-item {g}, groups of {wg}, wave{w}"
                        );
                    }
                }
            }
        }
    }
}
