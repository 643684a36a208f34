//! Front end: preprocessor, lexer, parser, semantic analysis (typed AST).
pub mod diag;
pub mod lexer;
pub mod ast;
pub mod builtins;
pub mod parser;
pub mod pp;
pub mod sema;
pub mod tast;
pub mod types;

pub use diag::{Diagnostic, Loc, SourceMap};
use std::path::PathBuf;

/// Front-end options (the command line's `-D` and `-I`).
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `-D NAME[=VALUE]`, in command-line order (None: the value 1).
    pub defines: Vec<(String, Option<String>)>,
    /// `-I DIR`, searched in order after the including file's directory.
    pub include_dirs: Vec<PathBuf>,
}

/// Preprocesses `text` (named `path` in messages) and returns the tokens'
/// spellings joined by spaces, one output line per source line that still
/// has tokens — for tests and `-E`-style debugging.
pub fn preprocess_to_string(path: &str, text: &str, opts: &Options) -> Result<String, Diagnostic> {
    let mut sm = SourceMap::default();
    let mut int = lexer::Interner::default();
    let toks = pp::preprocess(&mut sm, &mut int, path, text.to_string(), &opts.defines, &opts.include_dirs)
        .map_err(|e| sm.diagnostic(&e))?;
    let mut out = String::new();
    let mut last: Option<Loc> = None;
    for t in &toks {
        if t.tok == lexer::Tok::Eof {
            break;
        }
        let s = match t.tok {
            lexer::Tok::Pragma(p) => format!("<{p:?}>"),
            _ => lexer::spelling(&t.tok, &int),
        };
        if let Some(l) = last {
            if l.line != t.loc.line || l.file != t.loc.file {
                out.push('\n');
            } else {
                out.push(' ');
            }
        }
        out.push_str(&s);
        last = Some(t.loc);
    }
    Ok(out)
}

/// Preprocesses and parses source text into the untyped AST (no semantic
/// checks): for tests of the parser alone.
pub fn parse_text(path: &str, text: &str, opts: &Options) -> Result<Vec<ast::Item>, Diagnostic> {
    let mut sm = SourceMap::default();
    let mut int = lexer::Interner::default();
    let toks = pp::preprocess(&mut sm, &mut int, path, text.to_string(), &opts.defines, &opts.include_dirs)
        .map_err(|e| sm.diagnostic(&e))?;
    parser::parse(toks, &mut int).map_err(|e| sm.diagnostic(&e))
}

/// Where the source comes from.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// A file on disk (its directory is searched first for `#include "…"`).
    Path(&'a std::path::Path),
    /// Text in memory, named `name` in messages (`#include "…"` is looked up
    /// relative to `name`'s directory, then `-I`).
    Text {
        /// The name used in diagnostics.
        name: &'a str,
        /// The source text.
        text: &'a str,
    },
}

/// The front end's public entry: preprocess, parse and check `src`; the
/// typed AST on success, the first error otherwise (never a panic).
pub fn compile_to_typed_ast(src: Source<'_>, opts: &Options) -> Result<tast::TranslationUnit, Diagnostic> {
    let (name, text) = match src {
        Source::Path(p) => {
            let name = p.to_string_lossy().into_owned();
            match std::fs::read(p) {
                Ok(bytes) => (name, String::from_utf8_lossy(&bytes).into_owned()),
                Err(e) => {
                    return Err(Diagnostic { path: name, line: 1, col: 1, message: format!("cannot read file: {e}"), source_line: String::new() })
                }
            }
        }
        Source::Text { name, text } => (name.to_string(), text.to_string()),
    };
    let mut sm = SourceMap::default();
    let mut int = lexer::Interner::default();
    let run = |sm: &mut SourceMap, int: &mut lexer::Interner| -> diag::Result<tast::TranslationUnit> {
        let toks = pp::preprocess(sm, int, &name, text, &opts.defines, &opts.include_dirs)?;
        let items = parser::parse(toks, int)?;
        sema::analyze(&items, int)
    };
    run(&mut sm, &mut int).map_err(|e| sm.diagnostic(&e))
}
