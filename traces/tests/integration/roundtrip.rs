//! Write the counter's trace, read it back with wellen, compare with the
//! closed-form expectations cycle by cycle.

use std::collections::{BTreeSet, HashMap};

use traces::read::{Value, Waveform};
use traces::VcdOptions;

use crate::design::{expected, expected_signals, out_path, run};

/// Words of a value read back (panics on x/z: the writer never emits them).
pub fn words(v: &Value) -> Vec<u64> {
    match v {
        Value::Bits(b) => vec![*b],
        Value::Wide(w) => w.clone(),
        Value::Other(s) => panic!("unexpected non-binary value {s}"),
    }
}

/// Asserts every signal of `wave` has the design's value at each cycle of
/// `cycles`.
pub fn check_values(wave: &Waveform, names: &[(String, u32)], cycles: impl Iterator<Item = u64>) {
    for c in cycles {
        for (name, _) in names {
            let got = wave
                .value_at(name, c)
                .unwrap_or_else(|| panic!("{name} has no value at cycle {c}"));
            assert_eq!(words(got), expected(name, c), "{name} at cycle {c}");
        }
    }
}

#[test]
fn names_widths_and_values() {
    let path = out_path("roundtrip");
    run(&path, VcdOptions::default(), 50).unwrap();
    let wave = Waveform::load(&path).unwrap();
    let got: Vec<(String, u32)> = wave.signals().map(|(n, w)| (n.to_string(), w)).collect();
    let want = expected_signals();
    let as_set = |v: &[(String, u32)]| v.iter().cloned().collect::<BTreeSet<_>>();
    assert_eq!(as_set(&got), as_set(&want));
    check_values(&wave, &want, 0..50);
    assert_eq!(wave.cycles().first(), Some(&0));
    assert_eq!(wave.cycles().last(), Some(&49));
    assert_eq!(wave.timescale(), Some((1, "NanoSeconds")));
    // The u5 really wraps within 50 cycles (38 enabled), so the width matters.
    assert_eq!(wave.u64_at("counter.small", 49), Some(38 - 32));
}

#[test]
fn only_changed_values_are_written() {
    let path = out_path("changes_only");
    run(&path, VcdOptions::default(), 50).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    // Identifier code -> name, from the header's scopes.
    let mut scope: Vec<&str> = Vec::new();
    let mut ids: HashMap<&str, String> = HashMap::new();
    let mut lines = text.lines();
    for line in lines.by_ref() {
        let f: Vec<&str> = line.split_whitespace().collect();
        match f.as_slice() {
            ["$scope", "module", name, "$end"] => scope.push(name),
            ["$upscope", "$end"] => {
                scope.pop();
            }
            ["$var", "wire", _, id, name, "$end"] => {
                ids.insert(id, format!("{}.{name}", scope.join(".")));
            }
            ["$enddefinitions", "$end"] => break,
            _ => {}
        }
    }
    // Names written at each timestamp.
    let mut written: Vec<(u64, BTreeSet<String>)> = Vec::new();
    for line in lines {
        if let Some(t) = line.strip_prefix('#') {
            written.push((t.parse().unwrap(), BTreeSet::new()));
        } else if !line.starts_with('$') {
            let id = match line.strip_prefix('b') {
                Some(rest) => rest.split(' ').nth(1).unwrap(),
                None => &line[1..],
            };
            written.last_mut().unwrap().1.insert(ids[id].clone());
        }
    }
    let names = expected_signals();
    assert_eq!(written[0].0, 0);
    assert_eq!(
        written[0].1.len(),
        names.len(),
        "all values dumped at cycle 0"
    );
    let mut at: HashMap<u64, BTreeSet<String>> = written.into_iter().collect();
    for c in 1..50 {
        let want: BTreeSet<String> = names
            .iter()
            .filter(|(n, _)| expected(n, c) != expected(n, c - 1))
            .map(|(n, _)| n.clone())
            .collect();
        let got = at.remove(&c).unwrap_or_default();
        assert_eq!(got, want, "signals written at cycle {c}");
    }
}

