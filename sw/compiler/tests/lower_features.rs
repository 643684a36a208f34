//! The lowering's features one at a time, each compiled for wave32 and
//! wave64 and run on the golden GPU against a Rust evaluation: float
//! division and `sqrt` as clang-19 expands them for OpenCL, the cross-lane
//! built-ins, `mul_hi` written with 64-bit integers, and i8 -> i16
//! extensions.

use compiler::{compile, CompileOptions, Source};

mod backend_support;
use backend_support::{build, run, TestArg};

/// The listing of the one kernel in `c`.
fn listing(c: &compiler::Compiled) -> String {
    c.kernels[0].listing()
}

fn ulps(a: f32, b: f32) -> i64 {
    (i64::from(a.to_bits() as i32) - i64::from(b.to_bits() as i32)).abs()
}

/// `a / b` is clang's 2.5-ULP expansion (frexp, `v_rcp_f32`, ldexp) and
/// `sqrt` the 3-ULP one with denormal inputs scaled by 2^32 (without the
/// scaling `v_sqrt_f32` flushes them and the root of 1e-40 would be 0).
#[test]
fn float_division_and_sqrt_are_clangs_expansions() {
    let src = "__kernel void k(__global const float *a, __global const float *b,
                             __global float *q, __global float *r) {
  uint i = get_global_id(0);
  q[i] = a[i] / b[i];
  r[i] = sqrt(b[i]);
}";
    let a: Vec<f32> = (0..64).map(|i| (i as f32 - 20.5) * 1.37e3).collect();
    let b: Vec<f32> = (0..64)
        .map(|i| match i {
            0 => 1e-40,
            1 => 3e-39,
            2 => 1.0e30,
            _ => (i as f32) * 0.731 + 0.25,
        })
        .collect();
    for wave64 in [false, true] {
        let c = build(src, wave64);
        let l = listing(&c);
        for op in [
            "v_frexp_mant_f32",
            "v_frexp_exp_i32_f32",
            "v_rcp_f32",
            "v_ldexp_f32",
            "v_sqrt_f32",
        ] {
            assert!(l.contains(op), "no {op}:\n{l}");
        }
        let out = run(
            &c.kernels[0],
            64,
            32,
            &[
                TestArg::Buf(a.iter().map(|x| x.to_bits()).collect()),
                TestArg::Buf(b.iter().map(|x| x.to_bits()).collect()),
                TestArg::Buf(vec![0; 64]),
                TestArg::Buf(vec![0; 64]),
            ],
        )
        .unwrap();
        for i in 0..64 {
            let (q, r) = (f32::from_bits(out[2][i]), f32::from_bits(out[3][i]));
            let want_q = (f64::from(a[i]) / f64::from(b[i])) as f32;
            assert!(ulps(q, want_q) <= 3, "lane {i}: {q} vs {want_q}");
            let want_r = f64::from(b[i]).sqrt() as f32;
            assert!(ulps(r, want_r) <= 3, "lane {i}: sqrt {r} vs {want_r}");
        }
    }
}

/// `mbcnt_lo/hi(~0, 0)` is the lane id (0..63 in wave64) and
/// `ds_bpermute` reads the chosen lane's value.
#[test]
fn lane_id_and_bpermute_run_on_the_golden_gpu() {
    let src = "__kernel void k(__global const int *in, __global int *out, __global uint *lane) {
  uint g = get_global_id(0);
  uint l = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
  out[g] = __builtin_amdgcn_ds_bpermute((int)((l ^ 5u) << 2), in[g] * 3);
  lane[g] = l;
}";
    let input: Vec<u32> = (0..128u32).map(|i| i * 7 + 1).collect();
    for wave64 in [false, true] {
        let c = build(src, wave64);
        let l = listing(&c);
        assert!(
            l.contains("v_mbcnt_lo_u32_b32") && l.contains("ds_bpermute_b32"),
            "{l}"
        );
        let out = run(
            &c.kernels[0],
            128,
            64,
            &[
                TestArg::Buf(input.clone()),
                TestArg::Buf(vec![0; 128]),
                TestArg::Buf(vec![0; 128]),
            ],
        )
        .unwrap();
        let wave = if wave64 { 64 } else { 32 };
        for (g, &lane) in out[2].iter().enumerate() {
            assert_eq!(lane as usize, g % wave, "lane id of {g}");
            let src_lane = (g / wave) * wave + ((g % wave) ^ 5);
            assert_eq!(out[1][g], input[src_lane] * 3, "bpermute at {g}");
        }
    }
}

