//! Work-group functions (OpenCL 2.0 §6.13.15; `lib/workgroup.cl`): every
//! signature compiled (wave32 and wave64), and run on the golden GPU for
//! `int uint long ulong float half`, wave32 and wave64, with work-groups of one
//! wave, of several waves with a partial last wave, of 1024 work-items, and
//! a partial last work-group, against a CPU reference. Where clang-19 and
//! ROCm's device libraries are installed, clang's object of the same source
//! runs too and must give the same results (skipped with a message
//! otherwise; `GPUSIM_REQUIRE_ROCM=1` makes that a failure). Broadcasts in
//! two and three dimensions run on their own kernel.
//!
//! `cargo test --release -p compiler --test builtins_workgroup`

mod backend_support;
mod group_support;
use backend_support::{build_kernel, clang_rocm_object, run_elf_dims, TestArg};
use compiler::backend::code_object;
use group_support::{pragma, unwords, words, Ty, TYPES};
use sw::driver::LaunchDims;

/// Value outputs per work-item: reduce, inclusive, exclusive for add, min,
/// max, then two broadcasts.
const VALS: usize = 11;
/// `int` outputs per work-item: all, any (twice), a reduction called twice
/// in a row (scratch reuse).
const QS: usize = 4;

fn source(t: Ty) -> String {
    let pragma = pragma(t);
    let t = t.name();
    format!(
        "{pragma}__kernel void k(__global const {t} *x, __global {t} *o, __global int *q) {{
  size_t g = get_global_id(0);
  {t} v = x[g];
  __global {t} *r = o + g * {VALS};
  r[0] = work_group_reduce_add(v);
  r[1] = work_group_scan_inclusive_add(v);
  r[2] = work_group_scan_exclusive_add(v);
  r[3] = work_group_reduce_min(v);
  r[4] = work_group_scan_inclusive_min(v);
  r[5] = work_group_scan_exclusive_min(v);
  r[6] = work_group_reduce_max(v);
  r[7] = work_group_scan_inclusive_max(v);
  r[8] = work_group_scan_exclusive_max(v);
  r[9] = work_group_broadcast(v, 0);
  r[10] = work_group_broadcast(v, get_local_size(0) - 1);
  __global int *p = q + g * {QS};
  p[0] = work_group_all(v != ({t})3);
  p[1] = work_group_any(v == x[g - get_local_id(0)]) + 2 * work_group_any(get_local_id(0) == 5000);
  p[2] = work_group_any(get_local_id(0) == get_local_size(0) - 1);
  p[3] = (int)work_group_reduce_max(get_local_id(0)) + (int)work_group_reduce_min((uint)get_local_id(0) + 7u);
}}"
    )
}

/// The CPU reference: (values as bits, int outputs).
fn reference(t: Ty, x: &[u64], grid: u32, wg: u32) -> (Vec<u64>, Vec<u32>) {
    let mut vals = vec![0u64; grid as usize * VALS];
    let mut qs = vec![0u32; grid as usize * QS];
    for g in 0..grid {
        let (group, l) = (g / wg, g % wg);
        let first = group * wg;
        let size = wg.min(grid - first);
        let members: Vec<u64> = (first..first + size).map(|i| x[i as usize]).collect();
        let r = &mut vals[g as usize * VALS..][..VALS];
        for op in 0..3 {
            // In order from the identity: exact for the integer inputs and
            // the small-integer floats whatever the order.
            let fold = |s: &[u64]| s.iter().fold(t.identity(op), |a, &b| t.op(op, a, b));
            r[op * 3] = fold(&members);
            r[op * 3 + 1] = fold(&members[..=l as usize]);
            r[op * 3 + 2] = fold(&members[..l as usize]);
        }
        r[9] = members[0];
        r[10] = members[size as usize - 1];
        let p = &mut qs[g as usize * QS..][..QS];
        let three = t.three();
        p[0] = members.iter().all(|&m| m != three) as u32;
        p[1] = 1;
        p[2] = 1;
        p[3] = size - 1 + 7;
    }
    (vals, qs)
}

