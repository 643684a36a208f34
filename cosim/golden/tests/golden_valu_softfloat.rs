//! Cross-check of the golden model's hand-written floating point
//! (`golden::fp`) against Berkeley SoftFloat (`softfloat-wrapper`).
//!
//! Inputs come from a seeded generator biased toward zeros, infinities, NaNs,
//! denormals, the extremes of the range and nearly equal values; each sample
//! uses one of the four IEEE rounding directions with denormals kept (SoftFloat
//! has no flush-to-zero). Both our host fast path (nearest-even `f32`/`f64`)
//! and the hand-written path are compared. A mismatch is any bit difference,
//! except that two NaNs always match: NaN payload and sign are an intended
//! difference (`docs/floating-point.md`, "NaNs").
//!
//! It runs 10^6 samples per operation and format (two checks each where both
//! paths exist); `-- --nocapture` prints the per-operation table.

use golden::fp::{self, Format, FpMode, IntRound, Round};
use softfloat_wrapper::{Float, RoundingMode, F128, F16, F32, F64};

/// xorshift64*: deterministic, seeded.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A value of `fmt`, biased toward special and boundary values.
    fn value(&mut self, fmt: Format) -> u64 {
        let r = self.next();
        let sign = if r & 1 != 0 { fmt.sign_bit() } else { 0 };
        let man = self.next() & fmt.man_mask();
        let emax = (1u64 << fmt.exp_bits) - 1;
        let bias = fmt.bias() as u64;
        let (e, m) = match (r >> 1) % 16 {
            0 => (0, 0),
            1 => (emax, 0),
            2 => (emax, man | 1),
            3 | 4 => (0, man),
            5 => (1 + (r >> 8) % 2, man),
            6 => (emax - 1 - (r >> 8) % 2, man),
            // Near 1 with few mantissa bits: exact cases and cancellation.
            7 | 8 => (bias - 2 + (r >> 8) % 5, man & (self.next() | !0xff)),
            9 => (bias + (r >> 8) % 3, 0),
            10 => (bias - 2 + (r >> 8) % 5, man),
            _ => return self.next() & (fmt.sign_bit() | (fmt.sign_bit() - 1)),
        };
        sign | e << fmt.man_bits | m
    }
}

const MODES: [(Round, RoundingMode); 4] = [
    (Round::NearestEven, RoundingMode::TiesToEven),
    (Round::Up, RoundingMode::TowardPositive),
    (Round::Down, RoundingMode::TowardNegative),
    (Round::Zero, RoundingMode::TowardZero),
];

const F16F: Format = fp::F16;
const F32F: Format = fp::F32;
const F64F: Format = fp::F64;

/// Mismatch counter for one operation.
struct Tally {
    name: String,
    fmt: Format,
    samples: u64,
    mismatches: u64,
    examples: Vec<String>,
}

impl Tally {
    fn new(name: &str, fmt: Format) -> Tally {
        Tally {
            name: name.into(),
            fmt,
            samples: 0,
            mismatches: 0,
            examples: Vec::new(),
        }
    }

    fn check(&mut self, ours: u64, theirs: u64, what: impl Fn() -> String) {
        self.samples += 1;
        let same = ours == theirs || (self.fmt.is_nan(ours) && self.fmt.is_nan(theirs));
        if !same {
            self.mismatches += 1;
            if self.examples.len() < 5 {
                self.examples
                    .push(format!("{}: ours {ours:#x} softfloat {theirs:#x}", what()));
            }
        }
    }
}

fn mode(round: Round) -> FpMode {
    FpMode::IEEE.with_round(round)
}

