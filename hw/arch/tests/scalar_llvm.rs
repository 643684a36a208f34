//! Differential test of the scalar families (SOP1/SOP2/SOPK/SOPC/SOPP/SMEM)
//! against llvm-mc-19: random instruction words (and every value of the
//! symbolic 16-bit immediates) are decoded by both; LLVM's text must match ours,
//! words LLVM rejects must be rejected, and words LLVM decodes losslessly must be
//! accepted. Skipped with a note when llvm-mc-19 is not installed.
//!
//! `SCALAR_LLVM_CASES=N` sets the number of random words per family and target
//! (default 4000); `SCALAR_LLVM_FULL=1` also sweeps all 65536 immediates of every
//! SOPP/SOPK opcode.

use std::io::Write;
use std::process::{Command, Stdio};

use arch::isa::{decode, encode, tables, Family, Target};

/// `s_nop 0x2nnn`: a separator LLVM always decodes, placed six times after case
/// `n` (mod 4096) so that whatever LLVM makes of stray words, at least one
/// survives and tells which case the entries before it belong to.
fn mark(i: usize) -> u32 {
    0xbf80_2000 | (i as u32 & 0xfff)
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }
}

fn llvm_available() -> bool {
    Command::new("llvm-mc-19").arg("--version").output().is_ok()
}

/// LLVM's verdict on one case: `None` when it rejected the first word, else its
/// text and re-encoded bytes.
type Verdict = Option<(String, Vec<u8>)>;

fn run_llvm(target: Target, cases: &[Vec<u32>]) -> Vec<Verdict> {
    let mut input = String::new();
    for (i, case) in cases.iter().enumerate() {
        let words = case.iter().copied().chain([mark(i); 6]);
        let bytes: Vec<String> = words
            .flat_map(u32::to_le_bytes)
            .map(|b| format!("{b:#04x}"))
            .collect();
        input.push_str(&bytes.join(","));
        input.push('\n');
    }
    let mut cmd = Command::new("llvm-mc-19");
    cmd.args(["-arch=amdgcn", "--disassemble", "-show-encoding"]);
    cmd.arg(format!("-mcpu={}", target.isa.name()));
    if target.wave64 && target.isa == arch::isa::Isa::Gfx1030 {
        cmd.arg("-mattr=+wavefrontsize64");
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("llvm-mc output");
    writer.join().expect("writer").expect("write");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Lines (1-based) whose first byte LLVM rejected.
    let mut rejected = vec![false; cases.len() + 1];
    for l in stderr.lines() {
        let mut parts = l.split(':');
        if let (Some(_), Some(line), Some("1")) = (parts.next(), parts.next(), parts.next()) {
            if let Ok(n) = line.parse::<usize>() {
                if l.contains("invalid instruction encoding") && n <= cases.len() {
                    rejected[n] = true;
                }
            }
        }
    }
    // Entries after the separators of case i-1 and before those of case i belong to case i.
    let mut groups: Vec<Vec<(String, Vec<u8>)>> = vec![Vec::new(); cases.len() + 1];
    let mut current = 0usize; // the case whose entries are being collected
    for l in stdout.lines() {
        let Some((text, enc)) = l.split_once("; encoding: [") else {
            continue;
        };
        let text = text.trim().to_string();
        let bytes: Vec<u8> = enc
            .trim_end_matches(']')
            .split(',')
            .filter_map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).ok())
            .collect();
        if bytes.len() == 4 {
            let word = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
            // A separator closes the case being collected (or repeats the previous one's).
            if let Some(c) = (current.saturating_sub(1)..current + 16)
                .find(|&c| c < cases.len() && word == mark(c))
            {
                current = c + 1;
                continue;
            }
        }
        if let Some(g) = groups.get_mut(current) {
            g.push((text, bytes));
        }
    }
    (0..cases.len())
        .map(|i| {
            if rejected[i + 1] {
                None
            } else {
                groups.get(i).and_then(|g| g.first().cloned())
            }
        })
        .collect()
}

