//! The sweep file (`docs/sweeps.md`): workloads, a grid or list of
//! configuration overrides by field path, the model and the stats to keep.
//! Parsing resolves every point to a full [`GpuConfig`] up front, so a bad
//! field path or value is reported as `file:line:col` before anything runs.

use std::path::{Path, PathBuf};

use hw::GpuConfig;
use serde::Deserialize;
use serde_norway::{Mapping, Value};

use crate::model::Model;

/// A sweep file as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SweepFile {
    name: Option<String>,
    workloads: Vec<String>,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    config: Option<String>,
    #[serde(default)]
    grid: Option<Mapping>,
    #[serde(default)]
    points: Option<Vec<Mapping>>,
    #[serde(default)]
    stats: Vec<String>,
    #[serde(default)]
    watchdog: Option<u64>,
    #[serde(default)]
    wave_watchdog: Option<u64>,
    #[serde(default)]
    timeline: bool,
    #[serde(default)]
    baseline: usize,
}

/// One configuration point: its overrides (field path, value) in the order
/// the sweep file gives them, and the configuration they make.
#[derive(Clone, Debug)]
pub struct Point {
    /// Index in the sweep (grid order: the first key varies slowest).
    pub index: usize,
    /// `(field path, value)` pairs applied to the base configuration.
    pub overrides: Vec<(String, serde_json::Value)>,
    /// The full configuration.
    pub config: GpuConfig,
}

impl Point {
    /// The compiler options this point adds to every `source:` kernel of
    /// its workloads: `defines.NAME: V` is `-DNAME=V`, `options: "…"` its
    /// words (docs/sweeps.md "Compiler options").
    pub fn compile_options(&self) -> Vec<String> {
        let mut words = Vec::new();
        for (path, v) in &self.overrides {
            let text = match v {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Bool(b) => u8::from(*b).to_string(),
                other => other.to_string(),
            };
            if let Some(name) = path.strip_prefix(DEFINES) {
                words.push(format!("-D{name}={text}"));
            } else if path == OPTIONS {
                words.extend(text.split_whitespace().map(str::to_string));
            }
        }
        words
    }
}

/// The prefix of a swept preprocessor macro (`defines.TILE`).
pub const DEFINES: &str = "defines.";
/// The swept compiler-options key.
pub const OPTIONS: &str = "options";

/// Whether a swept key is a compiler option rather than a configuration
/// field path.
pub fn is_compile_key(key: &str) -> bool {
    key == OPTIONS || key.strip_prefix(DEFINES).is_some_and(|n| !n.is_empty())
}

/// A parsed, validated sweep.
#[derive(Clone, Debug)]
pub struct Sweep {
    /// The sweep file.
    pub file: PathBuf,
    /// Its name (`name:`, default the file stem).
    pub name: String,
    /// Workload files as written and as resolved (relative to the sweep file).
    pub workloads: Vec<(String, PathBuf)>,
    /// The model (cycle or lockstep).
    pub model: Model,
    /// The swept field paths, in order (grid keys, or every key of `points`).
    pub parameters: Vec<String>,
    /// Every configuration point.
    pub points: Vec<Point>,
    /// Stats paths kept as CSV columns (`cycles`, `summary.l2_hit_rate`, ...).
    pub stats: Vec<String>,
    /// Cycle watchdog per run call.
    pub watchdog: Option<u64>,
    /// Per-wave watchdog: cycles one wave may stay resident.
    pub wave_watchdog: Option<u64>,
    /// Write a timeline per job.
    pub timeline: bool,
    /// The point speed-ups are relative to.
    pub baseline: usize,
}

/// A job: one workload on one point. Job `j` is point `j / workloads`,
/// workload `j % workloads`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// Job index.
    pub index: usize,
    /// Point index.
    pub point: usize,
    /// Workload index.
    pub workload: usize,
}

impl Sweep {
    /// Number of jobs (points × workloads).
    pub fn jobs(&self) -> usize {
        self.points.len() * self.workloads.len()
    }

    /// Job `index`.
    pub fn job(&self, index: usize) -> Job {
        let n = self.workloads.len().max(1);
        Job {
            index,
            point: index / n,
            workload: index % n,
        }
    }

