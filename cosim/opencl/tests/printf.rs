//! OpenCL C `printf` through the platform (`tests/loader/printf.c`): a
//! kernel built from source by gpusim's compiler prints through the driver's
//! per-dispatch printf buffer, and the platform writes the lines to the host
//! program's standard output when the dispatch completes. On every model,
//! and on PoCL (the same lines: the expectations are the language's). The
//! expected lines are formatted here with Rust's formatting, an oracle
//! independent of the driver's formatter.

mod common;

use common::*;

/// The lines `hello` prints, one per work-item, sorted (work-items print in
/// the order they run, which OpenCL does not fix).
fn expected() -> Vec<String> {
    let mut lines: Vec<String> = (0..8i32)
        .map(|i| {
            let a = (i - 3) * 111;
            let u = 40 + i as u32;
            let x = 40 * (i as u32 + 1);
            let f = 1.25f32 * i as f32;
            let ch = char::from(b'A' + i as u8);
            format!("item {i}: a={a:5} u={u} x={x:#x} f={f:.2} c={ch} s=str %")
        })
        .collect();
    lines.sort();
    lines
}

/// Checks `out`: the kernel's lines between the markers, the second
/// kernel's single line after them.
fn check(out: &str, who: &str) {
    let lines: Vec<&str> = out.lines().collect();
    let at = |m: &str| {
        lines
            .iter()
            .position(|l| *l == m)
            .unwrap_or_else(|| panic!("{who}: no {m:?} in {out}"))
    };
    let (before, after, done) = (at("before"), at("after"), at("printf done"));
    let mut printed: Vec<String> = lines[before + 1..after]
        .iter()
        .map(|l| l.to_string())
        .collect();
    printed.sort();
    assert_eq!(printed, expected(), "{who}: {out}");
    assert_eq!(
        &lines[after + 1..done],
        &["once from the device"],
        "{who}: {out}"
    );
}

#[test]
fn printf_reaches_the_host_program_on_every_model_and_on_pocl() {
    for model in ["functional", "cycle", "lockstep"] {
        if let Some(out) = run_c_on(Icd::Gpusim, "printf", &[], &[("GPUSIM_MODEL", model)]) {
            check(&out, model);
        }
    }
    if let Some(out) = run_c_on(Icd::Pocl, "printf", &[], &[]) {
        check(&out, "PoCL");
    }
}
