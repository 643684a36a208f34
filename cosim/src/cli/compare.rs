//! `gpusim compare A.json B.json`: the differences between two runs' stats,
//! largest relative change first.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use super::CliError;

/// Stats reading a sequence of samples rather than a quantity: comparing
/// them element by element is noise (their totals are compared elsewhere).
const SKIPPED: [&str; 2] = ["occupancy", "gp_get_history"];

/// The stats in a file: a sweep result (its `stats` and `summary`), the JSON
/// of `gpusim run --stats json` (the whole file, or its last JSON line, so the
/// run's output can be saved as it is).
fn load(path: &Path) -> Result<serde_json::Value, CliError> {
    let text = String::from_utf8(super::read_file(&path.to_path_buf())?)
        .map_err(|_| CliError::BadInput(format!("{}: not UTF-8 text", path.display())))?;
    let value: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(_) => text
            .lines()
            .rev()
            .filter(|l| l.trim_start().starts_with('{'))
            .find_map(|l| serde_json::from_str(l).ok())
            .ok_or_else(|| {
                CliError::BadInput(format!(
                    "{}: no stats JSON (give a sweep result or the output of `gpusim run --stats json`)",
                    path.display()
                ))
            })?,
    };
    let Some(map) = value.as_object() else {
        return Err(CliError::BadInput(format!(
            "{}: the stats JSON is not an object",
            path.display()
        )));
    };
    // A sweep result: its stats, with the summary beside them.
    if let (Some(stats), true) = (map.get("stats"), map.contains_key("job")) {
        let mut m = serde_json::Map::new();
        if let Some(s) = map.get("summary") {
            m.insert("summary".into(), s.clone());
        }
        if let Some(o) = stats.as_object() {
            m.extend(o.clone());
        }
        return Ok(serde_json::Value::Object(m));
    }
    Ok(value)
}

/// Fields that name a list entry when it is an object: a list whose entries
/// all carry one of them (distinct values) is compared entry by entry by that
/// value, not by position — `channels` lists only the active channels, so
/// position 0 is not the same channel in two runs.
const ENTRY_KEYS: [&str; 4] = ["name", "number", "channel", "id"];

/// How the entries of a list are told apart: `Some(keys)` when every entry
/// names itself (a `[name, value…]` pair such as a stall reason in a sweep
/// result's summary, or an object with one of [`ENTRY_KEYS`]) and the names
/// are distinct; `None` for a plain sequence (compared by position).
fn entry_names(a: &[serde_json::Value]) -> Option<Vec<String>> {
    let name = |v: &serde_json::Value| -> Option<String> {
        match v {
            serde_json::Value::Array(t) => t.first()?.as_str().map(str::to_string),
            serde_json::Value::Object(m) => ENTRY_KEYS.iter().find_map(|k| match m.get(*k)? {
                serde_json::Value::String(s) => Some(s.clone()),
                serde_json::Value::Number(n) => Some(format!("{k}={n}")),
                _ => None,
            }),
            _ => None,
        }
    };
    let names: Vec<String> = a.iter().map(name).collect::<Option<_>>()?;
    let distinct: std::collections::BTreeSet<&String> = names.iter().collect();
    (!names.is_empty() && distinct.len() == names.len()).then_some(names)
}

