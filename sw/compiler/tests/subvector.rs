//! Seed 000's compiler pass (issue 20; spec 000 §5, §6 behaviours 7 and 9):
//! the segment analysis on plain data and on compiled kernels, and the
//! rewrites' code. Running the rewritten kernels: `cosim/tests/subvector_pass.rs`.
//!
//! `cargo test --release -p compiler --test subvector`

use std::path::PathBuf;

use compiler::backend::subvector::{regions, SubvectorOptions, SubvectorRewrite};
use compiler::{compile, CompileOptions, Compiled, Source};

fn kernel_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/kernels/subvector")
        .join(format!("{name}.cl"))
}

/// Compiles `tests/kernels/subvector/NAME.cl` for wave64 at `-O`.
fn build(name: &str, rewrite: SubvectorRewrite, threshold: u16) -> Compiled {
    let mut o = CompileOptions::default();
    o.backend.wave64 = true;
    o.backend.optimize = true;
    o.backend.subvector = SubvectorOptions {
        rewrite,
        threshold,
        chunk: 0,
    };
    compile(Source::Path(&kernel_path(name)), &o).unwrap_or_else(|d| panic!("{name}: {d}"))
}

fn count(listing: &str, mnemonic: &str) -> usize {
    listing
        .lines()
        .filter(|l| l.split_whitespace().next() == Some(mnemonic))
        .count()
}

/// Spec 000 Fig 12: segments 0–9, of which 3, 4, 5 and 7 need more VGPRs
/// than the threshold: they run in sub-vector looping, with one enter/exit
/// pair around 3–5 and one around 7.
#[test]
fn fig12_segments_3_4_5_and_7_are_rewritten_with_one_enter_exit_around_3_to_5() {
    let threshold = 12;
    let usage = [4, 8, 12, 13, 20, 16, 9, 14, 12, 2];
    assert_eq!(regions(&usage, threshold), vec![3..6, 7..8]);
}

/// Spec 000 §6.7: usage equal to the threshold stays conventional, one
/// more is rewritten — on plain data and on a compiled kernel.
#[test]
fn usage_equal_to_the_threshold_is_left_alone() {
    assert!(regions(&[12, 12, 12], 12).is_empty());
    assert_eq!(regions(&[12, 13, 12], 12), vec![1..2]);
    let probe = build("matmul_blocked", SubvectorRewrite::Loop, 0);
    let peak = probe.kernels[0]
        .subvector
        .segments
        .iter()
        .map(|s| s.usage)
        .max()
        .unwrap();
    assert!(peak > 64, "the blocked product needs {peak} VGPRs at most");
    let at = build("matmul_blocked", SubvectorRewrite::Loop, peak);
    let r = &at.kernels[0].subvector;
    assert!(r.regions.is_empty(), "{:?}", r.regions);
    assert_eq!(count(&at.kernels[0].listing(), "s_subvector_loop_begin"), 0);
    let below = build("matmul_blocked", SubvectorRewrite::Loop, peak - 1);
    let r = &below.kernels[0].subvector;
    assert_eq!(r.rewritten(), 1, "{:?}", r.regions);
    assert_eq!(
        count(&below.kernels[0].listing(), "s_subvector_loop_begin"),
        1
    );
}

/// On a real kernel the analysis covers every item once, in order, and the
/// consecutive segments above the threshold share one enter/exit pair.
#[test]
fn a_compiled_kernel_splits_into_ordered_segments_with_one_loop_per_run() {
    let c = build("matmul_blocked", SubvectorRewrite::Loop, 0);
    let r = &c.kernels[0].subvector;
    let mut at = 0;
    for s in &r.segments {
        assert_eq!(s.items.start, at, "{:?}", r.segments);
        assert!(s.items.end > s.items.start);
        at = s.items.end;
    }
    assert!(r
        .segments
        .iter()
        .any(|s| s.kind == compiler::backend::subvector::SegmentKind::Loop && s.usage > 64));
    let runs = regions(
        &r.segments.iter().map(|s| s.usage).collect::<Vec<_>>(),
        r.threshold,
    );
    assert!(!runs.is_empty());
    let text = c.kernels[0].listing();
    assert_eq!(count(&text, "s_subvector_loop_begin"), r.rewritten());
    assert_eq!(count(&text, "s_subvector_loop_end"), r.rewritten());
    // Off: no pass, no note.
    let off = build("matmul_blocked", SubvectorRewrite::Off, 0);
    assert!(off.kernels[0].subvector.segments.is_empty());
    assert_eq!(
        count(&off.kernels[0].listing(), "s_subvector_loop_begin"),
        0
    );
}

mod backend_support;
use backend_support::{run, run_elf, TestArg};

