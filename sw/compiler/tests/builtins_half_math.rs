//! The `half` math built-ins (cl_khr_fp16; `lib/half_math.cl`), measured
//! on the golden GPU against an f64 host reference: every one-operand
//! function on all 65,536 halves (exhaustive; the first half of the inputs
//! in wave32, the second in wave64), two-operand functions on the special
//! values crossed and 2^16 random pairs, `fma` on 2^16 random triples.
//! The error is in ULPs of the reference's half binade (2^-24 for
//! denormals); NaN and infinity must match; functions whose bound is 0
//! must give the reference's bits, sign of zero included. Bounds: the
//! specification's half-precision table as the Khronos conformance tests
//! encode it (OpenCL-CTS `math_brute_force/function_list.cpp`, the half
//! column): 2 ULP for most, 1 for `rsqrt`, 4 for `pow pown powr rootn
//! erf erfc tgamma`, correctly rounded (0.5) for `sqrt fdim fma ldexp`,
//! exact for the rest. Each test prints its rows of the table in
//! docs/compiler.md.
//!
//! `cargo test --release -p compiler --test builtins_half_math`

mod backend_support;
mod math_ref;
use backend_support::{build_kernel, run, run_elf_dims, run_elf_dims_on, TestArg};
use compiler::ir::half::{f16_bits_to_f64 as hv, f64_to_f16_bits as hb};
use math_ref::{erf_series, erfc_ref, reduce2, remainder_ref, rootn_ref, tgamma_ref};
use std::f64::consts::PI;

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

/// Halves packed two to a dword.
fn pack(v: &[u16]) -> Vec<u32> {
    v.chunks(2)
        .map(|c| u32::from(c[0]) | u32::from(c.get(1).copied().unwrap_or(0)) << 16)
        .collect()
}

/// Runs `expr` (in `half a`, `b` a half or an int, `half c`) over the
/// inputs on the golden GPU, the first half of them in wave32 and the
/// rest in wave64; returns the results' bits.
fn run_gpu(expr: &str, b_int: bool, xs: &[u16], ys: &[u32], zs: &[u16]) -> Vec<u16> {
    let (bt, bdecl) = if b_int {
        ("int", "int b = y[i];")
    } else {
        ("ushort", "half b = as_half(y[i]);")
    };
    let src = format!(
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void k(__global const ushort *x, __global const {bt} *y, __global const ushort *z,
                __global ushort *o) {{
  uint i = get_global_id(0);
  half a = as_half(x[i]);
  {bdecl}
  half c = as_half(z[i]);
  int q = 0;
  half p = 0.0h;
  o[i] = as_ushort((half)({expr}));
}}"
    );
    let mut out = Vec::with_capacity(xs.len());
    let half = xs.len().div_ceil(2);
    for (part, wave64) in [(0..half, false), (half..xs.len(), true)] {
        let len = part.len();
        let n = len.div_ceil(128) * 128;
        let mut x = xs[part.clone()].to_vec();
        let mut z = zs[part.clone()].to_vec();
        let mut y = ys[part].to_vec();
        x.resize(n, 0);
        z.resize(n, 0);
        y.resize(n, 0);
        let yb = if b_int {
            y
        } else {
            pack(&y.iter().map(|&v| v as u16).collect::<Vec<_>>())
        };
        let k = build_kernel(&src, wave64);
        let r = run(
            &k,
            n as u32,
            64,
            &[
                TestArg::Buf(pack(&x)),
                TestArg::Buf(yb),
                TestArg::Buf(pack(&z)),
                TestArg::Buf(vec![0; n / 2]),
            ],
        )
        .unwrap_or_else(|e| panic!("{expr}: {e}"));
        out.extend(
            r[3].iter()
                .flat_map(|&w| [w as u16, (w >> 16) as u16])
                .take(len),
        );
    }
    out
}

