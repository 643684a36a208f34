//! Compiled objects in lockstep (issue 15): every corpus kernel gpusim
//! compiles, wave32 and wave64, runs its corpus workload with the gpusim
//! object on `--model lockstep` — the clocked GPU checked instruction by
//! instruction against the golden GPU — and must pass the workload's checks
//! with no lockstep mismatch (the default configuration's 4 CUs; about 25 s
//! for both wave sizes in a release build).
//!
//! `cargo test --release -p cosim --test compiler_lockstep -- --nocapture`

mod compiler_common;

use arch::isa::Isa;
use compiler_common::{compiling_corpus, run_with, workload};
use cosim::lockstep::LockstepGpu;
use golden::{GoldenConfig, GoldenGpu};
use hw::{ClockedGpu, GpuConfig};

/// Fewest kernels that must compile per wave size (27 of 34 when written).
const FLOOR: usize = 27;

fn run_all(wave64: bool) {
    let compiled = compiling_corpus(wave64);
    assert!(compiled.len() >= FLOOR, "only {} compile", compiled.len());
    let mut failures = Vec::new();
    for (name, c) in compiled {
        let result = workload(&name, wave64).and_then(|w| {
            let hw = ClockedGpu::new(GpuConfig::default_config()).map_err(|e| e.to_string())?;
            let golden =
                GoldenGpu::new(GoldenConfig::new(Isa::Gfx1030)).map_err(|e| e.to_string())?;
            let l = LockstepGpu::new(hw, golden)?;
            run_with(l, &w, Some(c.code_object.clone())).map(|_| ())
        });
        match result {
            Ok(()) => println!("PASS lockstep {name} wave64={wave64}"),
            Err(e) => failures.push(format!("{name} wave64={wave64}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_compiled_corpus_kernel_passes_in_lockstep_wave32() {
    run_all(false);
}

#[test]
fn every_compiled_corpus_kernel_passes_in_lockstep_wave64() {
    run_all(true);
}
