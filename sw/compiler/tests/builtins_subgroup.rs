//! Sub-group functions (cl_khr_subgroups; `lib/subgroup.cl`): every
//! signature compiled (wave32 and wave64), and run on the golden GPU for
//! `int uint long ulong float half`, wave32 and wave64, with work-group sizes
//! that leave a partial last sub-group, against a CPU reference (a
//! sub-group is a wave of consecutive local linear ids). Where clang-19
//! and ROCm's device libraries are installed, clang's object of the same
//! source runs too and must give the same results (skipped with a message
//! otherwise; `GPUSIM_REQUIRE_ROCM=1` makes that a failure).
//!
//! `cargo test --release -p compiler --test builtins_subgroup`

mod backend_support;
use backend_support::{build_kernel, clang_rocm_object as clang_object, run, run_elf, TestArg};
mod group_support;
use group_support::{pragma, unwords, words, Ty, TYPES};

/// Value outputs per work-item: reduce, inclusive, exclusive for add, min,
/// max, then two broadcasts.
const VALS: usize = 11;
/// `uint` outputs per work-item.
const QS: usize = 9;

fn source(t: Ty) -> String {
    let pragma = pragma(t);
    let t = t.name();
    format!(
        "{pragma}#pragma OPENCL EXTENSION cl_khr_subgroups : enable
__kernel void k(__global const {t} *x, __global {t} *o, __global uint *q) {{
  __local uint tmp[256];
  uint g = get_global_id(0), l = get_local_id(0);
  {t} v = x[g];
  __global {t} *r = o + g * {VALS};
  r[0] = sub_group_reduce_add(v);
  r[1] = sub_group_scan_inclusive_add(v);
  r[2] = sub_group_scan_exclusive_add(v);
  r[3] = sub_group_reduce_min(v);
  r[4] = sub_group_scan_inclusive_min(v);
  r[5] = sub_group_scan_exclusive_min(v);
  r[6] = sub_group_reduce_max(v);
  r[7] = sub_group_scan_inclusive_max(v);
  r[8] = sub_group_scan_exclusive_max(v);
  r[9] = sub_group_broadcast(v, 0);
  r[10] = sub_group_broadcast(v, get_sub_group_size() - 1);
  __global uint *p = q + g * {QS};
  p[0] = get_sub_group_size();
  p[1] = get_max_sub_group_size();
  p[2] = get_num_sub_groups();
  p[3] = get_sub_group_id();
  p[4] = get_sub_group_local_id();
  p[5] = sub_group_all(v != ({t})3);
  p[6] = sub_group_any(v == x[g - get_sub_group_local_id()]) + 2 * sub_group_any(get_sub_group_local_id() == 1000);
  tmp[l] = l * 3 + 1;
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  uint base = l - get_sub_group_local_id();
  p[7] = tmp[base + (get_sub_group_local_id() + 1) % get_sub_group_size()];
  p[8] = get_enqueued_num_sub_groups();
}}"
    )
}

/// The CPU reference: (values as bits, queries).
fn reference(t: Ty, x: &[u64], grid: u32, wg: u32, wave: u32) -> (Vec<u64>, Vec<u32>) {
    let mut vals = vec![0u64; grid as usize * VALS];
    let mut qs = vec![0u32; grid as usize * QS];
    for g in 0..grid {
        let (group, l) = (g / wg, g % wg);
        let (sg, sl) = (l / wave, l % wave);
        let size = wave.min(wg - sg * wave);
        let first = group * wg + sg * wave;
        let members: Vec<u64> = (first..first + size).map(|i| x[i as usize]).collect();
        let r = &mut vals[g as usize * VALS..][..VALS];
        for op in 0..3 {
            let fold = |s: &[u64]| s.iter().fold(t.identity(op), |a, &b| t.op(op, a, b));
            r[op * 3] = fold(&members);
            r[op * 3 + 1] = fold(&members[..=sl as usize]);
            r[op * 3 + 2] = fold(&members[..sl as usize]);
        }
        r[9] = members[0];
        r[10] = members[size as usize - 1];
        let p = &mut qs[g as usize * QS..][..QS];
        p[0] = size;
        p[1] = wave.min(wg);
        p[2] = wg.div_ceil(wave);
        p[3] = sg;
        p[4] = sl;
        let three = t.three();
        p[5] = members.iter().all(|&m| m != three) as u32;
        p[6] = members.iter().any(|&m| m == members[0]) as u32;
        p[7] = (sg * wave + (sl + 1) % size) * 3 + 1;
        p[8] = wg.div_ceil(wave);
    }
    (vals, qs)
}

