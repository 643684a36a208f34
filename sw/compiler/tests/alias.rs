//! Seed 002 acceptance: spec 002 §6 behaviours 1–7 and the variant cache,
//! on the corpus kernels `tests/kernels/alias/*.cl` compiled by gpusim and
//! run on the golden GPU (and the cycle model for the branch counts).
//!
//! Overlapping layouts pass `out = in + d` elements as a byte offset into
//! one buffer. The overlap runs use one wave: with consecutive chunks per
//! work-item, work-item `L`'s last outputs are `L + 1`'s first inputs — a
//! race between waves, lockstep (deterministic) inside one.

mod alias_support;

use alias_support::*;
use arch::isa::Isa;
use compiler::specialise::{recompile, Choice, Facts, PairFact, Relation, Variant, VariantCache};
use compiler::{compile, CompileOptions, Source};
use golden::{GoldenConfig, GoldenGpu};
use sw::driver::alias::Relation as DriverRelation;

fn golden() -> GoldenGpu {
    GoldenGpu::new(GoldenConfig::new(Isa::Gfx1030)).unwrap()
}

const CDF: usize = 256;

/// compute_output's buffers: image (with room for shifts), global_cdf,
/// a separate output, local_cdf.
fn co_buffers(n: usize) -> Vec<Vec<u32>> {
    vec![
        data(1, n + 16, CDF as u32),
        vec![0; CDF],
        vec![0; n + 16],
        data(2, CDF, CDF as u32),
    ]
}

/// compute_output's arguments with `out = in + d` elements inside buffer 0
/// (`None`: out is the separate buffer 2).
fn co_args(d: Option<i64>, per_item: u32) -> Vec<A> {
    let (inp, out) = match d {
        None => (A::Buf(0, 0), A::Buf(2, 0)),
        Some(d) if d >= 0 => (A::Buf(0, 0), A::Buf(0, 4 * d as u64)),
        Some(d) => (A::Buf(0, 4 * (-d) as u64), A::Buf(0, 0)),
    };
    vec![inp, A::Buf(1, 0), out, A::Buf(3, 0), A::U32(per_item)]
}

/// Runs `name` twice from the same initial buffers — the original binary,
/// then through the driver's analysis and the JIT — and returns both final
/// buffer sets and the JIT dispatch's outcome.
fn original_and_jit(
    name: &str,
    buffers: &[Vec<u32>],
    grid: u32,
    args: &[A],
) -> (Vec<Vec<u32>>, Vec<Vec<u32>>, Outcome) {
    let mut s0 = Session::new(golden(), compile_corpus(name), buffers);
    s0.dispatch(grid, grid.min(64), args, false);
    let mut s1 = Session::new(golden(), compile_corpus(name), buffers);
    let o = s1.dispatch(grid, grid.min(64), args, true);
    (s0.read(), s1.read(), o)
}

/// The memory instructions of the unrolled loop: from the first wide or
/// repeated access to the loop's back branch, the opcodes in order.
fn memory_ops(listing: &str) -> Vec<String> {
    listing
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|op| op.starts_with("global_"))
        .map(str::to_string)
        .collect()
}

#[test]
fn behaviour_1_dispatch_waits_for_analysis_and_recompilation_of_every_pointer_pair() {
    let bufs = co_buffers(64 * 16);
    let mut s = Session::new(golden(), compile_corpus("alias_compute_output"), &bufs);
    let o = s.dispatch(64, 64, &co_args(None, 16), true);
    // Four pointer arguments: six pairs, none identical.
    assert_eq!(o.report.regions.len(), 4);
    assert_eq!(o.report.pairs.len() + o.report.identical.len(), 6);
    let stats = s.cache.stats();
    assert_eq!((stats.analyses, stats.recompilations), (1, 1));
    // The variant was compiled before the launch and is what ran: the
    // results are already in memory when dispatch returns.
    let v = o.variant.expect("recompiled");
    assert!(!o.hit);
    assert!(v.compile_time > std::time::Duration::ZERO);
    let out = &s.read()[2];
    let (img, cdf) = (&bufs[0], &bufs[3]);
    for i in 0..64 * 16 {
        assert_eq!(out[i], cdf[img[i] as usize], "pixel {i}");
    }
}

