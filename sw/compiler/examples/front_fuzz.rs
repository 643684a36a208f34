//! In-process random-input driver for the front end (the stand-in for the
//! cargo-fuzz target `fuzz/fuzz_targets/front.rs` where cargo-fuzz is not
//! installed). Every input goes through `compile_to_typed_ast`; a panic
//! or an input that takes longer than the watchdog limit (60 s of wall time) stops the run
//! with the input saved to `front_fuzz_crash.cl`.
//!
//!     cargo run --release -p compiler --example front_fuzz -- [RUNS] [SEED]
//!
//! Inputs: the corpus kernels and headers, mutated (byte flips, token
//! deletion / duplication / swap, splices between files, truncation) and
//! random token soups built from the OpenCL C vocabulary. Deterministic
//! for a given seed.

use compiler::front::{compile_to_typed_ast, Options, Source};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const VOCAB: &[&str] = &[
    "kernel",
    "__kernel",
    "void",
    "int",
    "uint",
    "float",
    "float4",
    "int4",
    "bool4",
    "uchar",
    "ulong",
    "half",
    "__global",
    "__local",
    "__constant",
    "__private",
    "const",
    "volatile",
    "struct",
    "typedef",
    "union",
    "enum",
    "if",
    "else",
    "for",
    "while",
    "do",
    "switch",
    "case",
    "default",
    "break",
    "continue",
    "return",
    "sizeof",
    "x",
    "y",
    "p",
    "q",
    "a",
    "b",
    "i",
    "n",
    "0",
    "1",
    "42u",
    "0x7fffffff",
    "1.5f",
    "2.0",
    "'a'",
    "\"s\"",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ";",
    ",",
    ".",
    "->",
    "+",
    "-",
    "*",
    "/",
    "%",
    "<<",
    ">>",
    "<",
    ">",
    "<=",
    ">=",
    "==",
    "!=",
    "&",
    "|",
    "^",
    "&&",
    "||",
    "!",
    "~",
    "?",
    ":",
    "=",
    "+=",
    "-=",
    "<<=",
    "++",
    "--",
    "#define",
    "#if",
    "#endif",
    "#include",
    "#pragma unroll",
    "##",
    "#",
    "\n",
    ".xyzw",
    ".s01",
    ".lo",
    "get_global_id",
    "barrier",
    "atomic_add",
    "sqrt",
    "min",
    "select",
    "__builtin_amdgcn_fence",
    "__ATOMIC_RELEASE",
    "\"workgroup\"",
    "convert_int4",
    "as_float",
    "__attribute__((reqd_work_group_size(64,1,1)))",
    "CLK_LOCAL_MEM_FENCE",
    "...",
    "\\\n",
    "/*",
    "*/",
    "//",
    "vload4",
    "vstore4",
    "dot",
    "#define X a ## b",
    "_Pragma(\"unroll 4\")",
    "atomic_fetch_add_explicit",
    "__opencl_atomic_load",
];

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repo root")
}

fn seeds() -> Vec<(String, String)> {
    let mut v = Vec::new();
    for d in [
        "tests/kernels",
        "tests/kernels/work",
        "tests/kernels/include",
        "sw/devlib",
        "sw/compiler/tests/front_errors",
    ] {
        let Ok(rd) = std::fs::read_dir(repo().join(d)) else {
            continue;
        };
        let mut files: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "cl" || x == "h"))
            .collect();
        files.sort();
        for p in files {
            if let Ok(t) = std::fs::read_to_string(&p) {
                v.push((p.to_string_lossy().into_owned(), t));
            }
        }
    }
    v
}

fn token_spans(s: &str) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        if b[i].is_ascii_alphanumeric() || b[i] == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
        } else {
            i += 1;
        }
        if !b[start].is_ascii_whitespace() {
            out.push((start, i));
        }
    }
    out
}

fn mutate(rng: &mut Rng, seeds: &[(String, String)]) -> (String, String) {
    let (name, base) = &seeds[rng.below(seeds.len())];
    let mut text = base.clone().into_bytes();
    let rounds = 1 + rng.below(4);
    for _ in 0..rounds {
        let spans = token_spans(std::str::from_utf8(&text).unwrap_or(""));
        match rng.below(8) {
            0 if !text.is_empty() => {
                let i = rng.below(text.len());
                text[i] ^= 1 << rng.below(7);
            }
            1 if !spans.is_empty() => {
                let (a, b) = spans[rng.below(spans.len())];
                text.drain(a..b);
            }
            2 if !spans.is_empty() => {
                let (a, b) = spans[rng.below(spans.len())];
                let tok: Vec<u8> = text[a..b].to_vec();
                let at = spans[rng.below(spans.len())].0;
                text.splice(at..at, tok.iter().copied().chain([b' ']));
            }
            3 if !spans.is_empty() => {
                let at = spans[rng.below(spans.len())].0;
                let w = VOCAB[rng.below(VOCAB.len())];
                text.splice(at..at, w.bytes().chain([b' ']));
            }
            4 => {
                let (_, other) = &seeds[rng.below(seeds.len())];
                let o = other.as_bytes();
                let a = rng.below(o.len());
                let b = (a + rng.below(400)).min(o.len());
                let at = rng.below(text.len() + 1);
                text.splice(at..at, o[a..b].iter().copied());
            }
            5 if !text.is_empty() => {
                let n = rng.below(text.len());
                text.truncate(n);
            }
            6 if spans.len() > 1 => {
                // Replace a token with a random vocabulary word.
                let (a, b) = spans[rng.below(spans.len())];
                let w = VOCAB[rng.below(VOCAB.len())];
                text.splice(a..b, w.bytes());
            }
            _ => {
                // Nesting stress: wrap a random span in many parentheses.
                if !spans.is_empty() {
                    let (a, b) = spans[rng.below(spans.len())];
                    let depth = 1 + rng.below(300);
                    let mut v: Vec<u8> = vec![b'('; depth];
                    v.extend_from_slice(&text[a..b]);
                    v.extend(std::iter::repeat(b')').take(depth));
                    text.splice(a..b, v);
                }
            }
        }
    }
    (name.clone(), String::from_utf8_lossy(&text).into_owned())
}

