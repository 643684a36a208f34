//! Seed 002 in a `steps:` program (`workloads/alias/steps/`): every
//! dispatch of a source kernel goes through the driver's analysis and the
//! JIT's variant cache, with that step's arguments. Alone in its test binary
//! because the cache and its counters are per process: the exact counts
//! below would be disturbed by other tests' dispatches.

use std::path::{Path, PathBuf};

use arch::isa::Isa;
use cosim::workload::{execute_program, HostBuffer, Prepared, ProgramRun, Workload};
use golden::{GoldenConfig, GoldenGpu};
use sw::driver::Driver;

fn run(p: &Prepared) -> ProgramRun {
    let gpu = GoldenGpu::new(GoldenConfig::new(Isa::Gfx1030)).unwrap();
    let mut d = Driver::new(gpu).unwrap();
    execute_program(&mut d, p, &[])
        .unwrap_or_else(|e| panic!("{e}"))
        .0
}

fn floats(b: &HostBuffer) -> Vec<f32> {
    b.bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn buffer<'a>(run: &'a ProgramRun, name: &str) -> &'a HostBuffer {
    run.finals.iter().find(|b| b.name == name).unwrap()
}

/// `copy_scale(out, in, s, per_item)` on the host as one wave runs it:
/// lanes in lockstep, at each loop step every lane loads, then every lane
/// stores (so an overlap within a lane is seen, one across lanes is not).
fn copy_scale(mem: &mut [f32], out: usize, input: usize, s: f32, lanes: usize, per_item: usize) {
    for i in 0..per_item {
        let loaded: Vec<f32> = (0..lanes).map(|l| mem[input + l * per_item + i]).collect();
        for (l, x) in loaded.into_iter().enumerate() {
            mem[out + l * per_item + i] = x * s;
        }
    }
}

#[test]
fn every_step_of_a_program_runs_the_variant_for_its_own_arguments() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../workloads/alias/steps");
    let w = Workload::load(&dir.join("copy_scale_program.yaml")).unwrap_or_else(|e| panic!("{e}"));
    let p = w.prepare().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.steps.len(), 2);

    let jit = run(&p);
    let st = cosim::workload::alias::stats();
    // Five dispatches analysed; `shift` (overlap d = 1) and `pingpong`
    // (disjoint) each compile one variant, their repeats hit the cache, and
    // no dispatch falls back to the original.
    assert_eq!(jit.dispatches, 5);
    assert_eq!(
        (st.analyses, st.recompilations, st.cache_hits, st.unchanged),
        (5, 2, 3, 0),
        "{st:?}"
    );

    // The same program with the code object not recognised as source: the
    // original kernel at every step. The buffers must be bit-identical.
    let mut original = p.clone();
    for (path, _) in &mut original.objects {
        *path = PathBuf::from("original.hsaco");
    }
    // Not source builds: every step dispatched as compiled, without seed 002.
    original.object_sources.iter_mut().for_each(|b| *b = None);
    let orig = run(&original);
    assert_eq!(jit.finals, orig.finals, "the recompiled steps differ");
    assert_eq!(cosim::workload::alias::stats().analyses, 5);

    // And both equal the host's sequential loop, step by step.
    let initial = |name: &str| floats(p.buffers.iter().find(|b| b.name == name).unwrap());
    let (lanes, per_item) = (32, 32);
    let mut data = initial("data");
    for _ in 0..2 {
        copy_scale(&mut data, 1, 0, 0.75, lanes, per_item);
    }
    // `a` and `b` side by side; the swap exchanges which half each name is.
    let mut ab = initial("a");
    ab.extend(initial("b"));
    let (mut a, mut b) = (0, 1024);
    for _ in 0..3 {
        copy_scale(&mut ab, b, a, 0.5, lanes, per_item);
        std::mem::swap(&mut a, &mut b);
    }
    assert_eq!(floats(buffer(&jit, "data")), data);
    assert_eq!(floats(buffer(&jit, "a")), ab[a..a + 1024]);
    assert_eq!(floats(buffer(&jit, "b")), ab[b..b + 1024]);
    // The shift really overlapped: a lane's later elements carry its first
    // element scaled again at each position (not just one copy of `in`).
    assert_ne!(data, {
        let mut once = initial("data");
        let copy = once.clone();
        for (k, x) in copy.iter().enumerate().take(1039) {
            once[k + 1] = x * 0.75;
        }
        once
    });
}