#[test]
fn behaviour_2_identical_regions_give_no_metadata_and_no_recompilation() {
    let n = 32 * 16;
    let bufs = vec![float_data(3, n), vec![0; 4]];
    let args = [A::Buf(0, 0), A::Buf(0, 0), A::F32(1.5), A::U32(16)];
    let (orig, jit, o) = original_and_jit("alias_copy_scale", &bufs, 32, &args);
    assert!(o.report.pairs.is_empty());
    assert_eq!(o.report.identical, vec![(0, 1)]);
    assert!(o.variant.is_none(), "the original binary runs");
    assert_eq!(orig, jit);
    let mut s = Session::new(golden(), compile_corpus("alias_copy_scale"), &bufs);
    s.dispatch(32, 32, &args, true);
    let st = s.cache.stats();
    assert_eq!((st.analyses, st.unchanged, st.recompilations), (1, 1, 0));
}

#[test]
fn behaviour_3_disjoint_regions_unroll_by_4_group_and_widen_bit_identically() {
    let n = 64 * 18; // 18 per work-item: four ×4 iterations and a remainder of 2
    let bufs = co_buffers(n);
    let (orig, jit, o) = original_and_jit("alias_compute_output", &bufs, 64, &co_args(None, 18));
    // Metadata: image vs output disjoint, with sizes and the gap.
    let p = o
        .report
        .pairs
        .iter()
        .find(|p| (p.first.arg, p.second.arg) == (0, 2))
        .unwrap();
    assert_eq!(p.first.size(), 4 * (n as u64 + 16));
    assert_eq!(p.second.size(), 4 * (n as u64 + 16));
    let DriverRelation::Disjoint { gap_bytes } = p.relation else {
        panic!("{p:?}")
    };
    assert_eq!(gap_bytes, p.second.range.start - p.first.range.end);
    let v = o.variant.unwrap();
    assert_eq!(v.loops.len(), 1);
    assert_eq!((v.loops[0].unroll, v.loops[0].grouped), (4, true));
    assert_eq!(v.wide.loads, vec![4]);
    assert_eq!(v.wide.stores, vec![4]);
    // Exactly: the ×4 loop's one dwordx4 load, four gathers, one dwordx4
    // store; the remainder loop's load, gather and store.
    let l = v.kernel.listing();
    assert_eq!(
        memory_ops(&l),
        [
            "global_load_dwordx4",
            "global_load_dword",
            "global_load_dword",
            "global_load_dword",
            "global_load_dword",
            "global_store_dwordx4",
            "global_load_dword",
            "global_load_dword",
            "global_store_dword",
        ],
        "{l}"
    );
    assert_eq!(orig, jit, "bit-identical to the unoptimised kernel");
}

/// The unroll factor each distance allows, per kernel: compute_output and
/// copy_scale read in[i] (hazard at j − k = d); the stencil reads
/// in[i−1..=i+1] (hazard at d − 1, d, d + 1).
#[test]
fn behaviour_4_partial_overlap_is_limited_by_the_dependence_distance() {
    // (d, unroll, grouped, wide widths)
    let cases: [(i64, u32, bool, Vec<u8>); 7] = [
        (1, 4, false, vec![]),
        (2, 2, true, vec![2]),
        (3, 3, true, vec![3]),
        (4, 4, true, vec![4]),
        (5, 4, true, vec![4]),
        (-1, 4, true, vec![4]),
        (-3, 4, true, vec![4]),
    ];
    for (d, unroll, grouped, widths) in cases {
        let n = 32 * 18;
        let bufs = co_buffers(n);
        let (orig, jit, o) =
            original_and_jit("alias_compute_output", &bufs, 32, &co_args(Some(d), 18));
        let p = o
            .report
            .pairs
            .iter()
            .find(|p| (p.first.arg, p.second.arg) == (0, 2))
            .unwrap();
        let DriverRelation::PartialOverlap { overlap } = &p.relation else {
            panic!("d={d}: {p:?}")
        };
        assert_eq!(p.delta(), 4 * d);
        assert_eq!(
            *overlap,
            p.first.range.start.max(p.second.range.start)..p.first.range.end
        );
        assert_eq!(p.overlap_bytes(), p.first.size().min(p.second.size()));
        let v = o.variant.unwrap();
        assert_eq!(
            (v.loops[0].unroll, v.loops[0].grouped),
            (unroll, grouped),
            "d={d}"
        );
        assert_eq!(v.wide.loads, widths, "d={d}");
        assert_eq!(v.wide.stores, widths, "d={d}");
        assert_eq!(
            orig, jit,
            "compute_output d={d}: differs from the sequential loop"
        );

        let bufs = vec![float_data(4, n + 16)];
        let (inp, out) = if d >= 0 {
            (A::Buf(0, 0), A::Buf(0, 4 * d as u64))
        } else {
            (A::Buf(0, 4 * (-d) as u64), A::Buf(0, 0))
        };
        let args = [out, inp, A::F32(0.75), A::U32(18)];
        let (orig, jit, o) = original_and_jit("alias_copy_scale", &bufs, 32, &args);
        let v = o.variant.unwrap();
        assert_eq!(v.loops[0].unroll, unroll, "copy_scale d={d}");
        assert_eq!(
            orig, jit,
            "copy_scale d={d}: differs from the sequential loop"
        );
    }
    // The stencil: d = 4 conflicts at distance 3, so ×3; d = 2 at 1..3: ×4 kept in order.
    for (d, unroll, grouped) in [(4i64, 3, true), (2, 4, false), (6, 4, true), (-2, 4, true)] {
        let rows = 32;
        let stride = 40u32;
        let bufs = vec![float_data(5, rows * stride as usize + 16)];
        let (inp, out) = if d >= 0 {
            (A::Buf(0, 0), A::Buf(0, 4 * d as u64))
        } else {
            (A::Buf(0, 4 * (-d) as u64), A::Buf(0, 0))
        };
        let args = [inp, out, A::U32(30), A::U32(stride)];
        let (orig, jit, o) = original_and_jit("alias_stencil", &bufs, rows as u32, &args);
        let v = o.variant.unwrap();
        assert_eq!(
            (v.loops[0].unroll, v.loops[0].grouped),
            (unroll, grouped),
            "stencil d={d}"
        );
        assert_eq!(orig, jit, "stencil d={d}: differs from the sequential loop");
    }
}

