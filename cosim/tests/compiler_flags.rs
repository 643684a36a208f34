//! clang's floating-point flags on `gpusim compile`'s command line select
//! clang-19's `f32` division and `sqrt` expansions (the lowering's
//! `FpDivSqrt`; bit-exactness against clang's objects is checked in
//! `sw/compiler/tests/lower_fp_flags.rs`): the listing of one kernel under
//! no flag, `-cl-fast-relaxed-math`, `-cl-fp32-correctly-rounded-divide-sqrt`
//! and both (relaxed wins, in either order, as in clang-19).
//!
//! `cargo test --release -p cosim --test compiler_flags`

mod compiler_common;

use std::process::Command;

use compiler_common::scratch;

const SRC: &str =
    "__kernel void k(__global const float *a, __global const float *b, __global float *q) {
  uint i = get_global_id(0);
  q[i] = a[i] / b[i] + sqrt(b[i]);
}
";

fn listing(flags: &[&str]) -> String {
    let dir = scratch("compiler-flags");
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("k.cl");
    std::fs::write(&src, SRC).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_gpusim"))
        .arg("compile")
        .arg(&src)
        // `-S` without `-o`: the assembly on standard output.
        .arg("-S")
        .args(flags)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{flags:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn each_flag_selects_clangs_expansion() {
    let default = listing(&[]);
    assert!(
        default.contains("v_frexp_mant_f32") && default.contains("v_ldexp_f32"),
        "{default}"
    );
    assert!(!default.contains("v_div_scale_f32"), "{default}");

    let relaxed = listing(&["-cl-fast-relaxed-math"]);
    assert!(
        relaxed.contains("v_rcp_f32") && relaxed.contains("v_sqrt_f32"),
        "{relaxed}"
    );
    assert!(
        !relaxed.contains("v_frexp") && !relaxed.contains("v_ldexp"),
        "{relaxed}"
    );

    let exact = listing(&["-cl-fp32-correctly-rounded-divide-sqrt"]);
    for op in [
        "v_div_scale_f32",
        "v_div_fmas_f32",
        "v_div_fixup_f32",
        "v_fma_f32",
    ] {
        assert!(exact.contains(op), "no {op}:\n{exact}");
    }

    for both in [
        [
            "-cl-fast-relaxed-math",
            "-cl-fp32-correctly-rounded-divide-sqrt",
        ],
        [
            "-cl-fp32-correctly-rounded-divide-sqrt",
            "-cl-fast-relaxed-math",
        ],
    ] {
        assert_eq!(listing(&both), relaxed, "{both:?}");
    }
}