/// ULP error of `got` against the f64 reference `want` (infinite for a
/// NaN or infinity mismatch; a finite reference that rounds to infinity
/// must give infinity).
fn ulp_error(got: u16, want: f64) -> f64 {
    let g = hv(got);
    if want.is_nan() || g.is_nan() {
        return if want.is_nan() && g.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if want.is_infinite() || g.is_infinite() || want.abs() >= 65520.0 {
        return if hv(hb(want)) == g {
            0.0
        } else {
            f64::INFINITY
        };
    }
    let e = if want == 0.0 {
        -24
    } else {
        (want.abs().log2().floor() as i32).max(-14) - 10
    };
    (g - want).abs() / 2f64.powi(e)
}

/// Measures the results against `reference(i)`, prints the table row and
/// asserts the bound (0: the reference's bits exactly).
fn report(name: &str, bound: f64, what: &[String], got: &[u16], reference: impl Fn(usize) -> f64) {
    let mut worst = 0.0f64;
    let mut bad = Vec::new();
    for (i, &g) in got.iter().enumerate() {
        let want = reference(i);
        let e = ulp_error(g, want);
        worst = worst.max(e);
        // Exact and correctly rounded functions: the reference's bits
        // (its own error is far from moving a half's rounding).
        let exact_ok = bound > 0.5 || want.is_nan() || hb(want) == g;
        if (e > bound + 1e-6 || !exact_ok) && bad.len() < 8 {
            bad.push(format!(
                "  {name}({}) = {} [{g:#06x}], want {want:e} ({e} ulp)",
                what[i],
                hv(g)
            ));
        }
    }
    println!("| `{name}` | {bound} | {worst:.2} | {} |", got.len());
    assert!(
        bad.is_empty(),
        "{name}: errors over {bound} ULP:\n{}",
        bad.join("\n")
    );
}

/// Every half, in bit order.
fn all_halves() -> Vec<u16> {
    (0..=u16::MAX).collect()
}

/// A one-operand function on every half.
fn check1(name: &str, bound: f64, reference: impl Fn(f64) -> f64) {
    check1_expr(name, &format!("{name}(a)"), bound, reference);
}

fn check1_expr(name: &str, expr: &str, bound: f64, reference: impl Fn(f64) -> f64) {
    let xs = all_halves();
    let zero = vec![0u32; xs.len()];
    let got = run_gpu(expr, false, &xs, &zero, &vec![0; xs.len()]);
    let what: Vec<String> = xs.iter().map(|&x| format!("{:e}", hv(x))).collect();
    report(name, bound, &what, &got, |i| reference(hv(xs[i])));
}

const SPECIAL: [u16; 20] = [
    0x0000, 0x8000, 0x3c00, 0xbc00, 0x3800, 0xb800, 0x4000, 0xc000, 0x7c00, 0xfc00, 0x7e00, 0x0400,
    0x0001, 0x8001, 0x7bff, 0xfbff, 0x4200, 0x3555, 0x03ff, 0x5640,
];

/// Two-operand inputs: the specials crossed, then 2^16 random pairs (one
/// in three with `b` in [1/4, 16) so powers stay finite).
fn inputs2(seed: u32) -> (Vec<u16>, Vec<u16>) {
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for &a in &SPECIAL {
        for &b in &SPECIAL {
            xs.push(a);
            ys.push(b);
        }
    }
    let mut r = Rng(seed);
    for i in 0..1 << 16 {
        let (a, b) = (r.next() as u16, (r.next() >> 16) as u16);
        xs.push(a);
        ys.push(if i % 3 == 0 {
            (b & 0x83ff) | (0x3400 + ((b % 6) << 10))
        } else {
            b
        });
    }
    (xs, ys)
}

fn check2(name: &str, bound: f64, seed: u32, reference: impl Fn(f64, f64) -> f64) {
    let (xs, ys) = inputs2(seed);
    let yw: Vec<u32> = ys.iter().map(|&y| u32::from(y)).collect();
    let got = run_gpu(
        &format!("{name}(a, b)"),
        false,
        &xs,
        &yw,
        &vec![0; xs.len()],
    );
    let what: Vec<String> = xs
        .iter()
        .zip(&ys)
        .map(|(&x, &y)| format!("{:e}, {:e}", hv(x), hv(y)))
        .collect();
    report(name, bound, &what, &got, |i| {
        reference(hv(xs[i]), hv(ys[i]))
    });
}

/// `f(half, int)` on every half with exponents cycling through `ks`.
fn check_fi(name: &str, bound: f64, ks: &[i32], reference: impl Fn(f64, i32) -> f64) {
    let xs = all_halves();
    let mut r = Rng(7);
    let ys: Vec<i32> = (0..xs.len())
        .map(|_| ks[r.next() as usize % ks.len()])
        .collect();
    let yw: Vec<u32> = ys.iter().map(|&k| k as u32).collect();
    let got = run_gpu(&format!("{name}(a, b)"), true, &xs, &yw, &vec![0; xs.len()]);
    let what: Vec<String> = xs
        .iter()
        .zip(&ys)
        .map(|(&x, k)| format!("{:e}, {k}", hv(x)))
        .collect();
    report(name, bound, &what, &got, |i| reference(hv(xs[i]), ys[i]));
}

#[test]
fn trigonometric() {
    check1("sin", 2.0, f64::sin);
    check1("cos", 2.0, f64::cos);
    check1("tan", 2.0, f64::tan);
    check1("sinpi", 2.0, |x| {
        let r = reduce2(x);
        if x.is_infinite() {
            f64::NAN
        } else if r == 0.0 || r.abs() == 1.0 {
            0f64.copysign(x)
        } else {
            (PI * r).sin()
        }
    });
    check1("cospi", 2.0, |x| {
        let r = reduce2(x).abs();
        if x.is_infinite() {
            f64::NAN
        } else if r == 0.5 {
            0.0
        } else {
            (PI * r).cos()
        }
    });
    check1("tanpi", 2.0, |x| {
        let r = reduce2(x);
        if x.is_infinite() {
            f64::NAN
        } else if r == 0.0 {
            0f64.copysign(x)
        } else if r.abs() == 1.0 {
            0f64.copysign(-x)
        } else if r.abs() == 0.5 {
            f64::INFINITY.copysign(r)
        } else {
            (PI * r).sin() / (PI * r).cos()
        }
    });
    check1("asin", 2.0, f64::asin);
    check1("acos", 2.0, f64::acos);
    check1("atan", 2.0, f64::atan);
    check1("asinpi", 2.0, |x| x.asin() / PI);
    check1("acospi", 2.0, |x| x.acos() / PI);
    check1("atanpi", 2.0, |x| x.atan() / PI);
    check2("atan2", 2.0, 1, f64::atan2);
    check2("atan2pi", 2.0, 2, |y, x| y.atan2(x) / PI);
    check1_expr("sincos", "sincos(a, &p)", 2.0, f64::sin);
    check1_expr("sincos (cos)", "(sincos(a, &p), p)", 2.0, f64::cos);
}

#[test]
fn hyperbolic_exponential_logarithmic() {
    check1("sinh", 2.0, f64::sinh);
    check1("cosh", 2.0, f64::cosh);
    check1("tanh", 2.0, f64::tanh);
    check1("asinh", 2.0, f64::asinh);
    check1("acosh", 2.0, f64::acosh);
    check1("atanh", 2.0, f64::atanh);
    check1("exp", 2.0, f64::exp);
    check1("exp2", 2.0, f64::exp2);
    check1("exp10", 2.0, |x| 10f64.powf(x));
    check1("expm1", 2.0, f64::exp_m1);
    check1("log", 2.0, f64::ln);
    check1("log2", 2.0, f64::log2);
    check1("log10", 2.0, f64::log10);
    check1("log1p", 2.0, f64::ln_1p);
    check1("cbrt", 2.0, f64::cbrt);
    check1("sqrt", 0.5, f64::sqrt);
    check1("rsqrt", 1.0, |x| 1.0 / x.sqrt());
}

#[test]
fn special_functions() {
    check1("erf", 4.0, |x| {
        if x.is_nan() {
            x
        } else if x.abs() < 2.0 {
            erf_series(x)
        } else {
            (1.0 - erfc_ref(x.abs())).copysign(x)
        }
    });
    check1("erfc", 4.0, erfc_ref);
    check1("tgamma", 4.0, tgamma_ref);
    // lgamma has no bound: measured in half ULPs of max(|f|, 1).
    let xs = all_halves();
    let zero = vec![0u32; xs.len()];
    let got = run_gpu("lgamma(a)", false, &xs, &zero, &vec![0; xs.len()]);
    let mut worst = 0.0f64;
    for (&x, &g) in xs.iter().zip(&got) {
        let want = tgamma_ref(hv(x)).abs().ln();
        if want.is_finite() && hv(x).abs() < 30.0 {
            let e =
                (hv(g) - want).abs() / 2f64.powi(want.abs().max(1.0).log2().floor() as i32 - 10);
            worst = worst.max(e);
            assert!(e <= 2.0, "lgamma({}) = {}, want {want}", hv(x), hv(g));
        }
    }
    println!("| `lgamma` | none | {worst:.2} (of max(|f|, 1), |x| < 30) | 65536 |");
}

#[test]
fn powers() {
    check2("pow", 4.0, 3, f64::powf);
    check2("powr", 4.0, 4, |x, y| {
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
    check2("hypot", 2.0, 5, f64::hypot);
    let ks = [
        0, 1, -1, 2, -2, 3, -3, 5, 7, -7, 10, 31, -40, 100, 1000, 65537,
    ];
    check_fi("pown", 4.0, &ks, |x, n| {
        if n == 0 {
            1.0
        } else {
            x.powf(f64::from(n))
        }
    });
    check_fi("rootn", 4.0, &ks, rootn_ref);
    check_fi(
        "ldexp",
        0.5,
        &[0, 1, -1, 5, -5, 10, -10, 20, -20, 30, -30, 100, -100],
        |x, n| x * 2f64.powi(n),
    );
}

fn frexp_ref(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let e = x.abs().log2().floor() as i32 + 1;
    (x / 2f64.powi(e), e)
}

#[test]
fn exact_functions() {
    check1("floor", 0.0, f64::floor);
    check1("ceil", 0.0, f64::ceil);
    check1("trunc", 0.0, f64::trunc);
    check1("round", 0.0, f64::round);
    check1("rint", 0.0, f64::round_ties_even);
    check1("fabs", 0.0, f64::abs);
    check1("logb", 0.0, |x| {
        if x == 0.0 {
            f64::NEG_INFINITY
        } else if x.is_finite() {
            x.abs().log2().floor()
        } else {
            x.abs()
        }
    });
    check1_expr("ilogb", "(half)ilogb(a)", 0.0, |x| {
        // FP_ILOGB0 and FP_ILOGBNAN are INT_MIN and INT_MAX (clang's
        // values), which round to -inf / inf as halves.
        if x == 0.0 {
            f64::NEG_INFINITY
        } else if x.is_nan() || x.is_infinite() {
            f64::INFINITY
        } else {
            x.abs().log2().floor()
        }
    });
    // fract is correctly rounded (x - floor(x) of a small negative x is
    // not a half).
    check1_expr("fract", "fract(a, &p)", 0.5, |x| {
        if x.is_nan() {
            x
        } else if x.is_infinite() {
            0f64.copysign(x)
        } else {
            (x - x.floor()).min(hv(0x3bff))
        }
    });
    check1_expr("fract (floor)", "(fract(a, &p), p)", 0.0, f64::floor);
    check1_expr("modf", "modf(a, &p)", 0.0, |x| {
        if x.is_infinite() {
            0f64.copysign(x)
        } else {
            // The fraction has x's sign (modf(-3) = -0).
            (x - x.trunc()).copysign(x)
        }
    });
    check1_expr("modf (integral)", "(modf(a, &p), p)", 0.0, f64::trunc);
    check1_expr("frexp", "frexp(a, &q)", 0.0, |x| frexp_ref(x).0);
    check1_expr("frexp (exponent)", "(frexp(a, &q), (half)q)", 0.0, |x| {
        f64::from(frexp_ref(x).1)
    });
    check2("fmod", 0.0, 6, |x, y| x % y);
    check2("remainder", 0.0, 7, remainder_ref);
    check2("fdim", 0.5, 8, |x, y| {
        if x.is_nan() || y.is_nan() {
            f64::NAN
        } else if x > y {
            x - y
        } else {
            0.0
        }
    });
    check2("copysign", 0.0, 9, f64::copysign);
    // fmin/fmax: a zero pair gives -0 / +0 (either is allowed; the
    // hardware orders them); a signalling NaN operand gives a quiet NaN
    // (v_min_f16 in IEEE mode, as for float), so those pairs are left out.
    let snan = |h: u16| h & 0x7c00 == 0x7c00 && h & 0x3ff != 0 && h & 0x200 == 0;
    for (i, f) in ["fmin", "fmax"].into_iter().enumerate() {
        let (xs, ys): (Vec<u16>, Vec<u16>) = {
            let (xs, ys) = inputs2(10 + i as u32);
            xs.into_iter()
                .zip(ys)
                .filter(|&(x, y)| !snan(x) && !snan(y))
                .unzip()
        };
        let yw: Vec<u32> = ys.iter().map(|&y| u32::from(y)).collect();
        let got = run_gpu(&format!("{f}(a, b)"), false, &xs, &yw, &vec![0; xs.len()]);
        let what: Vec<String> = xs
            .iter()
            .zip(&ys)
            .map(|(&x, &y)| format!("{:e}, {:e}", hv(x), hv(y)))
            .collect();
        report(f, 0.0, &what, &got, |k| {
            let (x, y) = (hv(xs[k]), hv(ys[k]));
            match (x.is_nan(), y.is_nan()) {
                (true, _) => y,
                (_, true) => x,
                _ if x == y && i == 0 => {
                    if x.is_sign_negative() {
                        x
                    } else {
                        y
                    }
                }
                _ if x == y => {
                    if x.is_sign_positive() {
                        x
                    } else {
                        y
                    }
                }
                _ if i == 0 => x.min(y),
                _ => x.max(y),
            }
        });
    }
    check2("maxmag", 0.0, 12, |x, y| {
        if x.abs() > y.abs() {
            x
        } else if y.abs() > x.abs() {
            y
        } else if x == y {
            // Zeros: fmax's +0.
            if x.is_sign_positive() {
                x
            } else {
                y
            }
        } else {
            x.max(y)
        }
    });
    check2("minmag", 0.0, 13, |x, y| {
        if x.abs() < y.abs() {
            x
        } else if y.abs() < x.abs() {
            y
        } else if x == y {
            // Zeros: fmin's -0.
            if x.is_sign_negative() {
                x
            } else {
                y
            }
        } else {
            x.min(y)
        }
    });
    check2("nextafter", 0.0, 14, |x, y| {
        if x.is_nan() || y.is_nan() {
            return f64::NAN;
        }
        if x == y {
            return y;
        }
        let a = hb(x);
        let bits = if x == 0.0 {
            if y > x {
                1
            } else {
                0x8001
            }
        } else if (y > x) == (x > 0.0) {
            a + 1
        } else {
            a - 1
        };
        hv(bits)
    });
}

/// remquo's remainder and the low bits and sign of its quotient.
#[test]
fn remquo() {
    let (xs, ys) = inputs2(15);
    let yw: Vec<u32> = ys.iter().map(|&y| u32::from(y)).collect();
    let z = vec![0; xs.len()];
    let what: Vec<String> = xs
        .iter()
        .zip(&ys)
        .map(|(&x, &y)| format!("{:e}, {:e}", hv(x), hv(y)))
        .collect();
    let got = run_gpu("remquo(a, b, &q)", false, &xs, &yw, &z);
    report("remquo", 0.0, &what, &got, |i| {
        remainder_ref(hv(xs[i]), hv(ys[i]))
    });
    let quo = run_gpu("(remquo(a, b, &q), (half)q)", false, &xs, &yw, &z);
    for i in 0..xs.len() {
        let (x, y) = (hv(xs[i]), hv(ys[i]));
        let r = remainder_ref(x, y);
        if r.is_nan() {
            continue;
        }
        let n = ((x - r) / y).round();
        let q = hv(quo[i]) as i64;
        let want = n as i64;
        assert!(
            (q == 0 || q.signum() == want.signum()) && (q.abs() & 7) == (want.abs() & 7),
            "remquo({x}, {y}): quo {q}, quotient {want}"
        );
    }
}

/// `fma` on random triples (and specials): correctly rounded, from the
/// exact f64 product plus an f64 sum rounded to odd (an exact result
/// never needs more than 80 bits; the sticky bit decides the tie).
#[test]
fn fma_is_correctly_rounded() {
    let (xs, ys) = inputs2(16);
    let mut r = Rng(17);
    let zs: Vec<u16> = (0..xs.len()).map(|_| r.next() as u16).collect();
    let yw: Vec<u32> = ys.iter().map(|&y| u32::from(y)).collect();
    let what: Vec<String> = (0..xs.len())
        .map(|i| format!("{:e}, {:e}, {:e}", hv(xs[i]), hv(ys[i]), hv(zs[i])))
        .collect();
    for f in ["fma", "mad"] {
        let got = run_gpu(&format!("{f}(a, b, c)"), false, &xs, &yw, &zs);
        report(f, 0.5, &what, &got, |i| {
            let (p, z) = (hv(xs[i]) * hv(ys[i]), hv(zs[i]));
            // p is exact (22 bits); p + z rounded to odd in f64 rounds to
            // the half the exact sum does.
            let s = p + z;
            // TwoSum: the exact error of s.
            let bv = s - p;
            let av = s - bv;
            let e = if s.is_finite() {
                (p - av) + (z - bv)
            } else {
                0.0
            };
            if e != 0.0 && s.to_bits() & 1 == 0 {
                let toward = if (e > 0.0) == (s > 0.0) { 1i64 } else { -1 };
                f64::from_bits((s.to_bits() as i64 + toward) as u64)
            } else {
                s
            }
        });
    }
}

/// A host reference of a three-operand expression.
type Reference = Box<dyn Fn(f64, f64, f64) -> f64>;

/// Common and relational functions on every half.
#[test]
fn common_and_relational_functions() {
    let ys: Vec<u32> = all_halves()
        .iter()
        .map(|&x| u32::from(x.rotate_left(5)))
        .collect();
    let xs = all_halves();
    let zs: Vec<u16> = xs.iter().map(|&x| x ^ 0x1234).collect();
    let cases: [(&str, Reference); 16] = [
        // A vector's true is -1, in a `short` vector.
        (
            "(half)(isless((half4)(a, b, a, b), (half4)(b, a, b, a)).z)",
            Box::new(|a, b, _| if a < b { -1.0 } else { 0.0 }),
        ),
        (
            "(half)(isnan((half3)(c, a, b)).y)",
            Box::new(|a: f64, _, _| if a.is_nan() { -1.0 } else { 0.0 }),
        ),
        (
            "clamp(a, b, c)",
            Box::new(|a: f64, b: f64, c: f64| a.max(b).min(c)),
        ),
        (
            "step(a, b)",
            Box::new(|a, b, _| if b < a { 0.0 } else { 1.0 }),
        ),
        (
            "sign(a)",
            Box::new(|a: f64, _, _| {
                if a.is_nan() {
                    0.0
                } else if a == 0.0 {
                    a
                } else {
                    a.signum()
                }
            }),
        ),
        ("degrees(a)", Box::new(|a, _, _| a * (180.0 / PI))),
        ("radians(a)", Box::new(|a, _, _| a * (PI / 180.0))),
        (
            "(half)isnan(a)",
            Box::new(|a: f64, _, _| f64::from(u8::from(a.is_nan()))),
        ),
        (
            "(half)isinf(a)",
            Box::new(|a: f64, _, _| f64::from(u8::from(a.is_infinite()))),
        ),
        (
            "(half)isfinite(a)",
            Box::new(|a: f64, _, _| f64::from(u8::from(a.is_finite()))),
        ),
        (
            "(half)isnormal(a)",
            Box::new(|a: f64, _, _| f64::from(u8::from(a.is_finite() && a.abs() >= hv(0x0400)))),
        ),
        (
            "(half)signbit(a)",
            Box::new(|a: f64, _, _| f64::from(u8::from(a.is_sign_negative()))),
        ),
        (
            "(half)isless(a, b)",
            Box::new(|a, b, _| f64::from(u8::from(a < b))),
        ),
        (
            "(half)islessgreater(a, b)",
            Box::new(|a: f64, b: f64, _| {
                f64::from(u8::from(a.partial_cmp(&b).is_some_and(|o| o.is_ne())))
            }),
        ),
        (
            "(half)isunordered(a, b)",
            Box::new(|a: f64, b: f64, _| f64::from(u8::from(a.is_nan() || b.is_nan()))),
        ),
        (
            "bitselect(a, b, c)",
            Box::new(|a: f64, b: f64, c: f64| {
                let (a, b, c) = (hb(a), hb(b), hb(c));
                hv((a & !c) | (b & c))
            }),
        ),
    ];
    for (expr, f) in cases {
        let got = run_gpu(expr, false, &xs, &ys, &zs);
        let what: Vec<String> = (0..xs.len())
            .map(|i| format!("{:e}, {:e}, {:e}", hv(xs[i]), hv(ys[i] as u16), hv(zs[i])))
            .collect();
        // clamp's bounds in the wrong order and NaN bounds are undefined;
        // a signalling NaN `a` gives a quiet NaN out of v_max_f16 (IEEE
        // mode, as fmax of float), which clamps to the upper bound.
        let snan = |h: u16| h & 0x7c00 == 0x7c00 && h & 0x3ff != 0 && h & 0x200 == 0;
        let skip = |i: usize| {
            expr.starts_with("clamp")
                && (matches!(
                    hv(ys[i] as u16).partial_cmp(&hv(zs[i])),
                    None | Some(std::cmp::Ordering::Greater)
                ) || snan(xs[i]))
                || expr.starts_with("bitselect")
                    && [hv(xs[i]), hv(ys[i] as u16), hv(zs[i])]
                        .iter()
                        .any(|v| v.is_nan())
        };
        let idx: Vec<usize> = (0..xs.len()).filter(|&i| !skip(i)).collect();
        let g: Vec<u16> = idx.iter().map(|&i| got[i]).collect();
        let w: Vec<String> = idx.iter().map(|&i| what[i].clone()).collect();
        let bound = if expr.starts_with("degrees") || expr.starts_with("radians") {
            2.0
        } else {
            0.0
        };
        report(expr, bound, &w, &g, |k| {
            let i = idx[k];
            f(hv(xs[i]), hv(ys[i] as u16), hv(zs[i]))
        });
    }
}

/// `v` rounded to a half by `mode` (0 nearest even, 1 toward zero, 2
/// toward +inf, 3 toward -inf), as bits.
fn round_half(v: f64, mode: u32) -> u16 {
    let h = hb(v);
    if v.is_nan() || hv(h) == v {
        return h;
    }
    // The neighbour of h one step toward +inf / -inf.
    let up = |h: u16| match h {
        0x8000 => 0x0001,
        _ if h & 0x8000 != 0 => h - 1,
        _ => h + 1,
    };
    let down = |h: u16| match h {
        0x0000 => 0x8001,
        _ if h & 0x8000 != 0 => h + 1,
        _ => h - 1,
    };
    let r = hv(h);
    match mode {
        1 if r.abs() > v.abs() => {
            if v > 0.0 {
                down(h)
            } else {
                up(h)
            }
        }
        2 if r < v => up(h),
        3 if r > v => down(h),
        _ => h,
    }
}

/// `convert_halfN_rtz/_rtp/_rtn` (and `_rte`) from float, double and
/// int, scalars and `float4`: every half, the midpoints between
/// neighbours and the values next to them, specials and random bits,
/// against a host rounding of the exact value.
#[test]
fn convert_half_rounds_in_every_mode() {
    let mut fs: Vec<f64> = Vec::new();
    for h in 0..0x7c00u16 {
        let (a, b) = (hv(h), hv(h + 1));
        let mid = (a + b) / 2.0;
        fs.extend([a, mid, mid + (b - a) / 4096.0, mid - (b - a) / 4096.0]);
    }
    fs.extend([f64::INFINITY, f64::NAN, 65520.0, 1e10, 1e-10, 3e-8]);
    let n = fs.len();
    for i in 0..n {
        fs.push(-fs[i]);
    }
    let len = fs.len().div_ceil(256) * 256;
    for (mode, m) in [("_rte", 0), ("_rtz", 1), ("_rtp", 2), ("_rtn", 3)] {
        // float (every input is a float but the quarter-step ones below
        // 2^-14, which round to floats first: the reference uses the float).
        let xs: Vec<f32> = fs.iter().map(|&v| v as f32).collect();
        let src = format!(
            "#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void k(__global const float *x, __global const double *d, __global const int *i,
                __global half *o) {{
  size_t g = get_global_id(0);
  o[4 * g] = convert_half{mode}(x[g]);
  o[4 * g + 1] = convert_half{mode}(d[g]);
  o[4 * g + 2] = convert_half{mode}(i[g]);
  if (g % 4 == 0) vstore4(convert_half4{mode}(vload4(g / 4, x)), g / 4, o + 4 * {len});
}}"
        );
        let mut x: Vec<u32> = xs.iter().map(|f| f.to_bits()).collect();
        let mut d: Vec<u32> = fs
            .iter()
            .flat_map(|v| [v.to_bits() as u32, (v.to_bits() >> 32) as u32])
            .collect();
        let ints: Vec<i32> = (0..len as i32)
            .map(|k| (k * 37 % 140_001) - 70_000)
            .collect();
        x.resize(len, 0);
        d.resize(2 * len, 0);
        for wave64 in [false, true] {
            let k = build_kernel(&src, wave64);
            let out = run(
                &k,
                len as u32,
                64,
                &[
                    TestArg::Buf(x.clone()),
                    TestArg::Buf(d.clone()),
                    TestArg::Buf(ints.iter().map(|&v| v as u32).collect()),
                    TestArg::Buf(vec![0; 3 * len]),
                ],
            )
            .unwrap_or_else(|e| panic!("{mode}: {e}"));
            let h: Vec<u16> = out[3]
                .iter()
                .flat_map(|&w| [w as u16, (w >> 16) as u16])
                .collect();
            for g in 0..fs.len() {
                let (wf, wd) = (round_half(f64::from(xs[g]), m), round_half(fs[g], m));
                let wi = round_half(f64::from(ints[g]), m);
                let nan_ok =
                    |got: u16, want: u16| got == want || (hv(got).is_nan() && hv(want).is_nan());
                assert!(
                    nan_ok(h[4 * g], wf),
                    "convert_half{mode}((float){:e}) = {:#06x}, want {wf:#06x}",
                    xs[g],
                    h[4 * g]
                );
                assert!(
                    nan_ok(h[4 * g + 1], wd),
                    "convert_half{mode}((double){:e}) = {:#06x}, want {wd:#06x}",
                    fs[g],
                    h[4 * g + 1]
                );
                assert_eq!(h[4 * g + 2], wi, "convert_half{mode}({})", ints[g]);
                if g < fs.len() / 4 * 4 {
                    let v = h[4 * len + g];
                    assert!(
                        nan_ok(v, wf),
                        "convert_half4{mode}: component {g} of {:e} = {v:#06x}, want {wf:#06x}",
                        xs[g]
                    );
                }
            }
        }
    }
}

/// A kernel calling one function of each half family (math, pointer form,
/// common, relational vector, geometric, conversion, sub-group and
/// work-group) runs on the cycle model (one CU) with the golden GPU's
/// results, wave32 and wave64; the golden results of the scalar parts
/// are checked above.
#[test]
fn a_sample_per_family_runs_alike_on_the_cycle_model() {
    let src = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void k(__global const half *x, __global half *o) {
  size_t i = get_global_id(0);
  half a = x[i], b = x[(i + 7) % get_global_size(0)], p;
  half4 v = (half4)(a, b, a * b, 1.0h);
  __global half *r = o + 12 * i;
  r[0] = sin(a) + exp(b) + sqrt(fabs(a));
  r[1] = fract(a * 3.0h, &p) + p;
  r[2] = clamp(a, -0.5h, 0.5h) + mix(a, b, 0.25h) + smoothstep(-1.0h, 1.0h, b);
  r[3] = (half)any(isless(v, v.wzyx));
  r[4] = dot(v, v) + length(v.xyz);
  r[5] = normalize(v).y;
  r[6] = convert_half_rtz(x[i] * 1.001f) + convert_half_rtp((float)i * 0.1f);
  r[7] = sub_group_reduce_max(a) + sub_group_scan_inclusive_add((half)(i % 3));
  r[8] = work_group_reduce_min(b) + work_group_broadcast(a, 1);
  r[9] = work_group_scan_exclusive_add((half)(i % 2));
  r[10] = fma(a, b, 0.5h) + pown(b, 3);
  r[11] = nextafter(a, b) + copysign(b, a);
}";
    let n = 512u32;
    let mut rng = Rng(99);
    let x: Vec<u16> = (0..n)
        .map(|_| hb(f64::from((rng.next() % 2001) as i32 - 1000) / 512.0))
        .collect();
    let args = [
        TestArg::Buf(pack(&x)),
        TestArg::Buf(vec![0; 6 * n as usize]),
    ];
    let dims = sw::driver::LaunchDims::linear(n, 128);
    for wave64 in [false, true] {
        let k = build_kernel(src, wave64);
        let elf = compiler::backend::code_object(std::slice::from_ref(&k)).expect("a code object");
        let golden = run_elf_dims(&elf, "k", dims, &args).expect("golden runs");
        let gpu = hw::ClockedGpu::new(hw::GpuConfig::one_cu()).expect("a cycle model");
        let (clocked, _) = run_elf_dims_on(gpu, &elf, "k", dims, &args).expect("cycle model runs");
        assert_eq!(
            golden[1], clocked[1],
            "wave64={wave64}: cycle model differs"
        );
        // Spot checks against the host: r[0] and r[4] of work-item 0.
        let h: Vec<u16> = golden[1]
            .iter()
            .flat_map(|&w| [w as u16, (w >> 16) as u16])
            .collect();
        let (a, b) = (hv(x[0]), hv(x[7]));
        let r0 = hv(hb(a.sin())) + hv(hb(b.exp()));
        assert!(
            (hv(h[0]) - (r0 + a.abs().sqrt())).abs() < 0.01,
            "sin + exp + sqrt"
        );
        assert!(!hv(h[4]).is_nan(), "dot + length");
    }
}