#[test]
fn behaviour_5_the_unrolled_loop_branches_a_quarter_as_often() {
    use hw::{ClockedGpu, GpuConfig};
    // Branches retired for per_item = 64 and 128: the loop's share is the
    // difference (the rest of the kernel is the same), 64 iterations more.
    let branches = |per_item: u32, jit: bool| {
        let bufs = co_buffers(32 * per_item as usize);
        let gpu = ClockedGpu::new(GpuConfig::one_cu()).unwrap();
        let mut s = Session::new(gpu, compile_corpus("alias_compute_output"), &bufs);
        s.dispatch(32, 32, &co_args(None, per_item), jit);
        s.driver.device().stats().instructions.branch
    };
    let orig = branches(128, false) - branches(64, false);
    let jit = branches(128, true) - branches(64, true);
    // Same loop skeleton per iteration; 64 iterations vs 16.
    assert_eq!(orig % 64, 0, "{orig}");
    assert_eq!(jit * 4, orig, "original {orig}, recompiled {jit}");
}

#[test]
fn behaviour_6_several_pointer_arguments_get_metadata_per_pair() {
    // axpy_rows(out, a, b): a and b identical, out disjoint from both.
    let n = 32 * 16;
    let bufs = vec![vec![0; n], float_data(6, n + 8), float_data(7, n + 8)];
    let args = [
        A::Buf(0, 0),
        A::Buf(1, 0),
        A::Buf(1, 0),
        A::F32(2.0),
        A::U32(16),
    ];
    let (orig, jit, o) = original_and_jit("alias_axpy", &bufs, 32, &args);
    assert_eq!(o.report.identical, vec![(1, 2)]);
    let keys: Vec<_> = o
        .report
        .pairs
        .iter()
        .map(|p| (p.first.arg, p.second.arg))
        .collect();
    assert_eq!(keys, [(0, 1), (0, 2)]);
    assert_eq!(o.variant.as_ref().unwrap().loops[0].unroll, 4);
    assert_eq!(orig, jit);
    // out = a + 2 elements, b separate: (0,1) overlaps, (0,2) and (1,2) disjoint.
    let args = [
        A::Buf(1, 8),
        A::Buf(1, 0),
        A::Buf(2, 0),
        A::F32(2.0),
        A::U32(16),
    ];
    let (orig, jit, o) = original_and_jit("alias_axpy", &bufs, 32, &args);
    let rel: Vec<_> = o
        .report
        .pairs
        .iter()
        .map(|p| (p.first.arg, p.second.arg, p.overlap_bytes() > 0))
        .collect();
    assert_eq!(rel, [(0, 1, true), (0, 2, false), (1, 2, false)]);
    assert_eq!(
        o.report.signature(),
        "0-1:overlap-8;0-2:disjoint;1-2:disjoint"
    );
    let v = o.variant.unwrap();
    // out = a + 2: a later copy's load of `a` would read an earlier copy's store.
    assert_eq!(
        (v.loops[0].unroll, v.loops[0].grouped),
        (2, true),
        "distance 2"
    );
    assert_eq!(orig, jit);
}

