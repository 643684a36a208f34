//! Cross-check of the IEEE basic operations against Berkeley SoftFloat
//! (through `softfloat-wrapper`): add, sub, mul, fma, div, sqrt, rcp, rsq,
//! the format and integer conversions and round-to-integral, for f16, f32
//! and f64 in all four rounding directions with denormals kept. Inputs are
//! biased toward zeros, denormals, infinities, NaNs, the ends of the range,
//! operands that cancel and exponent gaps that put the addend at the guard
//! and sticky positions. Every check prints its counts; any mismatch fails.

use softfloat_wrapper::{
    ExceptionFlags, Float, RoundingMode as Sr, F128, F16 as S16, F32 as S32, F64 as S64,
};

use super::format::{Ctx, Fmt, F16, F32, F64};
use super::{arith, convert, Denorm, FpMode, Round};

/// Random operations per rounding direction (so 4× this per operation).
const N: u64 = 100_000;

/// splitmix64: deterministic, seedable, no dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const MODES: [(Round, Sr); 4] = [
    (Round::NearestEven, Sr::TiesToEven),
    (Round::Up, Sr::TowardPositive),
    (Round::Down, Sr::TowardNegative),
    (Round::Zero, Sr::TowardZero),
];

fn ctx(f: Fmt, rm: Round) -> Ctx {
    Ctx {
        f,
        rm,
        dn: Denorm {
            keep_in: true,
            keep_out: true,
        },
    }
}

/// SoftFloat's value types as raw `u64`s.
trait Sf: Float + Copy {
    const FMT: Fmt;
    fn of(x: u64) -> Self;
    fn raw(&self) -> u64;
}
impl Sf for S16 {
    const FMT: Fmt = F16;
    fn of(x: u64) -> Self {
        S16::from_bits(x as u16)
    }
    fn raw(&self) -> u64 {
        self.to_bits().into()
    }
}
impl Sf for S32 {
    const FMT: Fmt = F32;
    fn of(x: u64) -> Self {
        S32::from_bits(x as u32)
    }
    fn raw(&self) -> u64 {
        self.to_bits().into()
    }
}
impl Sf for S64 {
    const FMT: Fmt = F64;
    fn of(x: u64) -> Self {
        S64::from_bits(x)
    }
    fn raw(&self) -> u64 {
        self.to_bits()
    }
}

/// A random operand biased toward the interesting encodings.
fn operand(r: &mut Rng, f: Fmt) -> u64 {
    let sign = f.zero(r.next() & 1 != 0);
    let frac = r.next() & f.frac_mask();
    let top = f.exp_all_ones();
    match r.below(16) {
        0 | 1 => {
            let specials = [
                0,
                1,
                f.frac_mask(),
                1 << f.mbits,
                f.max_finite(false),
                f.inf(false),
                f.default_nan(),
                f.inf(false) | 1,
                f.inf(false) | frac | 1,
                f.one(),
                f.one() - 1,
                f.one() + 1,
                (1 << f.mbits) | f.frac_mask(),
                f.max_finite(false) - 1,
            ];
            sign | specials[r.below(specials.len() as u64) as usize]
        }
        2 | 3 => sign | frac,
        4 => sign | ((top - 1 - r.below(3)) << f.mbits) | frac,
        5 => sign | ((1 + r.below(3)) << f.mbits) | frac,
        6 | 7 => {
            // Trailing zeros below a random point, sometimes with the bit
            // just above them set: integers, halves and the exact ties of
            // every narrower precision.
            let e = if r.next() & 1 != 0 {
                f.bias() as u64 + r.below(f.mbits as u64 + 3)
            } else {
                1 + r.below(top - 1)
            };
            let k = r.below(f.mbits as u64 + 1) as u32;
            let mut frac = frac & !((1u64 << k) - 1);
            if k > 0 && r.next() & 1 != 0 {
                frac |= 1 << (k - 1);
            }
            sign | (e << f.mbits) | frac
        }
        _ => sign | (r.below(top) << f.mbits) | frac,
    }
}

