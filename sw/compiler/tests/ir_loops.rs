//! The loop passes of `-O` (`ir/opt/params.rs`, `ir/opt/unroll.rs`,
//! `ir/opt/licm.rs`) and the counted-loop recogniser they share
//! (`ir/counted_loop.rs`): what each does to the IR of a small kernel, and the
//! kernels' results on the golden GPU, wave32 and wave64, against a Rust
//! evaluation — with uniform and per-lane (divergent) trip counts.

use compiler::ir::cfg::Cfg;
use compiler::ir::opt::{self, params, unroll};
use compiler::ir::{counted_loop, print, BinaryOp, Function, InstKind, IntCC};

mod backend_support;
use backend_support::{build, run, TestArg};

/// The lowered IR of the one kernel in `src`, in the form `-O` starts from
/// (one exit, one latch per loop).
fn lowered(src: &str) -> Function {
    let mut f = build(src, false).ir.remove(0);
    opt::unify_returns(&mut f);
    opt::unify_latches(&mut f);
    opt::dce(&mut f);
    f
}

/// `lowered` after the whole `-O` pipeline, verified.
fn optimized(src: &str) -> Function {
    let mut f = lowered(src);
    opt::optimize(&mut f);
    compiler::ir::verify(&f).unwrap_or_else(|e| panic!("{e}\n{}", print(&f)));
    f
}

fn loop_count(f: &Function) -> usize {
    Cfg::new(f).back_edges.len()
}

fn count_insts(f: &Function, pred: impl Fn(&InstKind) -> bool) -> usize {
    f.blocks()
        .iter()
        .flat_map(|&b| f.block(b).insts.clone())
        .filter(|&i| pred(&f.inst(i).kind))
        .count()
}

/// Runs the one kernel of `src` over `n` work-items (workgroups of 64) with
/// an input buffer, an output buffer and `extra` scalar arguments; returns
/// the output, wave32 and wave64 results both checked against `want`.
fn check_on_gpu(src: &str, input: &[u32], extra: &[u32], want: &[u32]) {
    for wave64 in [false, true] {
        let c = build(src, wave64);
        let mut args = vec![
            TestArg::Buf(input.to_vec()),
            TestArg::Buf(vec![0; want.len()]),
        ];
        args.extend(extra.iter().map(|&x| TestArg::U32(x)));
        let out = run(&c.kernels[0], want.len() as u32, 64, &args)
            .unwrap_or_else(|e| panic!("wave64={wave64}: {e}\n{}", c.kernels[0].listing()));
        for (i, (&got, &w)) in out[1].iter().zip(want).enumerate() {
            assert_eq!(
                got,
                w,
                "wave64={wave64} work-item {i} extra {extra:?}\n{}",
                c.kernels[0].listing()
            );
        }
    }
}

const CHAIN: &str = "__kernel void k(__global const uint *in, __global uint *out,
                                     uint a, uint b, uint n) {
  uint gid = get_global_id(0);
  uint x = in[gid];
  for (uint s = 0; s < n; ++s)
    x = (x ^ a) + b;
  out[gid] = x;
}";

#[test]
fn invariant_values_are_not_loop_parameters() {
    let mut f = lowered(CHAIN);
    let cfg = Cfg::new(&f);
    let &(_, header) = cfg.back_edges.first().expect("a loop");
    // The lowering passes every variable in scope (in, out, a, b, n, gid, x, s).
    assert!(f.block(header).params.len() >= 8, "{}", print(&f));
    let removed = params::remove_redundant_params(&mut f);
    compiler::ir::verify(&f).unwrap();
    // Only x and s change in the loop.
    assert_eq!(f.block(header).params.len(), 2, "{}", print(&f));
    assert!(removed >= 6);
}

#[test]
fn a_parameter_passed_itself_around_two_loops_goes_too() {
    // `t` enters the outer loop, goes unchanged round the inner one and
    // back: each header's incoming values are `t` or its own parameter.
    let src = "__kernel void k(__global uint *out, uint n) {
  uint t = get_global_id(0);
  uint acc = 0;
  for (uint i = 0; i < n; ++i)
    for (uint j = 0; j < n; ++j)
      acc += t;
  out[t] = acc;
}";
    let mut f = lowered(src);
    params::remove_redundant_params(&mut f);
    compiler::ir::verify(&f).unwrap();
    let cfg = Cfg::new(&f);
    for &(_, h) in &cfg.back_edges {
        // acc and the counters: i and acc outside, i, j and acc inside.
        assert!(f.block(h).params.len() <= 3, "{}", print(&f));
    }
}

