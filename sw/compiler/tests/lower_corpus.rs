//! The corpus kernels through the whole pipeline (front end, lowering, back
//! end): which compile, and for the rest the first unsupported feature —
//! the table in `docs/compiler.md` ("Lowering: status") comes from here.
//! Running the compiled kernels on the golden GPU against the corpus
//! references is `cosim/tests/compile_corpus.rs`.

use compiler::{compile, CompileOptions, Source};
use std::path::PathBuf;

fn kernels_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/kernels")
}

fn opts(wave64: bool) -> CompileOptions {
    let mut o = CompileOptions::default().include(kernels_dir().join("include"));
    o.backend.wave64 = wave64;
    o
}

/// Kernels that must compile for both wave sizes (grows as the lowering does).
const COMPILES: &[&str] = &[
    "saxpy",
    "vec4_scale",
    "int_ops",
    "select_ops",
    "signed_select",
    "divergent_loops",
    "reduce_sum",
    "reduce_max_dyn",
    "scan_wg",
    "fir",
    "gather_scatter",
    "stencil2d",
    "bitonic_step",
    "matmul_naive",
    "matmul_tiled",
    "transpose",
    "ubench_smem_chain",
    "ubench_stream",
    "ubench_valu_chain",
    "ubench_lds_chase",
    "ubench_mem_chase",
    "append",
    "histogram",
    "ubench_atomics",
    "float_ops",
    "bit_ops",
    "lds_atomics",
    "bfs_relax",
    "nbody",
    "lane_permute",
    "bytes_shorts",
    "hash_int",
    "atomics_misc",
    "private_scratch",
    "int64_ops",
];

#[test]
fn supported_corpus_kernels_compile_for_wave32_and_wave64() {
    for name in COMPILES {
        for wave64 in [false, true] {
            let path = kernels_dir().join(format!("{name}.cl"));
            let c = compile(Source::Path(&path), &opts(wave64))
                .unwrap_or_else(|d| panic!("{name} wave64={wave64}:\n{d}"));
            assert_eq!(&c.code_object[..4], b"\x7fELF");
            assert_eq!(c.kernels[0].name, *name);
        }
    }
}

/// Prints every corpus kernel's status (run with `--nocapture`); a kernel
/// that fails must fail with a diagnostic, never a panic.
#[test]
fn every_corpus_kernel_compiles_or_reports_a_diagnostic() {
    let mut names: Vec<_> = std::fs::read_dir(kernels_dir())
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension()? == "cl").then_some(p)
        })
        .collect();
    names.sort();
    for p in names {
        match compile(Source::Path(&p), &opts(false)) {
            Ok(_) => println!("OK   {}", p.file_stem().unwrap().to_string_lossy()),
            Err(d) => {
                assert!(!d.message.is_empty());
                println!(
                    "FAIL {}: {}:{}: {}",
                    p.file_stem().unwrap().to_string_lossy(),
                    d.line,
                    d.col,
                    d.message
                );
            }
        }
    }
}

#[test]
fn unsupported_features_are_diagnostics_at_their_location() {
    // tgamma(double), the example until the device library gained it,
    // compiles now; saturating conversions are still refused.
    let src = "__kernel void k(__global long *a) { a[0] = convert_int_sat((double)a[1]); }";
    let d = compile(
        Source::Text {
            name: "t.cl",
            text: src,
        },
        &opts(false),
    )
    .unwrap_err();
    assert_eq!((d.line, d.col), (1, 44), "{d}");
    assert!(
        d.message.contains(
            "'convert_int_sat': saturating and non-default rounding conversions are not supported"
        ),
        "{d}"
    );
}

