//! Loop code quality (docs/compiler-eval.md §3, "Back-end work (second
//! session)"): loop-carried values coalesced with their back-edge values
//! (no copy per iteration), uniform loop tests branching on SCC, and the
//! parallel copies that remain sequentialised without a temporary per
//! value. Each shape is checked on its listing (these checks fail without
//! the optimisation) and run on the golden GPU against a Rust evaluation
//! in wave32 and wave64, with per-lane trip counts where the loop diverges.

mod backend_support;
use backend_support::{build_kernel as build, run, TestArg};

/// The instructions of each loop (from the target of a backward
/// `s_branch` to the branch), innermost loops first as they end first.
fn loop_bodies(k: &compiler::backend::CompiledKernel) -> Vec<Vec<String>> {
    let mut loops = Vec::new();
    for (at, i) in &k.instructions {
        let text = i.to_string();
        let Some(imm) = text.strip_prefix("s_branch ") else {
            continue;
        };
        let simm = imm.trim().parse::<u32>().expect("s_branch offset") as u16 as i16;
        if simm >= 0 {
            continue;
        }
        let head = (*at as i64 + 4 + i64::from(simm) * 4) as u32;
        loops.push(
            k.instructions
                .iter()
                .filter(|(o, _)| *o >= head && o <= at)
                .map(|(_, i)| i.to_string())
                .collect(),
        );
    }
    loops
}

fn moves(body: &[String]) -> Vec<&String> {
    body.iter()
        .filter(|t| t.starts_with("s_mov_b32") || t.starts_with("v_mov_b32"))
        .collect()
}

const CHAIN: &str = "__kernel void k(__global const uint *seed, __global uint *out,
                     __global const uint *trips, __global const uint *gptr,
                     uint a, uint b, uint n) {
  uint gid = get_global_id(0);
  uint x = seed[gid];
  for (uint s = 0; s < n; ++s)
    x = (x ^ a) + b;
  out[gid] = x + trips[0] + gptr[0];
}";

fn chain_ref(seed: u32, a: u32, b: u32, n: u32) -> u32 {
    (0..n).fold(seed, |x, _| (x ^ a).wrapping_add(b))
}

/// `x = (x ^ a) + b` with a uniform trip count: the loop is the compare,
/// the branch out, the two operations, the counter increment and the back
/// edge — no copy of `x`, of the counter or of the values live across the
/// loop (the kernel arguments), and no `s_cselect`/`s_cmp_lg` on the test.
#[test]
fn uniform_loop_carries_values_without_copies() {
    for wave64 in [false, true] {
        let k = build(CHAIN, wave64);
        let l = k.listing();
        let loops = loop_bodies(&k);
        assert_eq!(loops.len(), 1, "{l}");
        let body = &loops[0];
        assert!(moves(body).is_empty(), "copies in the loop:\n{l}");
        assert!(
            !body
                .iter()
                .any(|t| t.starts_with("s_cselect") || t.starts_with("s_cmp_lg")),
            "the loop test goes through a 0/1 SGPR:\n{l}"
        );
        assert!(body[0].starts_with("s_cmp_lt_u32"), "{l}");
        assert!(body[1].starts_with("s_cbranch_scc0"), "{l}");
        assert!(
            body.len() <= 7,
            "{} instructions in the loop:\n{l}",
            body.len()
        );
        let seeds: Vec<u32> = (0..64)
            .map(|i| i * 0x9e37_79b9u32.wrapping_add(i))
            .collect();
        for n in [0, 1, 5] {
            let (a, b) = (0x1234_5678, 0x0bad_f00d);
            let out = run(
                &k,
                64,
                32,
                &[
                    TestArg::Buf(seeds.clone()),
                    TestArg::Buf(vec![0; 64]),
                    TestArg::Buf(vec![7]),
                    TestArg::Buf(vec![100]),
                    TestArg::U32(a),
                    TestArg::U32(b),
                    TestArg::U32(n),
                ],
            )
            .unwrap();
            let want: Vec<u32> = seeds
                .iter()
                .map(|&s| chain_ref(s, a, b, n).wrapping_add(107))
                .collect();
            assert_eq!(out[1], want, "wave64={wave64} n={n}\n{l}");
        }
    }
}

/// A divergent loop (per-lane trip counts) whose carried values are also
/// read after the loop, and whose exit test sits after the value that
/// becomes `x` is computed: the lanes that leave must keep `x`, not
/// `x + i` — the case the coalescing must refuse (an exit between the
/// back-edge value's definition and the back edge).
const DIVERGENT: &str = "__kernel void k(__global const uint *trips, __global uint *out) {
  uint gid = get_global_id(0);
  uint x = gid;
  uint i = 0;
  uint y = 0;
  while (1) {
    y = x * 3u + i;
    if (i >= trips[gid]) break;
    x = y;
    i++;
  }
  out[gid] = x + (y << 8) + (i << 20);
}";

