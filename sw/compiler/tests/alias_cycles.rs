//! Seed 002 on the cycle model: cycles of each alias workload with the
//! original binary and with the variant the driver's facts select, and the
//! recompilation time per dispatch (the numbers in docs/performance.md).
//!
//! `cargo test --release -p compiler --test alias_cycles -- --nocapture`

mod alias_support;

use alias_support::*;
use hw::{ClockedGpu, GpuConfig};

struct Case {
    name: &'static str,
    kernel: &'static str,
    buffers: Vec<Vec<u32>>,
    args: Vec<A>,
    grid: u32,
}

fn cases() -> Vec<Case> {
    let per = 64u32;
    let n = 32 * per as usize;
    let co = |d: Option<i64>| {
        let (inp, out) = match d {
            None => (A::Buf(0, 0), A::Buf(2, 0)),
            Some(d) if d >= 0 => (A::Buf(0, 0), A::Buf(0, 4 * d as u64)),
            Some(d) => (A::Buf(0, 4 * (-d) as u64), A::Buf(0, 0)),
        };
        vec![inp, A::Buf(1, 0), out, A::Buf(3, 0), A::U32(per)]
    };
    let co_bufs = || {
        vec![
            data(1, n + 16, 256),
            vec![0; 256],
            vec![0; n + 16],
            data(2, 256, 256),
        ]
    };
    let mut v = Vec::new();
    for (label, d) in [
        ("identical", Some(0)),
        ("disjoint", None),
        ("overlap d=1", Some(1)),
        ("overlap d=2", Some(2)),
        ("overlap d=3", Some(3)),
        ("overlap d=4", Some(4)),
        ("overlap d=-2", Some(-2)),
    ] {
        v.push(Case {
            name: label,
            kernel: "alias_compute_output",
            buffers: co_bufs(),
            args: co(d),
            grid: 32,
        });
    }
    let cs = |d: i64| {
        let (inp, out) = if d >= 0 {
            (A::Buf(0, 0), A::Buf(0, 4 * d as u64))
        } else {
            (A::Buf(0, 4 * (-d) as u64), A::Buf(0, 0))
        };
        vec![out, inp, A::F32(0.75), A::U32(per)]
    };
    for (label, args) in [
        (
            "disjoint",
            vec![A::Buf(1, 0), A::Buf(0, 0), A::F32(0.75), A::U32(per)],
        ),
        ("overlap d=2", cs(2)),
        ("overlap d=8", cs(8)),
    ] {
        v.push(Case {
            name: label,
            kernel: "alias_copy_scale",
            buffers: vec![float_data(4, n + 16), vec![0; n + 16]],
            args,
            grid: 32,
        });
    }
    let stride = 72u32;
    for (label, d) in [
        ("disjoint", None),
        ("overlap d=4", Some(4u64)),
        ("overlap d=6", Some(6)),
    ] {
        let out = d.map_or(A::Buf(1, 0), |d| A::Buf(0, 4 * d));
        v.push(Case {
            name: label,
            kernel: "alias_stencil",
            buffers: vec![float_data(5, 32 * 72 + 16), vec![0; 32 * 72 + 16]],
            args: vec![A::Buf(0, 0), out, A::U32(66), A::U32(stride)],
            grid: 32,
        });
    }
    v.push(Case {
        name: "3 pointers, a = b",
        kernel: "alias_axpy",
        buffers: vec![vec![0; n], float_data(6, n + 8), float_data(7, n + 8)],
        args: vec![
            A::Buf(0, 0),
            A::Buf(1, 0),
            A::Buf(1, 0),
            A::F32(2.0),
            A::U32(per),
        ],
        grid: 32,
    });
    v
}

#[test]
fn recompiled_variants_against_the_original_on_the_cycle_model() {
    println!(
        "{:<22} {:<18} {:>8} {:>8} {:>7} {:>6} {:>10}",
        "kernel", "layout", "original", "variant", "speedup", "unroll", "recompile"
    );
    for c in cases() {
        let run = |jit: bool| {
            let gpu = ClockedGpu::new(GpuConfig::one_cu()).unwrap();
            let mut s = Session::new(gpu, compile_corpus(c.kernel), &c.buffers);
            let o = s.dispatch(c.grid, c.grid, &c.args, jit);
            let st = s.driver.device().stats();
            let cycles = st.dispatches.last().map_or(st.cycles, |d| d.cycles);
            (cycles, s.read(), o)
        };
        let (before, out0, _) = run(false);
        let (after, out1, o) = run(true);
        assert_eq!(out0, out1, "{} {}: results differ", c.kernel, c.name);
        let (unroll, time) = match &o.variant {
            Some(v) => (
                v.loops.first().map_or(1, |l| l.unroll),
                format!("{:.2} ms", v.compile_time.as_secs_f64() * 1e3),
            ),
            None => (1, "-".into()),
        };
        println!(
            "{:<22} {:<18} {:>8} {:>8} {:>7.2} {:>6} {:>10}",
            c.kernel,
            c.name,
            before,
            after,
            before as f64 / after as f64,
            unroll,
            time
        );
        if c.name == "disjoint" {
            assert!(
                after < before,
                "{}: the variant is not faster ({after} vs {before} cycles)",
                c.kernel
            );
        }
    }
}
