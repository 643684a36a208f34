//! Sanity tests of the CPU references: each compares a reference with an
//! independent computation (or a property) that would fail if the
//! reference were wrong.

use corpus::args::{buffer, buffer_mut};
use corpus::{
    all, find, ArgSpec, ArgValue, BufferData, Compare, CorpusError, CorpusKernel, Dims, Init,
    ScalarValue,
};

fn kernel(name: &str) -> &'static CorpusKernel {
    find(name).unwrap_or_else(|| panic!("{name} is registered"))
}

/// Initial and final argument values of the default launch.
fn run(name: &str) -> (Vec<ArgValue>, Vec<ArgValue>) {
    let k = kernel(name);
    (
        k.launch.materialize(),
        k.expected().unwrap_or_else(|e| panic!("{name}: {e}")),
    )
}

fn u32s(args: &[ArgValue], i: usize) -> Vec<u32> {
    buffer::<u32>(args, i, 0).expect("uint buffer").to_vec()
}

fn f32s(args: &[ArgValue], i: usize) -> Vec<f32> {
    buffer::<f32>(args, i, 0).expect("float buffer").to_vec()
}

#[test]
fn every_reference_runs_and_writes_its_outputs() {
    for k in all() {
        let initial = k.launch.materialize();
        let fin = k.expected().unwrap_or_else(|e| panic!("{}: {e}", k.name));
        let mut changed = 0;
        for (i, spec) in k.launch.args.iter().enumerate() {
            if let ArgSpec::Buffer(b) = spec {
                if initial[i] != fin[i] {
                    changed += 1;
                } else {
                    // Zero-initialised buffers are pure outputs: they must be written.
                    assert!(
                        b.init != Init::Zero,
                        "{}: output {} unchanged",
                        k.name,
                        b.name
                    );
                }
            } else {
                assert_eq!(
                    initial[i], fin[i],
                    "{}: non-buffer argument {i} changed",
                    k.name
                );
            }
        }
        assert!(changed >= 1, "{}: the reference wrote nothing", k.name);
        // The reference is its own fixed point under check().
        k.check(&fin).unwrap_or_else(|e| panic!("{}: {e}", k.name));
        // Materialising twice gives identical inputs (the corpus is deterministic).
        assert_eq!(initial, k.launch.materialize(), "{}", k.name);
    }
}

#[test]
fn check_reports_the_first_wrong_element_of_each_output() {
    for k in all() {
        let expected = k.expected().expect("reference runs");
        for (i, spec) in k.launch.args.iter().enumerate() {
            let ArgSpec::Buffer(b) = spec else { continue };
            let mut actual = expected.clone();
            let Some(ArgValue::Buffer(data)) = actual.get_mut(i) else {
                panic!("buffer")
            };
            // Corrupt the last element far beyond any tolerance.
            let last = data.len() - 1;
            match data {
                BufferData::F32(v) => v[last] = v[last] * 2.0 + 1000.0,
                BufferData::U32(v) => v[last] = v[last].wrapping_add(0x8000_0001),
                BufferData::I32(v) => v[last] = v[last].wrapping_add(77),
                BufferData::U64(v) => v[last] ^= 1 << 40,
                BufferData::U8(v) => v[last] = v[last].wrapping_add(1),
                BufferData::I16(v) => v[last] = v[last].wrapping_add(1),
                BufferData::I8(v) => v[last] = v[last].wrapping_add(1),
                BufferData::U16(v) => v[last] = v[last].wrapping_add(1),
                BufferData::I64(v) => v[last] = v[last].wrapping_add(1),
            }
            match k.check_against(&expected, &actual) {
                Err(CorpusError::Mismatch { arg, index, .. }) => {
                    assert_eq!(arg, i, "{}", k.name);
                    // Multiset comparison reports a sorted position instead.
                    if b.compare != Compare::Multiset {
                        assert_eq!(index, last, "{}", k.name);
                    }
                }
                other => panic!("{} {}: corruption not detected: {other:?}", k.name, b.name),
            }
        }
    }
}

#[test]
fn scan_reference_equals_a_sequential_exclusive_scan() {
    let (initial, fin) = run("scan_wg");
    let input = u32s(&initial, 0);
    let (out, sums) = (u32s(&fin, 1), u32s(&fin, 2));
    for (g, block) in input.chunks(256).enumerate() {
        let mut acc = 0u32;
        for (t, v) in block.iter().enumerate() {
            assert_eq!(out[g * 256 + t], acc, "group {g} element {t}");
            acc = acc.wrapping_add(*v);
        }
        assert_eq!(sums[g], acc, "group {g} total");
    }
}

