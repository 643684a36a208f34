//! The compiler's output, byte for byte, against a table made by an earlier
//! compiler (`tests/object_bytes.golden`): every corpus kernel
//! (`tests/kernels/**/*.cl`) under option sets that between them run every
//! pass — wave32 and wave64, `-O0` and `-O`, seed 004's three policies,
//! a VGPR limit that spills, seed 000's sub-vector rewrites, and seed 002's
//! dispatch-time specialisation of the alias kernels with fixed fact sets.
//!
//! A change that must not change code (moving passes between files, say)
//! keeps this test green; a change that improves code regenerates the table
//! on purpose and says so in its commit:
//! `GPUSIM_BLESS=1 cargo test --release -p compiler --test object_bytes`.
//!
//! Each row holds a 64-bit FNV-1a hash and the length of one code object
//! (or of the diagnostic, for kernels an option set cannot compile: an error
//! that appears or disappears is a change too).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use compiler::backend::subvector::{SubvectorOptions, SubvectorRewrite};
use compiler::backend::{self, MaskedSelect};
use compiler::ir::Type;
use compiler::specialise::{recompile, Facts, PairFact, Relation};
use compiler::{compile, CompileOptions, Compiled, Source};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/object_bytes.golden")
}

/// 64-bit FNV-1a: enough to see any changed byte (no dependency needed).
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn row(bytes: &[u8], ok: bool) -> String {
    let tag = if ok { "obj" } else { "err" };
    format!("{tag} {:016x} {}", fnv1a(bytes), bytes.len())
}

