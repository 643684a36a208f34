//! Bad use is an error value, never a panic or a broken file.

use traces::read::Waveform;
use traces::{TraceError, Tracer, VcdOptions, VcdTrace};

use crate::design::out_path;

fn trace(test: &str) -> VcdTrace {
    VcdTrace::create(&out_path(test), VcdOptions::default()).unwrap()
}

#[test]
fn cycles_must_increase() {
    let mut t = trace("err_time");
    let walk = |t: &mut Tracer| t.scope("top", |t| t.signal("x", 4, 3));
    t.sample(5, walk).unwrap();
    let r = t.sample(5, walk);
    assert!(matches!(
        r,
        Err(TraceError::TimeWentBack { cycle: 5, last: 5 })
    ));
    let r = t.sample(2, walk);
    assert!(matches!(
        r,
        Err(TraceError::TimeWentBack { cycle: 2, last: 5 })
    ));
    t.sample(6, walk).unwrap();
}

#[test]
fn changing_structure_is_reported() {
    let mut t = trace("err_shape");
    t.sample(0, |t| t.scope("top", |t| t.signal("x", 4, 3)))
        .unwrap();
    let more = |t: &mut Tracer| {
        t.scope("top", |t| {
            t.signal("x", 4, 5);
            t.signal("y", 4, 3);
        })
    };
    let r = t.sample(1, more);
    assert!(matches!(
        r,
        Err(TraceError::StructureChanged {
            declared: 1,
            visited: 2
        })
    ));
    let r = t.sample(2, |t| t.scope("top", |_| {}));
    assert!(matches!(
        r,
        Err(TraceError::StructureChanged {
            declared: 1,
            visited: 0
        })
    ));
    // The right shape still works afterwards, and the value the failed walk
    // already took in (5) is written although it no longer "changes".
    t.sample(3, |t| t.scope("top", |t| t.signal("x", 4, 5)))
        .unwrap();
    let path = t.path().to_path_buf();
    t.finish().unwrap();
    let w = Waveform::load(path).unwrap();
    assert_eq!(w.u64_at("top.x", 0), Some(3));
    assert_eq!(w.u64_at("top.x", 3), Some(5));
}

#[test]
fn bad_declarations() {
    type Walk = fn(&mut Tracer);
    let cases: [(&str, Walk); 5] = [
        ("width0", |t| t.scope("a", |t| t.signal("x", 0, 0))),
        ("width65", |t| t.scope("a", |t| t.signal("x", 65, 0))),
        ("wide_words", |t| {
            t.scope("a", |t| t.wide("x", 200, &[1, 2]))
        }),
        ("space", |t| t.scope("a", |t| t.signal("x y", 1, 0))),
        ("no_scope", |t| t.signal("x", 1, 0)),
    ];
    for (name, walk) in cases {
        let mut t = trace(&format!("err_decl_{name}"));
        let r = t.sample(0, walk);
        let ok = match name {
            "width0" | "width65" | "wide_words" => {
                matches!(&r, Err(TraceError::BadWidth { path, .. }) if path == "a.x")
            }
            _ => matches!(&r, Err(TraceError::BadName { .. })),
        };
        assert!(ok, "{name}: {r:?}");
    }
    let mut t = trace("err_dup");
    let r = t.sample(0, |t| {
        t.scope("a", |t| {
            t.signal("x", 1, 0);
            t.signal("x", 1, 0);
        })
    });
    assert!(matches!(&r, Err(TraceError::DuplicateName { path }) if path == "a.x"));
}

#[test]
fn bad_filters() {
    for f in ["", "a,,b", " , "] {
        let options = VcdOptions {
            filter: Some(f.into()),
            ..VcdOptions::default()
        };
        let r = VcdTrace::create(&out_path("err_filter"), options);
        assert!(matches!(r, Err(TraceError::BadFilter { .. })), "{f:?}");
    }
}

#[test]
fn unwritable_path_is_an_io_error() {
    let path = out_path("no_such_dir").join("x.vcd");
    let r = VcdTrace::create(&path, VcdOptions::default());
    assert!(matches!(r, Err(TraceError::Io { .. })));
}

#[test]
fn unreadable_file_is_a_read_error() {
    let path = out_path("garbage");
    std::fs::write(&path, "this is not a waveform\n").unwrap();
    assert!(matches!(
        Waveform::load(&path),
        Err(TraceError::Read { .. })
    ));
}

#[test]
fn trace_without_samples_is_still_valid() {
    let path = out_path("no_samples");
    drop(VcdTrace::create(&path, VcdOptions::default()).unwrap());
    let w = Waveform::load(&path).unwrap();
    assert_eq!(w.signals().count(), 0);
}

#[test]
fn tracer_masks_and_detects_changes() {
    let mut t = Tracer::names();
    let walk = |v: u64, w: [u64; 2]| {
        move |t: &mut Tracer| {
            t.scope("s", |t| {
                t.signal("a", 4, v);
                t.wide("b", 70, &w);
            })
        }
    };
    t.walk(walk(0x13, [1, 0xff])).unwrap();
    // Bits above the width are dropped at declaration.
    assert_eq!(t.values()[0], 0x3);
    assert_eq!(t.value_words(1), [1, 0x3f]);
    assert_eq!(t.walk(walk(0x23, [1, 0x7f])).unwrap(), [] as [usize; 0]);
    assert_eq!(t.walk(walk(0x24, [1, 0x1f])).unwrap(), [0, 1]);
    assert_eq!(t.value_words(1), [1, 0x1f]);
    assert_eq!(t.walk(walk(0x24, [2, 0x1f])).unwrap(), [1]);
    assert_eq!(t.values()[1], 2);
}

#[test]
fn signed_leaves_are_not_sign_extended() {
    use traces::{Leaf, Probe};
    assert_eq!((-1i8).bits(), 0xff);
    assert_eq!((-2i32).bits(), 0xffff_fffe);
    let mut t = Tracer::names();
    t.walk(|t| t.scope("s", |t| (-1i16).probe("v", t))).unwrap();
    assert_eq!(t.values(), [0xffff]);
}

#[test]
fn truncated_files_read_or_fail_cleanly() {
    // A process killed mid-write leaves a file cut anywhere; reading it must
    // give a waveform or an error, never a panic.
    let golden = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/counter.vcd");
    let full = std::fs::read(golden).unwrap();
    let path = out_path("truncated");
    for cut in (0..full.len()).step_by(97).chain([full.len() - 1]) {
        std::fs::write(&path, &full[..cut]).unwrap();
        let r = std::panic::catch_unwind(|| Waveform::load(&path).map(|_| ()));
        assert!(r.is_ok(), "panic reading a file cut at byte {cut}");
    }
}

#[test]
fn failed_declaration_starts_over() {
    let mut t = Tracer::names();
    assert!(t.walk(|t| t.scope("a", |t| t.signal("x", 99, 0))).is_err());
    assert!(!t.is_declared());
    t.walk(|t| t.scope("a", |t| t.signal("x", 9, 7))).unwrap();
    assert_eq!(t.declared(), ["a.x"]);
    assert_eq!(t.values(), [7]);
}