#[test]
fn work_group_functions_match_a_cpu_reference_and_clang() {
    let require = std::env::var("GPUSIM_REQUIRE_ROCM").is_ok_and(|v| v == "1");
    let mut clang_runs = 0;
    for t in TYPES {
        let src = source(t);
        for wave64 in [false, true] {
            let k = build_kernel(&src, wave64);
            let ours = code_object(std::slice::from_ref(&k)).expect("a code object");
            let clang = clang_rocm_object(&src, wave64, &format!("wg_{}_{wave64}", t.name()));
            if let Err(e) = &clang {
                assert!(!require, "GPUSIM_REQUIRE_ROCM=1: {e}");
                eprintln!("note: clang comparison skipped: {e}");
            }
            // (work-group, grid): one wave, partial last waves, a group
            // smaller than a wave, 1024 work-items, a partial last group.
            for (wg, grid) in [
                (32u32, 64u32),
                (64, 128),
                (48, 96),
                (100, 300),
                (20, 40),
                (1024, 2048),
                (256, 600),
                (96, 200),
            ] {
                let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ (wg as u64) << 8 ^ t.words() as u64;
                let x: Vec<u64> = (0..grid)
                    .map(|i| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        t.input(i, seed)
                    })
                    .collect();
                let args = [
                    TestArg::Buf(words(t, &x)),
                    TestArg::Buf(vec![0; grid as usize * VALS * t.words()]),
                    TestArg::Buf(vec![0; grid as usize * QS]),
                ];
                let what = format!("{} wave64={wave64} work-group {wg} grid {grid}", t.name());
                let dims = LaunchDims::linear(grid, wg);
                let out =
                    run_elf_dims(&ours, "k", dims, &args).unwrap_or_else(|e| panic!("{what}: {e}"));
                let (want_v, want_q) = reference(t, &x, grid, wg);
                let got_v = unwords(t, &out[1]);
                for g in 0..grid as usize {
                    assert_eq!(
                        got_v[g * VALS..][..VALS],
                        want_v[g * VALS..][..VALS],
                        "{what}: values of work-item {g} (reduce/incl/excl add, min, max; broadcasts)"
                    );
                    assert_eq!(
                        out[2][g * QS..][..QS],
                        want_q[g * QS..][..QS],
                        "{what}: all, any, any, reduce twice of work-item {g}"
                    );
                }
                // clang's kernels allow at most 256 work-items by default
                // (amdgpu-flat-work-group-size).
                if let (Ok(elf), true) = (&clang, wg <= 256) {
                    let theirs = run_elf_dims(elf, "k", dims, &args)
                        .unwrap_or_else(|e| panic!("{what}, clang's object: {e}"));
                    assert_eq!(
                        theirs[1], out[1],
                        "{what}: clang's object gives other values"
                    );
                    assert_eq!(
                        theirs[2], out[2],
                        "{what}: clang's object gives other predicates"
                    );
                    clang_runs += 1;
                }
            }
        }
    }
    eprintln!("{clang_runs} runs compared with clang-19 + ROCm device libraries");
}

const BROADCAST: &str = "
__kernel void k(__global uint *o) {
  size_t slot = (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0)
                + get_global_id(0);
  uint me = (uint)slot * 7u + 1u;
  o[slot * 4 + 0] = work_group_broadcast(me, 1 % get_local_size(0), 2 % get_local_size(1), 1 % get_local_size(2));
  o[slot * 4 + 1] = work_group_broadcast(me, 0, 0, 0);
  o[slot * 4 + 2] = (uint)work_group_broadcast((ulong)me << 20, get_local_size(0) - 1, get_local_size(1) - 1, get_local_size(2) - 1);
  o[slot * 4 + 3] = (uint)work_group_broadcast((float)me, 1 % get_local_size(0), 1 % get_local_size(1));
}
";

