//! Seed 000's compiler pass on the high-VGPR kernel set (issue 20):
//! `tests/kernels/subvector/*.cl` compiled for wave64 with the pass off and
//! with each rewrite, run through `workloads/subvector/*.yaml` on
//! `--model functional` and `--model lockstep`; every run passes the
//! workload's check against the CPU reference (`expected/*.bin`, written
//! from the references below with `GPUSIM_BLESS=1`), and every variant's
//! memory is bit-identical to the pass-off kernel's (spec 000 §6.10; for
//! the duplication rewrite this is behaviour 9: the segment run once per
//! half gives what running it once gives).
//!
//! `cargo test --release -p cosim --test subvector_pass -- --nocapture`
//! (the `study` test prints docs/variable-wavefront.md's table).

use std::path::{Path, PathBuf};

use arch::isa::Isa;
use compiler::backend::subvector::{SubvectorOptions, SubvectorRewrite};
use compiler::{compile, CompileOptions, Compiled, Source};
use cosim::model::{Model, ModelDevice, ModelOptions};
use cosim::workload::{self, HostBuffer, Prepared, Workload};
use hw::GpuConfig;
use sw::driver::Driver;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Compiles `tests/kernels/subvector/NAME.cl` for wave64 at `-O`.
fn build(name: &str, rewrite: SubvectorRewrite) -> Compiled {
    let mut o = CompileOptions::default();
    o.backend.wave64 = true;
    o.backend.optimize = true;
    o.backend.subvector = SubvectorOptions {
        rewrite,
        ..Default::default()
    };
    let path = root().join(format!("tests/kernels/subvector/{name}.cl"));
    compile(Source::Path(&path), &o).unwrap_or_else(|d| panic!("{name}: {d}"))
}

