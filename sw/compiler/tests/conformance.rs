//! Language conformance against clang-19 (issue 25, "OpenCL C as other
//! people write it"): every kernel of `tests/kernels/conformance/` is
//! compiled by gpusim (wave32 and wave64) and run on the golden GPU with the
//! same inputs as clang-19's committed object of the same source; every
//! output byte must be identical. The kernels exercise double arithmetic and
//! literals, every integer <-> float conversion, vector and struct kernel
//! arguments, 64-bit pointer offsets, `const`-folded array sizes, the
//! predefined macros, `-cl-single-precision-constant` and float shrinking
//! (`(float)((double)x * 0.5)` done in float, as clang does).
//!
//! Floating point: gpusim selects the same instructions clang does for each
//! operation (the f64 division and the 64-bit conversions are clang's
//! sequences) and contracts the same `a * b + c` (OpenCL's FP_CONTRACT on),
//! so the bits agree; a kernel here where they may legitimately differ would
//! say why at the case.
//!
//! When clang-19 is installed, `build.sh --check` also verifies that the
//! committed objects are what clang builds from the sources now.

use std::path::PathBuf;
use std::process::Command;

use arch::code_object::{CodeObject, ValueKind};
use arch::isa::Isa;
use golden::{GoldenConfig, GoldenGpu};
use sw::driver::{Arg, Driver, LaunchDims};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/kernels/conformance")
}

/// A kernel argument: a buffer (its initial bytes, read back after the
/// run) or a by-value argument (its bytes).
#[derive(Clone)]
enum A {
    Buf(Vec<u8>),
    Val(Vec<u8>),
}

/// A deterministic generator (xorshift64*), so both runs get the same inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in [lo, hi).
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next() >> 11) as f64 / (1u64 << 53) as f64)
    }
}

fn f64s(v: impl IntoIterator<Item = f64>) -> A {
    A::Buf(v.into_iter().flat_map(f64::to_le_bytes).collect())
}
fn f32s(v: impl IntoIterator<Item = f32>) -> A {
    A::Buf(v.into_iter().flat_map(f32::to_le_bytes).collect())
}
fn zeros(bytes: usize) -> A {
    A::Buf(vec![0; bytes])
}
fn raw(r: &mut Rng, bytes: usize) -> A {
    A::Buf((0..bytes).map(|_| r.next() as u8).collect())
}

/// Doubles with spread exponents and both signs, and a few special values
/// (zeros, infinities, NaN, denormals) at fixed places.
fn doubles(r: &mut Rng, n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| match i % 16 {
            3 => 0.0,
            7 => -0.0,
            11 => f64::from_bits(0x0000_0000_0001_2345),
            13 => [f64::INFINITY, f64::NAN, -f64::INFINITY][i / 16 % 3],
            _ => {
                let m = r.range(-4.0, 4.0);
                m * 2f64.powi((r.next() % 40) as i32 - 20)
            }
        })
        .collect()
}

