//! A workload's `source:` kernel takes `gpusim compile`'s options
//! (`options:`, `defines:`), can switch seed 002's dispatch-time analysis
//! off (`alias_analysis: false`), and a sweep can vary a define
//! (`defines.TILE`) — docs/workloads.md `source`, docs/sweeps.md.

use std::path::{Path, PathBuf};

mod cli_common;
use cli_common::{gpusim, root, temp_dir, text};

/// A kernel whose output shows its macros and wave size:
/// `out[i] = SCALE * i + __AMDGCN_WAVEFRONT_SIZE`.
const KERNEL: &str = "
__kernel void opts(__global uint *out) {
    uint i = get_global_id(0);
    out[i] = SCALE * i + __AMDGCN_WAVEFRONT_SIZE;
}
";

/// Writes the kernel, the expected output for `scale` and `start`, and a
/// workload with `kernel_fields`; returns the workload's path.
fn workload(dir: &Path, name: &str, kernel_fields: &str, scale: u32, start: u32) -> PathBuf {
    std::fs::write(dir.join("opts.cl"), KERNEL).unwrap();
    let want: Vec<u8> = (0..64u32)
        .flat_map(|i| (scale * i + start).to_le_bytes())
        .collect();
    std::fs::write(dir.join(format!("{name}.bin")), want).unwrap();
    let path = dir.join(format!("{name}.yaml"));
    std::fs::write(
        &path,
        format!(
            "kernel: {{ source: opts.cl{kernel_fields} }}\n\
             grid: [64]\nworkgroup: [64]\n\
             buffers:\n  - {{ name: out, type: u32, length: 64 }}\n\
             args:\n  - {{ name: out, buffer: out }}\n\
             checks:\n  - {{ buffer: out, expected: {name}.bin }}\n"
        ),
    )
    .unwrap();
    path
}

#[test]
fn defines_and_options_reach_the_compiler() {
    let dir = temp_dir("wlopts", "defines");
    // Without a define the source does not compile: SCALE is undefined.
    let w = workload(&dir, "none", "", 3, 32);
    let o = gpusim(&["run", w.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("SCALE"), "{}", text(&o));
    // `defines:` alone: wave32.
    let w = workload(&dir, "defines", ", defines: { SCALE: 3 }", 3, 32);
    let o = gpusim(&["run", w.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    // `options:` as a line: wave64 and fast math.
    let w = workload(
        &dir,
        "line",
        ", options: \"-DSCALE=5 -mwavefrontsize64 -cl-fast-relaxed-math\"",
        5,
        64,
    );
    let o = gpusim(&["run", w.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    // Both, as a list: the define comes after the options, so it wins.
    let w = workload(
        &dir,
        "both",
        ", options: [-DSCALE=5, -mwavefrontsize64], defines: { SCALE: 7 }",
        7,
        64,
    );
    for model in ["functional", "cycle"] {
        let o = gpusim(&["run", w.to_str().unwrap(), "--model", model]);
        assert!(o.status.success(), "{model}: {}", text(&o));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_kernel_fields_are_rejected_with_their_place() {
    let dir = temp_dir("wlopts", "bad");
    let cases = [
        (", defiens: { SCALE: 3 }", "unknown field `defiens`"),
        (
            ", options: \"-DSCALE=1 -Xnonsense\"",
            "unknown option `-Xnonsense`",
        ),
        (", options: \"-S -o k.s\"", "-o, -S and --emit-ir"),
        (", options: \"k2.cl\"", "not an option"),
        (", alias_analysis: maybe", "alias_analysis"),
    ];
    for (fields, want) in cases {
        let w = workload(&dir, "bad", fields, 1, 32);
        let o = gpusim(&["run", w.to_str().unwrap()]);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(2), "{fields}: {t}");
        assert!(t.contains(want), "{fields}: {t}");
        // Line 1, the kernel's line, with a column.
        assert!(t.contains("bad.yaml:1:"), "{fields}: {t}");
    }
    // Compiler options on a kernel that is compiled already.
    let w = dir.join("corpus.yaml");
    std::fs::write(
        &w,
        "kernel: { corpus: saxpy, target: gfx1030, defines: { X: 1 } }\ngrid: [64]\nworkgroup: [64]\n",
    )
    .unwrap();
    let o = gpusim(&["run", w.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("go with `source`"), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn alias_analysis_false_skips_seed_002_at_dispatch() {
    let w = root().join("workloads/alias/copy_scale_halves.yaml");
    let o = gpusim(&["run", w.to_str().unwrap(), "--stats", "text"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("alias (seed 002): 1 analyses"),
        "{}",
        text(&o)
    );
    let dir = temp_dir("wlopts", "alias");
    let yaml = std::fs::read_to_string(&w).unwrap().replace(
        "kernel: { source: ../../tests/kernels/alias/alias_copy_scale.cl }",
        &format!(
            "kernel: {{ source: {}, alias_analysis: false }}",
            root()
                .join("tests/kernels/alias/alias_copy_scale.cl")
                .display()
        ),
    );
    assert!(yaml.contains("alias_analysis: false"));
    let off = dir.join("off.yaml");
    std::fs::write(&off, yaml).unwrap();
    let o = gpusim(&["run", off.to_str().unwrap(), "--stats", "text"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!text(&o).contains("alias (seed 002)"), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_sweep_varies_a_define_of_a_source_kernel() {
    let dir = temp_dir("wlopts", "sweep");
    let out = dir.join("out");
    let o = gpusim(&[
        "sweep",
        "workloads/sweeps/tile-size.yaml",
        "-j",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let o = gpusim(&["collect", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (tile, cycles, status) = (col("defines.TILE"), col("cycles"), col("status"));
    assert!(rows.len() >= 3, "{csv}");
    for r in &rows {
        assert_eq!(r[status], "passed", "{csv}");
    }
    // Each tile size compiles to other code: the cycle counts differ.
    let mut seen: Vec<(&str, &str)> = rows.iter().map(|r| (r[tile], r[cycles])).collect();
    seen.sort();
    seen.dedup_by_key(|x| x.1);
    assert_eq!(seen.len(), rows.len(), "{csv}");
    assert!(out.join("plots/cycles-vs-defines.TILE.svg").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