    /// Loads and validates `path`.
    pub fn load(path: &Path) -> Result<Sweep, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Sweep::parse(&text, path)
    }

    /// Parses and validates a sweep file's text (`path` names it in errors and
    /// anchors relative paths).
    pub fn parse(text: &str, path: &Path) -> Result<Sweep, String> {
        let file = path.display().to_string();
        let at = |pos: Option<(usize, usize)>, msg: String| match pos {
            Some((l, c)) => format!("{file}:{l}:{c}: {msg}"),
            None => format!("{file}: {msg}"),
        };
        let raw: SweepFile = serde_norway::from_str(text).map_err(|e| {
            let pos = e.location().map(|l| (l.line(), l.column()));
            let msg = e.to_string();
            at(pos, msg.split(" at line ").next().unwrap_or("").to_string())
        })?;
        let dir = path.parent().unwrap_or(Path::new("."));
        let resolve = |p: &str| {
            let p = Path::new(p);
            if p.is_absolute() {
                p.to_path_buf()
            } else {
                dir.join(p)
            }
        };
        if raw.workloads.is_empty() {
            return Err(at(locate_key(text, "workloads", 0), "no workloads".into()));
        }
        let workloads: Vec<(String, PathBuf)> = raw
            .workloads
            .iter()
            .map(|w| (w.clone(), resolve(w)))
            .collect();
        let model = match raw.model.as_deref().unwrap_or("cycle") {
            "cycle" => Model::Cycle,
            "lockstep" => Model::Lockstep,
            other => {
                return Err(at(
                    locate_key(text, "model", 0),
                    format!("model: `{other}` is not swept (cycle or lockstep: a configuration point is a clocked GPU)"),
                ))
            }
        };
        let base = match &raw.config {
            None => GpuConfig::default_config(),
            Some(c) => {
                let p = resolve(c);
                let t = std::fs::read_to_string(&p).map_err(|e| {
                    at(
                        locate_key(text, "config", 0),
                        format!("config: {}: {e}", p.display()),
                    )
                })?;
                GpuConfig::from_yaml(&t, &p.display().to_string()).map_err(|e| e.to_string())?
            }
        };
        let base_value = serde_norway::to_value(&base).map_err(|e| e.to_string())?;
        // The point lists: (path, value, where the key is written).
        let mut parameters: Vec<String> = Vec::new();
        let mut lists: Vec<Vec<Vec<(String, Value)>>> = Vec::new();
        if raw.grid.is_some() && raw.points.is_some() {
            return Err(at(
                locate_key(text, "points", 0),
                "give either `grid` (a product) or `points` (a list), not both".into(),
            ));
        }
        if let Some(grid) = &raw.grid {
            let mut product: Vec<Vec<(String, Value)>> = vec![Vec::new()];
            for (k, v) in grid {
                let key = key_text(k).ok_or_else(|| {
                    at(
                        locate_key(text, "grid", 0),
                        "grid keys are field paths".into(),
                    )
                })?;
                let pos = locate_key(text, &key, locate_key(text, "grid", 0).map_or(0, |p| p.0));
                let values = match v {
                    Value::Sequence(s) if !s.is_empty() => s.clone(),
                    Value::Sequence(_) => return Err(at(pos, format!("grid: {key}: no values"))),
                    other => vec![other.clone()],
                };
                if !is_compile_key(&key) {
                    check_path(&base_value, &key).map_err(|m| at(pos, m))?;
                }
                parameters.push(key.clone());
                product = product
                    .into_iter()
                    .flat_map(|prefix| {
                        let key = &key;
                        values.iter().map(move |value| {
                            let mut p = prefix.clone();
                            p.push((key.clone(), value.clone()));
                            p
                        })
                    })
                    .collect();
            }
            lists.push(product);
        }
        if let Some(points) = &raw.points {
            let from = locate_key(text, "points", 0).map_or(0, |p| p.0);
            let mut list = Vec::new();
            for m in points {
                let mut p = Vec::new();
                for (k, v) in m {
                    let key = key_text(k)
                        .ok_or_else(|| at(Some((from, 1)), "point keys are field paths".into()))?;
                    if !is_compile_key(&key) {
                        check_path(&base_value, &key)
                            .map_err(|e| at(locate_key(text, &key, from), e))?;
                    }
                    if !parameters.contains(&key) {
                        parameters.push(key.clone());
                    }
                    p.push((key, v.clone()));
                }
                list.push(p);
            }
            lists.push(list);
        }
        let combos = lists.pop().unwrap_or_else(|| vec![Vec::new()]);
        let grid_line = locate_key(text, "grid", 0)
            .or_else(|| locate_key(text, "points", 0))
            .map_or(0, |p| p.0);
        let mut points = Vec::with_capacity(combos.len());
        for (index, overrides) in combos.into_iter().enumerate() {
            let mut value = base_value.clone();
            let mut json = Vec::new();
            for (path, v) in &overrides {
                let v = sized(v);
                if !is_compile_key(path) {
                    set_path(&mut value, path, v.clone());
                }
                json.push((
                    path.clone(),
                    serde_json::to_value(&v).map_err(|e| e.to_string())?,
                ));
            }
            let describe = || {
                json.iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let config: GpuConfig = serde_norway::from_value(value).map_err(|e| {
                let field = e.to_string();
                // The culprit is the override that fails on its own.
                let pos = overrides
                    .iter()
                    .find(|(k, v)| {
                        if is_compile_key(k) {
                            return false;
                        }
                        let mut alone = base_value.clone();
                        set_path(&mut alone, k, sized(v));
                        serde_norway::from_value::<GpuConfig>(alone).is_err()
                    })
                    .and_then(|(k, _)| locate_key(text, k, grid_line));
                at(pos, format!("point {index} ({}): {field}", describe()))
            })?;
            config.validate().map_err(|e| {
                let pos = e
                    .field
                    .as_deref()
                    .and_then(|f| locate_key(text, f, grid_line));
                at(pos, format!("point {index} ({}): {e}", describe()))
            })?;
            points.push(Point {
                index,
                overrides: json,
                config,
            });
        }
        let stats = raw.stats.clone();
        let probe = super::result::stats_shape();
        for s in &stats {
            if !super::result::has_path(&probe, s) {
                return Err(at(
                    locate_key(text, "stats", 0),
                    format!("stats: unknown stat `{s}` (a dotted path into the result's `stats` or `summary`, see docs/sweeps.md)"),
                ));
            }
        }
        if raw.baseline >= points.len() {
            return Err(at(
                locate_key(text, "baseline", 0),
                format!(
                    "baseline: point {} does not exist ({} points)",
                    raw.baseline,
                    points.len()
                ),
            ));
        }
        let name = raw.name.clone().unwrap_or_else(|| {
            path.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "sweep".into())
        });
        Ok(Sweep {
            file: path.to_path_buf(),
            name,
            workloads,
            model,
            parameters,
            points,
            stats,
            watchdog: raw.watchdog,
            wave_watchdog: raw.wave_watchdog,
            timeline: raw.timeline,
            baseline: raw.baseline,
        })
    }
}