/// The inputs of kernel `name` and its launch (grid, workgroup).
fn case(name: &str) -> (u32, u32, Vec<A>) {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15 ^ name.len() as u64);
    let n = 64usize;
    match name {
        "dbl_arith" => {
            let (a, b) = (doubles(&mut r, n), doubles(&mut r, n));
            (64, 32, vec![f64s(a), f64s(b), zeros(n * 8 * 8)])
        }
        "flt_literals" => {
            let x: Vec<f32> = (0..n + 16).map(|_| r.range(-8.0, 8.0) as f32).collect();
            (
                64,
                32,
                vec![
                    f32s(x),
                    zeros(n * 4 * 4),
                    A::Val(16i32.to_le_bytes().to_vec()),
                ],
            )
        }
        "conv_to_float" => {
            let mut args: Vec<A> = [1, 1, 2, 2, 4, 4, 8, 8]
                .iter()
                .map(|&size| raw(&mut r, n * size))
                .collect();
            args.push(zeros(n * 8 * 4));
            args.push(zeros(n * 8 * 8));
            (64, 32, args)
        }
        "conv_from_float" => {
            let s: Vec<f64> = (0..n).map(|_| r.range(-99.9, 99.9)).collect();
            let u: Vec<f64> = (0..n).map(|_| r.range(0.0, 249.9)).collect();
            let w: Vec<f64> = (0..n).map(|_| r.range(-1e12, 1e12)).collect();
            let f = |v: &[f64]| f32s(v.iter().map(|&x| x as f32));
            let d = |v: &[f64]| f64s(v.iter().copied());
            (
                64,
                32,
                vec![
                    f(&s),
                    f(&u),
                    f(&w),
                    d(&s),
                    d(&u),
                    d(&w),
                    zeros(n * 8 * 4),
                    zeros(n * 4 * 8),
                    zeros(n * 4),
                    zeros(n * 8),
                ],
            )
        }
        "vec_struct_args" => {
            let mut params = Vec::new();
            params.extend(7i32.to_le_bytes()); // a
            params.extend(0.375f32.to_le_bytes()); // b
            params.extend([0xfbu8, 0, 0, 0, 0, 0, 0, 0]); // c (-5), padding
            params.extend((-1.0e10f64 / 3.0).to_le_bytes()); // d
            params.extend(300i16.to_le_bytes()); // e.x
            params.extend((-45i16).to_le_bytes()); // e.y
            params.extend([0u8; 4]); // tail padding to 32
            let mut dims = 3u32.to_le_bytes().to_vec();
            dims.extend(4u32.to_le_bytes());
            let scale: Vec<u8> = [1.5f32, -2.25, 0.125, 8.0]
                .iter()
                .flat_map(|x| x.to_le_bytes())
                .collect();
            let mut l = (-9_000_000_000i64).to_le_bytes().to_vec();
            l.extend(0x1234_5678_9abc_def0i64.to_le_bytes());
            (
                64,
                32,
                vec![
                    A::Val(dims),
                    A::Val(scale),
                    A::Val(params),
                    A::Val(vec![0x85]),
                    A::Val(l),
                    zeros(n * 8 * 4),
                    zeros(n * 2 * 8),
                ],
            )
        }
        "long_index" => {
            let input: Vec<u8> = (0..n + 8)
                .flat_map(|i| (i as i32 * 7 - 100).to_le_bytes())
                .collect();
            (
                64,
                32,
                vec![
                    A::Buf(input),
                    zeros(640 * 4),
                    A::Val(8i32.to_le_bytes().to_vec()),
                    A::Val(2i64.to_le_bytes().to_vec()),
                ],
            )
        }
        "const_dims" => {
            let x: Vec<f32> = (0..n).map(|_| r.range(-2.0, 2.0) as f32).collect();
            (64, 64, vec![f32s(x), zeros(n * 4)])
        }
        "dbl_mixed" => {
            let v = doubles(&mut r, 2 * (n + 8));
            let v: Vec<f64> = v
                .iter()
                .map(|x| if x.is_finite() { *x } else { 1.5 })
                .collect();
            let f: Vec<f32> = (0..n)
                .map(|i| {
                    if i % 5 == 0 {
                        0.25
                    } else {
                        r.range(-3.0, 3.0) as f32
                    }
                })
                .collect();
            (
                64,
                32,
                vec![
                    f64s(v),
                    zeros(n * 6 * 8),
                    A::Val(1.75f64.to_le_bytes().to_vec()),
                    A::Val(8i32.to_le_bytes().to_vec()),
                    f32s(f),
                ],
            )
        }
        "contract_compound" => {
            let x: Vec<f32> = (0..n + 8).map(|_| r.range(-4.0, 4.0) as f32).collect();
            let y: Vec<f32> = (0..n + 8).map(|_| r.range(-4.0, 4.0) as f32).collect();
            (64, 32, vec![f32s(x), f32s(y), zeros(n * 4), zeros(n * 8)])
        }
        "dbl_memory" => {
            let x = doubles(&mut r, n);
            (64, 64, vec![f64s(x), zeros(n * 8), f64s([0.5, 2.0])])
        }
        "const_fold" => {
            let x: Vec<f32> = (0..n).map(|_| r.range(-4.0, 4.0) as f32).collect();
            (64, 32, vec![f32s(x), zeros(n * 4 * 4), zeros(n * 2 * 8)])
        }
        "vec3_args" => {
            let bytes = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
            let ints = |v: &[i32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
            let mut d = 3.25f64.to_le_bytes().to_vec();
            d.extend((-1.0f64 / 7.0).to_le_bytes());
            (
                64,
                32,
                vec![
                    // The fourth component of a 3-vector is padding.
                    A::Val(bytes(&[1.5, -2.0, 0.75, 99.0])),
                    A::Val(ints(&[7, -300, 123_456, -1])),
                    A::Val(vec![200, 1, 255, 17]),
                    A::Val(d),
                    A::Val(vec![0x80, 0x7f, 0xfe, 0x55]),
                    A::Val(0x3fc0_0000u32.to_le_bytes().to_vec()),
                    zeros(n * 6 * 4),
                    zeros(n * 4),
                ],
            )
        }
        "flt_shrink" => {
            // Spread exponents (tiny, huge, denormal), exact halves, 2.0
            // and 0.5 themselves: where double rounding could differ.
            let mut v = |k: usize| -> Vec<f32> {
                (0..n)
                    .map(|i| match (i + k) % 8 {
                        0 => 2.0,
                        1 => 0.5,
                        2 => f32::from_bits(0x0000_0101),
                        3 => 1.0 + f32::EPSILON * (i as f32),
                        _ => {
                            let m = r.range(-4.0, 4.0) as f32;
                            m * 2f32.powi((r.next() % 60) as i32 - 30)
                        }
                    })
                    .collect()
            };
            let (x, y) = (v(0), v(3));
            (
                64,
                32,
                vec![f32s(x), f32s(y), zeros(n * 10 * 4), zeros(n * 4 * 4)],
            )
        }
        "ctl_calls" => {
            // Values of every class (< -100, < 0, 0, small, > 100) and
            // multiples of 5 (the early return); `n` = 3 lets lanes 0..2
            // run the called kernel's body.
            let input: Vec<u8> = (0..n + 16)
                .flat_map(|i| {
                    let v = match i % 6 {
                        0 => 0,
                        1 => (r.next() % 300) as i32 - 400,
                        2 => (r.next() % 100) as i32 - 100,
                        _ => (r.next() % 5000) as i32,
                    };
                    v.to_le_bytes()
                })
                .collect();
            (
                64,
                32,
                vec![
                    A::Buf(input),
                    zeros(n * 8 * 4),
                    A::Val(3i32.to_le_bytes().to_vec()),
                ],
            )
        }
        "predefined" => (32, 32, vec![zeros(16 * 4)]),
        "aggregates" => {
            let input: Vec<u8> = (0..n)
                .flat_map(|_| ((r.next() % 2001) as i32 - 1000).to_le_bytes())
                .collect();
            (
                64,
                32,
                vec![
                    A::Buf(input),
                    zeros(n * 8 * 4),
                    zeros(n * 8 * 4),
                    zeros(n * 8),
                    A::Val(5i32.to_le_bytes().to_vec()),
                ],
            )
        }
        "narrow_ints" => {
            // Bytes of every value; two extra elements for the `i + 1` reads.
            let mut args = vec![
                raw(&mut r, n),
                raw(&mut r, n * 2),
                raw(&mut r, (n + 1) * 4),
                raw(&mut r, (n + 1) * 4),
                raw(&mut r, (n + 1) * 4),
            ];
            args.extend([
                zeros(n * 4 * 8),
                zeros(n * 6 * 4),
                zeros(n * 4 * 4),
                zeros(n * 3 * 4),
                zeros(n * 4),
                zeros(n * 8),
                A::Val(5i32.to_le_bytes().to_vec()),
            ]);
            (64, 32, args)
        }
        "loop_jumps" => {
            let input: Vec<u8> = (0..n)
                .flat_map(|_| ((r.next() % 100_000) as i32 - 1000).to_le_bytes())
                .collect();
            (64, 32, vec![A::Buf(input), zeros(n * 8 * 4)])
        }
        "brace_elision" => {
            let input: Vec<u8> = (0..n)
                .flat_map(|_| ((r.next() % 2001) as i32 - 1000).to_le_bytes())
                .collect();
            (
                64,
                32,
                vec![A::Buf(input), zeros(n * 4 * 4), zeros(n * 4 * 4)],
            )
        }
        "as_type_sizes" => (
            64,
            32,
            vec![raw(&mut r, (n + 1) * 4), zeros(n * 8 * 4), zeros(n * 2 * 8)],
        ),
        "global_vars" => {
            let input: Vec<u8> = (0..n)
                .flat_map(|_| ((r.next() % 2001) as i32 - 1000).to_le_bytes())
                .collect();
            (64, 32, vec![A::Buf(input), zeros(n * 4 * 4)])
        }
        "const_tables" => {
            let x: Vec<f32> = (0..n + 8).map(|_| r.range(-4.0, 4.0) as f32).collect();
            (
                64,
                32,
                vec![
                    f32s(x),
                    zeros(n * 8 * 4),
                    zeros(n * 12 * 4),
                    zeros(n * 2 * 8),
                    A::Val(7i32.to_le_bytes().to_vec()),
                ],
            )
        }
        "half_arith" => {
            // Halves: random bits (denormals, NaNs, infinities among them)
            // with fixed special values; floats spread over and beyond
            // half's range (denormal results, overflow to infinity).
            let halves = |r: &mut Rng, k: usize| -> A {
                A::Buf(
                    (0..k)
                        .flat_map(|j| {
                            let h: u16 = match j % 11 {
                                3 => 0x8000,
                                5 => 0x0001,
                                7 => [0x7c00, 0xfc00, 0x7e00, 0x03ff][j / 11 % 4],
                                _ => r.next() as u16 & 0xbfff | (r.next() as u16 & 0x1000) << 2,
                            };
                            h.to_le_bytes()
                        })
                        .collect(),
                )
            };
            let a = halves(&mut r, n + 8);
            let f: Vec<f32> = (0..n)
                .map(|_| {
                    let m = r.range(-2.0, 2.0);
                    (m * 2f64.powi((r.next() % 46) as i32 - 28)) as f32
                })
                .collect();
            let d = doubles(&mut r, n);
            let ints: Vec<u8> = (0..n)
                .flat_map(|j| {
                    let v = match j % 8 {
                        0 => 0,
                        1 => 100_000,
                        _ => (r.next() % 6000) as i32 - 3000,
                    };
                    v.to_le_bytes()
                })
                .collect();
            let v4 = halves(&mut r, 4 * (n + 1));
            (
                64,
                32,
                vec![
                    a,
                    f32s(f),
                    f64s(d),
                    A::Buf(ints),
                    v4,
                    zeros(n * 24 * 2),
                    zeros(n * 4 * 4),
                    zeros(n * 2 * 8),
                    zeros(n * 3 * 4),
                    zeros(n * 8),
                    zeros(n * 4 * 8),
                    // half hs = -1.75, half2 h2s = (0.1, 3.0) (bits).
                    A::Val(0xbf00u16.to_le_bytes().to_vec()),
                    A::Val([0x66u8, 0x2e, 0x00, 0x42].to_vec()),
                ],
            )
        }
        "vec_index" => {
            let ints: Vec<u8> = (0..n + 4)
                .flat_map(|_| ((r.next() % 2001) as i32 - 1000).to_le_bytes())
                .collect();
            let f: Vec<f32> = (0..4 * (n + 1))
                .map(|_| r.range(-10.0, 10.0) as f32)
                .collect();
            (
                64,
                32,
                vec![
                    A::Buf(ints),
                    f32s(f),
                    zeros(n * 3 * 16),
                    zeros(n * 4 * 16),
                    zeros(n * 16),
                ],
            )
        }
        "switch_return" => {
            let ints: Vec<u8> = (0..n)
                .flat_map(|_| (r.next() as i32 % 5000).to_le_bytes())
                .collect();
            (
                64,
                32,
                vec![
                    A::Buf(ints),
                    zeros(n * 3 * 4),
                    A::Val(9i32.to_le_bytes().to_vec()),
                ],
            )
        }
        "aligned_records" => {
            let z: Vec<f32> = (0..2 * (n + 1))
                .map(|_| r.range(-4.0, 4.0) as f32)
                .collect();
            (
                64,
                32,
                vec![
                    f32s(z),
                    zeros(128 * 8),
                    zeros(128 * 16 + 64 * 8),
                    zeros(n * 32),
                    zeros(204 * 4),
                ],
            )
        }
        "long_branch" => {
            // Every lane runs the body a different number of times (bits 1
            // and 8 of its input), three rounds of the uniform loop.
            let input: Vec<u8> = (0..n)
                .flat_map(|_| (r.next() as u32).to_le_bytes())
                .collect();
            (
                64,
                32,
                vec![
                    A::Buf(input),
                    zeros(n * 4),
                    A::Val(3i32.to_le_bytes().to_vec()),
                ],
            )
        }
        "packed_records" => {
            // P: char, int, short, double (15 bytes); Q: char, float,
            // uchar (6); Outer: char, Q, int (12); PA: uchar, uint (8).
            // Doubles and floats in range of the int conversions.
            let mut p = Vec::new();
            let mut q = Vec::new();
            let mut o = Vec::new();
            let mut pa = Vec::new();
            for _ in 0..n {
                p.push(r.next() as u8);
                p.extend((r.next() as i32).to_le_bytes());
                p.extend((r.next() as i16).to_le_bytes());
                p.extend(r.range(-1e6, 1e6).to_le_bytes());
                let mut rec_q = vec![r.next() as u8];
                rec_q.extend((r.range(-1e4, 1e4) as f32).to_le_bytes());
                rec_q.push(r.next() as u8);
                q.extend(&rec_q);
                o.push(r.next() as u8);
                rec_q[1..5].copy_from_slice(&(r.range(-1e4, 1e4) as f32).to_le_bytes());
                o.extend(&rec_q);
                o.push(0); // padding: `tail` is at 8
                o.extend(((r.next() % 100_000) as i32).to_le_bytes());
                pa.extend(r.next().to_le_bytes());
            }
            (
                64,
                32,
                vec![
                    A::Buf(p),
                    A::Buf(q),
                    A::Buf(o),
                    A::Buf(pa),
                    zeros(n * 12 * 4),
                ],
            )
        }
        "rvalue_arrays" => {
            let input: Vec<u8> = (0..n)
                .flat_map(|_| ((r.next() % 20_001) as i32 - 10_000).to_le_bytes())
                .collect();
            (
                64,
                32,
                vec![A::Buf(input), zeros(n * 2 * 4), zeros(n * 10 * 4)],
            )
        }
        "nested_case" => {
            // Selectors of every residue and `y` around the thresholds;
            // Duff's device copies 45 ints (45 % 8 = 5: entered at case 5).
            let input: Vec<u8> = (0..2 * n)
                .flat_map(|_| ((r.next() % 61) as i32 - 20).to_le_bytes())
                .collect();
            let src: Vec<u8> = (0..64)
                .flat_map(|k| (k * 7 - 100i32).to_le_bytes())
                .collect();
            (
                64,
                32,
                vec![
                    A::Buf(input),
                    A::Buf(src),
                    zeros(64 * 4),
                    zeros(n * 2 * 4),
                    A::Val(45i32.to_le_bytes().to_vec()),
                ],
            )
        }
        "local_pointers" => {
            // 100 elements on 64 work-items: the grid-stride loop runs
            // twice for some, so the locals are declared again in a loop.
            let ints: Vec<u8> = (0..128)
                .flat_map(|_| (r.next() as i32 % 1000).to_le_bytes())
                .collect();
            (
                64,
                32,
                vec![
                    A::Buf(ints),
                    zeros(128 * 6 * 4),
                    A::Val(100i32.to_le_bytes().to_vec()),
                ],
            )
        }
        "single_constant" => {
            let x: Vec<f32> = (0..n).map(|_| r.range(-8.0, 8.0) as f32).collect();
            (64, 32, vec![f32s(x), zeros(n * 2 * 4)])
        }
        other => {
            panic!("conformance kernel {other} has no inputs in tests/conformance.rs: add a case")
        }
    }
}