/// Binary operations, in every format and rounding direction, through both paths.
fn binary(n: u64, rng: &mut Rng, out: &mut Vec<Tally>) {
    type Ours = fn(Format, u64, u64, FpMode) -> u64;
    let ops: [(&str, Ours, Ours); 4] = [
        ("add", fp::add, fp::add_soft),
        ("sub", fp::sub, |f, a, b, m| {
            fp::add_soft(f, a, b ^ f.sign_bit(), m)
        }),
        ("mul", fp::mul, fp::mul_soft),
        ("div", fp::div, fp::div_soft),
    ];
    for (name, fast, soft) in ops {
        for fmt in [F16F, F32F, F64F] {
            let mut t = Tally::new(&format!("{name} {}", fmt.man_bits), fmt);
            for i in 0..n {
                let (a, b) = (rng.value(fmt), rng.value(fmt));
                let (r, rm) = MODES[(i % 4) as usize];
                let theirs = match (fmt.man_bits, name) {
                    (10, _) => {
                        let (x, y) = (F16::from_bits(a as u16), F16::from_bits(b as u16));
                        u64::from(sf(name, &x, &y, rm).to_bits())
                    }
                    (23, _) => {
                        let (x, y) = (F32::from_bits(a as u32), F32::from_bits(b as u32));
                        u64::from(sf(name, &x, &y, rm).to_bits())
                    }
                    _ => sf(name, &F64::from_bits(a), &F64::from_bits(b), rm).to_bits(),
                };
                let what = || format!("{name} {a:#x} {b:#x} {r:?}");
                t.check(fast(fmt, a, b, mode(r)), theirs, what);
                t.check(soft(fmt, a, b, mode(r)), theirs, what);
            }
            out.push(t);
        }
    }
}

fn sf<T: Float>(name: &str, x: &T, y: &T, rm: RoundingMode) -> T {
    match name {
        "add" => x.add(y, rm),
        "sub" => x.sub(y, rm),
        "mul" => x.mul(y, rm),
        _ => x.div(y, rm),
    }
}

/// Fused multiply-add and square root, every format and direction, both paths.
fn fma_sqrt(n: u64, rng: &mut Rng, out: &mut Vec<Tally>) {
    for fmt in [F16F, F32F, F64F] {
        let mut t = Tally::new(&format!("fma {}", fmt.man_bits), fmt);
        let mut s = Tally::new(&format!("sqrt {}", fmt.man_bits), fmt);
        for i in 0..n {
            let (mut a, mut b, mut c) = (rng.value(fmt), rng.value(fmt), rng.value(fmt));
            if fmt == F32F && i % 8 == 0 {
                (a, b, c) = f32_fma_tie(rng);
            }
            let (r, rm) = MODES[(i % 4) as usize];
            let (f, q) = match fmt.man_bits {
                10 => {
                    let x = F16::from_bits(a as u16);
                    let fma =
                        x.fused_mul_add(F16::from_bits(b as u16), F16::from_bits(c as u16), rm);
                    (u64::from(fma.to_bits()), u64::from(x.sqrt(rm).to_bits()))
                }
                23 => {
                    let x = F32::from_bits(a as u32);
                    let fma =
                        x.fused_mul_add(F32::from_bits(b as u32), F32::from_bits(c as u32), rm);
                    (u64::from(fma.to_bits()), u64::from(x.sqrt(rm).to_bits()))
                }
                _ => {
                    let x = F64::from_bits(a);
                    let fma = x.fused_mul_add(F64::from_bits(b), F64::from_bits(c), rm);
                    (fma.to_bits(), x.sqrt(rm).to_bits())
                }
            };
            let what = || format!("fma {a:#x} {b:#x} {c:#x} {r:?}");
            t.check(fp::fma(fmt, a, b, c, mode(r)), f, what);
            t.check(fp::fma_soft(fmt, a, b, c, mode(r)), f, what);
            let what = || format!("sqrt {a:#x} {r:?}");
            s.check(fp::sqrt(fmt, a, mode(r)), q, what);
            s.check(fp::sqrt_soft(fmt, a, mode(r)), q, what);
        }
        out.push(t);
        out.push(s);
    }
}

/// An `f32` fma whose exact result lies just off a rounding midpoint of `c`
/// while its `f64` rounding lands exactly on it: `a * b = ±(1 - 2^-46) * 2^h`
/// with `2^h` half an ulp of `c` (the double-rounding trap of computing an
/// `f32` fma in `f64`).
fn f32_fma_tie(rng: &mut Rng) -> (u64, u64, u64) {
    let r = rng.next();
    let ec = 60 + (r % 130) as i64;
    let c = (ec as u64) << 23 | (rng.next() & 0x7f_ffff) | (r >> 40 & 1) << 31;
    let h = ec - 127 - 24;
    let xa = h / 2;
    let xb = h - xa;
    let a = ((127 + xa) as u64) << 23 | 1 | (r >> 41 & 1) << 31;
    let b = ((126 + xb) as u64) << 23 | 0x7f_fffe;
    (a, b, c)
}

