//! What a new user gets for wrong input (issue 29, items 4, 5 and 8): errors
//! that name the input, the field and where it came from, at the value's line
//! and column, with exit code 2 — never a run that quietly uses wrong data.

use std::path::Path;
use std::process::{Command, Output};

mod cli_common;
use cli_common::{root, stderr, temp_dir};

fn gpusim_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpusim"))
        .args(args)
        .current_dir(dir)
        .env_remove("GPUSIM_PATH")
        .output()
        .expect("gpusim runs")
}

/// Writes `text` as `name` in `dir` and runs `gpusim run` on it there.
fn run(dir: &Path, name: &str, text: &str) -> (Option<i32>, String) {
    std::fs::write(dir.join(name), text).unwrap();
    let o = gpusim_in(dir, &["run", name]);
    (o.status.code(), stderr(&o))
}

/// `run`, which must refuse the workload with exit code 2: its error text.
fn refused(dir: &Path, name: &str, text: &str) -> String {
    let (code, e) = run(dir, name, text);
    assert_eq!(code, Some(2), "{e}");
    e
}

const SAXPY: &str = "kernel: { corpus: saxpy, target: gfx1030 }\ngrid: [256]\nworkgroup: [256]\n\
buffers:\n  - { name: x, type: f32, length: 256, init: zero }\n  - { name: y, type: f32, length: 256, init: zero }\n";

/// The saxpy workload with `n` and `a` written as `n_arg` and `a_arg`.
fn saxpy_args(n_arg: &str, a_arg: &str) -> String {
    format!("{SAXPY}args:\n  - {{ {n_arg} }}\n  - {{ {a_arg} }}\n  - {{ buffer: x }}\n  - {{ buffer: y }}\n")
}

