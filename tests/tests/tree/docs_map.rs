//! The mechanism map at the top of `docs/README.md` stays true: it has a row
//! for each of the five seed mechanisms and each hardware block, and every
//! path it names (a `code` path, or a link to a document) exists.

use std::path::Path;

/// The rows the map must have: each row's first cell starts with one of these.
const ROWS: [&str; 15] = [
    "seed 000",
    "seed 001",
    "seed 002",
    "seed 003",
    "seed 004",
    "front end",
    "dispatcher",
    "scheduler",
    "SIMD lanes",
    "LDS",
    "vector memory",
    "caches",
    "crossbar",
    "L2",
    "DRAM",
];

/// The table rows (cells split, header and rule left out) of the section
/// that starts with `heading`.
fn table_rows(markdown: &str, heading: &str) -> Vec<Vec<String>> {
    let section = markdown
        .split_once(heading)
        .map(|(_, rest)| rest)
        .unwrap_or_default();
    let section = section.split("\n## ").next().unwrap_or_default();
    section
        .lines()
        .filter(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// The paths a cell names: `code` spans with a `/` (repository paths; a
/// trailing `/` is a folder) and the targets of `[text](target)` links
/// (relative to `docs/`), both without `#anchors`.
fn named_paths(cell: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for (i, span) in cell.split('`').enumerate() {
        if i % 2 == 1 && span.contains('/') && !span.contains(' ') {
            out.push((span.to_string(), false));
        }
    }
    let mut rest = cell;
    while let Some(at) = rest.find("](") {
        let tail = &rest[at + 2..];
        let end = tail.find(')').unwrap_or(tail.len());
        let target = tail[..end].split('#').next().unwrap_or_default();
        if !target.is_empty() && !target.contains("://") {
            out.push((target.to_string(), true));
        }
        rest = &tail[end..];
    }
    out
}

/// Every named path that does not exist, as `row: path`.
fn missing_paths(root: &Path, rows: &[Vec<String>]) -> Vec<String> {
    let mut missing = Vec::new();
    for row in rows {
        for cell in &row[1..] {
            for (path, in_docs) in named_paths(cell) {
                let full = if in_docs {
                    root.join("docs").join(&path)
                } else {
                    root.join(&path)
                };
                if !full.exists() {
                    missing.push(format!("{}: {path}", row[0]));
                }
            }
        }
    }
    missing
}

#[test]
fn the_mechanism_map_names_only_paths_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits in the workspace");
    let readme = std::fs::read_to_string(root.join("docs/README.md")).expect("docs/README.md");
    let rows = table_rows(&readme, "## Map of the mechanisms");
    for want in ROWS {
        assert!(
            rows.iter().any(|r| r[0].starts_with(want)),
            "docs/README.md's map has no row for {want}"
        );
    }
    for row in &rows {
        assert_eq!(
            row.len(),
            5,
            "{}: a row is mechanism | files | doc | tests | not built yet",
            row[0]
        );
    }
    let named: usize = rows
        .iter()
        .flat_map(|r| &r[1..])
        .map(|c| named_paths(c).len())
        .sum();
    assert!(named >= 40, "the map names only {named} paths");
    let missing = missing_paths(root, &rows);
    assert!(
        missing.is_empty(),
        "docs/README.md's map names paths that do not exist:\n{}",
        missing.join("\n")
    );
}

/// The reader itself: a missing file, a missing folder and a broken doc
/// link are each reported; code spans without a `/` are not paths.
#[test]
fn the_map_reader_reports_what_is_missing() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace");
    let md = "# x\n\n## Map of the mechanisms\n\n| a | b | c | d | e |\n|---|---|---|---|---|\n\
        | L2 | `hw/src/mem/l2.rs`, `hw/src/no_such.rs`, `hw/src/nowhere/`, `XbarConfig` | \
        [config.md](config.md), [gone.md](gone.md#x) | — | — |\n\n## Next\n\n| not | a | row |\n";
    let rows = table_rows(md, "## Map of the mechanisms");
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(
        missing_paths(root, &rows),
        [
            "L2: hw/src/no_such.rs",
            "L2: hw/src/nowhere/",
            "L2: gone.md"
        ]
    );
}
