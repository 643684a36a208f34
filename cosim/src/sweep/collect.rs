//! `gpusim collect DIR`: gathers a sweep's result files (run locally or on a
//! cluster) into one CSV, a row per point × workload with the sweep's
//! parameters and chosen stats as columns (`super::collect` also draws the
//! plots from it).

use std::fmt::Write as _;
use std::path::Path;

use super::manifest::Manifest;
use super::result::{self, JobResult};

/// A sweep's results as found in its directory.
pub struct Collected {
    /// The sweep.
    pub manifest: Manifest,
    /// By job: its result, if there is one.
    pub results: Vec<Option<JobResult>>,
}

impl Collected {
    /// Reads `dir`.
    pub fn load(dir: &Path) -> Result<Collected, String> {
        let manifest = Manifest::load(dir)?;
        let results = (0..manifest.jobs)
            .map(|j| result::read_result(&result::result_path(dir, j)))
            .collect::<Result<_, _>>()?;
        Ok(Collected { manifest, results })
    }

    /// Result of point `p`, workload `w`.
    pub fn get(&self, p: usize, w: usize) -> Option<&JobResult> {
        let n = self.manifest.workloads.len();
        self.results.get(p * n + w).and_then(Option::as_ref)
    }

    /// A numeric stat of point `p`, workload `w` (only from jobs that passed:
    /// a partial or failed run's figures would mislead a plot).
    pub fn number(&self, p: usize, w: usize, stat: &str) -> Option<f64> {
        let r = self.get(p, w).filter(|r| !r.status.failed())?;
        result::stat(r, stat)?.as_f64()
    }

    /// The CSV text.
    pub fn csv(&self) -> String {
        let m = &self.manifest;
        let mut header: Vec<String> =
            ["job", "point", "workload", "status", "exit_code", "partial"]
                .iter()
                .map(|s| s.to_string())
                .collect();
        header.extend(m.parameters.iter().cloned());
        header.extend(m.stats.iter().cloned());
        let mut out = String::new();
        push_row(&mut out, &header);
        for (j, r) in self.results.iter().enumerate() {
            let n = m.workloads.len().max(1);
            let (p, w) = (j / n, j % n);
            let mut row = vec![j.to_string(), p.to_string(), m.workloads[w].clone()];
            match r {
                None => row.extend(["missing".into(), String::new(), String::new()]),
                Some(r) => row.extend([
                    r.status.name().to_string(),
                    r.exit_code.to_string(),
                    r.partial.to_string(),
                ]),
            }
            for param in &m.parameters {
                row.push(m.points[p].get(param).map(cell).unwrap_or_default());
            }
            for s in &m.stats {
                let v = r.as_ref().and_then(|r| result::stat(r, s));
                row.push(v.as_ref().map(cell).unwrap_or_default());
            }
            push_row(&mut out, &row);
        }
        out
    }
}

/// A JSON scalar as a CSV cell (strings unquoted, null empty).
fn cell(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Null => String::new(),
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Appends one CSV row (RFC 4180 quoting).
fn push_row(out: &mut String, cells: &[String]) {
    for (i, c) in cells.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        if c.contains([',', '"', '\n']) {
            let _ = write!(out, "\"{}\"", c.replace('"', "\"\""));
        } else {
            out.push_str(c);
        }
    }
    out.push('\n');
}
