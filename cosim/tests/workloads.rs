//! Workload files: the corpus set stays in sync with the registry, parses,
//! and reproduces each default launch; parse errors carry line and column;
//! checks report the first mismatch.

use std::path::{Path, PathBuf};

use corpus::{ArgSpec, ArgValue};
use cosim::workload::{
    check, corpus_files, ArgKind, Check, ElemType, HostBuffer, KernelRef, PreparedArg, Tolerance,
    Workload, WorkloadError,
};

fn bless() -> bool {
    std::env::var_os("GPUSIM_BLESS").is_some()
}

#[test]
fn every_corpus_kernel_has_a_workload_per_target_in_sync() {
    let mut stale = Vec::new();
    for k in corpus::all() {
        for t in corpus::TARGETS {
            let path = corpus_files::corpus_workload_path(k, t);
            let want = corpus_files::render(k, t);
            if bless() {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &want).unwrap();
            } else if std::fs::read_to_string(&path).ok().as_deref() != Some(want.as_str()) {
                stale.push(path.display().to_string());
            }
        }
    }
    assert!(
        stale.is_empty(),
        "missing or stale workload files (regenerate with GPUSIM_BLESS=1 cargo test -p cosim --test workloads):\n{}",
        stale.join("\n")
    );
    // And no file for a kernel the registry no longer has.
    for t in corpus::TARGETS {
        let dir = corpus_files::workloads_dir()
            .join("corpus")
            .join(corpus::target_dir(t));
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            let stem = p.file_stem().unwrap().to_str().unwrap().to_string();
            assert!(
                corpus::find(&stem).is_some(),
                "{} has no corpus kernel",
                p.display()
            );
        }
    }
}

#[test]
fn corpus_workloads_reproduce_the_default_launch() {
    let mut n = 0;
    for k in corpus::all() {
        for t in corpus::TARGETS {
            let path = corpus_files::corpus_workload_path(k, t);
            let w = Workload::load(&path).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(
                w.kernel,
                KernelRef::Corpus {
                    name: k.name.into(),
                    target: t
                }
            );
            assert_eq!(w.grid, k.launch.dims.grid, "{}", path.display());
            assert_eq!(w.workgroup, k.launch.dims.local, "{}", path.display());
            assert_eq!(w.checks, vec![Check::CorpusReference { after: None }]);
            let p = w.prepare().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(p.kernel_name, k.name);
            assert_eq!(p.code_object, k.load_prebuilt(t).unwrap());
            let initial = k.launch.materialize();
            assert_eq!(p.args.len(), k.launch.args.len());
            for (i, (spec, value)) in k.launch.args.iter().zip(&initial).enumerate() {
                let what = format!("{} arg {i}", path.display());
                match (spec, value, &p.args[i]) {
                    (ArgSpec::Buffer(b), ArgValue::Buffer(data), PreparedArg::Buffer(j)) => {
                        let hb = &p.buffers[*j];
                        assert_eq!(hb.name, b.name, "{what}");
                        assert_eq!(hb.elem, ElemType::from_corpus(b.elem), "{what}");
                        assert_eq!(hb.bytes, data.to_le_bytes(), "{what}: contents");
                    }
                    (ArgSpec::Scalar { value, .. }, _, PreparedArg::Value(bytes)) => {
                        assert_eq!(*bytes, value.to_le_bytes(), "{what}")
                    }
                    (ArgSpec::Local { bytes, .. }, _, PreparedArg::Local(got)) => {
                        assert_eq!(bytes, got, "{what}")
                    }
                    other => panic!("{what}: kind differs: {other:?}"),
                }
            }
            n += 1;
        }
    }
    assert_eq!(n, 3 * corpus::all().len());
}

/// The final buffers a correct GPU would leave: the corpus reference's.
fn reference_result(w: &Workload) -> Vec<HostBuffer> {
    let k = w.corpus_kernel().unwrap();
    let p = w.prepare().unwrap();
    let expected = k.expected().unwrap();
    let mut out = p.buffers.clone();
    for (a, v) in p.args.iter().zip(expected) {
        if let (PreparedArg::Buffer(i), ArgValue::Buffer(data)) = (a, v) {
            out[*i].bytes = data.to_le_bytes();
        }
    }
    out
}

