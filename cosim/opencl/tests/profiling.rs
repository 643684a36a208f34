//! Event profiling (`tests/loader/profiling.c`) on every model of gpusim
//! and on PoCL; on the cycle model the times are the model's cycles at the
//! configuration's clock (the default configuration fixes none: 1 ns per
//! cycle; the navi21 preset: 2250 MHz), checked against the model's
//! record of each dispatch.

mod common;

use std::path::Path;

use common::*;

/// The two numbers after `label` in `out`.
fn pair(out: &str, label: &str) -> (u64, u64) {
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix(label))
        .unwrap_or_else(|| panic!("no {label} in {out}"));
    let mut n = line
        .split_whitespace()
        .map(|w| w.parse::<u64>().expect("a number"));
    (n.next().expect("two"), n.next().expect("two"))
}

#[test]
fn profiling_times_are_ordered_on_every_model_and_on_pocl() {
    for model in ["functional", "cycle", "lockstep"] {
        if let Some(out) = run_c_on(Icd::Gpusim, "profiling", &[], &[("GPUSIM_MODEL", model)]) {
            assert!(out.contains("profiling ok"), "{model}: {out}");
        }
    }
    if let Some(out) = run_c_on(Icd::Pocl, "profiling", &[], &[]) {
        assert!(out.contains("profiling ok"), "PoCL: {out}");
    }
}

/// A kernel's START and END on the cycle model enclose the model's own
/// record of its dispatch (the statistics' `start`/`end` cycles, converted
/// at the configuration's clock), and add only the command processor's
/// work around it (fetching the packet, releasing the fence).
#[test]
fn cycle_model_times_are_its_cycles_at_the_clock() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    for (preset, mhz) in [(None, 1000u64), (Some("navi21"), 2250)] {
        let stats = dir.join(format!("profiling_stats_{mhz}.json"));
        let _ = std::fs::remove_file(&stats);
        let mut vars = vec![
            ("GPUSIM_MODEL", "cycle"),
            ("GPUSIM_STATS", stats.to_str().expect("a UTF-8 path")),
        ];
        if let Some(p) = preset {
            vars.push(("GPUSIM_PRESET", p));
        }
        let Some(out) = run_c_on(Icd::Gpusim, "profiling", &[], &vars) else {
            return;
        };
        assert!(out.contains("profiling ok"), "{out}");
        let text = std::fs::read_to_string(&stats).expect("the statistics were written");
        let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let dispatches = json["dispatches"].as_array().expect("dispatch records");
        let ns = |c: u64| c * 1000 / mhz;
        let mut previous_end = 0;
        for (i, label) in ["light kernel ns:", "heavy kernel ns:"]
            .into_iter()
            .enumerate()
        {
            let (start, end) = pair(&out, label);
            let d = &dispatches[i];
            let cycle = |k: &str| d[k].as_u64().expect("a cycle");
            let (d_start, d_end) = (ns(cycle("start")), ns(cycle("end")));
            assert!(
                previous_end <= start && start <= d_start && d_end <= end,
                "{preset:?} {label} {start}..{end} ns, the dispatch {d_start}..{d_end}: {out}"
            );
            // The command processor's share: well under the dispatch itself
            // for the heavy kernel, at most ~1,000 cycles (a cold start).
            assert!(
                (end - start) - (d_end - d_start) <= ns(1000),
                "{preset:?} {label}: {start}..{end} ns around {d_start}..{d_end}"
            );
            previous_end = end;
        }
    }
}