/// Seed 004: a conditional expression whose arms are safe to evaluate in
/// every lane becomes an IR `select` (an int mask compared with zero; a
/// `bool4` mask one select per component), which instruction selection
/// then compiles as the masked operation or a blend.
#[test]
fn conditional_expressions_become_selects() {
    let src = "__kernel void k(__global const int *a, __global const int *b, __global int *o) {
  int i = get_global_id(0);
  int x = a[i], y = b[i];
  o[i] = (x & 1) ? x + y : 0;
  int4 v = (int4)(x, y, x, y);
  int4 w = (v > 3) ? v * 2 : v;
  o[i + 64] = w.x + w.y + w.z + w.w;
  o[i + 128] = x > 0 ? a[i + 1] : 7;
}";
    let c = compile(
        Source::Text {
            name: "s.cl",
            text: src,
        },
        &opts(false),
    )
    .unwrap();
    let ir = compiler::ir::print(&c.ir[0]);
    // One for the int mask, four for the bool4 mask; the third `?:` loads
    // in an arm, so it branches (a load must not run in lanes that did not ask).
    assert_eq!(ir.matches("select").count(), 5, "{ir}");
    assert!(ir.contains("brif"), "{ir}");
    let mut masked = opts(false);
    masked.backend.masked_select = compiler::backend::MaskedSelect::Masked;
    let c = compile(
        Source::Text {
            name: "s.cl",
            text: src,
        },
        &masked,
    )
    .unwrap();
    assert!(c.kernels[0].listing().contains("s_and_saveexec_b32"));
}

mod backend_support;

/// Built-ins the corpus does not reach yet (ctz, the hardware rsq, rotate)
/// run on the golden GPU: ctz(0) = 32, rsq within 2 ULP of 1/sqrt.
#[test]
fn ctz_rsq_and_rotate_run_on_the_golden_gpu() {
    use backend_support::{run, TestArg};
    let src = "__kernel void k(__global const uint *a, __global uint *o, __global float *f) {
  uint i = get_global_id(0);
  o[i] = ctz(a[i]);
  f[i] = __builtin_amdgcn_rsqf((float)(i + 1));
  o[i + 64] = rotate(a[i], i) ^ __builtin_rotateright32(a[i], i + 3);
}";
    let input: Vec<u32> = (0..64u32)
        .map(|i| {
            if i == 5 {
                0
            } else {
                i.wrapping_mul(0x9e37_79b9) << (i % 13)
            }
        })
        .collect();
    for wave64 in [false, true] {
        let c = compile(
            Source::Text {
                name: "b.cl",
                text: src,
            },
            &opts(wave64),
        )
        .unwrap();
        let out = run(
            &c.kernels[0],
            64,
            32,
            &[
                TestArg::Buf(input.clone()),
                TestArg::Buf(vec![0; 128]),
                TestArg::Buf(vec![0; 64]),
            ],
        )
        .unwrap();
        for i in 0..64 {
            assert_eq!(out[1][i], input[i].trailing_zeros(), "ctz lane {i}");
            let rot = input[i].rotate_left(i as u32) ^ input[i].rotate_right(i as u32 + 3);
            assert_eq!(out[1][i + 64], rot, "rotate lane {i}");
            let got = f32::from_bits(out[2][i]);
            let want = 1.0 / ((i + 1) as f32).sqrt();
            let ulps = (got.to_bits() as i64 - want.to_bits() as i64).abs();
            assert!(ulps <= 2, "rsq lane {i}: {got} vs {want}");
        }
    }
}

