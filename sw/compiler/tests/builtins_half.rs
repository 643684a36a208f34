//! `vload_half`, `vloada_half`, `vstore_half`, `vstorea_half` (OpenCL 1.2
//! §6.12.7; `lib/half.cl`) for widths 1, 2, 3, 4, 8, 16 and the rounding
//! modes `_rte _rtz _rtp _rtn` (and none, which is `_rte`): every half bit
//! pattern loaded, and 2^17 floats (each half, the midpoints between
//! neighbouring halves and the floats either side of them, overflow and
//! denormal boundaries, special values, random bits) stored, bit-exact
//! against a reference of our own (the sorted table of all finite halves in
//! f64, searched), on the golden GPU; through `__global`, `__local` and
//! `__private` pointers; and where clang-19 and ROCm's device libraries are
//! installed, clang's object of the same kernel gives the same bits
//! (`GPUSIM_REQUIRE_ROCM=1` makes a missing clang a failure).
//!
//! `cargo test --release -p compiler --test builtins_half`

mod backend_support;
use backend_support::{build_kernel, clang_rocm_object, run_elf_dims, TestArg};
use compiler::backend::code_object;
use sw::driver::LaunchDims;

/// The value of half bits `h` (NaN for NaNs).
fn half_value(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = (h >> 10) & 0x1f;
    let m = f64::from(h & 0x3ff);
    sign * match e {
        0 => m * 2f64.powi(-24),
        0x1f if m == 0.0 => f64::INFINITY,
        0x1f => f64::NAN,
        _ => (1.0 + m / 1024.0) * 2f64.powi(i32::from(e) - 15),
    }
}

/// The float that `vload_half` gives for `h` (bits): the value, or a quiet
/// NaN with the sign and payload moved to the float's top mantissa bits.
fn load_reference(h: u16) -> u32 {
    let v = half_value(h);
    if v.is_nan() {
        // Quiet, as v_cvt_f32_f16 makes it.
        return (u32::from(h & 0x8000) << 16) | 0x7fc0_0000 | (u32::from(h & 0x3ff) << 13);
    }
    (v as f32).to_bits()
}

/// The half of float `f` rounded by `mode` (0 nearest even, 1 toward
/// zero, 2 toward +inf, 3 toward -inf), found in the sorted table of the
/// non-negative finite halves.
fn store_reference(f: f32, mode: u32, table: &[f64]) -> u16 {
    if f.is_nan() {
        let sign: u16 = if f.is_sign_negative() { 0x8000 } else { 0 };
        return sign | 0x7e00 | ((f.to_bits() >> 13) & 0x3ff) as u16;
    }
    store_reference_f64(f64::from(f), mode, table)
}

/// The same for a double (a NaN keeps its top 9 payload bits).
fn store_reference_f64(f: f64, mode: u32, table: &[f64]) -> u16 {
    let sign: u16 = if f.is_sign_negative() { 0x8000 } else { 0 };
    if f.is_nan() {
        return sign | 0x7e00 | ((f.to_bits() >> 42) & 0x3ff) as u16;
    }
    let a = f.abs();
    let neg = sign != 0;
    let away = (mode == 2 && !neg) || (mode == 3 && neg);
    // The index of the largest half <= a (table[i] = value of bits i).
    let lo = table.partition_point(|&t| t <= a) - 1;
    let below = lo as u16;
    if table[lo] == a {
        return sign | below;
    }
    // Above the largest finite half: inf, or 65504 when rounding toward zero.
    let above_bits = lo as u16 + 1;
    let above = if lo + 1 < table.len() {
        table[lo + 1]
    } else {
        // The next "half" past 65504 is inf at 65536 for rounding purposes.
        65536.0
    };
    let pick_above = match mode {
        0 => {
            let mid = (table[lo] + above) / 2.0;
            a > mid || (a == mid && below & 1 == 1)
        }
        _ => away,
    };
    if pick_above {
        sign | above_bits.min(0x7c00)
    } else {
        sign | below
    }
}

