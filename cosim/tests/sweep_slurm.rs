//! `gpusim sweep --slurm` through a real Slurm: run when `sbatch` is on the
//! PATH and the cluster answers (`.ci/run` starts a single-node one with
//! `scripts/slurm/start-local.sh`); otherwise each test prints why it skips,
//! unless `GPUSIM_REQUIRE_SLURM` is set (`.ci/run` sets it): then a missing
//! Slurm fails the test, so "passed" means the test ran.

use std::process::Command;
use std::time::{Duration, Instant};

mod cli_common;
use cli_common::{gpusim, results, root, temp_dir, text};

/// Why Slurm cannot be used here, if it cannot.
fn no_slurm() -> Option<String> {
    match Command::new("sinfo").args(["-h", "-o", "%T"]).output() {
        Err(e) => Some(format!(
            "no sinfo ({e}); run scripts/slurm/start-local.sh as root"
        )),
        Ok(o) if !o.status.success() => Some(format!(
            "Slurm does not answer: {}",
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Ok(o) => {
            let states = String::from_utf8_lossy(&o.stdout).to_string();
            (!states
                .lines()
                .any(|s| ["idle", "mixed", "allocated"].contains(&s.trim())))
            .then(|| format!("no usable Slurm node (sinfo: {})", states.trim()))
        }
    }
}

/// True when the test cannot run here and may skip; panics instead when
/// `GPUSIM_REQUIRE_SLURM` says Slurm was started for the tests.
fn skip() -> bool {
    let Some(why) = no_slurm() else { return false };
    if std::env::var_os("GPUSIM_REQUIRE_SLURM").is_some() {
        panic!("GPUSIM_REQUIRE_SLURM is set but Slurm cannot be used: {why}");
    }
    eprintln!("SKIPPED (Slurm): {why}");
    true
}

/// start-local.sh recognises the configuration it wrote itself (its first
/// line is the marker and the script's name; an exact comparison with the
/// marker alone refused it, so Slurm never started a second time), and
/// refuses any other.
#[test]
fn start_local_accepts_its_own_configuration_only() {
    let script = root().join("scripts/slurm/start-local.sh");
    let dir = temp_dir("slurm", "conf");
    let conf = dir.join("slurm.conf");
    let run = |args: &[&str]| {
        Command::new("bash")
            .arg(&script)
            .args(args)
            .output()
            .unwrap()
    };
    let o = run(&["--write-config", conf.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let o = run(&["--check-config", conf.to_str().unwrap()]);
    assert!(
        o.status.success(),
        "its own configuration refused: {}",
        text(&o)
    );
    std::fs::write(&conf, "ClusterName=production\n").unwrap();
    let o = run(&["--check-config", conf.to_str().unwrap()]);
    assert!(!o.status.success(), "a foreign configuration accepted");
    assert!(text(&o).contains("not ours"), "{}", text(&o));
    let o = run(&["--check-config", dir.join("absent").to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_slurm_array_gives_the_same_results_as_a_local_run() {
    if skip() {
        return;
    }
    let dir = temp_dir("slurm", "same");
    let w = root().join("workloads/corpus/gfx1030");
    let file = dir.join("small.yaml");
    std::fs::write(
        &file,
        format!(
            "name: small\nworkloads: [{}, {}, {}]\ngrid:\n  memory.l2.size_bytes: [64KiB, 256KiB]\n  cus: [1, 2, 4]\n  cu.scheduler: [oldest-first, round-robin]\nstats: [cycles]\n",
            w.join("saxpy.yaml").display(),
            w.join("reduce_sum.yaml").display(),
            w.join("stencil2d.yaml").display()
        ),
    )
    .unwrap();
    let (local, slurm) = (dir.join("local"), dir.join("slurm"));
    let o = gpusim(&[
        "sweep",
        file.to_str().unwrap(),
        "-j",
        "2",
        "--out",
        local.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let o = gpusim(&[
        "sweep",
        file.to_str().unwrap(),
        "--out",
        slurm.to_str().unwrap(),
        "--slurm",
        "--wait",
        "--array-chunk",
        "6",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("(6 tasks, 36 jobs)"), "{}", text(&o));
    assert_eq!(results(&local), results(&slurm));
    let o = gpusim(&["collect", slurm.to_str().unwrap()]);
    assert!(
        text(&o).contains("36 results, 0 failed, 0 missing"),
        "{}",
        text(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A point longer than its Slurm time limit (one minute, the smallest Slurm
/// takes): SIGTERM makes it write a partial result and flush its timeline.
/// Takes one to two minutes.
#[test]
fn a_point_over_its_time_limit_leaves_a_partial_result() {
    if skip() {
        return;
    }
    let dir = temp_dir("slurm", "limit");
    // A dependent VALU chain of 2^30 steps: hours of cycles.
    let long =
        std::fs::read_to_string(root().join("workloads/corpus/gfx1030/ubench_valu_chain.yaml"))
            .unwrap()
            .replace(
                "{ name: vsteps, u32: 1024 }",
                "{ name: vsteps, u32: 1073741824 }",
            );
    assert!(long.contains("1073741824"));
    std::fs::write(dir.join("long.yaml"), long).unwrap();
    let file = dir.join("long-sweep.yaml");
    std::fs::write(
        &file,
        // The default watchdogs (2^25 cycles per run, 2^23 per wave) would
        // stop the chain first: this test is about the batch system's time
        // limit.
        "name: long\nworkloads: [long.yaml]\ntimeline: true\nwatchdog: 1099511627776\nwave_watchdog: 1099511627776\ngrid:\n  cus: [1]\nstats: [cycles]\n",
    )
    .unwrap();
    let out = dir.join("out");
    let o = gpusim(&[
        "sweep",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--slurm",
        "--wait",
        "--time",
        "1",
    ]);
    // sbatch --wait reports the task's failure; the sweep still reports it.
    assert!(
        text(&o).contains("submitted Slurm job array"),
        "{}",
        text(&o)
    );
    let path = out.join("results/job-00000.json");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !path.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(200));
    }
    let r: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap_or_else(|e| {
        let logs: Vec<String> = std::fs::read_dir(out.join("logs"))
            .map(|d| {
                d.map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap_or_default())
                    .collect()
            })
            .unwrap_or_default();
        panic!("no result ({e}): {}\nlogs: {logs:?}", text(&o))
    }))
    .unwrap();
    assert_eq!(r["status"], "interrupted", "{r}");
    assert_eq!(r["partial"], true);
    assert_eq!(r["exit_code"], 130);
    assert!(r["stats"]["cycles"].as_u64().unwrap() > 1_000_000, "{r}");
    let trace = std::fs::read_to_string(out.join("timelines/job-00000.json")).unwrap();
    cosim::timeline::validate(&trace).unwrap_or_else(|e| panic!("{e}"));
    let t: serde_json::Value = serde_json::from_str(&trace).unwrap();
    assert_eq!(t["otherData"]["partial"], true);
    let _ = std::fs::remove_dir_all(&dir);
}
