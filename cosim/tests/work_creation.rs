//! GPU-created work end to end on the golden GPU: kernels compiled with
//! clang-19 against `sw/devlib/gpusim_work.h` create child work through the
//! GPU-owned channel set up by `Driver::create_gpu_channel` /
//! `launch_creating_work` (seed 001, methods 400 and 450), and match their
//! Rust references on every target.

use std::path::Path;

use arch::code_object::CodeObject;
use arch::device::Device;
use arch::isa::{Isa, Target};
use arch::mmio;
use corpus::work::{self, WorkKernel};
use corpus::{ArgValue, BufferData, Dims, ScalarValue, TARGETS};
use cosim::model::{Model, ModelDevice, ModelOptions};
use cosim::workload::{self, corpus_files, Workload};
use golden::{GoldenConfig, GoldenGpu};
use sw::driver::{Arg, Driver, DriverError, GpuChannelConfig, LaunchDims, WorkReport};

struct Outcome<D: Device = GoldenGpu> {
    finals: Vec<ArgValue>,
    report: WorkReport,
    driver: Driver<D>,
}

fn scalar(v: &ScalarValue) -> Arg {
    match *v {
        ScalarValue::U32(x) => Arg::u32(x),
        ScalarValue::I32(x) => Arg::i32(x),
        ScalarValue::U64(x) => Arg::u64(x),
        ScalarValue::F32(x) => Arg::f32(x),
    }
}

/// Runs `k`'s parent with `initial` arguments over `dims`, `launches` times
/// in a row on one channel (buffers keep their contents between launches).
fn run(
    k: &WorkKernel,
    target: Target,
    dims: Dims,
    initial: &[ArgValue],
    config: GpuChannelConfig,
    launches: u32,
) -> Result<Outcome, DriverError> {
    let gpu = GoldenGpu::new(GoldenConfig::new(target.isa)).expect("config");
    run_on(gpu, k, target, dims, initial, config, launches)
}

/// [`run`] on a given device.
fn run_on<D: Device>(
    gpu: D,
    k: &WorkKernel,
    target: Target,
    dims: Dims,
    initial: &[ArgValue],
    config: GpuChannelConfig,
    launches: u32,
) -> Result<Outcome<D>, DriverError> {
    let elf = std::fs::read(k.prebuilt_path(target)).expect("prebuilt work kernel");
    let mut driver = Driver::new(gpu)?;
    let program = driver.load(&elf)?;
    let parent = program.kernel(k.name())?.clone();
    let children: Vec<_> = k
        .children
        .iter()
        .map(|c| program.kernel(c).cloned())
        .collect::<Result<_, _>>()?;
    let refs: Vec<_> = children.iter().collect();
    let mut channel = driver.create_gpu_channel(config, &refs)?;
    let mut buffers = Vec::new();
    let mut args = Vec::new();
    for v in initial {
        match v {
            ArgValue::Buffer(b) => {
                let a = driver.create_buffer(&b.to_le_bytes())?;
                buffers.push(Some(a));
                args.push(Arg::Buffer(a.address));
            }
            ArgValue::Scalar(s) => {
                buffers.push(None);
                args.push(scalar(s));
            }
            ArgValue::Local { bytes } => {
                buffers.push(None);
                args.push(Arg::Local(*bytes));
            }
        }
    }
    let dims = LaunchDims {
        grid: dims.grid,
        workgroup: dims.local,
    };
    let mut report = WorkReport::default();
    for _ in 0..launches {
        report = driver.launch_creating_work(&mut channel, &parent, dims, &args)?;
    }
    let mut finals = Vec::new();
    for (v, a) in initial.iter().zip(&buffers) {
        finals.push(match (v, a) {
            (ArgValue::Buffer(b), Some(a)) => {
                let bytes = driver.download(*a)?;
                ArgValue::Buffer(BufferData::from_le_bytes(b.elem(), &bytes).expect("size"))
            }
            _ => v.clone(),
        });
    }
    Ok(Outcome {
        finals,
        report,
        driver,
    })
}

fn default_config(k: &WorkKernel) -> GpuChannelConfig {
    GpuChannelConfig {
        entries: k.entries,
        heap_bytes: k.heap_bytes,
        ..GpuChannelConfig::default()
    }
}

