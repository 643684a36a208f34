//! Every corpus kernel goes through the whole front end without an error,
//! and the typed AST has the facts later stages rely on.

use compiler::front::tast::{ExprKind, Stmt, ValueKind};
use compiler::front::types::{AddrSpace, Type};
use compiler::front::{compile_to_typed_ast, Options, Source};
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repo root")
}

fn opts() -> Options {
    Options {
        include_dirs: vec![
            repo().join("tests/kernels/include"),
            repo().join("sw/devlib"),
        ],
        ..Default::default()
    }
}

fn corpus_files() -> Vec<PathBuf> {
    let mut v = Vec::new();
    for d in ["tests/kernels", "tests/kernels/work"] {
        for e in std::fs::read_dir(repo().join(d)).expect("corpus dir") {
            let p = e.expect("entry").path();
            if p.extension().is_some_and(|x| x == "cl") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

#[test]
fn every_corpus_kernel_type_checks() {
    let files = corpus_files();
    assert!(files.len() >= 35, "corpus has {} files", files.len());
    let mut kernels = 0;
    for f in &files {
        let tu = compile_to_typed_ast(Source::Path(f), &opts()).unwrap_or_else(|d| panic!("{d}"));
        let n = tu.kernels().count();
        assert!(n >= 1, "{} has no kernel", f.display());
        kernels += n;
    }
    assert!(kernels >= files.len());
}

fn compile(name: &str) -> compiler::front::tast::TranslationUnit {
    let p = repo().join("tests/kernels").join(name);
    compile_to_typed_ast(Source::Path(&p), &opts()).unwrap_or_else(|d| panic!("{d}"))
}

#[test]
fn kernel_arguments_match_the_clang_metadata() {
    // tests/kernels/expected/gfx1030/vec4_scale.notes: four global float4*/uint4*
    // buffers of 8 bytes, then a 4-byte float by value.
    let tu = compile("vec4_scale.cl");
    let (_, k) = tu.kernels().next().expect("kernel");
    let info = k.kernel.as_ref().expect("kernel info");
    let got: Vec<(String, String, u32, ValueKind, Option<AddrSpace>, bool)> = info
        .args
        .iter()
        .map(|a| {
            (
                a.name.clone(),
                a.type_name.clone(),
                a.size,
                a.value_kind,
                a.address_space,
                a.is_const,
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (
                "in".into(),
                "float4*".into(),
                8,
                ValueKind::GlobalBuffer,
                Some(AddrSpace::Global),
                true
            ),
            (
                "out".into(),
                "float4*".into(),
                8,
                ValueKind::GlobalBuffer,
                Some(AddrSpace::Global),
                false
            ),
            (
                "iin".into(),
                "uint4*".into(),
                8,
                ValueKind::GlobalBuffer,
                Some(AddrSpace::Global),
                true
            ),
            (
                "iout".into(),
                "uint4*".into(),
                8,
                ValueKind::GlobalBuffer,
                Some(AddrSpace::Global),
                false
            ),
            (
                "s".into(),
                "float".into(),
                4,
                ValueKind::ByValue,
                None,
                false
            ),
        ]
    );
    // reduce_max_dyn.notes: a __local uint* is a 4-byte dynamic_shared_pointer.
    let tu = compile("reduce_max_dyn.cl");
    let a = &tu
        .function("reduce_max_dyn")
        .unwrap()
        .kernel
        .as_ref()
        .unwrap()
        .args[2];
    assert_eq!(
        (a.size, a.value_kind, a.pointee_align),
        (4, ValueKind::DynamicSharedPointer, Some(4))
    );
    // ubench_smem_chain.notes: __constant uint* is a const global_buffer in the constant space.
    let tu = compile("ubench_smem_chain.cl");
    let a = &tu
        .function("ubench_smem_chain")
        .unwrap()
        .kernel
        .as_ref()
        .unwrap()
        .args[0];
    assert_eq!(
        (a.address_space, a.is_const, a.type_name.as_str()),
        (Some(AddrSpace::Constant), true, "uint*")
    );
}

#[test]
fn attributes_local_variables_and_pragmas_reach_the_typed_ast() {
    let tu = compile("matmul_tiled.cl");
    let f = tu.function("matmul_tiled").unwrap();
    let k = f.kernel.as_ref().unwrap();
    assert_eq!(k.reqd_work_group_size, Some([16, 16, 1]));
    let locals: Vec<(&str, u32)> = k
        .local_vars
        .iter()
        .map(|v| {
            let var = &f.vars[v.0 as usize];
            (var.name.as_str(), tu.records.size_of(&var.ty))
        })
        .collect();
    assert_eq!(locals, vec![("As", 1024), ("Bs", 1024)]);
    assert!(f.fp_contract);
    let st = compile("stencil2d.cl");
    assert!(
        !st.function("stencil2d").unwrap().fp_contract,
        "#pragma OPENCL FP_CONTRACT OFF"
    );

    fn unrolls(stmts: &[Stmt], out: &mut Vec<Option<Option<u32>>>) {
        for s in stmts {
            match s {
                Stmt::For { body, unroll, .. }
                | Stmt::While { body, unroll, .. }
                | Stmt::DoWhile { body, unroll, .. } => {
                    out.push(*unroll);
                    unrolls(std::slice::from_ref(body), out);
                }
                Stmt::Block(b) => unrolls(b, out),
                Stmt::If(_, t, e) => {
                    unrolls(std::slice::from_ref(t), out);
                    if let Some(e) = e {
                        unrolls(std::slice::from_ref(e), out);
                    }
                }
                _ => {}
            }
        }
    }
    let mut u = Vec::new();
    unrolls(
        compile("hash_int.cl")
            .function("hash_int")
            .unwrap()
            .body
            .as_ref()
            .unwrap(),
        &mut u,
    );
    assert_eq!(u, vec![Some(None)]);
    let mut u = Vec::new();
    unrolls(
        compile("ubench_valu_chain.cl")
            .function("ubench_valu_chain")
            .unwrap()
            .body
            .as_ref()
            .unwrap(),
        &mut u,
    );
    assert_eq!(u, vec![Some(Some(32)); 3]);
    let mut u = Vec::new();
    unrolls(
        compile("ubench_lds_chase.cl")
            .function("ubench_lds_chase")
            .unwrap()
            .body
            .as_ref()
            .unwrap(),
        &mut u,
    );
    assert_eq!(u, vec![None, Some(Some(8))]);
}

#[test]
fn struct_layouts_follow_the_header_offsets() {
    // sw/devlib/gpusim_work.h documents every member's byte offset.
    let p = repo().join("tests/kernels/work/wq_stall.cl");
    let tu = compile_to_typed_ast(Source::Path(&p), &opts()).unwrap_or_else(|d| panic!("{d}"));
    let q = tu
        .records
        .list
        .iter()
        .find(|r| r.name == "gpusim_work_queue")
        .expect("queue struct");
    let off = |n: &str| q.fields.iter().find(|f| f.name == n).unwrap().offset;
    assert_eq!(
        (
            off("ring"),
            off("q"),
            off("overflow_slot"),
            off("terminal_entry"),
            off("reserved")
        ),
        (0, 64, 92, 132, 136)
    );
    assert_eq!((q.size, q.align), (160, 8));
    let k = tu
        .records
        .list
        .iter()
        .find(|r| r.name == "gpusim_kernel")
        .unwrap();
    assert_eq!(k.size, 64);
    let b = tu
        .records
        .list
        .iter()
        .find(|r| r.name == "gw_block")
        .unwrap();
    assert_eq!((b.size, b.align, b.fields[1].offset), (16, 8, 8));
    // clang-19 names it after the struct: the typedef gw_queue carries __global.
    let a = &tu
        .function("wq_stall")
        .unwrap()
        .kernel
        .as_ref()
        .unwrap()
        .args[0];
    assert_eq!(
        (a.type_name.as_str(), a.value_kind),
        ("gpusim_work_queue*", ValueKind::GlobalBuffer)
    );
}

#[test]
fn atomics_are_normalised_with_order_and_scope() {
    // gs_atomic_add_l: __opencl_atomic_fetch_add(local ptr, v, RELAXED, WORK_GROUP).
    let tu = compile("lds_atomics.cl");
    let f = tu.function("gs_atomic_add_l").unwrap();
    let Some(Stmt::Return(Some(e))) = f.body.as_ref().unwrap().first() else {
        panic!("return")
    };
    let ExprKind::Builtin(b, ops) = &e.kind else {
        panic!("builtin: {e:?}")
    };
    assert_eq!(format!("{b:?}"), "AtomicRmw(Add)");
    assert_eq!(ops.len(), 4);
    assert!(
        matches!(ops[2].kind, ExprKind::IntConst(0))
            && matches!(ops[3].kind, ExprKind::IntConst(1))
    );
    let pt = ops[0].ty.pointee().unwrap();
    assert_eq!(
        (pt.space, pt.ty.clone()),
        (
            AddrSpace::Local,
            Type::Atomic(compiler::front::types::Scalar::UInt)
        )
    );
}