/// [`run`] without its llvm-objdump comparison: llvm-objdump annotates the
/// targets of `s_subvector_loop_begin/end` (`<halves+0x29c>`) and arch's
/// listing does not yet; the encodings themselves are compared with
/// llvm-mc-19 in `the_loop_instructions_encode_as_llvm_mc_does`.
fn run_unchecked(
    k: &compiler::backend::CompiledKernel,
    grid: u32,
    wg: u32,
    args: &[TestArg],
) -> Result<Vec<Vec<u32>>, String> {
    let elf = compiler::backend::code_object(std::slice::from_ref(k)).map_err(|e| e.to_string())?;
    run_elf(&elf, &k.name, grid, wg, args)
}

/// A kernel whose guarded loop keeps a dozen values per lane (above a
/// threshold of 8); `lo` / `hi` switch the guard on for the low / high
/// half of each workgroup of 64, so EXEC at the segment is either half,
/// both or none.
const HALVES: &str = r#"
__kernel void halves(__global uint *out, __global const uint *in, uint lo, uint hi, uint n) {
    uint id = (uint)get_global_id(0);
    uint on = (uint)get_local_id(0) < 32u ? lo : hi;
    uint r = 0xdeadu;
    if (on != 0u) {
        uint a0 = in[id], a1 = in[id + 1u], a2 = in[id + 2u], a3 = in[id + 3u];
        uint a4 = a0 * 5u, a5 = a1 * 7u, a6 = a2 * 11u, a7 = a3 * 13u;
        uint a8 = a0 ^ a3, a9 = a1 ^ a2, a10 = a0 + a1, a11 = a2 + a3;
        for (uint k = 0u; k < n; k++) {
            a0 = a0 * 3u + a1; a1 = a1 ^ (a2 + k); a2 = a2 + a3 * k; a3 = a3 ^ a4;
            a4 = a4 + a5; a5 = a5 * 9u + a6; a6 = a6 ^ a7; a7 = a7 + a8;
            a8 = a8 * 17u ^ a9; a9 = a9 + a10; a10 = a10 ^ a11; a11 = a11 + a0;
        }
        r = a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7 ^ a8 ^ a9 ^ a10 ^ a11;
    }
    out[id] = r;
}
"#;

fn halves(rewrite: SubvectorRewrite) -> compiler::backend::CompiledKernel {
    let mut o = CompileOptions::default();
    o.backend.wave64 = true;
    o.backend.optimize = true;
    o.backend.subvector = SubvectorOptions {
        rewrite,
        threshold: 8,
        chunk: 0,
    };
    let c = compile(
        Source::Text {
            name: "halves.cl",
            text: HALVES,
        },
        &o,
    )
    .unwrap_or_else(|d| panic!("{d}"));
    c.kernels.into_iter().next().unwrap()
}