/// Runs kernel `name` of `elf` on the golden gfx1030 GPU; every buffer's bytes.
fn run(elf: &[u8], name: &str, grid: u32, wg: u32, args: &[A]) -> Vec<Vec<u8>> {
    let gpu = GoldenGpu::new(GoldenConfig::new(Isa::Gfx1030)).expect("golden GPU");
    let mut d = Driver::new(gpu).expect("driver");
    let p = d.load(elf).expect("load");
    let k = p.kernel(name).expect("kernel").clone();
    let mut dargs = Vec::new();
    let mut bufs = Vec::new();
    for a in args {
        match a {
            A::Buf(bytes) => {
                let b = d.create_buffer(bytes).expect("buffer");
                bufs.push(b);
                dargs.push(Arg::Buffer(b.address));
            }
            A::Val(bytes) => dargs.push(Arg::Value(bytes.clone())),
        }
    }
    d.launch(&k, LaunchDims::linear(grid, wg), &dargs)
        .unwrap_or_else(|e| panic!("{name}: launch: {e}"));
    bufs.into_iter()
        .map(|b| d.download(b).expect("download"))
        .collect()
}

/// gpusim's options for the `// FLAGS:` line of a conformance source.
fn options(src: &str, wave64: bool) -> compiler::CompileOptions {
    let mut o = compiler::CompileOptions::default()
        .include(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/kernels/include"));
    o.backend.wave64 = wave64;
    o.front.wave64 = wave64;
    // build.sh compiles with -cl-std=CL2.0 (`__OPENCL_C_VERSION__` 200).
    o.front.cl_std = Some(200);
    let flags = src
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("// FLAGS: "));
    for f in flags.unwrap_or("").split_whitespace() {
        match f {
            "-cl-single-precision-constant" => o.front.single_precision_constant = true,
            other => panic!("flag {other} of a conformance kernel has no gpusim equivalent here"),
        }
    }
    o
}

