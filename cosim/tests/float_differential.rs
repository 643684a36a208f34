//! The per-instruction differential over every floating-point ALU row (an
//! `f16`, `f32` or `f64` in the mnemonic): each row many times as a
//! one-instruction program on random operands, modifiers, EXEC and MODE,
//! golden against clocked GPU in lockstep, known list or not. The general
//! differential (`random_programs.rs`) runs each row twice; this one runs
//! the float rows `GPUSIM_FLOAT_TRIES` times (default 6) each, so float
//! specials, denormals and modifier combinations are all reached.

use arch::isa::Target;
use cosim::fuzz::{self, gen, Program, Verdict};

/// True for the rows the float differential covers.
fn is_float_row(mnemonic: &str) -> bool {
    ["f16", "f32", "f64"].iter().any(|t| mnemonic.contains(t))
}

#[test]
fn every_float_row_agrees_on_random_operands() {
    let tries: usize = std::env::var("GPUSIM_FLOAT_TRIES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    let only = std::env::var("GPUSIM_FLOAT_ONLY").ok();
    let rows: Vec<_> = gen::alu_rows(true)
        .into_iter()
        .filter(|r| is_float_row(r.opcode.mnemonic()))
        .filter(|r| {
            only.as_deref()
                .is_none_or(|o| r.opcode.mnemonic().contains(o))
        })
        .collect();
    let mut rng = gen::Rng::new(0xf10a7);
    let mut failures = Vec::new();
    let mut runs = 0u64;
    for (k, row) in rows.iter().enumerate() {
        let mut done = 0;
        let mut failed = 0;
        let mut example = None;
        for attempt in 0..tries * 50 {
            if done == tries {
                break;
            }
            let target = if (k + attempt) % 2 == 0 {
                Target::GFX1030_W32
            } else {
                Target::GFX1030_W64
            };
            let Some(inst) = gen::instruction(&mut rng, target, row) else {
                continue;
            };
            let p = Program::single(&mut rng, inst);
            runs += 1;
            done += 1;
            let v = fuzz::run(&p, None);
            if v != Verdict::Agree {
                failed += 1;
                if example.is_none() {
                    let text = match v {
                        Verdict::Mismatch(t) | Verdict::Error(t) => t,
                        Verdict::Agree => unreachable!(),
                    };
                    example = Some(format!(
                        "{inst} (mode {:#x}, {})\n    {}\n    inputs: {}\n    body: {}",
                        p.mode,
                        if target.wave64 { "w64" } else { "w32" },
                        text.lines().take(6).collect::<Vec<_>>().join("\n    "),
                        inputs(&p, &inst.to_string(), &text),
                        p.body_text().replace('\n', "; ")
                    ));
                }
            }
        }
        if let Some(e) = example {
            failures.push(format!("{} {failed}/{done}: {e}", row.opcode.mnemonic()));
        }
    }
    eprintln!("{} float rows, {runs} one-instruction programs", rows.len());
    assert!(
        failures.is_empty(),
        "{} float rows disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The initial values of the registers `inst` names, in the lane the
/// report's first mismatching row names: what a reader needs to redo the
/// computation by hand.
fn inputs(p: &Program, inst: &str, report: &str) -> String {
    let lane: usize = report
        .lines()
        .find_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let k = w.iter().position(|x| *x == "lane")?;
            w.get(k + 1)?.parse().ok()
        })
        .unwrap_or(0);
    let vgpr = |r: usize| {
        let at = lane * 128 + 4 * r;
        u32::from_le_bytes(p.data[at..at + 4].try_into().unwrap())
    };
    let mut out = format!("lane {lane}:");
    let args = inst.split_once(' ').map_or("", |(_, a)| a);
    for word in args.split([',', ' ', '|', '-']).filter(|w| !w.is_empty()) {
        let (kind, rest) = word.split_at(1);
        let first: Option<usize> = rest
            .trim_start_matches('[')
            .split([':', ']'])
            .next()
            .and_then(|n| n.parse().ok());
        let Some(n) = first else { continue };
        let dwords = if rest.starts_with('[') {
            let parts: Vec<usize> = rest
                .trim_matches(['[', ']'])
                .split(':')
                .filter_map(|x| x.parse().ok())
                .collect();
            parts.get(1).map_or(1, |hi| hi + 1 - n)
        } else {
            1
        };
        for k in 0..dwords {
            let r = n + k;
            match kind {
                "v" if (1..=23).contains(&r) => out += &format!(" v{r}={:#010x}", vgpr(r)),
                "s" if (10..=29).contains(&r) => {
                    out += &format!(" s{r}={:#010x}", p.scalars[r - 10])
                }
                _ => {}
            }
        }
    }
    out
}
