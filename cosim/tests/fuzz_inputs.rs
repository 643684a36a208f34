//! In-process fuzzing of everything that reads user input: the decoder, the
//! code object reader, workload YAML, GPU configuration YAML and
//! `gpusim run` (the library path) on random workloads. A mutational input
//! source (bit flips, byte writes, inserts, deletes, splices, truncation of
//! real inputs) drives each target; a panic fails the test with the input,
//! and every execution is timed (a slow one is a hang suspect).
//!
//! cargo-fuzz is not installed here (no libFuzzer), so these drivers stand in
//! for it: `GPUSIM_FUZZ_EXECS=10000000 cargo test --release -p cosim --test
//! fuzz_inputs -- --nocapture` runs ten million executions per target; the
//! default is a quick slice. Counts run so far: docs/reliability.md.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cosim::fuzz::gen::Rng;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn execs(default: u64) -> u64 {
    std::env::var("GPUSIM_FUZZ_EXECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One mutation of `input` (with `others` to splice from).
fn mutate(rng: &mut Rng, input: &[u8], others: &[Vec<u8>]) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let len = v.len().max(1) as u64;
        match rng.below(7) {
            0 if !v.is_empty() => {
                let i = rng.below(len) as usize;
                v[i] ^= 1 << rng.below(8);
            }
            1 if !v.is_empty() => {
                let i = rng.below(len) as usize;
                v[i] = [0, 0xff, 0x7f, 0x80, b'-', b'[', b'{', b':', b'\n'][rng.below(9) as usize];
            }
            2 => {
                let i = rng.below(len + 1).min(v.len() as u64) as usize;
                let n = 1 + rng.below(8) as usize;
                let bytes: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
                v.splice(i..i, bytes);
            }
            3 if !v.is_empty() => {
                let i = rng.below(len) as usize;
                let n = (1 + rng.below(16) as usize).min(v.len() - i);
                v.drain(i..i + n);
            }
            4 if !others.is_empty() => {
                let o = &others[rng.below(others.len() as u64) as usize];
                if !o.is_empty() {
                    let a = rng.below(o.len() as u64) as usize;
                    let b = (a + 1 + rng.below(64) as usize).min(o.len());
                    let i = rng.below(len + 1).min(v.len() as u64) as usize;
                    v.splice(i..i, o[a..b].iter().copied());
                }
            }
            5 => {
                let n = rng.below(len + 1) as usize;
                v.truncate(n);
            }
            _ if v.len() >= 4 => {
                // An interesting 32-bit value at a 4-aligned offset (ELF fields).
                let i = (rng.below(len / 4) * 4) as usize;
                let x: u32 =
                    [0, 1, 0xffff_ffff, 0x7fff_ffff, 0x8000_0000, 0x1000][rng.below(6) as usize];
                v[i..i + 4].copy_from_slice(&x.to_le_bytes());
            }
            _ => {}
        }
    }
    v
}

