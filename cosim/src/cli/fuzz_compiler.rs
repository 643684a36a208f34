//! `gpusim fuzz-compiler`: random OpenCL C programs compiled by gpusim and
//! by clang-19, run on the golden GPU and compared
//! ([`crate::fuzz::clgen`]); differences are reduced and saved (exit 4).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::CliError;
use crate::fuzz::clgen::{self, exec, Campaign, GenConfig, Outcome};

/// Runs `count` programs from `seed` on `jobs` threads, or re-checks one
/// saved source (`replay`) with the inputs of `seed`.
pub(crate) fn fuzz_compiler(
    seed: u64,
    count: u64,
    jobs: usize,
    out_dir: PathBuf,
    reduce_secs: u64,
    replay: Option<PathBuf>,
) -> Result<String, CliError> {
    exec::have_llvm().map_err(CliError::BadInput)?;
    if let Some(path) = replay {
        let src = std::fs::read_to_string(&path).map_err(|source| CliError::Io {
            path: path.clone(),
            source,
        })?;
        let dir = exec::Scratch::new("replay").map_err(|source| CliError::Io {
            path: std::env::temp_dir(),
            source,
        })?;
        return match exec::check_source(dir.path(), &src, seed) {
            Outcome::Agree => Ok(format!(
                "{}: gpusim and clang-19 agree (inputs of seed {seed})\n",
                path.display()
            )),
            Outcome::ClangWrong(m) => Ok(format!(
                "{}: clang-19's gfx1030 object is wrong here, gpusim is right: {m}\n",
                path.display()
            )),
            o => Err(CliError::Mismatch(format!("{}: {o:?}", path.display()))),
        };
    }
    if jobs == 0 || jobs > 256 {
        return Err(CliError::BadInput(format!("--jobs {jobs}: give 1..=256")));
    }
    crate::interrupt::install();
    let c = Campaign {
        seed,
        count,
        jobs,
        save_dir: out_dir.clone(),
        reduce_budget: Duration::from_secs(reduce_secs),
        gen: GenConfig::default(),
    };
    let start = Instant::now();
    let report = clgen::run_campaign(&c, &mut |r| {
        if r.programs % 50 == 0 {
            eprintln!(
                "{} programs, {:?}, {:.0} s",
                r.programs,
                r.counts,
                start.elapsed().as_secs_f64()
            );
        }
    })
    .map_err(CliError::BadInput)?;
    let mut out = format!(
        "{} programs (seeds {seed}..{}), {:.1} s:",
        report.programs,
        seed.wrapping_add(report.programs),
        start.elapsed().as_secs_f64()
    );
    for (k, n) in &report.counts {
        out += &format!(" {k} {n}");
    }
    out.push('\n');
    for (m, n) in &report.rejects {
        out += &format!("  gpusim refuses ({n}): {m}\n");
    }
    for (m, n) in &report.clang_rejects {
        out += &format!("  clang refuses, a generator bug ({n}): {m}\n");
    }
    for (s, m) in &report.clang_problems {
        out += &format!("  clang-19's program is wrong or fails, seed {s}: {m}\n");
    }
    for f in &report.failures {
        let text = match &f.outcome {
            Outcome::Differs(m) => m.clone(),
            o => format!("{o:?}"),
        };
        out += &format!(
            "DIFFERS seed {} ({} -> {} lines): {}\n  saved: {} (rerun: gpusim fuzz-compiler --seed {} --replay {})\n",
            f.seed,
            f.lines.0,
            f.lines.1,
            text.lines().next().unwrap_or(""),
            f.saved.display(),
            f.seed,
            f.saved.display()
        );
    }
    if report.failures.is_empty() {
        out += &format!(
            "no differences (failures would be saved in {})\n",
            out_dir.display()
        );
        Ok(out)
    } else {
        print!("{out}");
        Err(CliError::Mismatch(format!(
            "{} programs differ between gpusim and clang-19",
            report.failures.len()
        )))
    }
}
