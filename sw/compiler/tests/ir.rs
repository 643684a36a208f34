//! The IR: builder, printer, verifier, uniformity analysis and the `-O` passes.

use compiler::ir::cfg::Cfg;
use compiler::ir::opt;
use compiler::ir::*;

/// `out[gid] = (gid < n) ? a[gid] + 1 : 0` with an if/else on a divergent
/// condition and a uniform one.
fn sample() -> Function {
    let mut f = Function::new("k");
    f.add_param("out", Type::Ptr(AddrSpace::Global), "int*");
    f.add_param("n", Type::I32, "int");
    let mut b = Builder::new(&mut f);
    let out = b.kernel_arg(0);
    let n = b.kernel_arg(1);
    let gid = b.work_item(WorkItemQuery::GlobalId, 0);
    let grp = b.work_item(WorkItemQuery::GroupId, 0);
    let four = b.iconst(Type::I32, 4);
    let off = b.imul(gid, four);
    let p = b.ptr_add(out, off);
    let lt = b.icmp(IntCC::Slt, gid, n);
    let then_b = b.create_block();
    let join = b.create_block();
    let x = b.block_param(join, Type::I32);
    let zero = b.iconst(Type::I32, 0);
    b.brif(lt, then_b, &[], join, &[zero]);
    b.switch_to(then_b);
    let one = b.iconst(Type::I32, 1);
    let y = b.iadd(grp, one);
    b.jump(join, &[y]);
    b.switch_to(join);
    b.store(p, x);
    b.ret();
    f
}

#[test]
fn printer_shows_blocks_params_and_types() {
    let f = sample();
    verify(&f).unwrap();
    let text = print(&f);
    let expected = "\
kernel @k(out: ptr.global global_buffer \"int*\", n: i32 by_value \"int\") {
block0:
    v0:ptr.global = arg 0
    v1:i32 = arg 1
    v2:i32 = global_id 0
    v3:i32 = group_id 0
    v4:i32 = iconst 4
    v5:i32 = imul v2, v4
    v6:ptr.global = ptr_add v0, v5
    v7:i1 = icmp slt v2, v1
    v9:i32 = iconst 0
    brif v7, block1, block2(v9)
block1:
    v10:i32 = iconst 1
    v11:i32 = iadd v3, v10
    jump block2(v11)
block2(v8:i32):
    store v6, v8
    ret
}
";
    assert_eq!(text, expected);
}

#[test]
fn verifier_rejects_type_and_dominance_errors() {
    // Mixed operand types.
    let mut f = Function::new("k");
    let mut b = Builder::new(&mut f);
    let a = b.iconst(Type::I32, 1);
    let c = b.f32const(1.0);
    b.binary(BinaryOp::Iadd, a, c);
    b.ret();
    let e = verify(&f).unwrap_err();
    assert!(e.message.contains("operand types differ"), "{e}");

    // A value used in a block its definition does not dominate.
    let mut f = Function::new("k");
    let mut b = Builder::new(&mut f);
    let t = b.iconst(Type::I1, 1);
    let l = b.create_block();
    let r = b.create_block();
    let j = b.create_block();
    b.brif(t, l, &[], r, &[]);
    b.switch_to(l);
    let x = b.iconst(Type::I32, 5);
    b.jump(j, &[]);
    b.switch_to(r);
    b.jump(j, &[]);
    b.switch_to(j);
    let y = b.iadd(x, x);
    let _ = y;
    b.ret();
    let e = verify(&f).unwrap_err();
    assert!(e.message.contains("does not dominate"), "{e}");
    assert!(e.location.starts_with("block3"), "{e}");

    // Missing terminator, wrong branch arity.
    let mut f = Function::new("k");
    let mut b = Builder::new(&mut f);
    b.iconst(Type::I32, 1);
    assert!(verify(&f).unwrap_err().message.contains("terminator"));
    let mut f = Function::new("k");
    let mut b = Builder::new(&mut f);
    let j = b.create_block();
    b.block_param(j, Type::I32);
    b.jump(j, &[]);
    b.switch_to(j);
    b.ret();
    assert!(verify(&f)
        .unwrap_err()
        .message
        .contains("takes 1 arguments"));
}

