//! The code object search path: where a relative `code_object:` path is
//! looked for when it is not next to the workload file (`--path DIR`,
//! repeatable, then the directories of `GPUSIM_PATH`).

use std::path::{Path, PathBuf};

/// The environment variable holding extra code object directories
/// (separated like `PATH`: `:` on Unix).
pub const SEARCH_PATH_VAR: &str = "GPUSIM_PATH";

/// Directories searched, in order, after the workload file's own.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchPath {
    /// The directories.
    pub dirs: Vec<PathBuf>,
}

impl SearchPath {
    /// The directories of `GPUSIM_PATH` (none when it is unset or empty).
    pub fn from_env() -> SearchPath {
        SearchPath {
            dirs: std::env::var_os(SEARCH_PATH_VAR)
                .map(|v| {
                    std::env::split_paths(&v)
                        .filter(|d| !d.as_os_str().is_empty())
                        .collect()
                })
                .unwrap_or_default(),
        }
    }

    /// `dirs` (e.g. `--path`) first, then this path's.
    pub fn with_first(&self, dirs: &[PathBuf]) -> SearchPath {
        SearchPath {
            dirs: dirs.iter().chain(&self.dirs).cloned().collect(),
        }
    }

    /// Where the file `field` (`code_object`, `source`) written as `written`
    /// in a workload in `dir` is: an absolute path as is; a relative one next
    /// to the workload, else in the first search directory holding it. Not
    /// found anywhere: an error naming the field and listing every place
    /// looked at.
    pub fn resolve(&self, dir: &Path, written: &Path, field: &str) -> Result<PathBuf, String> {
        let local = dir.join(written);
        // Without search directories (or for an absolute path) there is one
        // place only: a missing file is reported when it is read, by
        // `Workload::prepare` (a parsed workload need not have its files).
        if written.is_absolute() || self.dirs.is_empty() || local.exists() {
            return Ok(local);
        }
        let searched: Vec<PathBuf> = self.dirs.iter().map(|d| d.join(written)).collect();
        if let Some(found) = searched.iter().find(|p| p.exists()) {
            return Ok(found.clone());
        }
        let looked: Vec<String> = std::iter::once(&local)
            .chain(&searched)
            .map(|p| p.display().to_string())
            .collect();
        let path_note = format!("the search path is --path, then {SEARCH_PATH_VAR}");
        Err(format!(
            "`{field}: {}`: not found (looked at: {}; {path_note})",
            written.display(),
            looked.join(", ")
        ))
    }
}
