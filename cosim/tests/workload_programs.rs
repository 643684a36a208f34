//! Multi-dispatch workloads (`steps:`), `--dump`, the mismatch report, the
//! check kinds (rel / allclose, range, mask), vector arguments, argument
//! name checks and the code object search path.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use cosim::model::{ModelDevice, ModelOptions};
use cosim::workload::{self, SearchPath, Workload};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn gpusim(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gpusim"));
    c.args(args).current_dir(root()).env_remove("GPUSIM_PATH");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("gpusim runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A fresh temporary directory for one test.
fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gpusim-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run_on(model: cosim::model::Model, w: &Workload) -> Result<(), String> {
    let device = ModelDevice::new(&ModelOptions {
        model,
        isa: arch::isa::Isa::Gfx1030,
        config: hw::GpuConfig::default_config(),
        watchdog: Some(50_000_000),
        wave_watchdog: None,
    })?;
    workload::run_checked(device, w).map(|_| ())
}

const PROGRAMS: [&str; 3] = ["bitonic_sort", "bfs", "stencil_pingpong"];

/// The iterative programs pass on the functional model for all three
/// targets, and their step counts are what the files say.
#[test]
fn programs_pass_on_the_functional_model() {
    for t in ["gfx803", "gfx1030", "gfx1030-w64"] {
        for p in PROGRAMS {
            let path = root().join(format!("workloads/programs/{t}/{p}.yaml"));
            let w = Workload::load(&path).unwrap_or_else(|e| panic!("{e}"));
            assert!(!w.steps.is_empty());
            run_on(cosim::model::Model::Functional, &w)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
    let w = Workload::load(&root().join("workloads/programs/gfx1030/bitonic_sort.yaml")).unwrap();
    // log2(1024) * (log2(1024) + 1) / 2 compare-exchange steps.
    assert_eq!(w.steps.len(), 55);
}

/// The same programs on the clocked model and in lockstep (gfx1030 wave32
/// and wave64; gfx803 code runs translated).
#[test]
fn programs_pass_on_the_clocked_model_and_in_lockstep() {
    for t in ["gfx803", "gfx1030", "gfx1030-w64"] {
        for p in PROGRAMS {
            let path = root().join(format!("workloads/programs/{t}/{p}.yaml"));
            let w = Workload::load(&path).unwrap();
            for m in [cosim::model::Model::Cycle, cosim::model::Model::Lockstep] {
                run_on(m, &w).unwrap_or_else(|e| panic!("{} {m:?}: {e}", path.display()));
            }
        }
    }
}

/// A BFS stopped before it converges fails with the step named; a
/// corrupted expected file fails the replayed reference too (the reference
/// is not the device's own output).
#[test]
fn until_not_met_and_wrong_results_fail() {
    let path = root().join("workloads/programs/gfx1030/bfs.yaml");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("repeat: 200", "repeat: 3");
    let w = Workload::parse(&text, &path).unwrap();
    let e = run_on(cosim::model::Model::Functional, &w).unwrap_err();
    assert!(
        e.contains("step `relax`") && e.contains("not met after 3 iterations"),
        "{e}"
    );

    // Without the swap the sweeps never see their own results: the device
    // and the replayed reference agree, the independent BFS does not.
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("    swap: [dist_in, dist_out]\n", "")
        .replace("repeat: 200", "repeat: 2")
        .replace("    until: { buffer: changed, index: 0, eq: 0 }\n", "");
    let w = Workload::parse(&text, &path).unwrap();
    let e = run_on(cosim::model::Model::Functional, &w).unwrap_err();
    assert!(e.starts_with("buffer `dist_in` element"), "{e}");
}

#[test]
fn step_errors_name_the_step() {
    let base = "kernel: { corpus: stencil2d, target: gfx1030 }
grid: [64, 32]
workgroup: [64, 4]
buffers:
  - { name: a, type: f32, length: 2048 }
  - { name: b, type: f32, length: 2048 }
  - { name: c, type: f32, length: 16 }
args: [ { buffer: a }, { buffer: b }, { u32: 64 }, { u32: 32 } ]
";
    let err = |extra: &str| {
        Workload::parse(&format!("{base}{extra}"), Path::new("w.yaml"))
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        err("steps: [ { name: s, swap: [a, c] } ]\n"),
        "w.yaml: steps[0] (`s`): swap: `a` (2048 × f32) and `c` (16 × f32) differ in type or length"
    );
    assert_eq!(
        err("steps: [ { swap: [a, z] } ]\n"),
        "w.yaml: steps[0] (`step 0`): swap: unknown buffer `z`"
    );
    assert_eq!(
        err("steps: [ { name: s, repeat: 0 } ]\n"),
        "w.yaml: steps[0] (`s`): repeat 0 is not in 1..=1000000"
    );
    assert_eq!(
        err("steps: [ { name: s, until: { buffer: c, index: 16, eq: 0 } } ]\n"),
        "w.yaml: steps[0] (`s`): until: index 16 is past the end of `c` (16 elements)"
    );
    assert_eq!(
        err("steps: [ { name: s }, { name: s } ]\n"),
        "w.yaml: steps[1]: a second step called `s`"
    );
    assert_eq!(
        err("steps: [ { name: s } ]\nchecks: [ { reference: corpus, after: t } ]\n"),
        "w.yaml: checks[0]: after: no step called `t` (steps: s)"
    );
    assert_eq!(
        err("steps: [ { name: s, write: [ { buffer: c, index: 2, value: .nan } ] } ]\nsignal: [ { buffer: c, value: 1 } ]\n"),
        "w.yaml: `steps` cannot be combined with `work_queue`, `wait` or `signal`"
    );
}

/// `--dump DIR` writes every buffer raw, and as NumPy arrays whose header
/// describes them and whose data is the raw file's.
#[test]
fn dump_writes_raw_and_npy() {
    let dir = temp("dump");
    let (raw, npy) = (dir.join("raw"), dir.join("npy"));
    let w = "workloads/programs/gfx1030/stencil_pingpong.yaml";
    let o = gpusim(&["run", w, "--dump", raw.to_str().unwrap()], &[]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("dumped 2 buffers to"), "{}", text(&o));
    let o = gpusim(
        &[
            "run",
            w,
            "--dump",
            npy.to_str().unwrap(),
            "--dump-format",
            "npy",
        ],
        &[],
    );
    assert!(o.status.success(), "{}", text(&o));
    for name in ["a", "b"] {
        let bin = std::fs::read(raw.join(format!("{name}.bin"))).unwrap();
        assert_eq!(bin.len(), 64 * 32 * 4);
        let file = std::fs::read(npy.join(format!("{name}.npy"))).unwrap();
        assert_eq!(&file[..8], b"\x93NUMPY\x01\x00");
        let header_len = u16::from_le_bytes([file[8], file[9]]) as usize;
        assert_eq!((10 + header_len) % 64, 0, "the data starts 64-byte aligned");
        let header = std::str::from_utf8(&file[10..10 + header_len]).unwrap();
        assert_eq!(
            header.trim_end(),
            "{'descr': '<f4', 'fortran_order': False, 'shape': (2048,), }"
        );
        assert!(header.ends_with('\n'));
        assert_eq!(&file[10 + header_len..], &bin[..]);
    }
    // The smoothed field is not the initial noise: the dump is the final state.
    let w = Workload::load(&root().join(w)).unwrap();
    let initial = &w.prepare().unwrap().buffers[0].bytes;
    assert_ne!(&std::fs::read(raw.join("a.bin")).unwrap(), initial);
    std::fs::remove_dir_all(&dir).ok();
}

/// The vec_args kernel's results for `n` items: `out` (float4) and `uout` (uint2).
fn vec_args_expected(
    n: u32,
    scale: [f32; 4],
    offset: [u32; 2],
    bias: [f32; 3],
) -> (Vec<u8>, Vec<u8>) {
    let mut out = Vec::new();
    let mut uout = Vec::new();
    for i in 0..n {
        let b = [bias[0], bias[1], bias[2], 1.0];
        for c in 0..4 {
            out.extend((i as f32 * scale[c] + b[c]).to_le_bytes());
        }
        uout.extend((i + offset[0]).to_le_bytes());
        uout.extend((2 * i + offset[1]).to_le_bytes());
    }
    (out, uout)
}

/// Writes a vec_args workload into `dir` (the code object found next to it
/// or on the search path) and its expected files.
fn vec_args_workload(dir: &Path, code_object: &str, extra_check: &str) -> PathBuf {
    let (out, uout) = vec_args_expected(64, [0.5, 2.0, -1.0, 3.0], [7, 100], [0.25, -4.0, 8.0]);
    std::fs::write(dir.join("out.bin"), out).unwrap();
    std::fs::write(dir.join("uout.bin"), uout).unwrap();
    let text = format!(
        "kernel: {{ code_object: {code_object} }}
grid: 64
workgroup: 64
buffers:
  - {{ name: out, type: f32, length: 256 }}
  - {{ name: uout, type: u32, length: 128 }}
args:
  - {{ name: out, buffer: out }}
  - {{ name: uout, buffer: uout }}
  - {{ name: scale, f32: [0.5, 2.0, -1.0, 3.0] }}
  - {{ name: offset, u32: [7, 100] }}
  - {{ name: bias, f32: [0.25, -4.0, 8.0] }}
checks:
  - {{ buffer: out, expected: out.bin }}
  - {{ buffer: uout, expected: uout.bin }}
{extra_check}"
    );
    let path = dir.join("vec.yaml");
    std::fs::write(&path, text).unwrap();
    path
}

fn prebuilt_extra(target: &str) -> PathBuf {
    root().join(format!("tests/kernels/extra/prebuilt/{target}"))
}

/// float4, uint2 and float3 (padded to four elements) by value, on all
/// three models.
#[test]
fn vector_arguments_are_passed_by_value() {
    let dir = temp("vec");
    let co = prebuilt_extra("gfx1030").join("vec_args.hsaco");
    let path = vec_args_workload(&dir, co.to_str().unwrap(), "");
    let w = Workload::load(&path).unwrap();
    let p = w.prepare().unwrap();
    let mut float3 = Vec::new();
    for v in [0.25f32, -4.0, 8.0, 0.0] {
        float3.extend(v.to_le_bytes());
    }
    assert_eq!(p.args[4], workload::PreparedArg::Value(float3));
    for m in [
        cosim::model::Model::Functional,
        cosim::model::Model::Cycle,
        cosim::model::Model::Lockstep,
    ] {
        run_on(m, &w).unwrap_or_else(|e| panic!("{m:?}: {e}"));
    }
    // The names come from the object's own metadata (-cl-kernel-arg-info).
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("name: scale,", "name: scales,");
    assert_eq!(
        Workload::parse(&text, &path).unwrap().prepare().unwrap_err().to_string(),
        format!(
            "{}: args[2]: named `scales`, but `vec_args` argument 2 is `scale` (arguments: out, uout, scale, offset, bias)",
            path.display()
        )
    );
    let bad = Workload::parse(
        "kernel: { code_object: k.hsaco }\ngrid: 1\nworkgroup: 1\nargs: [ { u32: [1, 2, 3, 4, 5] } ]\n",
        Path::new("w.yaml"),
    )
    .unwrap_err()
    .to_string();
    assert_eq!(
        bad,
        // At the offending value (it was the `args:` key's position).
        "w.yaml:4:9: args[0]: a vector argument has 2, 3, 4, 8 or 16 elements; 5 given"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A failed file check lists the first mismatching elements, the error's
/// maximum and mean, and writes the whole actual buffer beside the expected
/// file.
#[test]
fn mismatch_report_lists_elements_and_writes_the_actual_buffer() {
    let dir = temp("mismatch");
    let co = prebuilt_extra("gfx1030").join("vec_args.hsaco");
    let path = vec_args_workload(&dir, co.to_str().unwrap(), "");
    // Corrupt 12 elements of the expected `out`: 2.0 too large each.
    let mut want = std::fs::read(dir.join("out.bin")).unwrap();
    for i in 0..12 {
        let k = 4 * (10 + 3 * i);
        let v = f32::from_le_bytes(want[k..k + 4].try_into().unwrap()) + 2.0;
        want[k..k + 4].copy_from_slice(&v.to_le_bytes());
    }
    std::fs::write(dir.join("out.bin"), &want).unwrap();
    let o = gpusim(&["run", path.to_str().unwrap()], &[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("(12 elements differ)"), "{t}");
    // Ten listed, from index 10 in steps of 3.
    let listed: Vec<&str> = t
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<usize>().is_ok())
        })
        .collect();
    assert_eq!(listed.len(), workload::MISMATCHES_LISTED, "{t}");
    assert!(listed[0].trim_start().starts_with("10 "), "{t}");
    assert!(listed[9].trim_start().starts_with("37 "), "{t}");
    assert!(
        t.contains("error over 256 compared elements: max 2e0, mean 9.375e-2"),
        "{t}"
    );
    let actual = dir.join("out.actual.bin");
    assert!(
        t.contains(&format!("actual buffer written to {}", actual.display())),
        "{t}"
    );
    let (good, _) = vec_args_expected(64, [0.5, 2.0, -1.0, 3.0], [7, 100], [0.25, -4.0, 8.0]);
    assert_eq!(std::fs::read(&actual).unwrap(), good);
    std::fs::remove_dir_all(&dir).ok();
}

/// `rel` and `abs`+`rel` as NumPy's allclose, `range` and `mask`.
#[test]
fn relative_tolerance_ranges_and_masks() {
    use cosim::workload::{check, ElemType, HostBuffer};
    let dir = temp("checks");
    let floats = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    std::fs::write(dir.join("want.bin"), floats(&[100.0, 1.0, 0.0, -50.0])).unwrap();
    std::fs::write(dir.join("mask.bin"), [1u8, 1, 0, 1]).unwrap();
    let text = "kernel: { code_object: k.hsaco }
grid: 4
workgroup: 4
buffers:
  - { name: x, type: f32, length: 4 }
  - { name: m, type: u32, length: 4, init: { values: [0, 1, 1, 1] } }
checks:
  - { buffer: x, expected: want.bin, tolerance: { rel: 0.01 } }
  - { buffer: x, expected: want.bin, tolerance: { abs: 0.001, rel: 0.01 } }
  - { buffer: x, expected: want.bin, range: [0, 2] }
  - { buffer: x, expected: want.bin, mask: { file: mask.bin }, tolerance: { rel: 0.01 } }
  - { buffer: x, expected: want.bin, mask: { buffer: m } }
";
    let path = dir.join("w.yaml");
    std::fs::write(&path, text).unwrap();
    let w = Workload::load(&path).unwrap();
    let p = workload::Prepared {
        subvector_hint: Default::default(),
        shared_vgprs: None,
        code_object: vec![],
        code_object_path: dir.join("k.hsaco"),
        kernel_name: "k".into(),
        dims: w.dims(),
        buffers: vec![
            HostBuffer {
                name: "x".into(),
                elem: ElemType::F32,
                bytes: vec![0; 16],
            },
            HostBuffer {
                name: "m".into(),
                elem: ElemType::U32,
                bytes: [0u32, 1, 1, 1]
                    .iter()
                    .flat_map(|v| v.to_le_bytes())
                    .collect(),
            },
        ],
        args: vec![],
        waits: vec![],
        signals: vec![],
        work_queue: None,
        source: None,
        objects: vec![],
        object_sources: vec![],
        steps: vec![],
    };
    let outcome = |x: &[f32]| -> Vec<bool> {
        let actual = vec![
            HostBuffer {
                name: "x".into(),
                elem: ElemType::F32,
                bytes: floats(x),
            },
            p.buffers[1].clone(),
        ];
        check(&w, &p, &actual)
            .unwrap()
            .outcomes
            .iter()
            .map(|o| o.mismatch.is_none())
            .collect()
    };
    // 1 % of 100 is 1.0: 100.9 is close, 0.0005 next to 0.0 needs the abs part;
    // element 2 is outside the range and the masks.
    assert_eq!(
        outcome(&[100.9, 1.0, 0.0005, -50.4]),
        [false, true, false, true, false]
    );
    assert_eq!(outcome(&[100.0, 1.0, 0.0, -50.0]), [true; 5]);
    assert_eq!(
        outcome(&[100.0, 1.0, 7.0, -50.0]),
        [false, false, true, true, false]
    );
    // Element 0 only in the u32 mask `m`'s zero: ignored there.
    assert!(outcome(&[1.0, 1.0, 0.0, -50.0])[4]);
    // Infinities and NaN: allclose takes neither as close to a finite value.
    assert!(!outcome(&[f32::INFINITY, 1.0, 0.0, -50.0])[1]);

    let err = |check: &str| {
        Workload::parse(
            &format!("kernel: {{ code_object: k.hsaco }}\ngrid: 1\nworkgroup: 1\nbuffers: [ {{ name: x, type: f32, length: 4 }} ]\nchecks: [ {check} ]\n"),
            Path::new("w.yaml"),
        )
        .unwrap_err()
        .to_string()
    };
    assert!(
        err("{ buffer: x, expected: e.bin, tolerance: { ulp: 1, rel: 0.1 } }")
            .ends_with("`ulp` cannot be combined with `abs` or `rel`")
    );
    assert!(
        err("{ buffer: x, expected: e.bin, tolerance: { rel: -1 } }")
            .ends_with("tolerance `rel` must be finite and >= 0, got -1")
    );
    assert!(err("{ buffer: x, expected: e.bin, range: [3, 3] }")
        .ends_with("range [3, 3] is empty (it is [start, end), end exclusive)"));
    assert_eq!(
        err("{ buffer: x, expected: e.bin, mask: { buffer: q } }"),
        "w.yaml: checks[0]: mask: unknown buffer `q` (buffers: x)"
    );
    // A range past the end is found when checking.
    std::fs::remove_dir_all(&dir).ok();
}

/// Argument names are checked against the code object's metadata: a wrong
/// name lists the kernel's, two swapped names or two swapped same-sized
/// buffers are named together.
#[test]
fn argument_names_are_checked_against_the_metadata() {
    let base = |args: &str| {
        format!(
            "kernel: {{ corpus: stencil2d, target: gfx1030 }}
grid: [64, 32]
workgroup: [64, 4]
buffers:
  - {{ name: in, type: f32, length: 2048 }}
  - {{ name: out, type: f32, length: 2048 }}
args: [ {args} ]
"
        )
    };
    let prep = |args: &str| {
        Workload::parse(&base(args), Path::new("w.yaml"))
            .unwrap()
            .prepare()
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    assert_eq!(
        prep("{ name: in, buffer: in }, { name: out, buffer: out }, { name: width, u32: 64 }, { name: height, u32: 32 }"),
        Ok(())
    );
    assert_eq!(
        prep("{ name: out, buffer: in }, { name: in, buffer: out }, { u32: 64 }, { u32: 32 }").unwrap_err(),
        "w.yaml: args[0]: named `out`, but `stencil2d` argument 0 is `in` (arguments: in, out, width, height); \
         `out` and `in` are swapped (the kernel takes `in` at 0 and `out` at 1)"
    );
    assert_eq!(
        prep("{ buffer: in }, { buffer: out }, { name: w, u32: 64 }, { u32: 32 }").unwrap_err(),
        "w.yaml: args[2]: named `w`, but `stencil2d` argument 2 is `width` (arguments: in, out, width, height)"
    );
    assert_eq!(
        prep("{ buffer: out }, { buffer: in }, { u32: 64 }, { u32: 32 }").unwrap_err(),
        "w.yaml: args[0] and args[1]: buffers `out` and `in` are swapped: `stencil2d` takes `in` at 0 and \
         `out` at 1 (write `name:` on both to pass them crosswise on purpose)"
    );
    // Written names say it is meant.
    assert_eq!(
        prep("{ name: in, buffer: out }, { name: out, buffer: in }, { u32: 64 }, { u32: 32 }"),
        Ok(())
    );
}

/// A relative code object not next to the workload is found through
/// `--path` or `GPUSIM_PATH`; not found, the error lists where it looked.
#[test]
fn code_objects_are_found_on_the_search_path() {
    let dir = temp("search");
    let path = vec_args_workload(&dir, "vec_args.hsaco", "");
    let p = path.to_str().unwrap();
    let extra = prebuilt_extra("gfx1030");
    let o = gpusim(&["run", p], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let o = gpusim(
        &[
            "run",
            p,
            "--path",
            "/nonexistent",
            "--path",
            extra.to_str().unwrap(),
        ],
        &[],
    );
    assert!(o.status.success(), "{}", text(&o));
    let env = format!("/nonexistent:{}", extra.display());
    let o = gpusim(&["run", p], &[("GPUSIM_PATH", &env)]);
    assert!(o.status.success(), "{}", text(&o));
    let o = gpusim(
        &["run", p, "--path", "/nowhere"],
        &[("GPUSIM_PATH", "/elsewhere")],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains(&format!(
            "`code_object: vec_args.hsaco`: not found (looked at: {}, /nowhere/vec_args.hsaco, \
             /elsewhere/vec_args.hsaco; the search path is --path, then GPUSIM_PATH)",
            dir.join("vec_args.hsaco").display()
        )),
        "{}",
        text(&o)
    );
    // The library API: an explicit search path.
    let w = Workload::load_with(
        &path,
        &SearchPath {
            dirs: vec![extra.clone()],
        },
    )
    .unwrap();
    assert_eq!(
        w.kernel,
        workload::KernelRef::CodeObject {
            path: extra.join("vec_args.hsaco"),
            name: None
        }
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The workgroup limit is the code object's `max_flat_workgroup_size`
/// (256 for these kernels), capped at the hardware's 1024.
#[test]
fn workgroup_limit_comes_from_the_code_object() {
    let dir = temp("wg");
    let co = prebuilt_extra("gfx1030").join("vec_args.hsaco");
    let path = vec_args_workload(&dir, co.to_str().unwrap(), "");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("grid: 64\nworkgroup: 64", "grid: 512\nworkgroup: 512");
    std::fs::write(&path, text).unwrap();
    let o = gpusim(&["run", path.to_str().unwrap()], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("workgroup [512, 1, 1] has 512 work-items; the kernel allows at most 256"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
}
