//! Decoder throughput: instructions per second over real compiler output (the
//! `.text` of every corpus code object, per target) and over the LLVM vector
//! files (every opcode and encoding form, a harder mix).

use std::hint::black_box;
use std::path::{Path, PathBuf};

use arch::code_object::CodeObject;
use arch::isa::{decode, Target};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The concatenated `.text` bytes of every corpus object of one target.
fn corpus_text(dir: &str) -> Vec<u8> {
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(repo().join("tests/kernels/prebuilt").join(dir))
            .expect("corpus objects")
            .map(|e| e.expect("dir entry").path())
            .collect();
    files.sort();
    let mut text = Vec::new();
    for f in files {
        let object = CodeObject::parse(&std::fs::read(&f).expect("read")).expect("parse");
        text.extend_from_slice(&object.text().bytes);
    }
    text
}

/// Every vector's bytes, back to back.
fn vector_bytes(dir: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo().join("hw/arch/tests/vectors").join(dir))
        .expect("vectors")
        .map(|e| e.expect("dir entry").path())
        .collect();
    files.sort();
    for f in files {
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

/// Decodes a whole buffer; returns the instruction count.
fn decode_buffer(target: Target, bytes: &[u8]) -> u64 {
    let mut at = 0;
    let mut count = 0;
    while at < bytes.len() {
        match decode(target, &bytes[at..]) {
            Ok(inst) => {
                black_box(&inst);
                at += usize::from(inst.size);
            }
            Err(_) => at += 4,
        }
        count += 1;
    }
    count
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("decode");
    let cases = [
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
        ("vectors/gfx803", Target::GFX803, vector_bytes("gfx803")),
        (
            "vectors/gfx1030",
            Target::GFX1030_W32,
            vector_bytes("gfx1030"),
        ),
    ];
    for (name, target, bytes) in &cases {
        let count = decode_buffer(*target, bytes);
        group.throughput(Throughput::Elements(count));
        group.bench_function(*name, |b| {
            b.iter(|| decode_buffer(*target, black_box(bytes)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
