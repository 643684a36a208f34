//! Comparing waveforms.

use traces::read::{diff, Difference, Value, Waveform};
use traces::{Probe, VcdOptions, VcdTrace};

use crate::design::{out_path, run, Counter};

#[test]
fn same_run_has_no_differences() {
    let (a, b) = (out_path("diff_same_a"), out_path("diff_same_b"));
    run(&a, VcdOptions::default(), 50).unwrap();
    // A window starting at 0 dumps the same values by another route.
    let options = VcdOptions {
        from: Some(0),
        flush_every: 1,
        ..VcdOptions::default()
    };
    run(&b, options, 50).unwrap();
    let (a, b) = (Waveform::load(a).unwrap(), Waveform::load(b).unwrap());
    assert_eq!(diff(&a, &b), []);
}

#[test]
fn first_differing_cycle_per_signal() {
    let (a, b) = (out_path("diff_bug_a"), out_path("diff_bug_b"));
    run(&a, VcdOptions::default(), 50).unwrap();
    // The same design with lane 2 losing one increment at cycle 17.
    let mut c = Counter::default();
    let mut trace = VcdTrace::create(&b, VcdOptions::default()).unwrap();
    for cycle in 0..50 {
        c.step(cycle);
        if cycle == 17 {
            c.lane[2].acc = c.lane[2].acc.wrapping_sub(3);
        }
        trace.sample(cycle, |t| c.probe("counter", t)).unwrap();
    }
    trace.finish().unwrap();
    let (wa, wb) = (Waveform::load(&a).unwrap(), Waveform::load(&b).unwrap());
    let d = diff(&wa, &wb);
    let good = wa.value_at("counter.lane2.acc", 17).cloned();
    let bad = good
        .as_ref()
        .and_then(Value::as_u64)
        .map(|v| Value::Bits(v - 3));
    assert_eq!(
        d,
        [Difference::Value {
            name: "counter.lane2.acc".into(),
            cycle: 17,
            a: good,
            b: bad,
        }]
    );
    assert!(d[0]
        .to_string()
        .starts_with("counter.lane2.acc: cycle 17: "));
}

#[test]
fn signals_in_one_waveform_only() {
    let (a, b) = (out_path("diff_only_a"), out_path("diff_only_b"));
    run(&a, VcdOptions::default(), 20).unwrap();
    let options = VcdOptions {
        filter: Some("counter.lane*,counter.count".into()),
        ..VcdOptions::default()
    };
    run(&b, options, 20).unwrap();
    let (wa, wb) = (Waveform::load(a).unwrap(), Waveform::load(b).unwrap());
    let d = diff(&wa, &wb);
    let only_a: Vec<&str> = d
        .iter()
        .filter(|x| matches!(x, Difference::OnlyInA { .. }))
        .map(|x| x.name())
        .collect();
    assert_eq!(d.len(), only_a.len(), "nothing but missing signals: {d:?}");
    assert_eq!(
        only_a,
        [
            "counter.delta",
            "counter.enable",
            "counter.out.addr",
            "counter.out.last",
            "counter.out.tag",
            "counter.out_valid",
            "counter.small",
            "counter.wide",
        ]
    );
    let back = diff(&wb, &wa);
    assert!(back.iter().all(|x| matches!(x, Difference::OnlyInB { .. })));
    assert_eq!(back.len(), 8);
}

#[test]
fn shorter_run_differs_at_its_end_only_if_values_differ() {
    // A run cut at cycle 20 holds its last values: the first difference is the
    // first cycle after 20 at which the full run's value moved.
    let (a, b) = (out_path("diff_short_a"), out_path("diff_short_b"));
    run(&a, VcdOptions::default(), 50).unwrap();
    run(&b, VcdOptions::default(), 21).unwrap();
    let (wa, wb) = (Waveform::load(a).unwrap(), Waveform::load(b).unwrap());
    for d in diff(&wa, &wb) {
        let Difference::Value { name, cycle, .. } = d else {
            panic!("{d:?}");
        };
        let first_move = (21..50)
            .find(|&c| wa.value_at(&name, c) != wa.value_at(&name, 20))
            .unwrap();
        assert_eq!(cycle, first_move, "{name}");
    }
}