#[test]
fn bitonic_step_keeps_the_multiset_and_the_full_network_sorts() {
    let k = kernel("bitonic_step");
    let (initial, fin) = run("bitonic_step");
    let (mut a, mut b) = (u32s(&initial, 0), u32s(&fin, 0));
    assert_ne!(a, b, "the default step must move something");
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b);
    // Every (k, j) step of the network over 1024 elements, via the reference.
    let n = 1024u32;
    let mut args = k.launch.materialize();
    let mut size = 2;
    while size <= n {
        let mut j = size / 2;
        while j > 0 {
            args[1] = ArgValue::Scalar(ScalarValue::U32(j));
            args[2] = ArgValue::Scalar(ScalarValue::U32(size));
            k.run_reference(&k.launch.dims, &mut args)
                .expect("step runs");
            j /= 2;
        }
        size *= 2;
    }
    let sorted = u32s(&args, 0);
    assert!(
        sorted.windows(2).all(|w| w[0] <= w[1]),
        "network did not sort"
    );
    assert_eq!(sorted, a);
}

/// C = A * B computed from B transposed, dot products with fma in k order.
fn matmul_via_transpose(a: &[f32], b: &[f32], m: usize, n: usize, k: usize) -> Vec<f32> {
    let bt: Vec<f32> = (0..n * k).map(|idx| b[(idx % k) * n + idx / k]).collect();
    let mut c = vec![0.0; m * n];
    for row in 0..m {
        for col in 0..n {
            let (ar, bc) = (&a[row * k..(row + 1) * k], &bt[col * k..(col + 1) * k]);
            c[row * n + col] = ar
                .iter()
                .zip(bc)
                .fold(0.0f32, |acc, (x, y)| x.mul_add(*y, acc));
        }
    }
    c
}

#[test]
fn matmul_references_equal_the_transpose_based_product() {
    for name in ["matmul_naive", "matmul_tiled"] {
        let (initial, fin) = run(name);
        let dim = |i: usize| match initial[i] {
            ArgValue::Scalar(ScalarValue::U32(v)) => v as usize,
            _ => panic!("scalar"),
        };
        let (m, n, k) = (dim(3), dim(4), dim(5));
        let want = matmul_via_transpose(&f32s(&initial, 0), &f32s(&initial, 1), m, n, k);
        let got = f32s(&fin, 2);
        assert_eq!(
            got.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            want.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            "{name}"
        );
        // And the product is not trivially zero.
        assert!(got.iter().any(|x| x.abs() > 0.1), "{name}");
    }
}

#[test]
fn histogram_sums_to_the_element_count_and_matches_a_direct_count() {
    let (initial, fin) = run("histogram");
    let hist = u32s(&fin, 1);
    assert_eq!(hist.iter().sum::<u32>(), 4096);
    let input = u32s(&initial, 0);
    let bin5 = input.iter().filter(|v| (**v >> 3) % 64 == 5).count() as u32;
    assert_eq!(hist[5], bin5);
    assert!(
        hist.iter().all(|&h| h > 0),
        "4096 random values should hit all 64 bins"
    );
}

#[test]
fn lds_histograms_count_each_group_and_record_its_maximum() {
    let (initial, fin) = run("lds_atomics");
    let (input, out) = (u32s(&initial, 0), u32s(&fin, 1));
    for (g, block) in input.chunks(256).enumerate() {
        let bins = &out[g * 33..(g + 1) * 33];
        assert_eq!(bins[..32].iter().sum::<u32>(), 256);
        assert_eq!(bins[32], *block.iter().max().expect("non-empty"));
    }
}

#[test]
fn append_output_holds_exactly_the_multiples() {
    let (initial, fin) = run("append");
    let input = u32s(&initial, 0);
    let mut picked: Vec<u32> = input.iter().copied().filter(|v| v % 7 == 0).collect();
    let count = u32s(&fin, 2)[0] as usize;
    assert_eq!(count, picked.len());
    assert!(count > 100, "expected roughly 2048/7 hits, got {count}");
    let out = u32s(&fin, 1);
    let mut written = out[..count].to_vec();
    written.sort_unstable();
    picked.sort_unstable();
    assert_eq!(written, picked);
    assert!(out[count..].iter().all(|&v| v == u32::MAX));
}

#[test]
fn reductions_agree_with_straightforward_sums_and_maxima() {
    let (initial, fin) = run("reduce_sum");
    let input = f32s(&initial, 0);
    for (g, p) in f32s(&fin, 1).iter().enumerate() {
        let exact: f64 = input[g * 256..(g + 1) * 256]
            .iter()
            .map(|&x| x as f64)
            .sum();
        assert!(
            (*p as f64 - exact).abs() < 1e-4,
            "group {g}: {p} vs {exact}"
        );
    }
    let (initial, fin) = run("reduce_max_dyn");
    let input = u32s(&initial, 0);
    for (g, m) in u32s(&fin, 1).iter().enumerate() {
        assert_eq!(
            *m,
            *input[g * 128..(g + 1) * 128]
                .iter()
                .max()
                .expect("non-empty")
        );
    }
}