#[test]
fn sub_group_functions_match_a_cpu_reference_and_clang() {
    let require = std::env::var("GPUSIM_REQUIRE_ROCM").is_ok_and(|v| v == "1");
    let mut clang_runs = 0;
    for t in TYPES {
        let src = source(t);
        for wave64 in [false, true] {
            let wave = if wave64 { 64 } else { 32 };
            let k = build_kernel(&src, wave64);
            let clang = clang_object(&src, wave64, &format!("{}_{wave}", t.name()));
            if let Err(e) = &clang {
                assert!(!require, "GPUSIM_REQUIRE_ROCM=1: {e}");
                eprintln!("note: clang comparison skipped: {e}");
            }
            // A full group, partial last sub-groups, a group smaller than a wave.
            for wg in [64u32, 48, 100, 20] {
                let grid = wg * 2;
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
                let what = format!("{} wave{wave} work-group {wg}", t.name());
                let out = run(&k, grid, wg, &args).unwrap_or_else(|e| panic!("{what}: {e}"));
                let (want_v, want_q) = reference(t, &x, grid, wg, wave);
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
                        "{what}: queries of work-item {g} (size, max, num, id, local id, all, any, barrier, enqueued)"
                    );
                }
                if let Ok(elf) = &clang {
                    let theirs = run_elf(elf, "k", grid, wg, &args)
                        .unwrap_or_else(|e| panic!("{what}, clang's object: {e}"));
                    assert_eq!(
                        theirs[1], out[1],
                        "{what}: clang's object gives other values"
                    );
                    assert_eq!(
                        theirs[2], out[2],
                        "{what}: clang's object gives other queries"
                    );
                    clang_runs += 1;
                }
            }
        }
    }
    eprintln!("{clang_runs} runs compared with clang-19 + ROCm device libraries");
}

/// Every signature compiles (wave32 and wave64); the wrong types are
/// refused with the OpenCL call named, never an internal name.
#[test]
fn every_sub_group_signature_compiles_and_wrong_ones_are_refused() {
    let ops = [
        "sub_group_reduce_add",
        "sub_group_reduce_min",
        "sub_group_reduce_max",
        "sub_group_scan_inclusive_add",
        "sub_group_scan_inclusive_min",
        "sub_group_scan_inclusive_max",
        "sub_group_scan_exclusive_add",
        "sub_group_scan_exclusive_min",
        "sub_group_scan_exclusive_max",
    ];
    for wave64 in [false, true] {
        for t in TYPES {
            let pragma = pragma(t);
            let t = t.name();
            let mut body = String::new();
            for op in ops {
                body.push_str(&format!("  o[0] += {op}(v);\n"));
            }
            body.push_str("  o[0] += sub_group_broadcast(v, 3u);\n");
            let src = format!(
                "{pragma}__kernel void k(__global {t} *o, __global uint *q) {{\n  {t} v = o[get_global_id(0)];\n{body}  q[0] = get_sub_group_size() + get_max_sub_group_size() + get_num_sub_groups() + get_enqueued_num_sub_groups() + get_sub_group_id() + get_sub_group_local_id() + sub_group_all(1) + sub_group_any(0);\n  sub_group_barrier(CLK_GLOBAL_MEM_FENCE);\n  sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group);\n}}"
            );
            build_kernel(&src, wave64);
        }
    }
    for (call, msg) in [
        ("sub_group_reduce_add((int2)(1))", "no matching overload"),
        ("sub_group_reduce_add((char)1)", "no matching overload"),
        ("sub_group_broadcast(1.0f, 0.5f)", "no matching overload"),
        (
            "sub_group_reduce_add((half2)(1.0f))",
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
