//! f64 references of math functions Rust's standard library lacks
//! (shared by the float and half precision tests).

#![allow(dead_code)]

use std::f64::consts::PI;

/// sin(pi x) with x reduced exactly first (x - 2 round(x / 2) is exact in f64).
pub fn reduce2(x: f64) -> f64 {
    x - 2.0 * (x / 2.0).round()
}

/// erf by its Taylor series (|x| <= 2) or 1 - erfc's continued fraction,
/// in f64 (well below the f32 bounds).
pub fn erfc_ref(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x < 0.0 {
        return 2.0 - erfc_ref(-x);
    }
    if x < 2.0 {
        return 1.0 - erf_series(x);
    }
    let mut t = x;
    for k in (1..=400).rev() {
        t = x + (0.5 * k as f64) / t;
    }
    (-x * x).exp() / PI.sqrt() / t
}

pub fn erf_series(x: f64) -> f64 {
    let (mut term, mut sum, mut n) = (x, x, 0.0);
    while term.abs() > 1e-20 * sum.abs().max(1e-300) {
        n += 1.0;
        term *= -x * x / n;
        sum += term / (2.0 * n + 1.0);
    }
    sum * 2.0 / PI.sqrt()
}

/// Gamma in f64: Lanczos (g = 7, 9 terms, about 1e-15 relative), the
/// reflection formula below 1/2 with `sin(pi x)` reduced exactly.
pub fn tgamma_ref(x: f64) -> f64 {
    const P: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x.is_nan() || x == f64::NEG_INFINITY || (x < 0.0 && x == x.round()) {
        return f64::NAN;
    }
    if x == 0.0 {
        return f64::INFINITY.copysign(x);
    }
    if x < 0.5 {
        return PI / ((PI * reduce2(x)).sin() * tgamma_ref(1.0 - x));
    }
    if x > 171.0 {
        return f64::INFINITY;
    }
    let x = x - 1.0;
    let a = P[1..]
        .iter()
        .enumerate()
        .fold(P[0], |a, (i, p)| a + p / (x + i as f64 + 1.0));
    let t = x + 7.5;
    (2.0 * PI).sqrt() * t.powf(x + 0.5) * (-t).exp() * a
}

/// `remainder(x, y)` exactly: `x % y` (exact in f64), folded past |y|/2
/// (a tie to the even quotient).
pub fn remainder_ref(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() || x.is_infinite() || y == 0.0 {
        return f64::NAN;
    }
    if y.is_infinite() {
        return x;
    }
    let r = x % y;
    let ay = y.abs();
    let odd = (((x - r) / y).abs() % 2.0) == 1.0;
    let out = if 2.0 * r.abs() > ay || (2.0 * r.abs() == ay && odd) {
        r - ay.copysign(r)
    } else {
        r
    };
    if out == 0.0 {
        0f64.copysign(x)
    } else {
        out
    }
}

/// `rootn(x, n)`: the n-th root with OpenCL's special cases (NaN for
/// `n == 0` and for even roots of negatives; signed zero or infinity at 0).
pub fn rootn_ref(x: f64, n: i32) -> f64 {
    if n == 0 || (x < 0.0 && n % 2 == 0) || x.is_nan() {
        f64::NAN
    } else if x == 0.0 {
        let z = if n < 0 { f64::INFINITY } else { 0.0 };
        if n % 2 != 0 {
            z.copysign(x)
        } else {
            z
        }
    } else {
        x.abs()
            .powf(1.0 / f64::from(n))
            .copysign(if n % 2 != 0 { x } else { 1.0 })
    }
}