#[test]
fn transposing_twice_is_the_identity() {
    let k = kernel("transpose");
    let (initial, once) = run("transpose");
    let mut args = once.clone();
    args.swap(0, 1);
    args[2] = ArgValue::Scalar(ScalarValue::U32(48));
    args[3] = ArgValue::Scalar(ScalarValue::U32(64));
    let dims = Dims {
        grid: [48, 64, 1],
        local: [16, 16, 1],
    };
    k.run_reference(&dims, &mut args).expect("second transpose");
    assert_eq!(args[1], initial[0]);
    assert_ne!(once[1], initial[0]);
}

#[test]
fn stencil_of_a_constant_field_is_the_constant_and_fir_of_an_impulse_is_a_copy() {
    let k = kernel("stencil2d");
    let mut args = k.launch.materialize();
    args[0] = ArgValue::Buffer(BufferData::F32(vec![3.25; 64 * 32]));
    k.run_reference(&k.launch.dims, &mut args).expect("stencil");
    assert!(f32s(&args, 1).iter().all(|&v| v == 3.25));

    let k = kernel("fir");
    let mut args = k.launch.materialize();
    let mut impulse = vec![0.0f32; 16];
    impulse[2] = 1.0;
    args[1] = ArgValue::Buffer(BufferData::F32(impulse));
    k.run_reference(&k.launch.dims, &mut args).expect("fir");
    let input = f32s(&args, 0);
    assert_eq!(f32s(&args, 2), input[2..2 + 2048].to_vec());
}

#[test]
fn nbody_forces_obey_newtons_third_law() {
    // sum_i m_i * a_i = sum_{i,j} m_i m_j d_ij / r^3 = 0 (antisymmetric).
    let (initial, fin) = run("nbody");
    let (pos, out) = (f32s(&initial, 0), f32s(&fin, 1));
    let mut total = [0.0f64; 3];
    let mut scale = 0.0f64;
    for i in 0..256 {
        for c in 0..3 {
            let f = pos[4 * i + 3] as f64 * out[4 * i + c] as f64;
            total[c] += f;
            scale += f.abs();
        }
    }
    assert!(scale > 1.0);
    for t in total {
        assert!(t.abs() < 1e-4 * scale, "net force {t} (scale {scale})");
    }
}

#[test]
fn gather_scatter_and_lane_permute_are_permutations() {
    let (initial, fin) = run("gather_scatter");
    let (input, src, dst) = (u32s(&initial, 0), u32s(&initial, 1), u32s(&initial, 2));
    let mut seen = src.clone();
    seen.sort_unstable();
    assert_eq!(
        seen,
        (0..2048).collect::<Vec<u32>>(),
        "src is a permutation"
    );
    let out = u32s(&fin, 3);
    for i in [0usize, 1, 777, 2047] {
        assert_eq!(
            out[dst[i] as usize],
            input[src[i] as usize].wrapping_add(i as u32)
        );
    }

    let (initial, fin) = run("lane_permute");
    let input = buffer::<i32>(&initial, 0, 0).expect("int buffer");
    let out = buffer::<i32>(&fin, 1, 0).expect("int buffer");
    for g in 0..1024 {
        assert_eq!(out[g ^ 31], input[g]);
    }
}

#[test]
fn saxpy_and_float_ops_match_hand_computed_values() {
    let k = kernel("saxpy");
    let mut args = k.launch.materialize();
    buffer_mut::<f32>(&mut args, 2, 1).expect("x")[0] = 2.0;
    buffer_mut::<f32>(&mut args, 3, 1).expect("y")[0] = 0.75;
    k.run_reference(&k.launch.dims, &mut args).expect("saxpy");
    assert_eq!(f32s(&args, 3)[0], 1.5 * 2.0 + 0.75);

    let k = kernel("float_ops");
    let mut args = k.launch.materialize();
    buffer_mut::<f32>(&mut args, 0, 1).expect("a")[0] = -2.5;
    buffer_mut::<f32>(&mut args, 1, 1).expect("b")[0] = 1.25;
    k.run_reference(&k.launch.dims, &mut args)
        .expect("float_ops");
    assert_eq!(
        f32s(&args, 2)[..8],
        [-1.25, -3.75, -3.125, 2.5, -10.0, -2.5, 1.25, -250.0]
    );
    assert_eq!(buffer::<i32>(&args, 3, 1).expect("iout")[0], 1250);
}

