//! `switch` and `readfirstlane`/`readlane` compiled for wave32 and wave64 and run on the golden GPU
//! against the same program evaluated in Rust: case and default labels,
//! fall-through, `break` nested in an `if`, a switch inside a loop (its
//! `break` leaves the switch, not the loop), a loop inside a switch, 64-bit
//! and negative case values, uniform selectors (scalar branches) and
//! divergent ones (EXEC-masked segments), and helpers whose every case
//! returns.
//!
//! `cargo test --release -p compiler --test lower_control`

mod backend_support;
use backend_support::{build, run, TestArg};

const N: u32 = 128;

/// Runs the one kernel of `src` (arguments `in`, `out`, `k`) on every
/// `input` and checks `out` against `want(in, k)`.
fn check(src: &str, input: &[u32], k: u32, want: impl Fn(u32, u32) -> u32) -> [String; 2] {
    let mut listings = [String::new(), String::new()];
    for (w, wave64) in [false, true].into_iter().enumerate() {
        let c = build(src, wave64);
        let out = run(
            &c.kernels[0],
            N,
            64,
            &[
                TestArg::Buf(input.to_vec()),
                TestArg::Buf(vec![0xdead_beef; N as usize]),
                TestArg::U32(k),
            ],
        )
        .unwrap_or_else(|e| panic!("wave64={wave64}: {e}"));
        for (i, &x) in input.iter().enumerate() {
            assert_eq!(
                out[1][i],
                want(x, k),
                "wave64={wave64} lane {i} in={x} k={k}\n{}",
                c.kernels[0].listing()
            );
        }
        listings[w] = c.kernels[0].listing();
    }
    listings
}

fn inputs() -> Vec<u32> {
    // Every case value, neighbours, negatives and large values, mixed so
    // each wave sees several selectors (divergent).
    (0..N)
        .map(|i| match i % 11 {
            10 => (i as i32 * -3) as u32,
            9 => 0xffff_fff0 + i % 16,
            _ => i % 9,
        })
        .collect()
}

/// Cases with fall-through, a default in the middle, a `break` inside an
/// `if`, and a negative case value.
const FALLTHROUGH: &str = "
__kernel void k(__global const int *in, __global int *out, int k) {
  int i = get_global_id(0);
  int x = in[i];
  int r = 100;
  switch (x) {
  case 0:
    r = 1;
    break;
  case 1:
    r = 2;           /* falls into case 2 */
  case 2:
    r += 10;
    break;
  case 3:
  case 4:
    r = x * 7;
    if (x == 4)
      break;
    r += 1000;       /* only case 3 */
  default:
    r += 5;          /* default falls into case 6 */
  case 6:
    r = r * 2;
    break;
  case -6:
    r = -1;
  }
  out[i] = r + k;
}";

fn fallthrough_ref(x: u32, k: u32) -> u32 {
    let x = x as i32;
    let mut r = 100i32;
    let mut fall = false;
    // The Rust mirror of FALLTHROUGH, segment by segment.
    if x == 0 {
        r = 1;
    } else if x == 1 || x == 2 {
        if x == 1 {
            r = 2;
        }
        r += 10;
    } else if x == 3 || x == 4 {
        r = x * 7;
        if x != 4 {
            r += 1000;
            fall = true;
        }
    } else if x == -6 {
        r = -1;
    } else if x != 6 {
        fall = true; // default
    }
    if fall {
        r += 5;
    }
    if fall || x == 6 {
        r *= 2;
    }
    (r as u32).wrapping_add(k)
}

#[test]
fn divergent_switch_with_fallthrough_and_nested_break() {
    let l = check(FALLTHROUGH, &inputs(), 3, fallthrough_ref);
    // Divergent selector: EXEC-masked segments.
    assert!(l[0].contains("s_and_saveexec_b32"), "{}", l[0]);
    assert!(l[1].contains("s_and_saveexec_b64"), "{}", l[1]);
}

#[test]
fn uniform_switch_branches_on_the_scalar_unit() {
    // The selector is a kernel argument: the same segment for every lane.
    let src = FALLTHROUGH
        .replace("switch (x)", "switch (k)")
        .replace("out[i] = r + k;", "out[i] = r + x;");
    // `r` computed from the selector k, plus x.
    let want = |x: u32, k: u32| fallthrough_ref(k, 0).wrapping_add(x);
    for k in [0u32, 1, 2, 3, 4, 5, 6, (-6i32) as u32, 77] {
        let src = src
            .replace("r = x * 7;", "r = k * 7;")
            .replace("if (x == 4)", "if (k == 4)");
        let l = check(&src, &inputs(), k, want);
        for (w, l) in l.iter().enumerate() {
            assert!(
                !l.contains("saveexec"),
                "wave64={w}: a uniform switch masks EXEC:\n{l}"
            );
            assert!(l.contains("s_cmp_"), "wave64={w}:\n{l}");
        }
    }
}