/// Numeric leaves as `(dotted path, value)`. Entries of a list of named
/// entries are keyed by their name (`summary.stalls.barrier`,
/// `channels.channel=2.commands`): stall reasons are sorted by size, so
/// pairing them by position compares one reason in A with another in B.
fn flatten(prefix: &str, v: &serde_json::Value, out: &mut Vec<(String, f64)>) {
    let join = |k: &str| {
        if prefix.is_empty() {
            k.to_string()
        } else {
            format!("{prefix}.{k}")
        }
    };
    match v {
        serde_json::Value::Object(m) => {
            for (k, v) in m {
                if !SKIPPED.contains(&k.as_str()) {
                    flatten(&join(k), v, out);
                }
            }
        }
        serde_json::Value::Array(a) => match entry_names(a) {
            Some(names) => {
                for (name, v) in names.iter().zip(a) {
                    match v {
                        // `[name, value]`: the value under the name itself.
                        serde_json::Value::Array(t) if t.len() == 2 => {
                            flatten(&join(name), &t[1], out);
                        }
                        serde_json::Value::Array(t) => {
                            for (i, v) in t.iter().enumerate().skip(1) {
                                flatten(&format!("{}.{i}", join(name)), v, out);
                            }
                        }
                        // An object: its fields but the one naming it.
                        serde_json::Value::Object(m) => {
                            let mut m = m.clone();
                            if let Some(k) = ENTRY_KEYS.iter().find(|k| m.contains_key(**k)) {
                                m.remove(*k);
                            }
                            flatten(&join(name), &serde_json::Value::Object(m), out);
                        }
                        _ => flatten(&join(name), v, out),
                    }
                }
            }
            None => {
                for (i, v) in a.iter().enumerate() {
                    flatten(&join(&i.to_string()), v, out);
                }
            }
        },
        serde_json::Value::Number(n) => {
            if let Some(f) = n.as_f64() {
                out.push((prefix.to_string(), f));
            }
        }
        serde_json::Value::Bool(b) => out.push((prefix.to_string(), f64::from(u8::from(*b)))),
        _ => {}
    }
}

/// A number for reading: integers as integers, others to 4 significant digits.
fn show(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v:.4}")
    }
}

