//! `gpusim fuzz-lockstep`: random gfx1030 programs in lockstep (see
//! [`crate::fuzz`]); new disagreements are shrunk and printed, known ones
//! counted.

use super::CliError;
use crate::fuzz;

/// Runs `programs` programs from `seed`; exit 4 when a new disagreement
/// was found.
pub(crate) fn fuzz_lockstep(
    seed: u64,
    programs: u64,
    length: usize,
    include_known: bool,
    mem: Option<&str>,
    mem_percent: u64,
) -> Result<String, CliError> {
    if length == 0 || length > 100_000 {
        return Err(CliError::BadInput(format!(
            "--length {length}: give 1..=100000 instructions"
        )));
    }
    if mem_percent > 90 {
        return Err(CliError::BadInput(format!(
            "--mem-percent {mem_percent}: give 0..=90"
        )));
    }
    let mut mix = fuzz::MemMix {
        percent: mem_percent,
        ..fuzz::MemMix::default()
    };
    if let Some(list) = mem {
        mix.families = fuzz::mem::MemFamily::parse_list(list)
            .map_err(|e| CliError::BadInput(format!("--mem {list}: {e}")))?;
    }
    crate::interrupt::install();
    let start = std::time::Instant::now();
    let report = fuzz::fuzz_lockstep_with(
        seed,
        programs,
        length,
        &mix,
        None,
        include_known,
        &mut |r| {
            if r.programs % 100 == 0 {
                eprintln!(
                    "{} programs, {} instructions, {} new disagreements, {:.0} s",
                    r.programs,
                    r.instructions,
                    r.failures.len(),
                    start.elapsed().as_secs_f64()
                );
            }
        },
    );
    let mut out = format!(
        "{} programs (seeds {seed}..{}), {} instructions executed in lockstep, {:.1} s\n",
        report.programs,
        seed.wrapping_add(report.programs),
        report.instructions,
        start.elapsed().as_secs_f64()
    );
    let known: u64 = report.known.values().sum();
    if known > 0 {
        out += &format!("{known} programs stopped by known divergences (cosim::fuzz::known):");
        for (m, n) in &report.known {
            out += &format!(" {m} {n}");
        }
        out.push('\n');
    }
    for (s, verdict, body) in &report.failures {
        let text = match verdict {
            fuzz::Verdict::Mismatch(t) | fuzz::Verdict::Error(t) => t.as_str(),
            fuzz::Verdict::Agree => {
                "(passes when shrunk: the failure depends on more than the body)"
            }
        };
        out += &format!(
            "\nNEW seed {s} (rerun: gpusim fuzz-lockstep --seed {s} --programs 1); shrunk body:\n{body}{}\n",
            text.lines().next().unwrap_or("")
        );
    }
    if report.failures.is_empty() {
        out += "no new disagreements\n";
        Ok(out)
    } else {
        print!("{out}");
        Err(CliError::Mismatch(format!(
            "{} new disagreements between the golden and the clocked GPU",
            report.failures.len()
        )))
    }
}