/// A second operand related to `a`: same or nearby exponent (cancellation,
/// guard/sticky alignment), or independent.
fn partner(r: &mut Rng, f: Fmt, a: u64) -> u64 {
    let ea = f.exp_field(a);
    match r.below(4) {
        0 => {
            // Nearly equal magnitude, random sign: massive cancellation.
            let d = r.below(8);
            let x = if r.next() & 1 != 0 {
                a.wrapping_add(d)
            } else {
                a.wrapping_sub(d)
            };
            (x & (f.sign_bit() | f.max_finite(false))) ^ (f.sign_bit() * (r.next() & 1))
        }
        1 => {
            let gap = r.below(f.mbits as u64 + 5);
            let e = ea.saturating_sub(gap);
            f.zero(r.next() & 1 != 0) | (e << f.mbits) | (r.next() & f.frac_mask())
        }
        _ => operand(r, f),
    }
}

/// The NaN the rules require when SoftFloat produces one: the first NaN
/// input quieted, else the default NaN.
fn want_nan(f: Fmt, ins: &[u64]) -> u64 {
    ins.iter()
        .find(|&&x| f.is_nan(x))
        .map_or(f.default_nan(), |&x| f.quiet(x))
}

#[derive(Default)]
struct Tally {
    checks: u64,
    bad: u64,
}
impl Tally {
    fn check(&mut self, name: &str, ins: &[u64], ours: u64, want: u64) {
        self.checks += 1;
        if ours != want {
            self.bad += 1;
            if self.bad <= 8 {
                eprintln!("{name}: inputs {ins:x?}: ours {ours:#x}, want {want:#x}");
            }
        }
    }
    fn finish(&self, name: &str) {
        println!(
            "softfloat {name}: {} checks, {} mismatches",
            self.checks, self.bad
        );
        assert_eq!(self.bad, 0, "{name}: mismatches against SoftFloat");
    }
}

fn expect<S: Sf>(got: S, ins: &[u64]) -> u64 {
    let f = S::FMT;
    if f.is_nan(got.raw()) {
        want_nan(f, ins)
    } else {
        got.raw()
    }
}

type Ours3 = fn(u64, u64, u64, Ctx) -> u64;

/// `arity` 1..3 operations compared on `N` inputs per mode.
fn run<S: Sf>(name: &str, arity: usize, seed: u64, ours: Ours3, theirs: fn(&[S], Sr) -> S) {
    run_with::<S>(name, arity, seed, false, ours, theirs)
}

/// [`run`]; `negate_b`: the operation negates its second operand (sub), which
/// the NaN rule sees as the operand.
fn run_with<S: Sf>(
    name: &str,
    arity: usize,
    seed: u64,
    negate_b: bool,
    ours: Ours3,
    theirs: fn(&[S], Sr) -> S,
) {
    let f = S::FMT;
    let mut r = Rng(seed);
    let mut t = Tally::default();
    for (rm, sr) in MODES {
        let c = ctx(f, rm);
        for i in 0..N {
            let a = operand(&mut r, f);
            let b = partner(&mut r, f, a);
            let mut d = operand(&mut r, f);
            if arity == 3 && i % 2 == 0 {
                // Addend near -(a·b): cancellation inside the fused sum.
                let p = S::of(a).mul(S::of(b), Sr::TowardZero).raw();
                d = (p ^ f.sign_bit()).wrapping_add(r.below(5)).wrapping_sub(2);
            }
            let ins = [a, b, d];
            let ins = &ins[..arity];
            let got = theirs(&ins.iter().map(|&x| S::of(x)).collect::<Vec<_>>(), sr);
            let seen = [a, if negate_b { b ^ f.sign_bit() } else { b }, d];
            let want = expect(got, &seen[..arity]);
            t.check(name, ins, ours(a, b, d, c), want);
        }
    }
    t.finish(name);
}

