//! Front end: OpenCL C 2.0 source → a typed AST.
//!
//! # Stages
//! 1. [`lexer`] — bytes → preprocessing tokens (identifiers, pp-numbers,
//!    character/string literals, punctuators), each with a [`Loc`]
//!    (file, line, byte column), symbols interned.
//! 2. [`pp`] — the preprocessor: `#include` (the including file's
//!    directory, then [`Options::include_dirs`]), object/function-like
//!    macros with `#`, `##`, `__VA_ARGS__` (Prosser hide sets: no runaway
//!    recursion), conditionals with constant expressions, `-D`
//!    ([`Options::defines`]), `#pragma unroll [N]` / `nounroll` /
//!    `OPENCL FP_CONTRACT` → pragma tokens, `_Pragma`. Tokens out of a macro
//!    body carry the location of the macro's use.
//! 3. [`parser`] — recursive descent to the untyped [`ast`] (a [`Loc`] on
//!    every node); typedef names tracked per scope; `#pragma unroll`
//!    attached to the next loop.
//! 4. [`sema`] — names, types, conversions, lvalues, address spaces,
//!    built-in overloads ([`builtins`]), struct layout ([`types`]), kernel
//!    signatures → the typed AST ([`tast`]).
//!
//! Every stage stops at the first error; [`compile_to_typed_ast`] turns it
//! into a [`Diagnostic`] (`file:line:col: error: message`, the line, a
//! caret). Nothing panics on bad input; nesting depth is bounded (a 2 MiB
//! stack suffices) and macro expansion is capped, so nothing hangs.
//!
//! # The typed AST (the interface for AST → IR lowering)
//! [`tast::TranslationUnit`] holds [`tast::Function`]s (helpers and
//! kernels, in source order), program-scope [`tast::Global`]s
//! (`__constant`/`__global`) and the struct layouts ([`types::Records`]).
//! Invariants the lowering may rely on:
//! - **Every expression has its type** ([`tast::Expr::ty`]) and a value
//!   category ([`tast::ValueCat`]): an lvalue carries the address space
//!   and qualifiers of the object (so a load/store knows which memory).
//!   An lvalue used as a value is read; there is no separate load node.
//!   Lvalue forms: `Var`, `Global`, `Deref`, `Member` (of an lvalue),
//!   `Swizzle` (of an lvalue).
//! - **Implicit conversions are explicit** [`tast::CastKind`] nodes: integer
//!   promotions, the usual arithmetic conversions, scalar → vector
//!   (`Splat`), `x != 0` tests (`ToBool`, `VecToBoolVec`), array decay
//!   (`ArrayToPointer`), null pointers (`IntToPtr`), generic-space pointers
//!   (`PtrToPtr`). Both operands of a `Binary` node have one type; shifts
//!   take the count in the left operand's type (OpenCL: modulo the width).
//! - `a[i]` and `p->m` are `Deref(PtrOffset(..))` / `Member(Deref(..))`;
//!   pointer arithmetic is `PtrOffset` in elements (a `long` index) and
//!   `PtrDiff`.
//! - **The conditional expression is its own node** ([`tast::ExprKind::Cond`])
//!   so the middle end can make it a `select` (seed 004): its condition is
//!   `bool` (scalar, short-circuit) or a `boolN` mask (component-wise, both
//!   arms evaluated); an integer-vector condition arrives wrapped in
//!   `MaskFromMsb` (OpenCL's rule), a scalar arm such as `0` splat.
//! - Conditions of `if`/loops are `bool`; `switch` values are promoted
//!   integers with the case values as bit patterns.
//! - **Built-ins** are [`tast::ExprKind::Builtin`] with a [`builtins::Builtin`]
//!   and converted operands; atomics are normalised (every flavour →
//!   `AtomicRmw`/`AtomicCmpxchg`/`AtomicCompareExchange`/`AtomicLoad`/
//!   `AtomicStore` with explicit integer-constant memory order and scope).
//!   `convert_T` is a numeric cast, `as_T` a `Bitcast`.
//! - **Calls** to user functions name a [`tast::FuncId`]; arguments are
//!   converted to the parameter types; recursion is rejected; every called
//!   function has a body.
//! - **Variables**: per function in [`tast::Function::vars`] (parameters
//!   first); `address_taken` tells which need memory; a kernel's `__local`
//!   variables are listed in [`tast::KernelInfo::local_vars`].
//! - **Kernels**: [`tast::KernelInfo`] has per argument the metadata the
//!   code object needs (name, `.type_name`, size, alignment, address
//!   space, `.value_kind`, const/volatile), and `reqd_work_group_size`.
//! - Struct layouts follow OpenCL: members at multiples of their
//!   alignment, a vector aligned to its size (3 components stored as 4),
//!   `size_t` 64-bit; pointers to `__local`/`__private` are 4 bytes, others 8.
//! - Each function records the `#pragma OPENCL FP_CONTRACT` state
//!   (default on); loops carry their `#pragma unroll` request.
//!
//! The language, the built-ins, the bool-vector extension and every choice
//! made where OpenCL is silent are in `docs/compiler.md`.
pub mod ast;
pub mod builtins;
pub mod diag;
pub mod lexer;
pub mod library;
pub mod parser;
pub mod pp;
pub mod sema;
pub mod tast;
pub mod types;