fn floats(b: &HostBuffer) -> Vec<f32> {
    b.bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn u32_arg(p: &Prepared, i: usize) -> u32 {
    match &p.args[i] {
        workload::PreparedArg::Value(v) => u32::from_le_bytes([v[0], v[1], v[2], v[3]]),
        a => panic!("argument {i} is {a:?}"),
    }
}

/// The CPU reference of each kernel: (checked buffer name, its contents).
fn reference(name: &str, p: &Prepared) -> (String, Vec<f32>) {
    let buf = |n: &str| floats(p.buffers.iter().find(|b| b.name == n).unwrap());
    match name {
        "matmul_blocked" => {
            let (a, b) = (buf("a"), buf("b"));
            let n = u32_arg(p, 3) as usize;
            let mut c = vec![0f32; n * n];
            for i in 0..n {
                for j in 0..n {
                    c[i * n + j] = (0..n).fold(0f32, |s, k| s + a[i * n + k] * b[k * n + j]);
                }
            }
            ("c".into(), c)
        }
        "fir_unrolled" => {
            let (x, h) = (buf("x"), buf("h"));
            let out: Vec<f32> = (0..8192)
                .map(|o| (1..36).fold(h[0] * x[o], |s, t| s + h[t] * x[o + t]))
                .collect();
            ("out".into(), out)
        }
        "nbody_multi" => {
            let pos = buf("pos");
            let n = u32_arg(p, 2) as usize;
            let h2 = f32::from_bits(u32_arg(p, 3));
            let mut acc = vec![0f32; pos.len()];
            for i in 0..pos.len() / 4 {
                let mut a = [0f32; 3];
                for j in 0..n {
                    let d = [0, 1, 2].map(|k| pos[4 * j + k] - pos[4 * i + k]);
                    let w = (h2 - (d[0] * d[0] + d[1] * d[1] + d[2] * d[2])).max(0.0);
                    let s = pos[4 * j + 3] * w * w * w;
                    for k in 0..3 {
                        a[k] += s * d[k];
                    }
                }
                acc[4 * i..4 * i + 3].copy_from_slice(&a);
            }
            ("acc".into(), acc)
        }
        _ => panic!("no reference for {name}"),
    }
}

/// Loads NAME's workload, checking that its committed pass-on object is
/// what the compiler gives today (`GPUSIM_BLESS=1` rewrites it), and the
/// expected file against the CPU reference. Tests only read the committed
/// files: several run at once, and a file rewritten while another test
/// reads it would be read truncated.
fn workload_of(name: &str) -> (Workload, Prepared) {
    let dir = root().join("workloads/subvector");
    let object = build(name, SubvectorRewrite::Loop).code_object;
    let co = dir.join(format!("{name}.co"));
    if std::env::var_os("GPUSIM_BLESS").is_some() {
        std::fs::write(&co, &object).unwrap();
    }
    let committed = std::fs::read(&co)
        .unwrap_or_else(|e| panic!("{}: {e} (write it with GPUSIM_BLESS=1)", co.display()));
    assert!(
        committed == object,
        "{} is not what gpusim compiles today (GPUSIM_BLESS=1 rewrites it)",
        co.display()
    );
    let w = Workload::load(&dir.join(format!("{name}.yaml"))).unwrap();
    let p = w.prepare().unwrap();
    let (buffer, want) = reference(name, &p);
    let path = dir.join(format!("expected/{name}.{buffer}.bin"));
    let bytes: Vec<u8> = want.iter().flat_map(|x| x.to_le_bytes()).collect();
    if std::env::var_os("GPUSIM_BLESS").is_some() {
        std::fs::write(&path, &bytes).unwrap();
    }
    let stored = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (write it with GPUSIM_BLESS=1)", path.display()));
    assert!(
        stored == bytes,
        "{} differs from the CPU reference (GPUSIM_BLESS=1 rewrites it)",
        path.display()
    );
    (w, p)
}

struct Run {
    finals: Vec<HostBuffer>,
    stats: hw::stats::GpuStats,
}

fn run(w: &Workload, p: &Prepared, object: &[u8], model: Model, config: GpuConfig) -> Run {
    let mut p = p.clone();
    p.code_object = object.to_vec();
    let options = ModelOptions {
        model,
        isa: Isa::Gfx1030,
        config,
        watchdog: None,
        wave_watchdog: None,
    };
    let mut d = Driver::new(ModelDevice::new(&options).unwrap()).unwrap();
    let finals = workload::execute(&mut d, &p).unwrap_or_else(|e| panic!("{model:?}: {e}"));
    let report = workload::check(w, &p, &finals).unwrap();
    assert!(report.passed(), "{model:?}: {:?}", report.first_mismatch());
    let stats = d.device().clocked().map(|g| g.stats()).unwrap_or_default();
    Run { finals, stats }
}

const VARIANTS: [SubvectorRewrite; 3] = [
    SubvectorRewrite::Off,
    SubvectorRewrite::Loop,
    SubvectorRewrite::Duplicate,
];

/// Every variant of NAME on both models: checks pass, memory identical to
/// the pass-off kernel's.
fn every_variant_on_both_models(name: &str) {
    let (w, p) = workload_of(name);
    let mut baseline: Option<Vec<Vec<u8>>> = None;
    for rewrite in VARIANTS {
        let c = build(name, rewrite);
        if rewrite != SubvectorRewrite::Off {
            assert!(
                c.kernels[0].subvector.rewritten() > 0,
                "{name} {rewrite:?}: nothing rewritten: {:?}",
                c.kernels[0].subvector.regions
            );
        }
        for model in [Model::Functional, Model::Lockstep] {
            let r = run(&w, &p, &c.code_object, model, GpuConfig::default_config());
            let mem: Vec<Vec<u8>> = r.finals.iter().map(|b| b.bytes.clone()).collect();
            match &baseline {
                None => baseline = Some(mem),
                Some(b) => assert!(*b == mem, "{name} {rewrite:?} {model:?}: memory differs"),
            }
            println!("PASS {name} {rewrite:?} {model:?}");
        }
    }
}

#[test]
fn matmul_blocked_passes_with_the_pass_off_and_on_in_both_models() {
    every_variant_on_both_models("matmul_blocked");
}

#[test]
fn fir_unrolled_passes_with_the_pass_off_and_on_in_both_models() {
    every_variant_on_both_models("fir_unrolled");
}

#[test]
fn nbody_multi_passes_with_the_pass_off_and_on_in_both_models() {
    every_variant_on_both_models("nbody_multi");
}

/// The study of docs/variable-wavefront.md "Compiler pass (issue 20)": each
/// kernel's larger workload (`workloads/subvector/study/`, 16 waves) on the
/// cycle model of one CU, pass off and each rewrite: VGPRs and shared
/// VGPRs from the code object, rows per wave, peak resident waves, peak
/// VGPR rows, cycles. Asserts what must hold (memory identical to the
/// pass-off run, the note reaching the hardware, fewer rows and no fewer
/// waves with a shared region); prints the table.
#[test]
fn study() {
    let study = root().join("workloads/subvector/study");
    println!("| kernel | pass | VGPRs | shared | rows/wave | peak waves | peak rows | shared waves | cycles |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for (name, file) in [
        ("matmul_blocked", "matmul_blocked_256.yaml"),
        ("fir_unrolled", "fir_unrolled_1024.yaml"),
        ("nbody_multi", "nbody_multi_1024.yaml"),
    ] {
        // The pass-on object the workload names.
        let _ = workload_of(name);
        let w = Workload::load(&study.join(file)).unwrap();
        let p = w.prepare().unwrap();
        let mut off: Option<(Vec<Vec<u8>>, u64, u64)> = None;
        for rewrite in VARIANTS {
            let c = build(name, rewrite);
            let k = &c.kernels[0];
            let vgprs = k.metadata.vgpr_count as u16;
            let shared = k.subvector.shared_vgprs;
            let rows = compiler::backend::subvector::rewrite::wave64_rows(vgprs, shared);
            let r = run(&w, &p, &c.code_object, Model::Cycle, GpuConfig::one_cu());
            let cu = &r.stats.cus[0];
            let mem: Vec<Vec<u8>> = r.finals.iter().map(|b| b.bytes.clone()).collect();
            println!(
                "| {name} | {rewrite:?} | {vgprs} | {shared} | {rows} | {} | {} | {} | {} |",
                cu.peak_resident_waves, cu.peak_vgpr_rows, cu.shared_vgpr_waves, r.stats.cycles
            );
            match &off {
                None => off = Some((mem, cu.peak_resident_waves, u64::from(rows))),
                Some((m, waves, off_rows)) => {
                    assert!(
                        *m == mem,
                        "{name} {rewrite:?}: memory differs from pass off"
                    );
                    if shared > 0 {
                        assert_eq!(cu.shared_vgpr_waves, 16, "{name} {rewrite:?}: the note");
                        assert!(u64::from(rows) < *off_rows, "{name} {rewrite:?}");
                        assert!(cu.peak_resident_waves >= *waves, "{name} {rewrite:?}");
                    } else {
                        assert_eq!(cu.shared_vgpr_waves, 0, "{name} {rewrite:?}");
                    }
                }
            }
        }
    }
}

mod compiler_common;

/// The legality rules on code the kernel set does not have: every corpus
/// kernel gpusim compiles for wave64, with a threshold of 3 VGPRs and
/// 4-instruction straight-line segments (so nearly every stretch of every
/// kernel is a candidate: atomics, LDS, barriers, divergent loops, scratch),
/// each rewrite, in lockstep on one CU: every workload's checks against its
/// reference pass (about 15 s).
#[test]
fn every_compiled_corpus_kernel_passes_with_a_low_threshold() {
    use compiler_common::{corpus_names, options, run_with, workload};
    use cosim::lockstep::LockstepGpu;
    use golden::{GoldenConfig, GoldenGpu};
    let mut failures = Vec::new();
    let mut rewritten = 0;
    for name in corpus_names() {
        let path = root().join(format!("tests/kernels/{name}.cl"));
        for rewrite in [SubvectorRewrite::Loop, SubvectorRewrite::Duplicate] {
            let mut o = options(true);
            o.backend.subvector = SubvectorOptions {
                rewrite,
                threshold: 3,
                chunk: 4,
            };
            let Ok(c) = compile(Source::Path(&path), &o) else {
                continue;
            };
            if c.kernels.iter().all(|k| k.subvector.rewritten() == 0) {
                continue;
            }
            rewritten += 1;
            let result = workload(&name, true).and_then(|w| {
                let hw = hw::ClockedGpu::new(GpuConfig::one_cu()).map_err(|e| e.to_string())?;
                let golden =
                    GoldenGpu::new(GoldenConfig::new(Isa::Gfx1030)).map_err(|e| e.to_string())?;
                let l = LockstepGpu::new(hw, golden)?;
                run_with(l, &w, Some(c.code_object.clone())).map(|_| ())
            });
            match result {
                Ok(()) => println!("PASS {name} {rewrite:?}"),
                Err(e) => failures.push(format!("{name} {rewrite:?}: {e}")),
            }
        }
    }
    assert!(
        rewritten >= 40,
        "only {rewritten} kernels had a run rewritten"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn gpusim(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_gpusim"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

/// `gpusim compile --subvector=…`: the listing ends with the segments and
/// the runs' outcomes; a bad value or count is a clear error (exit 2).
#[test]
fn the_compile_command_takes_the_pass_options() {
    let out = gpusim(&[
        "compile",
        "--wave64",
        "-O",
        "-S",
        "--subvector=loop",
        "--subvector-threshold=64",
        "tests/kernels/subvector/matmul_blocked.cl",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("s_subvector_loop_begin"), "{text}");
    assert!(
        text.contains("; subvector: Loop, threshold 64 VGPRs"),
        "{text}"
    );
    assert!(text.contains(": rewritten"), "{text}");
    for (arg, says) in [
        ("--subvector=fast", "say loop, duplicate, hw or off"),
        ("--subvector-threshold=0", "needs a count from 1 to 65535"),
        ("--subvector-chunk=x", "needs a count from 1 to 65535"),
    ] {
        let out = gpusim(&[
            "compile",
            "--wave64",
            "-S",
            arg,
            "tests/kernels/subvector/matmul_blocked.cl",
        ]);
        assert_eq!(out.status.code(), Some(2), "{arg}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{arg}: {err}");
    }
}