#[test]
fn straight_chains_of_blocks_merge() {
    let mut f = lowered(CHAIN);
    let before = f.blocks().len();
    let merged = params::merge_straight_blocks(&mut f);
    compiler::ir::verify(&f).unwrap();
    assert_eq!(f.blocks().len(), before - merged);
    assert!(merged > 0);
    let preds = f.predecessors();
    for &b in f.blocks() {
        if let Some(InstKind::Jump { dest }) = f.terminator(b) {
            assert!(
                preds[dest.block.index()].len() > 1 || dest.block == b,
                "{b} still jumps to its only successor {}:\n{}",
                dest.block,
                print(&f)
            );
        }
    }
}

#[test]
fn nested_constant_additions_fold() {
    let src = "__kernel void k(__global uint *out) {
  uint g = get_global_id(0);
  out[g] = ((g + 1) + 2) + 3;
}";
    let mut f = lowered(src);
    opt::simplify(&mut f);
    opt::dce(&mut f);
    let adds = count_insts(&f, |k| {
        matches!(
            k,
            InstKind::Binary {
                op: compiler::ir::BinaryOp::Iadd,
                ..
            }
        )
    });
    // One `+ 6`.
    assert_eq!(adds, 1, "{}", print(&f));
    assert!(print(&f).contains("iconst 6"), "{}", print(&f));
}

const SIXTEEN: &str = "__kernel void k(__global const uint *in, __global uint *out) {
  uint gid = get_global_id(0);
  uint acc = 0;
  for (uint k = 0; k < 16; k++)
    acc = acc * 3u + in[(gid + k) % 64];
  out[gid] = acc;
}";

#[test]
fn a_constant_trip_loop_unrolls_fully() {
    let f = optimized(SIXTEEN);
    assert_eq!(loop_count(&f), 0, "{}", print(&f));
    assert_eq!(
        count_insts(&f, |k| matches!(k, InstKind::Load { .. })),
        16,
        "{}",
        print(&f)
    );
    let input: Vec<u32> = (0..64).map(|i| i * 7 + 1).collect();
    let want: Vec<u32> = (0..64u32)
        .map(|g| {
            (0..16).fold(0u32, |acc, k| {
                acc.wrapping_mul(3)
                    .wrapping_add(input[((g + k) % 64) as usize])
            })
        })
        .collect();
    check_on_gpu(SIXTEEN, &input, &[], &want);
}

#[test]
fn a_loop_over_the_limit_stays_a_loop() {
    let src = SIXTEEN.replace("k < 16", "k < 17");
    let f = optimized(&src);
    assert_eq!(loop_count(&f), 1, "{}", print(&f));
}

#[test]
fn nounroll_keeps_the_loop() {
    let src = SIXTEEN.replace("  for (uint k", "  #pragma nounroll\n  for (uint k");
    let f = optimized(&src);
    assert_eq!(loop_count(&f), 1, "{}", print(&f));
}

#[test]
fn pragma_unroll_fully_unrolls_past_the_default_limit() {
    let src = SIXTEEN
        .replace("k < 16", "k < 40")
        .replace("  for (uint k", "  #pragma unroll\n  for (uint k");
    let f = optimized(&src);
    assert_eq!(loop_count(&f), 0, "{}", print(&f));
    let input: Vec<u32> = (0..64).map(|i| i * 5 + 3).collect();
    let want: Vec<u32> = (0..64u32)
        .map(|g| {
            (0..40).fold(0u32, |acc, k| {
                acc.wrapping_mul(3)
                    .wrapping_add(input[((g + k) % 64) as usize])
            })
        })
        .collect();
    check_on_gpu(&src, &input, &[], &want);
}

/// A signed induction variable from a negative start, stepping by 3.
#[test]
fn a_signed_loop_with_a_step_unrolls_fully() {
    let src = "__kernel void k(__global const uint *in, __global uint *out) {
  int gid = get_global_id(0);
  int acc = 0;
  for (int k = -7; k < 8; k += 3)
    acc = acc * 5 + k * (int)in[gid];
  out[gid] = acc;
}";
    let f = optimized(src);
    assert_eq!(loop_count(&f), 0, "{}", print(&f));
    let input: Vec<u32> = (0..64).map(|i| i * 11 + 2).collect();
    let want: Vec<u32> = (0..64usize)
        .map(|g| {
            let mut acc = 0i32;
            let mut k = -7i32;
            while k < 8 {
                acc = acc
                    .wrapping_mul(5)
                    .wrapping_add(k.wrapping_mul(input[g] as i32));
                k += 3;
            }
            acc as u32
        })
        .collect();
    check_on_gpu(src, &input, &[], &want);
}

