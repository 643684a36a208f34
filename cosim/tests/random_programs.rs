//! Random-program lockstep (the fixed CI slice; `gpusim fuzz-lockstep`
//! runs any number): random valid gfx1030 programs with the golden and the
//! clocked GPU in lockstep, every ALU table row through a one-instruction
//! differential, and a planted bug found and shrunk.

use arch::isa::Target;
use cosim::fuzz::{self, gen, Item, Program, Verdict};

/// Seeds 0..N of `gpusim fuzz-lockstep --seed 0 --programs N`.
#[test]
fn random_programs_agree_in_lockstep() {
    let programs: u64 = std::env::var("GPUSIM_FUZZ_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24);
    let report = fuzz::fuzz_lockstep(0, programs, 120, None, false, &mut |_| {});
    eprintln!(
        "{} programs, {} instructions executed, known divergences hit: {:?}",
        report.programs, report.instructions, report.known
    );
    let failures: Vec<String> = report
        .failures
        .iter()
        .map(|(seed, v, body)| {
            let m = match v {
                Verdict::Mismatch(t) | Verdict::Error(t) => fuzz::known::reported_mnemonic(t),
                Verdict::Agree => None,
            };
            format!("NEW {} seed {seed}: {body}", m.unwrap_or_default())
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(
        report.instructions >= programs * 60,
        "{} instructions",
        report.instructions
    );
    // The slice draws memory items of every family (SMEM, DS, GLOBAL, FLAT,
    // SCRATCH, MUBUF, MTBUF): the programs are regenerated from their seeds.
    let rows = gen::alu_rows(true);
    let mut families = std::collections::BTreeMap::new();
    for s in 0..programs {
        let mut rng = gen::Rng::new(s);
        let target = if s % 2 == 0 {
            Target::GFX1030_W32
        } else {
            Target::GFX1030_W64
        };
        let p = Program::random(&mut rng, target, &rows, 120);
        for item in &p.body {
            if let Item::Mem(m) = item {
                let memory = |i: &&arch::isa::Instruction| {
                    fuzz::mem::MemFamily::ALL
                        .iter()
                        .any(|f| f.family() == i.family)
                };
                for inst in m.iter().filter(memory) {
                    *families.entry(format!("{:?}", inst.family)).or_insert(0u32) += 1;
                }
            }
        }
    }
    eprintln!("memory instructions per family: {families:?}");
    if programs >= 24 {
        for f in fuzz::mem::MemFamily::ALL {
            let name = format!("{:?}", f.family());
            assert!(
                families.contains_key(&name),
                "{name} never drawn: {families:?}"
            );
        }
    }
}

/// Every ALU row of the gfx1030 tables (bar the excluded control, trap and
/// timer opcodes) as a one-instruction program on random operands, both
/// wave sizes.
#[test]
fn every_alu_row_through_the_per_instruction_differential() {
    let rows = gen::alu_rows(true);
    let mut rng = gen::Rng::new(0xd1ff);
    let mut known = 0;
    let mut never = Vec::new();
    let mut failures = Vec::new();
    let mut runs = 0;
    for (k, row) in rows.iter().enumerate() {
        let target = if k % 2 == 0 {
            Target::GFX1030_W32
        } else {
            Target::GFX1030_W64
        };
        let mut done = 0;
        for _ in 0..200 {
            let Some(inst) = gen::instruction(&mut rng, target, row) else {
                continue;
            };
            let p = Program::single(&mut rng, inst);
            runs += 1;
            let v = fuzz::run(&p, None);
            done += 1;
            if v != Verdict::Agree && fuzz::known::is_known(row.opcode.mnemonic()) {
                known += 1;
                if done == 2 {
                    break;
                }
                continue;
            }
            match v {
                Verdict::Agree => {}
                Verdict::Mismatch(_) => {
                    failures.push(format!("MISMATCH {}", inst.opcode.mnemonic()))
                }
                Verdict::Error(e) => failures.push(format!(
                    "ERROR {} {}",
                    inst.opcode.mnemonic(),
                    e.lines()
                        .next()
                        .unwrap_or("")
                        .chars()
                        .take(60)
                        .collect::<String>()
                )),
            }
            if done == 2 {
                break;
            }
        }
        if done == 0 {
            never.push(format!("{} {}", row.family, row.opcode.mnemonic()));
        }
    }
    eprintln!(
        "{} rows, {runs} programs ({known} stopped by known divergences), {} rows never encoded: {never:?}",
        rows.len(),
        never.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        never.is_empty(),
        "rows the generator cannot draw: {never:?}"
    );
}

/// A fault planted in the clocked model (EXEC bit 0 flipped by the first
/// instruction that writes EXEC) is found and shrunk to one EXEC write.
#[test]
fn a_planted_bug_is_found_and_shrunk() {
    let plant = Some(hw::inject::InjectKind::ExecBit { bit: 0 });
    let rows = gen::alu_rows(false);
    let mut rng = gen::Rng::new(7);
    let mut p = Program::random(&mut rng, Target::GFX1030_W32, &rows, 60);
    // Make sure something writes EXEC.
    p.body.insert(30, Item::SetExec(0x0f0f_f0f0));
    let v = fuzz::run(&p, plant);
    assert!(matches!(v, Verdict::Mismatch(_)), "{v:?}");
    assert_eq!(fuzz::run(&p, None), Verdict::Agree);
    let small = fuzz::shrink(&p, &|q| matches!(fuzz::run(q, plant), Verdict::Mismatch(_)));
    assert_eq!(small.body.len(), 1, "{}", small.body_text());
    let one = &small.body[0];
    assert!(
        matches!(one, Item::SetExec(_)) || matches!(one, Item::Inst(i) if gen::may_write_exec(i)),
        "{}",
        small.body_text()
    );
}

/// The command line: a clean slice exits 0 and says how much it ran; bad
/// input is exit 2.
#[test]
fn fuzz_lockstep_command() {
    let gpusim = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_gpusim"))
            .args(args)
            .output()
            .expect("gpusim runs")
    };
    let o = gpusim(&["fuzz-lockstep", "--seed", "0", "--programs", "3"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.starts_with("3 programs (seeds 0..3), "), "{out}");
    assert!(out.ends_with("no new disagreements\n"), "{out}");
    let o = gpusim(&["fuzz-lockstep", "--length", "0"]);
    assert_eq!(o.status.code(), Some(2));
    let o = gpusim(&["fuzz-lockstep", "--mem", "mubuf,lds"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("unknown memory family `lds`"), "{err}");
    let o = gpusim(&["fuzz-lockstep", "--mem-percent", "95"]);
    assert_eq!(o.status.code(), Some(2));
    let o = gpusim(&[
        "fuzz-lockstep",
        "--programs",
        "2",
        "--mem",
        "mtbuf,scratch",
        "--mem-percent",
        "50",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Per-family coverage of a run's memory items, without running it:
/// regenerates the programs of `gpusim fuzz-lockstep --seed S --programs N
/// --mem-percent P` (`GPUSIM_FUZZ_SEED`, `GPUSIM_FUZZ_PROGRAMS`,
/// `GPUSIM_FUZZ_MEM_PERCENT`; default the long run of docs/reliability.md)
/// and counts memory instructions and distinct rows per family; every row
/// of every family must be drawn.
#[test]
#[ignore = "a few seconds per 1,000 programs; run for the coverage of a long run"]
fn memory_coverage_of_a_run() {
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let (seed, programs) = (
        env("GPUSIM_FUZZ_SEED", 2000),
        env("GPUSIM_FUZZ_PROGRAMS", 8000),
    );
    let mix = fuzz::MemMix {
        percent: env("GPUSIM_FUZZ_MEM_PERCENT", 20),
        ..fuzz::MemMix::default()
    };
    let rows = gen::alu_rows(true);
    let mut drawn: std::collections::BTreeMap<String, (u64, std::collections::BTreeSet<&str>)> =
        Default::default();
    for i in 0..programs {
        let s = seed + i;
        let mut rng = gen::Rng::new(s);
        let target = if s % 2 == 0 {
            Target::GFX1030_W32
        } else {
            Target::GFX1030_W64
        };
        let p = Program::random_with(&mut rng, target, &rows, 120, &mix);
        for item in &p.body {
            if let Item::Mem(m) = item {
                for inst in m {
                    if let Some(f) = fuzz::mem::MemFamily::ALL
                        .iter()
                        .find(|f| f.family() == inst.family)
                    {
                        let e = drawn.entry(f.name().to_string()).or_default();
                        e.0 += 1;
                        e.1.insert(inst.opcode.mnemonic());
                    }
                }
            }
        }
    }
    let mut missing = Vec::new();
    for f in fuzz::mem::MemFamily::ALL {
        let all = fuzz::mem::rows(f);
        let (n, rows_drawn) = drawn.get(f.name()).cloned().unwrap_or_default();
        eprintln!(
            "{}: {n} instructions, {} of {} rows",
            f.name(),
            rows_drawn.len(),
            all.len()
        );
        missing.extend(
            all.iter()
                .map(|r| r.opcode.mnemonic())
                .filter(|m| !rows_drawn.contains(m)),
        );
    }
    assert!(missing.is_empty(), "rows never drawn: {missing:?}");
}