/// `if (c) continue;` and `if (c) { S; break; }` (S runs, then the lanes
/// leave) in loops with divergent trip counts, checked against Rust. (Both
/// in one loop is a back-end limit: an exit inside the continue's
/// conditional.)
#[test]
fn break_after_statements_runs_on_the_golden_gpu() {
    use backend_support::{run, TestArg};
    let src = "__kernel void k(__global const int *a, __global int *o) {
  int i = get_global_id(0);
  int s = 0, found = -1, t = 0;
  for (int j = 0; j < a[i]; j++) {
    if (j % 3 == 1) continue;
    t += j;
  }
  for (int j = 0; j < a[i]; j++) {
    s += j;
    if (s > 20) { found = j; s = s * 2; break; }
  }
  o[i] = (s * 100 + found) * 1000 + t;
}";
    let input: Vec<u32> = (0..64u32).map(|i| (i * 7) % 17).collect();
    let want: Vec<u32> = input
        .iter()
        .map(|&n| {
            let (mut s, mut found, mut t) = (0i32, -1i32, 0i32);
            for j in 0..n as i32 {
                if j % 3 == 1 {
                    continue;
                }
                t += j;
            }
            for j in 0..n as i32 {
                s += j;
                if s > 20 {
                    found = j;
                    s *= 2;
                    break;
                }
            }
            ((s * 100 + found) * 1000 + t) as u32
        })
        .collect();
    for wave64 in [false, true] {
        let c = compile(
            Source::Text {
                name: "l.cl",
                text: src,
            },
            &opts(wave64),
        )
        .unwrap();
        let out = run(
            &c.kernels[0],
            64,
            64,
            &[TestArg::Buf(input.clone()), TestArg::Buf(vec![0; 64])],
        )
        .unwrap();
        assert_eq!(out[1], want, "wave64={wave64}");
    }
}

/// FP contraction: on by default (OpenCL's FP_CONTRACT), off by the pragma
/// unless `Fast`, never with `Off`.
#[test]
fn fp_contract_follows_the_option_and_the_pragma() {
    use compiler::lower::FpContract;
    let body = "__kernel void k(__global float *a) { a[0] = a[1] * a[2] + a[3]; }";
    let pragma_off = format!("#pragma OPENCL FP_CONTRACT OFF\n{body}");
    for (text, mode, fused) in [
        (body.to_string(), FpContract::On, true),
        (body.to_string(), FpContract::Off, false),
        (pragma_off.clone(), FpContract::On, false),
        (pragma_off, FpContract::Fast, true),
    ] {
        let mut o = opts(false);
        o.lower.fp_contract = mode;
        let c = compile(
            Source::Text {
                name: "f.cl",
                text: &text,
            },
            &o,
        )
        .unwrap();
        let ir = compiler::ir::print(&c.ir[0]);
        assert_eq!(ir.contains(" fma "), fused, "{mode:?}:\n{ir}");
        assert_eq!(ir.contains("fmul"), !fused, "{mode:?}:\n{ir}");
    }
}

/// The unsigned min/max and xor atomics on global memory, every lane
/// hitting the same three words: their final values.
#[test]
fn global_unsigned_and_xor_atomics_run_on_the_golden_gpu() {
    use backend_support::{run, TestArg};
    let src = "__kernel void k(__global const uint *a, __global uint *o) {
  uint i = get_global_id(0);
  volatile __global atomic_uint *w = (volatile __global atomic_uint *)o;
  __opencl_atomic_fetch_min(w, a[i], __ATOMIC_RELAXED, __OPENCL_MEMORY_SCOPE_DEVICE);
  __opencl_atomic_fetch_max(w + 1, a[i], __ATOMIC_RELAXED, __OPENCL_MEMORY_SCOPE_DEVICE);
  __opencl_atomic_fetch_xor(w + 2, a[i], __ATOMIC_RELAXED, __OPENCL_MEMORY_SCOPE_DEVICE);
}";
    // Values above 2^31 tell unsigned from signed min/max.
    let input: Vec<u32> = (0..64u32)
        .map(|i| i.wrapping_mul(0x9e37_79b9) ^ 0x8000_0000)
        .collect();
    let want = [
        *input.iter().min().unwrap(),
        *input.iter().max().unwrap(),
        input.iter().fold(0, |x, &v| x ^ v),
    ];
    for wave64 in [false, true] {
        let c = compile(
            Source::Text {
                name: "a.cl",
                text: src,
            },
            &opts(wave64),
        )
        .unwrap();
        let out = run(
            &c.kernels[0],
            64,
            32,
            &[
                TestArg::Buf(input.clone()),
                TestArg::Buf(vec![u32::MAX, 0, 0]),
            ],
        )
        .unwrap();
        assert_eq!(out[1], want, "wave64={wave64}");
    }
}
