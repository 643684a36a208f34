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

    /// Where the code object written as `written` in a workload in `dir` is:
    /// an absolute path as is; a relative one next to the workload, else in
    /// the first search directory holding it. Not found anywhere: an error
    /// listing every place looked at (without search directories, the path
    /// next to the workload, whose read reports the missing file).
    pub fn resolve(&self, dir: &Path, written: &Path) -> Result<PathBuf, String> {
        let local = dir.join(written);
        if written.is_absolute() || self.dirs.is_empty() || local.exists() {
            return Ok(local);
        }
        if let Some(found) = self
            .dirs
            .iter()
            .map(|d| d.join(written))
            .find(|p| p.exists())
        {
            return Ok(found);
        }
        let looked: Vec<String> = std::iter::once(local)
            .chain(self.dirs.iter().map(|d| d.join(written)))
            .map(|p| p.display().to_string())
            .collect();
        Err(format!(
            "code object `{}` not found (looked at: {}; the search path is --path, then {SEARCH_PATH_VAR})",
            written.display(),
            looked.join(", ")
        ))
    }
}
