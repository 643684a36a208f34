//! Decoder cost probe for profilers: decodes the corpus `.text` of each target
//! (or the LLVM vector files) `N` times and prints the instruction count, so
//! `valgrind --tool=callgrind` can divide its instruction count by decodes.
//!
//! `cargo run --release -p arch --example decode_probe -- corpus|vectors|words=HEX[,HEX...] [N] [CASE] [--time]`

use std::path::{Path, PathBuf};

use arch::code_object::CodeObject;
use arch::isa::{decode, Target};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn sorted_files(dir: PathBuf) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("directory")
        .map(|e| e.expect("dir entry").path())
        .collect();
    files.sort();
    files
}

fn corpus_text(dir: &str) -> Vec<u8> {
    let mut text = Vec::new();
    for f in sorted_files(repo().join("tests/kernels/prebuilt").join(dir)) {
        let object = CodeObject::parse(&std::fs::read(&f).expect("read")).expect("parse");
        text.extend_from_slice(&object.text().bytes);
    }
    text
}

fn vector_bytes(dir: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for f in sorted_files(repo().join("hw/arch/tests/vectors").join(dir)) {
        for line in std::fs::read_to_string(&f).expect("read").lines() {
            let Some((words, _)) = line.split_once(" | ") else {
                continue;
            };
            if line.starts_with('#') {
                continue;
            }
            for w in words.split_whitespace() {
                out.extend_from_slice(&u32::from_str_radix(w, 16).expect("hex").to_le_bytes());
            }
        }
    }
    out
}

#[inline(never)]
fn decode_buffer(target: Target, bytes: &[u8]) -> u64 {
    let mut at = 0;
    let mut count = 0;
    while at < bytes.len() {
        match decode(target, &bytes[at..]) {
            Ok(inst) => {
                std::hint::black_box(&inst);
                at += usize::from(inst.size);
            }
            Err(_) => at += 4,
        }
        count += 1;
    }
    count
}

/// One pass like `decode_buffer`'s, under another name, for profilers to leave out.
#[inline(never)]
fn warm_up(target: Target, bytes: &[u8]) -> usize {
    let mut at = 0;
    let mut errors = 0;
    while at < bytes.len() {
        at += decode(target, &bytes[at..]).map_or_else(
            |_| {
                errors += 1;
                4
            },
            |inst| usize::from(inst.size),
        );
    }
    errors
}

/// Prints how many instructions of each family and opcode the buffer holds.
fn print_mix(target: Target, bytes: &[u8]) {
    let mut families = std::collections::BTreeMap::new();
    let mut opcodes = std::collections::BTreeMap::new();
    let mut at = 0;
    while at < bytes.len() {
        match decode(target, &bytes[at..]) {
            Ok(inst) => {
                *families.entry(inst.family).or_insert(0) += 1;
                *opcodes.entry(inst.opcode.mnemonic()).or_insert(0) += 1;
                at += usize::from(inst.size);
            }
            Err(_) => at += 4,
        }
    }
    println!("{families:?}");
    let mut top: Vec<_> = opcodes.into_iter().collect();
    top.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    println!("{:?}", &top[..top.len().min(12)]);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map_or("corpus", String::as_str);
    let reps: u64 = args.get(2).map_or(20, |n| n.parse().expect("count"));
    let time = args.iter().any(|a| a == "--time");
    let mix = args.iter().any(|a| a == "--mix");
    let only = args.get(3).filter(|a| !a.starts_with("--"));
    let cases: Vec<(&str, Target, Vec<u8>)> = match which {
        // `words HEX[,HEX...] N TARGET`: one instruction's words repeated 1000
        // times, to see what a single form costs.
        w if w.starts_with("words=") => {
            let one: Vec<u8> = w["words=".len()..]
                .split(',')
                .flat_map(|h| u32::from_str_radix(h, 16).expect("hex").to_le_bytes())
                .collect();
            let target = match only.map(String::as_str) {
                Some("gfx803") => Target::GFX803,
                Some("gfx1030-w64") => Target::GFX1030_W64,
                _ => Target::GFX1030_W32,
            };
            vec![("words/one", target, one.repeat(1000))]
        }
        "vectors" => vec![
            ("vectors/gfx803", Target::GFX803, vector_bytes("gfx803")),
            (
                "vectors/gfx1030",
                Target::GFX1030_W32,
                vector_bytes("gfx1030"),
            ),
        ],
        _ => vec![
            ("corpus/gfx803", Target::GFX803, corpus_text("gfx803")),
            (
                "corpus/gfx1030",
                Target::GFX1030_W32,
                corpus_text("gfx1030"),
            ),
            (
                "corpus/gfx1030-w64",
                Target::GFX1030_W64,
                corpus_text("gfx1030-w64"),
            ),
        ],
    };
    for (name, target, bytes) in &cases {
        if !name.starts_with("words") && only.is_some_and(|o| !name.ends_with(&format!("/{o}"))) {
            continue;
        }
        // Warm up outside `decode_buffer` (which profilers toggle on), so lazily
        // built tables are not counted as decode cost.
        let errors = warm_up(*target, bytes);
        if mix {
            print_mix(*target, bytes);
        }
        let start = std::time::Instant::now();
        let mut n = 0;
        for _ in 0..reps {
            n += decode_buffer(*target, std::hint::black_box(bytes));
        }
        let secs = start.elapsed().as_secs_f64();
        if time {
            println!(
                "{name}: {n} decodes ({errors} errors per pass), {:.1} M/s",
                n as f64 / secs / 1e6
            );
        } else {
            println!("{name}: {n} decodes ({errors} errors per pass)");
        }
    }
}