/// `(uint)(((ulong)a * (ulong)b) >> 32)` is one `v_mul_hi_u32`, and the
/// signed form `v_mul_hi_i32`.
#[test]
fn mul_hi_written_in_64_bits_is_one_instruction() {
    let src = "__kernel void k(__global const uint *a, __global uint *o) {
  uint i = get_global_id(0);
  uint x = a[i], y = a[i + 64];
  o[i] = (uint)(((ulong)x * (ulong)y) >> 32);
  o[i + 64] = (int)(((long)(int)x * (long)(int)y) >> 32);
}";
    let input: Vec<u32> = (0..128u32)
        .map(|i| i.wrapping_mul(0x9e37_79b9) ^ (i << 27))
        .collect();
    for wave64 in [false, true] {
        let c = build(src, wave64);
        let l = listing(&c);
        assert!(
            l.contains("v_mul_hi_u32") && l.contains("v_mul_hi_i32"),
            "{l}"
        );
        let out = run(
            &c.kernels[0],
            64,
            32,
            &[TestArg::Buf(input.clone()), TestArg::Buf(vec![0; 128])],
        )
        .unwrap();
        for i in 0..64 {
            let (x, y) = (input[i], input[i + 64]);
            let u = ((u64::from(x) * u64::from(y)) >> 32) as u32;
            let s = ((i64::from(x as i32) * i64::from(y as i32)) >> 32) as u32;
            assert_eq!(out[1][i], u, "umul_hi lane {i}");
            assert_eq!(out[1][i + 64], s, "smul_hi lane {i}");
        }
    }
}

/// `uchar` -> `short` and `char` -> `short` conversions (i8 -> i16 in the
/// IR) extend correctly.
#[test]
fn byte_to_short_conversions_extend() {
    let src = "__kernel void k(__global const uint *a, __global int *o) {
  uint i = get_global_id(0);
  uchar u = (uchar)a[i];
  char c = (char)a[i];
  short su = (short)u;
  short sc = (short)c;
  o[i] = (int)su * 1000 + (int)sc;
}";
    let input: Vec<u32> = (0..64u32).map(|i| i * 37 + 100).collect();
    for wave64 in [false, true] {
        let c = build(src, wave64);
        let out = run(
            &c.kernels[0],
            64,
            32,
            &[TestArg::Buf(input.clone()), TestArg::Buf(vec![0; 64])],
        )
        .unwrap();
        for i in 0..64 {
            let want = i32::from(input[i] as u8) * 1000 + i32::from(input[i] as u8 as i8);
            assert_eq!(out[1][i] as i32, want, "lane {i}");
        }
    }
}