fn kernels() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .expect("tests/kernels/conformance")
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "cl").then(|| p.file_stem().unwrap().to_string_lossy().into_owned())
        })
        .collect();
    names.sort();
    names
}

/// The explicit arguments' (offset, size, kind) and the segment alignment.
fn arg_layout(elf: &[u8], name: &str) -> (Vec<(u32, u32, ValueKind)>, u32) {
    let co = CodeObject::parse(elf).expect("code object");
    let k = co.kernel(name).expect("kernel");
    let args = k
        .metadata
        .args
        .iter()
        .filter(|a| {
            matches!(
                a.value_kind,
                ValueKind::ByValue | ValueKind::GlobalBuffer | ValueKind::DynamicSharedPointer
            )
        })
        .map(|a| (a.offset, a.size, a.value_kind.clone()))
        .collect();
    (args, k.metadata.kernarg_segment_align)
}

fn first_difference(a: &[u8], b: &[u8]) -> String {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(i) => {
            let w = i / 4 * 4;
            format!(
                "first at byte {i}: dword {:02x?} (clang) vs {:02x?} (gpusim)",
                &a[w..(w + 4).min(a.len())],
                &b[w..(w + 4).min(b.len())]
            )
        }
        None => format!("lengths {} and {}", a.len(), b.len()),
    }
}

