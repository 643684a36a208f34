//! Cycle windows and signal filters.

use traces::read::Waveform;
use traces::{Probe, TraceError, VcdOptions};

use crate::design::{expected_signals, out_path, run};
use crate::roundtrip::check_values;

#[test]
fn window_is_self_contained() {
    let path = out_path("window");
    let options = VcdOptions {
        from: Some(10),
        to: Some(30),
        ..VcdOptions::default()
    };
    run(&path, options, 50).unwrap();
    let wave = Waveform::load(&path).unwrap();
    let names = expected_signals();
    assert_eq!(wave.cycles().first(), Some(&10));
    assert_eq!(wave.cycles().last(), Some(&30));
    for (name, _) in &names {
        assert_eq!(wave.value_at(name, 9), None, "{name} before the window");
        // Every signal has its value at the window's start.
        assert_eq!(wave.changes(name).unwrap()[0].0, 10, "{name}");
        // Nothing after the window.
        assert!(wave.changes(name).unwrap().iter().all(|(c, _)| *c <= 30));
    }
    check_values(&wave, &names, 10..=30);
}

#[test]
fn window_boundaries_are_inclusive() {
    let path = out_path("window_one");
    let options = VcdOptions {
        from: Some(7),
        to: Some(7),
        ..VcdOptions::default()
    };
    run(&path, options, 50).unwrap();
    let wave = Waveform::load(&path).unwrap();
    assert_eq!(wave.cycles(), [7]);
    check_values(&wave, &expected_signals(), 7..=7);
}

#[test]
fn window_after_the_run_gives_an_empty_but_valid_file() {
    let path = out_path("window_late");
    let options = VcdOptions {
        from: Some(1000),
        ..VcdOptions::default()
    };
    run(&path, options, 50).unwrap();
    let wave = Waveform::load(&path).unwrap();
    assert_eq!(wave.signals().count(), expected_signals().len());
    assert!(wave.cycles().is_empty());
    assert_eq!(wave.value_at("counter.count", 40), None);
}

#[test]
fn inverted_window_is_an_error() {
    let options = VcdOptions {
        from: Some(5),
        to: Some(4),
        ..VcdOptions::default()
    };
    let r = traces::VcdTrace::create(&out_path("window_bad"), options);
    assert!(matches!(r, Err(TraceError::BadWindow { from: 5, to: 4 })));
}

fn filtered(test: &str, filter: &str) -> Result<Waveform, TraceError> {
    let path = out_path(test);
    let options = VcdOptions {
        filter: Some(filter.into()),
        ..VcdOptions::default()
    };
    run(&path, options, 50)?;
    Waveform::load(&path)
}

fn names(wave: &Waveform) -> Vec<String> {
    let mut v: Vec<String> = wave.signals().map(|(n, _)| n.to_string()).collect();
    v.sort();
    v
}

#[test]
fn filter_by_scope_glob() {
    let wave = filtered("filter_lanes", "counter.lane*").unwrap();
    let mut want: Vec<String> = (0..4)
        .flat_map(|i| {
            [
                format!("counter.lane{i}.acc"),
                format!("counter.lane{i}.busy"),
            ]
        })
        .collect();
    want.sort();
    assert_eq!(names(&wave), want);
    let kept: Vec<(String, u32)> = expected_signals()
        .into_iter()
        .filter(|(n, _)| n.starts_with("counter.lane"))
        .collect();
    check_values(&wave, &kept, 0..50);
}

#[test]
fn filter_several_globs() {
    let wave = filtered("filter_multi", "*.busy, counter.count").unwrap();
    let mut want: Vec<String> = (0..4).map(|i| format!("counter.lane{i}.busy")).collect();
    want.push("counter.count".into());
    want.sort();
    assert_eq!(names(&wave), want);
}

#[test]
fn filter_scope_name_selects_children_only() {
    // `counter.out` is the payload scope; `counter.out_valid` is a sibling.
    let wave = filtered("filter_scope", "counter.out").unwrap();
    assert_eq!(
        names(&wave),
        ["counter.out.addr", "counter.out.last", "counter.out.tag"]
    );
}

#[test]
fn filter_matching_nothing_names_the_glob() {
    let err = filtered("filter_none", "counter.lane*,counter.lnae*").unwrap_err();
    assert!(matches!(&err, TraceError::NoMatch { glob, .. } if glob == "counter.lnae*"));
    assert!(err.to_string().contains("counter.lnae*"), "{err}");
}

#[test]
fn filter_and_window_together() {
    let path = out_path("filter_window");
    let options = VcdOptions {
        filter: Some("counter.count".into()),
        from: Some(20),
        to: Some(25),
        ..VcdOptions::default()
    };
    run(&path, options, 50).unwrap();
    let wave = Waveform::load(&path).unwrap();
    assert_eq!(names(&wave), ["counter.count"]);
    let count = [("counter.count".to_string(), 8)];
    check_values(&wave, &count, 20..=25);
    assert_eq!(wave.value_at("counter.count", 19), None);
}

/// A block that counts how often a walk enters it.
struct Counted<'a> {
    entered: &'a std::cell::Cell<u32>,
    v: u64,
}

impl traces::Probe for Counted<'_> {
    fn probe(&self, name: &str, t: &mut traces::Tracer) {
        t.scope(name, |t| {
            self.entered.set(self.entered.get() + 1);
            t.signal("v", 8, self.v);
            t.wide("w", 100, &[self.v, 0]);
        });
    }
}

#[test]
fn filtered_out_scopes_are_not_walked() {
    use std::cell::Cell;
    for (filter, a_walks, b_walks) in [
        ("top.a", 10, 1),
        ("top.x", 1, 1),
        // Skipping `a` must step over its wide words too.
        ("top.b", 1, 10),
        ("*.w", 10, 10),
    ] {
        let (ea, eb) = (Cell::new(0), Cell::new(0));
        let path = out_path("filter_skip");
        let options = VcdOptions {
            filter: Some(filter.into()),
            ..VcdOptions::default()
        };
        let mut trace = traces::VcdTrace::create(&path, options).unwrap();
        for cycle in 0..10u64 {
            let a = Counted {
                entered: &ea,
                v: cycle,
            };
            let b = Counted {
                entered: &eb,
                v: 100 + cycle,
            };
            let walk = |t: &mut traces::Tracer| {
                t.scope("top", |t| {
                    a.probe("a", t);
                    b.probe("b", t);
                    t.signal("x", 4, cycle);
                })
            };
            trace.sample(cycle, walk).unwrap();
        }
        trace.finish().unwrap();
        // The declaring walk enters everything; sampling walks only what is written.
        assert_eq!((ea.get(), eb.get()), (a_walks, b_walks), "{filter}");
        let wave = Waveform::load(&path).unwrap();
        for c in 0..10 {
            match filter {
                "top.a" => assert_eq!(wave.u64_at("top.a.v", c), Some(c)),
                "top.x" => assert_eq!(wave.u64_at("top.x", c), Some(c)),
                "top.b" => {
                    assert_eq!(wave.u64_at("top.b.v", c), Some(100 + c));
                    let w = traces::read::Value::Wide(vec![100 + c, 0]);
                    assert_eq!(wave.value_at("top.b.w", c), Some(&w));
                }
                _ => assert_eq!(
                    wave.value_at("top.b.w", c),
                    Some(&traces::read::Value::Wide(vec![100 + c, 0]))
                ),
            }
        }
    }
}
