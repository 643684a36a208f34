//! The clocked GPU's reference waveform (`traces/golden/saxpy_1cu.vcd`): a run
//! of saxpy on the 1-CU configuration with a fixed signal filter and window
//! must reproduce it byte for byte. Regenerate after an intended change with
//! `GPUSIM_BLESS=1 cargo test -p cosim --test waveform`.

use std::path::{Path, PathBuf};

use arch::isa::Isa;
use cosim::model::{Model, ModelDevice, ModelOptions};
use cosim::workload::{self, Workload};
use hw::GpuConfig;
use sw::driver::Driver;

const FILTER: &str = "gpu.frontend.ch0,gpu.dispatch,gpu.cu0.sched0,gpu.cu0.simd0,gpu.cu0.wave0";
const LAST_CYCLE: u64 = 2500;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn produce(out: &Path) {
    let path = root().join("workloads/corpus/gfx1030/saxpy.yaml");
    let w = Workload::load(&path).unwrap();
    let prepared = w.prepare().unwrap();
    let mut device = ModelDevice::new(&ModelOptions {
        model: Model::Cycle,
        isa: Isa::Gfx1030,
        config: GpuConfig::one_cu(),
        watchdog: None,
        wave_watchdog: None,
    })
    .unwrap();
    device
        .trace_to(
            out,
            traces::VcdOptions {
                filter: Some(FILTER.into()),
                to: Some(LAST_CYCLE),
                ..traces::VcdOptions::default()
            },
        )
        .unwrap();
    let mut driver = Driver::new(device).unwrap();
    let finals = workload::execute(&mut driver, &prepared).unwrap();
    driver.device_mut().finish_trace().unwrap();
    assert!(workload::check(&w, &prepared, &finals).unwrap().passed());
}

#[test]
fn saxpy_waveform_matches_the_reference() {
    let golden = root().join("traces/golden/saxpy_1cu.vcd");
    let out = std::env::temp_dir().join(format!("gpusim-waveform-{}.vcd", std::process::id()));
    produce(&out);
    let produced = std::fs::read(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    if std::env::var_os("GPUSIM_BLESS").is_some() {
        std::fs::write(&golden, &produced).unwrap();
        return;
    }
    let expected = std::fs::read(&golden)
        .unwrap_or_else(|e| panic!("{}: {e} (bless it with GPUSIM_BLESS=1)", golden.display()));
    if produced != expected {
        // Say where, in signal terms, before failing.
        let dir = std::env::temp_dir().join(format!("gpusim-waveform-diff-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("produced.vcd");
        std::fs::write(&p, &produced).unwrap();
        let a = traces::read::Waveform::load(&golden).unwrap();
        let b = traces::read::Waveform::load(&p).unwrap();
        let diffs = traces::read::diff(&a, &b);
        panic!(
            "the waveform differs from {} ({} signals differ; first: {:?}); bless with GPUSIM_BLESS=1 if intended",
            golden.display(),
            diffs.len(),
            diffs.first()
        );
    }
}

#[test]
fn a_missing_waveform_is_an_error_not_a_panic() {
    let e = traces::read::Waveform::load(root().join("traces/golden/no-such.vcd"));
    assert!(e.is_err());
}

#[test]
fn the_reference_waveform_parses_and_shows_the_kernel_running() {
    let golden = root().join("traces/golden/saxpy_1cu.vcd");
    let w = traces::read::Waveform::load(&golden).unwrap();
    assert_eq!(w.width("gpu.cu0.sched0.issue_wave"), Some(5));
    assert_eq!(w.width("gpu.frontend.ch0.gp_get"), Some(32));
    let issues = w.changes("gpu.cu0.sched0.issue_valid").unwrap();
    assert!(issues.len() > 10, "SIMD 0 issued: {issues:?}");
    assert!(*w.cycles().last().unwrap() <= LAST_CYCLE);
}
