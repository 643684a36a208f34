//! `gpusim sweep`, `collect` and `compare`: results independent of `-j`,
//! resuming after a kill, failed points reported, bad sweep files located.

use std::path::{Path, PathBuf};
use std::process::Command;

mod cli_common;
use cli_common::{gpusim, results, root, temp_dir, text};

/// 3 small workloads × 12 points (36 jobs of a few ms each). The first grid
/// value of `watchdog_cycles` is too small for any workload: those 18 jobs
/// fault, which the sweep reports without stopping.
fn sweep_file(dir: &Path, watchdog: bool) -> PathBuf {
    let w = root().join("workloads/corpus/gfx1030");
    let grid = if watchdog {
        "  watchdog_cycles: [300, 4294967296]\n  cus: [1, 2, 4]\n  cu.scheduler: [oldest-first, round-robin]\n"
    } else {
        "  memory.l2.size_bytes: [64KiB, 256KiB]\n  cus: [1, 2, 4]\n  cu.scheduler: [oldest-first, round-robin]\n"
    };
    let text = format!(
        "name: small\nworkloads:\n  - {}\n  - {}\n  - {}\ngrid:\n{grid}stats: [cycles, summary.ipc, summary.l2_hit_rate, stalls.waitcnt]\n",
        w.join("saxpy.yaml").display(),
        w.join("reduce_sum.yaml").display(),
        w.join("stencil2d.yaml").display(),
    );
    let path = dir.join(if watchdog { "wd.yaml" } else { "small.yaml" });
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn results_are_the_same_bits_with_one_or_two_workers_and_resume_finishes_the_rest() {
    let dir = temp_dir("sweep", "j");
    let file = sweep_file(&dir, false);
    let (a, b, c) = (dir.join("a"), dir.join("b"), dir.join("c"));
    let o = gpusim(&[
        "sweep",
        file.to_str().unwrap(),
        "-j",
        "1",
        "--out",
        a.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("36 jobs (12 points x 3 workloads) on 1 workers: 36 run, 0 skipped"),
        "{}",
        text(&o)
    );
    let o = gpusim(&[
        "sweep",
        file.to_str().unwrap(),
        "-j",
        "2",
        "--out",
        b.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let ra = results(&a);
    assert_eq!(ra.len(), 36);
    assert_eq!(ra, results(&b), "-j 1 and -j 2 results differ");
    // Each timing file holds only wall and CPU time.
    let t: serde_json::Value =
        serde_json::from_slice(&std::fs::read(a.join("results/job-00000.timing.json")).unwrap())
            .unwrap();
    assert!(t["wall_seconds"].as_f64().unwrap() > 0.0, "{t}");

    // Kill a run midway, then resume: only the missing jobs run.
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpusim"))
        .args([
            "sweep",
            file.to_str().unwrap(),
            "-j",
            "1",
            "--out",
            c.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        let n = std::fs::read_dir(c.join("results")).map_or(0, |d| d.count());
        if n >= 10 || std::time::Instant::now() > deadline {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // The job running at the kill finishes on its own and writes its result.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let done_before = results(&c).len();
    assert!(
        (1..36).contains(&done_before),
        "{done_before} results before the resume"
    );
    let o = gpusim(&[
        "sweep",
        file.to_str().unwrap(),
        "-j",
        "2",
        "--out",
        c.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let expect = format!("{} run, {} skipped", 36 - done_before, done_before);
    assert!(
        text(&o).contains(&expect),
        "expected `{expect}`: {}",
        text(&o)
    );
    assert_eq!(ra, results(&c), "resumed results differ");

    // collect: a CSV row per job with the parameters and stats, and the plots.
    let o = gpusim(&["collect", a.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let csv = std::fs::read_to_string(a.join("results.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 37);
    assert_eq!(
        lines[0],
        "job,point,workload,status,exit_code,partial,memory.l2.size_bytes,cus,cu.scheduler,cycles,summary.ipc,summary.l2_hit_rate,stalls.waitcnt"
    );
    assert!(
        lines[1].contains(",passed,0,false,65536,1,oldest-first,"),
        "{}",
        lines[1]
    );
    for plot in [
        "speedup-vs-cus.svg",
        "stalls-w0.svg",
        "cycles-vs-cus.svg",
        "summary.ipc-vs-cu.scheduler.svg",
    ] {
        let svg = std::fs::read_to_string(a.join("plots").join(plot)).unwrap();
        assert!(
            svg.starts_with("<svg") && svg.contains("<polyline") || svg.contains("<rect"),
            "{plot}"
        );
    }
    // Fewer CUs take more cycles for saxpy (the same point otherwise).
    let cycles = |row: &str| row.split(',').nth(9).unwrap().parse::<u64>().unwrap();
    assert!(
        cycles(lines[1]) > cycles(lines[1 + 4 * 3]),
        "{}\n{}",
        lines[1],
        lines[13]
    );

    // compare: two result files, sorted by relative change.
    let o = gpusim(&[
        "compare",
        a.join("results/job-00000.json").to_str().unwrap(),
        a.join("results/job-00012.json").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("stats differ"), "{t}");
    assert!(t.lines().any(|l| l.starts_with("cycles ")), "{t}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_failed_point_is_reported_and_the_sweep_goes_on() {
    let dir = temp_dir("sweep", "fail");
    let file = sweep_file(&dir, true);
    let out = dir.join("out");
    let o = gpusim(&[
        "sweep",
        file.to_str().unwrap(),
        "-j",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("36 run, 0 skipped (result present), 18 failed"),
        "{}",
        text(&o)
    );
    let r: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("results/job-00000.json")).unwrap())
            .unwrap();
    assert_eq!(r["status"], "fault");
    assert_eq!(r["exit_code"], 3);
    assert!(r["message"].as_str().unwrap().contains("watchdog"), "{r}");
    // A faulted run's stats are kept: the cycles up to the fault.
    assert_eq!(r["stats"]["cycles"], 300);
    let r: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("results/job-00035.json")).unwrap())
            .unwrap();
    assert_eq!(r["status"], "passed");
    let o = gpusim(&["collect", out.to_str().unwrap()]);
    assert!(
        text(&o).contains("36 results, 18 failed, 0 missing"),
        "{}",
        text(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_sweep_files_get_file_line_column_errors() {
    let dir = temp_dir("sweep", "bad");
    let cases = [
        (
            "workloads: [a.yaml]\ngrid:\n  cus: [1, 2]\n  memory.l2.sise_bytes: [1MiB]\n",
            ":4:3: unknown field path `memory.l2.sise_bytes`: memory.l2 has no field `sise_bytes`",
        ),
        (
            "workloads: [a.yaml]\ngrid:\n  cu.scheduler: [oldest-first, fastest]\n",
            ":3:3: point 1 (cu.scheduler=\"fastest\")",
        ),
        (
            "workloads: [a.yaml]\nmodle: cycle\n",
            ":2:1: unknown field `modle`",
        ),
        (
            "workloads: [a.yaml]\nstats: [cycles, memory.l9.hits]\n",
            ":2:1: stats: unknown stat `memory.l9.hits`",
        ),
    ];
    for (k, (yaml, want)) in cases.iter().enumerate() {
        let file = dir.join(format!("bad{k}.yaml"));
        std::fs::write(&file, yaml).unwrap();
        let o = gpusim(&[
            "sweep",
            file.to_str().unwrap(),
            "--out",
            dir.join("o").to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        let expect = format!("{}{want}", file.display());
        assert!(
            text(&o).contains(&expect),
            "expected `{expect}` in:\n{}",
            text(&o)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn compare_reads_saved_run_output() {
    let dir = temp_dir("sweep", "compare");
    let w = "workloads/corpus/gfx1030/saxpy.yaml";
    let a = gpusim(&["run", w, "--model", "cycle", "--stats", "json"]);
    let b = gpusim(&[
        "run",
        w,
        "--model",
        "cycle",
        "--stats",
        "json",
        "--config",
        "hw/configs/1cu.yaml",
    ]);
    std::fs::write(dir.join("a.txt"), &a.stdout).unwrap();
    std::fs::write(dir.join("b.txt"), &b.stdout).unwrap();
    let o = gpusim(&[
        "compare",
        dir.join("a.txt").to_str().unwrap(),
        dir.join("b.txt").to_str().unwrap(),
        "--top",
        "5",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let t = text(&o);
    let rows: Vec<&str> = t.lines().skip(4).take(5).collect();
    assert_eq!(rows.len(), 5, "{t}");
    // Sorted by |relative change|, largest first.
    let rel = |l: &str| -> f64 {
        let r = l.split_whitespace().last().unwrap();
        if r == "new" {
            f64::INFINITY
        } else {
            r.trim_end_matches('%').parse::<f64>().unwrap().abs()
        }
    };
    assert!(rows.windows(2).all(|p| rel(p[0]) >= rel(p[1])), "{t}");
    assert!(t.contains("more (--top 0 shows all)"), "{t}");
    let o = gpusim(&[
        "compare",
        dir.join("a.txt").to_str().unwrap(),
        "/no/such.json",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stats_text_starts_with_a_readable_summary() {
    let w = "workloads/examples/triad_1_5mib.yaml";
    let o = gpusim(&["run", w, "--model", "cycle", "--stats", "text"]);
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[1], "summary", "{out}");
    assert_eq!(lines[2], "  cycles            95616", "{out}");
    // Whose IPC it is: the whole GPU's, and per CU (4 CUs).
    assert_eq!(
        lines[3], "  instructions      95488 (IPC 1.00 for the GPU, 0.25 per CU)",
        "{out}"
    );
    assert!(
        out.contains("per CU (IPC: that CU's instructions per cycle)\n"),
        "{out}"
    );
    // Counts of one read in the singular ("1 entries" before).
    assert!(out.contains("channel 0: 1 entry, "), "{out}");
    assert!(out.contains(", 1 dispatch, "), "{out}");
    assert!(
        !out.contains(" 1 entries") && !out.contains(" 1 dispatches"),
        "{out}"
    );
    // The triad waits on memory: waitcnt is the top stall; its L2 misses.
    assert!(
        lines[6].starts_with("  top stalls        waitcnt 75.7 %, "),
        "{out}"
    );
    assert!(lines[7].contains("L2 0.1 %"), "{out}");
    assert!(
        lines[8].starts_with("  DRAM              61.7 bytes/cycle"),
        "{out}"
    );
    assert_eq!(out.matches("\n     ").count(), 4, "a line per CU: {out}");
    assert!(!out.contains("every counter"), "{out}");
    let o = gpusim(&["run", w, "--model", "cycle", "--stats", "text", "--detail"]);
    let detail = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(detail.starts_with(&out), "--detail adds after the summary");
    assert!(
        detail.contains("every counter\n") && detail.contains("  memory.l2.hits 34\n"),
        "{detail}"
    );
    // JSON keeps full precision.
    let o = gpusim(&["run", w, "--model", "cycle", "--stats", "json"]);
    let json: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&o.stdout).lines().last().unwrap()).unwrap();
    let ipc = json["cus"][0]["ipc"].as_f64().unwrap();
    assert!((ipc * 100.0).fract() != 0.0, "{ipc}");
}