#[test]
fn bad_argument_lists_and_launches_are_errors_not_panics() {
    let k = kernel("histogram");
    let mut args = k.launch.materialize();
    args.pop();
    assert!(matches!(
        k.run_reference(&k.launch.dims, &mut args),
        Err(CorpusError::ArgCount { .. })
    ));

    let mut args = k.launch.materialize();
    args[2] = ArgValue::Scalar(ScalarValue::F32(1.0));
    assert!(matches!(
        k.run_reference(&k.launch.dims, &mut args),
        Err(CorpusError::ArgKind { index: 2, .. })
    ));

    let mut args = k.launch.materialize();
    args[3] = ArgValue::Scalar(ScalarValue::U32(0));
    let err = k
        .run_reference(&k.launch.dims, &mut args)
        .expect_err("nbins 0");
    assert!(err.to_string().contains("nbins"), "{err}");

    let mut args = k.launch.materialize();
    args[0] = ArgValue::Buffer(BufferData::U32(vec![1; 10]));
    assert!(matches!(
        k.run_reference(&k.launch.dims, &mut args),
        Err(CorpusError::BufferTooShort {
            index: 0,
            needed: 4096,
            len: 10
        })
    ));

    let mut args = k.launch.materialize();
    let ragged = Dims {
        grid: [4000, 1, 1],
        local: [256, 1, 1],
    };
    assert!(matches!(
        k.run_reference(&ragged, &mut args),
        Err(CorpusError::BadLaunch { .. })
    ));

    let t = kernel("matmul_tiled");
    let mut args = t.launch.materialize();
    let wrong = Dims {
        grid: [64, 64, 1],
        local: [64, 4, 1],
    };
    assert!(matches!(
        t.run_reference(&wrong, &mut args),
        Err(CorpusError::BadLaunch { .. })
    ));

    let g = kernel("gather_scatter");
    let mut args = g.launch.materialize();
    buffer_mut::<u32>(&mut args, 2, 1).expect("dst")[0] = 1 << 20;
    assert!(matches!(
        g.run_reference(&g.launch.dims, &mut args),
        Err(CorpusError::BadLaunch { .. })
    ));
}

#[test]
fn seeded_inits_are_deterministic_in_range_and_seed_dependent() {
    let a = Init::Int {
        seed: 1,
        lo: -5,
        hi: 5,
    }
    .generate(corpus::ElemType::I32, 1000);
    let BufferData::I32(v) = &a else {
        panic!("i32")
    };
    assert!(v.iter().all(|x| (-5..=5).contains(x)));
    assert!(v.contains(&-5) && v.contains(&5));
    assert_eq!(
        a,
        Init::Int {
            seed: 1,
            lo: -5,
            hi: 5
        }
        .generate(corpus::ElemType::I32, 1000)
    );
    assert_ne!(
        a,
        Init::Int {
            seed: 2,
            lo: -5,
            hi: 5
        }
        .generate(corpus::ElemType::I32, 1000)
    );
    let p = Init::Permutation { seed: 9 }.generate(corpus::ElemType::U32, 100);
    let BufferData::U32(mut p) = p else {
        panic!("u32")
    };
    assert_ne!(p, (0..100).collect::<Vec<u32>>());
    p.sort_unstable();
    assert_eq!(p, (0..100).collect::<Vec<u32>>());
    let f = Init::Fill(0x3f80_0000).generate(corpus::ElemType::F32, 3);
    assert_eq!(f, BufferData::F32(vec![1.0; 3]));
    let i = Init::Iota {
        start: 250,
        step: 3,
    }
    .generate(corpus::ElemType::U8, 3);
    assert_eq!(i, BufferData::U8(vec![250, 253, 0]));
}

#[test]
fn float_data_never_touches_subnormals() {
    // gfx803 and gfx1030 kernels may run with different f32 denormal modes;
    // exact float comparisons are only meaningful if no input or expected
    // output is subnormal.
    for k in all() {
        let (initial, fin) = (
            k.launch.materialize(),
            k.expected().expect("reference runs"),
        );
        for (i, spec) in k.launch.args.iter().enumerate() {
            let ArgSpec::Buffer(b) = spec else { continue };
            if b.elem != corpus::ElemType::F32 {
                continue;
            }
            for values in [&initial, &fin] {
                let v = f32s(values, i);
                assert!(
                    v.iter().all(|x| !x.is_subnormal()),
                    "{} {}: subnormal value",
                    k.name,
                    b.name
                );
            }
        }
    }
}