/// The corpus header's compare-and-swap helper (`&expected` passed to
/// `__opencl_atomic_compare_exchange_strong`) in a retry loop, on global
/// and local memory: every work-item adds its value exactly once.
#[test]
fn compare_exchange_retry_loops_add_every_value_once() {
    let src = "static inline uint cas(volatile __global uint *p, uint expected, uint desired) {
  __opencl_atomic_compare_exchange_strong((volatile __global atomic_uint *)p, &expected, desired,
                                          __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                          __OPENCL_MEMORY_SCOPE_DEVICE);
  return expected;
}
__kernel void k(__global const uint *a, __global uint *sum, __global uint *out) {
  __local uint acc;
  uint i = get_global_id(0);
  uint lid = get_local_id(0);
  if (lid == 0) acc = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint v = a[i];
  uint old = sum[0];
  for (;;) {
    uint seen = cas(sum, old, old + v);
    if (seen == old) break;
    old = seen;
  }
  uint o = atomic_cmpxchg(&acc, 0u, 0u);
  while (true) {
    uint s = atomic_cmpxchg(&acc, o, o + v);
    if (s == o) break;
    o = s;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) out[get_group_id(0)] = acc;
}";
    let input: Vec<u32> = (0..128u32).map(|i| i * 3 + 1).collect();
    for wave64 in [false, true] {
        let c = build(src, wave64);
        let l = listing(&c);
        assert!(
            l.contains("global_atomic_cmpswap") && l.contains("ds_cmpst_rtn_b32"),
            "{l}"
        );
        let out = run(
            &c.kernels[0],
            128,
            64,
            &[
                TestArg::Buf(input.clone()),
                TestArg::Buf(vec![5]),
                TestArg::Buf(vec![0; 2]),
            ],
        )
        .unwrap();
        assert_eq!(out[1][0], 5 + input.iter().sum::<u32>());
        assert_eq!(out[2][0], input[..64].iter().sum::<u32>());
        assert_eq!(out[2][1], input[64..].iter().sum::<u32>());
    }
}

/// A private array indexed with data-dependent indices lives in scratch
/// (`scratch_load/store_dword` at per-lane offsets), and a variable whose
/// address is taken too; every lane keeps its own copy.
#[test]
fn private_arrays_live_in_scratch_per_lane() {
    let src = "static void bump(__private uint *p, uint v) { *p += v; }
__kernel void k(__global const uint *a, __global uint *o) {
  uint i = get_global_id(0);
  uint priv[40];
  uint t = 7;
  for (uint k = 0; k < 40; k++)
    priv[k] = a[i] * k + i;
  for (uint r = 0; r < 25; r++) {
    uint idx = (a[i] + r * 13) % 40;
    priv[idx] += r;
    bump(&t, priv[(idx * 7) % 40]);
  }
  o[i] = priv[a[i] % 40] ^ priv[(a[i] >> 3) % 40];
  o[i + 64] = t;
}";
    let input: Vec<u32> = (0..64u32)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 7)
        .collect();
    for wave64 in [false, true] {
        let c = build(src, wave64);
        let l = listing(&c);
        assert!(
            l.contains("scratch_load_dword") && l.contains("scratch_store_dword"),
            "{l}"
        );
        let out = run(
            &c.kernels[0],
            64,
            32,
            &[TestArg::Buf(input.clone()), TestArg::Buf(vec![0; 128])],
        )
        .unwrap();
        for (i, &a) in input.iter().enumerate() {
            let mut p: Vec<u32> = (0..40u32)
                .map(|k| a.wrapping_mul(k).wrapping_add(i as u32))
                .collect();
            let mut t = 7u32;
            for r in 0..25u32 {
                let idx = (a.wrapping_add(r * 13) % 40) as usize;
                p[idx] = p[idx].wrapping_add(r);
                t = t.wrapping_add(p[(idx * 7) % 40]);
            }
            let want = p[(a % 40) as usize] ^ p[((a >> 3) % 40) as usize];
            assert_eq!(out[1][i], want, "lane {i}");
            assert_eq!(out[1][i + 64], t, "address-taken variable, lane {i}");
        }
    }
}

