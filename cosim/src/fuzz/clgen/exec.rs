//! One differential check: a program compiled by gpusim's compiler
//! (in-process; wave32 -O, wave64 -O and wave32 -O0) and by clang-19 with
//! the corpus's command (`-x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa
//! -mcpu=gfx1030 -O3 -nogpulib`, then `ld.lld-19 -shared`, as
//! `tests/kernels/conformance/build.sh` does), each run on the golden GPU
//! with the same buffers; every buffer's final bytes must be identical.
//!
//! CL2.0 rather than CL1.2: the shared helper header `gpusim_cl.h` builds
//! its atomics from the OpenCL 2.0 `atomic_uint` types; the programs use
//! nothing else of 2.0.

use std::path::{Path, PathBuf};
use std::process::Command;

use arch::isa::Isa;
use golden::{GoldenConfig, GoldenGpu};
use sw::driver::{Arg, Driver, LaunchDims};

use super::gen::{Program, ACC, CB_LEN, GRID, IN_LEN, M, WG};
use crate::fuzz::gen::Rng;

/// The helper header the programs include (also given to clang).
pub const HEADER: &str = include_str!("../../../../tests/kernels/include/gpusim_cl.h");
/// The host-CPU harness of the corpus (work-items as threads), the
/// tie-breaker's runtime.
const HARNESS: &str = include_str!("../../../../tests/kernels/host/harness.c");

/// Wave instructions one launch may run before the golden GPU's watchdog
/// stops it (a generated program runs far fewer; a miscompiled loop that
/// does not end is reported instead of hanging the fuzzer).
const BUDGET: u64 = 20_000_000;

/// The result of checking one program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every variant left the same bytes as clang's object.
    Agree,
    /// gpusim's compiler refused the program (its diagnostic).
    GpusimRejects(String),
    /// clang-19 refused it: a generator bug (clang's message).
    ClangRejects(String),
    /// clang's object faulted or hit the watchdog on the golden GPU.
    ClangFault(String),
    /// A gpusim variant left different bytes or faulted.
    Differs(String),
    /// gpusim differs from clang's gfx1030 object but agrees with the
    /// tie-breaker (the same source compiled for the host CPU by clang-19
    /// and run work-item per thread): clang's AMDGPU back end is wrong.
    ClangWrong(String),
}

impl Outcome {
    /// A one-word class for counting.
    pub fn class(&self) -> &'static str {
        match self {
            Outcome::Agree => "agree",
            Outcome::GpusimRejects(_) => "gpusim-rejects",
            Outcome::ClangRejects(_) => "clang-rejects",
            Outcome::ClangFault(_) => "clang-fault",
            Outcome::Differs(_) => "differs",
            Outcome::ClangWrong(_) => "clang-wrong",
        }
    }
}

/// Whether clang-19 and ld.lld-19 run (the reason if not).
pub fn have_llvm() -> Result<(), String> {
    for t in ["clang-19", "ld.lld-19"] {
        let ok = Command::new(t)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            return Err(format!(
                "{t} is not on PATH: the compiler differential needs clang-19 and lld-19 (apt-get install clang-19 lld-19)"
            ));
        }
    }
    Ok(())
}

/// A scratch directory holding the header, removed when dropped.
pub struct Scratch(PathBuf);

