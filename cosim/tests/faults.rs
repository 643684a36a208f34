//! Faults are reports, not crashes: one test per fault kind, each asserting the
//! report's content and `gpusim run`'s exit code (3 for a GPU fault).

use std::path::{Path, PathBuf};
use std::process::Command;

use arch::code_object::CodeObject;
use arch::device::RunUntil;
use golden::{GoldenConfig, GoldenGpu};
use sw::driver::{CommandBlock, Driver, DriverError};

mod cli_common;
use cli_common::{gpusim, root, stderr, temp_dir};

/// A saxpy workload over `kernel`, with `n` elements processed but buffers of `len`.
fn saxpy_workload(dir: &Path, kernel: &str, n: u32, len: u32) -> PathBuf {
    let path = dir.join("w.yaml");
    std::fs::write(
        &path,
        format!(
            "kernel: {kernel}\ngrid: [{n}]\nworkgroup: [256]\nbuffers:\n  \
             - {{ name: x, type: f32, length: {len}, init: zero }}\n  \
             - {{ name: y, type: f32, length: {len}, init: zero }}\n\
             args:\n  - {{ u32: {n} }}\n  - {{ f32: 1.5 }}\n  - {{ buffer: x }}\n  - {{ buffer: y }}\n"
        ),
    )
    .unwrap();
    path
}

/// saxpy.hsaco for gfx1030 with the kernel's first instruction replaced by `word`.
fn patched_saxpy(dir: &Path, word: u32) -> PathBuf {
    let path = root().join("tests/kernels/prebuilt/gfx1030/saxpy.hsaco");
    let mut bytes = std::fs::read(path).unwrap();
    let object = CodeObject::parse(&bytes).unwrap();
    let text = object.text();
    let entry = object.kernel("saxpy").unwrap().entry;
    // .text's file offset: the ELF places it at the same offset as its address
    // modulo the page; find it by searching for the section's bytes.
    let file_offset = bytes
        .windows(text.bytes.len())
        .position(|w| w == text.bytes.as_slice())
        .unwrap();
    let at = file_offset + (entry - text.address) as usize;
    bytes[at..at + 4].copy_from_slice(&word.to_le_bytes());
    let out = dir.join("patched.hsaco");
    std::fs::write(&out, bytes).unwrap();
    out
}

/// Runs `gpusim run` on a 256-item saxpy whose first instruction is `word`
/// (with `extra` arguments); returns the exit code and stderr.
fn run_patched_saxpy(name: &str, word: u32, extra: &[&str]) -> (Option<i32>, String) {
    run_patched_saxpy_n(name, word, 256, extra)
}

/// [`run_patched_saxpy`] over `n` work-items.
fn run_patched_saxpy_n(name: &str, word: u32, n: u32, extra: &[&str]) -> (Option<i32>, String) {
    let dir = temp_dir("faults", name);
    let object = patched_saxpy(&dir, word);
    let kernel = format!("{{ code_object: {}, name: saxpy }}", object.display());
    let w = saxpy_workload(&dir, &kernel, n, n);
    let mut args = vec!["run", w.to_str().unwrap()];
    args.extend_from_slice(extra);
    let o = gpusim(&args);
    std::fs::remove_dir_all(dir).ok();
    (o.status.code(), stderr(&o))
}

