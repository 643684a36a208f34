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
                        subvector: Default::default(),
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