/// Compares our decoder with LLVM's verdicts; returns mismatch descriptions.
fn compare(target: Target, cases: &[Vec<u32>], verdicts: &[Verdict]) -> Vec<String> {
    let mut bad = Vec::new();
    for (case, verdict) in cases.iter().zip(verdicts) {
        let bytes: Vec<u8> = case.iter().flat_map(|w| w.to_le_bytes()).collect();
        let ours = decode(target, &bytes);
        let hex: Vec<String> = case.iter().map(|w| format!("{w:08x}")).collect();
        match (verdict, &ours) {
            (None, Ok(inst)) => {
                bad.push(format!("{} LLVM rejects, we print `{inst}`", hex.join(" ")))
            }
            // LLVM flags an operand as invalid inside its text: we must reject.
            (Some((text, _)), Ok(inst)) if text.contains("/*") => bad.push(format!(
                "{} LLVM `{text}`, we accept `{inst}`",
                hex.join(" ")
            )),
            (None, Err(_)) => {}
            (Some((text, enc)), Ok(inst)) => {
                if *text != inst.to_string() {
                    bad.push(format!("{} LLVM `{text}`, ours `{inst}`", hex.join(" ")));
                }
                let mut again = Vec::new();
                if encode(inst, &mut again).is_err() || again[..] != bytes[..usize::from(inst.size)]
                {
                    bad.push(format!("{} round trip failed for `{inst}`", hex.join(" ")));
                }
                let _ = enc;
            }
            (Some((text, enc)), Err(e)) => {
                // Rejecting is fine when LLVM's decoding is lossy (its re-encoding differs).
                if bytes.starts_with(enc) && !text.contains("/*") {
                    bad.push(format!(
                        "{} LLVM `{text}` (lossless), we reject: {e}",
                        hex.join(" ")
                    ));
                }
            }
        }
    }
    bad
}

fn family_prefix(family: Family, isa: arch::isa::Isa, r: u32) -> u32 {
    match family {
        Family::Sop2 => 0x8000_0000 | (r & 0x3fff_ffff),
        Family::Sopk => 0xb000_0000 | (r & 0x0fff_ffff),
        Family::Sop1 => 0xbe80_0000 | (r & 0x007f_ffff),
        Family::Sopc => 0xbf00_0000 | (r & 0x007f_ffff),
        Family::Sopp => 0xbf80_0000 | (r & 0x007f_ffff),
        _ => match isa {
            arch::isa::Isa::Gfx803 => 0xc000_0000 | (r & 0x03ff_ffff),
            arch::isa::Isa::Gfx1030 => 0xf400_0000 | (r & 0x03ff_ffff),
        },
    }
}

