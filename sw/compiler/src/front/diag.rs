//! Source files, locations and the one diagnostic the front end reports.

use std::fmt;

/// A position in a source file: file index in the [`SourceMap`], 1-based line
/// and 1-based byte column (clang counts columns in bytes too).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Loc {
    /// Index of the file in the [`SourceMap`].
    pub file: u32,
    /// 1-based line.
    pub line: u32,
    /// 1-based byte column.
    pub col: u32,
}

/// One file read by the front end (the main file, an include, or a
/// synthetic buffer such as the `-D` definitions).
#[derive(Debug)]
pub struct SourceFile {
    /// The path as the user or the `#include` spelled it.
    pub path: String,
    /// The file's text.
    pub text: String,
    line_starts: Vec<u32>,
}

impl SourceFile {
    /// The text of 1-based line `line` without its newline ("" past the end).
    pub fn line_text(&self, line: u32) -> &str {
        let Some(&start) = self.line_starts.get(line.wrapping_sub(1) as usize) else {
            return "";
        };
        let rest = &self.text[start as usize..];
        let end = rest.find('\n').unwrap_or(rest.len());
        rest[..end].strip_suffix('\r').unwrap_or(&rest[..end])
    }
}

/// Every file the front end has read, so a [`Loc`] can be shown with its line.
#[derive(Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// Adds a file and returns its index.
    pub fn add(&mut self, path: &str, text: String) -> u32 {
        let mut line_starts = vec![0u32];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        self.files.push(SourceFile {
            path: path.to_string(),
            text,
            line_starts,
        });
        (self.files.len() - 1) as u32
    }

    /// The file at `index`.
    pub fn file(&self, index: u32) -> &SourceFile {
        &self.files[index as usize]
    }

    /// Turns an internal error into the user-facing diagnostic.
    pub fn diagnostic(&self, err: &Error) -> Diagnostic {
        match self.files.get(err.loc.file as usize) {
            Some(f) => Diagnostic {
                path: f.path.clone(),
                line: err.loc.line,
                col: err.loc.col,
                message: err.msg.clone(),
                source_line: f.line_text(err.loc.line).to_string(),
            },
            None => Diagnostic {
                path: "<command line>".into(),
                line: 1,
                col: 1,
                message: err.msg.clone(),
                source_line: String::new(),
            },
        }
    }
}

/// The front end's internal error: a location and a message. Every stage
/// stops at the first one (no recovery); [`SourceMap::diagnostic`] makes it
/// printable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Where the error is.
    pub loc: Loc,
    /// What is wrong, in clang's style (lower case, no final period).
    pub msg: String,
}

/// Result of every front-end stage.
pub type Result<T> = std::result::Result<T, Error>;

/// Builds an `Err` at `loc`.
pub fn err<T>(loc: Loc, msg: impl Into<String>) -> Result<T> {
    Err(Error {
        loc,
        msg: msg.into(),
    })
}

/// A front-end error as the user sees it. `Display` gives
/// `file:line:col: error: message`, then the source line and a caret under
/// the column (tabs in the line are kept so the caret lines up).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file's path as spelled on the command line or in the `#include`.
    pub path: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based byte column.
    pub col: u32,
    /// The message, without the `error: ` prefix.
    pub message: String,
    /// The full source line the error is on ("" when there is none).
    pub source_line: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}:{}:{}: error: {}",
            self.path, self.line, self.col, self.message
        )?;
        writeln!(f, "{}", self.source_line)?;
        // Spaces up to the column (tabs kept so the caret lines up), also
        // past the end of the line (an error at the end of input).
        let caret: String = self
            .source_line
            .bytes()
            .chain(std::iter::repeat(b' '))
            .take(self.col.saturating_sub(1) as usize)
            .map(|b| if b == b'\t' { '\t' } else { ' ' })
            .collect();
        write!(f, "{caret}^")
    }
}

impl std::error::Error for Diagnostic {}
