//! Separate compilation (`tests/loader/compile_link.c`): `clCompileProgram`
//! with an embedded header and per-object options, `clLinkProgram` of two
//! objects and through a library, the linked kernel's results, and the
//! compile and link failures; on gpusim and on PoCL.

mod common;

use common::*;

#[test]
fn compile_and_link_on_gpusim_and_on_pocl() {
    for icd in [Icd::Gpusim, Icd::Pocl] {
        if let Some(out) = run_c_on(icd, "compile_link", &[], &[]) {
            assert!(out.contains("compile link ok"), "{icd:?}: {out}");
        }
    }
}