#[test]
fn memory_violation_names_wave_pc_instruction_and_address() {
    let dir = temp_dir("faults", "mem");
    // 8192 work-items index buffers of 2048 floats: the loads run off the end.
    let w = saxpy_workload(&dir, "{ corpus: saxpy, target: gfx1030 }", 8192, 2048);
    let o = gpusim(&["run", w.to_str().unwrap()]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(3), "{e}");
    assert!(e.contains("read of unmapped address 0x"), "{e}");
    assert!(e.contains("wave "), "{e}");
    assert!(e.contains("pc 0x"), "{e}");
    assert!(e.contains("global_load_dword"), "{e}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn illegal_instruction_is_reported_with_its_pc() {
    // 0xFC000000: major opcode 0x3f, no encoding of the ISA (LLVM: invalid).
    let (code, e) = run_patched_saxpy("illegal", 0xFC00_0000, &[]);
    assert_eq!(code, Some(3), "{e}");
    assert!(e.contains("illegal instruction"), "{e}");
    assert!(e.contains("invalid encoding"), "{e}");
    assert!(e.contains("wave 0"), "{e}");
    assert!(e.contains("pc 0x"), "{e}");
    assert!(e.to_lowercase().contains("fc000000"), "the word: {e}");
}

#[test]
fn runaway_kernel_stops_at_the_watchdog() {
    // s_branch -1 (simm16 = 0xffff): jumps to itself forever.
    let (code, e) = run_patched_saxpy("watchdog", 0xBF82_FFFF, &["--watchdog", "100000"]);
    assert_eq!(code, Some(3), "{e}");
    // The functional model counts wave instructions and steps, not cycles
    // (it said "instruction budget" and "cycle 100001").
    assert!(
        e.contains("watchdog: 100000 wave instructions without finishing"),
        "{e}"
    );
    assert!(e.contains("`--watchdog N` raises the limit"), "{e}");
    assert!(e.contains("; step 100001"), "{e}");
    assert!(!e.contains("cycle"), "{e}");
    assert!(e.contains("s_branch 65535"), "{e}");
}

/// Every model stops an infinite loop by default, within seconds, saying
/// what ran out, in which unit, and which flag raises it (the cycle model
/// had a 2^32-cycle limit: over an hour of wall time). With a few waves the
/// per-wave watchdog fires: cycles resident on the cycle model (the per-run
/// limit, 2^23 before, is now the outer 2^25), instructions on the
/// functional one.
#[test]
fn default_watchdogs_stop_an_infinite_loop_on_every_model() {
    let started = std::time::Instant::now();
    let (code, e) = run_patched_saxpy("watchdog-cycle", 0xBF82_FFFF, &["--model", "cycle"]);
    let cycle_time = started.elapsed();
    assert_eq!(code, Some(3), "{e}");
    assert!(
        e.contains("watchdog: one wave resident 8388608 cycles without ending"),
        "{e}"
    );
    assert!(
        e.contains("`--wave-watchdog N` or the configuration's `wave_watchdog_cycles`"),
        "{e}"
    );
    assert!(e.contains("workgroup (0,0,0) wave 0"), "{e}");
    assert!(e.contains("s_branch 65535"), "{e}");
    assert!(!e.contains("instruction"), "{e}");
    let started = std::time::Instant::now();
    let (code, e) = run_patched_saxpy("watchdog-functional", 0xBF82_FFFF, &[]);
    let functional_time = started.elapsed();
    assert_eq!(code, Some(3), "{e}");
    assert!(
        e.contains("watchdog: one wave executed 16777216 instructions without ending"),
        "{e}"
    );
    assert!(
        e.contains("`--wave-watchdog N` raises the per-wave limit"),
        "{e}"
    );
    // About 3 s and 0.1 s of CPU on an unloaded 2-core EPYC; generous bounds
    // for a machine shared with other builds.
    eprintln!("cycle model {cycle_time:?}, functional model {functional_time:?}");
    assert!(cycle_time.as_secs() < 120, "{cycle_time:?}");
    assert!(functional_time.as_secs() < 60, "{functional_time:?}");
}

/// A full GPU (every wave slot of the default 4-CU configuration holds a
/// spinning wave) stops on the per-wave watchdog on the clocked models, not
/// on the per-run limit; the functional model, whose waves share one
/// budget of 2^28 instructions per run, meets that outer limit first (128
/// resident waves × 2^24 is more).
#[test]
fn a_full_gpu_of_runaway_waves_stops_on_every_model() {
    for model in ["cycle", "lockstep"] {
        let (code, e) = run_patched_saxpy_n(
            &format!("watchdog-full-{model}"),
            0xBF82_FFFF,
            65536,
            &["--model", model],
        );
        assert_eq!(code, Some(3), "{model}: {e}");
        assert!(
            e.contains("watchdog: one wave resident 8388608 cycles without ending"),
            "{model}: {e}"
        );
        assert!(e.contains("s_branch 65535"), "{model}: {e}");
    }
    let (code, e) = run_patched_saxpy_n("watchdog-full-functional", 0xBF82_FFFF, 65536, &[]);
    assert_eq!(code, Some(3), "{e}");
    assert!(
        e.contains("watchdog: 268435456 wave instructions without finishing"),
        "{e}"
    );
}

/// `--wave-watchdog N` sets the per-wave limit on every model, and the
/// functional model's interpreter and JIT stop at the same instruction.
#[test]
fn wave_watchdog_flag_sets_the_per_wave_limit_on_every_model() {
    for model in ["cycle", "lockstep"] {
        let (code, e) = run_patched_saxpy(
            &format!("wave-watchdog-{model}"),
            0xBF82_FFFF,
            &["--model", model, "--wave-watchdog", "20000"],
        );
        assert_eq!(code, Some(3), "{model}: {e}");
        assert!(
            e.contains("one wave resident 20000 cycles without ending"),
            "{model}: {e}"
        );
    }
    let mut reports = Vec::new();
    for jit in ["off", "on"] {
        let (code, e) = run_patched_saxpy(
            &format!("wave-watchdog-jit-{jit}"),
            0xBF82_FFFF,
            &["--wave-watchdog", "100000", "--jit", jit],
        );
        assert_eq!(code, Some(3), "jit {jit}: {e}");
        assert!(
            e.contains("one wave executed 100000 instructions without ending"),
            "jit {jit}: {e}"
        );
        // Wave 0 ran its 100000; the step counts every wave's instructions
        // (eight waves, each 100000).
        assert!(e.contains("workgroup (0,0,0) wave 0"), "jit {jit}: {e}");
        assert!(e.contains("; step 800001"), "jit {jit}: {e}");
        // The report after the workload's (per-run temporary) path.
        let at = e.find("GPU fault").expect("a GPU fault");
        reports.push(e[at..].to_string());
    }
    assert_eq!(
        reports[0], reports[1],
        "the interpreter and the JIT disagree"
    );
    let o = gpusim(&["run", "nope.yaml", "--wave-watchdog", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// SIGTERM (a Slurm time limit) is named as SIGTERM, not as Ctrl-C, and the
/// run stops with exit 130 at the next cycle (clocked) or scheduling round
/// (functional: it used to ignore the signal until its watchdog ran out).
#[cfg(unix)]
#[test]
fn sigterm_is_reported_as_sigterm() {
    let dir = temp_dir("faults", "sigterm");
    let object = patched_saxpy(&dir, 0xBF82_FFFF);
    let kernel = format!("{{ code_object: {}, name: saxpy }}", object.display());
    let w = saxpy_workload(&dir, &kernel, 256, 256);
    for (model, unit) in [("cycle", "cycle"), ("functional", "step")] {
        let started = std::time::Instant::now();
        let child = Command::new(env!("CARGO_BIN_EXE_gpusim"))
            // Watchdogs (per run and per wave) far beyond the signal's
            // time: only the signal stops it.
            .args([
                "run",
                w.to_str().unwrap(),
                "--model",
                model,
                "--watchdog",
                "1000000000000",
                "--wave-watchdog",
                "1000000000000",
            ])
            .current_dir(root())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("gpusim runs");
        std::thread::sleep(std::time::Duration::from_millis(2000));
        // SAFETY: signals our own child, by its id.
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
        let o = child.wait_with_output().unwrap();
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(130), "{model}: {e}");
        assert!(
            e.contains(&format!("interrupted by SIGTERM; {unit} ")),
            "{model}: {e}"
        );
        assert!(!e.contains("Ctrl-C"), "{model}: {e}");
        // The functional model's watchdog of 10^12 instructions would take
        // hours: stopping within a minute shows the signal did it.
        let took = started.elapsed();
        assert!(took.as_secs() < 60, "{model}: {took:?}");
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn unsatisfiable_semaphore_reports_channel_entry_address_and_payload() {
    let gpu = GoldenGpu::new(GoldenConfig::new(arch::isa::Isa::Gfx1030)).unwrap();
    let mut driver = Driver::new(gpu).unwrap();
    let word = driver.alloc(4, 4).unwrap();
    let mut block = CommandBlock::new();
    block.acquire_ge(word.address, 7);
    let fence = driver.submit(block).unwrap();
    let err = driver.wait(fence).unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, DriverError::Blocked { .. }), "{text}");
    assert!(
        text.contains("front end blocked on channel 0 at entry 0"),
        "{text}"
    );
    assert!(text.contains(&format!("{:#x}", word.address)), "{text}");
    assert!(text.contains(">= 7"), "{text}");
    // The device itself reports the same state and does not hang.
    let status = driver.device_mut();
    let again = arch::device::Device::run(status, RunUntil::Idle).unwrap();
    assert!(
        matches!(again, arch::device::RunStatus::Blocked(_)),
        "{again:?}"
    );
}

#[test]
fn unsatisfiable_workload_semaphore_exits_3_with_the_front_end_report() {
    let dir = temp_dir("faults", "semaphore");
    let w = saxpy_workload(&dir, "{ corpus: saxpy, target: gfx1030 }", 256, 256);
    // A flag nobody releases: the channel blocks before the dispatch.
    let mut text = std::fs::read_to_string(&w).unwrap();
    text = text.replace(
        "buffers:\n",
        "buffers:\n  - { name: flag, type: u32, length: 4, init: { fill: 3 } }\n",
    );
    text.push_str("wait:\n  - { buffer: flag, index: 2, ge: 7 }\n");
    std::fs::write(&w, text).unwrap();
    let o = gpusim(&["run", w.to_str().unwrap()]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(3), "{e}");
    assert!(
        e.contains("front end blocked on channel 0 at entry 0"),
        "{e}"
    );
    assert!(e.contains("] >= 7 (it holds 3)"), "{e}");
    // The word's address is the flag buffer's third element: whatever the
    // allocator chose, it ends in 8 (buffers are at least 4-aligned, 16 here).
    let at = e.find("waiting for [0x").expect(&e);
    let address = e[at + "waiting for [0x".len()..]
        .split(|c: char| !c.is_ascii_hexdigit())
        .next()
        .unwrap();
    assert_eq!(u64::from_str_radix(address, 16).unwrap() % 16, 8, "{e}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn v_illegal_faults_with_its_name_and_pc() {
    // The all-zero word is gfx1030's v_illegal.
    let (code, e) = run_patched_saxpy("v_illegal", 0, &[]);
    assert_eq!(code, Some(3), "{e}");
    assert!(
        e.contains("v_illegal raised an illegal-instruction exception"),
        "{e}"
    );
    assert!(e.contains("`v_illegal`"), "the instruction text: {e}");
    assert!(e.contains("wave 0; pc 0x"), "{e}");
}
