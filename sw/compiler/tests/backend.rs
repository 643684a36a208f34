//! The back end end to end: IR built with the builder, compiled to a code
//! object, loaded by the driver and run on the golden GPU; results checked
//! per lane.

mod backend_support;

use backend_support::{
    accumulate_loop, dword_at, int_buffer, int_value, kernel, kernel_args, run, TestArg,
};
use compiler::backend::{compile, CompileOptions};
use compiler::ir::*;

fn opts(wave64: bool) -> CompileOptions {
    CompileOptions {
        wave64,
        ..Default::default()
    }
}

/// `out[gid] = gid * 3 + n`
fn iota_kernel() -> Function {
    let mut f = kernel("iota", &[int_buffer("out"), int_value("n")]);
    let mut b = Builder::new(&mut f);
    let [out, n] = kernel_args(&mut b);
    let id = b.work_item(WorkItemQuery::GlobalId, 0);
    let three = b.iconst(Type::I32, 3);
    let x = b.imul(id, three);
    let y = b.iadd(x, n);
    let two = b.iconst(Type::I32, 2);
    let off = b.shl(id, two);
    let p = b.ptr_add(out, off);
    b.store(p, y);
    b.ret();
    f
}

#[test]
fn straight_line_kernel_runs_on_the_golden_gpu() {
    for wave64 in [false, true] {
        let k = compile(&iota_kernel(), &opts(wave64)).unwrap();
        println!("{}", k.listing());
        let out = run(&k, 200, 64, &[TestArg::Buf(vec![0; 200]), TestArg::U32(7)]).unwrap();
        let want: Vec<u32> = (0..200).map(|i| i * 3 + 7).collect();
        assert_eq!(out[0], want, "wave64={wave64}");
    }
}

/// `x = a[gid]; y = x > 5 ? (if) x * 2 : (else) x + 100; if (n > 10) y += 1000 (uniform); out[gid] = y`
fn branches_kernel() -> Function {
    let mut f = kernel(
        "branches",
        &[int_buffer("a"), int_buffer("out"), int_value("n")],
    );
    let mut b = Builder::new(&mut f);
    let [a, out, n] = kernel_args(&mut b);
    let id = b.work_item(WorkItemQuery::GlobalId, 0);
    let two = b.iconst(Type::I32, 2);
    let off = b.shl(id, two);
    let pa = b.ptr_add(a, off);
    let x = b.load(Type::I32, pa);
    let five = b.iconst(Type::I32, 5);
    let c = b.icmp(IntCC::Sgt, x, five);
    let then_b = b.create_block();
    let else_b = b.create_block();
    let join = b.create_block();
    let y = b.block_param(join, Type::I32);
    b.brif(c, then_b, &[], else_b, &[]);
    b.switch_to(then_b);
    let x2 = b.imul(x, two);
    b.jump(join, &[x2]);
    b.switch_to(else_b);
    let hundred = b.iconst(Type::I32, 100);
    let x3 = b.iadd(x, hundred);
    b.jump(join, &[x3]);
    b.switch_to(join);
    let ten = b.iconst(Type::I32, 10);
    let big = b.icmp(IntCC::Sgt, n, ten);
    let add_b = b.create_block();
    let end = b.create_block();
    let z = b.block_param(end, Type::I32);
    b.brif(big, add_b, &[], end, &[y]);
    b.switch_to(add_b);
    let k = b.iconst(Type::I32, 1000);
    let y2 = b.iadd(y, k);
    b.jump(end, &[y2]);
    b.switch_to(end);
    let po = b.ptr_add(out, off);
    b.store(po, z);
    b.ret();
    f
}

#[test]
fn divergent_if_else_and_uniform_branch() {
    let input: Vec<u32> = (0..100).map(|i| (i * 7) % 13).collect();
    for wave64 in [false, true] {
        let f = branches_kernel();
        let k = compile(&f, &opts(wave64)).unwrap();
        let text = k.listing();
        let saveexec = if wave64 {
            "s_and_saveexec_b64"
        } else {
            "s_and_saveexec_b32"
        };
        for needle in [
            saveexec,
            "s_cbranch_execz",
            "s_cbranch_scc0",
            // The uniform `n > 10` branches on its own compare's SCC.
            "s_cmp_gt_i32",
        ] {
            assert!(text.contains(needle), "{needle} missing:\n{text}");
        }
        assert!(!text.contains("s_cselect"), "{text}");
        for n in [3u32, 50] {
            let out = run(
                &k,
                100,
                32,
                &[
                    TestArg::Buf(input.clone()),
                    TestArg::Buf(vec![0; 100]),
                    TestArg::U32(n),
                ],
            )
            .unwrap();
            let want: Vec<u32> = input
                .iter()
                .map(|&x| {
                    let y = if x as i32 > 5 { x * 2 } else { x + 100 };
                    if n > 10 {
                        y + 1000
                    } else {
                        y
                    }
                })
                .collect();
            assert_eq!(out[1], want, "wave64={wave64} n={n}\n{text}");
        }
    }
}