fn half_table() -> Vec<f64> {
    (0..0x7c00u16).map(half_value).collect()
}

/// The floats stored: each half's value, the midpoints between neighbours
/// and the floats either side of them, boundaries, specials, random bits.
fn store_inputs() -> Vec<f32> {
    let table = half_table();
    let mut v = Vec::new();
    for i in 0..table.len() {
        let h = table[i] as f32;
        v.push(h);
        let mid = if i + 1 < table.len() {
            (table[i] + table[i + 1]) / 2.0
        } else {
            65520.0
        } as f32;
        for x in [
            mid,
            f32::from_bits(mid.to_bits() - 1),
            f32::from_bits(mid.to_bits() + 1),
        ] {
            v.push(x);
        }
        if i % 4 == 0 {
            v.push(f32::from_bits(h.to_bits() + 1));
        }
    }
    v.extend([
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::from_bits(0xffc1_2345),
        f32::from_bits(0x7f80_0001),
        f32::MAX,
        f32::MIN_POSITIVE,
        f32::from_bits(1),
        65504.0,
        65519.99,
        65520.0,
        65536.0,
        1e30,
        5.960_464_5e-8,
        2.980_232_2e-8,
        2.980_233e-8,
    ]);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    while v.len() % 48 != 0 || v.len() < 131_072 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let bits = seed as u32;
        // Half of them near the half range.
        let bits = if seed >> 40 & 1 == 0 {
            (bits & 0x807f_ffff) | ((0x60 + (seed >> 48) as u32 % 0x20) << 23)
        } else {
            bits
        };
        v.push(f32::from_bits(bits));
    }
    // Negated copies of the structured part.
    let n = v.len() / 2;
    for i in 0..n {
        v[n + i] = -v[i];
    }
    v
}

const WIDTHS: [u8; 6] = [1, 2, 3, 4, 8, 16];

fn vec_type(base: &str, n: u8) -> String {
    if n == 1 {
        base.to_string()
    } else {
        format!("{base}{n}")
    }
}

fn suffix(n: u8) -> String {
    if n == 1 {
        String::new()
    } else {
        n.to_string()
    }
}

/// Halves an element takes: 4 for an aligned 3-vector.
fn stride(n: u8, aligned: bool) -> usize {
    if aligned && n == 3 {
        4
    } else {
        usize::from(n)
    }
}

fn run_both(
    src: &str,
    tag: &str,
    grid: u32,
    padded: bool,
    args: &[TestArg],
    check: &dyn Fn(&str, &[Vec<u32>]),
) {
    let require = std::env::var("GPUSIM_REQUIRE_ROCM").is_ok_and(|v| v == "1");
    for wave64 in [false, true] {
        let k = build_kernel(src, wave64);
        let ours = code_object(std::slice::from_ref(&k)).expect("a code object");
        let dims = LaunchDims::linear(grid, 64);
        let out =
            run_elf_dims(&ours, "k", dims, args).unwrap_or_else(|e| panic!("{tag}: {e}\n{src}"));
        check(&format!("{tag} wave64={wave64}"), &out);
        // clang-19 declares no scalar vloada_half/vstorea_half (gpusim
        // takes them as the n = 1 forms): nothing to compare with.
        if src.contains("vloada_half(")
            || src.contains("vstorea_half(")
            || src.contains("vstorea_half_")
        {
            continue;
        }
        match clang_rocm_object(src, wave64, tag) {
            Ok(elf) => {
                let theirs = run_elf_dims(&elf, "k", dims, args)
                    .unwrap_or_else(|e| panic!("{tag}, clang's object: {e}"));
                let (mut theirs, mut out) = (theirs, out.clone());
                if padded {
                    // clang writes an aligned 3-vector's fourth half too
                    // (unspecified): that half is not compared.
                    for w in [&mut theirs[1], &mut out[1]] {
                        for (i, x) in w.iter_mut().enumerate() {
                            if i % 2 == 1 {
                                *x &= 0xffff;
                            }
                        }
                    }
                }
                for (b, (t, o)) in theirs.iter().zip(&out).enumerate() {
                    if let Some(i) = (0..o.len()).find(|&i| t[i] != o[i]) {
                        panic!(
                            "{tag} wave64={wave64}: clang's object gives other bits: buffer {b} word {i}: {:#010x}, ours {:#010x}",
                            t[i], o[i]
                        );
                    }
                }
            }
            Err(e) => {
                assert!(!require, "GPUSIM_REQUIRE_ROCM=1: {e}");
                eprintln!("note: clang comparison skipped: {e}");
            }
        }
    }
}

