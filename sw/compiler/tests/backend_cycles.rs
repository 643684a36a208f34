//! Seed 004 on the cycle model: the masked form and the blend form of the
//! same conditional expressions, run on the clocked GPU (`hw`, one-CU
//! configuration). Prints the cycles of each (the numbers quoted in
//! `docs/compiler-backend.md`) and checks every lane's result, so both forms
//! are measured on code known to be right.
//!
//! `cargo test --release -p compiler --test backend_cycles -- --nocapture`

mod backend_support;

use backend_support::{run_on, TestArg};
use compiler::backend::{compile, CompileOptions, MaskedSelect};
use compiler::ir::*;
use hw::{ClockedGpu, GpuConfig};

#[derive(Clone, Copy, Debug)]
enum Shape {
    /// `m ? a * b + c : 0`
    Zero,
    /// `old = m ? a * b + c : old`
    MergeInPlace,
    /// `r = m ? a * b + c : c` with `c` used again
    MergeCopy,
}

/// The mask: bit `gid % 64 / 32` of lane groups (`pattern` 0: lanes whose
/// `gid & 1` is set — every half active; 1: `gid & 32` — one wave64 half idle).
fn kernel(shape: Shape, pattern: u32) -> Function {
    let mut f = Function::new("cyc");
    for p in ["a", "b", "c", "out", "out2"] {
        f.add_param(p, Type::Ptr(AddrSpace::Global), "int*");
    }
    let mut b = Builder::new(&mut f);
    let ptrs: Vec<Value> = (0..5).map(|i| b.kernel_arg(i)).collect();
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let two = b.iconst(Type::I32, 2);
    let off = b.shl(gid, two);
    let addr: Vec<Value> = ptrs.iter().map(|&p| b.ptr_add(p, off)).collect();
    let x = b.load(Type::I32, addr[0]);
    let y = b.load(Type::I32, addr[1]);
    let z = b.load(Type::I32, addr[2]);
    let bit = b.iconst(Type::I32, if pattern == 0 { 1 } else { 32 });
    let mb = b.binary(BinaryOp::And, gid, bit);
    let m = b.truth(mb);
    // Every load is issued before the arithmetic in both forms, so the
    // comparison is not skewed by where the masked form places the operation.
    let old = b.load(Type::I32, addr[3]);
    let mac = b.ternary(TernaryOp::Imad, x, y, z);
    match shape {
        Shape::Zero => {
            let zero = b.iconst(Type::I32, 0);
            let r = b.select(m, mac, zero);
            b.store(addr[3], r);
        }
        Shape::MergeInPlace => {
            let r = b.select(m, mac, old);
            b.store(addr[3], r);
        }
        Shape::MergeCopy => {
            let r = b.select(m, mac, z);
            b.store(addr[3], r);
            let one = b.iconst(Type::I32, 1);
            let e = b.iadd(z, one);
            b.store(addr[4], e);
        }
    }
    b.ret();
    f
}

