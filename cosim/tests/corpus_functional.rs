//! Every corpus kernel on all three targets (gfx803, gfx1030 wave32, gfx1030
//! wave64) runs on the golden functional GPU through the driver and matches its
//! Rust CPU reference — the same path as `gpusim run WORKLOAD --model functional`.

use std::path::{Path, PathBuf};

use arch::code_object::CodeObject;
use cosim::workload::{self, Workload};
use golden::{GoldenConfig, GoldenGpu};
use sw::driver::Driver;

fn run(path: &Path) -> Result<u64, String> {
    let w = Workload::load(path).map_err(|e| e.to_string())?;
    let p = w.prepare().map_err(|e| e.to_string())?;
    let isa = CodeObject::parse(&p.code_object)
        .map_err(|e| e.to_string())?
        .isa()
        .ok_or("unmodelled processor")?;
    let gpu = GoldenGpu::new(GoldenConfig::new(isa)).map_err(|e| e.to_string())?;
    let mut driver = Driver::new(gpu).map_err(|e| e.to_string())?;
    let finals = workload::execute(&mut driver, &p).map_err(|e| e.to_string())?;
    let report = workload::check(&w, &p, &finals).map_err(|e| e.to_string())?;
    if let Some(m) = report.first_mismatch() {
        return Err(m.to_string());
    }
    Ok(driver.device().stats().active_lane_instructions)
}

#[test]
fn every_corpus_kernel_passes_on_the_functional_model() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../workloads/corpus");
    let mut failures = Vec::new();
    let mut count = 0;
    for target in ["gfx803", "gfx1030", "gfx1030-w64"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(target))
            .expect("workload directory")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
            .collect();
        files.sort();
        assert!(files.len() >= 24, "{target}: {} workloads", files.len());
        for f in files {
            count += 1;
            match run(&f) {
                Ok(lanes) => assert!(lanes > 0, "{}: no vector work counted", f.display()),
                Err(e) => failures.push(format!("{}: {e}", f.display())),
            }
        }
    }
    println!("{count} workloads, {} failed", failures.len());
    for f in &failures {
        println!("{f}");
    }
    assert!(
        failures.is_empty(),
        "{} of {count} corpus workloads failed",
        failures.len()
    );
}
