//! Seed 000's compiler pass (issue 20; spec 000 §5, §6 behaviours 7 and 9):
//! the segment analysis on plain data and on compiled kernels, and the
//! rewrites' code. Running the rewritten kernels: `cosim/tests/subvector_pass.rs`.
//!
//! `cargo test --release -p compiler --test subvector`

use std::path::PathBuf;

use compiler::subvector::{regions, SubvectorOptions, SubvectorRewrite};
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
        .any(|s| s.kind == compiler::subvector::SegmentKind::Loop && s.usage > 64));
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
    assert_eq!(count(&off.kernels[0].listing(), "s_subvector_loop_begin"), 0);
}