/// A mapping key as a string (field paths are strings; `cus` may be read as one).
fn key_text(k: &Value) -> Option<String> {
    match k {
        Value::String(s) => Some(s.clone()),
        _ => None,
    }
}

/// `1MiB`, `64KiB`, `2GiB` as byte counts; other values unchanged.
fn sized(v: &Value) -> Value {
    if let Value::String(s) = v {
        for (suffix, scale) in [("KiB", 1u64 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30)] {
            if let Some(n) = s
                .strip_suffix(suffix)
                .and_then(|n| n.trim().parse::<u64>().ok())
            {
                return Value::Number((n * scale).into());
            }
        }
    }
    v.clone()
}

/// Checks that `path` names a leaf field of the configuration.
fn check_path(config: &Value, path: &str) -> Result<(), String> {
    let mut here = config;
    let mut walked = String::new();
    for part in path.split('.') {
        let Value::Mapping(m) = here else {
            return Err(format!(
                "unknown field path `{path}`: `{walked}` is a value, not a section"
            ));
        };
        match m.get(part) {
            Some(v) => here = v,
            None => {
                let known: Vec<String> = m.keys().filter_map(key_text).collect();
                let section = if walked.is_empty() {
                    "the configuration"
                } else {
                    &walked
                };
                return Err(format!(
                    "unknown field path `{path}`: {section} has no field `{part}` (it has: {})",
                    known.join(", ")
                ));
            }
        }
        if !walked.is_empty() {
            walked.push('.');
        }
        walked.push_str(part);
    }
    if matches!(here, Value::Mapping(_)) {
        return Err(format!(
            "field path `{path}` is a section; name one of its fields"
        ));
    }
    Ok(())
}