#[test]
fn select_compares_a_non_bool_condition_with_zero() {
    let mut f = Function::new("k");
    let mut b = Builder::new(&mut f);
    let m = b.work_item(WorkItemQuery::LocalId, 0);
    let x = b.iconst(Type::I32, 3);
    let s = b.select(m, x, m);
    b.ret();
    verify(&f).unwrap();
    let text = print(&f);
    assert!(text.contains("v3:i1 = icmp ne v0, v2"), "{text}");
    assert!(
        text.contains(&format!("{s}:i32 = select v3, v1, v0")),
        "{text}"
    );
}

#[test]
fn uniformity_separates_lane_values_from_wave_values() {
    let f = sample();
    let cfg = Cfg::new(&f);
    let u = Uniformity::analyze(&f, &cfg);
    let v = |n: u32| Value(n);
    // Kernel arguments and the group id are uniform; the global id and
    // everything computed from it are divergent.
    for uniform in [0, 1, 3, 4, 9, 10, 11] {
        assert!(u.is_uniform(v(uniform)), "v{uniform}");
    }
    for divergent in [2, 5, 6, 7] {
        assert!(u.is_divergent(v(divergent)), "v{divergent}");
    }
    // The branch on `gid < n` is divergent, so the join's parameter is
    // divergent although both incoming values are uniform (sync dependence).
    assert!(u.is_divergent_branch(Block(0)));
    assert!(u.is_divergent(v(8)));
}

#[test]
fn uniform_branch_keeps_join_parameters_uniform() {
    let mut f = Function::new("k");
    f.add_param("n", Type::I32, "int");
    let mut b = Builder::new(&mut f);
    let n = b.kernel_arg(0);
    let g = b.work_item(WorkItemQuery::GroupId, 0);
    let c = b.icmp(IntCC::Ult, g, n);
    let t = b.create_block();
    let j = b.create_block();
    let p = b.block_param(j, Type::I32);
    b.brif(c, t, &[], j, &[n]);
    b.switch_to(t);
    b.jump(j, &[g]);
    b.switch_to(j);
    let l = b.work_item(WorkItemQuery::LocalId, 0);
    let s = b.iadd(p, l);
    b.ret();
    let cfg = Cfg::new(&f);
    let u = Uniformity::analyze(&f, &cfg);
    assert!(!u.is_divergent_branch(Block(0)));
    assert!(u.is_uniform(p));
    assert!(u.is_divergent(s));
}

#[test]
fn loop_with_divergent_exit_makes_live_out_values_divergent() {
    // i = 0; do { i += 1 } while (i < lid); out = i
    let mut f = Function::new("k");
    let mut b = Builder::new(&mut f);
    let lid = b.work_item(WorkItemQuery::LocalId, 0);
    let zero = b.iconst(Type::I32, 0);
    let head = b.create_block();
    let exit = b.create_block();
    let i = b.block_param(head, Type::I32);
    b.jump(head, &[zero]);
    b.switch_to(head);
    let one = b.iconst(Type::I32, 1);
    let next = b.iadd(i, one);
    let c = b.icmp(IntCC::Slt, next, lid);
    b.brif(c, head, &[next], exit, &[]);
    b.switch_to(exit);
    let k = b.iadd(next, one);
    b.ret();
    verify(&f).unwrap();
    let cfg = Cfg::new(&f);
    assert_eq!(cfg.back_edges, vec![(head, head)]);
    let u = Uniformity::analyze(&f, &cfg);
    assert!(u.is_divergent_branch(head));
    assert!(u.is_divergent(next), "live out of a divergent loop");
    assert!(u.is_divergent(k));
}