/// LDS, barrier, local size and an atomic: `tmp[lid] = a[gid]; barrier;
/// out[gid] = tmp[size - 1 - lid]; atomic_add(count, 1)`.
#[test]
fn lds_barrier_and_atomics() {
    let mut f = kernel(
        "reverse",
        &[int_buffer("a"), int_buffer("out"), int_buffer("count")],
    );
    let tmp = f.add_local(256 * 4, 4);
    let mut b = Builder::new(&mut f);
    let [a, out, count] = kernel_args(&mut b);
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let lid = b.work_item(WorkItemQuery::LocalId, 0);
    let size = b.work_item(WorkItemQuery::LocalSize, 0);
    let two = b.iconst(Type::I32, 2);
    let goff = b.shl(gid, two);
    let pa = b.ptr_add(a, goff);
    let x = b.load(Type::I32, pa);
    let base = b.local_addr(tmp);
    let loff = b.shl(lid, two);
    let pl = b.ptr_add(base, loff);
    b.store(pl, x);
    b.barrier();
    let one = b.iconst(Type::I32, 1);
    let last = b.isub(size, one);
    let r = b.isub(last, lid);
    let roff = b.shl(r, two);
    let pr = b.ptr_add(base, roff);
    let y = b.load(Type::I32, pr);
    let po = b.ptr_add(out, goff);
    b.store(po, y);
    b.atomic(AtomicOp::Add, count, one);
    b.ret();
    let input: Vec<u32> = (0..128).map(|i| i * 10).collect();
    for wave64 in [false, true] {
        let k = compile(&f, &opts(wave64)).unwrap();
        assert_eq!(k.descriptor.group_segment_fixed_size, 1024);
        let out = run(
            &k,
            128,
            64,
            &[
                TestArg::Buf(input.clone()),
                TestArg::Buf(vec![0; 128]),
                TestArg::Buf(vec![0]),
            ],
        )
        .unwrap();
        let want: Vec<u32> = (0..128u32)
            .map(|g| input[((g / 64) * 64 + 63 - g % 64) as usize])
            .collect();
        assert_eq!(out[1], want, "wave64={wave64}\n{}", k.listing());
        assert_eq!(out[2], vec![128], "one atomic add per work-item");
    }
}

/// Floats, conversions, built-ins: `out[gid] = sqrt((float)gid) * 2 + clz(gid)`.
#[test]
fn floats_conversions_and_builtins() {
    let mut f = kernel("fl", &[("out", Type::Ptr(AddrSpace::Global), "float*")]);
    let mut b = Builder::new(&mut f);
    let [out] = kernel_args(&mut b);
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let fx = b.convert(ConvertOp::SiToFp, gid, Type::F32);
    let s = b.call(Builtin::Sqrt, &[fx]);
    let two = b.f32const(2.0);
    let s2 = b.binary(BinaryOp::Fmul, s, two);
    let z = b.call(Builtin::Clz, &[gid]);
    let fz = b.convert(ConvertOp::SiToFp, z, Type::F32);
    let r = b.binary(BinaryOp::Fadd, s2, fz);
    let four = b.iconst(Type::I32, 4);
    let off = b.imul(gid, four);
    let p = b.ptr_add(out, off);
    b.store(p, r);
    b.ret();
    let k = compile(&f, &opts(false)).unwrap();
    let out = run(&k, 64, 64, &[TestArg::Buf(vec![0; 64])]).unwrap();
    for (g, &bits) in out[0].iter().enumerate() {
        let want = (g as f32).sqrt() * 2.0 + (g as u32).leading_zeros() as f32;
        let got = f32::from_bits(bits);
        // v_sqrt_f32 is accurate to 1 ulp, not correctly rounded.
        assert!(
            (got - want).abs() <= want.abs() * 1e-6,
            "lane {g}: {got} vs {want}"
        );
    }
}