/// Sets the leaf at `path` (checked by [`check_path`]).
fn set_path(config: &mut Value, path: &str, value: Value) {
    let mut here = config;
    for part in path.split('.') {
        let Value::Mapping(m) = here else { return };
        let Some(next) = m.get_mut(part) else { return };
        here = next;
    }
    *here = value;
}

/// 1-based line and column of the first line at or after line `from` whose
/// key is `key` (`key:` or `"key":` after indentation or a `- `).
pub(crate) fn locate_key(text: &str, key: &str, from: usize) -> Option<(usize, usize)> {
    for (n, line) in text.lines().enumerate().skip(from.saturating_sub(1)) {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let (body, extra) = match trimmed.strip_prefix("- ") {
            Some(b) => (b.trim_start(), trimmed.len() - b.trim_start().len()),
            None => (trimmed, 0),
        };
        // Flow mappings (`- {cus: 2, cu.scheduler: greedy}`) put keys mid-line.
        for (offset, _) in body.match_indices(key) {
            let before = body[..offset].chars().last();
            let rest = body[offset + key.len()..].trim_start_matches('"');
            let starts = matches!(before, None | Some('{' | ' ' | ',' | '"'));
            if starts && rest.trim_start().starts_with(':') {
                return Some((n + 1, indent + extra + offset + 1));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grid_expands_first_key_slowest_with_sizes() {
        let text = "workloads: [a.yaml]\ngrid:\n  memory.l2.size_bytes: [1MiB, 4MiB]\n  cus: [1, 2, 4]\nstats: [cycles]\n";
        let s = Sweep::parse(text, Path::new("s.yaml")).unwrap();
        assert_eq!(s.points.len(), 6);
        assert_eq!(s.points[0].config.memory.l2.size_bytes, 1 << 20);
        assert_eq!(s.points[0].config.cus, 1);
        assert_eq!(s.points[2].config.cus, 4);
        assert_eq!(s.points[3].config.memory.l2.size_bytes, 4 << 20);
        assert_eq!(s.parameters, ["memory.l2.size_bytes", "cus"]);
    }

    #[test]
    fn an_unknown_field_path_is_named_with_its_line_and_column() {
        let text = "workloads: [a.yaml]\ngrid:\n  cus: [1]\n  memory.l3.size_bytes: [1MiB]\n";
        let e = Sweep::parse(text, Path::new("s.yaml")).unwrap_err();
        assert!(
            e.starts_with("s.yaml:4:3: unknown field path `memory.l3.size_bytes`"),
            "{e}"
        );
        assert!(e.contains("has no field `l3`"), "{e}");
    }

    #[test]
    fn a_bad_value_names_the_point_and_the_line() {
        let text = "workloads: [a.yaml]\ngrid:\n  cus: [1, 999]\n";
        let e = Sweep::parse(text, Path::new("s.yaml")).unwrap_err();
        assert!(e.starts_with("s.yaml:3:3: point 1 (cus=999)"), "{e}");
    }

    #[test]
    fn compiler_options_are_swept_beside_configuration_fields() {
        let text = "workloads: [a.yaml]\ngrid:\n  defines.TILE: [4, 16]\n  options: [\"-O0\", \"-O2 -cl-fast-relaxed-math\"]\n  cus: [2]\n";
        let s = Sweep::parse(text, Path::new("s.yaml")).unwrap();
        assert_eq!(s.points.len(), 4);
        assert_eq!(
            s.points[3].compile_options(),
            ["-DTILE=16", "-O2", "-cl-fast-relaxed-math"]
        );
        assert_eq!(s.points[0].compile_options(), ["-DTILE=4", "-O0"]);
        assert_eq!(s.points[0].config.cus, 2);
        // `defines.` alone names no macro: it is a (wrong) field path.
        let e = Sweep::parse(
            "workloads: [a.yaml]\ngrid:\n  defines.: [1]\n",
            Path::new("s.yaml"),
        );
        assert!(e.is_err());
    }

    #[test]
    fn an_unknown_stat_is_an_error() {
        let text = "workloads: [a.yaml]\nstats: [cycles, summary.nonsense]\n";
        let e = Sweep::parse(text, Path::new("s.yaml")).unwrap_err();
        assert!(
            e.starts_with("s.yaml:2:1: stats: unknown stat `summary.nonsense`"),
            "{e}"
        );
    }
}
