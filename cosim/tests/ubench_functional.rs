//! The calibration microbenchmark workloads (`workloads/ubench/<target>/`,
//! docs/calibration.md) pass their corpus reference on the golden functional
//! GPU, and each one's measuring knob scales exactly the instructions it is
//! meant to time: running with a smaller knob removes the expected number of
//! chase / chain / stream / atomic instructions (so a cycle difference
//! between the two runs on the clocked model is attributable to them).

use std::path::{Path, PathBuf};

use arch::code_object::CodeObject;
use cosim::workload::{self, Workload};
use golden::stats::GoldenStats;
use golden::{GoldenConfig, GoldenGpu};

/// Runs a workload on the golden GPU; its statistics if the checks pass.
fn run(w: &Workload) -> Result<GoldenStats, String> {
    let p = w.prepare().map_err(|e| e.to_string())?;
    let isa = CodeObject::parse(&p.code_object)
        .map_err(|e| e.to_string())?
        .isa()
        .ok_or("unmodelled processor")?;
    let gpu = GoldenGpu::new(GoldenConfig::new(isa)).map_err(|e| e.to_string())?;
    workload::run_checked(gpu, w).map(|gpu| gpu.stats())
}

/// The value of the `u32` argument called `name`.
fn knob(w: &Workload, name: &str) -> u64 {
    w.u32_arg(name)
        .unwrap_or_else(|| panic!("{}: no u32 argument `{name}`", w.path.display()))
}

/// `w` with the `u32` argument `name` set to `value`.
fn with_knob(w: &Workload, name: &str, value: u64) -> Workload {
    w.with_u32_arg(name, value)
}

fn class(s: &GoldenStats, c: &str) -> u64 {
    s.instructions_by_class.get(c).copied().unwrap_or(0)
}

/// One microbenchmark: the workload files whose stem starts with `prefix`
/// are measured by varying the `u32` argument `knob`, which scales the
/// instructions of encoding class `class`.
struct Bench {
    prefix: &'static str,
    knob: &'static str,
    class: &'static str,
    /// Which waves execute the timed instruction: all of them or only the
    /// first (single-lane chases).
    all_waves: bool,
}

const BENCHES: &[Bench] = &[
    // v_xad_u32 and v_fma_f32 are VOP3 encodings.
    Bench {
        prefix: "valu_int",
        knob: "vsteps",
        class: "VOP3",
        all_waves: true,
    },
    Bench {
        prefix: "valu_f32",
        knob: "fsteps",
        class: "VOP3",
        all_waves: true,
    },
    // One s_mul_i32 and one s_add_i32 per step (plus loop overhead, checked
    // as a lower bound below).
    Bench {
        prefix: "salu_int",
        knob: "ssteps",
        class: "SOP2",
        all_waves: true,
    },
    Bench {
        prefix: "smem_chain",
        knob: "steps",
        class: "SMEM",
        all_waves: true,
    },
    Bench {
        prefix: "lds_chase",
        knob: "steps",
        class: "DS",
        all_waves: true,
    },
    Bench {
        prefix: "mem_chase",
        knob: "steps",
        class: "GLOBAL",
        all_waves: false,
    },
    // One global_atomic_add per iteration per wave.
    Bench {
        prefix: "atomics",
        knob: "iters",
        class: "GLOBAL",
        all_waves: true,
    },
    // Two dwordx4 loads and one store per float4 element per repetition.
    Bench {
        prefix: "stream",
        knob: "reps",
        class: "GLOBAL",
        all_waves: true,
    },
];

fn files(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../workloads/ubench")
        .join(target);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    v.sort();
    v
}

#[test]
fn ubench_workloads_pass_and_their_knobs_scale_the_timed_instructions() {
    let mut failures = Vec::new();
    let mut count = 0;
    for (target, wave) in [("gfx1030", 32u64), ("gfx1030-w64", 64)] {
        let fs = files(target);
        assert!(fs.len() >= 14, "{target}: {} workloads", fs.len());
        for f in fs {
            count += 1;
            let stem = f.file_stem().unwrap().to_str().unwrap().to_string();
            let b = BENCHES
                .iter()
                .find(|b| stem.starts_with(b.prefix))
                .unwrap_or_else(|| panic!("{}: no microbenchmark prefix", f.display()));
            let w = Workload::load(&f).unwrap_or_else(|e| panic!("{e}"));
            let full = knob(&w, b.knob);
            assert!(full >= 2, "{}: knob {} = {full}", f.display(), b.knob);
            let base = with_knob(&w, b.knob, full / 2);
            let (s_full, s_base) = match (run(&w), run(&base)) {
                (Ok(a), Ok(b)) => (a, b),
                (a, b) => {
                    failures.push(format!(
                        "{}: {:?} / half knob {:?}",
                        f.display(),
                        a.err(),
                        b.err()
                    ));
                    continue;
                }
            };
            let delta = full - full / 2;
            let items: u64 = w.grid.iter().map(|&g| g as u64).product();
            let waves = if b.all_waves { items.div_ceil(wave) } else { 1 };
            let per_wave_unit = match b.prefix {
                "salu_int" => 2,
                // float4 elements per wave per repetition (grid-stride loop).
                "stream" => 3 * knob(&w, "n4").div_ceil(items),
                _ => 1,
            };
            let want = delta * waves * per_wave_unit;
            let got = class(&s_full, b.class) - class(&s_base, b.class);
            let ok = if b.prefix == "salu_int" {
                got >= want && got <= want + want / 8
            } else {
                got == want
            };
            if !ok {
                failures.push(format!(
                    "{}: {} {} instructions added by {} {} -> {full}, expected {want}",
                    f.display(),
                    got,
                    b.class,
                    b.knob,
                    full / 2
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {count} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