#[test]
fn unsupported_constructs_are_clear_errors() {
    // A `break` inside an if inside the loop (the if's join lies outside
    // the loop) is refused rather than compiled with wrong EXEC handling.
    let mut f = Function::new("nested_break");
    let mut b = Builder::new(&mut f);
    let lid = b.work_item(WorkItemQuery::LocalId, 0);
    let zero = b.iconst(Type::I32, 0);
    let one = b.iconst(Type::I32, 1);
    let ten = b.iconst(Type::I32, 10);
    let head = b.create_block();
    let body = b.create_block();
    let check = b.create_block();
    let latch = b.create_block();
    let exit = b.create_block();
    let i = b.block_param(head, Type::I32);
    b.block_param(exit, Type::I32);
    b.jump(head, &[zero]);
    b.switch_to(head);
    let go = b.icmp(IntCC::Slt, i, ten);
    b.brif(go, body, &[], exit, &[i]);
    b.switch_to(body);
    let odd = b.binary(BinaryOp::And, lid, one);
    b.brif(odd, check, &[], latch, &[]);
    b.switch_to(check);
    let stop = b.icmp(IntCC::Uge, i, lid);
    b.brif(stop, exit, &[i], latch, &[]);
    b.switch_to(latch);
    let i1 = b.iadd(i, one);
    b.jump(head, &[i1]);
    b.switch_to(exit);
    b.ret();
    verify(&f).unwrap();
    let e = compile(&f, &opts(false)).unwrap_err().to_string();
    assert!(e.contains("not supported"), "{e}");
    // Malformed IR is refused by the verifier before selection.
    let mut f = Function::new("bad");
    let mut b = Builder::new(&mut f);
    b.iconst(Type::I32, 0);
    let e = compile(&f, &opts(false)).unwrap_err().to_string();
    assert!(e.starts_with("IR verifier"), "{e}");
}

/// `acc = 0; i = 0; do { acc += a[gid + i * grid]; i++ } while (i < n);
/// out[gid] = acc` — a uniform loop: scalar exit branch, SGPR counter.
#[test]
fn uniform_do_while_loop() {
    let mut f = kernel(
        "sumcols",
        &[int_buffer("a"), int_buffer("out"), int_value("n")],
    );
    let mut b = Builder::new(&mut f);
    let [a, out, n] = kernel_args(&mut b);
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let grid = b.work_item(WorkItemQuery::GlobalSize, 0);
    let zero = b.iconst(Type::I32, 0);
    accumulate_loop(&mut b, zero, n, out, gid, |b, i, acc| {
        let row = b.imul(i, grid);
        let idx = b.iadd(row, gid);
        let p = dword_at(b, a, idx);
        let x = b.load(Type::I32, p);
        b.iadd(acc, x)
    });
    let rows = 5u32;
    let cols = 96u32;
    let input: Vec<u32> = (0..rows * cols).map(|i| i * 3 + 1).collect();
    for wave64 in [false, true] {
        let k = compile(&f, &opts(wave64)).unwrap();
        let text = k.listing();
        assert!(
            text.contains("s_cbranch_scc1") && !text.contains("s_cbranch_execz"),
            "{text}"
        );
        let out = run(
            &k,
            cols,
            32,
            &[
                TestArg::Buf(input.clone()),
                TestArg::Buf(vec![0; cols as usize]),
                TestArg::U32(rows),
            ],
        )
        .unwrap();
        let want: Vec<u32> = (0..cols)
            .map(|c| (0..rows).map(|r| input[(r * cols + c) as usize]).sum())
            .collect();
        assert_eq!(out[1], want, "wave64={wave64}\n{text}");
    }
}