#[test]
fn gpusim_matches_clang_on_the_golden_gpu() {
    let names = kernels();
    assert!(
        names.len() >= 9,
        "the conformance corpus is missing kernels"
    );
    let mut failures = Vec::new();
    for name in &names {
        let path = dir().join(format!("{name}.cl"));
        let src = std::fs::read_to_string(&path).unwrap();
        let clang = std::fs::read(dir().join(format!("prebuilt/gfx1030/{name}.hsaco")))
            .unwrap_or_else(|_| {
                panic!("{name}: no clang object: run tests/kernels/conformance/build.sh")
            });
        let (grid, wg, args) = case(name);
        let want = run(&clang, name, grid, wg, &args);
        let initial: Vec<&Vec<u8>> = args
            .iter()
            .filter_map(|a| match a {
                A::Buf(b) => Some(b),
                A::Val(_) => None,
            })
            .collect();
        assert!(
            want.iter().zip(&initial).any(|(w, i)| w != *i),
            "{name}: clang's kernel wrote nothing: the case checks nothing"
        );
        // wave32 and wave64 optimised (`-O`, clang's -O3 counterpart), and
        // wave32 without optimisation (`-O0`): the meaning must not change.
        for (wave64, optimize) in [(false, true), (true, true), (false, false)] {
            let mut opts = options(&src, wave64);
            opts.backend.optimize = optimize;
            let o = u8::from(optimize);
            let ours = match compiler::compile(compiler::Source::Path(&path), &opts) {
                Ok(c) => c.code_object,
                Err(d) => {
                    failures.push(format!(
                        "{name} wave64={wave64} -O{o}: does not compile:\n{d}"
                    ));
                    continue;
                }
            };
            let (theirs_args, theirs_align) = arg_layout(&clang, name);
            let (our_args, our_align) = arg_layout(&ours, name);
            if theirs_args != our_args || theirs_align != our_align {
                failures.push(format!(
                    "{name}: kernarg layout differs:\n  clang  {theirs_args:?} align {theirs_align}\n  gpusim {our_args:?} align {our_align}"
                ));
            }
            let got = run(&ours, name, grid, wg, &args);
            for (k, (w, g)) in want.iter().zip(&got).enumerate() {
                if w != g {
                    failures.push(format!(
                        "{name} wave64={wave64} -O{o}: buffer argument {k} differs, {}",
                        first_difference(w, g)
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn committed_clang_objects_match_a_fresh_build() {
    let have = ["clang-19", "ld.lld-19"].iter().all(|t| {
        Command::new(t)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if !have {
        eprintln!("skipping the conformance drift check: clang-19 or ld.lld-19 not on PATH");
        return;
    }
    let out = Command::new("bash")
        .arg(dir().join("build.sh"))
        .arg("--check")
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "tests/kernels/conformance/build.sh --check failed (rebuild with the script and commit):\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
