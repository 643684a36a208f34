//! The compiler's bound on how far a kernel reaches from each pointer
//! argument (`compiler::specialise::reach`, seed 002's "ranges the kernel can
//! reach where the compiler can bound them"): exact byte counts for the
//! seed-002 kernels at given launches, and no bound where one would be
//! unsound — an escaping pointer, a pointer stepped in a loop, an index
//! below the pointer, an unsigned limit that wraps, a loaded index.

use compiler::specialise::reach::{reach, Dispatch, ReachBounds};
use compiler::{compile, CompileOptions, Source};

fn bounds(src: &str) -> (ReachBounds, usize) {
    let c = compile(
        Source::Text {
            name: "k.cl",
            text: src,
        },
        &CompileOptions::default(),
    )
    .unwrap_or_else(|d| panic!("{d}"));
    let f = &c.ir[0];
    (reach(f), f.params.len())
}

fn file(name: &str) -> (ReachBounds, usize) {
    let path = format!(
        "{}/../../tests/kernels/alias/{name}.cl",
        env!("CARGO_MANIFEST_DIR")
    );
    bounds(&std::fs::read_to_string(path).unwrap())
}

/// A 1-D launch of `grid` work-items with `args` (by-value parameters by
/// index; pointers `None`).
fn launch(grid: u64, local: u64, args: &[Option<u64>]) -> Dispatch {
    Dispatch {
        args: args.to_vec(),
        global_size: [grid, 1, 1],
        local_size: [local, 1, 1],
    }
}

#[test]
fn copy_scale_reaches_per_item_elements_per_work_item() {
    let (b, n) = file("alias_copy_scale");
    // out, in, s, per_item
    let d = launch(
        32,
        32,
        &[None, None, Some(0.5f32.to_bits() as u64), Some(32)],
    );
    assert_eq!(b.eval(&d, n), vec![Some(4096), Some(4096), None, None]);
    let d = launch(64, 32, &[None, None, None, Some(3)]);
    assert_eq!(
        b.eval(&d, n),
        vec![Some(64 * 3 * 4), Some(64 * 3 * 4), None, None]
    );
}

#[test]
fn the_stencil_reads_one_element_either_side_and_writes_the_inside() {
    let (b, n) = file("alias_stencil");
    // in, out, n, row_stride: rows of 16, i in 1..15, reads k-1..k+1.
    let d = launch(4, 4, &[None, None, Some(16), Some(16)]);
    // Work-item 3 (the last) reads up to base 48 + 15 = element 63.
    // Writes stop at 48 + 14 = 62; the bound is the interval one (the top
    // of `i` plus the largest base), exact here.
    assert_eq!(b.eval(&d, n), vec![Some(64 * 4), Some(63 * 4), None, None]);
    // n = 0: `last = n - 1` wraps to 0xffffffff as an unsigned limit; the
    // loop would run far past the buffer, so no bound at all.
    let d = launch(4, 4, &[None, None, Some(0), Some(16)]);
    assert_eq!(b.eval(&d, n), vec![None, None, None, None]);
}

#[test]
fn a_loaded_index_leaves_only_that_pointer_unbounded() {
    let (b, n) = file("alias_compute_output");
    // inputImage, global_cdf (unused), outputImage, local_cdf (indexed by a
    // loaded value), per_item.
    let d = launch(32, 32, &[None, None, None, None, Some(8)]);
    assert_eq!(
        b.eval(&d, n),
        vec![Some(32 * 8 * 4), Some(0), Some(32 * 8 * 4), None, None]
    );
}

#[test]
fn unsound_cases_get_no_bound() {
    // A pointer stored to memory escapes: nothing is bounded.
    let (b, n) = bounds(
        "__kernel void k(__global ulong *a, __global float *x) {
             a[get_global_id(0)] = (ulong)x; x[get_global_id(0)] = 1.0f; }",
    );
    assert_eq!(b.eval(&launch(8, 8, &[]), n), vec![None, None]);
    // A pointer stepped in a loop: its own reach is unknown; the other
    // pointer keeps its bound.
    let (b, n) = bounds(
        "__kernel void k(__global float *p, __global float *q, uint m) {
             for (uint i = 0; i < m; i++) { *p = 1.0f; p++; }
             q[get_global_id(0)] = 2.0f; }",
    );
    assert_eq!(
        b.eval(&launch(8, 8, &[None, None, Some(4)]), n),
        vec![None, Some(32), None]
    );
    // An index that can be below the pointer (gid - 1 at gid 0).
    let (b, n) =
        bounds("__kernel void k(__global float *p) { int i = get_global_id(0); p[i - 1] = 0.0f; }");
    assert_eq!(b.eval(&launch(8, 8, &[]), n), vec![None]);
    // A signed index that overflows i32 for this launch: no bound.
    let (b, n) = bounds(
        "__kernel void k(__global float *p, int s) { p[(int)get_global_id(0) * s] = 0.0f; }",
    );
    assert_eq!(
        b.eval(&launch(8, 8, &[None, Some(1 << 30)]), n),
        vec![None, None]
    );
    assert_eq!(
        b.eval(&launch(8, 8, &[None, Some(3)]), n),
        vec![Some(22 * 4), None]
    );
}

#[test]
fn an_unused_pointer_reaches_nothing_and_loop_limits_from_arguments_bound_the_rest() {
    let (b, n) = bounds(
        "__kernel void k(__global float *unused, __global float *out, uint n) {
             uint g = get_global_id(0);
             for (uint j = 0; j < n; j += 2) out[g * n + j] = 1.0f; }",
    );
    // g ≤ 7, j ≤ n - 1 = 9: the top element is 7 * 10 + 9 = 79.
    assert_eq!(
        b.eval(&launch(8, 8, &[None, None, Some(10)]), n),
        vec![Some(0), Some(80 * 4), None]
    );
}
