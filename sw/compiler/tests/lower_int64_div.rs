//! 64-bit integer division and remainder (`ulong`/`long` `/ %`), LLVM's
//! reciprocal expansion with clang's 32-bit bypass, against Rust's `u64`
//! and `i64` operators on the golden GPU for wave32 and wave64: edge cases
//! (divisor 1, powers of two, divisors above 2^32, dividend below the
//! divisor, all-ones, `i64::MIN / -1`, which wraps to `i64::MIN` with
//! remainder 0 as in LLVM's expansion) and a few thousand pseudo-random
//! pairs of every magnitude.
//!
//! `cargo test --release -p compiler --test lower_int64_div`

use compiler::{compile, CompileOptions, Source};

mod backend_support;
use backend_support::{run, TestArg};

const SRC: &str = "
__kernel void u(__global const ulong *a, __global const ulong *b, __global ulong *q, __global ulong *r) {
  uint i = get_global_id(0);
  ulong x = a[i], y = b[i];
  q[i] = x / y;
  r[i] = x % y;
}
__kernel void s(__global const long *a, __global const long *b, __global long *q, __global long *r) {
  uint i = get_global_id(0);
  long x = a[i], y = b[i];
  q[i] = x / y;
  r[i] = x % y;
}";

const N: usize = 1024;

fn pairs() -> Vec<(u64, u64)> {
    let mut v: Vec<(u64, u64)> = Vec::new();
    let edges = [
        0u64,
        1,
        2,
        3,
        7,
        0xffff_ffff,
        0x1_0000_0000,
        0x1_0000_0001,
        0xffff_ffff_ffff_ffff,
        0x8000_0000_0000_0000,
        0x7fff_ffff_ffff_ffff,
        0x8000_0000_0000_0001,
        0x0000_0100_0000_0000,
        0x1234_5678_9abc_def0,
    ];
    for &x in &edges {
        for &y in &edges {
            if y != 0 {
                v.push((x, y));
            }
        }
    }
    for k in 0..64 {
        v.push((0xfedc_ba98_7654_3210, 1u64 << k));
        v.push((u64::MAX, (1u64 << k) + 1));
        v.push(((1u64 << k) - 1, 1u64 << k)); // dividend < divisor
    }
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    while v.len() < N {
        // Random magnitudes: shift each operand right by 0..63 bits.
        let (x, y) = (next(), next());
        let (sx, sy) = (next() % 64, next() % 64);
        let y = (y >> sy).max(1);
        v.push((x >> sx, y));
    }
    v.truncate(N);
    v
}

fn split(v: &[u64]) -> Vec<u32> {
    v.iter()
        .flat_map(|x| [*x as u32, (*x >> 32) as u32])
        .collect()
}

fn join(v: &[u32]) -> Vec<u64> {
    v.chunks_exact(2)
        .map(|c| u64::from(c[0]) | u64::from(c[1]) << 32)
        .collect()
}

#[test]
fn unsigned_and_signed_64_bit_division_match_rust() {
    let p = pairs();
    let (a, b): (Vec<u64>, Vec<u64>) = p.iter().copied().unzip();
    for wave64 in [false, true] {
        let mut o = CompileOptions::default();
        o.backend.wave64 = wave64;
        let c = compile(
            Source::Text {
                name: "t.cl",
                text: SRC,
            },
            &o,
        )
        .unwrap_or_else(|d| panic!("{d}"));
        let l = c.kernels[0].listing();
        assert!(l.contains("v_rcp_f32") && l.contains("v_mul_hi_u32"), "{l}");
        let n = l
            .lines()
            .filter(|l| !l.is_empty() && !l.ends_with(':'))
            .count();
        // `/` and `%` of the same operands share one expansion, far below
        // the ~1,300 instructions of the bit-serial division it replaced.
        assert!(n < 330, "{n} instructions:\n{l}");
        for (k, kernel) in c.kernels.iter().enumerate() {
            let signed = kernel.name == "s";
            let out = run(
                kernel,
                N as u32,
                64,
                &[
                    TestArg::Buf(split(&a)),
                    TestArg::Buf(split(&b)),
                    TestArg::Buf(vec![0; 2 * N]),
                    TestArg::Buf(vec![0; 2 * N]),
                ],
            )
            .unwrap();
            let (q, r) = (join(&out[2]), join(&out[3]));
            for i in 0..N {
                let (x, y) = (a[i], b[i]);
                let want = if signed {
                    let (x, y) = (x as i64, y as i64);
                    (x.wrapping_div(y) as u64, x.wrapping_rem(y) as u64)
                } else {
                    (x / y, x % y)
                };
                assert_eq!(
                    (q[i], r[i]),
                    want,
                    "wave64={wave64} kernel {k} ({}) lane {i}: {x:#x} / {y:#x}",
                    kernel.name
                );
            }
        }
    }
}

#[test]
fn min_over_minus_one_wraps() {
    let (x, y) = (i64::MIN as u64, u64::MAX);
    let c = compile(
        Source::Text {
            name: "t.cl",
            text: SRC,
        },
        &CompileOptions::default(),
    )
    .unwrap();
    let s = c.kernels.iter().find(|k| k.name == "s").unwrap();
    let out = run(
        s,
        64,
        64,
        &[
            TestArg::Buf(split(&vec![x; 64])),
            TestArg::Buf(split(&vec![y; 64])),
            TestArg::Buf(vec![0; 128]),
            TestArg::Buf(vec![0; 128]),
        ],
    )
    .unwrap();
    assert_eq!(join(&out[2])[0], i64::MIN as u64);
    assert_eq!(join(&out[3])[0], 0);
}
