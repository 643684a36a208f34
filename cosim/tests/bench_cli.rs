//! `gpusim bench --model cycle|lockstep`: argument handling, and that one
//! small workload is measured with the figures `gpusim run` reports for it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn gpusim_in(args: &[&str], tmp: Option<&Path>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gpusim"));
    c.args(args).current_dir(root());
    if let Some(t) = tmp {
        c.env("TMPDIR", t);
    }
    c.output().expect("gpusim runs")
}

fn gpusim(args: &[&str]) -> Output {
    gpusim_in(args, None)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

fn json(o: &Output) -> Value {
    assert!(o.status.success(), "{}", stderr(o));
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

/// `gpusim run --stats json` for the cycle model: the independent source of
/// the expected cycle and active-lane counts.
fn run_stats(workload: &str, config: &str) -> Value {
    let o = gpusim(&[
        "run",
        &format!("workloads/corpus/{workload}.yaml"),
        "--model",
        "cycle",
        "--config",
        config,
        "--stats",
        "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    serde_json::from_str(text.lines().last().expect("a stats line")).expect("stats JSON")
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn cycle_bench_measures_the_workload_gpusim_run_runs() {
    for (preset, config) in [
        ("1cu", "hw/configs/1cu.yaml"),
        ("default", "hw/configs/default.yaml"),
    ] {
        let o = gpusim(&[
            "bench",
            "--model",
            "cycle",
            "--preset",
            preset,
            "--workload",
            "gfx1030/saxpy",
            "--min-ms",
            "0",
            "--min-runs",
            "2",
            "--json",
        ]);
        let report = json(&o);
        assert_eq!(report["model"], "cycle");
        assert_eq!(report["config"], preset);
        let rows = report["rows"].as_array().expect("rows");
        assert_eq!(rows.len(), 1, "only the named workload: {rows:?}");
        let row = &rows[0];
        assert_eq!(row["workload"], "gfx1030/saxpy");
        let expected = run_stats("gfx1030/saxpy", config);
        assert_eq!(row["cycles"], expected["cycles"], "{preset}");
        assert_eq!(
            row["active_lane_instructions"], expected["active_lane_instructions"],
            "{preset}"
        );
        let t = &row["timing"];
        assert!(t["runs"].as_u64().expect("runs") >= 2);
        // The rates are the counts over the reported time (CPU time here).
        assert_eq!(report["rate_basis"], "cpu");
        let seconds = f(&t["cpu_ms"]) / 1e3;
        assert!(seconds > 0.0 && f(&t["run_ms"]) > 0.0);
        assert!(
            f(&t["device_ms"]) <= f(&t["run_ms"]),
            "device time is part of the run"
        );
        let rate = f(&row["cycles_per_second"]);
        let want = f(&row["cycles"]) / seconds;
        assert!((rate - want).abs() <= want * 1e-9, "{rate} vs {want}");
        // One workload: its geometric mean is itself; no ubench rows.
        let mean = &report["geometric_mean"]["corpus"];
        assert_eq!(mean["workloads"], 1);
        assert!((f(&mean["cycles_per_second"]) - rate).abs() <= rate * 1e-9);
        assert_eq!(report["geometric_mean"]["ubench"]["workloads"], 0);
        assert!(row["lockstep_ratio"].is_null() && row["vcd_ratio"].is_null());
    }
    // The two configurations really differ (else the preset was ignored).
    assert_ne!(
        run_stats("gfx1030/saxpy", "hw/configs/1cu.yaml")["cycles"],
        run_stats("gfx1030/saxpy", "hw/configs/default.yaml")["cycles"]
    );
}

#[test]
fn lockstep_bench_reports_ratios_and_cleans_up_the_trace() {
    let tmp = std::env::temp_dir().join(format!("gpusim-bench-test-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let o = gpusim_in(
        &[
            "bench",
            "--model",
            "lockstep",
            "--config",
            "hw/configs/1cu.yaml",
            "--workload",
            "saxpy",
            "--target",
            "gfx1030-w64",
            "--min-ms",
            "0",
            "--min-runs",
            "1",
            "--vcd-overhead",
            "--json",
        ],
        Some(&tmp),
    );
    let report = json(&o);
    let leftovers: Vec<_> = std::fs::read_dir(&tmp).expect("temp dir").collect();
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(leftovers.is_empty(), "trace files left: {leftovers:?}");
    assert_eq!(report["config"], "hw/configs/1cu.yaml");
    let row = &report["rows"][0];
    assert_eq!(row["workload"], "gfx1030-w64/saxpy");
    assert_eq!(
        row["cycles"],
        run_stats("gfx1030-w64/saxpy", "hw/configs/1cu.yaml")["cycles"],
        "lockstep runs the same clocked GPU"
    );
    let lockstep = f(&row["timing"]["cpu_ms"]);
    let cycle = f(&row["cycle_model"]["cpu_ms"]);
    let traced = f(&row["traced"]["cpu_ms"]);
    assert!((f(&row["lockstep_ratio"]) - lockstep / cycle).abs() < 1e-9);
    assert!((f(&row["vcd_ratio"]) - traced / lockstep).abs() < 1e-9);
    let mean = &report["geometric_mean"]["corpus"];
    assert!((f(&mean["lockstep_ratio"]) - f(&row["lockstep_ratio"])).abs() < 1e-9);
    assert!((f(&mean["vcd_ratio"]) - f(&row["vcd_ratio"])).abs() < 1e-9);
}

#[test]
fn text_table_and_ubench_group() {
    let o = gpusim(&[
        "bench",
        "--model",
        "cycle",
        "--preset",
        "1cu",
        "--ubench",
        "--workload",
        "gfx1030/ubench_valu_chain",
        "--workload",
        "gfx1030/saxpy",
        "--min-ms",
        "0",
        "--min-runs",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("model cycle on config 1cu"), "{text}");
    assert!(text.contains("Mcycles/s"), "{text}");
    let corpus = text
        .find("geometric mean over 1 corpus workloads")
        .expect("corpus mean");
    let ubench = text
        .find("geometric mean over 1 ubench workloads")
        .expect("ubench mean");
    let valu = text.find("gfx1030/ubench_valu_chain").expect("ubench row");
    let saxpy = text.find("gfx1030/saxpy").expect("saxpy row");
    assert!(saxpy < corpus && corpus < valu && valu < ubench, "{text}");
}

/// `--file` measures a workload file outside the corpus, and only it.
#[test]
fn a_workload_file_is_measured_alone() {
    let file = root().join("workloads/corpus/gfx1030/saxpy.yaml");
    let o = gpusim(&[
        "bench",
        "--model",
        "cycle",
        "--preset",
        "1cu",
        "--file",
        file.to_str().unwrap(),
        "--min-runs",
        "1",
        "--min-ms",
        "0",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("file/saxpy"), "{text}");
    assert!(
        text.contains("geometric mean over 1 corpus workloads"),
        "{text}"
    );
}

#[test]
fn bad_arguments_are_exit_2() {
    let cases: [(&[&str], &str); 10] = [
        (
            &["--model", "cycle", "--file", "no/such.yaml"],
            "--file no/such.yaml: no such workload file",
        ),
        (
            &["--model", "functional", "--file", "no/such.yaml"],
            "--file applies to",
        ),
        (
            &["--model", "cycle", "--target", "gfx803"],
            "--target gfx803 is for --model functional",
        ),
        (
            &["--model", "functional", "--vcd-overhead"],
            "--vcd-overhead applies to",
        ),
        (&["--preset", "1cu"], "--preset applies to"),
        (
            &["--model", "cycle", "--workload", "no_such_kernel"],
            "no such corpus workload",
        ),
        (
            &["--model", "cycle", "--workload", "ubench_stream"],
            "only with --ubench",
        ),
        (
            &["--model", "cycle", "--min-runs", "0", "--workload", "saxpy"],
            "at least 1",
        ),
        (
            &["--model", "cycle", "--config", "x.yaml", "--preset", "1cu"],
            "cannot be used with",
        ),
        (
            &["--model", "cycle", "--skip", "no_such_kernel"],
            "--skip no_such_kernel: no such",
        ),
    ];
    for (args, message) in cases {
        let mut all = vec!["bench"];
        all.extend_from_slice(args);
        let o = gpusim(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{args:?} measured something");
    }
    let o = gpusim(&["bench", "--model", "cycle", "--preset", "2cu"]);
    assert_eq!(o.status.code(), Some(2));
    let o = gpusim(&["bench", "--model", "cycle", "--config", "no/such.yaml"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn workload_and_skip_select_by_stem_or_target() {
    let o = gpusim(&[
        "bench",
        "--model",
        "cycle",
        "--preset",
        "1cu",
        "--workload",
        "saxpy",
        "--skip",
        "gfx1030/saxpy",
        "--min-ms",
        "0",
        "--min-runs",
        "1",
        "--json",
    ]);
    let report = json(&o);
    let names: Vec<&str> = report["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(|r| r["workload"].as_str())
        .collect();
    assert_eq!(names, ["gfx1030-w64/saxpy"]);
}

/// A kernel whose work depends on timing (atomics_misc's compare-and-swap
/// retry loop runs as often as it loses races) is flagged as such, with the
/// functional model's count beside it, rather than looking like a bug.
#[test]
fn timing_dependent_work_is_flagged() {
    let args = [
        "bench",
        "--model",
        "cycle",
        "--workload",
        "gfx1030/atomics_misc",
        "--workload",
        "gfx1030/saxpy",
        "--min-ms",
        "0",
        "--min-runs",
        "1",
    ];
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let report = json(&gpusim(&with_json));
    let rows = report["rows"].as_array().expect("rows");
    let row = |name: &str| {
        rows.iter()
            .find(|r| r["workload"] == name)
            .unwrap_or_else(|| panic!("{name}: {rows:?}"))
    };
    let atomics = row("gfx1030/atomics_misc");
    assert_eq!(atomics["timing_dependent"], true, "{atomics}");
    assert_ne!(
        atomics["functional_active_lane_instructions"],
        atomics["active_lane_instructions"]
    );
    let saxpy = row("gfx1030/saxpy");
    assert_eq!(saxpy["timing_dependent"], false, "{saxpy}");
    let o = gpusim(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("gfx1030/atomics_misc*"), "{text}");
    assert!(text.contains("(functional: "), "{text}");
    assert!(text.contains("* timing-dependent work"), "{text}");
    assert!(!text.contains("gfx1030/saxpy*"), "{text}");
}