#[test]
fn constant_folding_cse_and_dce() {
    let mut f = Function::new("k");
    f.add_param("out", Type::Ptr(AddrSpace::Global), "int*");
    let mut b = Builder::new(&mut f);
    let out = b.kernel_arg(0);
    let two = b.iconst(Type::I32, 2);
    let three = b.iconst(Type::I32, 3);
    let six = b.imul(two, three); // folds to 6
    let lid = b.work_item(WorkItemQuery::LocalId, 0);
    let a1 = b.iadd(lid, six);
    let a2 = b.iadd(lid, six); // CSE'd into a1
    let s = b.iadd(a1, a2);
    let dead = b.imul(s, s); // unused: removed
    let _ = dead;
    let p = b.ptr_add(out, lid);
    b.store(p, s);
    b.ret();
    assert_eq!(opt::fold_constants(&mut f), 1);
    assert_eq!(opt::cse(&mut f), 1);
    let removed = opt::dce(&mut f);
    assert_eq!(
        removed, 4,
        "imul dead, iadd duplicate, and the two folded-away constants"
    );
    verify(&f).unwrap();
    let text = print(&f);
    assert!(text.contains("v3:i32 = iconst 6"), "{text}");
    assert!(text.contains("v7:i32 = iadd v5, v5"), "{text}");
    assert!(!text.contains("imul"), "{text}");
}

#[test]
fn strength_reduction_and_identities() {
    let mut f = Function::new("k");
    f.add_param("out", Type::Ptr(AddrSpace::Global), "int*");
    let mut b = Builder::new(&mut f);
    let out = b.kernel_arg(0);
    let x = b.work_item(WorkItemQuery::LocalId, 0);
    let eight = b.iconst(Type::I32, 8);
    let zero = b.iconst(Type::I32, 0);
    let one = b.iconst(Type::I32, 1);
    let m = b.imul(eight, x); // x << 3
    let d = b.binary(BinaryOp::Udiv, m, eight); // m >> 3
    let a = b.iadd(d, zero); // d
    let s = b.imul(a, one); // a
    let z = b.binary(BinaryOp::And, s, zero); // 0
    let r = b.iadd(s, z);
    let p = b.ptr_add(out, r);
    b.store(p, r);
    b.ret();
    opt::optimize(&mut f);
    verify(&f).unwrap();
    let text = print(&f);
    assert!(
        text.contains("shl v1, ") && text.contains("lshr "),
        "{text}"
    );
    assert!(
        !text.contains("imul") && !text.contains("udiv") && !text.contains(" and "),
        "{text}"
    );
}

#[test]
fn early_returns_are_unified_into_one_exit() {
    let mut f = Function::new("k");
    let mut b = Builder::new(&mut f);
    let x = b.work_item(WorkItemQuery::LocalId, 0);
    let c = b.truth(x);
    let t = b.create_block();
    let e = b.create_block();
    b.brif(c, t, &[], e, &[]);
    b.switch_to(t);
    b.ret();
    b.switch_to(e);
    b.ret();
    assert!(opt::unify_returns(&mut f));
    verify(&f).unwrap();
    let rets = print(&f).matches("    ret\n").count();
    assert_eq!(rets, 1, "{}", print(&f));
    assert!(!opt::unify_returns(&mut f), "already one exit");
}

#[test]
fn licm_hoists_invariants_to_the_preheader() {
    // for (i = 0; i < n; i++) s += n * 4 + i  — `n * 4` is invariant.
    let mut f = Function::new("k");
    f.add_param("n", Type::I32, "int");
    let mut b = Builder::new(&mut f);
    let n = b.kernel_arg(0);
    let zero = b.iconst(Type::I32, 0);
    let head = b.create_block();
    let exit = b.create_block();
    let i = b.block_param(head, Type::I32);
    let s = b.block_param(head, Type::I32);
    b.jump(head, &[zero, zero]);
    b.switch_to(head);
    let four = b.iconst(Type::I32, 4);
    let inv = b.imul(n, four);
    let t = b.iadd(inv, i);
    let s2 = b.iadd(s, t);
    let one = b.iconst(Type::I32, 1);
    let i2 = b.iadd(i, one);
    let c = b.icmp(IntCC::Slt, i2, n);
    b.brif(c, head, &[i2, s2], exit, &[]);
    b.switch_to(exit);
    b.ret();
    let moved = opt::licm(&mut f);
    verify(&f).unwrap();
    assert_eq!(moved, 3, "iconst 4, imul, iconst 1:\n{}", print(&f));
    let text = print(&f);
    let entry = text.split("block1(").next().unwrap();
    assert!(
        entry.contains(&format!("{inv}:i32 = imul v0, {four}")),
        "{text}"
    );
}