/// `work_group_broadcast` with two and three local ids, uniform and
/// partial groups, against the value the work-item at those ids holds.
#[test]
fn work_group_broadcast_in_two_and_three_dimensions() {
    let require = std::env::var("GPUSIM_REQUIRE_ROCM").is_ok_and(|v| v == "1");
    let mut clang_runs = 0;
    for wave64 in [false, true] {
        let k = build_kernel(BROADCAST, wave64);
        let ours = code_object(std::slice::from_ref(&k)).expect("a code object");
        let clang = clang_rocm_object(BROADCAST, wave64, &format!("wgb{wave64}"));
        if let Err(e) = &clang {
            assert!(!require, "GPUSIM_REQUIRE_ROCM=1: {e}");
            eprintln!("note: clang comparison skipped: {e}");
        }
        for (grid, workgroup) in [
            ([8, 6, 4], [4, 3, 2]),
            ([16, 12, 4], [8, 4, 4]),
            ([10, 7, 4], [4, 3, 2]),
            ([4, 16, 2], [2, 16, 2]),
            ([16, 12, 1], [8, 4, 1]),
            ([18, 14, 1], [8, 8, 1]),
        ] {
            let dims = LaunchDims { grid, workgroup };
            let n = (grid[0] * grid[1] * grid[2]) as usize;
            let args = [TestArg::Buf(vec![0; n * 4])];
            let what = format!("wave64={wave64} grid {grid:?} work-group {workgroup:?}");
            let got =
                run_elf_dims(&ours, "k", dims, &args).unwrap_or_else(|e| panic!("{what}: {e}"));
            let me = |x: u32, y: u32, z: u32| ((z * grid[1] + y) * grid[0] + x) * 7 + 1;
            for z in 0..grid[2] {
                for y in 0..grid[1] {
                    for x in 0..grid[0] {
                        let base = [
                            x / workgroup[0] * workgroup[0],
                            y / workgroup[1] * workgroup[1],
                            z / workgroup[2] * workgroup[2],
                        ];
                        let size: Vec<u32> = (0..3)
                            .map(|d| workgroup[d].min(grid[d] - base[d]))
                            .collect();
                        let at = |dx: u32, dy: u32, dz: u32| {
                            me(base[0] + dx, base[1] + dy, base[2] + dz)
                        };
                        let want = [
                            at(1 % size[0], 2 % size[1], 1 % size[2]),
                            at(0, 0, 0),
                            at(size[0] - 1, size[1] - 1, size[2] - 1) << 20,
                            (at(1 % size[0], 1 % size[1], 0) as f32).to_bits(),
                        ];
                        let slot = ((z * grid[1] + y) * grid[0] + x) as usize;
                        // The float broadcast is read back as its value converted to uint.
                        let got_w = &got[0][slot * 4..][..4];
                        assert_eq!(got_w[..3], want[..3], "{what}: work-item ({x}, {y}, {z})");
                        assert_eq!(
                            got_w[3],
                            f32::from_bits(want[3]) as u32,
                            "{what}: float broadcast at ({x}, {y}, {z})"
                        );
                    }
                }
            }
            if let Ok(elf) = &clang {
                let theirs = run_elf_dims(elf, "k", dims, &args)
                    .unwrap_or_else(|e| panic!("{what}, clang's object: {e}"));
                // The two-id form in a 3-D launch (word 3) is left out
                // there: ockl does not read it as (x, y, 0).
                for i in 0..n * 4 {
                    if grid[2] > 1 && i % 4 == 3 {
                        continue;
                    }
                    assert_eq!(
                        theirs[0][i], got[0][i],
                        "{what}: clang's object differs at word {i}"
                    );
                }
                clang_runs += 1;
            }
        }
    }
    eprintln!("{clang_runs} broadcast runs compared with clang-19 + ROCm device libraries");
}

