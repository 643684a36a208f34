//! Delta reduction of a failing program over its lines (the generator
//! writes one statement per line, blocks open at a line's end and close on
//! their own line): unused helpers go first, then greedy passes delete
//! whole statements and blocks, drop `else` branches and unwrap `if`/`for`
//! bodies, keeping a change only while the program still compiles with
//! both compilers and still differs the same way. Barriers are never
//! deleted (a program without one would race, and its difference would
//! mean nothing).

use std::path::Path;
use std::time::{Duration, Instant};

use super::exec::{self, Outcome};

/// What a failure is: its class and the gpusim variant named in the
/// message (a reduction must keep both).
fn signature(o: &Outcome) -> Option<String> {
    match o {
        Outcome::Differs(m) => Some(m.split(':').next().unwrap_or("").to_string()),
        _ => None,
    }
}

/// Reduces `lines` (failing with `outcome` on the inputs of `seed`) for at
/// most `budget`; the smallest failing program found and its outcome.
pub fn reduce(
    dir: &Path,
    lines: Vec<String>,
    seed: u64,
    outcome: &Outcome,
    budget: Duration,
) -> (Vec<String>, Outcome) {
    let Some(want) = signature(outcome) else {
        return (lines, outcome.clone());
    };
    let mut last = outcome.clone();
    let best = reduce_with(lines, budget, &mut |cand| {
        let src = cand.join("\n") + "\n";
        // Malformed candidates (a deleted declaration still used, braces
        // out of balance) fail gpusim's in-process front end quickly.
        if exec::gpusim(dir, &src, false, false).is_err() {
            return false;
        }
        let o = exec::check_source(dir, &src, seed);
        let keep = signature(&o).as_deref() == Some(want.as_str());
        if keep {
            last = o;
        }
        keep
    });
    (best, last)
}

/// Reduces `lines` while `still_fails` holds, for at most `budget`.
pub fn reduce_with(
    lines: Vec<String>,
    budget: Duration,
    still_fails: &mut dyn FnMut(&[String]) -> bool,
) -> Vec<String> {
    let start = Instant::now();
    let mut best = lines;
    // Unused helpers (a textual check), as one step.
    let unused: Vec<usize> = (0..best.len())
        .filter(|&i| helper_name(&best[i]).is_some_and(|n| !used(&best, i, &n)))
        .collect();
    if !unused.is_empty() {
        let cand: Vec<String> = without(&best, &unused);
        if still_fails(&cand) {
            best = cand;
        }
    }
    loop {
        let mut changed = false;
        let mut i = 0;
        while i < best.len() {
            if start.elapsed() > budget {
                return best;
            }
            let mut done = false;
            for cand in candidates(&best, i) {
                if still_fails(&cand) {
                    best = cand;
                    changed = true;
                    done = true;
                    break;
                }
            }
            if !done {
                i += 1;
            }
        }
        if !changed {
            return best;
        }
    }
}

fn without(lines: &[String], drop: &[usize]) -> Vec<String> {
    lines
        .iter()
        .enumerate()
        .filter(|(i, _)| !drop.contains(i))
        .map(|(_, l)| l.clone())
        .collect()
}

/// `name` of a `static T name(...)` helper line.
fn helper_name(line: &str) -> Option<String> {
    let rest = line.strip_prefix("static ")?;
    let open = rest.find('(')?;
    rest[..open].split_whitespace().last().map(str::to_string)
}

fn used(lines: &[String], def: usize, name: &str) -> bool {
    let call = format!("{name}(");
    lines
        .iter()
        .enumerate()
        .any(|(i, l)| i != def && l.contains(&call))
}

/// The index of the line closing the block opened at the end of line `i`
/// (following `} else {` lines through to the final close).
fn close_of(lines: &[String], i: usize) -> Option<usize> {
    let mut open = 1i32;
    for (j, l) in lines.iter().enumerate().skip(i + 1) {
        let t = l.trim();
        if t.starts_with('}') {
            open -= 1;
            if open == 0 && !t.ends_with('{') {
                return Some(j);
            }
        }
        if t.ends_with('{') {
            open += 1;
        }
    }
    None
}

/// Simplifications of the program at line `i`, most aggressive first.
fn candidates(lines: &[String], i: usize) -> Vec<Vec<String>> {
    let t = lines[i].trim();
    // The clang-only `convert_` definitions stay: deleting one leaves
    // clang an overload of another argument type, reached by an implicit
    // conversion (`convert_float(uint)` for a `short`: a huge value where
    // gpusim's built-in gives the negative one), a difference the
    // reduction made, not found (seed 2000271's saved source).
    if t.contains("gs_barrier")
        || t.starts_with('}')
        || t.starts_with('#')
        || t.is_empty()
        || t.contains("__attribute__((overloadable))")
    {
        return Vec::new();
    }
    let mut out = Vec::new();
    if t.ends_with('{') {
        let Some(end) = close_of(lines, i) else {
            return out;
        };
        if t.starts_with("__kernel") {
            return out;
        }
        let span: Vec<usize> = (i..=end).collect();
        if !lines[i..=end].iter().any(|l| l.contains("gs_barrier")) {
            out.push(without(lines, &span));
        }
        if t.starts_with("if (") || t.starts_with("for (") {
            // Drop an else branch: `} else {` .. `}` becomes `}`.
            let mut depth = 0i32;
            for j in i + 1..end {
                let lt = lines[j].trim();
                if depth == 0 && lt == "} else {" {
                    out.push(without(lines, &(j..end).collect::<Vec<_>>()));
                    break;
                }
                if lt.starts_with('}') {
                    depth -= 1;
                }
                if lt.ends_with('{') {
                    depth += 1;
                }
            }
            // Unwrap a body without an else: keep the statements.
            let has_else = lines[i + 1..end].iter().any(|l| l.trim() == "} else {");
            if !has_else && t.starts_with("if (") {
                out.push(without(lines, &[i, end]));
            }
        }
    } else {
        out.push(without(lines, &[i]));
    }
    out
}