#[test]
fn break_inside_a_switch_inside_a_loop_leaves_the_switch() {
    let src = "
__kernel void k(__global const int *in, __global int *out, int k) {
  int i = get_global_id(0);
  int x = in[i];
  int acc = 0;
  for (int j = 0; j < 6; j++) {
    switch ((x + j) % 4) {
    case 0: acc += 1; break;
    case 1: acc += 10; if (j > 2) break; acc += 100; break;
    case 2: acc *= 3;
    default: acc -= 1;
    }
    acc += k;            /* runs every iteration: the break left the switch only */
  }
  out[i] = acc;
}";
    let want = |x: u32, k: u32| {
        let (x, k) = (x as i32, k as i32);
        let mut acc = 0i32;
        for j in 0..6 {
            match x.wrapping_add(j) % 4 {
                0 => acc += 1,
                1 => {
                    acc += 10;
                    if j <= 2 {
                        acc += 100;
                    }
                }
                2 => acc = acc * 3 - 1,
                _ => acc -= 1,
            }
            acc += k;
        }
        acc as u32
    };
    check(src, &inputs(), 2, want);
}

#[test]
fn loops_inside_cases_and_returning_helpers() {
    let src = "
int pick(int v) {
  switch (v & 3) {
  case 0: return 7;
  case 1: return v * 2;
  default: return -v;
  }
}
__kernel void k(__global const int *in, __global int *out, int k) {
  int i = get_global_id(0);
  int x = in[i];
  int s = pick(x);
  switch (x % 3) {
  case 0:
    for (int j = 0; j < x % 5; j++) {
      if (j == 3) break;   /* the loop's break */
      s += j;
    }
    break;
  case 1: {
    int t = 1;
    while (t < x) t *= 2;
    s += t;
    break;
  }
  }
  out[i] = s + k;
}";
    let want = |x: u32, k: u32| {
        let x = x as i32;
        let mut s = match x & 3 {
            0 => 7,
            1 => x.wrapping_mul(2),
            _ => x.wrapping_neg(),
        };
        match x % 3 {
            0 => {
                for j in 0..(x % 5) {
                    if j == 3 {
                        break;
                    }
                    s += j;
                }
            }
            1 => {
                let mut t = 1i32;
                while t < x {
                    t = t.wrapping_mul(2);
                }
                s = s.wrapping_add(t);
            }
            _ => {}
        }
        (s as u32).wrapping_add(k)
    };
    // Bounded inputs: `while (t < x)` must end.
    let input: Vec<u32> = (0..N).map(|i| (i * 37 % 200) as i32 as u32).collect();
    check(src, &input, 9, want);
}

#[test]
fn sixty_four_bit_selector() {
    let src = "
__kernel void k(__global const int *in, __global int *out, int k) {
  int i = get_global_id(0);
  long v = (long)in[i] << 33;
  int r;
  switch (v) {
  case 0x200000000L: r = 1; break;
  case -0x200000000L: r = 2; break;
  case 0x400000000L: r = 3; break;
  default: r = 4;
  }
  out[i] = r;
}";
    let want = |x: u32, _k: u32| match (x as i32 as i64) << 33 {
        0x2_0000_0000 => 1,
        -0x2_0000_0000 => 2,
        0x4_0000_0000 => 3,
        _ => 4,
    };
    let mut input = inputs();
    input[5] = u32::MAX;
    check(src, &input, 0, want);
}

