//! The integer, common, relational and geometric built-ins and the GNU
//! atomics, run on the golden GPU for scalar and vector types and compared
//! with a Rust evaluation per component (edge values and random bits).

mod backend_support;
use backend_support::{build_kernel, run, TestArg};

/// xorshift32.
struct Rng(u32);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }
}

/// An integer element type.
#[derive(Clone, Copy)]
struct IntTy {
    name: &'static str,
    bits: u32,
    signed: bool,
}

const INTS: [IntTy; 8] = [
    IntTy {
        name: "char",
        bits: 8,
        signed: true,
    },
    IntTy {
        name: "uchar",
        bits: 8,
        signed: false,
    },
    IntTy {
        name: "short",
        bits: 16,
        signed: true,
    },
    IntTy {
        name: "ushort",
        bits: 16,
        signed: false,
    },
    IntTy {
        name: "int",
        bits: 32,
        signed: true,
    },
    IntTy {
        name: "uint",
        bits: 32,
        signed: false,
    },
    IntTy {
        name: "long",
        bits: 64,
        signed: true,
    },
    IntTy {
        name: "ulong",
        bits: 64,
        signed: false,
    },
];

impl IntTy {
    fn min(self) -> i128 {
        if self.signed {
            -(1i128 << (self.bits - 1))
        } else {
            0
        }
    }
    fn max(self) -> i128 {
        if self.signed {
            (1i128 << (self.bits - 1)) - 1
        } else {
            (1i128 << self.bits) - 1
        }
    }
    /// The value of `bits` (low `self.bits` bits) as this type.
    fn value(self, bits: u128) -> i128 {
        let m = bits & ((1u128 << self.bits) - 1);
        if self.signed && m >> (self.bits - 1) != 0 {
            m as i128 - (1i128 << self.bits)
        } else {
            m as i128
        }
    }
    fn unsigned(self) -> IntTy {
        IntTy {
            name: INTS
                .iter()
                .find(|t| t.bits == self.bits && !t.signed)
                .unwrap()
                .name,
            signed: false,
            ..self
        }
    }
    fn vec(self, n: u8) -> String {
        if n == 1 {
            self.name.to_string()
        } else {
            format!("{}{n}", self.name)
        }
    }
}