/// Every signature compiles in wave32 and wave64; wrong operand types are
/// refused with the OpenCL call named.
#[test]
fn every_work_group_signature_compiles_and_wrong_ones_are_refused() {
    let ops = [
        "work_group_reduce_add",
        "work_group_reduce_min",
        "work_group_reduce_max",
        "work_group_scan_inclusive_add",
        "work_group_scan_inclusive_min",
        "work_group_scan_inclusive_max",
        "work_group_scan_exclusive_add",
        "work_group_scan_exclusive_min",
        "work_group_scan_exclusive_max",
    ];
    for wave64 in [false, true] {
        for t in TYPES {
            let pragma = pragma(t);
            let t = t.name();
            let mut body = String::new();
            for op in ops {
                body.push_str(&format!("  o[0] += {op}(v);\n"));
            }
            body.push_str("  o[0] += work_group_broadcast(v, 3u) + work_group_broadcast(v, 1, 2) + work_group_broadcast(v, 1, 0, 1);\n");
            let src = format!(
                "{pragma}__kernel void k(__global {t} *o, __global int *q) {{\n  {t} v = o[get_global_id(0)];\n{body}  q[0] = work_group_all(1) + work_group_any(0);\n}}"
            );
            build_kernel(&src, wave64);
        }
    }
    for (call, msg) in [
        ("work_group_reduce_add((int2)(1))", "no matching overload"),
        ("work_group_reduce_add((char)1)", "no matching overload"),
        ("work_group_broadcast(1.0f, 0.5f)", "no matching overload"),
        (
            "work_group_broadcast(1.0f, 1, 2, 3, 4)",
            "work_group_broadcast",
        ),
        (
            "work_group_reduce_add((half2)(1.0f))",
            "no matching overload",
        ),
    ] {
        let src = format!("__kernel void k(__global float *o) {{ o[0] = {call}; }}");
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

/// Cycles on the cycle model (one CU) of kernels that call one work-group
/// function per work-item, gpusim's object against clang-19 + ROCm's on
/// the same inputs (which must give the same output): printed for
/// docs/performance.md; skipped without clang.
#[test]
fn work_group_function_cycles_against_clang() {
    use backend_support::run_elf_dims_on;
    use hw::{ClockedGpu, GpuConfig};
    let (grid, wg) = (4096u32, 256u32);
    let x: Vec<u32> = (0..grid)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 7)
        .collect();
    for (name, call) in [
        ("reduce_add", "work_group_reduce_add(x[g])"),
        ("scan_inclusive_add", "work_group_scan_inclusive_add(x[g])"),
        ("scan_exclusive_max", "work_group_scan_exclusive_max(x[g])"),
        ("broadcast", "work_group_broadcast(x[g], 5)"),
        ("all", "(uint)work_group_all(x[g] != 7u)"),
    ] {
        let src = format!(
            "__kernel void k(__global const uint *x, __global uint *o) {{\n  size_t g = get_global_id(0);\n  o[g] = {call};\n}}"
        );
        for wave64 in [false, true] {
            let k = build_kernel(&src, wave64);
            let ours = code_object(std::slice::from_ref(&k)).expect("a code object");
            let Ok(theirs) = clang_rocm_object(&src, wave64, &format!("wgc_{name}_{wave64}"))
            else {
                eprintln!("note: clang-19 + ROCm not available: cycles not compared");
                return;
            };
            let args = [
                TestArg::Buf(x.clone()),
                TestArg::Buf(vec![0; grid as usize]),
            ];
            let dims = LaunchDims::linear(grid, wg);
            let mut row = Vec::new();
            let mut outs = Vec::new();
            for elf in [&ours, &theirs] {
                let gpu = ClockedGpu::new(GpuConfig::one_cu()).expect("a cycle model");
                let (out, d) = run_elf_dims_on(gpu, elf, "k", dims, &args).expect("runs");
                let stats = d.device().stats();
                row.push(stats.dispatches.last().map_or(stats.cycles, |s| s.cycles));
                outs.push(out);
            }
            assert_eq!(outs[0], outs[1], "{name} wave64={wave64}: outputs differ");
            println!(
                "work_group_{name:<20} wave{:<3} gpusim {:>7} clang {:>7} ratio {:.2}",
                if wave64 { 64 } else { 32 },
                row[0],
                row[1],
                row[0] as f64 / row[1] as f64
            );
        }
    }
}