#[test]
fn masked_and_blend_forms_on_the_cycle_model() {
    const N: u32 = 2048;
    let a: Vec<u32> = (0..N).map(|i| i + 1).collect();
    let bb: Vec<u32> = (0..N).map(|i| i % 7).collect();
    let c: Vec<u32> = (0..N).map(|i| 3 * i).collect();
    let old: Vec<u32> = (0..N).map(|i| 0xdead_0000 | i).collect();
    println!("shape          mask     wave  masked  blend  (cycles, 1 CU, {N} work-items)");
    for shape in [Shape::Zero, Shape::MergeInPlace, Shape::MergeCopy] {
        for pattern in [0, 1] {
            for wave64 in [false, true] {
                let mut cycles = Vec::new();
                for policy in [MaskedSelect::Masked, MaskedSelect::Blend] {
                    let opts = CompileOptions {
                        wave64,
                        masked_select: policy,
                        optimize: true,
                        vgpr_limit: 0,
                        ..Default::default()
                    };
                    let k = compile(&kernel(shape, pattern), &opts).unwrap();
                    if std::env::var_os("SHOW_LISTING").is_some() && pattern == 0 && !wave64 {
                        println!("{shape:?} {policy:?}:\n{}", k.listing());
                    }
                    let gpu = ClockedGpu::new(GpuConfig::one_cu()).unwrap();
                    let args = [
                        TestArg::Buf(a.clone()),
                        TestArg::Buf(bb.clone()),
                        TestArg::Buf(c.clone()),
                        TestArg::Buf(old.clone()),
                        TestArg::Buf(vec![0; N as usize]),
                    ];
                    let (out, d) = run_on(gpu, &k, N, 256, &args).unwrap();
                    for i in 0..N as usize {
                        let m = if pattern == 0 {
                            i & 1 != 0
                        } else {
                            i & 32 != 0
                        };
                        let mac = a[i].wrapping_mul(bb[i]).wrapping_add(c[i]);
                        let want = match shape {
                            Shape::Zero => {
                                if m {
                                    mac
                                } else {
                                    0
                                }
                            }
                            Shape::MergeInPlace => {
                                if m {
                                    mac
                                } else {
                                    old[i]
                                }
                            }
                            Shape::MergeCopy => {
                                if m {
                                    mac
                                } else {
                                    c[i]
                                }
                            }
                        };
                        assert_eq!(
                            out[3][i], want,
                            "{shape:?} {policy:?} wave64={wave64} lane {i}"
                        );
                    }
                    let stats = d.device().stats();
                    cycles.push(stats.dispatches.last().map_or(stats.cycles, |s| s.cycles));
                }
                println!(
                    "{:<14} {:<8} {:<5} {:>6} {:>6}",
                    format!("{shape:?}"),
                    if pattern == 0 { "gid&1" } else { "gid&32" },
                    if wave64 { 64 } else { 32 },
                    cycles[0],
                    cycles[1]
                );
            }
        }
    }
}