#[test]
fn every_work_kernel_matches_its_reference_on_every_target() {
    let mut failures = Vec::new();
    for k in work::all() {
        for target in TARGETS {
            let initial = k.kernel.launch.materialize();
            let result = run(
                k,
                target,
                k.kernel.launch.dims,
                &initial,
                default_config(k),
                1,
            );
            match result {
                Ok(o) => {
                    if o.report.has_errors() {
                        failures.push(format!(
                            "{} {}: {}",
                            k.name(),
                            corpus::target_dir(target),
                            o.report.problems()
                        ));
                    }
                    if let Err(e) = k.kernel.check(&o.finals) {
                        failures.push(format!("{} {}: {e}", k.name(), corpus::target_dir(target)));
                    }
                    let stats = o.driver.device().stats();
                    let gpu = &stats.channels.iter().find(|c| c.channel == 1);
                    assert!(
                        gpu.is_some_and(|c| c.dispatches > 0),
                        "{} {}: no child dispatch on the GPU channel",
                        k.name(),
                        corpus::target_dir(target)
                    );
                }
                Err(e) => {
                    failures.push(format!("{} {}: {e}", k.name(), corpus::target_dir(target)))
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn behaviour_05_many_threads_get_separate_contiguous_ranges_in_atomic_order() {
    let k = work::find("wq_producer").unwrap();
    let initial = k.kernel.launch.materialize();
    let o = run(
        k,
        Target::GFX1030_W32,
        k.kernel.launch.dims,
        &initial,
        default_config(k),
        1,
    )
    .unwrap();
    // 256 reservations of N + 1 = 2 entries: soft GP_PUT grew by 512 (plus
    // the terminal entry), every child ran exactly once (its slice is right).
    assert_eq!(o.report.reservations, 256);
    assert_eq!(o.report.entries_reserved, 512);
    assert_eq!(o.report.terminal_entry, 1 + 512);
    assert_eq!(o.report.terminal_blocks, 1);
    k.kernel.check(&o.finals).unwrap();
    // The GPU channel ran g0, then every reserved entry in index order.
    let stats = o.driver.device().stats();
    let gpu = stats.channels.iter().find(|c| c.channel == 1).unwrap();
    let expected: Vec<u32> = (0..=513).collect();
    assert_eq!(gpu.gp_get_history, expected);
    assert_eq!(gpu.dispatches, 256);
}

/// Behaviour 5 with real threads on the clocked GPU: the same ranges, every
/// child once, and the same GP_GET sequence from the clocked statistics.
#[test]
fn clocked_behaviour_05_many_threads_get_separate_contiguous_ranges_in_atomic_order() {
    let k = work::find("wq_producer").unwrap();
    let initial = k.kernel.launch.materialize();
    for target in [Target::GFX1030_W32, Target::GFX1030_W64] {
        let gpu = hw::ClockedGpu::new(hw::GpuConfig::default_config()).unwrap();
        let dims = k.kernel.launch.dims;
        let o = run_on(gpu, k, target, dims, &initial, default_config(k), 1).unwrap();
        assert_eq!(o.report.reservations, 256);
        assert_eq!(o.report.entries_reserved, 512);
        assert_eq!(o.report.terminal_entry, 1 + 512);
        k.kernel.check(&o.finals).unwrap();
        let stats = o.driver.device().stats();
        let gpu = stats.channels.iter().find(|c| c.channel == 1).unwrap();
        let expected: Vec<u32> = (0..=513).collect();
        assert_eq!(gpu.gp_get_history, expected);
        assert_eq!((gpu.entries_processed, gpu.dispatches), (513, 256));
    }
}

#[test]
fn overflow_returns_an_error_code_and_the_terminal_block_still_runs() {
    let k = work::find("wq_producer").unwrap();
    let initial = k.kernel.launch.materialize();
    // Q = 64, g0 = 0: work may take entries 1 … 61 (old + 2 + 1 <= 63):
    // 30 reservations of 2 entries fit; the 31st (old = 61) is refused and
    // its first entry takes the terminal block.
    let config = GpuChannelConfig {
        entries: 64,
        ..default_config(k)
    };
    let o = run(
        k,
        Target::GFX1030_W32,
        k.kernel.launch.dims,
        &initial,
        config,
        1,
    )
    .unwrap();
    let r = &o.report;
    assert_eq!(r.reservations, 30);
    assert_eq!(r.overflow_reservations, 256 - 30);
    assert_eq!(r.overflow_entries, 2 * (256 - 30));
    assert_eq!(r.terminal_blocks, 1);
    assert_eq!(r.terminal_entry, 61);
    assert!(r.has_errors());
    let text = r.problems();
    assert!(
        text.contains("226 reservation(s) asking for 452 entries"),
        "{text}"
    );
    let ArgValue::Buffer(status) = &o.finals[1] else {
        panic!()
    };
    let status = status.to_le_bytes();
    let codes: Vec<u32> = status
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(codes.iter().filter(|&&c| c == 0).count(), 30);
    assert_eq!(codes.iter().filter(|&&c| c == 1).count(), 226);
    // Exactly the accepted children wrote their slices.
    let ArgValue::Buffer(out) = &o.finals[0] else {
        panic!()
    };
    let out = out.to_le_bytes();
    let word = |i: usize| u32::from_le_bytes(out[4 * i..4 * i + 4].try_into().unwrap());
    for (c, &code) in codes.iter().enumerate() {
        let written = word(c * 32 + 5) == work::producer_fill(c as u32, 5);
        assert_eq!(written, code == 0, "child {c} (status {code})");
    }
    // The GPU channel is parked on acquire X in the terminal block at 61.
    let mut d = o.driver;
    assert_eq!(
        d.device_mut()
            .mmio_read(mmio::channel_reg(1, mmio::CH_GP_GET))
            .unwrap(),
        61
    );
}

#[test]
fn launches_in_a_row_reuse_the_channel_from_where_it_parked() {
    let k = work::find("wq_producer").unwrap();
    let initial = k.kernel.launch.materialize();
    // Small launches (8 threads) on a ring of 64: each takes 2·8 + 1 entries,
    // so the fourth launch wraps around the ring.
    let dims = Dims {
        grid: [8, 1, 1],
        local: [8, 1, 1],
    };
    let config = GpuChannelConfig {
        entries: 64,
        ..default_config(k)
    };
    let o = run(k, Target::GFX1030_W64, dims, &initial, config, 5).unwrap();
    assert!(!o.report.has_errors(), "{}", o.report.problems());
    assert_eq!(o.report.epoch, 5);
    // g0 of launch 5 = terminal entry of launch 4 = 4 · 17 mod 64.
    assert_eq!(o.report.g0, 4 * 17 % 64);
    assert_eq!(o.report.terminal_entry, (5 * 17) % 64);
    let stats = o.driver.device().stats();
    let gpu = stats.channels.iter().find(|c| c.channel == 1).unwrap();
    assert_eq!(gpu.dispatches, 5 * 8);
}

#[test]
fn an_exhausted_heap_is_an_error_code_and_the_launch_still_ends() {
    let k = work::find("wq_partition_sort").unwrap();
    let initial = k.kernel.launch.materialize();
    // 1 KiB of heap: one kernarg segment (its size + 256 bytes of slack) and
    // block at most; the other threads get GW_ERR_HEAP and launch nothing.
    let config = GpuChannelConfig {
        heap_bytes: 1024,
        ..default_config(k)
    };
    let o = run(
        k,
        Target::GFX1030_W32,
        k.kernel.launch.dims,
        &initial,
        config,
        1,
    )
    .unwrap();
    assert!(o.report.heap_failures > 0);
    assert!(o.report.reservations <= 1, "{:?}", o.report);
    assert_eq!(o.report.terminal_blocks, 1);
    assert!(o.report.problems().contains("work heap exhausted"));
    // The partition itself (done by the parent) is complete.
    let expected = k.kernel.expected().unwrap();
    assert_eq!(o.finals[1], expected[1], "tmp");
    assert_eq!(o.finals[3], expected[3], "counts");
}

#[test]
fn a_thread_that_never_publishes_is_a_deadlock_naming_channel_entry_and_semaphore() {
    // wq_stall: work-item 0 reserves an entry and never publishes; the last
    // work-item still inserts the terminal block behind it.
    let elf = std::fs::read(work::work_dir().join("prebuilt/gfx1030/wq_stall.hsaco")).unwrap();
    let gpu = GoldenGpu::new(GoldenConfig::new(arch::isa::Isa::Gfx1030)).unwrap();
    let mut driver = Driver::new(gpu).unwrap();
    let program = driver.load(&elf).unwrap();
    let parent = program.kernel("wq_stall").unwrap().clone();
    let mut channel = driver
        .create_gpu_channel(GpuChannelConfig::default(), &[])
        .unwrap();
    let sems = channel.semaphores().address;
    let err = driver
        .launch_creating_work(&mut channel, &parent, LaunchDims::linear(64, 64), &[])
        .unwrap_err();
    let DriverError::Blocked { channels, .. } = &err else {
        panic!("{err}")
    };
    let text = err.to_string();
    // The GPU channel waits at g0 for sem[0] (the stalled thread's release);
    // the CPU channel waits for Y.
    assert!(
        channels
            .iter()
            .any(|b| b.channel == 1 && b.entry == 0 && b.address == sems),
        "{text}"
    );
    assert!(
        channels
            .iter()
            .any(|b| b.channel == 0 && b.address == channel.y_address()),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "channel 1 at entry 0 waiting for [{sems:#x}] >= 1"
        )),
        "{text}"
    );
    // The channel is unusable afterwards, and says so.
    let again = driver
        .launch_creating_work(&mut channel, &parent, LaunchDims::linear(64, 64), &[])
        .unwrap_err();
    assert!(again.to_string().contains("recreate"), "{again}");
    assert_eq!(
        driver
            .device_mut()
            .mmio_read(mmio::channel_reg(1, mmio::CH_STATE))
            .unwrap(),
        mmio::CH_STATE_SEMAPHORE
    );
}

/// Runs a workload file on the golden GPU of its code object's ISA; returns
/// the check report's first mismatch (or "" when it passed) and the work
/// reports.
fn run_workload(path: &Path) -> Result<(String, Vec<WorkReport>), String> {
    run_workload_on(path, None, Model::Functional).map(|(m, r, _)| (m, r))
}

/// The first check mismatch ("" if none), the work reports, the final buffers.
type Ran = (String, Vec<WorkReport>, Vec<Vec<u8>>);

/// [`run_workload`] on `model` with a device of ISA `device` (default: the
/// code object's; gfx803 code on gfx1030 is translated), also returning the
/// final buffers.
fn run_workload_on(path: &Path, device: Option<Isa>, model: Model) -> Result<Ran, String> {
    let w = Workload::load(path).map_err(|e| e.to_string())?;
    let p = w.prepare().map_err(|e| e.to_string())?;
    let isa = CodeObject::parse(&p.code_object)
        .map_err(|e| e.to_string())?
        .isa()
        .ok_or("unmodelled processor")?;
    let options = ModelOptions {
        model,
        isa: device.unwrap_or(isa),
        config: hw::GpuConfig::one_cu(),
        watchdog: None,
        wave_watchdog: None,
    };
    let gpu = ModelDevice::new(&options)?;
    let mut driver = Driver::new(gpu).map_err(|e| e.to_string())?;
    let (finals, reports) =
        workload::execute_reporting(&mut driver, &p).map_err(|e| e.to_string())?;
    let report = workload::check(&w, &p, &finals).map_err(|e| e.to_string())?;
    let first = report
        .first_mismatch()
        .map(|m| m.to_string())
        .unwrap_or_default();
    Ok((
        first,
        reports,
        finals.into_iter().map(|b| b.bytes).collect(),
    ))
}

/// Seeds 001 and 003 together: a legacy kernel that creates work runs on the
/// gfx1030 GPU with its children translated too (the GPU dispatches them
/// without the driver, so they are translated when the channel is made), with
/// the native gfx803 GPU's final memory, on the golden GPU and in lockstep.
#[test]
fn legacy_work_creating_kernels_run_translated_with_translated_children() {
    let mut failures = Vec::new();
    for k in work::all() {
        let path = corpus_files::work_workload_path(k, Target::GFX803);
        let native = run_workload_on(&path, None, Model::Functional);
        let (m, _, native) = match native {
            Ok(x) => x,
            Err(e) => {
                failures.push(format!("{} native: {e}", path.display()));
                continue;
            }
        };
        assert!(m.is_empty(), "{} native: {m}", path.display());
        for model in [Model::Functional, Model::Lockstep] {
            match run_workload_on(&path, Some(Isa::Gfx1030), model) {
                Ok((m, reports, finals)) => {
                    if !m.is_empty() || reports.iter().any(|r| r.has_errors()) {
                        failures.push(format!("{} {model}: {m} {reports:?}", path.display()));
                    } else if finals != native {
                        failures.push(format!(
                            "{} {model}: final memory differs from native gfx803",
                            path.display()
                        ));
                    }
                }
                Err(e) => failures.push(format!("{} {model}: {e}", path.display())),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn work_workload_files_are_up_to_date_and_pass() {
    let bless = std::env::var_os("GPUSIM_BLESS").is_some();
    let mut failures = Vec::new();
    for k in work::all() {
        for target in TARGETS {
            let path = corpus_files::work_workload_path(k, target);
            let want = corpus_files::render_work(k, target);
            if bless {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &want).unwrap();
            }
            let have = std::fs::read_to_string(&path).unwrap_or_default();
            if have != want {
                failures.push(format!(
                    "{} is out of date (GPUSIM_BLESS=1)",
                    path.display()
                ));
                continue;
            }
            match run_workload(&path) {
                Ok((m, reports)) => {
                    if !m.is_empty() {
                        failures.push(format!("{}: {m}", path.display()));
                    }
                    if reports.len() != 1 || reports[0].has_errors() {
                        failures.push(format!("{}: {reports:?}", path.display()));
                    }
                }
                Err(e) => failures.push(format!("{}: {e}", path.display())),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn yaml_work_queue_errors_name_the_problem() {
    let parse = |text: &str| Workload::parse(text, Path::new("w.yaml")).map(|_| ());
    let base = "kernel: { work: wq_producer, target: gfx1030 }\ngrid: 64\nworkgroup: 64\n";
    let e = parse(base).unwrap_err().to_string();
    assert!(e.contains("needs a `work_queue:` section"), "{e}");
    let e = parse(&format!("{base}work_queue: {{ entries: 2 }}\n"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("entries 2 not in 4..=65536"), "{e}");
    let e = parse(&format!("{base}work_queue: {{ channel: 0 }}\n"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("driver's own channel"), "{e}");
    let e = parse(&format!("{base}work_queue: {{ entrys: 8 }}\n"))
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("w.yaml:4:"), "{e}");
    let e = parse("kernel: { work: nope, target: gfx1030 }\ngrid: 1\nworkgroup: 1\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown work-creation kernel `nope`"), "{e}");
    // A code object kernel needs its children listed.
    let e = parse("kernel: { code_object: k.hsaco }\ngrid: 1\nworkgroup: 1\nwork_queue: {}\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("`children`"), "{e}");
}

fn gpusim(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_gpusim"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .output()
        .expect("gpusim runs")
}

#[test]
fn gpusim_run_reports_work_queue_activity_deadlocks_and_overflow() {
    let o = gpusim(&[
        "run",
        "workloads/work/gfx1030/wq_bfs.yaml",
        "--stats",
        "text",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("PASS reference: corpus"), "{out}");
    assert!(out.contains("work queue launch 1: g0 0,"), "{out}");
    assert!(out.contains("channel 1: "), "{out}");
    assert!(out.contains("  GP_GET 0 1 2 3"), "{out}");

    // A thread that never publishes: exit 3, naming channel, entry, semaphore.
    let o = gpusim(&["run", "workloads/work/faults/wq_stall.yaml"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(
        err.contains("front end blocked on channel 1 at entry 0 waiting for ["),
        "{err}"
    );
    assert!(
        err.contains("front end blocked on channel 0 at entry 0"),
        "{err}"
    );

    // Overflow: the counts, the terminal block's entry, exit 1.
    let o = gpusim(&["run", "workloads/work/faults/wq_producer_overflow.yaml"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("226 reservation(s) asking for 452 entries were refused"),
        "{out}"
    );
    assert!(
        out.contains("the terminal block still ran at entry 61"),
        "{out}"
    );
}

#[test]
fn a_workload_can_launch_several_times_on_one_reused_channel() {
    let dir = std::env::temp_dir().join(format!("gpusim-work-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("w.yaml");
    std::fs::write(
        &path,
        "kernel: { work: wq_producer, target: gfx1030-w64 }
work_queue: { entries: 256, launches: 3 }
grid: [64]
workgroup: [64]
buffers:
  - { name: out, type: u32, length: 2048, init: zero }
  - { name: status, type: u32, length: 64, init: { fill_bits: 0xffffffff } }
args: [ { buffer: out }, { buffer: status }, { u32: 32 } ]
checks: [ { reference: corpus } ]
",
    )
    .unwrap();
    let (mismatch, reports) = run_workload(&path).unwrap();
    assert_eq!(mismatch, "");
    // Each launch takes 2·64 + 1 entries; g0 moves to the previous terminal.
    let g0: Vec<u32> = reports.iter().map(|r| r.g0).collect();
    assert_eq!(g0, vec![0, 129, 258 % 256]);
    let epochs: Vec<u32> = reports.iter().map(|r| r.epoch).collect();
    assert_eq!(epochs, vec![1, 2, 3]);
    assert!(reports.iter().all(|r| !r.has_errors()));
    std::fs::remove_dir_all(&dir).ok();
}

/// `gpusim run W --model M --stats json`: the terminal entry printed by the
/// driver's report and the statistics' `channels` (under `cycle` in lockstep).
fn run_json(workload: &str, model: &str) -> (u32, Vec<serde_json::Value>) {
    let o = gpusim(&["run", workload, "--model", model, "--stats", "json"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{model}: {out}");
    let terminal = out
        .split("terminal block at entry ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{model}: no terminal entry in {out}"));
    let line = out
        .lines()
        .find(|l| l.starts_with('{'))
        .expect("a JSON line");
    let v: serde_json::Value = serde_json::from_str(line).unwrap();
    let stats = if model == "lockstep" { &v["cycle"] } else { &v };
    let channels = stats["channels"].as_array().expect("channels").clone();
    (terminal, channels)
}

#[test]
fn clocked_stats_report_each_channels_entries_and_the_golden_gp_get_sequence() {
    for w in [
        "workloads/work/gfx1030/wq_bfs.yaml",
        "workloads/work/gfx1030-w64/wq_producer.yaml",
    ] {
        let (t, golden) = run_json(w, "functional");
        for model in ["cycle", "lockstep"] {
            let (tc, clocked) = run_json(w, model);
            assert_eq!(tc, t, "{w} {model}");
            let gpu = clocked
                .iter()
                .find(|c| c["channel"] == 1)
                .expect("channel 1");
            // One launch from g0 = 0: entries 0 … t − 1 ran, the channel
            // parks in the terminal block at entry t.
            assert_eq!(gpu["entries_processed"], u64::from(t), "{w} {model}");
            let history: Vec<u64> = (0..=u64::from(t)).collect();
            assert_eq!(gpu["gp_get_history"], serde_json::json!(history));
            for (g, c) in golden.iter().zip(&clocked) {
                for field in [
                    "channel",
                    "entries_processed",
                    "commands",
                    "dispatches",
                    "gp_get_history",
                    "history_truncated",
                    "acquires",
                    "releases",
                ] {
                    assert_eq!(g[field], c[field], "{w} {model} {field}");
                }
                assert!(c["acquire_wait_cycles"].is_u64() && c["idle_wait_cycles"].is_u64());
            }
            assert_eq!(golden.len(), clocked.len(), "{w} {model}");
        }
    }
    // The text form names the unit.
    let o = gpusim(&[
        "run",
        "workloads/work/gfx1030/wq_bfs.yaml",
        "--model",
        "cycle",
        "--stats",
        "text",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("channel 1: 23 entries, 26 commands, 11 dispatches, 13 acquires ("),
        "{out}"
    );
    assert!(out.contains(" cycles), 1 release, "), "{out}");
    assert!(out.contains("  GP_GET 0 1 2 3"), "{out}");
}
