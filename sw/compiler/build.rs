//! Build script: prepares the device library (`lib/*.cl`) once, at cargo
//! build time, so that a kernel compile pays only for the library functions
//! it calls.
//!
//! It runs the compiler's own preprocessor (the very source files of
//! `src/front/{diag,lexer,pp}`, compiled into this script) over the library,
//! splits the token stream into its top-level items (function definitions
//! and prototypes), finds which library functions each item names, and
//! writes `$OUT_DIR/library_items.rs`: the items' preprocessed text in
//! source order and the call graph. `src/front/library/mod.rs` then parses
//! and checks, per function a kernel calls, only that function and its
//! callees (see docs/compiler.md, "Built-in library").

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

/// The compiler's preprocessor and what it needs, shared with the library
/// crate by path (the same code, so the library is preprocessed exactly as
/// a kernel would be).
#[path = "src/front"]
#[allow(dead_code, unused_imports)]
mod front {
    pub mod diag;
    pub mod lexer;
    pub mod pp;

    /// The preprocessor's options (the fields of the compiler's
    /// `front::Options` that it reads).
    #[derive(Default)]
    pub struct Options {
        pub defines: Vec<(String, Option<String>)>,
        pub include_dirs: Vec<std::path::PathBuf>,
        pub undefines: Vec<String>,
        pub forced_includes: Vec<std::path::PathBuf>,
        pub wave64: bool,
        pub cl_std: Option<u32>,
        pub opencl_version: Option<u32>,
    }
}

use front::lexer::{spelling, Interner, Punct, Tok};

/// The library's files, in the order they are concatenated (a file may call
/// functions of the files before it).
const SOURCES: &[&str] = &[
    "lib/common.cl",
    "lib/rounding.cl",
    "lib/exp_log.cl",
    "lib/pow.cl",
    "lib/trig.cl",
    "lib/native.cl",
    "lib/special.cl",
    "lib/relational.cl",
    "lib/geometric.cl",
    "lib/integer.cl",
    "lib/subgroup.cl",
    "lib/workgroup.cl",
    "lib/half.cl",
    "lib/async_copy.cl",
    "lib/f64_common.cl",
    "lib/f64_exp_log.cl",
    "lib/f64_trig.cl",
    "lib/f64_special.cl",
    "lib/f64_relational.cl",
    "lib/half_math.cl",
    "lib/atomics.cl",
];

/// One top-level item: the function it defines or declares, its text, the
/// library functions it names, and whether it has a body.
struct Item {
    name: String,
    text: String,
    refs: Vec<String>,
    body: bool,
}

fn main() {
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    println!("cargo::rerun-if-changed=build.rs");
    for f in ["src/front/diag.rs", "src/front/lexer.rs", "src/front/pp"] {
        println!("cargo::rerun-if-changed={f}");
    }
    let mut src = String::new();
    for f in SOURCES {
        println!("cargo::rerun-if-changed={f}");
        let text = std::fs::read_to_string(dir.join(f))
            .unwrap_or_else(|e| panic!("cannot read the device library's {f}: {e}"));
        src.push_str(&text);
        src.push('\n');
    }
    let mut sm = front::diag::SourceMap::default();
    let mut int = Interner::default();
    let opts = front::Options::default();
    let toks = match front::pp::preprocess(&mut sm, &mut int, "<gpusim device library>", src, &opts)
    {
        Ok(t) => t,
        Err(e) => panic!(
            "the device library does not preprocess: {}",
            sm.diagnostic(&e)
        ),
    };
    let items = split(&toks, &int);
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    std::fs::write(out.join("library_items.rs"), emit(&items)).expect("OUT_DIR is writable");
}