#[test]
fn corpus_reference_check_passes_and_reports_the_first_mismatch() {
    let path = corpus_files::corpus_workload_path(
        corpus::find("saxpy").unwrap(),
        corpus::Target::GFX1030_W32,
    );
    let w = Workload::load(&path).unwrap();
    let p = w.prepare().unwrap();
    let mut good = reference_result(&w);
    let report = check(&w, &p, &good).unwrap();
    assert!(report.passed(), "{report:?}");
    // Untouched inputs fail: y must change.
    let report = check(&w, &p, &p.buffers).unwrap();
    assert!(!report.passed());
    assert_eq!(report.first_mismatch().unwrap().buffer, "y");
    assert_eq!(report.first_mismatch().unwrap().index, 0);
    // One element off by 3 ULP in y (allowed: 2) at index 17.
    let y = &mut good[1].bytes;
    let v = u32::from_le_bytes(y[68..72].try_into().unwrap()) + 3;
    y[68..72].copy_from_slice(&v.to_le_bytes());
    let m = check(&w, &p, &good)
        .unwrap()
        .first_mismatch()
        .cloned()
        .unwrap();
    assert_eq!((m.buffer.as_str(), m.index, m.differing), ("y", 17, 1));
    assert_eq!(m.actual, format!("{:?}", f32::from_bits(v)));
}

fn parse(text: &str) -> Result<Workload, WorkloadError> {
    Workload::parse(text, Path::new("dir/w.yaml"))
}

const HEADER: &str = "kernel: { corpus: saxpy, target: gfx1030 }\ngrid: 64\nworkgroup: 64\n";

#[test]
fn yaml_errors_carry_path_line_and_column() {
    let e = parse("kernel: { corpus: saxpy, target: gfx1030 }\ngrid: [64\n").unwrap_err();
    assert!(matches!(e, WorkloadError::Yaml { line: 3, .. }), "{e}");
    assert!(e.to_string().starts_with("dir/w.yaml:3:"), "{e}");
    // The location is said once, in the prefix.
    assert!(!e.to_string().contains("at line 3"), "{e}");

    let e = parse(&format!("{HEADER}bufers: []\n")).unwrap_err();
    assert!(
        matches!(
            e,
            WorkloadError::Yaml {
                line: 4,
                column: 1,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("unknown field `bufers`"), "{e}");

    let e =
        parse("kernel:\n  corpus: saxpi\n  target: gfx1030\ngrid: 1\nworkgroup: 1\n").unwrap_err();
    let WorkloadError::Yaml { line, message, .. } = &e else {
        panic!("{e}")
    };
    assert!((1..=3).contains(line), "{e}");
    assert!(message.contains("unknown corpus kernel `saxpi`"), "{e}");
    assert!(message.contains("saxpy"), "lists the known kernels: {e}");

    let e =
        parse("kernel: { corpus: saxpy, target: gfx900 }\ngrid: 1\nworkgroup: 1\n").unwrap_err();
    assert!(e.to_string().starts_with("dir/w.yaml:1:"), "{e}");
    assert!(
        e.to_string()
            .contains("unknown target `gfx900` (known: gfx803, gfx1030, gfx1030-w64)"),
        "{e}"
    );

    let e = parse(&format!(
        "{HEADER}buffers:\n  - {{ name: a, type: f16, length: 4 }}\n"
    ))
    .unwrap_err();
    assert!(matches!(e, WorkloadError::Yaml { line: 5, .. }), "{e}");
    assert!(e.to_string().contains("f16"), "{e}");

    let e = parse(&format!("{HEADER}args:\n  - {{ u8: 300 }}\n")).unwrap_err();
    assert!(matches!(e, WorkloadError::Yaml { line: 5, .. }), "{e}");
    assert!(e.to_string().contains("300 does not fit in u8"), "{e}");

    let e = parse(&format!("{HEADER}args:\n  - {{ u32: 1, buffer: x }}\n")).unwrap_err();
    assert!(e.to_string().contains("exactly one of"), "{e}");
}

#[test]
fn subvector_mode_is_the_packets_issue_order_indication() {
    use arch::command::SubvectorHint;
    assert_eq!(parse(HEADER).unwrap().subvector_hint, SubvectorHint::None);
    for (text, hint) in [
        ("conventional", SubvectorHint::Conventional),
        ("subvector", SubvectorHint::Subvector),
        ("auto", SubvectorHint::Auto),
    ] {
        let w = parse(&format!("{HEADER}subvector_mode: {text}\n")).unwrap();
        assert_eq!(w.subvector_hint, hint, "{text}");
    }
    let e = parse(&format!("{HEADER}subvector_mode: sometimes\n")).unwrap_err();
    assert!(matches!(e, WorkloadError::Yaml { line: 4, .. }), "{e}");
    assert!(e.to_string().contains("sometimes"), "{e}");
}

#[test]
fn unknown_names_are_clear_errors() {
    let e = parse(&format!(
        "{HEADER}buffers:\n  - {{ name: x, type: f32, length: 4 }}\nargs:\n  - {{ buffer: z }}\n"
    ))
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "dir/w.yaml: args[0]: unknown buffer `z` (buffers: x)"
    );
    let e = parse(&format!(
        "{HEADER}buffers:\n  - {{ name: x, type: f32, length: 4 }}\n  - {{ name: x, type: u8, length: 1 }}\n"
    ))
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "dir/w.yaml: buffers[1]: a second buffer called `x`"
    );
    let e = parse("kernel: { code_object: k.hsaco }\ngrid: 1\nworkgroup: 1\nchecks: [ { reference: corpus } ]\n").unwrap_err();
    assert!(
        e.to_string()
            .contains("`reference: corpus` needs a corpus kernel"),
        "{e}"
    );
    // A missing code object names the resolved path.
    let w = parse("kernel: { code_object: nope.hsaco }\ngrid: 1\nworkgroup: 1\n").unwrap();
    assert_eq!(
        w.kernel,
        KernelRef::CodeObject {
            path: PathBuf::from("dir/nope.hsaco"),
            name: None
        }
    );
    let e = w.prepare().unwrap_err();
    assert!(
        matches!(&e, WorkloadError::Invalid { path, message } if path == Path::new("dir/w.yaml")
            && message.starts_with("`code_object: dir/nope.hsaco`: not found (looked at: dir/nope.hsaco;")),
        "{e}"
    );
}