/// `ulong`/`long` arithmetic on register pairs: add, subtract, multiply,
/// shifts by a variable amount, compares, selects, unsigned division and
/// remainder, 64-bit loads and stores.
#[test]
fn sixty_four_bit_integers_run_on_the_golden_gpu() {
    let src = "__kernel void k(__global const ulong *a, __global ulong *o, uint clo, uint chi) {
  uint i = get_global_id(0);
  ulong c = (ulong)clo | (ulong)chi << 32;
  ulong x = a[i], y = a[i + 64] | 1;
  o[i] = x * y + (x >> (y & 63)) - (x << 3) + c;
  o[i + 64] = x / y;
  o[i + 128] = x % (y >> 20);
  o[i + 192] = (long)x < (long)y ? (ulong)((long)x >> 7) : ~x ^ -y;
}";
    let input: Vec<u64> = (0..128u64)
        .map(|i| {
            let h = i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (i << 40);
            if i % 5 == 0 {
                h >> (i % 41)
            } else {
                h
            }
        })
        .collect();
    let words = |v: &[u64]| -> Vec<u32> {
        v.iter()
            .flat_map(|&x| [x as u32, (x >> 32) as u32])
            .collect()
    };
    let c = 0x0123_4567_89ab_cdefu64;
    for wave64 in [false, true] {
        let k = build(src, wave64);
        let out = run(
            &k.kernels[0],
            64,
            32,
            &[
                TestArg::Buf(words(&input)),
                TestArg::Buf(vec![0; 2 * 256]),
                TestArg::U32(c as u32),
                TestArg::U32((c >> 32) as u32),
            ],
        )
        .unwrap();
        let got = |j: usize| u64::from(out[1][2 * j]) | u64::from(out[1][2 * j + 1]) << 32;
        for i in 0..64 {
            let (x, y) = (input[i], input[i + 64] | 1);
            let w0 = x
                .wrapping_mul(y)
                .wrapping_add(x >> (y & 63))
                .wrapping_sub(x << 3)
                .wrapping_add(c);
            assert_eq!(got(i), w0, "arithmetic, lane {i}");
            assert_eq!(got(i + 64), x / y, "udiv, lane {i}");
            let d = y >> 20;
            let want_rem = if d == 0 { x } else { x % d };
            assert_eq!(got(i + 128), want_rem, "urem, lane {i}");
            let w3 = if (x as i64) < (y as i64) {
                ((x as i64) >> 7) as u64
            } else {
                !x ^ y.wrapping_neg()
            };
            assert_eq!(got(i + 192), w3, "compare and select, lane {i}");
        }
    }
}

/// Structs in global and private memory reached through pointers (`d->n`,
/// `b->p[b->len]`, `&b` passed to a helper), pointers stored in memory,
/// pointer <-> integer casts, the null pointer and pointer tests.
#[test]
fn struct_members_and_pointers_run_on_the_golden_gpu() {
    let src = "typedef struct { uint n; uint pad; __global uint *p; } desc;
typedef struct { __global uint *p; uint len; uint cap; } blk;
static void put(blk *b, uint v) {
  if (b->len < b->cap)
    b->p[b->len] = v;
  b->len++;
}
static __global uint *pick(__global desc *d, uint i) {
  if (i % 4 == 3)
    return 0;
  return d->p;
}
__kernel void k(__global desc *d, __global uint *o) {
  uint i = get_global_id(0);
  __global uint *q = (__global uint *)((ulong)o + 256ul);
  d[1 + i].p = q + 4 * i;
  __global uint *t = pick(&d[1 + i], i);
  if (!t) {
    o[i] = 99;
  } else {
    blk b;
    b.p = t;
    b.len = 0;
    b.cap = d[1 + i].n;
    put(&b, i + 10);
    put(&b, i + 20);
    put(&b, i + 30);
    o[i] = b.len + (t == q + 4 * i ? 100 : 0);
  }
}";
    let mut desc = vec![0u32; 4 * 65];
    for i in 0..64 {
        desc[4 * (1 + i)] = (i % 4) as u32;
    }
    for wave64 in [false, true] {
        let c = build(src, wave64);
        let out = run(
            &c.kernels[0],
            64,
            32,
            &[TestArg::Buf(desc.clone()), TestArg::Buf(vec![0; 64 + 256])],
        )
        .unwrap();
        for i in 0..64usize {
            if i % 4 == 3 {
                assert_eq!(out[1][i], 99, "null pointer, lane {i}");
                continue;
            }
            assert_eq!(out[1][i], 103, "lane {i}");
            let cap = i % 4;
            for j in 0..3 {
                let want = if j < cap {
                    (i + 10 * (j + 1)) as u32
                } else {
                    0
                };
                assert_eq!(out[1][64 + 4 * i + j], want, "put {j}, lane {i}");
            }
        }
        // The pointer each lane stored: `o + 256 + 16 i`, 64-bit.
        let base = u64::from(out[0][4 + 2]) | u64::from(out[0][4 + 3]) << 32;
        for i in 0..64usize {
            let p = u64::from(out[0][4 * (1 + i) + 2]) | u64::from(out[0][4 * (1 + i) + 3]) << 32;
            assert_eq!(p, base + 16 * i as u64, "stored pointer, lane {i}");
        }
    }
}

