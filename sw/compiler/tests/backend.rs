//! The back end end to end: IR built with the builder, compiled to a code
//! object, loaded by the driver and run on the golden GPU; results checked
//! per lane.

mod backend_support;

use backend_support::{run, TestArg};
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
    let mut f = Function::new("iota");
    f.add_param("out", Type::Ptr(AddrSpace::Global), "int*");
    f.add_param("n", Type::I32, "int");
    let mut b = Builder::new(&mut f);
    let out = b.kernel_arg(0);
    let n = b.kernel_arg(1);
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