#[test]
fn behaviour_7_without_a_no_alias_fact_loads_never_cross_stores() {
    let c = compile_corpus("alias_compute_output");
    // A fact about two loaded buffers only: nothing about the output.
    let facts = Facts {
        pairs: vec![PairFact {
            first: 0,
            second: 3,
            relation: Relation::Disjoint,
        }],
    };
    let v = recompile(&c.ir[0], &facts, &backend_opts()).unwrap();
    assert_eq!((v.loops[0].unroll, v.loops[0].grouped), (4, false));
    assert!(v.wide.loads.is_empty() && v.wide.stores.is_empty());
    let l = v.kernel.listing();
    let ops = memory_ops(&l);
    // Unrolled: four copies each load, gather, store — in that order — then
    // the remainder loop's three.
    let copy = [
        "global_load_dword",
        "global_load_dword",
        "global_store_dword",
    ];
    let want: Vec<&str> = copy.iter().cycle().take(15).copied().collect();
    assert_eq!(ops, want, "{l}");
}

#[test]
fn the_variant_cache_hits_on_the_second_dispatch_with_the_same_layout() {
    let bufs = co_buffers(32 * 16);
    let mut s = Session::new(golden(), compile_corpus("alias_compute_output"), &bufs);
    let first = s.dispatch(32, 32, &co_args(None, 16), true);
    let second = s.dispatch(32, 32, &co_args(None, 16), true);
    assert!(!first.hit && second.hit);
    assert!(std::sync::Arc::ptr_eq(
        first.variant.as_ref().unwrap(),
        second.variant.as_ref().unwrap()
    ));
    // Another layout is another variant; the first comes back from the cache.
    let third = s.dispatch(32, 32, &co_args(Some(2), 16), true);
    let fourth = s.dispatch(32, 32, &co_args(None, 16), true);
    assert!(!third.hit && fourth.hit);
    let st = s.cache.stats();
    assert_eq!(
        (st.analyses, st.recompilations, st.cache_hits),
        (4, 2, 2),
        "{st:?}"
    );
}

#[test]
fn the_variant_cache_tells_apart_kernels_of_one_name_from_different_programs() {
    // Two programs with a kernel `axpb` each, as PyOpenCL builds one per
    // element type: the same facts must give each its own variant (the
    // cache once returned the first one's for the second, whose arguments
    // then did not fit: "takes 4 bytes by value, 8 given").
    let source = |ty: &str| {
        format!(
            "__kernel void axpb(__global {ty} *z, __global const {ty} *x, {ty} a, uint n) {{\n\
             \x20 for (uint i = get_global_id(0); i < n; i += get_global_size(0)) z[i] = a * x[i];\n\
             }}\n"
        )
    };
    let build = |ty: &str| {
        let text = source(ty);
        compile(
            Source::Text {
                name: "axpb.cl",
                text: &text,
            },
            &CompileOptions::default(),
        )
        .unwrap_or_else(|d| panic!("{ty}: {d}"))
    };
    let (float, double) = (build("float"), build("double"));
    let facts = Facts {
        pairs: vec![PairFact {
            first: 0,
            second: 1,
            relation: Relation::Disjoint,
        }],
    };
    let mut cache = VariantCache::new();
    let opts = backend_opts();
    let pick = |cache: &mut VariantCache, ir| match cache.select(ir, &facts, &opts).unwrap() {
        Choice::Variant { variant, hit } => (variant, hit),
        Choice::Original => panic!("facts give a variant"),
    };
    let (f1, hit1) = pick(&mut cache, &float.ir[0]);
    let (d1, hit2) = pick(&mut cache, &double.ir[0]);
    let (f2, hit3) = pick(&mut cache, &float.ir[0]);
    assert_eq!((hit1, hit2, hit3), (false, false, true));
    assert!(
        !std::sync::Arc::ptr_eq(&f1, &d1),
        "one variant for both kernels"
    );
    assert!(std::sync::Arc::ptr_eq(&f1, &f2));
    // The double kernel's variant takes an 8-byte `a`.
    let arg_bytes = |v: &Variant| v.kernel.metadata.args[2].size;
    assert_eq!((arg_bytes(&f1), arg_bytes(&d1)), (4, 8));
}