/// The comparison text; `top` limits the rows (0: all).
pub(crate) fn compare(a: &Path, b: &Path, top: usize) -> Result<String, CliError> {
    let (mut fa, mut fb) = (Vec::new(), Vec::new());
    flatten("", &load(a)?, &mut fa);
    flatten("", &load(b)?, &mut fb);
    let bmap: BTreeMap<&str, f64> = fb.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    let amap: BTreeMap<&str, f64> = fa.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    let mut rows: Vec<(&str, f64, f64, f64)> = Vec::new();
    let mut equal = 0;
    for (k, &va) in &amap {
        let Some(&vb) = bmap.get(k) else { continue };
        if va == vb {
            equal += 1;
            continue;
        }
        let rel = if va == 0.0 {
            f64::INFINITY
        } else {
            (vb - va) / va.abs()
        };
        rows.push((k, va, vb, rel));
    }
    // Largest relative change first; equal changes by name (stable output).
    rows.sort_by(|x, y| y.3.abs().total_cmp(&x.3.abs()).then(x.0.cmp(y.0)));
    // Stats on one side only (a stall reason, channel or dispatch the other
    // run lacks), by name, so they are not silently dropped.
    fn only<'a>(x: &BTreeMap<&'a str, f64>, y: &BTreeMap<&str, f64>) -> Vec<(&'a str, f64)> {
        x.iter()
            .filter(|(k, _)| !y.contains_key(*k))
            .map(|(k, v)| (*k, *v))
            .collect()
    }
    let (in_a, in_b) = (only(&amap, &bmap), only(&bmap, &amap));
    let (only_a, only_b) = (in_a.len(), in_b.len());
    let one_side = |side: &str, only: &[(&str, f64)], out: &mut String| {
        if only.is_empty() {
            return;
        }
        let shown = if top == 0 {
            only.len()
        } else {
            top.min(only.len())
        };
        let names: Vec<String> = only[..shown]
            .iter()
            .map(|(k, v)| format!("{k} = {}", show(*v)))
            .collect();
        let more = if shown < only.len() {
            format!(", … {} more", only.len() - shown)
        } else {
            String::new()
        };
        let _ = writeln!(out, "only in {side}: {}{more}", names.join(", "));
    };
    let only_lists = |out: &mut String| {
        one_side("A", &in_a, out);
        one_side("B", &in_b, out);
    };
    let mut out = format!(
        "A: {}\nB: {}\n{} stats differ, {} equal{}\n",
        a.display(),
        b.display(),
        rows.len(),
        equal,
        if only_a + only_b > 0 {
            format!(", {only_a} only in A, {only_b} only in B")
        } else {
            String::new()
        }
    );
    if rows.is_empty() {
        only_lists(&mut out);
        return Ok(out);
    }
    let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(4).max(4);
    let _ = writeln!(
        out,
        "{:<width$}  {:>14}  {:>14}  {:>14}  {:>9}",
        "stat", "A", "B", "B - A", "relative"
    );
    let shown = if top == 0 {
        rows.len()
    } else {
        top.min(rows.len())
    };
    for (k, va, vb, rel) in &rows[..shown] {
        let rel = if rel.is_finite() {
            format!("{:+.1}%", rel * 100.0)
        } else {
            "new".into()
        };
        let _ = writeln!(
            out,
            "{k:<width$}  {:>14}  {:>14}  {:>14}  {rel:>9}",
            show(*va),
            show(*vb),
            show(vb - va)
        );
    }
    if shown < rows.len() {
        let _ = writeln!(out, "… {} more (--top 0 shows all)", rows.len() - shown);
    }
    only_lists(&mut out);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes `v` to a temporary file named `name` and returns its path.
    fn file(name: &str, v: &serde_json::Value) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("gpusim-compare-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, v.to_string()).unwrap();
        p
    }

    /// A sweep result's shape: `summary.stalls` sorted by size, so the two
    /// runs list the reasons in different orders.
    fn result(stalls: serde_json::Value, channels: serde_json::Value) -> serde_json::Value {
        serde_json::json!({
            "job": 0,
            "summary": { "cycles": 100, "stalls": stalls },
            "stats": { "cycles": 100, "channels": channels },
        })
    }

    #[test]
    fn named_list_entries_pair_by_name_not_position() {
        let a = file(
            "a.json",
            &result(
                serde_json::json!([["barrier", 0.5], ["fetch", 0.25], ["waitcnt", 0.0]]),
                serde_json::json!([{ "channel": 0, "commands": 4 }]),
            ),
        );
        let b = file(
            "b.json",
            &result(
                serde_json::json!([["fetch", 0.5], ["barrier", 0.5], ["dependency", 0.1]]),
                serde_json::json!([{ "channel": 1, "commands": 2 }, { "channel": 0, "commands": 4 }]),
            ),
        );
        let t = compare(&a, &b, 0).unwrap();
        // barrier is equal on both sides; fetch doubled.
        assert!(
            t.lines().any(|l| l.starts_with("summary.stalls.fetch ")
                && l.contains("0.2500")
                && l.contains("0.5000")
                && l.contains("+100.0%")),
            "{t}"
        );
        assert!(!t.contains("summary.stalls.barrier "), "{t}");
        assert!(!t.contains("stalls.0"), "{t}");
        // Entries on one side only are named, with their values.
        assert!(t.contains("only in A: summary.stalls.waitcnt = 0"), "{t}");
        assert!(
            t.contains(
                "only in B: channels.channel=1.commands = 2, summary.stalls.dependency = 0.1000"
            ),
            "{t}"
        );
        // channel 0 has the same count in both: equal, not paired with channel 1.
        assert!(!t.contains("channels.channel=0"), "{t}");
        assert!(
            t.contains("1 stats differ, 4 equal, 1 only in A, 2 only in B"),
            "{t}"
        );
    }

    #[test]
    fn plain_sequences_still_compare_by_position() {
        let a = file(
            "p.json",
            &serde_json::json!({ "cus": [{ "valu": 1 }, { "valu": 2 }] }),
        );
        let b = file(
            "q.json",
            &serde_json::json!({ "cus": [{ "valu": 1 }, { "valu": 4 }] }),
        );
        let t = compare(&a, &b, 0).unwrap();
        assert!(
            t.lines()
                .any(|l| l.starts_with("cus.1.valu ") && l.contains("+100.0%")),
            "{t}"
        );
    }
}