#[test]
fn deterministic_bytes() {
    let (a, b) = (out_path("det_a"), out_path("det_b"));
    run(&a, VcdOptions::default(), 50).unwrap();
    run(&b, VcdOptions::default(), 50).unwrap();
    let (a, b) = (std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
    assert!(!a.is_empty());
    assert_eq!(a, b);
}

#[test]
fn timescale_is_written() {
    let path = out_path("timescale");
    let options = VcdOptions {
        timescale_ns: 10,
        ..VcdOptions::default()
    };
    run(&path, options, 5).unwrap();
    let wave = Waveform::load(&path).unwrap();
    assert_eq!(wave.timescale(), Some((10, "NanoSeconds")));
    // Timestamps stay cycle numbers.
    assert_eq!(wave.cycles(), [0, 1, 2, 3, 4]);
}

#[test]
fn dropped_trace_still_parses() {
    let path = out_path("dropped");
    {
        let mut c = crate::design::Counter::default();
        let mut trace = traces::VcdTrace::create(&path, VcdOptions::default()).unwrap();
        for cycle in 0..20 {
            c.step(cycle);
            trace
                .sample(cycle, |t| traces::Probe::probe(&c, "counter", t))
                .unwrap();
        }
        // No finish: an early return drops the trace.
    }
    let wave = Waveform::load(&path).unwrap();
    check_values(&wave, &expected_signals(), 0..20);
    assert_eq!(wave.cycles().last(), Some(&19));
}

#[test]
fn flushed_trace_parses_while_open() {
    let path = out_path("flushed");
    let mut c = crate::design::Counter::default();
    let options = VcdOptions {
        flush_every: 0,
        ..VcdOptions::default()
    };
    let mut trace = traces::VcdTrace::create(&path, options).unwrap();
    for cycle in 0..30 {
        c.step(cycle);
        trace
            .sample(cycle, |t| traces::Probe::probe(&c, "counter", t))
            .unwrap();
        if cycle == 12 {
            trace.flush().unwrap();
            // As if the process died here: what is on disk reads up to cycle 12.
            let wave = Waveform::load(&path).unwrap();
            check_values(&wave, &expected_signals(), 0..=12);
            assert_eq!(wave.cycles().last(), Some(&12));
        }
    }
    trace.finish().unwrap();
    let wave = Waveform::load(&path).unwrap();
    check_values(&wave, &expected_signals(), 0..30);
}

#[test]
fn sparse_samples_and_final_timestamp() {
    // Sampling every third cycle; the last sample changes nothing selected, so
    // only the closing timestamp shows how long the final values lasted.
    let path = out_path("sparse");
    let mut c = crate::design::Counter::default();
    let options = VcdOptions {
        filter: Some("counter.lane0.acc".into()),
        ..VcdOptions::default()
    };
    let mut trace = traces::VcdTrace::create(&path, options).unwrap();
    for cycle in 0..12 {
        c.step(cycle);
        // Cycle 11 is disabled: acc keeps its cycle-10 value.
        if cycle % 3 == 0 || cycle >= 10 {
            trace
                .sample(cycle, |t| traces::Probe::probe(&c, "counter", t))
                .unwrap();
        }
    }
    trace.finish().unwrap();
    let wave = Waveform::load(&path).unwrap();
    for c in [0, 3, 6, 9, 10, 11] {
        assert_eq!(
            wave.value_at("counter.lane0.acc", c).map(words),
            Some(expected("counter.lane0.acc", c)),
            "cycle {c}"
        );
    }
    // Between samples the previous value holds.
    assert_eq!(
        wave.u64_at("counter.lane0.acc", 5),
        Some(expected("counter.lane0.acc", 3)[0])
    );
    assert_eq!(
        expected("counter.lane0.acc", 10),
        expected("counter.lane0.acc", 11)
    );
    assert_eq!(wave.cycles().last(), Some(&11));
    assert!(std::fs::read_to_string(&path).unwrap().ends_with("\n#11\n"));
}