fn halves_as_words(h: &[u16]) -> Vec<u32> {
    h.chunks(2)
        .map(|c| u32::from(c[0]) | u32::from(*c.get(1).unwrap_or(&0)) << 16)
        .collect()
}

fn words_as_halves(w: &[u32]) -> Vec<u16> {
    w.iter()
        .flat_map(|&x| [x as u16, (x >> 16) as u16])
        .collect()
}

#[test]
fn vload_half_loads_every_half_exactly() {
    let all: Vec<u16> = (0..=u16::MAX).collect();
    for aligned in [false, true] {
        for n in WIDTHS {
            if aligned && n == 1 {
                // vloada_half is vload_half.
            }
            let s = stride(n, aligned);
            let items = all.len() / s;
            let a = if aligned { "a" } else { "" };
            let src = format!(
                "__kernel void k(__global const half *h, __global float *o) {{
  size_t i = get_global_id(0);
  {t} v = vload{a}_half{w}(i, h);
  {store}
}}",
                t = vec_type("float", n),
                w = suffix(n),
                store = if n == 1 {
                    "o[i] = v;".to_string()
                } else {
                    format!("vstore{n}(v, i, o);")
                }
            );
            let args = [
                TestArg::Buf(halves_as_words(&all)),
                TestArg::Buf(vec![0; items * usize::from(n)]),
            ];
            let tag = format!("vload{a}_half{n}");
            run_both(&src, &tag, items as u32, false, &args, &|what, out| {
                for i in 0..items {
                    for j in 0..usize::from(n) {
                        let h = all[i * s + j];
                        assert_eq!(
                            out[1][i * usize::from(n) + j],
                            load_reference(h),
                            "{what}: half {h:#06x} (work-item {i}, component {j})"
                        );
                    }
                }
            });
        }
    }
}

#[test]
fn vstore_half_rounds_exactly_in_every_mode() {
    let table = half_table();
    let x = store_inputs();
    let xw: Vec<u32> = x.iter().map(|f| f.to_bits()).collect();
    for (mode_name, mode) in [("", 0), ("_rte", 0), ("_rtz", 1), ("_rtp", 2), ("_rtn", 3)] {
        let want: Vec<u16> = x
            .iter()
            .map(|&f| store_reference(f, mode, &table))
            .collect();
        for aligned in [false, true] {
            for n in WIDTHS {
                // vstore_half: every input; the others: a 1/8 slice each.
                let count = if n == 1 && !aligned {
                    x.len()
                } else {
                    x.len() / 8 / 48 * 48
                };
                let s = stride(n, aligned);
                let items = count / usize::from(n);
                let a = if aligned { "a" } else { "" };
                let src = format!(
                    "__kernel void k(__global const float *x, __global half *h) {{
  size_t i = get_global_id(0);
  vstore{a}_half{w}{mode_name}({load}, i, h);
}}",
                    w = suffix(n),
                    load = if n == 1 {
                        "x[i]".to_string()
                    } else {
                        format!("vload{n}(i, x)")
                    }
                );
                let sentinel = 0xa5a5u16;
                let mut init = vec![sentinel; items * s];
                if init.len() % 2 == 1 {
                    init.push(sentinel);
                }
                let offset = if n == 1 {
                    0
                } else {
                    (usize::from(n) * 977) % (x.len() - count)
                };
                let args = [
                    TestArg::Buf(xw[offset..offset + count].to_vec()),
                    TestArg::Buf(halves_as_words(&init)),
                ];
                let tag = format!("vstore{a}_half{n}{mode_name}");
                run_both(
                    &src,
                    &tag,
                    items as u32,
                    s == 4 && n == 3,
                    &args,
                    &|what, out| {
                        let got = words_as_halves(&out[1]);
                        for i in 0..items {
                            for j in 0..s {
                                let g = got[i * s + j];
                                if j >= usize::from(n) {
                                    assert_eq!(
                                        g, sentinel,
                                        "{what}: the padding half of element {i} was written"
                                    );
                                    continue;
                                }
                                let k = offset + i * usize::from(n) + j;
                                assert_eq!(
                                    g, want[k],
                                    "{what}: {:e} ({:#010x}) gave {g:#06x}, want {:#06x}",
                                    x[k], xw[k], want[k]
                                );
                            }
                        }
                    },
                );
            }
        }
    }
}