pub use diag::{Diagnostic, Loc, SourceMap};
use std::path::PathBuf;

/// Front-end options (the command line's `-D`, `-U`, `-I`, `-include`,
/// `-cl-single-precision-constant`). Build it with `..Default::default()`
/// so that new options do not break callers.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `-D NAME[=VALUE]`, in command-line order (None: the value 1).
    pub defines: Vec<(String, Option<String>)>,
    /// `-I DIR`, searched in order after the including file's directory.
    pub include_dirs: Vec<PathBuf>,
    /// `-U NAME`, applied after every `-D` (a predefined macro too).
    pub undefines: Vec<String>,
    /// `-include FILE`: included before the main file, in order (looked up
    /// from the current directory, then `-I`), as clang does.
    pub forced_includes: Vec<PathBuf>,
    /// `-cl-single-precision-constant`: unsuffixed floating literals are
    /// `float` instead of `double`.
    pub single_precision_constant: bool,
    /// Wave64 code (`-mwavefrontsize64`): `__AMDGCN_WAVEFRONT_SIZE` is 64.
    pub wave64: bool,
    /// `-cl-std=CLx.y` as a version number (120, 200, 300); `None`: clang's
    /// default, OpenCL C 1.2. Sets `__OPENCL_C_VERSION__` and the feature
    /// macros (`pp::version_macros`); the language accepted is the same.
    pub cl_std: Option<u32>,
    /// The device's OpenCL version for `__OPENCL_VERSION__` (an OpenCL
    /// runtime defines it; clang and `gpusim compile` do not).
    pub opencl_version: Option<u32>,
}

/// `-cl-std=` values clang accepts (`CL1.2`, `cl2.0`, `CL3.0`…) as the
/// version number of `__OPENCL_C_VERSION__`; `None` for anything else.
pub fn parse_cl_std(value: &str) -> Option<u32> {
    match value.to_ascii_uppercase().as_str() {
        "CL1.0" | "CL" => Some(100),
        "CL1.1" => Some(110),
        "CL1.2" => Some(120),
        "CL2.0" => Some(200),
        "CL3.0" => Some(300),
        _ => None,
    }
}

/// Preprocesses `text` (named `path` in messages) and returns the tokens'
/// spellings joined by spaces, one output line per source line that still
/// has tokens — for tests and `-E`-style debugging.
pub fn preprocess_to_string(path: &str, text: &str, opts: &Options) -> Result<String, Diagnostic> {
    let mut sm = SourceMap::default();
    let mut int = lexer::Interner::default();
    let toks = pp::preprocess(&mut sm, &mut int, path, text.to_string(), opts)
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
    let toks = pp::preprocess(&mut sm, &mut int, path, text.to_string(), opts)
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
pub fn compile_to_typed_ast(
    src: Source<'_>,
    opts: &Options,
) -> Result<tast::TranslationUnit, Diagnostic> {
    compile_to_typed_ast_with_sources(src, opts).map(|(tu, _)| tu)
}

/// [`compile_to_typed_ast`], also returning the source map, so that later
/// stages (the lowering) can report errors at a [`Loc`] the same way.
pub fn compile_to_typed_ast_with_sources(
    src: Source<'_>,
    opts: &Options,
) -> Result<(tast::TranslationUnit, SourceMap), Diagnostic> {
    let (name, text) = match src {
        Source::Path(p) => {
            let name = p.to_string_lossy().into_owned();
            match std::fs::read(p) {
                Ok(bytes) => (name, String::from_utf8_lossy(&bytes).into_owned()),
                Err(e) => {
                    return Err(Diagnostic {
                        path: name,
                        line: 1,
                        col: 1,
                        message: format!("cannot read file: {e}"),
                        source_line: String::new(),
                    })
                }
            }
        }
        Source::Text { name, text } => (name.to_string(), text.to_string()),
    };
    let mut sm = SourceMap::default();
    let mut int = lexer::Interner::default();
    let run =
        |sm: &mut SourceMap, int: &mut lexer::Interner| -> diag::Result<tast::TranslationUnit> {
            let toks = pp::preprocess(sm, int, &name, text, opts)?;
            let items = parser::parse(toks, int)?;
            sema::analyze_with(&items, int, opts.single_precision_constant)
        };
    match run(&mut sm, &mut int) {
        Ok(tu) => Ok((tu, sm)),
        Err(e) => Err(sm.diagnostic(&e)),
    }
}