/// Runs `halves` over 128 work-items (two waves) with the guard `lo`/`hi`.
fn run_halves(k: &compiler::backend::CompiledKernel, lo: u32, hi: u32) -> Vec<u32> {
    let input: Vec<u32> = (0..131u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
    let runner = if k.listing().contains("s_subvector_loop") {
        run_unchecked
    } else {
        run
    };
    let out = runner(
        k,
        128,
        64,
        &[
            TestArg::Buf(vec![0; 128]),
            TestArg::Buf(input),
            TestArg::U32(lo),
            TestArg::U32(hi),
            TestArg::U32(5),
        ],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    out[0].clone()
}

/// Spec 000 §6.9: the duplication rewrite's result equals running the
/// segment once per half with EXEC restricted to that half — here the
/// unrewritten kernel run once with only the low half enabled and once
/// with only the high half, merged lane by lane — for EXEC at the segment
/// with both halves, one, the other and none.
#[test]
fn duplication_equals_running_the_segment_once_per_half() {
    let off = halves(SubvectorRewrite::Off);
    let dup = halves(SubvectorRewrite::Duplicate);
    assert!(dup.subvector.rewritten() >= 1, "{:?}", dup.subvector);
    let text = dup.listing();
    assert!(text.contains("s_mov_b32 exec_hi, 0"), "{text}");
    assert!(text.contains("s_mov_b32 exec_lo, 0"), "{text}");
    // Two copies of the rewritten segments.
    let r = &dup.subvector;
    let copied: usize = r
        .regions
        .iter()
        .filter(|g| g.outcome.is_ok())
        .map(|g| r.segments[g.segments.start].items.start..r.segments[g.segments.end - 1].items.end)
        .map(|items| items.len())
        .sum();
    assert!(
        dup.instructions.len() >= off.instructions.len() + copied / 2,
        "{} instructions, {} without the pass, {copied} items copied",
        dup.instructions.len(),
        off.instructions.len()
    );
    let low_only = run_halves(&off, 1, 0);
    let high_only = run_halves(&off, 0, 1);
    let per_half: Vec<u32> = (0..128)
        .map(|i| {
            if i % 64 < 32 {
                low_only[i]
            } else {
                high_only[i]
            }
        })
        .collect();
    assert_eq!(run_halves(&dup, 1, 1), per_half);
    assert_eq!(run_halves(&dup, 1, 1), run_halves(&off, 1, 1));
    for (lo, hi) in [(1, 0), (0, 1), (0, 0)] {
        assert_eq!(
            run_halves(&dup, lo, hi),
            run_halves(&off, lo, hi),
            "lo {lo} hi {hi}"
        );
    }
}

/// The loop rewrite (Fig 15, gfx10's `s_subvector_loop_begin/end`) gives the
/// unrewritten kernel's results in the four EXEC cases of spec 000 §5
/// (none, low only, high only, both); the golden GPU runs it, and the
/// object's disassembly matches llvm-objdump-19's where it is installed.
#[test]
fn the_loop_rewrite_gives_the_same_results_in_the_four_exec_cases() {
    let off = halves(SubvectorRewrite::Off);
    let looped = halves(SubvectorRewrite::Loop);
    assert_eq!(count(&looped.listing(), "s_subvector_loop_begin"), 1);
    assert_eq!(count(&looped.listing(), "s_subvector_loop_end"), 1);
    for (lo, hi) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
        assert_eq!(
            run_halves(&looped, lo, hi),
            run_halves(&off, lo, hi),
            "lo {lo} hi {hi}"
        );
    }
    // `hw` has no enter/exit of its own on the clocked GPU: it is the loop.
    assert_eq!(halves(SubvectorRewrite::Hw).code, looped.code);
}

/// arch's encoding of the two loop instructions equals llvm-mc-19's
/// (skipped when LLVM is not installed).
#[test]
fn the_loop_instructions_encode_as_llvm_mc_does() {
    let k = halves(SubvectorRewrite::Loop);
    let mut found = 0;
    for (at, i) in &k.instructions {
        if !matches!(
            i.opcode,
            arch::isa::Opcode::S_SUBVECTOR_LOOP_BEGIN | arch::isa::Opcode::S_SUBVECTOR_LOOP_END
        ) {
            continue;
        }
        found += 1;
        let ours = &k.code[*at as usize..*at as usize + 4];
        let text = i.to_string();
        let Ok(out) = std::process::Command::new("llvm-mc-19")
            .args(["-arch=amdgcn", "-mcpu=gfx1030", "-show-encoding"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                use std::io::Write;
                c.stdin.take().unwrap().write_all(text.as_bytes())?;
                c.wait_with_output()
            })
        else {
            println!("llvm-mc-19 not installed: encoding not compared");
            return;
        };
        let s = String::from_utf8_lossy(&out.stdout);
        let enc = s
            .split("encoding: [")
            .nth(1)
            .and_then(|r| r.split(']').next())
            .unwrap_or_else(|| panic!("llvm-mc said: {s}"));
        let bytes: Vec<u8> = enc
            .split(',')
            .map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).unwrap())
            .collect();
        assert_eq!(ours, &bytes[..], "{text}");
    }
    assert_eq!(found, 2);
}

/// A run the pass may not split per half stays conventional and the report
/// says why: a workgroup barrier inside it (the other half would pass the
/// barrier before this half's writes).
#[test]
fn a_run_with_a_barrier_stays_conventional_with_the_reason() {
    let src = r#"
__kernel void k(__global uint *out, __local uint *tmp) {
    uint l = (uint)get_local_id(0);
    tmp[l] = l * 3u;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[63u - l] + tmp[l];
}
"#;
    let mut o = CompileOptions::default();
    o.backend.wave64 = true;
    o.backend.optimize = true;
    o.backend.subvector = SubvectorOptions {
        rewrite: SubvectorRewrite::Loop,
        threshold: 1,
        chunk: 64,
    };
    let c = compile(
        Source::Text {
            name: "k.cl",
            text: src,
        },
        &o,
    )
    .unwrap();
    let r = &c.kernels[0].subvector;
    let barrier_refused = r.regions.iter().any(
        |g| matches!(&g.outcome, Err(why) if why.contains("s_barrier") && why.contains("barrier")),
    );
    assert!(barrier_refused, "{:?}", r.regions);
}

/// Wave32: one SIMD32 part, nothing to split — the pass analyses, reports
/// why, and leaves the code and the allocation alone.
#[test]
fn wave32_is_analysed_but_never_rewritten() {
    let mut o = CompileOptions::default();
    o.backend.optimize = true;
    o.backend.subvector = SubvectorOptions {
        rewrite: SubvectorRewrite::Loop,
        threshold: 0,
        chunk: 0,
    };
    let path = kernel_path("matmul_blocked");
    let on = compile(Source::Path(&path), &o).unwrap();
    o.backend.subvector.rewrite = SubvectorRewrite::Off;
    let off = compile(Source::Path(&path), &o).unwrap();
    let r = &on.kernels[0].subvector;
    assert!(!r.segments.is_empty());
    assert_eq!(r.rewritten(), 0);
    assert_eq!(r.shared_vgprs, 0);
    assert!(r.note.as_deref().unwrap_or("").contains("wave32"), "{r:?}");
    assert_eq!(on.kernels[0].code, off.kernels[0].code);
    assert_eq!(on.code_object, off.code_object);
}