impl Scratch {
    /// A fresh directory under the system temp directory.
    pub fn new(tag: &str) -> std::io::Result<Scratch> {
        let dir = std::env::temp_dir().join(format!("gpusim-clgen-{}-{tag}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join("gpusim_cl.h"), HEADER)?;
        Ok(Scratch(dir))
    }
    /// The directory.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The initial bytes of the buffer arguments (out, in, cb, gbuf, acc),
/// derived from `seed`: random words with float specials and small values.
pub fn inputs(seed: u64) -> Vec<Vec<u8>> {
    let mut r = Rng::new(seed ^ 0x5eed_da7a);
    let mut words = |n: usize| -> Vec<u8> {
        (0..n)
            .flat_map(|_| {
                let w: u32 = match r.below(8) {
                    0 => r.below(16) as u32,
                    1 => 0u32.wrapping_sub(r.below(16) as u32),
                    2 => r.value(),
                    _ => r.next_u64() as u32,
                };
                w.to_le_bytes()
            })
            .collect()
    };
    vec![
        vec![0; GRID as usize * 8],
        words(IN_LEN),
        words(CB_LEN),
        words(GRID as usize * M),
        vec![0; ACC * 4],
    ]
}

/// Runs `elf`'s kernel `clgen` on the golden GPU; every buffer's bytes.
pub fn run(elf: &[u8], bufs: &[Vec<u8>]) -> Result<Vec<Vec<u8>>, String> {
    let mut cfg = GoldenConfig::new(Isa::Gfx1030);
    cfg.instruction_budget = BUDGET;
    let gpu = GoldenGpu::new(cfg).map_err(|e| format!("golden GPU: {e}"))?;
    let mut d = Driver::new(gpu).map_err(|e| format!("driver: {e}"))?;
    let p = d.load(elf).map_err(|e| format!("load: {e}"))?;
    let k = p
        .kernel("clgen")
        .map_err(|e| format!("kernel: {e}"))?
        .clone();
    let mut allocs = Vec::new();
    let mut args = Vec::new();
    for b in bufs {
        let a = d.create_buffer(b).map_err(|e| format!("buffer: {e}"))?;
        args.push(Arg::Buffer(a.address));
        allocs.push(a);
    }
    d.launch(&k, LaunchDims::linear(GRID, WG), &args)
        .map_err(|e| format!("launch: {e}"))?;
    allocs
        .into_iter()
        .map(|a| d.download(a).map_err(|e| format!("download: {e}")))
        .collect()
}

/// The clang-19 option that turns off AMDGPUCodeGenPrepare's integer
/// division expansion, including the 64-to-32-bit division shrinking that
/// release 19 gets wrong for unsigned operands with many sign bits.
pub const NO_DIV_SHRINK: &str = "-mllvm=-amdgpu-codegenprepare-disable-idiv-expansion=1";

/// Compiles `src` with clang-19 and ld.lld-19 in `dir`; the code object.
pub fn clang(dir: &Path, src: &str) -> Result<Vec<u8>, String> {
    clang_flags(dir, src, &[])
}

/// [`clang`] with extra options.
pub fn clang_flags(dir: &Path, src: &str, extra: &[&str]) -> Result<Vec<u8>, String> {
    let cl = dir.join("p.cl");
    let obj = dir.join("p.o");
    let elf = dir.join("p.hsaco");
    std::fs::write(&cl, src).map_err(|e| format!("{}: {e}", cl.display()))?;
    let out = Command::new("clang-19")
        .args(["-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa"])
        .args([
            "-mcpu=gfx1030",
            "-O3",
            "-nogpulib",
            "-DCLGEN_CLANG",
            "-w",
            "-c",
        ])
        .args(extra)
        .arg(&cl)
        .arg("-o")
        .arg(&obj)
        .output()
        .map_err(|e| format!("clang-19: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let out = Command::new("ld.lld-19")
        .arg("-shared")
        .arg(&obj)
        .arg("-o")
        .arg(&elf)
        .output()
        .map_err(|e| format!("ld.lld-19: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    std::fs::read(&elf).map_err(|e| format!("{}: {e}", elf.display()))
}

/// gpusim's compile of `src` (wave64, optimised or not).
pub fn gpusim(dir: &Path, src: &str, wave64: bool, optimize: bool) -> Result<Vec<u8>, String> {
    let name = dir.join("p.cl");
    let name = name.to_string_lossy();
    let mut o = compiler::CompileOptions::default();
    o.backend.wave64 = wave64;
    o.front.wave64 = wave64;
    o.backend.optimize = optimize;
    let text = compiler::Source::Text {
        name: &name,
        text: src,
    };
    // A panic in the compiler is a finding like any other, not the end of
    // the run.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| compiler::compile(text, &o)))
        .map_err(|p| format!("gpusim's compiler panicked: {}", panic_text(&p)))?
        .map(|c| c.code_object)
        .map_err(|d| d.to_string())
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "(no message)".into())
}

/// Runs `src` on the host CPU (clang-19 for x86-64, `-O1`; the corpus's
/// harness runs each work-item as a thread with real barriers); every
/// buffer's final bytes. Integer results are exact; float results can
/// differ from the GPU's legitimately (no fused multiply-add where the GPU
/// contracts, correctly rounded division), so this only ever confirms.
pub fn host(dir: &Path, src: &str, bufs: &[Vec<u8>]) -> Result<Vec<Vec<u8>>, String> {
    let tool = |cmd: &mut Command| -> Result<(), String> {
        let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&out.stderr).into_owned())
        }
    };
    let harness = dir.join("harness.o");
    if !harness.exists() {
        let c = dir.join("harness.c");
        std::fs::write(&c, HARNESS).map_err(|e| e.to_string())?;
        tool(
            Command::new("clang-19")
                .args(["-O1", "-c"])
                .arg(&c)
                .arg("-o")
                .arg(&harness),
        )?;
    }
    let cl = dir.join("h.cl");
    std::fs::write(&cl, src).map_err(|e| e.to_string())?;
    let obj = dir.join("h.o");
    tool(
        Command::new("clang-19")
            .args([
                "-x",
                "cl",
                "-cl-std=CL2.0",
                "-O1",
                "-DCLGEN_CLANG",
                "-w",
                "-c",
            ])
            .arg(&cl)
            .arg("-o")
            .arg(&obj),
    )?;
    let mut setup = String::new();
    for i in 0..bufs.len() {
        setup += &format!("  static size_t n{i}; a{i} = gs_host_load(dir, {i}, &n{i});\n");
    }
    let save: String = (0..bufs.len())
        .map(|i| format!("  gs_host_save(dir, {i}, a{i}, {});\n", bufs[i].len()))
        .collect();
    let decl: Vec<String> = (0..bufs.len()).map(|i| format!("void *a{i}")).collect();
    let call: Vec<String> = (0..bufs.len()).map(|i| format!("a{i}")).collect();
    let statics: String = (0..bufs.len())
        .map(|i| format!("static void *a{i};\n"))
        .collect();
    let driver = format!(
        "#include <stdlib.h>\n\
         void gs_host_run(const unsigned grid[3], const unsigned local[3], void (*item)(void));\n\
         void *gs_host_load(const char *dir, int index, size_t *bytes);\n\
         void gs_host_save(const char *dir, int index, const void *p, size_t bytes);\n\
         void clgen({});\n{statics}static void item(void) {{ clgen({}); }}\n\
         int main(int argc, char **argv) {{\n  const char *dir = argv[1];\n{setup}\
         \x20 unsigned grid[3] = {{{GRID}, 1, 1}}, local[3] = {{{WG}, 1, 1}};\n\
         \x20 gs_host_run(grid, local, item);\n{save}  return 0;\n}}\n",
        decl.join(", "),
        call.join(", "),
    );
    let dc = dir.join("driver.c");
    std::fs::write(&dc, driver).map_err(|e| e.to_string())?;
    let exe = dir.join("host_run");
    tool(
        Command::new("clang-19")
            .arg("-O1")
            .arg(&dc)
            .arg(&harness)
            .arg(&obj)
            .arg("-o")
            .arg(&exe)
            .args(["-lpthread", "-lm"]),
    )?;
    for (i, b) in bufs.iter().enumerate() {
        std::fs::write(dir.join(format!("arg{i}.bin")), b).map_err(|e| e.to_string())?;
    }
    tool(Command::new(&exe).arg(dir))?;
    (0..bufs.len())
        .map(|i| std::fs::read(dir.join(format!("arg{i}.bin"))).map_err(|e| e.to_string()))
        .collect()
}

/// The gpusim variants checked against clang: (wave64, optimise).
pub const VARIANTS: [(bool, bool); 3] = [(false, true), (true, true), (false, false)];

/// Checks program `p` (input seed `seed`) in scratch directory `dir`.
pub fn check(dir: &Path, p: &Program, seed: u64) -> Outcome {
    check_source(dir, &p.source(), seed)
}

/// Checks source `src` with the inputs of `seed`.
pub fn check_source(dir: &Path, src: &str, seed: u64) -> Outcome {
    let bufs = inputs(seed);
    let theirs = match clang(dir, src) {
        Ok(e) => e,
        Err(m) => return Outcome::ClangRejects(m),
    };
    let mut clang_wrong = None;
    let mut want = match run(&theirs, &bufs) {
        Ok(w) => w,
        Err(m) => return Outcome::ClangFault(m),
    };
    for (wave64, optimize) in VARIANTS {
        let tag = format!(
            "wave{} -O{}",
            if wave64 { 64 } else { 32 },
            u8::from(optimize)
        );
        let ours = match gpusim(dir, src, wave64, optimize) {
            Ok(e) => e,
            Err(m) if m.contains("panicked") => return Outcome::Differs(format!("{tag}: {m}")),
            Err(m) => return Outcome::GpusimRejects(m),
        };
        let got = match run(&ours, &bufs) {
            Ok(g) => g,
            Err(m) => return Outcome::Differs(format!("{tag}: gpusim's object: {m}")),
        };
        if let Some(k) = (0..want.len()).find(|&k| want[k] != got[k]) {
            let name = ["out", "in", "cb", "gbuf", "acc"][k];
            let msg = format!(
                "{tag}: buffer {name} differs, {}",
                first_difference(&want[k], &got[k])
            );
            if clang_wrong.is_none() {
                // The tie-breakers: the host CPU's reading of the source
                // (exact for integers), then clang-19 without the AMDGPU
                // transformation known to be wrong in release 19 (64-bit
                // division shrunk to 32 bits when the operands have 33 or
                // more sign bits; fixed in LLVM 20 by llvm-project#116733).
                if let Ok(h) = host(dir, src, &bufs) {
                    if h == got {
                        clang_wrong = Some(format!("{msg}; the host CPU agrees with gpusim"));
                        want = h;
                        continue;
                    }
                }
                let alt = clang_flags(dir, src, &[NO_DIV_SHRINK]).and_then(|e| run(&e, &bufs));
                if alt.as_ref() == Ok(&got) {
                    clang_wrong = Some(format!(
                        "{msg}; clang-19 agrees with gpusim without its 64-bit division shrinking ({NO_DIV_SHRINK})"
                    ));
                    want = got;
                    continue;
                }
            }
            return Outcome::Differs(msg);
        }
    }
    if let Some(m) = clang_wrong {
        return Outcome::ClangWrong(m);
    }
    Outcome::Agree
}

fn first_difference(a: &[u8], b: &[u8]) -> String {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(i) => {
            let w = i / 8 * 8;
            format!(
                "first at byte {i}: {:02x?} (clang) vs {:02x?} (gpusim)",
                &a[w..(w + 8).min(a.len())],
                &b[w..(w + 8).min(b.len())]
            )
        }
        None => format!("lengths {} and {}", a.len(), b.len()),
    }
}