/// `x = 1; i = 0; while (i < (lid & 7)) { if (x > limit) break; x *= 3; i++; }
/// out[gid] = x * 10 + i` — a divergent loop with two divergent exits
/// (from the header and from the body), values handed to the exit block.
#[test]
fn divergent_while_loop_with_break() {
    let mut f = kernel("pow3", &[int_buffer("out"), int_value("limit")]);
    let mut b = Builder::new(&mut f);
    let [out, limit] = kernel_args(&mut b);
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let lid = b.work_item(WorkItemQuery::LocalId, 0);
    let zero = b.iconst(Type::I32, 0);
    let one = b.iconst(Type::I32, 1);
    let three = b.iconst(Type::I32, 3);
    let seven_mask = b.iconst(Type::I32, 7);
    let kk = b.binary(BinaryOp::And, lid, seven_mask);
    let head = b.create_block();
    let body = b.create_block();
    let exit = b.create_block();
    let i = b.block_param(head, Type::I32);
    let x = b.block_param(head, Type::I32);
    let rx = b.block_param(exit, Type::I32);
    let ri = b.block_param(exit, Type::I32);
    b.jump(head, &[zero, one]);
    b.switch_to(head);
    let go = b.icmp(IntCC::Slt, i, kk);
    b.brif(go, body, &[], exit, &[x, i]);
    b.switch_to(body);
    let big = b.icmp(IntCC::Sgt, x, limit);
    let x3 = b.imul(x, three);
    let i1 = b.iadd(i, one);
    b.brif(big, exit, &[x, i], head, &[i1, x3]);
    b.switch_to(exit);
    let ten = b.iconst(Type::I32, 10);
    let t = b.imul(rx, ten);
    let r = b.iadd(t, ri);
    let two = b.iconst(Type::I32, 2);
    let goff = b.shl(gid, two);
    let po = b.ptr_add(out, goff);
    b.store(po, r);
    b.ret();
    verify(&f).unwrap();
    for wave64 in [false, true] {
        let k = compile(&f, &opts(wave64)).unwrap();
        let text = k.listing();
        assert!(
            text.contains("s_cbranch_execz") && text.contains("s_andn2_b"),
            "{text}"
        );
        if std::env::var_os("SHOW_LISTING").is_some() {
            println!("{text}");
        }
        for limit in [20u32, 1000] {
            let out = run(
                &k,
                128,
                64,
                &[TestArg::Buf(vec![0; 128]), TestArg::U32(limit)],
            )
            .unwrap();
            let want: Vec<u32> = (0..128u32)
                .map(|g| {
                    let kk = (g % 64) & 7;
                    let (mut x, mut i) = (1u32, 0u32);
                    while i < kk {
                        if x as i32 > limit as i32 {
                            break;
                        }
                        x *= 3;
                        i += 1;
                    }
                    x * 10 + i
                })
                .collect();
            assert_eq!(out[0], want, "wave64={wave64} limit={limit}\n{text}");
        }
    }
}

/// Twelve values live at once under an 8-VGPR limit: VGPRs spill to scratch
/// (flat-scratch prologue, `scratch_store/load_dword`), including inside a
/// divergent if; results checked per lane.
#[test]
fn vgpr_spilling_to_scratch() {
    const K: u32 = 12;
    let mut f = kernel("spill", &[int_buffer("a"), int_buffer("out")]);
    let mut b = Builder::new(&mut f);
    let [a, out] = kernel_args(&mut b);
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let k = b.iconst(Type::I32, K as i64);
    let base = b.imul(gid, k);
    let mut xs = Vec::new();
    for i in 0..K {
        let c = b.iconst(Type::I32, i64::from(i));
        let idx = b.iadd(base, c);
        let four = b.iconst(Type::I32, 4);
        let off = b.imul(idx, four);
        let p = b.ptr_add(a, off);
        xs.push(b.load(Type::I32, p));
    }
    let three = b.iconst(Type::I32, 3);
    let mut r = xs[0];
    for &x in &xs[1..] {
        let t = b.imul(r, three);
        r = b.iadd(t, x);
    }
    // A divergent if that reads spilled values on one side.
    let odd = b.iconst(Type::I32, 1);
    let bit = b.binary(BinaryOp::And, gid, odd);
    let c = b.truth(bit);
    let t_b = b.create_block();
    let j = b.create_block();
    let p = b.block_param(j, Type::I32);
    b.brif(c, t_b, &[], j, &[r]);
    b.switch_to(t_b);
    let mut s = r;
    for &x in &xs {
        s = b.binary(BinaryOp::Xor, s, x);
    }
    b.jump(j, &[s]);
    b.switch_to(j);
    let four = b.iconst(Type::I32, 4);
    let goff = b.imul(gid, four);
    let po = b.ptr_add(out, goff);
    b.store(po, p);
    b.ret();
    let n = 96u32;
    let input: Vec<u32> = (0..n * K).map(|i| i.wrapping_mul(2654435761)).collect();
    for wave64 in [false, true] {
        let o = CompileOptions {
            wave64,
            vgpr_limit: 8,
            ..Default::default()
        };
        let k = compile(&f, &o).unwrap();
        let text = k.listing();
        assert!(
            text.contains("s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO)"),
            "{text}"
        );
        assert!(
            text.contains("scratch_store_dword") && text.contains("scratch_load_dword"),
            "{text}"
        );
        assert!(k.descriptor.private_segment_fixed_size > 0);
        if std::env::var_os("SHOW_LISTING").is_some() {
            println!("{text}");
        }
        assert!(k.metadata.vgpr_count <= 8, "{}", k.metadata.vgpr_count);
        let out = run(
            &k,
            n,
            32,
            &[
                TestArg::Buf(input.clone()),
                TestArg::Buf(vec![0; n as usize]),
            ],
        )
        .unwrap();
        let want: Vec<u32> = (0..n)
            .map(|g| {
                let xs: Vec<u32> = (0..K).map(|i| input[(g * K + i) as usize]).collect();
                let r = xs[1..]
                    .iter()
                    .fold(xs[0], |r, &x| r.wrapping_mul(3).wrapping_add(x));
                if g & 1 == 1 {
                    xs.iter().fold(r, |s, &x| s ^ x)
                } else {
                    r
                }
            })
            .collect();
        assert_eq!(out[1], want, "wave64={wave64}\n{text}");
        // Without the limit nothing spills.
        let k = compile(&f, &opts(wave64)).unwrap();
        assert!(!k.listing().contains("scratch_"), "{}", k.listing());
    }
}