/// `if (c) return v;` inside loops (nested too), in a helper and in the
/// kernel itself: the loops exit on the condition and the return follows.
#[test]
fn returns_inside_loops_run_on_the_golden_gpu() {
    let src = "static uint is_prime(uint x) {
  if (x < 2u)
    return 0u;
  for (uint d = 2u; d * d <= x; d++)
    if (x % d == 0u)
      return 0u;
  return 1u;
}
static int find(__global const uint *a, uint n, uint want) {
  for (uint i = 0; i < n; i++)
    for (uint j = 0; j < 4; j++)
      if (a[i] + j == want)
        return (int)(i * 4 + j);
  return -1;
}
__kernel void k(__global const uint *a, __global uint *o) {
  uint i = get_global_id(0);
  o[i] = is_prime(i * 3 + 1) + 10 * (uint)find(a, 16, i);
  for (uint r = 0; r < 100; r++) {
    if (r * r > i)
      return;
    o[64 + i] = r;
  }
}";
    let a: Vec<u32> = (0..16u32).map(|k| k * 5).collect();
    for wave64 in [false, true] {
        let c = build(src, wave64);
        let out = run(
            &c.kernels[0],
            64,
            32,
            &[TestArg::Buf(a.clone()), TestArg::Buf(vec![0; 128])],
        )
        .unwrap();
        for i in 0..64u32 {
            let x = i * 3 + 1;
            let prime = u32::from(x >= 2 && (2..x).take_while(|d| d * d <= x).all(|d| x % d != 0));
            let found = (0..16u32)
                .flat_map(|k| (0..4u32).map(move |j| (k, j)))
                .find(|&(k, j)| a[k as usize] + j == i)
                .map_or(-1i32, |(k, j)| (k * 4 + j) as i32);
            let want = prime.wrapping_add(10u32.wrapping_mul(found as u32));
            assert_eq!(out[1][i as usize], want, "lane {i}");
            let last = (0..100u32).take_while(|r| r * r <= i).last().unwrap_or(0);
            assert_eq!(out[1][64 + i as usize], last, "kernel return, lane {i}");
        }
    }
}

/// A local struct whose address only reaches its members (through helpers
/// taking `&b`) lives in registers: no scratch, no private segment — and a
/// loop carries its members like variables.
#[test]
fn local_structs_are_kept_in_registers() {
    let src = "typedef struct { __global uint *p; uint len; uint cap; } blk;
static void put(blk *b, uint v) {
  if (b->len < b->cap)
    b->p[b->len] = v;
  b->len++;
}
__kernel void k(__global uint *o, uint cap) {
  uint i = get_global_id(0);
  blk b;
  b.p = o + 64 + 8 * i;
  b.len = 0;
  b.cap = cap;
  for (uint r = 0; r < i % 7; r++)
    put(&b, r * 3 + i);
  o[i] = b.len;
}";
    for wave64 in [false, true] {
        let c = build(src, wave64);
        let l = listing(&c);
        assert!(!l.contains("scratch_"), "{l}");
        assert_eq!(c.ir[0].private_size, 0);
        let out = run(
            &c.kernels[0],
            64,
            32,
            &[TestArg::Buf(vec![0; 64 + 8 * 64]), TestArg::U32(4)],
        )
        .unwrap();
        for i in 0..64u32 {
            let n = i % 7;
            assert_eq!(out[0][i as usize], n, "length, lane {i}");
            for r in 0..8u32 {
                let want = if r < n.min(4) { r * 3 + i } else { 0 };
                assert_eq!(
                    out[0][(64 + 8 * i + r) as usize],
                    want,
                    "slot {r}, lane {i}"
                );
            }
        }
    }
}