/// Splits the preprocessed tokens into top-level items: a definition ends
/// with the `}` that closes its body, a prototype with a `;` outside
/// parentheses and braces. The item's name is the identifier before its
/// first `(`.
fn split(toks: &[front::lexer::Token], int: &Interner) -> Vec<Item> {
    let mut items = Vec::new();
    let mut cur: Vec<&front::lexer::Token> = Vec::new();
    let (mut paren, mut brace) = (0i32, 0i32);
    for t in toks {
        if t.tok == Tok::Eof {
            break;
        }
        cur.push(t);
        let end = match t.tok {
            Tok::Punct(Punct::LParen) => {
                paren += 1;
                false
            }
            Tok::Punct(Punct::RParen) => {
                paren -= 1;
                false
            }
            Tok::Punct(Punct::LBrace) => {
                brace += 1;
                false
            }
            Tok::Punct(Punct::RBrace) => {
                brace -= 1;
                brace == 0 && paren == 0
            }
            Tok::Punct(Punct::Semi) => brace == 0 && paren == 0,
            _ => false,
        };
        if end {
            items.push(item(&cur, int));
            cur.clear();
        }
    }
    assert!(
        cur.is_empty(),
        "the device library ends inside an item (unbalanced braces?)"
    );
    let names: std::collections::BTreeSet<String> = items.iter().map(|i| i.name.clone()).collect();
    for i in &mut items {
        i.refs.retain(|r| names.contains(r) && *r != i.name);
        i.refs.sort();
        i.refs.dedup();
    }
    items
}

/// One item's name, text (tokens joined by spaces, a newline where the
/// source had one) and the identifiers it uses.
fn item(toks: &[&front::lexer::Token], int: &Interner) -> Item {
    let lparen = toks
        .iter()
        .position(|t| t.tok == Tok::Punct(Punct::LParen))
        .unwrap_or_else(|| {
            panic!("a device-library item without '(': only functions belong there")
        });
    let name = match lparen.checked_sub(1).map(|i| toks[i].tok) {
        Some(Tok::Ident(s)) => int.get(s).to_string(),
        _ => panic!("a device-library item whose '(' does not follow a function name"),
    };
    let mut text = String::new();
    let mut refs = Vec::new();
    let mut line = toks[0].loc.line;
    for t in toks {
        if !text.is_empty() {
            text.push(if t.loc.line != line { '\n' } else { ' ' });
        }
        line = t.loc.line;
        text.push_str(&spelling(&t.tok, int));
        if let Tok::Ident(s) = t.tok {
            refs.push(int.get(s).to_string());
        }
    }
    let body = toks
        .last()
        .is_some_and(|t| t.tok == Tok::Punct(Punct::RBrace));
    Item {
        name,
        text,
        refs,
        body,
    }
}

/// The generated Rust: `FUNCS` (every library function by name, sorted,
/// with the functions it calls) and `ITEMS` (the text, in source order,
/// each tagged with its function's index in `FUNCS`).
fn emit(items: &[Item]) -> String {
    let mut funcs: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for i in items {
        let refs = funcs.entry(&i.name).or_default();
        refs.extend(i.refs.iter().map(String::as_str));
    }
    for i in items.iter().filter(|i| i.body) {
        assert!(
            items.iter().filter(|j| j.body && j.name == i.name).count() == 1,
            "the device library defines '{}' twice",
            i.name
        );
    }
    let index: BTreeMap<&str, usize> = funcs.keys().enumerate().map(|(k, n)| (*n, k)).collect();
    let mut s = String::from("// Generated by build.rs from lib/*.cl: do not edit.\n\n");
    s.push_str("/// Every device-library function, sorted by name, with the indices of the functions it calls.\n");
    s.push_str("pub static FUNCS: &[(&str, &[u16])] = &[\n");
    for (name, refs) in &funcs {
        let mut deps: Vec<usize> = refs.iter().map(|r| index[r]).collect();
        deps.sort();
        deps.dedup();
        let _ = writeln!(s, "    ({name:?}, &{deps:?}),");
    }
    s.push_str("];\n\n");
    s.push_str("/// The preprocessed top-level items in source order: (index in `FUNCS`, text).\n");
    s.push_str("pub static ITEMS: &[(u16, &str)] = &[\n");
    for i in items {
        let _ = writeln!(s, "    ({}, {:?}),", index[i.name.as_str()], i.text);
    }
    s.push_str("];\n");
    s
}
