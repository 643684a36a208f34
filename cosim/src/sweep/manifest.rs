//! The output directory's description of its sweep (`sweep.json`) and the
//! full configuration of every point (`configs/point-NNNN.yaml`, usable as
//! `gpusim run --config` to rerun one point by hand). `gpusim collect` reads
//! only this directory, so results gathered from a cluster need no sweep file.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::spec::Sweep;

/// `sweep.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// The sweep's name.
    pub name: String,
    /// The model.
    pub model: String,
    /// Workloads as the sweep file names them.
    pub workloads: Vec<String>,
    /// Swept field paths.
    pub parameters: Vec<String>,
    /// Every point's overrides.
    pub points: Vec<serde_json::Map<String, serde_json::Value>>,
    /// The stats kept as CSV columns.
    pub stats: Vec<String>,
    /// The baseline point of speed-ups.
    pub baseline: usize,
    /// Jobs (points × workloads); job `j` is point `j / workloads`.
    pub jobs: usize,
}

impl Manifest {
    /// The manifest of `sweep`.
    pub fn of(sweep: &Sweep) -> Manifest {
        Manifest {
            name: sweep.name.clone(),
            model: sweep.model.to_string(),
            workloads: sweep.workloads.iter().map(|w| w.0.clone()).collect(),
            parameters: sweep.parameters.clone(),
            points: sweep
                .points
                .iter()
                .map(|p| p.overrides.iter().cloned().collect())
                .collect(),
            stats: sweep.stats.clone(),
            baseline: sweep.baseline,
            jobs: sweep.jobs(),
        }
    }

    /// Reads `DIR/sweep.json`.
    pub fn load(dir: &Path) -> Result<Manifest, String> {
        let path = path(dir);
        let bytes = std::fs::read(&path).map_err(|e| {
            format!(
                "{}: {e} (not a sweep output directory: `gpusim sweep` writes it)",
                path.display()
            )
        })?;
        serde_json::from_slice(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }
}

fn path(dir: &Path) -> PathBuf {
    dir.join("sweep.json")
}

/// Makes `out` ready for `sweep`'s jobs: the directories, the manifest and the
/// point configurations. A directory holding another sweep's results (the
/// sweep file changed) is refused rather than mixed.
pub fn prepare(sweep: &Sweep, out: &Path) -> Result<(), String> {
    let manifest = Manifest::of(sweep);
    if let Ok(existing) = Manifest::load(out) {
        if existing != manifest {
            return Err(format!(
                "{} holds the results of a different sweep (the sweep file changed since): \
                 give another --out or remove it",
                out.display()
            ));
        }
    }
    for d in ["results", "logs", "configs"] {
        let d = out.join(d);
        std::fs::create_dir_all(&d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    for p in &sweep.points {
        let yaml = serde_norway::to_string(&p.config).map_err(|e| e.to_string())?;
        let path = out
            .join("configs")
            .join(format!("point-{:04}.yaml", p.index));
        let text = format!(
            "# {} point {}: {}\n{yaml}",
            sweep.name,
            p.index,
            p.overrides
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        super::result::write_atomically(&path, text.as_bytes())?;
    }
    let json = serde_json::to_vec_pretty(&manifest).map_err(|e| e.to_string())?;
    super::result::write_atomically(&path(out), &json)
}