fn pack(vals: &[i128], bits: u32) -> Vec<u32> {
    let mut bytes = Vec::new();
    for &v in vals {
        bytes.extend_from_slice(&(v as u128).to_le_bytes()[..(bits / 8) as usize]);
    }
    while bytes.len() % 4 != 0 {
        bytes.push(0);
    }
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn unpack(words: &[u32], t: IntTy, n: usize) -> Vec<i128> {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let k = (t.bits / 8) as usize;
    (0..n)
        .map(|i| {
            let mut b = [0u8; 16];
            b[..k].copy_from_slice(&bytes[i * k..(i + 1) * k]);
            t.value(u128::from_le_bytes(b))
        })
        .collect()
}

/// Runs `expr` over `nargs` operands of type `t` (width `w`), result type
/// `rt`, and checks each component against `reference`.
fn check_int(
    expr: &str,
    t: IntTy,
    w: u8,
    nargs: usize,
    rt: IntTy,
    reference: &dyn Fn(&[i128]) -> i128,
) {
    let items = 64usize;
    let n = items * w as usize;
    let mut r = Rng(0x1234_5678 ^ t.bits ^ (w as u32) << 8);
    let edges = [
        0,
        1,
        -1,
        t.min(),
        t.max(),
        t.min() + 1,
        t.max() - 1,
        2,
        3,
        7,
    ];
    let args: Vec<Vec<i128>> = (0..nargs)
        .map(|a| {
            (0..n)
                .map(|i| {
                    let raw = (u128::from(r.next()) << 64)
                        | (u128::from(r.next()) << 32)
                        | u128::from(r.next());
                    if (i + a) % 3 == 0 {
                        t.value(edges[(i / 3 + a * 5) % edges.len()] as u128)
                    } else {
                        t.value(raw)
                    }
                })
                .collect()
        })
        .collect();
    let ty = t.vec(w);
    let params: Vec<String> = (0..nargs)
        .map(|a| format!("__global const {ty} *p{a}"))
        .collect();
    let loads: Vec<String> = (0..nargs)
        .map(|a| format!("{ty} {} = p{a}[i];", ["a", "b", "c"][a]))
        .collect();
    let src = format!(
        "__kernel void k({}, __global {} *o) {{ uint i = get_global_id(0); {} o[i] = {expr}; }}",
        params.join(", "),
        rt.vec(w),
        loads.join(" ")
    );
    // Scalars in wave32, vectors in wave64: both wave sizes, half the runs.
    for wave64 in [w > 1] {
        let k = build_kernel(&src, wave64);
        let mut bufs: Vec<TestArg> = args.iter().map(|v| TestArg::Buf(pack(v, t.bits))).collect();
        bufs.push(TestArg::Buf(vec![
            0;
            (n * rt.bits as usize / 8).div_ceil(4)
        ]));
        let out = run(&k, items as u32, 64, &bufs).unwrap_or_else(|e| panic!("{src}: {e}"));
        let got = unpack(&out[nargs], rt, n);
        for i in 0..n {
            let ops: Vec<i128> = args.iter().map(|v| v[i]).collect();
            let want = rt.value(reference(&ops) as u128);
            assert_eq!(
                got[i], want,
                "{expr} on {ty} {ops:?} (wave64={wave64})\n{src}"
            );
        }
    }
}

fn sat(t: IntTy, v: i128) -> i128 {
    v.clamp(t.min(), t.max())
}

#[test]
fn integer_functions_on_every_integer_type() {
    for t in INTS {
        let u = t.unsigned();
        let bits = t.bits;
        for w in [1u8, 4] {
            check_int("add_sat(a, b)", t, w, 2, t, &|o| sat(t, o[0] + o[1]));
            check_int("sub_sat(a, b)", t, w, 2, t, &|o| sat(t, o[0] - o[1]));
            check_int("hadd(a, b)", t, w, 2, t, &|o| (o[0] + o[1]).div_euclid(2));
            check_int("rhadd(a, b)", t, w, 2, t, &|o| {
                (o[0] + o[1] + 1).div_euclid(2)
            });
            check_int("abs_diff(a, b)", t, w, 2, u, &|o| (o[0] - o[1]).abs());
            check_int("abs(a)", t, w, 1, u, &|o| o[0].abs());
            check_int("clamp(a, b, c)", t, w, 3, t, &|o| o[0].max(o[1]).min(o[2]));
            check_int("min(a, b)", t, w, 2, t, &|o| o[0].min(o[1]));
            check_int("max(a, b)", t, w, 2, t, &|o| o[0].max(o[1]));
            check_int("clz(a)", t, w, 1, t, &|o| {
                let m = (o[0] as u128) & ((1u128 << bits) - 1);
                i128::from(bits) - (128 - i128::from(m.leading_zeros()))
            });
            check_int("ctz(a)", t, w, 1, t, &|o| {
                let m = (o[0] as u128) & ((1u128 << bits) - 1);
                if m == 0 {
                    i128::from(bits)
                } else {
                    i128::from(m.trailing_zeros())
                }
            });
            check_int("popcount(a)", t, w, 1, t, &|o| {
                i128::from(((o[0] as u128) & ((1u128 << bits) - 1)).count_ones())
            });
            check_int("mul_hi(a, b)", t, w, 2, t, &|o| (o[0] * o[1]) >> bits);
            check_int("mad_hi(a, b, c)", t, w, 3, t, &|o| {
                ((o[0] * o[1]) >> bits) + o[2]
            });
            check_int("rotate(a, b)", t, w, 2, t, &|o| {
                let m = (o[0] as u128) & ((1u128 << bits) - 1);
                let k = (o[1] as u128 & u128::from(bits - 1)) as u32;
                (((m << k) | (m >> ((bits - k) % bits))) & ((1u128 << bits) - 1)) as i128
            });
            // An unsigned 64-bit product may not fit an i128: it saturates.
            check_int("mad_sat(a, b, c)", t, w, 3, t, &|o| {
                sat(t, o[0].checked_mul(o[1]).map_or(i128::MAX, |p| p + o[2]))
            });
        }
    }
}

#[test]
fn upsample_and_24_bit_multiplies() {
    for (t, wide) in [(0usize, 2usize), (1, 3), (2, 4), (3, 5), (4, 6), (5, 7)] {
        let (t, wt) = (INTS[t], INTS[wide]);
        let u = t.unsigned();
        let bits = t.bits;
        let src_expr = format!("upsample(a, ({})b)", u.name);
        check_int(&src_expr, t, 1, 2, wt, &|o| {
            (o[0] << bits) | ((o[1] as u128 & ((1u128 << bits) - 1)) as i128)
        });
    }
    let u = INTS[5];
    check_int("mul24(a & 0xffffffu, b & 0xffffffu)", u, 4, 2, u, &|o| {
        (o[0] & 0xff_ffff) * (o[1] & 0xff_ffff)
    });
}

/// Float built-ins: `expr` over float operands; `reference` per component.
fn check_float(
    expr: &str,
    w: u8,
    nargs: usize,
    out: &str,
    reference: &dyn Fn(&[f32]) -> f64,
    tolerance_ulp: f64,
) {
    let items = 64usize;
    let n = items * w as usize;
    let mut r = Rng(0xfeed ^ (w as u32));
    let edges = [
        0.0f32,
        -0.0,
        1.0,
        -1.0,
        0.5,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        3.5,
        -2.25,
        1e-40,
        1e30,
    ];
    let args: Vec<Vec<f32>> = (0..nargs)
        .map(|a| {
            (0..n)
                .map(|i| {
                    if (i + a) % 4 == 0 {
                        edges[(i / 4 + a * 3) % edges.len()]
                    } else {
                        (r.next() as i32 as f32) / 2f32.powi(28)
                    }
                })
                .collect()
        })
        .collect();
    let ty = if w == 1 {
        "float".to_string()
    } else {
        format!("float{w}")
    };
    let params: Vec<String> = (0..nargs)
        .map(|a| format!("__global const {ty} *p{a}"))
        .collect();
    let loads: Vec<String> = (0..nargs)
        .map(|a| format!("{ty} {} = p{a}[i];", ["a", "b", "c"][a]))
        .collect();
    let scalar_out = out.starts_with("float") && !out.contains(char::is_numeric) || out == "int";
    let src = format!(
        "__kernel void k({}, __global {out} *o) {{ uint i = get_global_id(0); {} o[i] = {expr}; }}",
        params.join(", "),
        loads.join(" ")
    );
    let per = if scalar_out { 1 } else { w as usize };
    for wave64 in [false, true] {
        let k = build_kernel(&src, wave64);
        let mut bufs: Vec<TestArg> = args
            .iter()
            .map(|v| TestArg::Buf(v.iter().map(|f| f.to_bits()).collect()))
            .collect();
        bufs.push(TestArg::Buf(vec![0; items * per]));
        let res = run(&k, items as u32, 64, &bufs).unwrap_or_else(|e| panic!("{src}: {e}"));
        #[allow(clippy::needless_range_loop)]
        for i in 0..items * per {
            let comp = |j: usize| -> Vec<f32> { args.iter().map(|v| v[j]).collect() };
            let ops: Vec<f32> = if scalar_out {
                (0..w as usize)
                    .flat_map(|c| comp(i * w as usize + c))
                    .collect()
            } else {
                comp(i)
            };
            let want = reference(&ops);
            let bits = res[nargs][i];
            let ok = if out.starts_with("int") {
                f64::from(bits as i32) == want
            } else {
                let g = f32::from_bits(bits);
                let w32 = want as f32;
                (g.is_nan() && want.is_nan())
                    || g == w32
                    || (f64::from(g) - want).abs()
                        <= tolerance_ulp * f64::from(ulp(scale(&ops, w32)))
            };
            assert!(
                ok,
                "{expr} on {ty} {ops:?} = {:#x} ({}), want {want} (wave64={wave64})",
                bits,
                f32::from_bits(bits)
            );
        }
    }
}

/// The magnitude whose ULP the tolerance counts: the result's, or for
/// `dot` the sum of the products' magnitudes (cancellation).
fn scale(ops: &[f32], want: f32) -> f32 {
    if ops.len() % 2 == 0 && ops.len() > 2 {
        ops.chunks(2).map(|p| (p[0] * p[1]).abs()).sum()
    } else if ops.len() == 3 {
        // mix: x + (y - x) a cancels too.
        ops[0].abs() + ((ops[1] - ops[0]) * ops[2]).abs()
    } else {
        want
    }
}

fn ulp(x: f32) -> f32 {
    let a = x.abs();
    if !a.is_finite() {
        return 0.0;
    }
    f32::from_bits(a.to_bits() + 1) - a
}

#[test]
fn relational_functions_give_1_for_scalars_and_minus_1_for_vectors() {
    type Rel = (&'static str, usize, fn(f32, f32) -> bool);
    let rels: [Rel; 14] = [
        ("isequal(a, b)", 2, |x, y| x == y),
        ("isnotequal(a, b)", 2, |x, y| x != y),
        ("isgreater(a, b)", 2, |x, y| x > y),
        ("isgreaterequal(a, b)", 2, |x, y| x >= y),
        ("isless(a, b)", 2, |x, y| x < y),
        ("islessequal(a, b)", 2, |x, y| x <= y),
        ("islessgreater(a, b)", 2, |x, y| {
            x.partial_cmp(&y)
                .is_some_and(|o| o != std::cmp::Ordering::Equal)
        }),
        ("isordered(a, b)", 2, |x, y| !x.is_nan() && !y.is_nan()),
        ("isunordered(a, b)", 2, |x, y| x.is_nan() || y.is_nan()),
        ("isnan(a)", 1, |x, _| x.is_nan()),
        ("isinf(a)", 1, |x, _| x.is_infinite()),
        ("isfinite(a)", 1, |x, _| x.is_finite()),
        ("isnormal(a)", 1, |x, _| x.is_normal()),
        ("signbit(a)", 1, |x, _| x.is_sign_negative()),
    ];
    for (expr, n, f) in rels {
        check_float(
            expr,
            1,
            n,
            "int",
            &|o| f64::from(f(o[0], *o.get(1).unwrap_or(&0.0)) as i32),
            0.0,
        );
        check_float(
            expr,
            4,
            n,
            "int4",
            &|o| -f64::from(f(o[0], *o.get(1).unwrap_or(&0.0)) as i32),
            0.0,
        );
    }
}

#[test]
fn common_functions() {
    for w in [1u8, 4] {
        let out = if w == 1 {
            "float".to_string()
        } else {
            format!("float{w}")
        };
        check_float(
            "clamp(a, b, c)",
            w,
            3,
            &out,
            &|o| f64::from(o[0].max(o[1]).min(o[2])),
            0.0,
        );
        check_float(
            "mix(a, b, c)",
            w,
            3,
            &out,
            &|o| {
                let (x, y, a) = (f64::from(o[0]), f64::from(o[1]), f64::from(o[2]));
                x + (y - x) * a
            },
            2.0,
        );
        check_float(
            "step(a, b)",
            w,
            2,
            &out,
            &|o| if o[1] < o[0] { 0.0 } else { 1.0 },
            0.0,
        );
        check_float(
            "sign(a)",
            w,
            1,
            &out,
            &|o| {
                if o[0].is_nan() {
                    0.0
                } else if o[0] == 0.0 {
                    f64::from(o[0])
                } else {
                    f64::from(o[0].signum())
                }
            },
            0.0,
        );
        check_float(
            "degrees(a)",
            w,
            1,
            &out,
            &|o| f64::from(o[0]).to_degrees(),
            2.0,
        );
        check_float(
            "radians(a)",
            w,
            1,
            &out,
            &|o| f64::from(o[0]).to_radians(),
            2.0,
        );
        check_float(
            "bitselect(a, b, c)",
            w,
            3,
            &out,
            &|o| {
                f64::from(f32::from_bits(
                    (o[0].to_bits() & !o[2].to_bits()) | (o[1].to_bits() & o[2].to_bits()),
                ))
            },
            0.0,
        );
        check_float(
            "select(a, b, as_int(c))"
                .replace("as_int", if w == 1 { "as_int" } else { "as_int4" })
                .as_str(),
            w,
            3,
            &out,
            &|o| {
                let c = o[2].to_bits() as i32;
                let pick = if w == 1 { c != 0 } else { c < 0 };
                f64::from(if pick { o[1] } else { o[0] })
            },
            0.0,
        );
    }
}

#[test]
fn geometric_functions() {
    let dot = |o: &[f32], n: usize| -> f64 {
        (0..n)
            .map(|i| f64::from(o[2 * i]) * f64::from(o[2 * i + 1]))
            .sum()
    };
    for w in [2u8, 4] {
        let n = w as usize;
        // Cancellation: the bound counts ULPs of the sum of |a_i b_i|.
        check_float("dot(a, b)", w, 2, "float", &move |o| dot(o, n), 4.0);
        check_float(
            "length(a)",
            w,
            1,
            "float",
            &move |o| {
                (0..n)
                    .map(|i| f64::from(o[i]) * f64::from(o[i]))
                    .sum::<f64>()
                    .sqrt()
            },
            4.0,
        );
        check_float(
            "distance(a, b)",
            w,
            2,
            "float",
            &move |o| {
                (0..n)
                    .map(|i| {
                        let d = f64::from(o[2 * i]) - f64::from(o[2 * i + 1]);
                        d * d
                    })
                    .sum::<f64>()
                    .sqrt()
            },
            4.0,
        );
    }
}

#[test]
fn any_and_all_read_sign_bits() {
    let src = "__kernel void k(__global const int4 *x, __global int *o) {
  uint i = get_global_id(0);
  int4 a = x[i];
  o[4 * i] = any(a); o[4 * i + 1] = all(a); o[4 * i + 2] = any(a.x); o[4 * i + 3] = all(a.xy);
}";
    let mut r = Rng(99);
    let x: Vec<u32> = (0..256).map(|_| r.next() & 0x8000_0001).collect();
    for wave64 in [false, true] {
        let k = build_kernel(src, wave64);
        let out = run(
            &k,
            64,
            64,
            &[TestArg::Buf(x.clone()), TestArg::Buf(vec![0; 256])],
        )
        .unwrap();
        for i in 0..64 {
            let neg = |c: usize| (x[4 * i + c] as i32) < 0;
            let want = [
                (0..4).any(neg) as u32,
                (0..4).all(neg) as u32,
                neg(0) as u32,
                (neg(0) && neg(1)) as u32,
            ];
            assert_eq!(
                &out[1][4 * i..4 * i + 4],
                &want,
                "item {i} (wave64={wave64})"
            );
        }
    }
}

#[test]
fn gnu_atomics_with_memory_orders() {
    let src = "__kernel void k(__global int *c, __global int *o) {
  uint i = get_global_id(0);
  int old = __atomic_fetch_add(&c[0], 1, __ATOMIC_RELAXED);
  __atomic_fetch_max(&c[1], (int)i, __ATOMIC_ACQ_REL);
  int e = __atomic_load_n(&c[2], __ATOMIC_ACQUIRE);
  while (!__atomic_compare_exchange_n(&c[2], &e, e + 2, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {}
  __atomic_store_n(&c[3], 7, __ATOMIC_RELEASE);
  o[i] = old + __atomic_exchange_n(&c[4], 1, __ATOMIC_ACQ_REL) * 0;
  int nw = __atomic_add_fetch(&c[5], 3, __ATOMIC_RELAXED);
  __atomic_sub_fetch(&c[6], 1, __ATOMIC_SEQ_CST);
  o[256 + i] = nw;
}";
    for wave64 in [false, true] {
        let k = build_kernel(src, wave64);
        let out = run(
            &k,
            256,
            64,
            &[TestArg::Buf(vec![0; 7]), TestArg::Buf(vec![0; 512])],
        )
        .unwrap();
        let minus_256 = (-256i32) as u32;
        assert_eq!(
            out[0],
            vec![256, 255, 512, 7, 1, 768, minus_256],
            "wave64={wave64}"
        );
        // add_fetch returns the new value: 3, 6, ..., 768 once each.
        let mut news = out[1][256..].to_vec();
        news.sort_unstable();
        assert_eq!(
            news,
            (1..=256).map(|k| 3 * k).collect::<Vec<u32>>(),
            "wave64={wave64}"
        );
        let mut olds = out[1][..256].to_vec();
        olds.sort_unstable();
        assert_eq!(
            olds,
            (0..256).collect::<Vec<u32>>(),
            "each old value once (wave64={wave64})"
        );
    }
}