/// `vstore_half*` of `double` (cl_khr_fp64) rounds in one step: every
/// half, the midpoints between neighbours and the doubles one ULP either
/// side of them (which rounding through float would move onto the
/// midpoint), boundaries, specials and random bits, in every mode, scalar
/// and `double4`; against the table reference and clang-19 + ROCm.
#[test]
fn vstore_half_of_double_rounds_once_in_every_mode() {
    let table = half_table();
    let mut x: Vec<f64> = Vec::new();
    for i in 0..table.len() {
        x.push(table[i]);
        let mid = if i + 1 < table.len() {
            (table[i] + table[i + 1]) / 2.0
        } else {
            65520.0
        };
        x.extend([
            mid,
            f64::from_bits(mid.to_bits() - 1),
            f64::from_bits(mid.to_bits() + 1),
        ]);
    }
    x.extend([
        0.0,
        f64::INFINITY,
        f64::NAN,
        f64::from_bits(0x7ff0_0000_0000_0001),
        f64::from_bits(0xfff8_1234_5678_9abc),
        f64::MAX,
        f64::MIN_POSITIVE,
        f64::from_bits(1),
        65504.0,
        65520.0,
        65536.0,
        1e300,
        2f64.powi(-25),
        f64::from_bits(2f64.powi(-25).to_bits() + 1),
    ]);
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    while x.len() % 128 != 0 || x.len() < 140_000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let b = if seed & 1 == 0 {
            (seed & 0x800f_ffff_ffff_ffff) | ((0x3e0 + (seed >> 52) % 0x40) << 52)
        } else {
            seed
        };
        x.push(f64::from_bits(b));
    }
    let n = x.len() / 2;
    for i in 0..n {
        x[n + i] = -x[i];
    }
    let xw: Vec<u32> = x
        .iter()
        .flat_map(|d| [d.to_bits() as u32, (d.to_bits() >> 32) as u32])
        .collect();
    for (mode_name, mode) in [("", 0), ("_rte", 0), ("_rtz", 1), ("_rtp", 2), ("_rtn", 3)] {
        let want: Vec<u16> = x
            .iter()
            .map(|&f| store_reference_f64(f, mode, &table))
            .collect();
        for w in [1u8, 4] {
            let src = format!(
                "#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void k(__global const double *x, __global half *h) {{
  size_t i = get_global_id(0);
  vstore_half{s}{mode_name}({load}, i, h);
}}",
                s = suffix(w),
                load = if w == 1 {
                    "x[i]".to_string()
                } else {
                    "vload4(i, x)".to_string()
                }
            );
            let items = x.len() / usize::from(w);
            let args = [TestArg::Buf(xw.clone()), TestArg::Buf(vec![0; x.len() / 2])];
            let tag = format!("vstore_half{w}{mode_name}_f64");
            run_both(&src, &tag, items as u32, false, &args, &|what, out| {
                let got = words_as_halves(&out[1]);
                for (k, (&g, &h)) in got.iter().zip(&want).enumerate() {
                    assert_eq!(
                        g,
                        h,
                        "{what}: {:e} ({:#018x}) gave {g:#06x}, want {h:#06x}",
                        x[k],
                        x[k].to_bits()
                    );
                }
            });
        }
    }
}

