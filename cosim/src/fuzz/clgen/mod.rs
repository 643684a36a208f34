//! The random-program differential of gpusim's OpenCL C compiler against
//! clang-19 (`gpusim fuzz-compiler`, issue 25): random OpenCL C programs
//! with defined behaviour ([`gen`], [`prelude`]) are compiled by both
//! compilers and run on the golden GPU ([`exec`]); a program whose buffers
//! differ is shrunk to a minimal failing source ([`reduce`]) and saved.
//!
//! Program `i` of a campaign uses seed `seed + i` for its source and its
//! inputs, so `--seed S --count 1` reproduces any one of them.

pub mod exec;
pub mod gen;
pub mod prelude;
pub mod reduce;
pub mod scalar;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

pub use exec::Outcome;
pub use gen::{generate, GenConfig, Program};

/// A campaign's settings.
#[derive(Clone, Debug)]
pub struct Campaign {
    /// Seed of the first program.
    pub seed: u64,
    /// Programs to run.
    pub count: u64,
    /// Worker threads.
    pub jobs: usize,
    /// Where failing programs (original and reduced) are written.
    pub save_dir: PathBuf,
    /// Time the reducer may spend on one failure (zero: do not reduce).
    pub reduce_budget: Duration,
    /// The generator's knobs.
    pub gen: GenConfig,
}

/// A failure found (and saved).
#[derive(Clone, Debug)]
pub struct Failure {
    /// The program's seed.
    pub seed: u64,
    /// What the reduced program does.
    pub outcome: Outcome,
    /// The reduced source's path.
    pub saved: PathBuf,
    /// Lines of the original and the reduced source.
    pub lines: (usize, usize),
}

/// What a campaign found so far.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Programs checked.
    pub programs: u64,
    /// Programs per outcome class ([`Outcome::class`]).
    pub counts: BTreeMap<&'static str, u64>,
    /// gpusim's refusals by message (location stripped).
    pub rejects: BTreeMap<String, u64>,
    /// Generator bugs: clang's first error by message.
    pub clang_rejects: BTreeMap<String, u64>,
    /// Differences and crashes, reduced.
    pub failures: Vec<Failure>,
    /// Programs whose clang object faulted, that clang refused, or where
    /// the host-CPU tie-breaker sided with gpusim (the first 20): generator
    /// bugs, or clang's.
    pub clang_problems: Vec<(u64, String)>,
}

/// The message of a `file:line:col: error: msg` diagnostic's first line.
fn message(diag: &str) -> String {
    let first = diag
        .lines()
        .find(|l| l.contains("error:"))
        .unwrap_or(diag.lines().next().unwrap_or(""));
    match first.find("error:") {
        Some(i) => first[i + 6..].trim().to_string(),
        None => first.trim().to_string(),
    }
}

/// Runs campaign `c`, calling `progress` after every program; stops early
/// when Ctrl-C was pressed ([`crate::interrupt`]).
pub fn run_campaign(c: &Campaign, progress: &mut dyn FnMut(&Report)) -> Result<Report, String> {
    exec::have_llvm()?;
    std::fs::create_dir_all(&c.save_dir).map_err(|e| format!("{}: {e}", c.save_dir.display()))?;
    let next = Arc::new(AtomicU64::new(0));
    let (tx, rx) = mpsc::channel();
    let mut workers = Vec::new();
    for w in 0..c.jobs.max(1) {
        let (next, tx, c) = (next.clone(), tx.clone(), c.clone());
        workers.push(std::thread::spawn(move || -> Result<(), String> {
            let dir = exec::Scratch::new(&format!("w{w}")).map_err(|e| e.to_string())?;
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= c.count || crate::interrupt::requested() {
                    return Ok(());
                }
                let seed = c.seed.wrapping_add(i);
                let p = generate(seed, &c.gen);
                let o = exec::check(dir.path(), &p, seed);
                let failure = match o {
                    Outcome::Differs(_) => Some(save(&c, dir.path(), &p, seed, &o)?),
                    Outcome::ClangFault(_) | Outcome::ClangRejects(_) | Outcome::ClangWrong(_) => {
                        // Kept for a look by hand: a generator bug or clang's.
                        let f = c.save_dir.join(format!("seed-{seed}.clang.cl"));
                        std::fs::write(&f, p.source())
                            .map_err(|e| format!("{}: {e}", f.display()))?;
                        None
                    }
                    _ => None,
                };
                if tx.send((seed, o, failure)).is_err() {
                    return Ok(());
                }
            }
        }));
    }
    drop(tx);
    let mut r = Report::default();
    for (seed, o, failure) in rx {
        r.programs += 1;
        *r.counts.entry(o.class()).or_default() += 1;
        match &o {
            Outcome::GpusimRejects(m) => *r.rejects.entry(message(m)).or_default() += 1,
            Outcome::ClangRejects(m) => *r.clang_rejects.entry(message(m)).or_default() += 1,
            _ => {}
        }
        if let Outcome::ClangRejects(m) | Outcome::ClangFault(m) | Outcome::ClangWrong(m) = &o {
            if r.clang_problems.len() < 20 {
                r.clang_problems.push((seed, message(m)));
            }
        }
        r.failures.extend(failure);
        progress(&r);
    }
    for w in workers {
        w.join()
            .map_err(|_| "a fuzz worker panicked".to_string())??;
    }
    Ok(r)
}

/// Reduces and saves a failing program: `seed-S.cl` (reduced, with the
/// outcome in a comment) and `seed-S.orig.cl`.
fn save(
    c: &Campaign,
    dir: &std::path::Path,
    p: &Program,
    seed: u64,
    o: &Outcome,
) -> Result<Failure, String> {
    let orig = c.save_dir.join(format!("seed-{seed}.orig.cl"));
    std::fs::write(&orig, p.source()).map_err(|e| format!("{}: {e}", orig.display()))?;
    let (lines, outcome) = if c.reduce_budget.is_zero() {
        (p.lines.clone(), o.clone())
    } else {
        reduce::reduce(dir, p.lines.clone(), seed, o, c.reduce_budget)
    };
    let text = match &outcome {
        Outcome::Differs(m) => m.clone(),
        other => format!("{other:?}"),
    };
    let mut src = format!(
        "// reduced from seed {seed} (inputs: cosim::fuzz::clgen::exec::inputs({seed})): {}\n",
        text.replace('\n', " ")
    );
    src += &(lines.join("\n") + "\n");
    let saved = c.save_dir.join(format!("seed-{seed}.cl"));
    std::fs::write(&saved, src).map_err(|e| format!("{}: {e}", saved.display()))?;
    Ok(Failure {
        seed,
        outcome,
        saved,
        lines: (p.lines.len(), lines.len()),
    })
}

/// Seconds since `t`, for reports.
pub fn secs(t: Instant) -> f64 {
    t.elapsed().as_secs_f64()
}