#[test]
fn every_init_kind_and_element_type() {
    let w = parse(&format!(
        "{HEADER}buffers:
  - {{ name: a, type: f64, length: 3, init: {{ iota: {{ start: 1, step: 2 }} }} }}
  - {{ name: b, type: i8, length: 4, init: {{ values: [-1, 2] }} }}
  - {{ name: c, type: u16, length: 2, init: {{ fill: 513 }} }}
  - {{ name: d, type: f32, length: 2, init: {{ fill_bits: 0x3f800000 }} }}
  - {{ name: e, type: u64, length: 3, init: {{ permutation: {{ seed: 1 }} }} }}
  - {{ name: f, type: i16, length: 64, init: {{ random: {{ seed: 3, min: -5, max: 5 }} }} }}
  - {{ name: g, type: f64, length: 64, init: {{ random: {{ seed: 3, min: 0.25, max: 0.5 }} }} }}
  - {{ name: h, type: u32, length: 2, init: zero }}
  - {{ name: i, type: u8, length: 2 }}
args:
  - {{ buffer: a }}
  - {{ name: a, f32: -2.5 }}
  - {{ i64: -3 }}
  - {{ local: 256 }}
"
    ))
    .unwrap();
    let p = w.prepare().unwrap();
    let b = |n: &str| {
        p.buffers
            .iter()
            .find(|b| b.name == n)
            .unwrap()
            .bytes
            .clone()
    };
    let f64s: Vec<f64> = b("a")
        .chunks(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(f64s, [1.0, 3.0, 5.0]);
    assert_eq!(b("b"), [0xff, 2, 0, 0]);
    assert_eq!(b("c"), [1, 2, 1, 2]);
    assert_eq!(b("d"), [0, 0, 0x80, 0x3f, 0, 0, 0x80, 0x3f]);
    let mut perm: Vec<u64> = b("e")
        .chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    perm.sort();
    assert_eq!(perm, [0, 1, 2]);
    let f: Vec<i16> = b("f")
        .chunks(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    assert!(f.iter().all(|v| (-5..=5).contains(v)) && f.iter().any(|&v| v < 0));
    let g: Vec<f64> = b("g")
        .chunks(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert!(g.iter().all(|v| (0.25..=0.5).contains(v)));
    assert!(
        g.iter()
            .any(|v| v.fract() != 0.0 && (*v * 2f64.powi(24)).fract() != 0.0),
        "f64 draws use 53 bits"
    );
    assert_eq!(b("h"), [0; 8]);
    assert_eq!(b("i"), [0; 2]);
    assert_eq!(
        p.args,
        vec![
            PreparedArg::Buffer(0),
            // saxpy's `a` is a float: the argument's type is checked (an
            // f64 here is refused, tests/input_errors.rs).
            PreparedArg::Value((-2.5f32).to_le_bytes().to_vec()),
            PreparedArg::Value((-3i64).to_le_bytes().to_vec()),
            PreparedArg::Local(256),
        ]
    );
    assert_eq!(w.args[1].name.as_deref(), Some("a"));
    assert!(matches!(
        w.args[1].kind,
        ArgKind::Scalar {
            elem: ElemType::F32,
            ..
        }
    ));
    let d = p.driver_args(&[0x1000, 0, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(d[0], sw::driver::Arg::Buffer(0x1000));
}

#[test]
fn file_inits_and_file_checks_with_tolerances() {
    let dir = std::env::temp_dir().join(format!("gpusim-workload-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let floats = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    std::fs::write(dir.join("in.bin"), floats(&[1.0, 2.0, 3.0, 4.0])).unwrap();
    std::fs::write(dir.join("want.bin"), floats(&[1.0, 2.0, 3.0, 4.0])).unwrap();
    let text = "kernel: { code_object: k.hsaco, name: k }
grid: 4
workgroup: 4
buffers:
  - { name: x, type: f32, length: 4, init: { file: in.bin } }
  - { name: short, type: f32, length: 3, init: { file: in.bin } }
checks:
  - { buffer: x, expected: want.bin, tolerance: { ulp: 1 } }
  - { buffer: x, expected: want.bin, tolerance: { abs: 0.5 } }
  - { buffer: x, expected: want.bin }
";
    let path = dir.join("w.yaml");
    std::fs::write(&path, text).unwrap();
    let w = Workload::load(&path).unwrap();
    assert_eq!(
        w.checks[0],
        Check::File {
            buffer: "x".into(),
            expected: dir.join("want.bin"),
            tolerance: Tolerance::Ulp(1),
            elements: Default::default(),
            after: None,
        }
    );
    // prepare() fails: no code object; the buffer length mismatch is checked
    // after the code object, so test the buffers through a workload without it.
    assert!(matches!(w.prepare(), Err(WorkloadError::Invalid { .. })));

    let mut p = cosim::workload::Prepared {
        code_object: vec![],
        code_object_path: dir.join("k.hsaco"),
        kernel_name: "k".into(),
        dims: w.dims(),
        buffers: vec![],
        args: vec![],
        waits: vec![],
        signals: vec![],
        work_queue: None,
        subvector_hint: Default::default(),
        shared_vgprs: None,
        source: None,
        objects: vec![],
        object_sources: vec![],
        steps: vec![],
    };
    let actual = |v: &[f32]| {
        vec![HostBuffer {
            name: "x".into(),
            elem: ElemType::F32,
            bytes: floats(v),
        }]
    };
    p.buffers = actual(&[1.0, 2.0, 3.0, 4.0]);
    assert!(check(&w, &p, &p.buffers).unwrap().passed());
    // One ULP up at index 2: passes ulp 1 and abs 0.5, fails exact.
    let r = check(
        &w,
        &p,
        &actual(&[1.0, 2.0, f32::from_bits(3.0f32.to_bits() + 1), 4.0]),
    )
    .unwrap();
    let passed: Vec<bool> = r.outcomes.iter().map(|o| o.mismatch.is_none()).collect();
    assert_eq!(passed, [true, true, false]);
    let m = r.first_mismatch().unwrap();
    assert_eq!((m.buffer.as_str(), m.index), ("x", 2));
    assert_eq!(m.expected, "3.0 (0x40400000)");
    // 0.75 off at index 3 fails all three.
    let r = check(&w, &p, &actual(&[1.0, 2.0, 3.0, 4.75])).unwrap();
    assert!(r
        .outcomes
        .iter()
        .all(|o| o.mismatch.as_ref().map(|m| m.index) == Some(3)));
    assert_eq!(
        r.first_mismatch().unwrap().to_string(),
        "buffer `x` element 3: expected 4.0 (0x40800000), got 4.75 (0x40980000) (1 element differs)"
    );
    std::fs::remove_dir_all(&dir).ok();
}