/// Duff's device with a divergent selector: every lane has its own count,
/// so the lanes of a wave enter the loop at different `case` labels. (clang-19
/// compiles this into irreducible control flow and gets lanes wrong,
/// docs/compiler.md; here the labels are entry flags and the loop lets the
/// lanes still to enter in.) Against a Rust evaluation, wave32 and wave64.
#[test]
fn duffs_device_with_a_divergent_selector() {
    let src = "
__kernel void k(__global const int *in, __global int *out, int k) {
  int i = get_global_id(0);
  int count = (uint)in[i] % 23u;
  int acc = 0, j = 0;
  int n = (count + 7) / 8;
  switch (count % 8) {
  case 0: do { acc = acc * 3 + j++ + k;
  case 7:      acc = acc * 3 + j++ + k;
  case 6:      acc = acc * 3 + j++ + k;
  case 5:      acc = acc * 3 + j++ + k;
  case 4:      acc = acc * 3 + j++ + k;
  case 3:      acc = acc * 3 + j++ + k;
  case 2:      acc = acc * 3 + j++ + k;
  case 1:      acc = acc * 3 + j++ + k;
          } while (--n > 0);
  }
  out[i] = acc * 1000 + j;
}";
    let want = |x: u32, k: u32| {
        let count = x % 23;
        // count 0 enters at `case 0` and runs the body once: 8 steps.
        let steps = if count == 0 { 8 } else { count };
        let (mut acc, mut j) = (0u32, 0u32);
        for _ in 0..steps {
            acc = acc.wrapping_mul(3).wrapping_add(j).wrapping_add(k);
            j += 1;
        }
        acc.wrapping_mul(1000).wrapping_add(j)
    };
    let input: Vec<u32> = (0..N).map(|i| i.wrapping_mul(2_654_435_761) >> 7).collect();
    check(src, &input, 5, want);
}

/// `readfirstlane` of a divergent value is one `v_readfirstlane_b32` into
/// an SGPR and is uniform afterwards: a branch on it is a scalar branch
/// (no EXEC masking) and every lane sees the first active lane's value —
/// inside a divergent `if` the first lane *of that if*. `readlane` reads a
/// chosen lane.
#[test]
fn readfirstlane_is_uniform_and_reads_the_first_active_lane() {
    let src = "
__kernel void k(__global const int *in, __global int *out, int k) {
  int i = get_global_id(0);
  int x = in[i];
  int u = __builtin_amdgcn_readfirstlane(x);
  int r;
  if (u > 100) r = x + u; else r = x - u;    /* uniform branch on u */
  if (x % 3 == 1) {
    r += 1000 * __builtin_amdgcn_readfirstlane(x);  /* first lane with x%3==1 */
  }
  r += 7 * __builtin_amdgcn_readlane(x, k);
  out[i] = r;
}";
    let input: Vec<u32> = (0..N).map(|i| (i * 29 + 5) % 211).collect();
    for wave64 in [false, true] {
        let c = build(src, wave64);
        let l = c.kernels[0].listing();
        assert!(l.contains("v_readfirstlane_b32"), "{l}");
        assert!(l.contains("v_readlane_b32"), "{l}");
        // One divergent if (x % 3 == 1): exactly one saveexec.
        assert_eq!(l.matches("saveexec").count(), 1, "{l}");
        let k = 5;
        let out = run(
            &c.kernels[0],
            N,
            64,
            &[
                TestArg::Buf(input.clone()),
                TestArg::Buf(vec![0; N as usize]),
                TestArg::U32(k),
            ],
        )
        .unwrap();
        let wave = if wave64 { 64 } else { 32 };
        for w in 0..(N as usize / wave) {
            let lanes = &input[w * wave..(w + 1) * wave];
            let u = lanes[0] as i32;
            let first_in_if = lanes.iter().find(|&&x| x % 3 == 1).map(|&x| x as i32);
            for (j, &x) in lanes.iter().enumerate() {
                let x = x as i32;
                let mut r = if u > 100 { x + u } else { x - u };
                if x % 3 == 1 {
                    r += 1000 * first_in_if.unwrap();
                }
                r += 7 * lanes[k as usize] as i32;
                assert_eq!(
                    out[1][w * wave + j] as i32,
                    r,
                    "wave64={wave64} wave {w} lane {j}"
                );
            }
        }
    }
}

/// One segment of a random switch: its labels, `r = r * mul + add`, an
/// optional `if ((x & bit) != 0) break;` before that, and whether it ends
/// in `break` (else it falls through).
#[derive(Clone, Debug)]
struct Segment {
    cases: Vec<i32>,
    default: bool,
    early_break_bit: Option<u32>,
    mul: i32,
    add: i32,
    ends_in_break: bool,
}

