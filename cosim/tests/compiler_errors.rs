//! Bad source through the command line (issue 15): every kernel file in
//! `sw/compiler/tests/front_errors/` (first line `// EXPECT: LINE:COL:
//! MESSAGE`) given to `gpusim compile` must exit with code 2 and print
//! exactly clang's three-line form on standard error — `FILE:LINE:COL:
//! error: MESSAGE`, the source line, a caret under the column — and nothing
//! on standard output; never a panic (exit 101) or a hang (each run has a
//! time limit).
//!
//! `cargo test --release -p cosim --test compiler_errors`

mod compiler_common;

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use compiler_common::root;

/// The floor: at least 30 distinct bad-source cases.
const AT_LEAST: usize = 30;

/// The longest a rejected compile may take before it counts as a hang.
const LIMIT: Duration = Duration::from_secs(20);

fn cases() -> Vec<PathBuf> {
    let dir = root().join("sw/compiler/tests/front_errors");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    files.sort();
    files
}

/// Runs `gpusim compile REL -o /dev/null` from the repository root, killing
/// it after [`LIMIT`]; `(exit code, stdout, stderr)`.
fn compile(rel: &str, extra: &[&str]) -> Result<(Option<i32>, String, String), String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpusim"))
        .args(["compile", rel, "-o", "/dev/null"])
        .args(extra)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let start = Instant::now();
    loop {
        if child.try_wait().map_err(|e| e.to_string())?.is_some() {
            break;
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {LIMIT:?} (a hang)"));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let o = child.wait_with_output().map_err(|e| e.to_string())?;
    Ok((
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    ))
}

#[test]
fn every_bad_source_exits_2_with_its_exact_message_source_line_and_caret() {
    let files = cases();
    let mut messages = std::collections::BTreeSet::new();
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let expect = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("// EXPECT: "))
            .unwrap_or_else(|| panic!("{}: first line must be // EXPECT: …", f.display()));
        let (line, rest) = expect.split_once(':').unwrap();
        let (col, message) = rest.split_once(": ").unwrap();
        let (line, col): (usize, usize) = (line.parse().unwrap(), col.parse().unwrap());
        messages.insert(message.to_string());
        let rel = format!(
            "sw/compiler/tests/front_errors/{}",
            f.file_name().unwrap().to_string_lossy()
        );
        let (code, stdout, stderr) = match compile(&rel, &[]) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{rel}: {e}"));
                continue;
            }
        };
        // The line the caret points into: in the file itself, or (for an
        // error inside an included file) wherever the message's file says.
        let want = [
            format!("{rel}:{line}:{col}: error: {message}"),
            text.lines().nth(line - 1).unwrap_or("").to_string(),
            format!("{}^", " ".repeat(col - 1)),
        ];
        let got: Vec<&str> = stderr.lines().collect();
        if code != Some(2) {
            failures.push(format!("{rel}: exit {code:?}, not 2\n{stderr}"));
        } else if !stdout.is_empty() {
            failures.push(format!("{rel}: prints on stdout: {stdout}"));
        } else if got.len() != 3 || got.iter().zip(&want).any(|(g, w)| g != w) {
            failures.push(format!(
                "{rel}:\n--- expected\n{}\n--- got\n{stderr}",
                want.join("\n")
            ));
        }
    }
    println!(
        "{} bad-source cases, {} distinct messages",
        files.len(),
        messages.len()
    );
    assert!(
        messages.len() >= AT_LEAST,
        "only {} distinct error messages",
        messages.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A case that compiles must not pass for an error case: the check bites.
#[test]
fn a_good_kernel_is_not_an_error() {
    let (code, _, stderr) =
        compile("tests/kernels/saxpy.cl", &["-Itests/kernels/include"]).unwrap();
    assert_eq!(code, Some(0), "{stderr}");
    // And the same kernel without its include directory is an error case.
    let (code, _, stderr) = compile("tests/kernels/saxpy.cl", &[]).unwrap();
    assert_eq!(code, Some(2), "{stderr}");
}