fn arith_all<S: Sf>(tag: &str, seed: u64) {
    run::<S>(
        &format!("add_{tag}"),
        2,
        seed,
        |a, b, _, c| arith::add(a, b, c),
        |x, m| x[0].add(x[1], m),
    );
    run_with::<S>(
        &format!("sub_{tag}"),
        2,
        seed + 1,
        true,
        |a, b, _, c| arith::add(a, b ^ c.f.sign_bit(), c),
        |x, m| x[0].sub(x[1], m),
    );
    run::<S>(
        &format!("mul_{tag}"),
        2,
        seed + 2,
        |a, b, _, c| arith::mul(a, b, c),
        |x, m| x[0].mul(x[1], m),
    );
    run::<S>(
        &format!("fma_{tag}"),
        3,
        seed + 3,
        |a, b, d, c| arith::fma(a, b, d, 0, false, c),
        |x, m| x[0].fused_mul_add(x[1], x[2], m),
    );
    run::<S>(
        &format!("div_{tag}"),
        2,
        seed + 4,
        |a, b, _, c| arith::div(a, b, c),
        |x, m| x[0].div(x[1], m),
    );
    run::<S>(
        &format!("sqrt_{tag}"),
        1,
        seed + 5,
        |a, _, _, c| arith::sqrt(a, c),
        |x, m| x[0].sqrt(m),
    );
    run::<S>(
        &format!("rcp_{tag}"),
        1,
        seed + 6,
        |a, _, _, c| arith::rcp(a, c),
        |x, m| S::of(S::FMT.one()).div(x[0], m),
    );
    for (name, rm) in [
        ("trunc", Sr::TowardZero),
        ("floor", Sr::TowardNegative),
        ("ceil", Sr::TowardPositive),
        ("rndne", Sr::TiesToEven),
    ] {
        let ours: Ours3 = match name {
            "trunc" => |a, _, _, c| convert::round_int(a, c, Round::Zero),
            "floor" => |a, _, _, c| convert::round_int(a, c, Round::Down),
            "ceil" => |a, _, _, c| convert::round_int(a, c, Round::Up),
            _ => |a, _, _, c| convert::round_int(a, c, Round::NearestEven),
        };
        let theirs: fn(&[S], Sr) -> S = match name {
            "trunc" => |x, _| x[0].round_to_integral(Sr::TowardZero),
            "floor" => |x, _| x[0].round_to_integral(Sr::TowardNegative),
            "ceil" => |x, _| x[0].round_to_integral(Sr::TowardPositive),
            _ => |x, _| x[0].round_to_integral(Sr::TiesToEven),
        };
        let _ = rm;
        run::<S>(&format!("{name}_{tag}"), 1, seed + 7, ours, theirs);
    }
}

#[test]
fn softfloat_arith_f16() {
    arith_all::<S16>("f16", 0x5eed_1600);
}

#[test]
fn softfloat_arith_f32() {
    arith_all::<S32>("f32", 0x5eed_3200);
}

#[test]
fn softfloat_arith_f64() {
    arith_all::<S64>("f64", 0x5eed_6400);
}

/// `1/sqrt(x)` in binary128 rounded to the format: the true value is never
/// within 2^-100 (relative) of a rounding boundary for f16/f32 inputs unless
/// it is exact, so this reference is correctly rounded; for f64 it is with
/// overwhelming probability.
fn rsq_ref<S: Sf>(x: S, m: Sr) -> S {
    let f = S::FMT;
    let q = x.to_f128(Sr::TiesToEven);
    let one = F128::from_u32(1, Sr::TiesToEven);
    let r = one.div(q.sqrt(Sr::TiesToEven), Sr::TiesToEven);
    let bits = match f.mbits {
        10 => r.to_f16(m).to_bits() as u64,
        23 => r.to_f32(m).to_bits() as u64,
        _ => r.to_f64(m).to_bits(),
    };
    S::of(bits)
}

#[test]
fn softfloat_rsq() {
    run::<S16>(
        "rsq_f16",
        1,
        0x5eed_7016,
        |a, _, _, c| arith::rsq(a, c),
        |x, m| rsq_ref(x[0], m),
    );
    run::<S32>(
        "rsq_f32",
        1,
        0x5eed_7032,
        |a, _, _, c| arith::rsq(a, c),
        |x, m| rsq_ref(x[0], m),
    );
    run::<S64>(
        "rsq_f64",
        1,
        0x5eed_7064,
        |a, _, _, c| arith::rsq(a, c),
        |x, m| rsq_ref(x[0], m),
    );
}

