//! `gpusim run --timeline`: the Trace Event Format file (fields, nesting,
//! timestamps per track) and what it shows of a run.

mod cli_common;
use cli_common::{gpusim, temp_dir, text};

#[test]
fn a_timeline_has_a_span_per_wave_and_workgroup_and_passes_the_format_check() {
    let dir = temp_dir("timeline", "saxpy");
    let out = dir.join("saxpy.json");
    let o = gpusim(&[
        "run",
        "workloads/corpus/gfx1030/reduce_sum.yaml",
        "--model",
        "cycle",
        "--stats",
        "json",
        "--timeline",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stats: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    let trace = std::fs::read_to_string(&out).unwrap();
    let s = cosim::timeline::validate(&trace).unwrap_or_else(|e| panic!("{e}"));
    let d = &stats["dispatches"][0];
    assert_eq!(
        s.spans["wave"] as u64,
        d["waves"].as_u64().unwrap(),
        "{s:?}"
    );
    assert_eq!(
        s.spans["workgroup"] as u64,
        d["workgroups"].as_u64().unwrap(),
        "{s:?}"
    );
    assert_eq!(s.spans["dispatch"], 1);
    assert!(
        s.spans["issue"] > 0 && s.spans["simd"] > 0 && s.spans["frontend"] > 0,
        "{s:?}"
    );
    for c in ["occupancy", "L2 hit rate", "crossbar utilisation"] {
        assert!(
            s.counters.get(c).is_some_and(|&n| n > 0),
            "no {c} counter: {s:?}"
        );
    }
    let v: serde_json::Value = serde_json::from_str(&trace).unwrap();
    assert_eq!(v["otherData"]["cycles"], stats["cycles"]);
    assert_eq!(v["otherData"]["partial"], false);
    let events = v["traceEvents"].as_array().unwrap();
    // Waitcnt stalls are what reduce_sum's SIMDs wait on most; they show.
    assert!(
        events.iter().any(|e| e["name"] == "stall: waitcnt"),
        "no waitcnt stall span"
    );
    // The SIMDs' issue cycles add up to the instructions issued (a SIMD issues
    // at most one per cycle; SALU and branches issue on the same port).
    let issued: u64 = events
        .iter()
        .filter(|e| e["cat"] == "simd" && e["name"] == "issue")
        .map(|e| e["dur"].as_u64().unwrap())
        .sum();
    let instructions: u64 = ["salu", "valu", "vmem", "smem", "lds", "branch", "other"]
        .iter()
        .map(|k| stats["instructions"][k].as_u64().unwrap())
        .sum();
    assert_eq!(issued, instructions);
    // Every wave's span lies inside its dispatch's.
    let dispatch = events.iter().find(|e| e["cat"] == "dispatch").unwrap();
    let (ds, de) = (
        dispatch["ts"].as_u64().unwrap(),
        dispatch["ts"].as_u64().unwrap() + dispatch["dur"].as_u64().unwrap(),
    );
    for w in events.iter().filter(|e| e["cat"] == "wave") {
        let ts = w["ts"].as_u64().unwrap();
        assert!(
            ts >= ds && ts + w["dur"].as_u64().unwrap() <= de + 1,
            "{w} outside {dispatch}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_format_check_rejects_what_viewers_would_misdraw() {
    let ok = r#"{"traceEvents":[
        {"name":"thread_name","ph":"M","pid":1,"tid":2,"args":{"name":"t"}},
        {"name":"a","cat":"c","ph":"X","ts":0,"dur":10,"pid":1,"tid":2},
        {"name":"b","cat":"c","ph":"X","ts":2,"dur":3,"pid":1,"tid":2},
        {"name":"c","cat":"c","ph":"X","ts":10,"dur":1,"pid":1,"tid":2}]}"#;
    cosim::timeline::validate(ok).unwrap();
    let crossing = ok.replace(r#""ts":2,"dur":3"#, r#""ts":2,"dur":9"#);
    assert!(cosim::timeline::validate(&crossing)
        .unwrap_err()
        .contains("without nesting"));
    let backwards = ok.replace(r#""ts":10,"dur":1"#, r#""ts":1,"dur":1"#);
    assert!(cosim::timeline::validate(&backwards)
        .unwrap_err()
        .contains("before"));
    let no_dur = ok.replace(r#","dur":1,"#, ",");
    assert!(cosim::timeline::validate(&no_dur)
        .unwrap_err()
        .contains("no integer dur"));
}

#[test]
fn a_faulted_run_leaves_a_partial_timeline_and_svg_draws_one() {
    let dir = temp_dir("timeline", "fault");
    let out = dir.join("wd.json");
    let o = gpusim(&[
        "run",
        "workloads/corpus/gfx1030/saxpy.yaml",
        "--model",
        "cycle",
        "--watchdog",
        "700",
        "--timeline",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    let trace = std::fs::read_to_string(&out).unwrap();
    cosim::timeline::validate(&trace).unwrap_or_else(|e| panic!("{e}"));
    let v: serde_json::Value = serde_json::from_str(&trace).unwrap();
    assert_eq!(v["otherData"]["partial"], true);
    assert_eq!(v["otherData"]["cycles"], 700);

    let svg = dir.join("saxpy.svg");
    let o = gpusim(&[
        "run",
        "workloads/corpus/gfx1030/saxpy.yaml",
        "--model",
        "cycle",
        "--config",
        "hw/configs/1cu.yaml",
        "--timeline",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let s = std::fs::read_to_string(&svg).unwrap();
    assert!(
        s.starts_with("<svg") && s.matches("<path").count() >= 3,
        "{}",
        &s[..200.min(s.len())]
    );
    let o = gpusim(&[
        "run",
        "workloads/corpus/gfx1030/saxpy.yaml",
        "--timeline",
        dir.join("f.json").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("--timeline needs --model cycle"),
        "{}",
        text(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The SVG picture: a labelled row for every track the trace has, a key
/// entry for every colour drawn (and no colour twice), and for a run of
/// 100 K cycles on 4 CUs a file under 2 MB that `rsvg-convert` draws in
/// under a second of CPU (where installed; `GPUSIM_REQUIRE_RSVG` makes it
/// required). The size bound for the worst case (every pixel column of
/// hundreds of rows different) is `timeline::svg`'s unit test.
#[test]
fn the_svg_labels_every_row_has_a_key_and_is_bounded() {
    let dir = temp_dir("timeline", "svg");
    let (json, svg) = (dir.join("t.json"), dir.join("t.svg"));
    for out in [&json, &svg] {
        let o = gpusim(&[
            "run",
            "workloads/sweeps/tile/matvec_tile.yaml",
            "--model",
            "cycle",
            "--timeline",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", text(&o));
    }
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert!(v["otherData"]["cycles"].as_u64().unwrap() > 100_000);
    let mut tracks: Vec<(u64, u64)> = v["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ph"] == "X")
        .map(|e| (e["pid"].as_u64().unwrap(), e["tid"].as_u64().unwrap()))
        .collect();
    tracks.sort_unstable();
    tracks.dedup();
    let s = std::fs::read_to_string(&svg).unwrap();
    assert!(s.len() <= 2 << 20, "{} bytes", s.len());
    // Row labels: the right-aligned group, one text per row.
    let rows = s
        .split("text-anchor=\"end\">")
        .nth(1)
        .unwrap()
        .split("</g>")
        .next()
        .unwrap()
        .matches("<text")
        .count();
    assert_eq!(rows, tracks.len(), "a label per track");
    // Key: swatches are `<rect … fill="#…" stroke=…>`; drawn paths `<path fill=…>`.
    let fills = |prefix: &str| -> Vec<String> {
        let mut v: Vec<String> = s
            .split(prefix)
            .skip(1)
            .map(|r| r.split('"').next().unwrap().to_string())
            .collect();
        v.sort();
        v
    };
    let key = fills("height=\"10\" fill=\"");
    let mut drawn = fills("<path fill=\"");
    drawn.dedup();
    let mut unique = key.clone();
    unique.dedup();
    assert_eq!(
        unique.len(),
        key.len(),
        "a colour twice in the key: {key:?}"
    );
    assert_eq!(key, drawn, "key {key:?} vs drawn {drawn:?}");
    match cosim::timeline::render_cpu_seconds(&svg) {
        Some(t) => assert!(t < 1.0, "rsvg-convert took {t:.2} s of CPU"),
        None => eprintln!("skipped the render time: rsvg-convert is not installed"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}