fn random_switch(seed: u64) -> Vec<Segment> {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move |n: u64| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s % n
    };
    let n = 1 + next(5) as usize;
    let default_at = if next(3) == 0 {
        None
    } else {
        Some(next(n as u64) as usize)
    };
    let mut used = std::collections::BTreeSet::new();
    (0..n)
        .map(|k| {
            let mut cases = Vec::new();
            for _ in 0..=next(2) {
                let v = next(12) as i32 - 3;
                if used.insert(v) {
                    cases.push(v);
                }
            }
            let default = default_at == Some(k);
            if cases.is_empty() && !default {
                let v = 100 + k as i32;
                used.insert(v);
                cases.push(v);
            }
            Segment {
                cases,
                default,
                early_break_bit: (next(3) == 0).then(|| 1 << next(4)),
                mul: next(5) as i32 + 1,
                add: next(50) as i32 - 25,
                ends_in_break: next(2) == 0,
            }
        })
        .collect()
}

fn switch_source(segs: &[Segment]) -> String {
    let mut body = String::new();
    for s in segs {
        for c in &s.cases {
            body += &format!("  case {c}:\n");
        }
        if s.default {
            body += "  default:\n";
        }
        if let Some(bit) = s.early_break_bit {
            body += &format!("    if ((x & {bit}) != 0) break;\n");
        }
        body += &format!("    r = r * {} + {};\n", s.mul, s.add);
        if s.ends_in_break {
            body += "    break;\n";
        }
    }
    format!(
        "__kernel void k(__global const int *in, __global int *out, int k) {{
  int i = get_global_id(0);
  int x = in[i];
  int r = k;
  switch (x % 10) {{
{body}  }}
  out[i] = r;
}}"
    )
}

/// The Rust meaning of the switch: enter at the segment whose label
/// matches (or the default's), run segments until a break.
fn switch_eval(segs: &[Segment], x: i32, k: i32) -> i32 {
    let sel = x % 10;
    let start = segs
        .iter()
        .position(|s| s.cases.contains(&sel))
        .or_else(|| segs.iter().position(|s| s.default));
    let mut r = k;
    if let Some(start) = start {
        for s in &segs[start..] {
            if s.early_break_bit.is_some_and(|b| x & b as i32 != 0) {
                break;
            }
            r = r.wrapping_mul(s.mul).wrapping_add(s.add);
            if s.ends_in_break {
                break;
            }
        }
    }
    r
}

/// Random switches (labels, defaults anywhere or none, fall-through,
/// breaks inside an `if`) against their Rust evaluation, divergent
/// selectors, wave32 and wave64. A failing seed prints the kernel.
#[test]
fn random_switches_match_their_rust_evaluation() {
    let input: Vec<u32> = (0..N).map(|i| (i as i32 * 7 - 300) as u32).collect();
    for seed in 1..=24u64 {
        let segs = random_switch(seed);
        let src = switch_source(&segs);
        for wave64 in [false, true] {
            let c = build(&src, wave64);
            let out = run(
                &c.kernels[0],
                N,
                64,
                &[
                    TestArg::Buf(input.clone()),
                    TestArg::Buf(vec![0; N as usize]),
                    TestArg::U32(5),
                ],
            )
            .unwrap();
            for (i, &x) in input.iter().enumerate() {
                let want = switch_eval(&segs, x as i32, 5);
                assert_eq!(
                    out[1][i] as i32, want,
                    "seed {seed} wave64={wave64} x={}:\n{src}",
                    x as i32
                );
            }
        }
    }
}

#[test]
fn continue_inside_a_switch_inside_a_loop_continues_the_loop() {
    let src = "
__kernel void k(__global const int *in, __global int *out, int k) {
  int i = get_global_id(0);
  int x = in[i];
  int acc = 0;
  for (int j = 0; j < 7; j++) {
    switch ((x + j) % 4) {
    case 0: acc += 1; continue;            /* skips the rest of the body */
    case 1: acc += 10; if (j > 2) continue; acc += 100; break;
    case 2: acc *= 3;
    default: acc -= 1;
    }
    acc += k;            /* lanes that continued do not get here */
  }
  out[i] = acc;
}";
    let want = |x: u32, k: u32| {
        let (x, k) = (x as i32, k as i32);
        let mut acc = 0i32;
        for j in 0..7 {
            match x.wrapping_add(j) % 4 {
                0 => {
                    acc += 1;
                    continue;
                }
                1 => {
                    acc += 10;
                    if j > 2 {
                        continue;
                    }
                    acc += 100;
                }
                2 => acc = acc * 3 - 1,
                _ => acc -= 1,
            }
            acc += k;
        }
        acc as u32
    };
    check(src, &inputs(), 5, want);
}