fn divergent_ref(gid: u32, trips: u32) -> u32 {
    let (mut x, mut i) = (gid, 0u32);
    let y;
    loop {
        let t = x.wrapping_mul(3).wrapping_add(i);
        if i >= trips {
            y = t;
            break;
        }
        x = t;
        i += 1;
    }
    x.wrapping_add(y << 8).wrapping_add(i << 20)
}

#[test]
fn divergent_loop_exit_after_the_carried_value_is_exact() {
    let trips: Vec<u32> = (0..64).map(|i| (i * 7) % 5).collect();
    for wave64 in [false, true] {
        let k = build(DIVERGENT, wave64);
        let l = k.listing();
        let out = run(
            &k,
            64,
            64,
            &[TestArg::Buf(trips.clone()), TestArg::Buf(vec![0; 64])],
        )
        .unwrap();
        let want: Vec<u32> = (0..64)
            .map(|g| divergent_ref(g, trips[g as usize]))
            .collect();
        assert_eq!(out[1], want, "wave64={wave64}\n{l}");
    }
}

/// Two values swapped every iteration (`t = a; a = b; b = t + 1`): the back
/// edge's parallel copy is a cycle; it needs one temporary, not one per value.
const SWAP: &str = "__kernel void k(__global const uint *trips, __global uint *out) {
  uint gid = get_global_id(0);
  uint a = gid;
  uint b = gid * 100u;
  for (uint s = 0; s < trips[gid]; ++s) {
    uint t = a;
    a = b;
    b = t;
  }
  out[gid] = a * 1000u + b;
}";

#[test]
fn swapping_loop_values_is_exact() {
    let trips: Vec<u32> = (0..64).map(|i| i % 4).collect();
    for wave64 in [false, true] {
        let k = build(SWAP, wave64);
        let l = k.listing();
        let loops = loop_bodies(&k);
        assert_eq!(loops.len(), 1, "{l}");
        let vmoves = moves(&loops[0])
            .into_iter()
            .filter(|t| t.starts_with("v_mov"))
            .count();
        assert!(vmoves <= 3, "{vmoves} v_mov per iteration for a swap:\n{l}");
        let out = run(
            &k,
            64,
            32,
            &[TestArg::Buf(trips.clone()), TestArg::Buf(vec![0; 64])],
        )
        .unwrap();
        let want: Vec<u32> = (0..64u32)
            .map(|g| {
                let (mut a, mut b) = (g, g * 100);
                for _ in 0..trips[g as usize] {
                    std::mem::swap(&mut a, &mut b);
                }
                a.wrapping_mul(1000).wrapping_add(b)
            })
            .collect();
        assert_eq!(out[1], want, "wave64={wave64}\n{l}");
    }
}

/// Nested loops with a divergent inner trip count and an accumulator
/// carried through both: the outer loop's values stay live across the
/// inner one, which must not take their registers.
const NESTED: &str = "__kernel void k(__global const uint *trips, __global uint *out, uint m) {
  uint gid = get_global_id(0);
  uint acc = gid;
  for (uint j = 0; j < m; ++j) {
    uint inner = acc;
    for (uint i = 0; i < trips[gid]; ++i)
      inner = inner * 5u + j;
    acc = inner ^ j;
  }
  out[gid] = acc;
}";

#[test]
fn nested_loops_with_carried_values_are_exact() {
    let trips: Vec<u32> = (0..64).map(|i| (i * 3) % 4).collect();
    for wave64 in [false, true] {
        let k = build(NESTED, wave64);
        let l = k.listing();
        for m in [0u32, 1, 3] {
            let out = run(
                &k,
                64,
                32,
                &[
                    TestArg::Buf(trips.clone()),
                    TestArg::Buf(vec![0; 64]),
                    TestArg::U32(m),
                ],
            )
            .unwrap();
            let want: Vec<u32> = (0..64u32)
                .map(|g| {
                    let mut acc = g;
                    for j in 0..m {
                        let mut inner = acc;
                        for _ in 0..trips[g as usize] {
                            inner = inner.wrapping_mul(5).wrapping_add(j);
                        }
                        acc = inner ^ j;
                    }
                    acc
                })
                .collect();
            assert_eq!(out[1], want, "wave64={wave64} m={m}\n{l}");
        }
    }
}