/// A string literal with a line splice in an error message stays on one
/// line (the diagnostic is message, source line, caret).
#[test]
fn a_token_with_a_line_splice_is_shown_on_one_line() {
    let d = compile(
        Source::Text {
            name: "p.cl",
            text: "\"\\\n\"",
        },
        &CompileOptions::default(),
    )
    .unwrap_err();
    assert_eq!(d.to_string().lines().count(), 3, "{d}");
}

/// `.hi` and `.odd` of a 3-component vector name its padding lane (the
/// OpenCL C 1.2 §6.1.7 rule the Khronos conformance test `hiloeo` uses):
/// it compiled to a panic ("index out of bounds: the len is 3 but the index
/// is 3"); the defined lanes are read right, the padding is 0.
#[test]
fn hi_and_odd_of_three_component_vectors_read_the_defined_lanes() {
    let src = "__kernel void k(__global const int *in, __global int *out) {
  uint i = get_global_id(0);
  int3 v = vload3(i, in);
  int2 h = v.hi, o = v.odd, l = v.lo, e = v.even;
  // An rvalue vector (not a variable): the Khronos test's form.
  int2 h2 = ((int3)(v.s0, v.s1, v.s2)).hi;
  h.x = h.x == h2.x ? h.x : -1;
  vstore8((int8)(h.x, o.x, l.x, l.y, e.x, e.y, h.y, o.y), i, out);
}";
    let input: Vec<u32> = (0..96).map(|x| x * 7 + 1).collect();
    for wave64 in [false, true] {
        let c = build(src, wave64);
        let out = run(
            &c.kernels[0],
            32,
            32,
            &[TestArg::Buf(input.clone()), TestArg::Buf(vec![99; 256])],
        )
        .unwrap();
        for i in 0..32 {
            let v = &input[3 * i..3 * i + 3];
            let got = &out[1][8 * i..8 * i + 8];
            assert_eq!(&got[..6], &[v[2], v[1], v[0], v[1], v[0], v[2]], "lane {i}");
            assert_eq!(&got[6..], &[0, 0], "lane {i}: the padding lane");
        }
    }
}

/// `vstoreN` of a scalar stores it splatted, converted to the pointer's
/// element type, as clang-19 compiles it (`vstore3(value.x, 0, p)` in the
/// Khronos `vector_swizzle` test; gpusim refused it: "'vstore3' stores a
/// 'char3' ('char' given)").
#[test]
fn vstore_of_a_scalar_stores_it_splatted() {
    let src = "__kernel void k(__global const int *in, __global int *out, __global float *f) {
  uint i = get_global_id(0);
  vstore3(in[i], i, out);
  vstore2(in[i] + 1, i, f);
}";
    let input: Vec<u32> = (0..32).map(|x| x * 5 + 2).collect();
    for wave64 in [false, true] {
        let c = build(src, wave64);
        let out = run(
            &c.kernels[0],
            32,
            32,
            &[
                TestArg::Buf(input.clone()),
                TestArg::Buf(vec![0; 96]),
                TestArg::Buf(vec![0; 64]),
            ],
        )
        .unwrap();
        for i in 0..32 {
            assert_eq!(&out[1][3 * i..3 * i + 3], &[input[i]; 3], "lane {i}");
            let want = (input[i] as f32 + 1.0).to_bits();
            assert_eq!(&out[2][2 * i..2 * i + 2], &[want; 2], "lane {i}");
        }
    }
}

