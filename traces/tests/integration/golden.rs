//! The counter's waveform pinned byte for byte. Regenerate after an intended
//! change with `GPUSIM_BLESS=1 cargo test -p traces --test integration golden`.

use std::path::Path;

use traces::VcdOptions;

use crate::design::{out_path, run};

#[test]
fn counter_matches_golden() {
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/counter.vcd");
    let path = out_path("golden");
    run(&path, VcdOptions::default(), 50).unwrap();
    let got = std::fs::read_to_string(&path).unwrap();
    if std::env::var_os("GPUSIM_BLESS").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
        std::fs::write(&golden, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&golden).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; create it with GPUSIM_BLESS=1 cargo test -p traces --test integration golden",
            golden.display()
        )
    });
    if got != want {
        let line = got
            .lines()
            .zip(want.lines())
            .position(|(g, w)| g != w)
            .unwrap_or(got.lines().count().min(want.lines().count()));
        panic!(
            "trace differs from {} at line {} (got {:?}, want {:?}); if intended, rerun with GPUSIM_BLESS=1",
            golden.display(),
            line + 1,
            got.lines().nth(line),
            want.lines().nth(line)
        );
    }
}