/// The `v_div_scale` building blocks (reciprocal, ldexp) and reciprocal square
/// root. `rcp` is checked against SoftFloat's `1 / x`, `ldexp` against a
/// multiplication by an exact power of two, `rsq` against `1 / sqrt(x)`
/// computed in binary128 (113 bits; rounding that to `f32` is correct).
fn scale_helpers(n: u64, rng: &mut Rng, out: &mut Vec<Tally>) {
    let mut rcp = Tally::new("rcp 23", F32F);
    let mut ldexp = Tally::new("ldexp 23", F32F);
    let mut rsq = Tally::new("rsq 23", F32F);
    let mut rcp64 = Tally::new("rcp 52", F64F);
    for i in 0..n {
        let a = rng.value(F32F);
        let (r, rm) = MODES[(i % 4) as usize];
        let x = F32::from_bits(a as u32);
        let one = F32::from_bits(0x3f80_0000);
        let theirs = u64::from(one.div(x, rm).to_bits());
        rcp.check(fp::rcp(F32F, a, mode(r)), theirs, || {
            format!("rcp {a:#x} {r:?}")
        });
        let k = (rng.next() % 254) as i32 - 126;
        let p = F32::from_bits(((k + 127) as u32) << 23);
        let theirs = u64::from(x.mul(p, rm).to_bits());
        ldexp.check(fp::ldexp(F32F, a, k, mode(r)), theirs, || {
            format!("ldexp {a:#x} {k} {r:?}")
        });
        let w = x.to_f128(rm);
        let one128 = F128::from_bits(0x3fff_u128 << 112);
        let theirs = u64::from(one128.div(w.sqrt(rm), rm).to_f32(rm).to_bits());
        rsq.check(fp::rsq(F32F, a, mode(r)), theirs, || {
            format!("rsq {a:#x} {r:?}")
        });
        let d = rng.value(F64F);
        let theirs = F64::from_bits(0x3ff0_0000_0000_0000)
            .div(F64::from_bits(d), rm)
            .to_bits();
        rcp64.check(fp::rcp(F64F, d, mode(r)), theirs, || {
            format!("rcp {d:#x} {r:?}")
        });
    }
    out.extend([rcp, ldexp, rsq, rcp64]);
}