/// `char`, `uchar` and `short` arguments packed in one dword (bytes 0, 1
/// and 2 of the kernarg segment, clang's layout): each is read from its
/// own byte. The kernel read the aligned dword unshifted (`uc` gave `c`,
/// `s` gave `c | uc << 8`), which the Khronos test `parameter_types`
/// found.
#[test]
fn packed_char_and_short_arguments_read_their_own_bytes() {
    let src = "__kernel void k(char c, uchar uc, short s, ushort us, char c2, __global int *out) {
  out[get_global_id(0)] = (int)c * 1000000 + (int)uc * 10000 + (int)s + (int)us * 3 + (int)c2 * 7;
}";
    for wave64 in [false, true] {
        let c = build(src, wave64);
        let offsets: Vec<u32> = c.kernels[0].metadata.args[..5]
            .iter()
            .map(|a| a.offset)
            .collect();
        assert_eq!(offsets, [0, 1, 2, 4, 6], "clang's packing");
        let (cv, ucv, sv, usv, c2v) = (-3i8, 200u8, -17i16, 40000u16, 5i8);
        let out = run(
            &c.kernels[0],
            32,
            32,
            &[
                TestArg::Bytes(vec![cv as u8]),
                TestArg::Bytes(vec![ucv]),
                TestArg::Bytes(sv.to_le_bytes().to_vec()),
                TestArg::Bytes(usv.to_le_bytes().to_vec()),
                TestArg::Bytes(vec![c2v as u8]),
                TestArg::Buf(vec![0; 32]),
            ],
        )
        .unwrap();
        let want = i32::from(cv) * 1_000_000
            + i32::from(ucv) * 10_000
            + i32::from(sv)
            + i32::from(usv) * 3
            + i32::from(c2v) * 7;
        assert!(
            out[0].iter().all(|&v| v as i32 == want),
            "{:?} vs {want}",
            &out[0][..4]
        );
    }
}

/// A `__local` pointer argument's `.pointee_align` is its pointee type's
/// alignment, as clang-19 emits it (1, 16, 128, 16 and 4 for the kernel
/// below, read from `clang-19 -S` of the same source): the driver places
/// each argument's LDS at that alignment. gpusim said 4 for every one, and
/// the Khronos test `kernel_memory_alignment_local` found a `long4` at LDS
/// byte 0x18.
#[test]
fn local_pointer_arguments_carry_their_pointee_alignment() {
    let src = "__kernel void k(__local char *a, __local char16 *b, __local long16 *c,
                    __local int3 *d, __local float *e, __global int *o) {
  o[0] = a[0] + b[0].s0 + (int)c[0].s0 + d[0].x + (int)e[0];
}";
    let c = build(src, false);
    let aligns: Vec<Option<u32>> = c.kernels[0].metadata.args[..5]
        .iter()
        .map(|a| a.pointee_align)
        .collect();
    assert_eq!(aligns, [Some(1), Some(16), Some(128), Some(16), Some(4)]);
}

/// `.x`, `.y`, `.z`, `.w` (and their combinations) on an 8- or 16-lane
/// vector name its first four lanes, as clang-19 accepts (the Khronos
/// `vector_swizzle` test writes `t.x = value.x` on `char8`); gpusim
/// refused it ("invalid length").
#[test]
fn xyzw_names_the_first_lanes_of_wide_vectors() {
    let src = "__kernel void k(__global const int *in, __global int *out) {
  uint i = get_global_id(0);
  int8 v = vload8(i, in);
  int16 w = (int16)(v, v * 2);
  v.w = w.x + w.y;
  out[i] = v.x + v.y * 10 + v.z * 100 + v.w * 1000 + w.zyx.x * 10000;
}";
    let input: Vec<u32> = (0..256).map(|x| x % 7).collect();
    for wave64 in [false, true] {
        let c = build(src, wave64);
        let out = run(
            &c.kernels[0],
            32,
            32,
            &[TestArg::Buf(input.clone()), TestArg::Buf(vec![0; 32])],
        )
        .unwrap();
        for i in 0..32 {
            let v = &input[8 * i..8 * i + 8];
            let want = v[0] + v[1] * 10 + v[2] * 100 + (v[0] + v[1]) * 1000 + v[2] * 10000;
            assert_eq!(out[1][i], want, "lane {i}");
        }
    }
}

