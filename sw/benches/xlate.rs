//! Translation throughput and linearity (issue 9: >= 10 M legacy
//! instructions/s; time linear in program size from 10^3 to 10^6).
//! `cargo bench -p sw --bench xlate`.
//!
//! The programs are real compiler output: the bodies of the gfx803 corpus
//! kernels (`tests/kernels/prebuilt/gfx803`, ~2,900 instructions of LLVM 19
//! code: carries, FLAT/SMEM/LDS/scratch, waits, branches, loops, mads)
//! concatenated — each kernel's `s_endpgm` but the last becomes `s_barrier`
//! so that everything stays reachable, and branches keep their targets
//! because each body stays contiguous — and repeated until the program has
//! the wanted size. Rates are given in the thread's CPU time
//! (`/proc/thread-self/schedstat`, which the kernel updates at scheduler
//! ticks: batches are ~0.3 s so that a tick is ~1%) and in wall time; each
//! size runs five batches and reports the best and the median (the machine
//! is shared). Fingerprints of the translated corpus and of each program's
//! output are printed too (a faster translator must emit the same bytes).

use std::time::Instant;

use arch::code_object::CodeObject;
use arch::isa::{decode, Opcode, Target};
use sw::xlate::{translate_code, Binding};

/// `s_barrier` (gfx8 SOPP opcode 10).
const S_BARRIER: [u8; 4] = [0x00, 0x00, 0x8a, 0xbf];
/// `s_endpgm`.
const S_ENDPGM: [u8; 4] = [0x00, 0x00, 0x81, 0xbf];

/// The code of every kernel of the gfx803 corpus objects, objects in file
/// name order.
fn corpus_codes() -> Result<Vec<Vec<u8>>, String> {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/kernels/prebuilt/gfx803"
    );
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{dir}: {e}"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "hsaco"))
        .collect();
    paths.sort();
    let mut codes = Vec::new();
    for p in paths {
        let bytes = std::fs::read(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        let object = CodeObject::parse(&bytes).map_err(|e| format!("{}: {e}", p.display()))?;
        codes.extend(object.kernels().iter().map(|k| k.code.to_vec()));
    }
    Ok(codes)
}

/// Each corpus kernel's code, `s_endpgm` (and what follows it: padding)
/// replaced by one `s_barrier`; with its instruction count.
fn corpus_bodies() -> Result<Vec<(Vec<u8>, usize)>, String> {
    let mut bodies = Vec::new();
    for code in corpus_codes()? {
        let mut body = Vec::with_capacity(code.len());
        let mut at = 0;
        let mut n = 0;
        // Up to the last s_endpgm; any earlier one (none in the corpus
        // today) also becomes a barrier.
        let last_end = last_endpgm(&code);
        while at < last_end {
            let inst = decode(Target::GFX803, &code[at..]).map_err(|e| e.to_string())?;
            let size = usize::from(inst.size.max(4));
            if inst.opcode == Opcode::S_ENDPGM {
                body.extend_from_slice(&S_BARRIER);
            } else {
                body.extend_from_slice(&code[at..at + size]);
            }
            at += size;
            n += 1;
        }
        body.extend_from_slice(&S_BARRIER);
        bodies.push((body, n + 1));
    }
    Ok(bodies)
}

/// Byte offset of the last `s_endpgm` reached by decoding from the start.
fn last_endpgm(code: &[u8]) -> usize {
    let (mut at, mut last) = (0, 0);
    while let Ok(inst) = decode(Target::GFX803, &code[at..]) {
        if inst.opcode == Opcode::S_ENDPGM {
            last = at;
        }
        at += usize::from(inst.size.max(4));
        if at >= code.len() {
            break;
        }
    }
    last
}

/// Nanoseconds this thread has run on a CPU (Linux), if known.
fn thread_cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// 64-bit FNV-1a.
fn fnv1a(h: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// FNV-1a over every corpus kernel's translated code and offset map.
fn corpus_fingerprint(binding: &Binding) -> Result<u64, String> {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for code in corpus_codes()? {
        let t = translate_code(&code, binding).map_err(|e| e.to_string())?;
        h = fnv1a(h, &t.code);
        for (a, b) in &t.offset_map {
            h = fnv1a(h, &a.to_le_bytes());
            h = fnv1a(h, &b.to_le_bytes());
        }
    }
    Ok(h)
}

/// Timed batches per program size.
const BATCHES: usize = 5;

fn main() {
    let bodies = match corpus_bodies() {
        Ok(b) => b,
        Err(e) => return eprintln!("{e}"),
    };
    let unit: usize = bodies.iter().map(|b| b.1).sum();
    println!(
        "corpus mix: {} kernels, {unit} instructions per repetition",
        bodies.len()
    );
    // `s_getpc_b64` needs a legacy address; any will do for timing.
    let binding = Binding {
        legacy_entry: 0x1_0000_0000,
        private_bytes_per_item: 1024,
        ..Binding::default()
    };
    // A fingerprint of the translated corpus (every kernel as compiled), so
    // that a faster translator can be checked to emit the same bytes.
    match corpus_fingerprint(&binding) {
        Ok(h) => {
            println!("translated corpus fingerprint (FNV-1a over code and offset maps): {h:016x}")
        }
        Err(e) => return eprintln!("{e}"),
    }
    println!("| legacy instructions | batches×runs | ns/inst (CPU, best) | M inst/s (CPU, best) | ns/inst (CPU, median) | M inst/s (CPU, median) | M inst/s (wall, that batch) | out/in |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    for want in [1_000usize, 10_000, 100_000, 1_000_000] {
        let mut code = Vec::new();
        let mut n = 0;
        'fill: loop {
            for (b, k) in &bodies {
                if n >= want {
                    break 'fill;
                }
                code.extend_from_slice(b);
                n += k;
            }
        }
        code.extend_from_slice(&S_ENDPGM);
        // About 3·10^6 instructions per batch (at least one run).
        let runs = (3_000_000 / n).max(1);
        // One warm-up run (page faults of the first allocation, caches).
        if let Err(e) = translate_code(&code, &binding) {
            return eprintln!("{e}");
        }
        let mut batches = Vec::with_capacity(BATCHES);
        let mut last = None;
        for _ in 0..BATCHES {
            let cpu0 = thread_cpu_ns();
            let start = Instant::now();
            for _ in 0..runs {
                last = Some(translate_code(&code, &binding));
            }
            let wall = start.elapsed().as_secs_f64() / runs as f64;
            let cpu = match (cpu0, thread_cpu_ns()) {
                (Some(a), Some(b)) => (b - a) as f64 * 1e-9 / runs as f64,
                _ => wall,
            };
            batches.push((cpu, wall));
        }
        batches.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (best, median) = (batches[0], batches[BATCHES / 2]);
        match last {
            Some(Ok(t)) => {
                eprintln!(
                    "{} instructions: output fingerprint {:016x}",
                    t.counts.instructions_in,
                    fnv1a(0xcbf2_9ce4_8422_2325, &t.code)
                );
                let inst = t.counts.instructions_in as f64;
                println!(
                    "| {} | {BATCHES}×{runs} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.3} |",
                    t.counts.instructions_in,
                    best.0 * 1e9 / inst,
                    inst / best.0 / 1e6,
                    median.0 * 1e9 / inst,
                    inst / median.0 / 1e6,
                    inst / median.1 / 1e6,
                    t.counts.instructions_out as f64 / inst
                )
            }
            Some(Err(e)) => println!("error: {e}"),
            None => {}
        }
    }
}