/// Spilled code (flat-scratch prologue, scratch loads/stores) and a
/// divergent loop run on the cycle model too, with the golden results.
#[test]
fn spills_and_loops_run_on_the_cycle_model() {
    let mut f = Function::new("spill_loop");
    f.add_param("a", Type::Ptr(AddrSpace::Global), "int*");
    let mut b = Builder::new(&mut f);
    let a = b.kernel_arg(0);
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let two = b.iconst(Type::I32, 2);
    let mut xs = Vec::new();
    for i in 0..10 {
        let c = b.iconst(Type::I32, 64 * i);
        let idx = b.iadd(gid, c);
        let off = b.shl(idx, two);
        let p = b.ptr_add(a, off);
        xs.push(b.load(Type::I32, p));
    }
    // while (i < (gid & 7)) { acc = acc * 3 + x[i % 10] ... } — kept simple:
    // acc folds the loads, then a divergent loop adds gid & 7 times.
    let mut acc = xs[0];
    for &x in &xs[1..] {
        let t = b.imul(acc, two);
        acc = b.binary(BinaryOp::Xor, t, x);
    }
    let seven = b.iconst(Type::I32, 7);
    let n = b.binary(BinaryOp::And, gid, seven);
    let zero = b.iconst(Type::I32, 0);
    let one = b.iconst(Type::I32, 1);
    let head = b.create_block();
    let body = b.create_block();
    let exit = b.create_block();
    let i = b.block_param(head, Type::I32);
    let s = b.block_param(head, Type::I32);
    let r = b.block_param(exit, Type::I32);
    b.jump(head, &[zero, acc]);
    b.switch_to(head);
    let go = b.icmp(IntCC::Slt, i, n);
    b.brif(go, body, &[], exit, &[s]);
    b.switch_to(body);
    let s2 = b.iadd(s, xs[9]);
    let i2 = b.iadd(i, one);
    b.jump(head, &[i2, s2]);
    b.switch_to(exit);
    let off = b.shl(gid, two);
    let p = b.ptr_add(a, off);
    b.store(p, r);
    b.ret();
    let input: Vec<u32> = (0..640u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
    let want: Vec<u32> = (0..64usize)
        .map(|g| {
            let xs: Vec<u32> = (0..10).map(|i| input[g + 64 * i]).collect();
            let acc = xs[1..]
                .iter()
                .fold(xs[0], |acc, &x| acc.wrapping_mul(2) ^ x);
            (0..(g as u32 & 7)).fold(acc, |s, _| s.wrapping_add(xs[9]))
        })
        .collect();
    for wave64 in [false, true] {
        let opts = CompileOptions {
            wave64,
            vgpr_limit: 8,
            ..Default::default()
        };
        let k = compile(&f, &opts).unwrap();
        assert!(
            k.listing().contains("scratch_store_dword"),
            "{}",
            k.listing()
        );
        let gpu = ClockedGpu::new(GpuConfig::one_cu()).unwrap();
        let (out, _) = run_on(gpu, &k, 64, 64, &[TestArg::Buf(input.clone())]).unwrap();
        assert_eq!(&out[0][..64], &want[..], "wave64={wave64}\n{}", k.listing());
        let golden = backend_support::run(&k, 64, 64, &[TestArg::Buf(input.clone())]).unwrap();
        assert_eq!(&golden[0][..64], &want[..], "golden, wave64={wave64}");
    }
}

/// An operation of the cost measurement.
#[derive(Clone, Copy, Debug, PartialEq)]
enum CostOp {
    /// `x + y`: one VALU instruction.
    Add,
    /// `x / y` (32-bit unsigned): the reciprocal expansion, ~15 VALU
    /// instructions with a transcendental `v_rcp_iflag_f32`.
    Div,
    /// `v_sqrt_f32` on `(float)x`: one transcendental instruction.
    Sqrt,
    /// A global load of `x`'s element: masked means the load is issued
    /// under EXEC = m (a divergent branch around it, what the lowering does
    /// for `m ? p[i] : 0`, since loads are not speculated), blend means it
    /// is loaded in every lane and `v_cndmask` picks.
    Load,
}

/// The mask of the cost measurement.
#[derive(Clone, Copy, Debug, PartialEq)]
enum CostMask {
    /// `gid % 8 != 0`: 7 of 8 lanes.
    Dense,
    /// `gid % 8 == 0`: 1 of 8 lanes.
    Sparse,
    /// `gid % 64 >= 32`: the low 32-lane half of every wave64 all false
    /// (in wave32 every other wave is all false).
    HalfEmpty,
}

impl CostMask {
    fn holds(self, gid: u32) -> bool {
        match self {
            CostMask::Dense => gid % 8 != 0,
            CostMask::Sparse => gid % 8 == 0,
            CostMask::HalfEmpty => gid % 64 >= 32,
        }
    }
}

/// Chained conditional expressions per work-item in the cost kernel.
const CHAIN: u32 = 8;

/// `out[gid] = Σ_k (m ? op(x_k, y) : 0)` for `k < CHAIN`, with `x_k =
/// a[gid] + k` (for loads: `a[gid + k * n]`), `y = b[gid]`.
fn cost_kernel(op: CostOp, mask: CostMask, masked_branch: bool, n: u32) -> Function {
    let mut f = Function::new("cost");
    for p in ["a", "b", "out"] {
        f.add_param(p, Type::Ptr(AddrSpace::Global), "int*");
    }
    let mut b = Builder::new(&mut f);
    let (pa, pb, pout) = (b.kernel_arg(0), b.kernel_arg(1), b.kernel_arg(2));
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let two = b.iconst(Type::I32, 2);
    let off = b.shl(gid, two);
    let aa = b.ptr_add(pa, off);
    let ab = b.ptr_add(pb, off);
    let x = b.load(Type::I32, aa);
    let y = b.load(Type::I32, ab);
    let m = match mask {
        CostMask::Dense | CostMask::Sparse => {
            let seven = b.iconst(Type::I32, 7);
            let low = b.binary(BinaryOp::And, gid, seven);
            let zero = b.iconst(Type::I32, 0);
            let cc = if mask == CostMask::Dense {
                IntCC::Ne
            } else {
                IntCC::Eq
            };
            b.icmp(cc, low, zero)
        }
        CostMask::HalfEmpty => {
            let k = b.iconst(Type::I32, 32);
            let bit = b.binary(BinaryOp::And, gid, k);
            b.truth(bit)
        }
    };
    let zero = b.iconst(Type::I32, 0);
    let mut acc = zero;
    for k in 0..CHAIN {
        let kk = b.iconst(Type::I32, k as i64);
        let r = match op {
            CostOp::Load => {
                let idx = b.iconst(Type::I32, i64::from(k * n * 4));
                let p = b.ptr_add(aa, idx);
                if masked_branch {
                    let (t, j) = (b.create_block(), b.create_block());
                    let v = b.block_param(j, Type::I32);
                    b.brif(m, t, &[], j, &[zero]);
                    b.switch_to(t);
                    let l = b.load(Type::I32, p);
                    b.jump(j, &[l]);
                    b.switch_to(j);
                    v
                } else {
                    let l = b.load(Type::I32, p);
                    b.select(m, l, zero)
                }
            }
            _ => {
                let xk = b.iadd(x, kk);
                match op {
                    CostOp::Add => {
                        let v = b.iadd(xk, y);
                        b.select(m, v, zero)
                    }
                    CostOp::Div => {
                        let v = b.binary(BinaryOp::Udiv, xk, y);
                        b.select(m, v, zero)
                    }
                    CostOp::Sqrt => {
                        let fx = b.convert(ConvertOp::UiToFp, xk, Type::F32);
                        let s = b.call(Builtin::Sqrt, &[fx]);
                        let fzero = b.f32const(0.0);
                        let r = b.select(m, s, fzero);
                        b.convert(ConvertOp::Bitcast, r, Type::I32)
                    }
                    CostOp::Load => unreachable!(),
                }
            }
        };
        acc = b.iadd(acc, r);
    }
    let po = b.ptr_add(pout, off);
    b.store(po, acc);
    b.ret();
    f
}

/// Seed 004's choice measured: masked form against blend for a cheap
/// operation (add), expensive ones (division, `sqrt`) and a load, with a
/// dense, a sparse and a half-empty wave64 mask, wave32 and wave64, on the
/// clocked GPU (1 CU). Both forms give the same bits in every lane (and the
/// Rust value where it is exact). The relationships asserted are the ones
/// the measurements establish (docs/performance.md, "Seed 004: masked vs
/// blend by cost"); `prefer_masked` follows them.
#[test]
fn masked_versus_blend_by_operation_cost() {
    const N: u32 = 2048;
    let a: Vec<u32> = (0..CHAIN * N)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 3)
        .collect();
    let bv: Vec<u32> = (0..N).map(|i| 1 + i % 13).collect();
    let mut table = Vec::new();
    println!("op     mask       wave  masked  blend  skipped halves (masked/blend)");
    for op in [CostOp::Add, CostOp::Div, CostOp::Sqrt, CostOp::Load] {
        for mask in [CostMask::Dense, CostMask::Sparse, CostMask::HalfEmpty] {
            for wave64 in [false, true] {
                let mut cycles = Vec::new();
                let mut skipped = Vec::new();
                let mut outs = Vec::new();
                for masked in [true, false] {
                    let policy = if masked {
                        MaskedSelect::Masked
                    } else {
                        MaskedSelect::Blend
                    };
                    let opts = CompileOptions {
                        wave64,
                        masked_select: policy,
                        optimize: true,
                        vgpr_limit: 0,
                        ..Default::default()
                    };
                    let k = compile(&cost_kernel(op, mask, masked, N), &opts).unwrap();
                    let l = k.listing();
                    if op != CostOp::Load {
                        let saveexec = l.contains("saveexec");
                        assert_eq!(saveexec, masked, "{op:?} {mask:?} masked={masked}:\n{l}");
                    }
                    let gpu = ClockedGpu::new(GpuConfig::one_cu()).unwrap();
                    let args = [
                        TestArg::Buf(a.clone()),
                        TestArg::Buf(bv.clone()),
                        TestArg::Buf(vec![0; N as usize]),
                    ];
                    let (out, d) = run_on(gpu, &k, N, 256, &args).unwrap();
                    let stats = d.device().stats();
                    cycles.push(stats.dispatches.last().map_or(stats.cycles, |s| s.cycles));
                    skipped.push(stats.cus.iter().map(|c| c.skipped_halves).sum::<u64>());
                    outs.push(out[2].clone());
                }
                assert_eq!(
                    outs[0], outs[1],
                    "{op:?} {mask:?} wave64={wave64}: forms differ"
                );
                if op != CostOp::Sqrt {
                    for g in 0..N {
                        let want = (0..CHAIN).fold(0u32, |s, k| {
                            let v = if !mask.holds(g) {
                                0
                            } else {
                                let (x, y) = (a[g as usize].wrapping_add(k), bv[g as usize]);
                                match op {
                                    CostOp::Add => x.wrapping_add(y),
                                    CostOp::Div => x / y,
                                    CostOp::Load => a[(g + k * N) as usize],
                                    CostOp::Sqrt => unreachable!(),
                                }
                            };
                            s.wrapping_add(v)
                        });
                        assert_eq!(outs[0][g as usize], want, "{op:?} {mask:?} lane {g}");
                    }
                }
                println!(
                    "{:<6} {:<10} {:<5} {:>6} {:>6}  {}/{}",
                    format!("{op:?}"),
                    format!("{mask:?}"),
                    if wave64 { 64 } else { 32 },
                    cycles[0],
                    cycles[1],
                    skipped[0],
                    skipped[1]
                );
                table.push((op, mask, wave64, cycles[0], cycles[1]));
            }
        }
    }
    let get = |op, mask, w64| {
        table
            .iter()
            .find(|r| r.0 == op && r.1 == mask && r.2 == w64)
            .map(|r| (r.3, r.4))
            .unwrap()
    };
    use compiler::backend::masked_select::{prefer_masked, EXPENSIVE};
    for mask in [CostMask::Dense, CostMask::Sparse, CostMask::HalfEmpty] {
        for op in [CostOp::Add, CostOp::Div, CostOp::Sqrt] {
            // Wave32 skips nothing: the masked form only adds instructions.
            let (m, bl) = get(op, mask, false);
            assert!(m >= bl, "{op:?} {mask:?} wave32: masked {m} < blend {bl}");
        }
        // A masked add never pays in zero mode (within 1%, wave64).
        let (m, bl) = get(CostOp::Add, mask, true);
        assert!(
            m * 100 >= bl * 99,
            "add {mask:?} wave64: masked {m}, blend {bl}"
        );
    }
    // The clocked GPU skips an empty wave64 half: masked expensive
    // operations win big with a half-empty mask...
    let (m, bl) = get(CostOp::Div, CostMask::HalfEmpty, true);
    assert!(
        m * 100 < bl * 80,
        "div half-empty wave64: masked {m}, blend {bl}"
    );
    let (m, bl) = get(CostOp::Sqrt, CostMask::HalfEmpty, true);
    assert!(
        m * 100 < bl * 95,
        "sqrt half-empty wave64: masked {m}, blend {bl}"
    );
    // ...and lose at most 1% with both halves active.
    for op in [CostOp::Div, CostOp::Sqrt] {
        for mask in [CostMask::Dense, CostMask::Sparse] {
            let (m, bl) = get(op, mask, true);
            assert!(
                m * 100 <= bl * 101,
                "{op:?} {mask:?} wave64: masked {m}, blend {bl}"
            );
        }
    }
    // A load is never issued under a select mask (the lowering branches
    // around it): the branch skips whole empty wave32 waves but not a wave64
    // half (memory instructions are not split).
    let (m, bl) = get(CostOp::Load, CostMask::HalfEmpty, false);
    assert!(
        m < bl,
        "load half-empty wave32: branch {m}, load everywhere {bl}"
    );
    // The choice follows: masked for expensive operations in wave64 only.
    assert!(prefer_masked(EXPENSIVE, true, false, false, true));
    assert!(prefer_masked(18, true, true, true, true));
    assert!(!prefer_masked(EXPENSIVE, true, false, false, false));
    assert!(!prefer_masked(1, true, false, false, true));
}
