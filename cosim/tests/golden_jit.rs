//! Differential tests of the golden model's JIT (`golden::jit`) against the
//! interpreter, which stays the oracle:
//!
//! * every corpus and example workload: identical final buffers and
//!   statistics with the JIT on (blocks compiled at their first execution,
//!   and at the default threshold) and off; prints the JIT's coverage (which
//!   families ran as native code, which through interpreter calls);
//! * a CI slice of random programs from the `fuzz-lockstep` generator:
//!   identical data buffer, statistics and fault, 0 differences.

use std::path::{Path, PathBuf};

use arch::code_object::CodeObject;
use arch::isa::{Family, Target};
use cosim::fuzz::gen::{alu_rows, Rng};
use cosim::fuzz::Program;
use cosim::workload::{self, Workload};
use golden::jit::JitStats;
use golden::stats::GoldenStats;
use golden::{GoldenConfig, GoldenGpu};
use sw::driver::{Arg, Driver, LaunchDims};

/// A GPU with the JIT off (`None`) or on at a threshold.
fn gpu(isa: arch::isa::Isa, jit: Option<u32>) -> GoldenGpu {
    let mut config = GoldenConfig::new(isa);
    if let Some(t) = jit {
        config.jit = true;
        config.jit_threshold = t;
    }
    GoldenGpu::new(config).expect("config")
}

type Outcome = (Vec<Vec<u8>>, GoldenStats, Option<JitStats>);

/// Final buffers, statistics and JIT statistics of a workload.
fn workload_run(path: &Path, jit: Option<u32>) -> Outcome {
    let w = Workload::load(path).expect("workload");
    let p = w.prepare().expect("prepared");
    let isa = CodeObject::parse(&p.code_object)
        .expect("code object")
        .isa()
        .expect("modelled");
    let mut driver = Driver::new(gpu(isa, jit)).expect("driver");
    let finals = workload::execute(&mut driver, &p).expect("runs");
    (
        finals.into_iter().map(|b| b.bytes).collect(),
        driver.device().stats(),
        driver.device().jit_stats(),
    )
}

fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("workload directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    files
}

fn add(total: &mut JitStats, s: &JitStats) {
    total.blocks += s.blocks;
    total.compiled_instructions += s.compiled_instructions;
    total.interpreted += s.interpreted;
    total.native.resize(s.native.len(), 0);
    total.fallback.resize(s.fallback.len(), 0);
    for (t, x) in total.native.iter_mut().zip(&s.native) {
        *t += x;
    }
    for (t, x) in total.fallback.iter_mut().zip(&s.fallback) {
        *t += x;
    }
    for (k, v) in &s.fallback_opcodes {
        *total.fallback_opcodes.entry(k.clone()).or_default() += v;
    }
}

#[test]
fn every_corpus_and_example_workload_is_identical_with_the_jit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../workloads");
    let mut files = Vec::new();
    for target in ["gfx803", "gfx1030", "gfx1030-w64"] {
        files.extend(yaml_files(&root.join("corpus").join(target)));
    }
    files.extend(yaml_files(&root.join("examples")));
    let mut total = JitStats::default();
    let mut count = 0;
    for f in &files {
        let reference = workload_run(f, None);
        for threshold in [1, golden::jit::DEFAULT_THRESHOLD] {
            let jit = workload_run(f, Some(threshold));
            assert_eq!(
                jit.1,
                reference.1,
                "{} t{threshold}: statistics",
                f.display()
            );
            assert!(
                jit.0 == reference.0,
                "{} t{threshold}: final buffers differ",
                f.display()
            );
            if threshold == 1 {
                add(&mut total, jit.2.as_ref().expect("JIT on"));
            }
        }
        count += 1;
    }
    assert!(count >= 74, "{count} workloads");
    // Coverage over the corpus (threshold 1: everything that runs twice or
    // more is in a block), by family.
    eprintln!("family      native  interp-call");
    for f in Family::ALL {
        let (n, b) = (total.native[f as usize], total.fallback[f as usize]);
        if n + b > 0 {
            eprintln!("{:<10} {n:>8} {b:>12}", format!("{f:?}"));
        }
    }
    eprintln!(
        "blocks {}, outside blocks {} (gfx803 waves, cold code)",
        total.blocks, total.interpreted
    );
    let mut by_count: Vec<_> = total.fallback_opcodes.iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(a.1));
    eprintln!("interpreter calls compiled (static), most common first: {by_count:?}");
    let native: u64 = total.native.iter().sum();
    assert!(native > 0, "nothing ran as native code");
}

/// Runs a fuzz program on the golden GPU: data buffer (or the fault's
/// text), statistics.
fn fuzz_run(p: &Program, jit: Option<u32>) -> (Result<Vec<u8>, String>, GoldenStats) {
    let elf = p.code_object().expect("program builds");
    let mut driver = Driver::new(gpu(arch::isa::Isa::Gfx1030, jit)).expect("driver");
    let result = (|| {
        let program = driver.load(&elf)?;
        let kernel = program.kernel("fuzz")?.clone();
        let data = driver.create_buffer(&p.data)?;
        let wave = p.target.wave_size();
        driver.launch(
            &kernel,
            LaunchDims::linear(wave, wave),
            &[Arg::Buffer(data.address)],
        )?;
        driver.download(data)
    })()
    .map_err(|e| e.to_string());
    (result, driver.device().stats())
}

/// Random programs (`fuzz-lockstep`'s generator, every ALU opcode, memory
/// items, loops, EXEC changes) with the JIT against the interpreter. The CI
/// slice is 60 programs; `GPUSIM_JIT_FUZZ_PROGRAMS=N` and
/// `GPUSIM_JIT_FUZZ_FIRST=S` run programs S..S+N (docs/reliability.md
/// records the long runs); the wave instructions executed are printed.
#[test]
fn random_programs_agree_with_the_interpreter() {
    let rows = alu_rows(true);
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let programs = env("GPUSIM_JIT_FUZZ_PROGRAMS", 60);
    let first = env("GPUSIM_JIT_FUZZ_FIRST", 0);
    let mut differences = Vec::new();
    let (mut instructions, mut completed) = (0u64, 0u64);
    for seed in first..first + programs {
        let mut rng = Rng::new(0x5eed_0000 + seed);
        let target = if seed % 2 == 0 {
            Target::GFX1030_W32
        } else {
            Target::GFX1030_W64
        };
        let p = Program::random(&mut rng, target, &rows, 120);
        let reference = fuzz_run(&p, None);
        let jit = fuzz_run(&p, Some(1));
        instructions += reference.1.instructions;
        completed += u64::from(jit.0.is_ok());
        if jit != reference {
            differences.push(format!(
                "seed {seed}: interpreter {:?}\nJIT {:?}\n{}",
                reference.0.as_ref().map(|_| "ok"),
                jit.0.as_ref().map(|_| "ok"),
                p.body_text()
            ));
        }
    }
    eprintln!(
        "programs {first}..{} (seeds 0x5eed0000 + i): {instructions} wave instructions, \
         {completed} ran without a fault, {} differences",
        first + programs,
        differences.len()
    );
    assert!(
        differences.is_empty(),
        "{} of {programs} programs differ:\n{}",
        differences.len(),
        differences.join("\n")
    );
}