/// Format conversion `S → D` in every mode.
fn run_cvt<S: Sf, D: Sf>(name: &str, seed: u64, theirs: fn(S, Sr) -> D) {
    let (fs, fd) = (S::FMT, D::FMT);
    let mut r = Rng(seed);
    let mut t = Tally::default();
    for (rm, sr) in MODES {
        for _ in 0..N {
            let a = operand(&mut r, fs);
            let got = theirs(S::of(a), sr).raw();
            let want = if fs.is_nan(a) {
                // Sign and top payload bits kept, quieted (AMD; SoftFloat
                // would return its own default NaN).
                let frac = a & fs.frac_mask();
                let payload = if fd.mbits >= fs.mbits {
                    frac << (fd.mbits - fs.mbits)
                } else {
                    frac >> (fs.mbits - fd.mbits)
                };
                fd.inf(fs.sign(a)) | fd.quiet_bit() | payload
            } else {
                got
            };
            t.check(name, &[a], convert::convert(a, fs, true, ctx(fd, rm)), want);
        }
    }
    t.finish(name);
}

#[test]
fn softfloat_format_conversions() {
    run_cvt::<S32, S16>("cvt_f16_f32", 0x5eed_c001, |x, m| x.to_f16(m));
    run_cvt::<S16, S32>("cvt_f32_f16", 0x5eed_c002, |x, m| x.to_f32(m));
    run_cvt::<S32, S64>("cvt_f64_f32", 0x5eed_c003, |x, m| x.to_f64(m));
    run_cvt::<S64, S32>("cvt_f32_f64", 0x5eed_c004, |x, m| x.to_f32(m));
    run_cvt::<S64, S16>("cvt_f16_f64", 0x5eed_c005, |x, m| x.to_f16(m));
}

/// Integer → float in every mode.
#[test]
fn softfloat_int_to_float() {
    let mut r = Rng(0x5eed_1a70);
    let mut t = Tally::default();
    for (rm, sr) in MODES {
        let m = mode(rm);
        for i in 0..N {
            let x = match i % 4 {
                0 => r.next() as u32,
                1 => (r.next() as u32) >> r.below(32),
                2 => (r.next() as u32) & (0xffff_ff00 << r.below(8)),
                _ => [
                    0,
                    1,
                    u32::MAX,
                    1 << 31,
                    (1 << 31) - 1,
                    0x0100_0001,
                    0x00ff_ffff,
                ][r.below(7) as usize],
            };
            let xi = x as i32;
            t.check(
                "cvt_f32_i32",
                &[x.into()],
                super::cvt_f32_i32(xi, &m).into(),
                S32::from_i32(xi, sr).to_bits().into(),
            );
            t.check(
                "cvt_f32_u32",
                &[x.into()],
                super::cvt_f32_u32(x, &m).into(),
                S32::from_u32(x, sr).to_bits().into(),
            );
            t.check(
                "cvt_f64_i32",
                &[x.into()],
                super::cvt_f64_i32(xi),
                S64::from_i32(xi, sr).to_bits(),
            );
            t.check(
                "cvt_f64_u32",
                &[x.into()],
                super::cvt_f64_u32(x),
                S64::from_u32(x, sr).to_bits(),
            );
            let h = x as u16;
            t.check(
                "cvt_f16_i16",
                &[h.into()],
                super::cvt_f16_i16(h as i16, &m).into(),
                S16::from_i32((h as i16).into(), sr).to_bits().into(),
            );
            t.check(
                "cvt_f16_u16",
                &[h.into()],
                super::cvt_f16_u16(h, &m).into(),
                S16::from_u32(h.into(), sr).to_bits().into(),
            );
        }
    }
    t.finish("int_to_float");
}

fn mode(rm: Round) -> FpMode {
    FpMode {
        round32: rm,
        round64: rm,
        denorm32: Denorm {
            keep_in: true,
            keep_out: true,
        },
        denorm64: Denorm {
            keep_in: true,
            keep_out: true,
        },
        dx10_clamp: true,
        ieee: true,
    }
}