#[test]
fn a_scalar_of_the_wrong_type_is_refused_naming_both_types() {
    let dir = temp_dir("input", "scalar");
    // saxpy(uint n, float a, ...): a float for `n` ran with the float's bits.
    let e = refused(&dir, "w.yaml", &saxpy_args("f32: 256.0", "f32: 1.5"));
    assert!(
        e.contains("w.yaml: args[0]: written as f32 256.0, but `saxpy` argument 0 `n` is `uint` (write `{ u32: … }`)"),
        "{e}"
    );
    // An integer for the float `a`, and a negative value for the uint.
    let e = refused(&dir, "w.yaml", &saxpy_args("u32: 256", "u32: 2"));
    assert!(
        e.contains("written as u32 2, but `saxpy` argument 1 `a` is `float`"),
        "{e}"
    );
    let e = refused(&dir, "w.yaml", &saxpy_args("i32: -1", "f32: 1.5"));
    assert!(
        e.contains("written as i32 -1, but `saxpy` argument 0 `n` is `uint`"),
        "{e}"
    );
    // Another integer type whose value fits is the same bytes: accepted.
    let (code, e) = run(&dir, "w.yaml", &saxpy_args("i32: 256", "f32: 1.5"));
    assert_eq!(code, Some(0), "{e}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn missing_files_name_the_workload_the_field_and_the_places_looked_at() {
    let dir = temp_dir("input", "missing");
    let e = refused(
        &dir,
        "co.yaml",
        "kernel: { code_object: nope.hsaco }\ngrid: 1\nworkgroup: 1\n",
    );
    assert!(
        e.contains("co.yaml: `code_object: nope.hsaco`: not found (looked at: nope.hsaco; no search path: add directories with --path DIR or GPUSIM_PATH)"),
        "{e}"
    );
    // With a search path: every place, at load time.
    std::fs::write(
        dir.join("co.yaml"),
        "kernel: { code_object: nope.hsaco }\ngrid: 1\nworkgroup: 1\n",
    )
    .unwrap();
    let o = gpusim_in(&dir, &["run", "co.yaml", "--path", "/nowhere"]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("co.yaml: `code_object: nope.hsaco`: not found (looked at: nope.hsaco, /nowhere/nope.hsaco; the search path is --path, then GPUSIM_PATH)"),
        "{e}"
    );
    let e = refused(
        &dir,
        "init.yaml",
        &SAXPY.replace(
            "init: zero }\n  - { name: y",
            "init: { file: nope.bin } }\n  - { name: y",
        ),
    );
    assert!(
        e.contains("init.yaml: buffer `x`: `init: { file: }` "),
        "{e}"
    );
    assert!(e.contains("nope.bin: No such file"), "{e}");
    // compile: the message alone, no blank source line and lone caret.
    let o = gpusim_in(&dir, &["compile", "nope.cl"]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("nope.cl: cannot read the source file: "), "{e}");
    assert!(
        !e.lines().any(|l| l.trim() == "^" || l.trim().is_empty()),
        "{e:?}"
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn yaml_errors_point_at_the_offending_value() {
    let dir = temp_dir("input", "yaml");
    // A zero grid was reported at 1:1 (the file's top mapping).
    let e = refused(
        &dir,
        "g.yaml",
        "kernel: { corpus: saxpy, target: gfx1030 }\ngrid: [0]\nworkgroup: [256]\n",
    );
    assert!(
        e.contains("g.yaml:2:7: grid: sizes must be positive, got [0]"),
        "{e}"
    );
    // One bad argument was reported at the `args:` line.
    let e = refused(
        &dir,
        "a.yaml",
        &format!("{SAXPY}args:\n  - {{ u32: 256 }}\n  - {{ f32: 1.5, u32: 3 }}\n"),
    );
    assert!(
        e.contains("a.yaml:9:5: args[1]: an argument needs exactly one of"),
        "{e}"
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn bench_finds_the_workloads_from_any_directory() {
    let dir = temp_dir("input", "bench");
    let o = gpusim_in(
        &dir,
        &[
            "bench",
            "--model",
            "cycle",
            "--workload",
            "gfx1030/saxpy",
            "--min-ms",
            "0",
            "--min-runs",
            "1",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("gfx1030/saxpy"));
    // A --root without the workloads says what it looked for.
    let o = gpusim_in(
        &dir,
        &["bench", "--model", "cycle", "--root", dir.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no workloads/corpus/ there"),
        "{}",
        stderr(&o)
    );
    // The repository given explicitly still works.
    let root = root();
    let o = gpusim_in(
        &dir,
        &[
            "bench",
            "--model",
            "cycle",
            "--root",
            root.to_str().unwrap(),
            "--workload",
            "gfx1030/saxpy",
            "--min-ms",
            "0",
            "--min-runs",
            "1",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::remove_dir_all(dir).ok();
}

/// `reduce_max_dyn` with `local` bytes of dynamic LDS (it needs 4 per work-item: 512).
fn reduce_max_dyn(local: u32) -> String {
    format!(
        "kernel: {{ corpus: reduce_max_dyn, target: gfx1030 }}\ngrid: [2048]\nworkgroup: [128]\n\
         buffers:\n  - {{ name: in, type: u32, length: 2048, init: {{ random_bits: {{ seed: 8 }} }} }}\n  \
         - {{ name: out, type: u32, length: 16, init: zero }}\n\
         args:\n  - {{ buffer: in }}\n  - {{ buffer: out }}\n  - {{ name: scratch, local: {local} }}\n\
         checks:\n  - reference: corpus\n"
    )
}

/// Dynamic LDS smaller than the kernel uses was silently read as zeros (and
/// its writes dropped, as RDNA's LDS clamp does): on every model it is now
/// an error after the run, naming the workload, the kernel, the LDS given and
/// the first address outside it (with wave, pc and instruction). The same
/// kernel with enough LDS passes.
#[test]
fn too_little_dynamic_lds_is_an_error_on_every_model() {
    let dir = temp_dir("input", "lds");
    std::fs::write(dir.join("small.yaml"), reduce_max_dyn(256)).unwrap();
    std::fs::write(dir.join("enough.yaml"), reduce_max_dyn(512)).unwrap();
    for model in ["functional", "cycle", "lockstep"] {
        let o = gpusim_in(&dir, &["run", "small.yaml", "--model", model]);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{model}: {e}");
        assert!(
            e.contains(
                "small.yaml: kernel `reduce_max_dyn` wrote LDS byte 0x100, outside its \
                 work-group's 256 bytes of LDS (256 dynamic from the workload's `local:` \
                 arguments, 0 static)"
            ),
            "{model}: {e}"
        );
        assert!(
            e.contains("First access: dispatch 0 workgroup (0,0,0) wave "),
            "{model}: {e}"
        );
        assert!(e.contains("`ds_write_b32 "), "{model}: {e}");
        let unit = if model == "functional" {
            "; step "
        } else {
            "; cycle "
        };
        assert!(e.contains(unit), "{model}: {e}");
        let o = gpusim_in(&dir, &["run", "enough.yaml", "--model", model]);
        assert_eq!(o.status.code(), Some(0), "{model}: {}", stderr(&o));
    }
    // The functional model's JIT interprets DS: the same report.
    let o = gpusim_in(&dir, &["run", "small.yaml", "--jit", "on"]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("wrote LDS byte 0x100"), "{e}");
    std::fs::remove_dir_all(dir).ok();
}
