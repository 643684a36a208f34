//! No module circles: the `use` edges between the modules of
//! `cosim/golden/src` and of `hw/arch/src/isa` form a graph whose arrows all
//! point down (issue 17).
//!
//! The graph is read from the sources, not from the compiler: every
//! `use crate::…`/`use super::…`/`use self::…` tree and every inline
//! `crate::…`/`super::…` path is resolved to the deepest module file it
//! names. Edges between a module and one of its own ancestors are not
//! arrows: a folder's `mod.rs` is the face of its family (it dispatches to
//! its files, and may hold the helpers they share). Every other edge is seen
//! at the folder where its two ends part: `exec/scalar/sop1.rs ->
//! exec/valu/mod.rs` is the arrow `scalar -> valu` among the rooms of
//! `exec/`. In every folder those arrows must form no circle — one file's
//! meaning is then found by walking down, never round.
//!
//! Test-only code (`#[cfg(test)] mod …`, inline or a file) is left out: it
//! drives a module through the crate's entry points, as a user does.
//!
//! Blind spots (the check is a reading, not a compiler): names reached
//! through a glob import (`use super::*`) count as an edge to that module
//! only, and paths through a `use`-renamed module are not followed.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A module path below the crate root (`["exec", "scalar"]`); the root is `[]`.
type ModPath = Vec<String>;

/// One file of a crate, as its module path and source text.
struct SourceFile {
    module: ModPath,
    /// Shown in messages: the path relative to the workspace.
    shown: String,
    text: String,
}

/// One reference from a file to a module outside its own ancestry.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Edge {
    from: ModPath,
    to: ModPath,
    /// The file and the path as written, for the message.
    file: String,
    path: String,
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits in the workspace")
        .to_path_buf()
}

/// Every `.rs` file below the crate's `src/` with its module path
/// (`a.rs` and `a/mod.rs` are module `a`; `a/b.rs` is `a::b`). Files included
/// with `#[path]` (test helpers) are read as the module their file name says,
/// which only adds edges.
fn read_crate(src: &Path) -> Vec<SourceFile> {
    let mut files = Vec::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let mut entries: Vec<PathBuf> = fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().and_then(|e| e.to_str()) != Some("rs") {
                continue;
            }
            let rel = path.strip_prefix(src).expect("below src");
            let mut module: ModPath = rel
                .iter()
                .map(|c| c.to_string_lossy().into_owned())
                .collect();
            let last = module.pop().expect("a file name");
            match last.as_str() {
                "lib.rs" | "main.rs" if module.is_empty() => {}
                "mod.rs" => {}
                _ => module.push(last.trim_end_matches(".rs").to_string()),
            }
            let shown = path
                .strip_prefix(workspace())
                .unwrap_or(&path)
                .display()
                .to_string();
            let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{shown}: {e}"));
            files.push(SourceFile {
                module,
                shown,
                text,
            });
        }
    }
    files.sort_by(|a, b| a.module.cmp(&b.module));
    files
}

/// The source without comments, string and character literals (their
/// contents become spaces, so offsets and line structure stay).
fn strip(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |out: &mut String, ch: char| out.push(if ch == '\n' { '\n' } else { ' ' });
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
        } else if c[i] == 'r'
            && (next == Some('"') || (next == Some('#') && !prev_is_ident(&c, i)))
            && !prev_is_ident(&c, i)
        {
            // Raw string r"…" / r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= c.len() {
                    break;
                }
                if c[j] == '"' && (0..hashes).all(|k| c.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                blank(&mut out, c[j]);
                j += 1;
            }
            i = j;
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    i += 1;
                }
                if i < c.len() {
                    blank(&mut out, c[i]);
                }
                i += 1;
            }
            i += 1;
        } else if c[i] == '\'' {
            // A character literal ('x', '\n', '\u{..}') or a lifetime ('a).
            if next == Some('\\') {
                i += 2;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                out.push(c[i]);
                i += 1;
            }
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

fn prev_is_ident(c: &[char], i: usize) -> bool {
    i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_')
}

/// Expands a `use` tree (`super::{a, b::{c, d}}`) into its leaf paths.
fn expand_use_tree(tree: &str) -> Vec<String> {
    // One space between words, none around punctuation: `a as b` stays readable.
    let mut tree = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    for p in ["::", "{", "}", ","] {
        tree = tree
            .replace(&format!(" {p}"), p)
            .replace(&format!("{p} "), p);
    }
    let mut out = Vec::new();
    expand_into("", &tree, &mut out);
    out
}

fn expand_into(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let Some(open) = tree.find('{') else {
        let leaf = tree.split(" as ").next().unwrap_or(tree);
        out.push(format!("{prefix}{leaf}"));
        return;
    };
    let head = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').expect("balanced use tree")];
    let prefix = format!("{prefix}{head}");
    let mut depth = 0;
    let mut start = 0;
    for (k, ch) in inner.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                if start < k {
                    expand_into(&prefix, &inner[start..k], out);
                }
                start = k + 1;
            }
            _ => {}
        }
    }
    if start < inner.len() {
        expand_into(&prefix, &inner[start..], out);
    }
}