/// Runs `target` on `n` mutated inputs; returns the slowest execution.
fn drive(name: &str, seeds: &[Vec<u8>], n: u64, target: &mut dyn FnMut(&[u8])) -> Duration {
    assert!(!seeds.is_empty(), "{name}: no seed inputs");
    let mut rng = Rng::new(0xf022 ^ name.len() as u64);
    let mut slowest = Duration::ZERO;
    let start = Instant::now();
    for i in 0..n {
        let base = &seeds[rng.below(seeds.len() as u64) as usize];
        let input = if i < seeds.len() as u64 {
            seeds[i as usize].clone()
        } else {
            mutate(&mut rng, base, seeds)
        };
        let t = Instant::now();
        let ok = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| target(&input)));
        slowest = slowest.max(t.elapsed());
        if ok.is_err() {
            let file = std::env::temp_dir().join(format!("gpusim-fuzz-{name}-crash.bin"));
            std::fs::write(&file, &input).ok();
            panic!("{name}: panic on input {i} (written to {})", file.display());
        }
    }
    eprintln!(
        "{name}: {n} executions in {:.1} s, slowest {:.1} ms",
        start.elapsed().as_secs_f64(),
        slowest.as_secs_f64() * 1e3
    );
    slowest
}

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(files(&p, ext));
            } else if p.extension().is_some_and(|x| x == ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn code_objects() -> Vec<Vec<u8>> {
    files(&root().join("tests/kernels/prebuilt"), "hsaco")
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect()
}

/// A hang suspect: one execution slower than this.
const SLOW: Duration = Duration::from_secs(2);

#[test]
fn decoder_never_panics() {
    // Seeds: the .text of every corpus kernel (real instruction streams).
    let seeds: Vec<Vec<u8>> = code_objects()
        .iter()
        .filter_map(|elf| arch::code_object::CodeObject::parse(elf).ok())
        .flat_map(|co| {
            co.kernels()
                .iter()
                .map(|k| k.code.clone())
                .collect::<Vec<_>>()
        })
        .collect();
    let targets = [
        arch::isa::Target::GFX803,
        arch::isa::Target::GFX1030_W32,
        arch::isa::Target::GFX1030_W64,
    ];
    let mut k = 0;
    let slowest = drive("decode", &seeds, execs(200_000), &mut |bytes| {
        k += 1;
        let t = targets[k % 3];
        if let Ok(list) = arch::isa::decode_all(t, bytes) {
            for (_, inst) in list {
                let _ = inst.to_string();
            }
        }
    });
    assert!(slowest < SLOW);
}

#[test]
fn code_object_reader_never_panics() {
    let seeds = code_objects();
    let slowest = drive("code_object", &seeds, execs(20_000), &mut |bytes| {
        if let Ok(co) = arch::code_object::CodeObject::parse(bytes) {
            for k in co.kernels() {
                let _ = k.wavefront_size();
            }
        }
    });
    assert!(slowest < SLOW);
}

/// Workload YAML: parse, and prepare when the buffers stay small (a
/// mutation may legitimately ask for up to the 1 GiB limit).
#[test]
fn workload_reader_never_panics() {
    let paths: Vec<PathBuf> = files(&root().join("workloads"), "yaml");
    let seeds: Vec<Vec<u8>> = paths.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let dirs: Vec<PathBuf> = paths
        .iter()
        .map(|p| p.parent().unwrap().to_path_buf())
        .collect();
    let mut i = 0;
    let slowest = drive("workload_yaml", &seeds, execs(20_000), &mut |bytes| {
        i += 1;
        let Ok(text) = std::str::from_utf8(bytes) else {
            return;
        };
        let path = dirs[i % dirs.len()].join("fuzz.yaml");
        if let Ok(w) = cosim::workload::Workload::parse(text, &path) {
            let bytes: usize = w.buffers.iter().map(|b| b.length * b.elem.size()).sum();
            if bytes <= 1 << 22 {
                let _ = w.prepare();
            }
        }
    });
    assert!(slowest < SLOW);
}

#[test]
fn gpu_config_reader_never_panics() {
    let seeds: Vec<Vec<u8>> = files(&root().join("hw/configs"), "yaml")
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    let slowest = drive("config_yaml", &seeds, execs(20_000), &mut |bytes| {
        if let Ok(text) = std::str::from_utf8(bytes) {
            if let Ok(c) = hw::GpuConfig::from_yaml(text, "fuzz.yaml") {
                // A configuration that validates must build a GPU or say why.
                let _ = hw::ClockedGpu::new(c);
            }
        }
    });
    assert!(slowest < SLOW);
}

/// `gpusim run`'s library path on random (mutated) corpus workloads on the
/// functional model with a watchdog: every outcome is a result or an error.
/// One `run` execution: parse, prepare, run on the functional model, check.
fn run_workload_bytes(bytes: &[u8], dir: &Path) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let Ok(w) = cosim::workload::Workload::parse(text, &dir.join("fuzz.yaml")) else {
        return;
    };
    let bytes: usize = w.buffers.iter().map(|b| b.length * b.elem.size()).sum();
    let items: u64 = w.grid.iter().map(|&g| u64::from(g)).product();
    if bytes > 1 << 22 || items > 1 << 16 {
        return;
    }
    let device = cosim::model::ModelDevice::new(&cosim::model::ModelOptions {
        model: cosim::model::Model::Functional,
        isa: arch::isa::Isa::Gfx1030,
        config: hw::GpuConfig::default_config(),
        watchdog: Some(5_000_000),
        wave_watchdog: None,
    })
    .unwrap();
    let _ = cosim::workload::run_checked(device, &w);
}

#[test]
fn running_random_workloads_never_panics() {
    let paths: Vec<PathBuf> = files(&root().join("workloads/corpus/gfx1030"), "yaml");
    let seeds: Vec<Vec<u8>> = paths.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let dir = root().join("workloads/corpus/gfx1030");
    let slowest = drive("run", &seeds, execs(300), &mut |bytes| {
        run_workload_bytes(bytes, &dir)
    });
    assert!(slowest < Duration::from_secs(30));
}

/// Inputs the `run` driver once crashed on (kept as found): each must now
/// run without a panic. `bfs_relax_longer_output_buffer.yaml` (10⁷ run,
/// input 8,969,423): an output buffer longer than the graph made the CPU
/// references of `bfs_relax` and `wq_bfs` copy into a slice of the wrong
/// length (`copy_from_slice` panics); they now write the first `n` elements.
#[test]
fn recorded_run_crashes_do_not_panic() {
    let dir = root().join("workloads/corpus/gfx1030");
    let crashes = files(&root().join("cosim/tests/fuzz_crashes/run"), "yaml");
    assert!(!crashes.is_empty());
    for path in crashes {
        let bytes = std::fs::read(&path).unwrap();
        run_workload_bytes(&bytes, &dir);
    }
}