fn soup(rng: &mut Rng) -> String {
    let n = 1 + rng.below(200);
    let mut s = String::from("kernel void k(__global int *p) {\n");
    for _ in 0..n {
        s.push_str(VOCAB[rng.below(VOCAB.len())]);
        s.push(' ');
    }
    s.push_str("\n}\n");
    s
}

fn main() {
    let mut args = std::env::args().skip(1);
    let runs: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    // Decimal or 0x-prefixed hexadecimal.
    let seed: u64 = args
        .next()
        .and_then(|a| match a.strip_prefix("0x") {
            Some(h) => u64::from_str_radix(h, 16).ok(),
            None => a.parse().ok(),
        })
        .unwrap_or(0x5eed);
    let seeds = seeds();
    assert!(!seeds.is_empty(), "no seed files found");
    let opts = Options {
        include_dirs: vec![
            repo().join("tests/kernels/include"),
            repo().join("sw/devlib"),
        ],
        ..Default::default()
    };
    // Watchdog: the time the current input started (ms since launch, 0 = idle).
    let started = Arc::new(AtomicU64::new(0));
    let current = Arc::new(Mutex::new(String::new()));
    let t0 = Instant::now();
    {
        let started = started.clone();
        let current = current.clone();
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(500));
            let s = started.load(Ordering::Relaxed);
            if s != 0 && (t0.elapsed().as_millis() as u64 + 1).saturating_sub(s) > 60_000 {
                let _ = std::fs::write(
                    "front_fuzz_crash.cl",
                    current.lock().map(|c| c.clone()).unwrap_or_default(),
                );
                eprintln!("HANG: one input ran for more than 60 s (saved in front_fuzz_crash.cl)");
                std::process::exit(3);
            }
        });
    }
    let mut rng = Rng(seed | 1);
    let (mut ok, mut errors, mut slowest) = (0u64, 0u64, Duration::ZERO);
    let mut slowest_input = String::new();
    for i in 0..runs {
        let (name, text) = if rng.below(4) == 0 {
            ("soup.cl".to_string(), soup(&mut rng))
        } else {
            mutate(&mut rng, &seeds)
        };
        // Kept for the watchdog, so a hang leaves the input behind.
        if let Ok(mut c) = current.lock() {
            c.clear();
            c.push_str(&text);
        }
        started.store(t0.elapsed().as_millis() as u64 + 1, Ordering::Relaxed);
        let t = Instant::now();
        let r = std::panic::catch_unwind(|| {
            compile_to_typed_ast(
                Source::Text {
                    name: &name,
                    text: &text,
                },
                &opts,
            )
        });
        let dt = t.elapsed();
        started.store(0, Ordering::Relaxed);
        if dt > slowest {
            slowest = dt;
            slowest_input.clone_from(&text);
        }
        match r {
            Ok(Ok(_)) => ok += 1,
            Ok(Err(d)) => {
                errors += 1;
                let s = d.to_string();
                assert!(s.contains(": error: "), "malformed diagnostic: {s}");
            }
            Err(_) => {
                let _ = std::fs::write("front_fuzz_crash.cl", &text);
                eprintln!("PANIC on input {i} (saved in front_fuzz_crash.cl)");
                std::process::exit(2);
            }
        }
        if (i + 1) % 100_000 == 0 {
            eprintln!(
                "{} runs, {ok} accepted, {errors} diagnosed, slowest {:?}, {:?} elapsed",
                i + 1,
                slowest,
                t0.elapsed()
            );
        }
    }
    // The slowest input, for a look at where time goes.
    let _ = std::fs::write("front_fuzz_slowest.cl", &slowest_input);
    println!("front_fuzz: {runs} runs (seed {seed:#x}): {ok} accepted, {errors} diagnosed, 0 panics, 0 hangs; slowest input {slowest:?}; total {:?}", t0.elapsed());
}