/// The module a path names, from `here` (the module the path is written
/// in): descend while the next segment is a known module.
fn resolve(path: &str, here: &ModPath, modules: &BTreeSet<ModPath>) -> Option<ModPath> {
    let mut segments = path.split("::").filter(|s| !s.is_empty()).peekable();
    let mut at: ModPath = match *segments.peek()? {
        "crate" => {
            segments.next();
            Vec::new()
        }
        "super" | "self" => here.clone(),
        _ => return None,
    };
    while let Some(&s) = segments.peek() {
        match s {
            "super" => {
                at.pop()?;
            }
            "self" => {}
            _ => break,
        }
        segments.next();
    }
    for s in segments {
        let mut child = at.clone();
        child.push(s.to_string());
        if modules.contains(&child) {
            at = child;
        } else {
            break;
        }
    }
    Some(at)
}

/// The module paths a file's code sits in, by byte offset of the stripped
/// text: inline `mod name { … }` blocks are modules of their own, so
/// `super::` inside them means the file's module.
fn inline_modules(stripped: &str) -> Vec<InlineModule> {
    let bytes = stripped.as_bytes();
    let mut open: Vec<(usize, usize, String, bool)> = Vec::new(); // (depth, start, name, test)
    let mut blocks = Vec::new();
    let mut depth = 0usize;
    let mut pending: Option<(String, bool)> = None;
    let words: Vec<(usize, &str)> = word_offsets(stripped);
    let mut w = 0;
    for (i, &b) in bytes.iter().enumerate() {
        while w < words.len() && words[w].0 < i {
            w += 1;
        }
        if w < words.len() && words[w].0 == i && words[w].1 == "mod" {
            if let Some(&(_, name)) = words.get(w + 1) {
                pending = Some((name.to_string(), cfg_test_before(stripped, i)));
            }
        }
        match b {
            b'{' => {
                depth += 1;
                if let Some((name, test)) = pending.take() {
                    open.push((depth, i, name, test));
                }
            }
            b'}' => {
                if open.last().is_some_and(|(d, _, _, _)| *d == depth) {
                    let (_, start, name, test) = open.pop().expect("open block");
                    blocks.push(InlineModule {
                        start,
                        end: i,
                        name,
                        test,
                    });
                }
                depth = depth.saturating_sub(1);
            }
            b';' => pending = None,
            _ => {}
        }
    }
    blocks
}

/// An inline `mod name { … }` block: its braces' offsets, and whether it is
/// compiled for tests only.
struct InlineModule {
    start: usize,
    end: usize,
    name: String,
    test: bool,
}

/// True when the `mod` keyword at `at` is preceded by `#[cfg(test)]` (and
/// at most a visibility).
fn cfg_test_before(stripped: &str, at: usize) -> bool {
    let mut before = stripped[..at].trim_end();
    if let Some(open) = before.strip_suffix(')').and_then(|b| b.rfind("pub(")) {
        before = before[..open].trim_end();
    }
    before = before.strip_suffix("pub").unwrap_or(before).trim_end();
    before.ends_with("#[cfg(test)]")
}

/// The child modules a file declares `#[cfg(test)] mod name;` (test-only files).
fn test_only_children(file: &SourceFile, stripped: &str) -> Vec<ModPath> {
    let mut out = Vec::new();
    let words = word_offsets(stripped);
    for (k, &(offset, word)) in words.iter().enumerate() {
        if word != "mod" || !cfg_test_before(stripped, offset) {
            continue;
        }
        if let Some(&(at, name)) = words.get(k + 1) {
            if stripped[at + name.len()..].trim_start().starts_with(';') {
                let mut child = file.module.clone();
                child.push(name.to_string());
                out.push(child);
            }
        }
    }
    out
}