/// `if (gid >= n) return; out[gid] = gid * 8 / 2` — the guard every OpenCL
/// kernel starts with: an early return inside a divergent branch.
#[test]
fn early_return_guard() {
    let mut f = kernel("guard", &[int_buffer("out"), int_value("n")]);
    let mut b = Builder::new(&mut f);
    let [out, n] = kernel_args(&mut b);
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let done = b.icmp(IntCC::Uge, gid, n);
    let quit = b.create_block();
    let body = b.create_block();
    b.brif(done, quit, &[], body, &[]);
    b.switch_to(quit);
    b.ret();
    b.switch_to(body);
    let eight = b.iconst(Type::I32, 8);
    let two = b.iconst(Type::I32, 2);
    let x = b.imul(gid, eight);
    let y = b.binary(BinaryOp::Udiv, x, two);
    let four = b.iconst(Type::I32, 4);
    let off = b.imul(gid, four);
    let p = b.ptr_add(out, off);
    b.store(p, y);
    b.ret();
    for wave64 in [false, true] {
        let o = CompileOptions {
            wave64,
            optimize: true,
            ..Default::default()
        };
        let k = compile(&f, &o).unwrap();
        let text = k.listing();
        assert!(!text.contains("v_mul_lo_u32"), "strength-reduced:\n{text}");
        let out = run(
            &k,
            128,
            64,
            &[TestArg::Buf(vec![7; 128]), TestArg::U32(100)],
        )
        .unwrap();
        let want: Vec<u32> = (0..128).map(|g| if g < 100 { g * 4 } else { 7 }).collect();
        assert_eq!(out[0], want, "wave64={wave64}\n{text}");
    }
}

/// Integer division and remainder (signed and unsigned, divergent and
/// uniform operands) against Rust's, over awkward values.
#[test]
fn integer_division_and_remainder() {
    let ops = [
        BinaryOp::Udiv,
        BinaryOp::Urem,
        BinaryOp::Sdiv,
        BinaryOp::Srem,
    ];
    let mut f = kernel(
        "div",
        &[
            int_buffer("a"),
            int_buffer("b"),
            int_buffer("out"),
            int_value("k"),
        ],
    );
    let mut b = Builder::new(&mut f);
    let [pa, pb, po, k] = kernel_args(&mut b);
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let two = b.iconst(Type::I32, 2);
    let off = b.shl(gid, two);
    let x = {
        let p = b.ptr_add(pa, off);
        b.load(Type::I32, p)
    };
    let y = {
        let p = b.ptr_add(pb, off);
        b.load(Type::I32, p)
    };
    let n = b.iconst(Type::I32, 6);
    let base = b.imul(gid, n);
    let four = b.iconst(Type::I32, 4);
    for (slot, (op, divisor)) in ops
        .iter()
        .map(|&o| (o, y))
        .chain([(BinaryOp::Udiv, k), (BinaryOp::Srem, k)])
        .enumerate()
    {
        let r = b.binary(op, x, divisor);
        let s = b.iconst(Type::I32, slot as i64);
        let idx = b.iadd(base, s);
        let o = b.imul(idx, four);
        let p = b.ptr_add(po, o);
        b.store(p, r);
    }
    b.ret();
    let specials = [
        0u32,
        1,
        2,
        3,
        7,
        100,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_ffff,
        0xffff_fffe,
        12345678,
        0x8000_0001,
    ];
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    for &p in &specials {
        for &q in &specials {
            if q != 0 && !(p == 0x8000_0000 && q == 0xffff_ffff) {
                xs.push(p);
                ys.push(q);
            }
        }
    }
    let mut seed = 0x1234_5678u32;
    while xs.len() < 256 {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        let p = seed;
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        let q = (seed >> (seed % 31)).max(1);
        xs.push(p);
        ys.push(q);
    }
    let n = xs.len() as u32;
    let kv = 7u32;
    for wave64 in [false, true] {
        let kern = compile(&f, &opts(wave64)).unwrap();
        let out = run(
            &kern,
            n,
            64,
            &[
                TestArg::Buf(xs.clone()),
                TestArg::Buf(ys.clone()),
                TestArg::Buf(vec![0; 6 * n as usize]),
                TestArg::U32(kv),
            ],
        )
        .unwrap();
        for g in 0..n as usize {
            let (x, y) = (xs[g], ys[g]);
            let want = [
                x / y,
                x % y,
                (x as i32).wrapping_div(y as i32) as u32,
                (x as i32).wrapping_rem(y as i32) as u32,
                x / kv,
                (x as i32).wrapping_rem(kv as i32) as u32,
            ];
            assert_eq!(
                &out[2][6 * g..6 * g + 6],
                &want,
                "wave64={wave64} x={x:#x} y={y:#x}"
            );
        }
    }
}