/// The kernel attributes reach the code object's metadata as clang-19
/// writes them (`.reqd_workgroup_size` with `.max_flat_workgroup_size` its
/// product, `.workgroup_size_hint`, `.vec_type_hint` with the unsigned
/// types by their short names): the OpenCL platform answers
/// `CL_KERNEL_COMPILE_WORK_GROUP_SIZE` and `CL_KERNEL_ATTRIBUTES` from them.
/// Compared with clang-19's object of the same source when clang-19 is
/// installed (required under `GPUSIM_REQUIRE_LLVM=1`).
#[test]
fn kernel_attributes_reach_the_metadata_as_clang_writes_them() {
    use arch::code_object::CodeObject;
    let src = "__kernel __attribute__((vec_type_hint(uchar2)))
__attribute__((work_group_size_hint(4, 2, 1))) __attribute__((reqd_work_group_size(8, 2, 1)))
void k(__global int *o) { o[1] = 1; }
__kernel __attribute__((vec_type_hint(double16))) void k2(__global int *o) { o[0] = 2; }
__kernel __attribute__((vec_type_hint(unsigned int))) void k3(__global int *o) { o[0] = 3; }
__kernel void k4(__global int *o, const __global float *a, volatile __global uint *restrict r,
                 __constant int *c, __local float4 *l, const float4 v) { o[0] = 4; }";
    let ours = CodeObject::parse(&build(src, false).code_object).unwrap();
    let attrs = |co: &CodeObject, name: &str| {
        let m = &co
            .kernels()
            .iter()
            .find(|k| k.name == name)
            .unwrap()
            .metadata;
        (
            m.reqd_workgroup_size,
            m.workgroup_size_hint,
            m.vec_type_hint.clone(),
        )
    };
    let expected = [
        ("k", Some([8, 2, 1]), Some([4, 2, 1]), Some("uchar2")),
        ("k2", None, None, Some("double16")),
        ("k3", None, None, Some("uint")),
        ("k4", None, None, None),
    ];
    for (name, reqd, hint, vec) in expected {
        assert_eq!(
            attrs(&ours, name),
            (reqd, hint, vec.map(String::from)),
            "{name}"
        );
    }
    let k = ours.kernels().iter().find(|k| k.name == "k").unwrap();
    assert_eq!(k.metadata.max_flat_workgroup_size, 16);
    let dir = std::env::temp_dir().join(format!("gpusim_attrs_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("k.cl"), src).unwrap();
    let out = std::process::Command::new("clang-19")
        .args(["-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa"])
        .args(["-mcpu=gfx1030", "-O3", "-nogpulib", "-cl-kernel-arg-info"])
        .args(["k.cl", "-o", "k.hsaco"])
        .current_dir(&dir)
        .output();
    let clang = match out {
        Ok(o) if o.status.success() => std::fs::read(dir.join("k.hsaco")).unwrap(),
        other => {
            assert!(
                !std::env::var("GPUSIM_REQUIRE_LLVM").is_ok_and(|v| v == "1"),
                "GPUSIM_REQUIRE_LLVM=1 but clang-19 failed: {other:?}"
            );
            eprintln!("skipped the comparison with clang-19: {other:?}");
            return;
        }
    };
    let _ = std::fs::remove_dir_all(&dir);
    let theirs = CodeObject::parse(&clang).unwrap();
    for (name, ..) in expected {
        assert_eq!(attrs(&ours, name), attrs(&theirs, name), "{name}");
    }
    // What clGetKernelArgInfo answers: names, type names, address spaces
    // and qualifiers of the explicit arguments.
    let args = |co: &CodeObject| {
        let k = co.kernels().iter().find(|k| k.name == "k4").unwrap();
        k.metadata
            .args
            .iter()
            .filter(|a| a.name.is_some())
            .map(|a| {
                format!(
                    "{:?} {:?} {:?} const={} volatile={} restrict={}",
                    a.name, a.type_name, a.address_space, a.is_const, a.is_volatile, a.is_restrict
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(args(&ours), args(&theirs));
    assert_eq!(args(&ours).len(), 6);
}
