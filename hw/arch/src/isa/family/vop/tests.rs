//! Unit tests of the VOP families. Every expected text and encoding was produced by
//! `llvm-mc-19` (`-show-encoding` to assemble, `--disassemble` to print).

use crate::isa::asm::assemble_line;
use crate::isa::{decode, encode, Target};

/// Parses `0x01,0x02,...`.
fn bytes(hex: &str) -> Vec<u8> {
    hex.split(',')
        .map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).expect("test hex"))
        .collect()
}

/// Checks one LLVM case: decode prints `text`, encoding round-trips, and `text`
/// assembles back to the same bytes (when `assembles` is set).
fn check(target: Target, hex: &str, text: &str, assembles: bool) -> Result<(), String> {
    let b = bytes(hex);
    let inst = decode(target, &b).map_err(|e| format!("{text}: decode error {e}"))?;
    let printed = inst.to_string();
    if printed != text {
        return Err(format!("{hex}: printed `{printed}`, LLVM `{text}`"));
    }
    if assembles && usize::from(inst.size) != b.len() {
        return Err(format!("{text}: size {} vs {}", inst.size, b.len()));
    }
    let mut out = Vec::new();
    encode(&inst, &mut out).map_err(|e| format!("{text}: encode error {e}"))?;
    if b.get(..out.len()) != Some(&out[..]) {
        return Err(format!("{text}: re-encoded {out:02x?}, expected {b:02x?}"));
    }
    if assembles {
        let parsed = assemble_line(target, text)
            .map_err(|e| format!("{text}: assemble error {e}"))?
            .ok_or_else(|| format!("{text}: assembled to nothing"))?;
        let mut out = Vec::new();
        encode(&parsed, &mut out).map_err(|e| format!("{text}: encode error {e}"))?;
        if out != b {
            return Err(format!("{text}: assembled to {out:02x?}, expected {b:02x?}"));
        }
    }
    Ok(())
}

/// Runs a table of cases, reporting every failure at once.
fn run(target: Target, cases: &[(&str, &str)]) {
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|(hex, text)| check(target, hex, text, true).err())
        .collect();
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// Checks a file of `target|hex|text` lines named by `VOP_CASES` (a development aid
/// for comparing against freshly generated LLVM output); skipped when unset.
#[test]
fn cases_from_file() {
    let Ok(path) = std::env::var("VOP_CASES") else {
        return;
    };
    let text = std::fs::read_to_string(&path).expect("VOP_CASES file");
    let mut failures = Vec::new();
    let mut total = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut parts = line.splitn(3, '|');
        let (Some(t), Some(hex), Some(expected)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        // `|noasm`: LLVM's text does not assemble back to these bytes (ignored bits).
        let (expected, assembles) = match expected.strip_suffix("|noasm") {
            Some(text) => (text, false),
            None => (expected, true),
        };
        let target = match t.trim() {
            "gfx803" => Target::GFX803,
            "gfx1030w64" => Target::GFX1030_W64,
            _ => Target::GFX1030_W32,
        };
        total += 1;
        if expected.trim() == "INVALID" {
            // LLVM rejects these bytes: so must we (or at least not panic).
            if let Ok(inst) = decode(target, &bytes(hex.trim())) {
                failures.push(format!("[{t}] {hex}: LLVM rejects, we print `{inst}`"));
            }
            continue;
        }
        if let Err(e) = check(target, hex.trim(), expected.trim(), assembles) {
            failures.push(format!("[{t}] {e}"));
        }
    }
    eprintln!("{} of {total} cases failed", failures.len());
    for f in failures.iter().take(400) {
        eprintln!("{f}");
    }
}