const PRAGMA4: &str = "__kernel void k(__global const uint *in, __global uint *out,
                                       uint a, uint b, uint n) {
  uint gid = get_global_id(0);
  uint x = in[gid];
  #pragma unroll 4
  for (uint s = 0; s < n; ++s)
    x = (x ^ a) + b * s;
  out[gid] = x;
}";

fn chain(x: u32, a: u32, b: u32, n: u32) -> u32 {
    (0..n).fold(x, |x, s| (x ^ a).wrapping_add(b.wrapping_mul(s)))
}

#[test]
fn pragma_unroll_n_with_a_runtime_bound_gets_a_remainder_loop() {
    let f = optimized(PRAGMA4);
    // The unrolled loop and the remainder loop.
    assert_eq!(loop_count(&f), 2, "{}", print(&f));
    let xors = count_insts(&f, |k| {
        matches!(
            k,
            InstKind::Binary {
                op: compiler::ir::BinaryOp::Xor,
                ..
            }
        )
    });
    assert_eq!(
        xors,
        5,
        "four copies and the remainder's one:\n{}",
        print(&f)
    );
    let input: Vec<u32> = (0..64).map(|i| i * 0x9e37 + 5).collect();
    for n in [0, 1, 3, 4, 5, 8, 11] {
        let want: Vec<u32> = input.iter().map(|&x| chain(x, 0x55, 7, n)).collect();
        check_on_gpu(PRAGMA4, &input, &[0x55, 7, n], &want);
    }
}

#[test]
fn pragma_unroll_n_with_a_per_lane_bound_is_correct_in_every_lane() {
    // Each lane runs `gid % 13` iterations: lanes leave the unrolled loop
    // at different times and finish in the remainder loop under EXEC.
    let src = PRAGMA4.replace("s < n", "s < gid % n");
    let f = optimized(&src);
    assert_eq!(loop_count(&f), 2, "{}", print(&f));
    let input: Vec<u32> = (0..128).map(|i| i * 31 + 9).collect();
    let want: Vec<u32> = (0..128u32)
        .map(|g| chain(input[g as usize], 0xf0f0, 3, g % 13))
        .collect();
    check_on_gpu(&src, &input, &[0xf0f0, 3, 13], &want);
}

#[test]
fn pragma_unroll_n_with_a_signed_bound_below_the_start() {
    // A signed loop whose bound can lie below its start: no iteration, and
    // `n - i` (unsigned) must not let the unrolled loop run.
    let src =
        "__kernel void k(__global const uint *in, __global uint *out, uint a, uint b, uint n) {
  int gid = get_global_id(0);
  uint x = in[gid];
  #pragma unroll 8
  for (int s = 2; s < gid - (int)n; s += 2)
    x = (x ^ a) + b;
  out[gid] = x;
}";
    let input: Vec<u32> = (0..64).map(|i| i * 3 + 1).collect();
    let n = 40u32;
    let want: Vec<u32> = (0..64i32)
        .map(|g| {
            let mut x = input[g as usize];
            let mut s = 2i32;
            while s < g - n as i32 {
                x = (x ^ 9).wrapping_add(4);
                s += 2;
            }
            x
        })
        .collect();
    assert_eq!(loop_count(&optimized(src)), 2);
    check_on_gpu(src, &input, &[9, 4, n], &want);
}

#[test]
fn runtime_unrolling_without_a_pragma_is_a_limit() {
    // Off by default (seed 002 compares with the sequential loop); with
    // `runtime_count` a small loop gets four copies and a remainder.
    assert_eq!(loop_count(&optimized(CHAIN)), 1);
    let mut f = lowered(CHAIN);
    params::remove_redundant_params(&mut f);
    opt::licm(&mut f);
    let four = unroll::UnrollLimits {
        runtime_count: 4,
        ..Default::default()
    };
    assert_eq!(unroll::unroll_loops(&mut f, four), 1);
    compiler::ir::verify(&f).unwrap();
    assert_eq!(loop_count(&f), 2, "{}", print(&f));
}

