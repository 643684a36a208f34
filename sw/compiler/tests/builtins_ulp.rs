//! The device library's precision, measured on the golden GPU: each math
//! built-in compiled into `o[i] = f(x[i], y[i])`, run over many inputs
//! (special values, every binade, arguments near multiples of pi/2, large
//! trig arguments, random bit patterns) and compared with a host reference
//! in f64 (correctly rounded to well within the f32 bounds). The error is
//! counted in ULPs of the reference's f32 binade (denormal ULP = 2^-149),
//! as the OpenCL conformance tests do; NaN and infinity must match exactly.
//!
//! A CI-sized slice runs by default; `GPUSIM_ULP_FULL=1` runs more than
//! 10^6 inputs per function. Each test prints its line of the table in
//! docs/compiler.md (function, bound, measured maximum error, inputs).

mod backend_support;
use backend_support::{build_kernel, run, TestArg};
use std::f64::consts::PI;
mod math_ref;
use math_ref::{erf_series, erfc_ref, reduce2, remainder_ref, rootn_ref, tgamma_ref};

/// How many inputs: the special and structured ones plus random bit patterns.
fn random_count() -> usize {
    if std::env::var("GPUSIM_ULP_FULL").is_ok_and(|v| v == "1") {
        1 << 20
    } else {
        1 << 11
    }
}

/// xorshift32: reproducible random bit patterns.
struct Rng(u32);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }
}

const SPECIAL: [f32; 16] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    -0.5,
    2.0,
    -2.0,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    f32::MIN_POSITIVE,
    1e-45,
    f32::MAX,
    -f32::MAX,
    3.0,
];

/// One-operand inputs: specials, two values per binade (both signs),
/// values around multiples of pi/2 (up to 2^16 pi/2 and a few far ones),
/// trig arguments up to 1e30, then random bit patterns.
fn inputs1(seed: u32) -> Vec<f32> {
    let mut v: Vec<f32> = SPECIAL.to_vec();
    for e in 0..255u32 {
        for m in [0u32, 0x2a_aaab, 0x7f_ffff] {
            let b = (e << 23) | m;
            v.push(f32::from_bits(b));
            v.push(-f32::from_bits(b));
        }
    }
    for k in (1..70000i64)
        .step_by(97)
        .chain([1, 2, 3, 4, 5, 6, 7, 8, 100, 1000])
    {
        let c = (k as f64 * PI / 2.0) as f32;
        for d in [-2i32, -1, 0, 1, 2] {
            v.push(f32::from_bits((c.to_bits() as i32 + d) as u32));
        }
    }
    let mut r = Rng(seed);
    for i in 0..random_count() {
        let b = r.next();
        // Half of the random values in the trig-sized range |x| < 2^7.
        v.push(if i % 2 == 0 {
            f32::from_bits(b)
        } else {
            f32::from_bits((b & 0x807f_ffff) | ((0x70 + (b >> 23) % 0x16) << 23))
        });
    }
    v
}

/// ULP error of `got` against the f64 reference `want` (infinite for a
/// NaN or infinity mismatch).
fn ulp_error(got: f32, want: f64) -> f64 {
    if want.is_nan() {
        return if got.is_nan() { 0.0 } else { f64::INFINITY };
    }
    if got.is_nan() {
        return f64::INFINITY;
    }
    if want.is_infinite() || got.is_infinite() {
        // A finite reference beyond FLT_MAX rounds to infinity.
        let w = want as f32;
        return if w == got { 0.0 } else { f64::INFINITY };
    }
    let e = if want == 0.0 {
        -149
    } else {
        (want.abs().log2().floor() as i32).max(-126) - 23
    };
    (f64::from(got) - want).abs() / 2f64.powi(e)
}

/// Runs `expr` (in `a`, `b`) over the pairs on the golden GPU, wave32 and
/// wave64 alternately by chunk, and returns the results.
fn run_gpu(expr: &str, b_int: bool, xs: &[f32], ys: &[u32]) -> Vec<f32> {
    let bt = if b_int { "int" } else { "float" };
    let src = format!(
        "__kernel void k(__global const float *x, __global const {bt} *y, __global float *o) {{
  uint i = get_global_id(0);
  float a = x[i];
  {bt} b = y[i];
  int q = 0;
  float p = 0.0f;
  o[i] = {expr};
}}"
    );
    let mut out = Vec::with_capacity(xs.len());
    let chunk = 1 << 14;
    for (c, (xc, yc)) in xs.chunks(chunk).zip(ys.chunks(chunk)).enumerate() {
        let n = xc.len().div_ceil(64) * 64;
        let mut x: Vec<u32> = xc.iter().map(|f| f.to_bits()).collect();
        let mut y = yc.to_vec();
        x.resize(n, 0);
        y.resize(n, 0);
        let k = build_kernel(&src, c % 2 == 1);
        let r = run(
            &k,
            n as u32,
            64,
            &[TestArg::Buf(x), TestArg::Buf(y), TestArg::Buf(vec![0; n])],
        )
        .unwrap_or_else(|e| panic!("{expr}: {e}"));
        out.extend(r[2][..xc.len()].iter().map(|&b| f32::from_bits(b)));
    }
    out
}

