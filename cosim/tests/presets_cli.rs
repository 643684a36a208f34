//! `--preset` on `gpusim run` and `gpusim bench`: listing, selection, errors.

use std::process::{Command, Output};

fn gpusim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpusim"))
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .args(args)
        .output()
        .expect("gpusim runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn preset_alone_or_list_lists_every_preset() {
    for args in [
        &["run", "--preset"][..],
        &["run", "--preset", "list"],
        &["bench", "--preset"],
        &["bench", "--preset", "list"],
    ] {
        let o = gpusim(args);
        assert!(o.status.success(), "{args:?}: {}", text(&o));
        let t = text(&o);
        for (name, _, _) in hw::config::PRESETS {
            assert!(t.contains(name), "{args:?} does not list {name}: {t}");
        }
    }
}

#[test]
fn run_accepts_navi21_and_rejects_unknown_names() {
    let o = gpusim(&[
        "run",
        "workloads/corpus/gfx1030/saxpy.yaml",
        "--model",
        "cycle",
        "--preset",
        "navi21",
        "--stats",
        "json",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("\"gl1\""), "navi21 stats report the GL1: {t}");
    assert!(t.contains("\"infinity_cache\""), "{t}");
    let o = gpusim(&[
        "run",
        "workloads/corpus/gfx1030/saxpy.yaml",
        "--model",
        "cycle",
        "--preset",
        "navi22",
    ]);
    assert!(!o.status.success());
    let t = text(&o);
    assert!(
        t.contains("unknown preset `navi22`") && t.contains("navi21"),
        "{t}"
    );
    let o = gpusim(&[
        "run",
        "workloads/corpus/gfx1030/saxpy.yaml",
        "--preset",
        "1cu",
        "--config",
        "hw/configs/1cu.yaml",
    ]);
    assert!(!o.status.success(), "--preset with --config is refused");
}
