//! What a failed check reports: the first differing element of a buffer
//! and, for file checks, a listing with the error's size (a leaf shared by
//! the checks and the reference replays).

use std::fmt;
use std::path::PathBuf;

/// What a file check found beyond the first mismatch: the first few
/// mismatching elements, the error's size, and where the actual buffer went.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MismatchReport {
    /// Up to `check::MISMATCHES_LISTED` mismatching elements: index, expected, actual.
    pub first: Vec<(usize, String, String)>,
    /// Largest `|actual − expected|` over the compared elements (NaN pairs
    /// left out; `inf` when one side is infinite or NaN and the other not).
    pub max_error: f64,
    /// Mean `|actual − expected|` over the compared elements.
    pub mean_error: f64,
    /// Elements compared (after `range` and `mask`).
    pub compared: usize,
    /// The full actual buffer, written beside the expected file.
    pub actual_file: Option<PathBuf>,
}

impl fmt::Display for MismatchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "  {:>10}  {:>28}  {:>28}", "index", "expected", "actual")?;
        for (i, e, a) in &self.first {
            writeln!(f, "  {i:>10}  {e:>28}  {a:>28}")?;
        }
        write!(
            f,
            "  error over {} compared elements: max {:e}, mean {:e}",
            self.compared, self.max_error, self.mean_error
        )?;
        if let Some(p) = &self.actual_file {
            write!(f, "\n  actual buffer written to {}", p.display())?;
        }
        Ok(())
    }
}

/// The first differing element of a buffer.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// Buffer name.
    pub buffer: String,
    /// Element index.
    pub index: usize,
    /// Expected value, formatted.
    pub expected: String,
    /// Actual value, formatted.
    pub actual: String,
    /// How many elements of the buffer differ.
    pub differing: usize,
    /// File checks: the listing, the error statistics and the actual file.
    pub report: Option<MismatchReport>,
}