/// Measures `name` against `reference` and asserts the bound.
fn check(
    name: &str,
    expr: &str,
    bound: f64,
    xs: &[f32],
    ys: &[f32],
    reference: impl Fn(f64, f64) -> f64,
) {
    let yb: Vec<u32> = ys.iter().map(|f| f.to_bits()).collect();
    let got = run_gpu(expr, false, xs, &yb);
    report(name, bound, xs, ys, &got, |i| {
        reference(f64::from(xs[i]), f64::from(ys[i]))
    });
}

fn report(
    name: &str,
    bound: f64,
    xs: &[f32],
    ys: &[f32],
    got: &[f32],
    reference: impl Fn(usize) -> f64,
) {
    let mut worst = (0.0f64, 0usize);
    let mut bad = Vec::new();
    for (i, &g) in got.iter().enumerate() {
        let want = reference(i);
        let e = ulp_error(g, want);
        if e > worst.0 || (worst.0 == 0.0 && i == 0) {
            worst = (e, i);
        }
        if e > bound && bad.len() < 8 {
            bad.push(format!(
                "  {name}({:e} [{:#010x}], {:e}) = {:e} [{:#010x}], want {:e} ({e} ulp)",
                xs[i],
                xs[i].to_bits(),
                ys[i],
                g,
                g.to_bits(),
                want
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

/// A one-operand function: `y` unused.
fn check1(name: &str, bound: f64, seed: u32, reference: impl Fn(f64) -> f64) {
    let xs = inputs1(seed);
    let ys = vec![0.0; xs.len()];
    check(name, &format!("{name}(a)"), bound, &xs, &ys, |x, _| {
        reference(x)
    });
}

/// Two-operand inputs: specials crossed with specials, then random pairs
/// (one of the pair often in a moderate range so results stay finite).
fn inputs2(seed: u32) -> (Vec<f32>, Vec<f32>) {
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    let more = [
        0.25f32, 4.0, 1e10, -1e10, 1e-10, 7.5, -7.5, 0.999, 1.001, 100.0, -3.0, 5.0,
    ];
    for &a in SPECIAL.iter().chain(&more) {
        for &b in SPECIAL.iter().chain(&more) {
            xs.push(a);
            ys.push(b);
        }
    }
    let mut r = Rng(seed);
    for i in 0..random_count() {
        let (a, b) = (r.next(), r.next());
        let moderate =
            |b: u32| f32::from_bits((b & 0x807f_ffff) | ((0x78 + (b >> 23) % 0x10) << 23));
        match i % 3 {
            0 => {
                xs.push(f32::from_bits(a));
                ys.push(f32::from_bits(b));
            }
            1 => {
                xs.push(f32::from_bits(a & 0x7fff_ffff));
                ys.push(moderate(b));
            }
            _ => {
                xs.push(moderate(a).abs());
                ys.push(moderate(b));
            }
        }
    }
    (xs, ys)
}

fn check2(name: &str, bound: f64, seed: u32, reference: impl Fn(f64, f64) -> f64) {
    let (xs, ys) = inputs2(seed);
    check(name, &format!("{name}(a, b)"), bound, &xs, &ys, reference);
}

#[test]
fn sin_cos_tan() {
    check1("sin", 4.0, 1, f64::sin);
    check1("cos", 4.0, 2, f64::cos);
    check1("tan", 5.0, 3, f64::tan);
}

#[test]
fn sinpi_cospi_tanpi() {
    check1("sinpi", 4.0, 4, |x| {
        let r = reduce2(x);
        if x.is_infinite() {
            f64::NAN
        } else if r == 0.0 || r.abs() == 1.0 {
            0f64.copysign(x)
        } else {
            (PI * r).sin()
        }
    });
    check1("cospi", 4.0, 5, |x| {
        if x.is_infinite() {
            f64::NAN
        } else {
            let r = reduce2(x).abs();
            if r == 0.5 {
                0.0
            } else {
                (PI * r).cos()
            }
        }
    });
    check1("tanpi", 6.0, 6, |x| {
        if x.is_infinite() {
            f64::NAN
        } else {
            let r = reduce2(x);
            // tanpi has period 1: tan(pi r) with exact zeros at integers.
            let s = (PI * r).sin();
            let c = (PI * r).cos();
            if r == 0.0 {
                0.0f64.copysign(x)
            } else if r.abs() == 1.0 {
                0.0f64.copysign(-x)
            } else if r.abs() == 0.5 {
                f64::INFINITY.copysign(r)
            } else {
                s / c
            }
        }
    });
}

#[test]
fn inverse_trig() {
    check1("asin", 4.0, 7, f64::asin);
    check1("acos", 4.0, 8, f64::acos);
    check1("atan", 5.0, 9, f64::atan);
    check1("asinpi", 5.0, 10, |x| x.asin() / PI);
    check1("acospi", 5.0, 11, |x| x.acos() / PI);
    check1("atanpi", 5.0, 12, |x| x.atan() / PI);
    check2("atan2", 6.0, 13, f64::atan2);
    check2("atan2pi", 6.0, 14, |y, x| y.atan2(x) / PI);
}

#[test]
fn hyperbolic() {
    check1("sinh", 4.0, 15, f64::sinh);
    check1("cosh", 4.0, 16, f64::cosh);
    check1("tanh", 5.0, 17, f64::tanh);
    check1("asinh", 4.0, 18, f64::asinh);
    check1("acosh", 4.0, 19, f64::acosh);
    check1("atanh", 5.0, 20, f64::atanh);
}

#[test]
fn error_functions() {
    check1("erf", 16.0, 49, |x| {
        if x.is_nan() {
            x
        } else if x.abs() < 2.0 {
            erf_series(x)
        } else {
            (1.0 - erfc_ref(x.abs())).copysign(x)
        }
    });
    check1("erfc", 16.0, 50, erfc_ref);
}

#[test]
fn gamma_functions() {
    // tgamma: inputs where the result is a float (|x| < 36) or overflows.
    let xs: Vec<f32> = inputs1(51)
        .into_iter()
        .filter(|x| x.abs() < 50.0 || !x.is_finite())
        .collect();
    let ys = vec![0.0; xs.len()];
    check("tgamma", "tgamma(a)", 16.0, &xs, &ys, |x, _| tgamma_ref(x));
    // lgamma has no bound in the specification: measured in ULPs of
    // max(|lgamma(x)|, 1) (its zeros need an absolute measure), asserted
    // within 16 for |x| < 30.
    let got = run_gpu("lgamma(a)", false, &xs, &vec![0; xs.len()]);
    let mut worst = 0.0f64;
    for (&x, &g) in xs.iter().zip(&got) {
        let x = f64::from(x);
        let want = tgamma_ref(x).abs().ln();
        if want.is_finite() && x.abs() < 30.0 {
            let scale = f64::from(ulp32(want.abs().max(1.0) as f32));
            let e = (f64::from(g) - want).abs() / scale;
            worst = worst.max(e);
            assert!(e <= 16.0, "lgamma({x}) = {g}, want {want}");
        }
    }
    println!(
        "| `lgamma` | none | {worst:.2} (of max(|f|, 1), |x| < 30) | {} |",
        xs.len()
    );
}

fn ulp32(x: f32) -> f32 {
    f32::from_bits(x.to_bits() + 1) - x
}

#[test]
fn exponentials() {
    check1("exp", 3.0, 21, f64::exp);
    check1("exp2", 3.0, 22, f64::exp2);
    check1("exp10", 3.0, 23, |x| 10f64.powf(x));
    check1("expm1", 3.0, 24, f64::exp_m1);
}

#[test]
fn logarithms() {
    check1("log", 3.0, 25, f64::ln);
    check1("log2", 3.0, 26, f64::log2);
    check1("log10", 3.0, 27, f64::log10);
    check1("log1p", 2.0, 28, f64::ln_1p);
    check1("logb", 0.0, 29, |x| {
        if x == 0.0 {
            f64::NEG_INFINITY
        } else if x.is_finite() {
            x.abs().log2().floor().clamp(-149.0, 127.0)
        } else {
            x.abs()
        }
    });
    check1("cbrt", 2.0, 30, f64::cbrt);
}

#[test]
fn powers() {
    check2("pow", 16.0, 31, f64::powf);
    check2("powr", 16.0, 32, |x, y| {
        if x < 0.0
            || x.is_nan()
            || y.is_nan()
            || (x == 0.0 && y == 0.0)
            || (x.is_infinite() && y == 0.0)
            || (x == 1.0 && y.is_infinite())
        {
            f64::NAN
        } else {
            x.powf(y)
        }
    });
    check2("hypot", 4.0, 33, f64::hypot);
}

#[test]
fn exact_functions() {
    check1("round", 0.0, 34, f64::round);
    check1("ceil", 0.0, 35, f64::ceil);
    check1("trunc", 0.0, 36, f64::trunc);
    check1("rint", 0.0, 37, f64::round_ties_even);
    check1("fabs", 0.0, 38, f64::abs);
    check2("fmod", 0.0, 39, |x, y| x % y);
    check2("fdim", 0.0, 40, |x, y| {
        if x.is_nan() || y.is_nan() {
            f64::NAN
        } else if x > y {
            f64::from((x - y) as f32)
        } else {
            0.0
        }
    });
    check2("copysign", 0.0, 41, f64::copysign);
    check2("nextafter", 0.0, 42, |x, y| {
        let (a, b) = (x as f32, y as f32);
        if a.is_nan() || b.is_nan() {
            return f64::NAN;
        }
        if a == b {
            return y;
        }
        let up = (b > a) == (a >= 0.0);
        let bits = if a == 0.0 {
            if b > a {
                1
            } else {
                0x8000_0001
            }
        } else if up {
            a.to_bits() + 1
        } else {
            a.to_bits() - 1
        };
        f64::from(f32::from_bits(bits))
    });
}

#[test]
fn remainders() {
    check2("remainder", 0.0, 46, remainder_ref);
    // remquo's value, then its quotient bits (sign and low 3 bits at least).
    let (xs, ys) = inputs2(47);
    check("remquo", "remquo(a, b, &q)", 0.0, &xs, &ys, |x, y| {
        remainder_ref(x, y)
    });
    let yb: Vec<u32> = ys.iter().map(|f| f.to_bits()).collect();
    let got = run_gpu("(remquo(a, b, &q), (float)q)", false, &xs, &yb);
    for (i, (&x, &y)) in xs.iter().zip(&ys).enumerate() {
        let (x, y) = (f64::from(x), f64::from(y));
        let n = (x - remainder_ref(x, y)) / y;
        if !n.is_finite() || n.abs() >= 2f64.powi(24) || remainder_ref(x, y).is_nan() {
            continue;
        }
        let q = got[i] as i64;
        let want = n as i64;
        assert!(
            (q == 0 || q.signum() == want.signum()) && (q.abs() & 7) == (want.abs() & 7),
            "remquo({x}, {y}): quo {q}, quotient {want}"
        );
    }
}

/// Integer second operand: `pown`, `rootn`, `ldexp`.
fn check_fi(name: &str, bound: f64, seed: u32, ks: &[i32], reference: impl Fn(f64, i32) -> f64) {
    let base = inputs1(seed);
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    let mut r = Rng(seed);
    for (i, &x) in base.iter().enumerate() {
        xs.push(x);
        ys.push(if i < 2000 {
            ks[i % ks.len()]
        } else {
            ks[(r.next() as usize) % ks.len()]
        });
    }
    let yb: Vec<u32> = ys.iter().map(|&k| k as u32).collect();
    let got = run_gpu(&format!("{name}(a, b)"), true, &xs, &yb);
    let yf: Vec<f32> = ys.iter().map(|&k| k as f32).collect();
    report(name, bound, &xs, &yf, &got, |i| {
        reference(f64::from(xs[i]), ys[i])
    });
}

#[test]
fn integer_powers() {
    let ks = [
        0, 1, -1, 2, -2, 3, -3, 5, 7, -7, 10, 31, -40, 100, 1000, 65537,
    ];
    check_fi(
        "pown",
        16.0,
        43,
        &ks,
        |x, n| if n == 0 { 1.0 } else { x.powi(n) },
    );
    check_fi("rootn", 16.0, 44, &ks, rootn_ref);
    check_fi(
        "ldexp",
        0.0,
        45,
        &[0, 1, -1, 10, -10, 100, -100, 200, -200, 300, -300],
        |x, n| f64::from((x * 2f64.powi(n)) as f32),
    );
}

/// `frexp` in f64: `(m, e)` with `x = m 2^e`, `|m|` in [0.5, 1).
fn frexp_ref(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let mut e = x.abs().log2().floor() as i32 + 1;
    let mut m = x / 2f64.powi(e);
    if m.abs() >= 1.0 {
        m /= 2.0;
        e += 1;
    }
    if m.abs() < 0.5 {
        m *= 2.0;
        e -= 1;
    }
    (m, e)
}

/// The pointer forms: the value and the result stored through the pointer.
#[test]
fn pointer_forms() {
    let xs = inputs1(48);
    let ys = vec![0.0; xs.len()];
    check("sincos", "sincos(a, &p)", 4.0, &xs, &ys, |x, _| x.sin());
    check(
        "sincos (cos)",
        "(sincos(a, &p), p)",
        4.0,
        &xs,
        &ys,
        |x, _| x.cos(),
    );
    check("frexp", "frexp(a, &q)", 0.0, &xs, &ys, |x, _| {
        frexp_ref(x).0
    });
    check(
        "frexp (exponent)",
        "(frexp(a, &q), (float)q)",
        0.0,
        &xs,
        &ys,
        |x, _| f64::from(frexp_ref(x).1),
    );
    check("modf", "modf(a, &p)", 0.0, &xs, &ys, |x, _| {
        if x.is_infinite() {
            0f64.copysign(x)
        } else {
            (x - x.trunc()).copysign(x)
        }
    });
    check(
        "modf (integral)",
        "(modf(a, &p), p)",
        0.0,
        &xs,
        &ys,
        f64::trunc2,
    );
    check("fract", "fract(a, &p)", 0.0, &xs, &ys, |x, _| {
        if x.is_nan() {
            x
        } else if x.is_infinite() {
            0f64.copysign(x)
        } else {
            // x - floor(x) rounded to float, then fmin with the largest float below 1.
            f64::from(((x - x.floor()) as f32).min(f32::from_bits(0x3f7f_ffff)))
        }
    });
    check(
        "fract (floor)",
        "(fract(a, &p), p)",
        0.0,
        &xs,
        &ys,
        |x, _| x.floor(),
    );
}

/// `half_*` (8192 ULP allowed) and `native_*` (implementation-defined,
/// checked loosely: the hardware instruction within 2^-10 relative in a
/// sane domain).
#[test]
fn half_and_native_forms() {
    let xs: Vec<f32> = (0..4096).map(|i| (i as f32 - 2048.0) / 97.0).collect();
    let pos: Vec<f32> = xs.iter().map(|x| x.abs() + 0.01).collect();
    let ys = vec![0.0; xs.len()];
    check("half_sin", "half_sin(a)", 8192.0, &xs, &ys, |x, _| x.sin());
    check("half_exp", "half_exp(a)", 8192.0, &xs, &ys, f64::exp2e);
    check("half_log", "half_log(a)", 8192.0, &pos, &ys, |x, _| x.ln());
    check("half_recip", "half_recip(a)", 8192.0, &pos, &ys, |x, _| {
        1.0 / x
    });
    // native_*: the error relative to max(|f|, 1) within 2^-10.
    for (expr, xs, f) in [
        ("native_sin(a)", &xs, f64::sin as fn(f64) -> f64),
        ("native_cos(a)", &xs, f64::cos),
        ("native_exp(a)", &xs, f64::exp),
        ("native_log10(a)", &pos, f64::log10),
        ("native_powr(a, 1.5f)", &pos, |x: f64| x.powf(1.5)),
        ("native_divide(a, 3.0f)", &xs, |x: f64| x / 3.0),
        ("native_rsqrt(a)", &pos, |x: f64| 1.0 / x.sqrt()),
    ] {
        let yb = vec![0u32; xs.len()];
        let got = run_gpu(expr, false, xs, &yb);
        let worst = xs
            .iter()
            .zip(&got)
            .map(|(&x, &g)| {
                let want = f(f64::from(x));
                (f64::from(g) - want).abs() / want.abs().max(1.0)
            })
            .fold(0.0, f64::max);
        println!(
            "| `{expr}` | implementation-defined | {worst:.2e} relative | {} |",
            xs.len()
        );
        assert!(worst < 2f64.powi(-10), "{expr}: {worst}");
    }
}

trait Helpers {
    fn trunc2(self, _: f64) -> f64;
    fn exp2e(self, _: f64) -> f64;
}
impl Helpers for f64 {
    fn trunc2(self, _: f64) -> f64 {
        self.trunc()
    }
    fn exp2e(self, _: f64) -> f64 {
        self.exp()
    }
}