/// Every `.cl` under `tests/kernels`, relative paths, sorted.
fn kernels() -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "cl") {
                out.push(p);
            }
        }
    }
    let base = repo().join("tests/kernels");
    let mut v = Vec::new();
    walk(&base, &mut v);
    let mut names: Vec<String> = v
        .iter()
        .map(|p| {
            p.strip_prefix(&base)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// The option sets, each named.
fn option_sets() -> Vec<(&'static str, CompileOptions)> {
    let base = |wave64: bool, optimize: bool| {
        let mut o = CompileOptions::default().include(repo().join("tests/kernels/include"));
        o.backend.wave64 = wave64;
        o.backend.optimize = optimize;
        o
    };
    let with = |mut o: CompileOptions, f: &dyn Fn(&mut CompileOptions)| {
        f(&mut o);
        o
    };
    let sub = |rewrite, threshold| SubvectorOptions {
        rewrite,
        threshold,
        chunk: 0,
    };
    vec![
        ("w32-O0", base(false, false)),
        ("w32-O", base(false, true)),
        ("w64-O0", base(true, false)),
        ("w64-O", base(true, true)),
        (
            "w32-O-masked",
            with(base(false, true), &|o| {
                o.backend.masked_select = MaskedSelect::Masked
            }),
        ),
        (
            "w32-O-blend",
            with(base(false, true), &|o| {
                o.backend.masked_select = MaskedSelect::Blend
            }),
        ),
        (
            "w64-O-masked",
            with(base(true, true), &|o| {
                o.backend.masked_select = MaskedSelect::Masked
            }),
        ),
        (
            "w64-O-blend",
            with(base(true, true), &|o| {
                o.backend.masked_select = MaskedSelect::Blend
            }),
        ),
        (
            "w32-O-vgpr12",
            with(base(false, true), &|o| o.backend.vgpr_limit = 12),
        ),
        (
            "w64-O0-vgpr12",
            with(base(true, false), &|o| o.backend.vgpr_limit = 12),
        ),
        (
            "w64-O-subvector-loop",
            with(base(true, true), &|o| {
                o.backend.subvector = sub(SubvectorRewrite::Loop, 0)
            }),
        ),
        (
            "w64-O-subvector-loop-t16",
            with(base(true, true), &|o| {
                o.backend.subvector = sub(SubvectorRewrite::Loop, 16)
            }),
        ),
        (
            "w64-O-subvector-dup-t16",
            with(base(true, true), &|o| {
                o.backend.subvector = sub(SubvectorRewrite::Duplicate, 16)
            }),
        ),
        (
            "w32-O-subvector-loop-t16",
            with(base(false, true), &|o| {
                o.backend.subvector = sub(SubvectorRewrite::Loop, 16)
            }),
        ),
    ]
}

/// Seed 002's fact sets for a kernel whose pointer parameters are `ptrs`:
/// every pair disjoint; the first two overlapping at ±1, 2, 3 elements
/// (the rest disjoint); one fact about the first and last pointer only.
fn fact_sets(ptrs: &[u32]) -> Vec<(String, Facts)> {
    let mut out = Vec::new();
    if ptrs.len() < 2 {
        return out;
    }
    let pairs = |first_two: Relation| {
        let mut v = Vec::new();
        for (i, &p) in ptrs.iter().enumerate() {
            for &q in &ptrs[i + 1..] {
                let relation = if (i, q) == (0, ptrs[1]) {
                    first_two
                } else {
                    Relation::Disjoint
                };
                v.push(PairFact {
                    first: p,
                    second: q,
                    relation,
                });
            }
        }
        Facts { pairs: v }
    };
    out.push(("disjoint".to_string(), pairs(Relation::Disjoint)));
    for delta in [4, 8, 12, -4, -8, -12] {
        out.push((
            format!("overlap{delta:+}"),
            pairs(Relation::Overlap { delta }),
        ));
    }
    out.push((
        "one-fact".to_string(),
        Facts {
            pairs: vec![PairFact {
                first: ptrs[0],
                second: *ptrs.last().unwrap(),
                relation: Relation::Disjoint,
            }],
        },
    ));
    out
}

/// Every row: `option-set kernel[#kernel-name[@facts]] -> obj|err hash len`.
fn current() -> BTreeMap<String, String> {
    let mut rows = BTreeMap::new();
    let names = kernels();
    assert!(names.len() >= 40, "corpus shrank: {names:?}");
    for (set, opts) in option_sets() {
        for name in &names {
            let path = repo().join("tests/kernels").join(name);
            let key = format!("{set} {name}");
            match compile(Source::Path(&path), &opts) {
                Ok(c) => {
                    rows.insert(key.clone(), row(&c.code_object, true));
                    // Seed 002 on the alias kernels, under the option sets
                    // without the sub-vector pass (it runs after either).
                    let plain = opts.backend.subvector.rewrite == SubvectorRewrite::Off;
                    if name.starts_with("alias/") && plain {
                        specialise_rows(&mut rows, &key, &c, &opts.backend);
                    }
                }
                Err(d) => {
                    // The diagnostic names the file by its absolute path:
                    // hashed without the checkout's location, so the table
                    // holds in every worktree.
                    let text = d
                        .to_string()
                        .replace(&repo().display().to_string(), "<repo>");
                    rows.insert(key, row(text.as_bytes(), false));
                }
            }
        }
    }
    rows
}

/// Seed 002 rows: each kernel of `c` recompiled with each fact set.
fn specialise_rows(
    rows: &mut BTreeMap<String, String>,
    key: &str,
    c: &Compiled,
    opts: &backend::CompileOptions,
) {
    for f in &c.ir {
        let ptrs: Vec<u32> = f
            .params
            .iter()
            .enumerate()
            .filter(|(_, p)| matches!(p.ty, Type::Ptr(_)))
            .map(|(i, _)| i as u32)
            .collect();
        for (tag, facts) in fact_sets(&ptrs) {
            let k = format!("{key}#{}@{tag}", f.name);
            let r = match recompile(f, &facts, opts) {
                Ok(v) => row(&v.code_object, true),
                Err(e) => row(e.to_string().as_bytes(), false),
            };
            rows.insert(k, r);
        }
    }
}

fn render(rows: &BTreeMap<String, String>) -> String {
    let mut s = String::from(
        "# compiler output table: GPUSIM_BLESS=1 cargo test --release -p compiler --test object_bytes\n",
    );
    for (k, v) in rows {
        writeln!(s, "{k} -> {v}").unwrap();
    }
    s
}

#[test]
fn every_code_object_is_byte_identical_to_the_table() {
    let rows = current();
    let objects = rows.values().filter(|v| v.starts_with("obj")).count();
    assert!(objects >= 500, "only {objects} code objects compiled");
    let text = render(&rows);
    if std::env::var_os("GPUSIM_BLESS").is_some() {
        std::fs::write(golden_path(), &text).unwrap();
        return;
    }
    let want = std::fs::read_to_string(golden_path())
        .expect("tests/object_bytes.golden missing: run with GPUSIM_BLESS=1");
    let want: BTreeMap<&str, &str> = want
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once(" -> "))
        .collect();
    let mut diffs = Vec::new();
    for (k, v) in &rows {
        match want.get(k.as_str()) {
            Some(w) if w == v => {}
            Some(w) => diffs.push(format!("changed  {k}: {w} -> {v}")),
            None => diffs.push(format!("new      {k}: {v}")),
        }
    }
    for k in want.keys() {
        if !rows.contains_key(*k) {
            diffs.push(format!("missing  {k}"));
        }
    }
    assert!(
        diffs.is_empty(),
        "{} of {} rows differ from tests/object_bytes.golden:\n{}",
        diffs.len(),
        rows.len(),
        diffs.join("\n")
    );
}
