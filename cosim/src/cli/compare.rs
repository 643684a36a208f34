//! `gpusim compare A.json B.json`: the differences between two runs' stats,
//! largest relative change first.

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

/// Numeric leaves as `(dotted path, value)`.
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
        serde_json::Value::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                flatten(&join(&i.to_string()), v, out);
            }
        }
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
    let bmap: std::collections::BTreeMap<&str, f64> =
        fb.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    let amap: std::collections::BTreeMap<&str, f64> =
        fa.iter().map(|(k, v)| (k.as_str(), *v)).collect();
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
    let only_a = amap.keys().filter(|k| !bmap.contains_key(*k)).count();
    let only_b = bmap.keys().filter(|k| !amap.contains_key(*k)).count();
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
    Ok(out)
}