/// Float → integer (truncating): SoftFloat where it is valid; where it
/// signals invalid, AMD's rule: NaN gives 0, otherwise saturate by sign.
fn run_to_int<S: Sf>(name: &str, seed: u64, lo: i64, hi: i64, ours: fn(u64, &FpMode) -> i64) {
    let f = S::FMT;
    let mut r = Rng(seed);
    let mut t = Tally::default();
    let m = mode(Round::NearestEven);
    for _ in 0..4 * N {
        let a = if r.below(4) == 0 {
            // Near the integer range's ends.
            let e = f.bias() as u64 + [15, 16, 31, 32, 30][r.below(5) as usize];
            f.zero(r.next() & 1 != 0) | (e << f.mbits) | (r.next() & f.frac_mask())
        } else {
            operand(&mut r, f)
        };
        let mut fl = ExceptionFlags::default();
        fl.set();
        let v = S::of(a).to_i64(Sr::TowardZero, false);
        fl.get();
        let want = if f.is_nan(a) {
            0
        } else if fl.is_invalid() || v < lo || v > hi {
            if f.sign(a) {
                lo
            } else {
                hi
            }
        } else {
            v
        };
        t.check(name, &[a], ours(a, &m) as u64, want as u64);
    }
    t.finish(name);
}

#[test]
fn softfloat_float_to_int() {
    run_to_int::<S32>(
        "cvt_i32_f32",
        0x5eed_f100,
        i32::MIN.into(),
        i32::MAX.into(),
        |a, m| super::cvt_i32_f32(a as u32, m).into(),
    );
    run_to_int::<S32>("cvt_u32_f32", 0x5eed_f101, 0, u32::MAX.into(), |a, m| {
        super::cvt_u32_f32(a as u32, m).into()
    });
    run_to_int::<S64>(
        "cvt_i32_f64",
        0x5eed_f102,
        i32::MIN.into(),
        i32::MAX.into(),
        |a, m| super::cvt_i32_f64(a, m).into(),
    );
    run_to_int::<S64>("cvt_u32_f64", 0x5eed_f103, 0, u32::MAX.into(), |a, m| {
        super::cvt_u32_f64(a, m).into()
    });
    run_to_int::<S16>(
        "cvt_i16_f16",
        0x5eed_f104,
        i16::MIN.into(),
        i16::MAX.into(),
        |a, m| super::cvt_i16_f16(a as u16, m).into(),
    );
    run_to_int::<S16>("cvt_u16_f16", 0x5eed_f105, 0, u16::MAX.into(), |a, m| {
        super::cvt_u16_f16(a as u16, m).into()
    });
}

/// Every f16 encoding, every direction: the unary operations exhaustively.
#[test]
fn softfloat_f16_unary_exhaustive() {
    let mut t = Tally::default();
    let f = F16;
    for (rm, sr) in MODES {
        let c = ctx(f, rm);
        for x in 0..=u16::MAX as u64 {
            let s = S16::of(x);
            let one = S16::of(f.one());
            t.check(
                "sqrt_f16",
                &[x],
                arith::sqrt(x, c),
                expect(s.sqrt(sr), &[x]),
            );
            t.check(
                "rcp_f16",
                &[x],
                arith::rcp(x, c),
                expect(one.div(s, sr), &[x]),
            );
            t.check(
                "rsq_f16",
                &[x],
                arith::rsq(x, c),
                expect(rsq_ref(s, sr), &[x]),
            );
            t.check(
                "cvt_f32_f16",
                &[x],
                convert::convert(x, f, true, ctx(F32, rm)),
                if f.is_nan(x) {
                    F32.inf(f.sign(x)) | F32.quiet_bit() | (x & f.frac_mask()) << 13
                } else {
                    s.to_f32(sr).raw()
                },
            );
            for (dir, sdir) in MODES {
                t.check(
                    "round_int_f16",
                    &[x],
                    convert::round_int(x, c, dir),
                    expect(s.round_to_integral(sdir), &[x]),
                );
            }
        }
    }
    t.finish("f16 unary (exhaustive)");
}