/// Random cases biased towards existing opcodes and interesting operand codes.
fn random_cases(target: Target, family: Family, n: usize, rng: &mut Rng) -> Vec<Vec<u32>> {
    let rows: Vec<u16> = tables::tables(target.isa)
        .rows
        .iter()
        .filter(|r| r.family == family)
        .map(|r| r.number)
        .collect();
    let mut cases = Vec::with_capacity(n);
    for _ in 0..n {
        let mut w = family_prefix(family, target.isa, rng.next());
        // Force a real opcode most of the time.
        if !rows.is_empty() && rng.next() % 8 != 0 {
            let op = u32::from(rows[rng.next() as usize % rows.len()]);
            w = match family {
                Family::Sop2 => (w & !(0x7f << 23)) | (op << 23),
                Family::Sopk => (w & !(0x1f << 23)) | (op << 23),
                Family::Sop1 => (w & !(0xff << 8)) | (op << 8),
                Family::Sopc | Family::Sopp => (w & !(0x7f << 16)) | (op << 16),
                _ => (w & !(0xff << 18)) | (op << 18),
            };
        }
        // Keep cases distinct from the separators (`s_nop 0x2nnn`).
        if w & 0xffff_f000 == 0xbf80_2000 {
            w ^= 0x4000;
        }
        let mut second = rng.next();
        match family {
            // Mostly small register numbers and clean reserved bits.
            Family::Smem if rng.next() % 2 == 0 => {
                w &= !0x0000_e000
                    | (rng.next() & 0x0000_e000 & if rng.next() % 8 == 0 { !0 } else { 0 });
                second &= if target.isa == arch::isa::Isa::Gfx803 {
                    0x000f_ffff
                } else {
                    0xfe1f_ffff
                };
                if rng.next() % 2 == 0 {
                    second &= 0xfe00_00ff;
                }
            }
            Family::Sop1 | Family::Sop2 | Family::Sopc if rng.next() % 4 == 0 => w |= 0xff,
            _ => {}
        }
        cases.push(vec![w, second]);
    }
    cases
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

const TARGETS: [Target; 3] = [Target::GFX1030_W32, Target::GFX1030_W64, Target::GFX803];

#[test]
fn scalar_families_match_llvm_on_random_words() {
    if !llvm_available() {
        eprintln!("note: llvm-mc-19 not installed; skipping the LLVM differential test");
        return;
    }
    let n = env_usize("SCALAR_LLVM_CASES", 4000);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut total = 0;
    let mut report = Vec::new();
    for target in TARGETS {
        for family in [
            Family::Sop1,
            Family::Sop2,
            Family::Sopk,
            Family::Sopc,
            Family::Sopp,
            Family::Smem,
        ] {
            let cases = random_cases(target, family, n, &mut rng);
            let verdicts = run_llvm(target, &cases);
            let bad = compare(target, &cases, &verdicts);
            eprintln!(
                "{:?} {family}: {} cases, {} mismatches",
                target,
                cases.len(),
                bad.len()
            );
            total += bad.len();
            report.extend(
                bad.into_iter()
                    .take(if std::env::var("SCALAR_LLVM_ALL").is_ok() {
                        usize::MAX
                    } else {
                        15
                    }),
            );
        }
    }
    assert!(
        total == 0,
        "{total} mismatches, first ones:\n{}",
        report.join("\n")
    );
}

#[test]
fn scalar_immediates_match_llvm() {
    if !llvm_available() {
        eprintln!("note: llvm-mc-19 not installed; skipping the LLVM differential test");
        return;
    }
    let full = std::env::var("SCALAR_LLVM_FULL").is_ok();
    let mut total = 0;
    let mut report = Vec::new();
    for target in [Target::GFX1030_W32, Target::GFX803] {
        for row in tables::tables(target.isa).rows {
            let (base, symbolic) = match row.family {
                Family::Sopp => (0xbf80_0000 | u32::from(row.number) << 16, true),
                Family::Sopk => (0xb000_0000 | u32::from(row.number) << 23 | 2 << 16, true),
                _ => continue,
            };
            let name = row.opcode.mnemonic();
            let special = [
                "s_waitcnt",
                "s_sendmsg",
                "s_getreg",
                "s_setreg_b32",
                "s_version",
                "s_set_gpr_idx",
            ]
            .iter()
            .any(|p| name.starts_with(p));
            let step = if full || (special && symbolic) { 1 } else { 61 };
            // `s_nop 0x2nnn` is the separator itself; the other s_nop values cover its rule.
            let cases: Vec<Vec<u32>> = (0..=0xffffu32)
                .step_by(step)
                .map(|imm| base | imm)
                .filter(|&w| w & 0xffff_f000 != 0xbf80_2000)
                .map(|w| vec![w, 0x0000_0041])
                .collect();
            let verdicts = run_llvm(target, &cases);
            let bad = compare(target, &cases, &verdicts);
            if !bad.is_empty() {
                eprintln!("{:?} {name}: {} mismatches", target, bad.len());
            }
            total += bad.len();
            report.extend(bad.into_iter().take(5));
        }
    }
    assert!(
        total == 0,
        "{total} mismatches, first ones:\n{}",
        report.join("\n")
    );
}

/// Assembles `lines` with llvm-mc-19; `None` for lines it rejects.
fn llvm_assemble(target: Target, lines: &[String]) -> Vec<Option<Vec<u8>>> {
    let mut cmd = Command::new("llvm-mc-19");
    cmd.args(["-arch=amdgcn", "-show-encoding"]);
    cmd.arg(format!("-mcpu={}", target.isa.name()));
    if target.wave64 && target.isa == arch::isa::Isa::Gfx1030 {
        cmd.arg("-mattr=+wavefrontsize64");
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = lines.join("\n") + "\n";
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().expect("llvm-mc output");
    writer.join().expect("writer").expect("write");
    let mut failed = vec![false; lines.len() + 1];
    for l in String::from_utf8_lossy(&out.stderr).lines() {
        let mut parts = l.split(':');
        if let (Some(_), Some(n), Some(_), Some(kind)) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        {
            if kind.trim() == "error" {
                if let Ok(n) = n.parse::<usize>() {
                    if n <= lines.len() {
                        failed[n] = true;
                    }
                }
            }
        }
    }
    let mut encodings = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_once("; encoding: [").map(|(_, e)| e.to_string()))
        .collect::<Vec<_>>()
        .into_iter();
    (1..=lines.len())
        .map(|n| {
            if failed[n] {
                return None;
            }
            let enc = encodings.next()?;
            Some(
                enc.trim_end_matches(']')
                    .split(',')
                    .filter_map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).ok())
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn scalar_assembly_matches_llvm() {
    if !llvm_available() {
        eprintln!("note: llvm-mc-19 not installed; skipping the LLVM differential test");
        return;
    }
    let n = env_usize("SCALAR_LLVM_CASES", 4000);
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut total = 0;
    let mut report = Vec::new();
    for target in TARGETS {
        for family in [
            Family::Sop1,
            Family::Sop2,
            Family::Sopk,
            Family::Sopc,
            Family::Sopp,
            Family::Smem,
        ] {
            let lines: Vec<String> = random_cases(target, family, n, &mut rng)
                .iter()
                .filter_map(|case| {
                    let bytes: Vec<u8> = case.iter().flat_map(|w| w.to_le_bytes()).collect();
                    decode(target, &bytes).ok().map(|i| i.to_string())
                })
                .collect();
            let theirs = llvm_assemble(target, &lines);
            let mut bad = 0;
            for (line, want) in lines.iter().zip(&theirs) {
                let ours = arch::isa::assemble(target, line);
                // LLVM's assembler refuses some texts its disassembler prints (gfx803
                // `null`/`xnack_mask`, negative gfx1030 buffer offsets, ...); we accept
                // them so that every printed instruction assembles back.
                let ok = match (want, &ours) {
                    (Some(w), Ok(o)) => w == o,
                    (Some(_), Err(_)) => false,
                    (None, _) => true,
                };
                if !ok {
                    bad += 1;
                    if report.len() < 40 {
                        report.push(format!(
                            "{target:?} `{line}`: LLVM {want:02x?}, ours {ours:02x?}"
                        ));
                    }
                }
            }
            eprintln!(
                "{:?} {family}: {} lines, {bad} assembly mismatches",
                target,
                lines.len()
            );
            total += bad;
        }
    }
    assert!(
        total == 0,
        "{total} mismatches, first ones:\n{}",
        report.join("\n")
    );
}

/// A few OpenCL kernels exercising scalar loads, branches, waits, 64-bit scalar
/// arithmetic and barriers.
const KERNELS: &str = r#"
__kernel void saxpy(__global float *y, __global const float *x, float a, int n) {
  int i = __builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workgroup_id_x() * 256;
  if (i < n) y[i] = a * x[i] + y[i];
}
__kernel void reduce(__global int *out, __global const int *in, int n, __local int *tmp) {
  int l = __builtin_amdgcn_workitem_id_x();
  int s = 0;
  for (int i = l; i < n; i += 64) s += in[i] * (i & 3 ? 2 : 1);
  tmp[l] = s;
  __builtin_amdgcn_s_barrier();
  for (int k = 32; k > 0; k >>= 1) { if (l < k) tmp[l] += tmp[l + k]; __builtin_amdgcn_s_barrier(); }
  if (l == 0) out[__builtin_amdgcn_workgroup_id_x()] = tmp[0];
}
__kernel void loops(__global long *o, long a, ulong b, int n) {
  long acc = 0;
  for (int i = 0; i < n; i++) { acc = acc * 3 + (a >> (i & 63)) ^ (b << i); if (acc == 12345) break; }
  o[__builtin_amdgcn_workitem_id_x()] = acc / (b | 1) + acc % 7;
}
"#;

#[test]
fn scalar_instructions_of_compiled_kernels_match_objdump() {
    let tools = ["clang-19", "ld.lld-19", "llvm-objdump-19"];
    if tools
        .iter()
        .any(|t| Command::new(t).arg("--version").output().is_err())
    {
        eprintln!(
            "note: clang-19/ld.lld-19/llvm-objdump-19 not installed; skipping the kernel check"
        );
        return;
    }
    let dir = std::env::temp_dir().join(format!("scalar_kernels_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let src = dir.join("k.cl");
    std::fs::write(&src, KERNELS).expect("write kernel");
    let mut checked = 0;
    let mut bad = Vec::new();
    for (target, flags) in [
        (Target::GFX1030_W32, vec![]),
        (Target::GFX1030_W64, vec!["-mwavefrontsize64"]),
        (Target::GFX803, vec![]),
    ] {
        let obj = dir.join(format!("k_{}_{}.o", target.isa.name(), target.wave64));
        let so = obj.with_extension("hsaco");
        let status = Command::new("clang-19")
            .args([
                "-x",
                "cl",
                "-cl-std=CL2.0",
                "-target",
                "amdgcn-amd-amdhsa",
                "-O3",
                "-nogpulib",
                "-c",
            ])
            .arg(format!("-mcpu={}", target.isa.name()))
            .args(&flags)
            .arg(&src)
            .arg("-o")
            .arg(&obj)
            .status()
            .expect("clang");
        assert!(status.success(), "clang-19 failed");
        assert!(Command::new("ld.lld-19")
            .arg("-shared")
            .arg(&obj)
            .arg("-o")
            .arg(&so)
            .status()
            .expect("lld")
            .success());
        let out = Command::new("llvm-objdump-19")
            .arg("-d")
            .arg(&so)
            .output()
            .expect("objdump");
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let Some((text, rest)) = line.split_once("//") else {
                continue;
            };
            let Some((_, hex)) = rest.split_once(": ") else {
                continue;
            };
            let words: Vec<u32> = hex
                .split_whitespace()
                .map_while(|w| u32::from_str_radix(w, 16).ok())
                .collect();
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            let inst = match decode(target, &bytes) {
                Ok(inst) => inst,
                Err(e) if text.trim().starts_with("s_") => {
                    bad.push(format!(
                        "{target:?}: objdump `{}`, we reject: {e}",
                        text.trim()
                    ));
                    continue;
                }
                Err(_) => continue,
            };
            if !matches!(
                inst.family,
                Family::Sop1
                    | Family::Sop2
                    | Family::Sopk
                    | Family::Sopc
                    | Family::Sopp
                    | Family::Smem
            ) {
                continue;
            }
            checked += 1;
            if inst.to_string() != text.trim() {
                bad.push(format!(
                    "{target:?}: objdump `{}`, ours `{inst}`",
                    text.trim()
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("{checked} scalar instructions compared with llvm-objdump-19");
    assert!(
        checked > 50,
        "too few scalar instructions found ({checked})"
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