/// Conversions between formats, to and from integers, and to integral values.
fn conversions(n: u64, rng: &mut Rng, out: &mut Vec<Tally>) {
    let mut f32_f16 = Tally::new("cvt f32->f16", F16F);
    let mut f16_f32 = Tally::new("cvt f16->f32", F32F);
    let mut f64_f32 = Tally::new("cvt f64->f32", F32F);
    let mut f32_f64 = Tally::new("cvt f32->f64", F64F);
    let mut i32_f32 = Tally::new("cvt i32->f32", F32F);
    let mut u32_f32 = Tally::new("cvt u32->f32", F32F);
    let mut f32_i32 = Tally::new("cvt f32->i32", F64F);
    let mut f32_u32 = Tally::new("cvt f32->u32", F64F);
    let mut f64_i32 = Tally::new("cvt f64->i32", F64F);
    let mut rint = [
        Tally::new("round_to_integral 10", F16F),
        Tally::new("round_to_integral 23", F32F),
        Tally::new("round_to_integral 52", F64F),
    ];
    for i in 0..n {
        let (r, rm) = MODES[(i % 4) as usize];
        let m = mode(r);
        let a = rng.value(F32F);
        let x = F32::from_bits(a as u32);
        f32_f16.check(
            fp::convert(F32F, F16F, a, m, m),
            u64::from(x.to_f16(rm).to_bits()),
            || format!("{a:#x} {r:?}"),
        );
        f32_f64.check(
            fp::convert(F32F, F64F, a, m, m),
            x.to_f64(rm).to_bits(),
            || format!("{a:#x}"),
        );
        let h = rng.value(F16F);
        f16_f32.check(
            fp::convert(F16F, F32F, h, m, m),
            u64::from(F16::from_bits(h as u16).to_f32(rm).to_bits()),
            || format!("{h:#x}"),
        );
        let d = rng.value(F64F);
        let dx = F64::from_bits(d);
        f64_f32.check(
            fp::convert(F64F, F32F, d, m, m),
            u64::from(dx.to_f32(rm).to_bits()),
            || format!("{d:#x} {r:?}"),
        );
        let iv = rng.next() as u32 >> (rng.next() % 32);
        i32_f32.check(
            fp::from_i64(F32F, i64::from(iv as i32), m),
            u64::from(F32::from_i32(iv as i32, rm).to_bits()),
            || format!("{iv:#x} {r:?}"),
        );
        u32_f32.check(
            fp::from_u64(F32F, u64::from(iv), m),
            u64::from(F32::from_u32(iv, rm).to_bits()),
            || format!("{iv:#x} {r:?}"),
        );
        // Float -> int truncates; AMD saturates and maps NaN to 0 where
        // SoftFloat raises invalid, so those inputs check against the rule.
        let tz = RoundingMode::TowardZero;
        let v = f64::from(f32::from_bits(a as u32));
        let sat = |lo: f64, hi: f64| -> Option<i64> {
            if v.is_nan() {
                Some(0)
            } else if v.trunc() < lo {
                Some(lo as i64)
            } else if v.trunc() > hi {
                Some(hi as i64)
            } else {
                None
            }
        };
        let ours = fp::to_int(
            F32F,
            a,
            IntRound::Trunc,
            i64::from(i32::MIN),
            i64::from(i32::MAX),
            FpMode::IEEE,
        );
        let theirs =
            sat(f64::from(i32::MIN), f64::from(i32::MAX)).unwrap_or(i64::from(x.to_i32(tz, false)));
        f32_i32.check(ours as u64, theirs as u64, || format!("{a:#x}"));
        let ours = fp::to_int(
            F32F,
            a,
            IntRound::Trunc,
            0,
            i64::from(u32::MAX),
            FpMode::IEEE,
        );
        let theirs = sat(0.0, f64::from(u32::MAX)).unwrap_or(i64::from(x.to_u32(tz, false)));
        f32_u32.check(ours as u64, theirs as u64, || format!("{a:#x}"));
        let vd = f64::from_bits(d);
        let ours = fp::to_int(
            F64F,
            d,
            IntRound::Trunc,
            i64::from(i32::MIN),
            i64::from(i32::MAX),
            FpMode::IEEE,
        );
        let theirs = if vd.is_nan() {
            0
        } else if vd.trunc() < f64::from(i32::MIN) {
            i64::from(i32::MIN)
        } else if vd.trunc() > f64::from(i32::MAX) {
            i64::from(i32::MAX)
        } else {
            i64::from(dx.to_i32(tz, false))
        };
        f64_i32.check(ours as u64, theirs as u64, || format!("{d:#x}"));
        // Rounding to integral in each direction.
        let dir = match r {
            Round::NearestEven => IntRound::NearestEven,
            Round::Up => IntRound::Ceil,
            Round::Down => IntRound::Floor,
            Round::Zero => IntRound::Trunc,
        };
        let h = rng.value(F16F);
        rint[0].check(
            fp::to_integral(F16F, h, dir, FpMode::IEEE),
            u64::from(F16::from_bits(h as u16).round_to_integral(rm).to_bits()),
            || format!("{h:#x} {dir:?}"),
        );
        rint[1].check(
            fp::to_integral(F32F, a, dir, FpMode::IEEE),
            u64::from(x.round_to_integral(rm).to_bits()),
            || format!("{a:#x} {dir:?}"),
        );
        rint[2].check(
            fp::to_integral(F64F, d, dir, FpMode::IEEE),
            dx.round_to_integral(rm).to_bits(),
            || format!("{d:#x} {dir:?}"),
        );
    }
    out.extend([
        f32_f16, f16_f32, f64_f32, f32_f64, i32_f32, u32_f32, f32_i32, f32_u32, f64_i32,
    ]);
    out.extend(rint);
}

fn cross_check(n: u64, seed: u64) {
    println!("seed {seed:#x}, {n} samples per operation and format");
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    binary(n, &mut rng, &mut out);
    fma_sqrt(n, &mut rng, &mut out);
    scale_helpers(n, &mut rng, &mut out);
    conversions(n, &mut rng, &mut out);
    let mut total = 0;
    for t in &out {
        println!(
            "{:<24} {:>9} checks {:>6} mismatches",
            t.name, t.samples, t.mismatches
        );
        for e in &t.examples {
            println!("    {e}");
        }
        total += t.mismatches;
    }
    println!("total mismatches: {total}");
    assert_eq!(total, 0, "SoftFloat mismatches (see the table above)");
}

/// 10^6 samples per operation and format (a few seconds even in a debug build).
#[test]
fn softfloat_cross_check() {
    cross_check(1_000_000, 0x5eed_0002);
}