fn word_offsets(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in s.char_indices() {
        let ident = ch.is_alphanumeric() || ch == '_';
        match (ident, start) {
            (true, None) => start = Some(i),
            (false, Some(st)) => {
                out.push((st, &s[st..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(st) = start {
        out.push((st, &s[st..]));
    }
    out
}

/// Every edge of one crate whose two ends are both at or below `scope`.
fn edges(files: &[SourceFile], scope: &[&str]) -> Vec<Edge> {
    let modules: BTreeSet<ModPath> = files.iter().map(|f| f.module.clone()).collect();
    let scope: ModPath = scope.iter().map(|s| s.to_string()).collect();
    let stripped: Vec<String> = files.iter().map(|f| strip(&f.text)).collect();
    let test_only: BTreeSet<ModPath> = files
        .iter()
        .zip(&stripped)
        .flat_map(|(f, s)| test_only_children(f, s))
        .collect();
    let mut out = BTreeSet::new();
    for (f, stripped) in files.iter().zip(&stripped) {
        if !f.module.starts_with(&scope) || test_only.iter().any(|t| f.module.starts_with(t)) {
            continue;
        }
        let blocks = inline_modules(stripped);
        // The module path at an offset, and whether the code there is test-only.
        let here_at = |offset: usize| {
            let mut here = f.module.clone();
            let mut inner: Vec<&InlineModule> = blocks
                .iter()
                .filter(|b| b.start < offset && offset < b.end)
                .collect();
            inner.sort_by_key(|b| b.start);
            here.extend(inner.iter().map(|b| b.name.clone()));
            (here, inner.iter().any(|b| b.test))
        };
        let mut paths: Vec<(usize, String)> = Vec::new();
        // `use` trees, then the inline paths of the rest of the text.
        let mut rest = stripped.clone();
        for (offset, word) in word_offsets(stripped) {
            if word != "use" {
                continue;
            }
            let end = offset + stripped[offset..].find(';').unwrap_or(0);
            let tree = stripped[offset + 3..end].trim();
            if tree.starts_with("crate") || tree.starts_with("super") || tree.starts_with("self") {
                for p in expand_use_tree(tree) {
                    paths.push((offset, p));
                }
            }
            rest.replace_range(offset..end, &" ".repeat(end - offset));
        }
        let words = word_offsets(&rest);
        for (k, &(offset, word)) in words.iter().enumerate() {
            if !matches!(word, "crate" | "super" | "self") {
                continue;
            }
            // Only the start of a path: not `pub(super)` nor the middle of `super::super`.
            if rest[..offset].trim_end().ends_with("::") || !rest[offset..].contains("::") {
                continue;
            }
            let mut end = offset + word.len();
            let mut j = k + 1;
            while rest[end..].starts_with("::") && j < words.len() && words[j].0 == end + 2 {
                end = words[j].0 + words[j].1.len();
                j += 1;
            }
            if end > offset + word.len() {
                paths.push((offset, rest[offset..end].to_string()));
            }
        }
        for (offset, path) in paths {
            let (here, test) = here_at(offset);
            if test {
                continue;
            }
            let Some(to) = resolve(&path, &here, &modules) else {
                continue;
            };
            let from = f.module.clone();
            if !to.starts_with(&scope) || from.starts_with(&to) || to.starts_with(&from) {
                continue;
            }
            out.insert(Edge {
                from,
                to,
                file: f.shown.clone(),
                path,
            });
        }
    }
    out.into_iter().collect()
}

/// The circles among the rooms of every folder, each as its rooms and the
/// file-level edges that close it; empty when every arrow points down.
fn circles(edges: &[Edge]) -> Vec<String> {
    // folder -> (room -> room -> the edges behind that arrow)
    type Arrows = BTreeMap<String, BTreeMap<String, Vec<String>>>;
    let mut folders: BTreeMap<ModPath, Arrows> = BTreeMap::new();
    for e in edges {
        let common = e.from.iter().zip(&e.to).take_while(|(a, b)| a == b).count();
        let (a, b) = (e.from[common].clone(), e.to[common].clone());
        folders
            .entry(e.from[..common].to_vec())
            .or_default()
            .entry(a)
            .or_default()
            .entry(b)
            .or_default()
            .push(format!("{} uses {}", e.file, e.path));
    }
    let mut found = Vec::new();
    for (folder, arrows) in &folders {
        for component in strongly_connected(arrows) {
            let mut lines = vec![format!(
                "circle in `crate::{}`: {}",
                folder.join("::"),
                component.join(" <-> ")
            )];
            for from in &component {
                for (to, why) in &arrows[from] {
                    if component.contains(to) {
                        lines.push(format!("  {from} -> {to}: {}", why.join("; ")));
                    }
                }
            }
            found.push(lines.join("\n"));
        }
    }
    found
}

/// Tarjan's strongly connected components with more than one room.
fn strongly_connected(
    arrows: &BTreeMap<String, BTreeMap<String, Vec<String>>>,
) -> Vec<Vec<String>> {
    struct State<'a> {
        arrows: &'a BTreeMap<String, BTreeMap<String, Vec<String>>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        if let Some(next) = s.arrows.get(v) {
            for w in next.keys() {
                if !s.index.contains_key(w.as_str()) {
                    visit(s, w);
                    let lw = s.low[w.as_str()];
                    let lv = s.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(lw);
                } else if s.on_stack.contains(w.as_str()) {
                    let iw = s.index[w.as_str()];
                    let lv = s.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(iw);
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut s = State {
        arrows,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in arrows.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out
}

fn assert_no_circles(src: &str, scope: &[&str]) {
    let files = read_crate(&workspace().join(src));
    assert!(files.len() > 5, "{src}: found only {} files", files.len());
    let e = edges(&files, scope);
    assert!(!e.is_empty(), "{src}: no edges read — the parser is broken");
    let found = circles(&e);
    assert!(
        found.is_empty(),
        "{src} (scope `crate::{}`) has module circles:\n{}",
        scope.join("::"),
        found.join("\n")
    );
}

#[test]
fn golden_has_no_module_circles() {
    assert_no_circles("cosim/golden/src", &[]);
}

#[test]
fn arch_isa_has_no_module_circles() {
    assert_no_circles("hw/arch/src", &["isa"]);
}

/// The checker itself: it must see a circle through a `use` group, through
/// an inline path, and ignore what is not one.
#[test]
fn the_checker_finds_circles_and_only_circles() {
    let file = |module: &[&str], text: &str| SourceFile {
        module: module.iter().map(|s| s.to_string()).collect(),
        shown: format!("{}.rs", module.join("/")),
        text: text.to_string(),
    };
    let circle = [
        file(&[], "mod a; mod b; mod c;"),
        file(&["a"], "use super::{b::{helper, Thing}, c};\nfn f() { super::c::g() }"),
        file(&["b"], "// use super::a; (a comment)\nconst S: &str = \"super::a::x\";\nfn g() { crate::a::f() }"),
        file(&["b", "inner"], "use super::super::b as parent; use crate::b::x;"),
        file(&["c"], "pub(super) fn g() {}\n#[cfg(test)]\nmod tests { use crate::a; }\n#[cfg(test)]\npub(crate) mod t;"),
        file(&["c", "t"], "use crate::a;"),
    ];
    let e = edges(&circle, &[]);
    let pairs: Vec<(String, String)> = e
        .iter()
        .map(|e| (e.from.join("::"), e.to.join("::")))
        .collect();
    assert!(pairs.contains(&("a".into(), "b".into())), "{pairs:?}");
    assert!(pairs.contains(&("a".into(), "c".into())), "{pairs:?}");
    assert!(pairs.contains(&("b".into(), "a".into())), "{pairs:?}");
    // Ancestors are not arrows; comments, strings and `pub(super)` are not paths.
    assert!(
        !pairs
            .iter()
            .any(|(f, _)| f == "b::inner" || f.starts_with('c')),
        "{pairs:?}"
    );
    assert_eq!(
        pairs.iter().filter(|(f, t)| f == "b" && t == "a").count(),
        1
    );
    let found = circles(&e);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("a <-> b"), "{}", found[0]);

    // Down into a sibling folder's file and back to that folder's face is a
    // circle between the two rooms of the root.
    let nested = [
        file(&["x"], "pub fn shared() {}"),
        file(&["x", "leaf"], "use crate::y::z;"),
        file(&["y"], ""),
        file(&["y", "z"], "fn f() { crate::x::shared() }"),
    ];
    let found = circles(&edges(&nested, &[]));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("x <-> y"), "{}", found[0]);
    // Out of scope: the same circle is not seen from inside `x`.
    assert!(circles(&edges(&nested, &["x"])).is_empty());
}