/// Halves read through a `__constant` pointer.
const CONSTANT_HALVES: [u16; 16] = [
    0x0000, 0x8000, 0x3c00, 0xbc00, 0x7bff, 0xfbff, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7c00, 0xfc00,
    0x7e00, 0x7c01, 0x3555, 0xc2aa,
];

/// The same conversions through `__local`, `__private` and `__constant`
/// half pointers.
#[test]
fn vload_and_vstore_half_through_local_and_private_pointers() {
    let table = half_table();
    let x: Vec<f32> = store_inputs()
        .into_iter()
        .step_by(61)
        .take(64 * 40)
        .collect();
    let src = "
__kernel void k(__global const float *x, __global uint *o, __constant half *ch) {
  __local ushort lh[64 * 4];
  ushort ph[4];
  size_t g = get_global_id(0), l = get_local_id(0);
  float4 v = vload4(g, x);
  vstore_half4_rtz(v, l, (__local half *)lh);
  vstore_half2_rtp(v.zw, 0, (half *)ph);
  vstore_half_rtn(v.x, 2, (half *)ph);
  vstore_half(v.y, 3, (half *)ph);
  barrier(CLK_LOCAL_MEM_FENCE);
  __global uint *r = o + g * 9;
  float4 back = vload_half4(l, (__local const half *)lh);
  float2 pb = vload_half2(0, (const half *)ph);
  r[0] = as_uint(back.x); r[1] = as_uint(back.y); r[2] = as_uint(back.z); r[3] = as_uint(back.w);
  r[4] = as_uint(pb.x); r[5] = as_uint(pb.y);
  r[6] = as_uint(vload_half(2, (const half *)ph));
  r[7] = as_uint(vloada_half2(1, (const half *)ph).y);
  r[8] = as_uint(vload_half(l % 16, ch));
}";
    let items = x.len() / 4;
    let args = [
        TestArg::Buf(x.iter().map(|f| f.to_bits()).collect()),
        TestArg::Buf(vec![0; items * 9]),
        TestArg::Buf(halves_as_words(&CONSTANT_HALVES)),
    ];
    run_both(
        src,
        "half_spaces",
        items as u32,
        false,
        &args,
        &|what, out| {
            for i in 0..items {
                let v = &x[i * 4..][..4];
                let h = |f: f32, m| load_reference(store_reference(f, m, &table));
                let want = [
                    h(v[0], 1),
                    h(v[1], 1),
                    h(v[2], 1),
                    h(v[3], 1),
                    h(v[2], 2),
                    h(v[3], 2),
                    h(v[0], 3),
                    h(v[1], 0),
                    load_reference(CONSTANT_HALVES[i % 64 % 16]),
                ];
                assert_eq!(out[1][i * 9..][..9], want, "{what}: work-item {i} ({v:?})");
            }
        },
    );
}

/// Wrong pointers and data are refused with the OpenCL call named.
#[test]
fn wrong_half_operands_are_refused() {
    for (call, msg) in [
        (
            "vload_half(0, (__global float *)o)",
            "needs a pointer to half",
        ),
        (
            "vstore_half(1.0f, 0, (__constant half *)0)",
            "needs a pointer to writable half",
        ),
        (
            "vstore_half4_rtz((float2)(1.0f), 0, (__global half *)o)",
            "stores a 'float4'",
        ),
        (
            "vstore_half_rtq(1.0f, 0, (__global half *)o)",
            "implicit declaration",
        ),
        ("vload_half5(0, (__global half *)o)", "implicit declaration"),
    ] {
        let src = format!("__kernel void k(__global float *o) {{ {call}; }}");
        let e = compiler::compile(
            compiler::Source::Text {
                name: "t.cl",
                text: &src,
            },
            &compiler::CompileOptions::default(),
        )
        .err()
        .unwrap_or_else(|| panic!("{call} compiled"));
        assert!(e.to_string().contains(msg), "{call}: {e}");
    }
}
