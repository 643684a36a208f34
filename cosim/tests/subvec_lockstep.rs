//! Seed 000 in lockstep (docs/variable-wavefront.md): every gfx1030 wave64
//! corpus workload on a 16-lane SIMD (wave64 in quarters) in conventional and
//! forced sub-vector order, and the shared-VGPR study kernel with its region
//! from the workload and from the code-object note, each against the golden
//! GPU instruction by instruction with final memory equal to the functional
//! model's.
//!
//! The whole wave64 corpus in both orders takes about 17 s (release, a
//! loaded 2-vCPU machine), so no slice is needed. Run with `cargo test --release -p cosim --test subvec_lockstep`.

use std::path::{Path, PathBuf};

use arch::isa::Isa;
use cosim::model::{Model, ModelDevice, ModelOptions};
use cosim::workload::{self, HostBuffer, Workload};
use hw::config::SubvectorMode;
use hw::GpuConfig;
use sw::driver::{Driver, DriverError};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Workloads whose final memory depends on the order waves run (their checks
/// are order-free): `append` gathers through an atomic counter.
const SCHEDULE_DEPENDENT: [&str; 1] = ["/append.yaml"];

struct Outcome {
    finals: Vec<HostBuffer>,
    passed: bool,
    stats: hw::stats::GpuStats,
}

fn run(path: &Path, model: Model, config: GpuConfig) -> Result<Outcome, DriverError> {
    let w = Workload::load(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let prepared = w.prepare().unwrap();
    let options = ModelOptions {
        model,
        isa: Isa::Gfx1030,
        config,
        watchdog: None,
        wave_watchdog: None,
    };
    let device = ModelDevice::new(&options).unwrap();
    let mut driver = Driver::new(device)?;
    let finals = workload::execute(&mut driver, &prepared)?;
    let passed = workload::check(&w, &prepared, &finals).unwrap().passed();
    let stats = driver
        .device()
        .clocked()
        .map(|hw| hw.stats())
        .unwrap_or_default();
    Ok(Outcome {
        finals,
        passed,
        stats,
    })
}

fn bytes(finals: &[HostBuffer]) -> Vec<Vec<u8>> {
    finals.iter().map(|b| b.bytes.clone()).collect()
}

fn config(mode: SubvectorMode, simd_lanes: u32) -> GpuConfig {
    let mut c = GpuConfig::one_cu();
    c.cu.subvector_mode = mode;
    c.cu.simd_lanes = simd_lanes;
    c
}

/// The wave64 corpus, sorted.
fn wave64_corpus() -> Vec<PathBuf> {
    let dir = root().join("workloads/corpus/gfx1030-w64");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 30,
        "corpus missing: {} workloads",
        files.len()
    );
    files
}

/// Issue 16: wave64 on a 16-lane SIMD runs in four quarters; in both orders
/// every instruction's results agree with the golden GPU and the final
/// memory with the functional model's.
#[test]
fn wave64_corpus_runs_in_lockstep_on_a_sixteen_lane_simd_in_both_orders() {
    let mut failures = Vec::new();
    let mut passes = 0;
    for path in wave64_corpus() {
        let name = path
            .strip_prefix(root())
            .unwrap_or(&path)
            .display()
            .to_string();
        let functional = run(&path, Model::Functional, GpuConfig::default_config()).unwrap();
        for mode in [SubvectorMode::Conventional, SubvectorMode::Subvector] {
            match run(&path, Model::Lockstep, config(mode, 16)) {
                Ok(o) if bytes(&o.finals) == bytes(&functional.finals) && o.passed => {
                    passes += o.stats.cus[0].subvector_passes;
                }
                Ok(o) if SCHEDULE_DEPENDENT.iter().any(|w| name.ends_with(w)) && o.passed => {}
                Ok(_) => failures.push(format!(
                    "{name} [16 lanes, {mode:?}] lockstep: final memory differs from functional"
                )),
                Err(e) => failures.push(format!("{name} [16 lanes, {mode:?}] lockstep: {e}")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Forced sub-vector order really ran windows of quarters.
    assert!(passes > 0, "no sub-vector passes");
}

/// Seed 000 §2 in lockstep: the study kernel's shared region (workload key,
/// code-object note) fits more waves, and every instruction still matches
/// the golden GPU, which does not alias: the kernel keeps the region's
/// values inside one sub-vector window (docs/variable-wavefront.md).
#[test]
fn the_shared_vgpr_study_kernel_runs_in_lockstep_with_its_region_from_key_and_note() {
    let study = root().join("workloads/study");
    let functional = run(
        &study.join("subvec_vgpr_noshare.yaml"),
        Model::Functional,
        GpuConfig::default_config(),
    )
    .unwrap();
    let cases = [
        // (workload, configured order, SIMD lanes, waves sharing, peak resident waves)
        (
            "subvec_vgpr_noshare.yaml",
            SubvectorMode::Subvector,
            32,
            0,
            8,
        ),
        ("subvec_vgpr.yaml", SubvectorMode::Conventional, 32, 0, 8),
        ("subvec_vgpr.yaml", SubvectorMode::Subvector, 32, 256, 10),
        ("subvec_vgpr.yaml", SubvectorMode::Subvector, 16, 256, 10),
        (
            "subvec_vgpr_note.yaml",
            SubvectorMode::Conventional,
            32,
            256,
            10,
        ),
    ];
    for (file, mode, lanes, sharing, peak) in cases {
        let o = run(&study.join(file), Model::Lockstep, config(mode, lanes))
            .unwrap_or_else(|e| panic!("{file} [{mode:?}, {lanes}]: {e}"));
        assert_eq!(
            bytes(&o.finals),
            bytes(&functional.finals),
            "{file} [{mode:?}, {lanes}]"
        );
        let cu = &o.stats.cus[0];
        assert_eq!(
            (cu.shared_vgpr_waves, cu.peak_resident_waves),
            (sharing, peak),
            "{file} [{mode:?}, {lanes}]"
        );
    }
}

/// The `shared_vgprs:` key: a count reaches the workload, its absence leaves
/// the note to decide, and a value past a byte is an error naming the key.
#[test]
fn the_shared_vgprs_key_parses_and_rejects_out_of_range_values() {
    let header = "kernel: { corpus: saxpy, target: gfx1030-w64 }\ngrid: 64\nworkgroup: 64\n";
    let parse = |text: &str| Workload::parse(text, &root().join("workloads/x.yaml"));
    assert_eq!(parse(header).unwrap().shared_vgprs, None);
    let w = parse(&format!("{header}shared_vgprs: 64\n")).unwrap();
    assert_eq!(w.shared_vgprs, Some(64));
    let e = parse(&format!("{header}shared_vgprs: 300\n"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("shared_vgprs"), "{e}");
}

/// A kernel that breaks the contract (reads a shared register after its
/// window) runs in lockstep without sharing, and with sharing stops at the
/// first instruction that sees the other part's value, naming the region.
#[test]
fn lockstep_stops_where_a_kernel_reads_a_shared_register_outside_its_window() {
    let broken = root().join("workloads/study/subvec_vgpr_broken.yaml");
    let ok = run(
        &broken,
        Model::Lockstep,
        config(SubvectorMode::Conventional, 32),
    )
    .expect("without sharing the kernel is fine");
    assert_eq!(ok.stats.cus[0].shared_vgpr_waves, 0);
    let e = match run(
        &broken,
        Model::Lockstep,
        config(SubvectorMode::Subvector, 32),
    ) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("a read of another part's shared value went unnoticed"),
    };
    assert!(e.contains("global_store_dword"), "{e}");
    assert!(e.contains("share v64–v127"), "{e}");
}