#[test]
fn a_loop_with_a_break_is_left_alone_and_still_correct() {
    let src =
        "__kernel void k(__global const uint *in, __global uint *out, uint a, uint b, uint n) {
  uint gid = get_global_id(0);
  uint x = in[gid];
  #pragma unroll 4
  for (uint s = 0; s < n; ++s) {
    if (x > 1000000u) break;
    x = x * a + b;
  }
  out[gid] = x;
}";
    let f = optimized(src);
    assert_eq!(loop_count(&f), 1, "{}", print(&f));
    let input: Vec<u32> = (0..64).map(|i| i * 97).collect();
    let want: Vec<u32> = input
        .iter()
        .map(|&x0| {
            let mut x = x0;
            for _ in 0..9 {
                if x > 1_000_000 {
                    break;
                }
                x = x.wrapping_mul(3).wrapping_add(1);
            }
            x
        })
        .collect();
    check_on_gpu(src, &input, &[3, 1, 9], &want);
}

#[test]
fn unroll_limits_are_honoured() {
    let mut f = lowered(SIXTEEN);
    params::remove_redundant_params(&mut f);
    let tight = unroll::UnrollLimits {
        full_trips: 8,
        ..Default::default()
    };
    assert_eq!(unroll::unroll_loops(&mut f, tight), 0);
    assert_eq!(
        unroll::unroll_loops(&mut f, unroll::UnrollLimits::default()),
        1
    );
    compiler::ir::verify(&f).unwrap();
    assert_eq!(loop_count(&f), 0);
}

#[test]
fn a_loop_stepping_by_a_shift_unrolls_fully() {
    // reduce_sum's `for (stride = WG / 2; stride > 0; stride >>= 1)`, with
    // a divergent if inside.
    let src = "__kernel void k(__global const uint *in, __global uint *out) {
  uint gid = get_global_id(0);
  uint acc = in[gid];
  for (uint s = 32; s > 0; s >>= 1) {
    if (gid < s)
      acc = acc * 3u + in[(gid + s) % 64];
  }
  out[gid] = acc;
}";
    let f = optimized(src);
    assert_eq!(loop_count(&f), 0, "{}", print(&f));
    let input: Vec<u32> = (0..64).map(|i| i * 13 + 4).collect();
    let want: Vec<u32> = (0..64u32)
        .map(|g| {
            let mut acc = input[g as usize];
            let mut s = 32;
            while s > 0 {
                if g < s {
                    acc = acc
                        .wrapping_mul(3)
                        .wrapping_add(input[((g + s) % 64) as usize]);
                }
                s >>= 1;
            }
            acc
        })
        .collect();
    check_on_gpu(src, &input, &[], &want);
}

/// The shared counted-loop recogniser on loops as the lowering makes them:
/// the compare's sense and operand order normalised (`n > i` is `i < n`),
/// steps other than `+ 1`, and a loop left from its body is not counted.
#[test]
fn the_counted_loop_recogniser_reads_the_loops_the_lowering_makes() {
    let shapes = |body: &str| -> Vec<Option<(IntCC, BinaryOp, u32, bool)>> {
        let src = format!(
            "__kernel void k(__global const int *in, __global int *out, uint n, int m) {{\n\
             int s = 0;\n{body}\nout[get_global_id(0)] = s;\n}}"
        );
        let mut f = lowered(&src);
        params::remove_redundant_params(&mut f);
        let cfg = Cfg::new(&f);
        cfg.back_edges
            .iter()
            .map(|&(latch, h)| {
                counted_loop::recognise(&f, &cfg, latch, h)
                    .map(|l| (l.cc, l.step_op, l.step, l.swapped))
            })
            .collect()
    };
    assert_eq!(
        shapes("for (uint i = 0; i < n; i++) s += in[i];"),
        vec![Some((IntCC::Ult, BinaryOp::Iadd, 1, false))]
    );
    assert_eq!(
        shapes("for (int i = 0; m > i; i += 3) s += in[i];"),
        vec![Some((IntCC::Slt, BinaryOp::Iadd, 3, true))]
    );
    assert_eq!(
        shapes("for (uint k = 64; k > 0; k >>= 1) s += in[k];"),
        vec![Some((IntCC::Ugt, BinaryOp::Lshr, 1, false))]
    );
    assert_eq!(
        shapes("for (uint i = 0; i < n; i++) { if (in[i] == 0) break; s += in[i]; }"),
        vec![None],
        "a break leaves from the body"
    );
}
