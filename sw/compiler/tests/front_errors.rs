//! Bad source: every file in tests/front_errors/ starts with
//! `// EXPECT: LINE:COL: MESSAGE` and must fail with exactly that
//! diagnostic (plus the source line and a caret under the column).

use compiler::front::{compile_to_typed_ast, Options, Source};
use std::path::Path;

#[test]
fn every_bad_source_gets_its_exact_message() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/front_errors");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    files.sort();
    assert!(files.len() >= 30, "only {} error cases", files.len());
    let print = std::env::var_os("FRONT_ERRORS_PRINT").is_some();
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("read");
        let first = text.lines().next().unwrap_or("");
        let expect = first.strip_prefix("// EXPECT: ").unwrap_or_else(|| {
            panic!(
                "{}: first line must be // EXPECT: LINE:COL: MESSAGE",
                f.display()
            )
        });
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let d = match compile_to_typed_ast(
            Source::Text {
                name: &name,
                text: &text,
            },
            &Options::default(),
        ) {
            Ok(_) => {
                failures.push(format!("{name}: compiled without error"));
                continue;
            }
            Err(d) => d,
        };
        let got = format!("{}:{}: {}", d.line, d.col, d.message);
        if print {
            println!("{name}\n{d}\n");
        }
        if got != expect {
            failures.push(format!("{name}:\n  expected {expect}\n  got      {got}"));
            continue;
        }
        // The rendered form: header, the source line, a caret under the column.
        let shown = d.to_string();
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(
            lines[0],
            format!("{name}:{}:{}: error: {}", d.line, d.col, d.message)
        );
        let src_line = text.lines().nth(d.line as usize - 1).unwrap_or("");
        assert_eq!(
            lines.get(1).copied().unwrap_or(""),
            src_line,
            "{name}: source line"
        );
        assert_eq!(
            lines.get(2).map(|l| l.len()),
            Some(d.col as usize),
            "{name}: caret column"
        );
        assert!(lines[2].ends_with('^'));
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