/// `char`/`short` buffers: `out[gid] = (char)(in8[gid] (signed) + in16[gid]
/// (unsigned) + 1)`, and the short result too.
#[test]
fn byte_and_short_memory() {
    let mut f = Function::new("narrow");
    f.add_param("in8", Type::Ptr(AddrSpace::Global), "char*");
    f.add_param("in16", Type::Ptr(AddrSpace::Global), "ushort*");
    f.add_param("out8", Type::Ptr(AddrSpace::Global), "char*");
    f.add_param("out16", Type::Ptr(AddrSpace::Global), "short*");
    let mut b = Builder::new(&mut f);
    let (p8, p16, o8, o16) = (
        b.kernel_arg(0),
        b.kernel_arg(1),
        b.kernel_arg(2),
        b.kernel_arg(3),
    );
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let one = b.iconst(Type::I32, 1);
    let off2 = b.shl(gid, one);
    let a8 = b.ptr_add(p8, gid);
    let x8 = b.load(Type::I8, a8);
    let a16 = b.ptr_add(p16, off2);
    let x16 = b.load(Type::I16, a16);
    let sx = b.convert(ConvertOp::Sext, x8, Type::I32);
    let zx = b.convert(ConvertOp::Zext, x16, Type::I32);
    let s = b.iadd(sx, zx);
    let s1 = b.iadd(s, one);
    let t8 = b.convert(ConvertOp::Trunc, s1, Type::I8);
    let t16 = b.convert(ConvertOp::Trunc, s1, Type::I16);
    let q8 = b.ptr_add(o8, gid);
    b.store(q8, t8);
    let q16 = b.ptr_add(o16, off2);
    b.store(q16, t16);
    b.ret();
    let n = 64usize;
    let in8: Vec<u8> = (0..n).map(|i| (i as u8).wrapping_mul(37)).collect();
    let in16: Vec<u16> = (0..n).map(|i| (i as u16).wrapping_mul(40503)).collect();
    let pack8 = |v: &[u8]| -> Vec<u32> {
        v.chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    let pack16 = |v: &[u16]| -> Vec<u32> {
        v.chunks(2)
            .map(|c| u32::from(c[0]) | u32::from(c[1]) << 16)
            .collect()
    };
    for wave64 in [false, true] {
        let k = compile(&f, &opts(wave64)).unwrap();
        let out = run(
            &k,
            n as u32,
            64,
            &[
                TestArg::Buf(pack8(&in8)),
                TestArg::Buf(pack16(&in16)),
                TestArg::Buf(vec![0; n / 4]),
                TestArg::Buf(vec![0; n / 2]),
            ],
        )
        .unwrap();
        let want: Vec<u32> = (0..n)
            .map(|i| (in8[i] as i8 as i32 + i32::from(in16[i]) + 1) as u32)
            .collect();
        let w8: Vec<u8> = want.iter().map(|&w| w as u8).collect();
        let w16: Vec<u16> = want.iter().map(|&w| w as u16).collect();
        assert_eq!(out[2], pack8(&w8), "wave64={wave64}\n{}", k.listing());
        assert_eq!(out[3], pack16(&w16), "wave64={wave64}\n{}", k.listing());
    }
}

/// Address-mode folding: `a[gid + 1] - a[gid]` with the `+ 4` bytes in the
/// load's `offset:` field, not in a 64-bit add.
#[test]
fn constant_offsets_fold_into_memory_instructions() {
    let mut f = kernel("diff", &[int_buffer("a"), int_buffer("out")]);
    let mut b = Builder::new(&mut f);
    let [a, out] = kernel_args(&mut b);
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let two = b.iconst(Type::I32, 2);
    let off = b.shl(gid, two);
    let p = b.ptr_add(a, off);
    let four = b.iconst(Type::I32, 4);
    let q = b.ptr_add(p, four);
    let x1 = b.load(Type::I32, q);
    let x0 = b.load(Type::I32, p);
    let d = b.isub(x1, x0);
    let po = b.ptr_add(out, off);
    let minus8 = b.iconst(Type::I32, -8);
    let po2 = b.ptr_add(po, minus8);
    let eight = b.iconst(Type::I32, 8);
    let po3 = b.ptr_add(po2, eight);
    b.store(po3, d);
    b.ret();
    let input: Vec<u32> = (0..65u32).map(|i| i * i).collect();
    for wave64 in [false, true] {
        let k = compile(&f, &opts(wave64)).unwrap();
        let text = k.listing();
        assert!(
            text.contains("global_load_dword") && text.contains("off offset:4"),
            "{text}"
        );
        assert_eq!(
            text.matches("v_add_co_u32").count(),
            3,
            "a, out, out-8: {text}"
        );
        let out = run(
            &k,
            64,
            64,
            &[TestArg::Buf(input.clone()), TestArg::Buf(vec![0; 64])],
        )
        .unwrap();
        let want: Vec<u32> = (0..64).map(|i| input[i + 1] - input[i]).collect();
        assert_eq!(out[1], want, "wave64={wave64}\n{text}");
    }
}

/// A counted loop (`for (i = 0; i < 4; i++) acc = acc * 3 + a[gid * 4 + i]`)
/// is unrolled by `-O`: straight code, same results as the loop.
#[test]
fn counted_loop_is_unrolled() {
    let mut f = kernel("unroll", &[int_buffer("a"), int_buffer("out")]);
    let mut b = Builder::new(&mut f);
    let [a, out] = kernel_args(&mut b);
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let one = b.iconst(Type::I32, 1);
    let three = b.iconst(Type::I32, 3);
    let four = b.iconst(Type::I32, 4);
    accumulate_loop(&mut b, one, four, out, gid, |b, i, acc| {
        let row = b.imul(gid, four);
        let idx = b.iadd(row, i);
        let p = dword_at(b, a, idx);
        let x = b.load(Type::I32, p);
        let t = b.imul(acc, three);
        b.iadd(t, x)
    });
    let input: Vec<u32> = (0..256u32).map(|i| i * 7 + 3).collect();
    let want: Vec<u32> = (0..64usize)
        .map(|g| {
            (0..4).fold(1u32, |acc, i| {
                acc.wrapping_mul(3).wrapping_add(input[g * 4 + i])
            })
        })
        .collect();
    for optimize in [false, true] {
        let o = CompileOptions {
            optimize,
            ..Default::default()
        };
        let k = compile(&f, &o).unwrap();
        let text = k.listing();
        assert_eq!(text.contains("s_branch"), !optimize, "{text}");
        if optimize {
            assert_eq!(text.matches("global_load_dword").count(), 4, "{text}");
        }
        let out = run(
            &k,
            64,
            64,
            &[TestArg::Buf(input.clone()), TestArg::Buf(vec![0; 64])],
        )
        .unwrap();
        assert_eq!(out[1], want, "optimize={optimize}\n{text}");
    }
}

/// A kernel of `n` dependent chains of loads, arithmetic, selects and
/// divergent ifs, for the compile-time scaling check.
fn big_kernel(n: usize) -> Function {
    let mut f = kernel("big", &[int_buffer("a")]);
    let mut b = Builder::new(&mut f);
    let [a] = kernel_args(&mut b);
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let two = b.iconst(Type::I32, 2);
    let off = b.shl(gid, two);
    let p = b.ptr_add(a, off);
    let mut acc = b.load(Type::I32, p);
    for k in 0..n {
        let c = b.iconst(Type::I32, k as i64);
        let x = b.iadd(acc, c);
        let y = b.imul(x, two);
        let m = b.icmp(IntCC::Ult, y, c);
        let s = b.select(m, x, y);
        if k % 8 == 0 {
            let t = b.create_block();
            let j = b.create_block();
            let r = b.block_param(j, Type::I32);
            b.brif(m, t, &[], j, &[s]);
            b.switch_to(t);
            let z = b.binary(BinaryOp::Xor, s, c);
            b.jump(j, &[z]);
            b.switch_to(j);
            acc = r;
        } else {
            acc = s;
        }
    }
    b.store(p, acc);
    b.ret();
    f
}

/// Compile-time benchmark (seed 002 recompiles at dispatch): prints the
/// best-of-three compile time of 1000 and 4000 chains (about 6,000 and
/// 24,000 IR instructions). Not a pass/fail test — timings on a shared
/// machine are too noisy for a bound — run it by name:
/// `cargo test --release -p compiler --test backend compile_time -- --ignored --nocapture`.
/// It found the linear-depth dominance query that the dominator-tree
/// numbering in `Cfg` replaced.
#[test]
#[ignore = "benchmark: prints compile times"]
fn compile_time_benchmark() {
    let time = |n: usize| {
        let f = big_kernel(n);
        (0..3)
            .map(|_| {
                let t = std::time::Instant::now();
                let k = compile(
                    &f,
                    &CompileOptions {
                        optimize: true,
                        ..Default::default()
                    },
                )
                .unwrap();
                assert!(!k.code.is_empty());
                t.elapsed()
            })
            .min()
            .unwrap()
    };
    let small = time(1000);
    let large = time(4000);
    println!("compile: 1000 chains {small:?}, 4000 chains {large:?}");
    assert!(
        large < small * 10,
        "1000 chains {small:?}, 4000 chains {large:?}"
    );
}

/// A boolean joined from both sides of a divergent if (a lane-mask block
/// parameter): each side may set only its own lanes' bits.
#[test]
fn divergent_boolean_block_parameter() {
    let mut f = kernel("boolparam", &[int_buffer("out")]);
    let mut b = Builder::new(&mut f);
    let [out] = kernel_args(&mut b);
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let one = b.iconst(Type::I32, 1);
    let odd = b.binary(BinaryOp::And, gid, one);
    let c = b.truth(odd);
    let t = b.create_block();
    let e = b.create_block();
    let j = b.create_block();
    let p = b.block_param(j, Type::I1);
    b.brif(c, t, &[], e, &[]);
    b.switch_to(t);
    let five = b.iconst(Type::I32, 5);
    let lt = b.icmp(IntCC::Ult, gid, five);
    b.jump(j, &[lt]);
    b.switch_to(e);
    let twenty = b.iconst(Type::I32, 20);
    let gt = b.icmp(IntCC::Ugt, gid, twenty);
    b.jump(j, &[gt]);
    b.switch_to(j);
    let two = b.iconst(Type::I32, 2);
    let r = b.select(p, one, two);
    let off = b.shl(gid, two);
    let po = b.ptr_add(out, off);
    b.store(po, r);
    b.ret();
    for wave64 in [false, true] {
        let k = compile(&f, &opts(wave64)).unwrap();
        let out = run(&k, 64, 64, &[TestArg::Buf(vec![0; 64])]).unwrap();
        let want: Vec<u32> = (0..64u32)
            .map(|g| {
                let p = if g & 1 == 1 { g < 5 } else { g > 20 };
                if p {
                    1
                } else {
                    2
                }
            })
            .collect();
        assert_eq!(out[0], want, "wave64={wave64}\n{}", k.listing());
    }
}

/// `continue` (two back edges, one inside a divergent if): `i = 0; acc = 0;
/// while (i < 8) { i++; if ((i + lid) & 1) continue; acc += i * lid; }`.
#[test]
fn continue_inside_a_divergent_if() {
    let mut f = kernel("cont", &[int_buffer("out")]);
    let mut b = Builder::new(&mut f);
    let [out] = kernel_args(&mut b);
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let lid = b.work_item(WorkItemQuery::LocalId, 0);
    let zero = b.iconst(Type::I32, 0);
    let one = b.iconst(Type::I32, 1);
    let eight = b.iconst(Type::I32, 8);
    let head = b.create_block();
    let body = b.create_block();
    let add = b.create_block();
    let exit = b.create_block();
    let i = b.block_param(head, Type::I32);
    let acc = b.block_param(head, Type::I32);
    let r = b.block_param(exit, Type::I32);
    b.jump(head, &[zero, zero]);
    b.switch_to(head);
    let go = b.icmp(IntCC::Slt, i, eight);
    b.brif(go, body, &[], exit, &[acc]);
    b.switch_to(body);
    let i1 = b.iadd(i, one);
    let s = b.iadd(i1, lid);
    let odd = b.binary(BinaryOp::And, s, one);
    b.brif(odd, head, &[i1, acc], add, &[]);
    b.switch_to(add);
    let t = b.imul(i1, lid);
    let acc2 = b.iadd(acc, t);
    b.jump(head, &[i1, acc2]);
    b.switch_to(exit);
    let two = b.iconst(Type::I32, 2);
    let off = b.shl(gid, two);
    let po = b.ptr_add(out, off);
    b.store(po, r);
    b.ret();
    verify(&f).unwrap();
    for wave64 in [false, true] {
        let k = compile(&f, &opts(wave64)).unwrap();
        let out = run(&k, 64, 64, &[TestArg::Buf(vec![0; 64])]).unwrap();
        let want: Vec<u32> = (0..64u32)
            .map(|l| (1..=8u32).filter(|i| (i + l) & 1 == 0).map(|i| i * l).sum())
            .collect();
        assert_eq!(out[0], want, "wave64={wave64}\n{}", k.listing());
    }
}
