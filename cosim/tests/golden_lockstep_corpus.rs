//! Every corpus kernel on all three targets, set up through the driver and
//! then driven through the golden model's lockstep stepping API (packet read
//! from the command block the driver queued, workgroups launched and waves
//! stepped round-robin, the front end's fence write mirrored), ends with the
//! same device memory, wave states and instruction counts as the same
//! submission run by the golden front end and scheduler (`Device::run`) with
//! the same schedule (quantum 1, the same number of resident workgroups).

use std::path::{Path, PathBuf};

use arch::code_object::CodeObject;
use arch::command::{ChannelEntry, Command, ENTRY_BYTES};
use arch::device::{Device, RunStatus, RunUntil, WaveId};
use arch::mmio;
use cosim::workload::{Prepared, Workload};
use golden::testing::round_robin::run_round_robin;
use golden::wave::Wave;
use golden::{GoldenConfig, GoldenGpu};
use sw::driver::{Driver, Fence};

/// A driver over a fresh golden GPU with the workload's kernel dispatched
/// (queued, not run).
fn submitted(p: &Prepared, max_resident: usize) -> Result<(Driver<GoldenGpu>, Fence), String> {
    let isa = CodeObject::parse(&p.code_object)
        .map_err(|e| e.to_string())?
        .isa()
        .ok_or("unmodelled processor")?;
    let mut config = GoldenConfig::new(isa);
    config.keep_finished_waves = true;
    // The run loop's schedule becomes the stand-in harness's: one
    // instruction per wave per round over the same resident workgroups, so
    // even the values atomics return (which depend on the interleaving) agree.
    config.quantum = 1;
    config.max_resident_workgroups = max_resident as u32;
    let gpu = GoldenGpu::new(config).map_err(|e| e.to_string())?;
    let mut driver = Driver::new(gpu).map_err(|e| e.to_string())?;
    let program = driver.load(&p.code_object).map_err(|e| e.to_string())?;
    let kernel = program
        .kernel(&p.kernel_name)
        .map_err(|e| e.to_string())?
        .clone();
    let mut addresses = Vec::new();
    for b in &p.buffers {
        let a = driver.create_buffer(&b.bytes).map_err(|e| e.to_string())?;
        addresses.push(a.address);
    }
    let d = driver
        .dispatch(&kernel, p.dims, &p.driver_args(&addresses))
        .map_err(|e| e.to_string())?;
    Ok((driver, d.fence))
}

fn read_u32(gpu: &GoldenGpu, address: u64) -> Result<u32, String> {
    let mut b = [0u8; 4];
    gpu.read(address, &mut b).map_err(|e| e.to_string())?;
    Ok(u32::from_le_bytes(b))
}

/// The lockstep side: finds the DISPATCH the driver queued (the ring entry
/// at GP_GET, not yet processed), steps it to the end, and mirrors the
/// front-end writes that follow it in the block (the fence release).
fn stepped(driver: &mut Driver<GoldenGpu>, max_resident: usize) -> Result<u64, String> {
    let channel = driver.config().channel.index;
    let ring = driver.ring().address;
    let gpu = driver.device_mut();
    let entry = gpu
        .mmio_read(mmio::channel_reg(channel, mmio::CH_GP_GET))
        .map_err(|e| e.to_string())?;
    let bits = u64::from(read_u32(gpu, ring + u64::from(entry) * ENTRY_BYTES)?)
        | u64::from(read_u32(gpu, ring + u64::from(entry) * ENTRY_BYTES + 4)?) << 32;
    let entry_bits = ChannelEntry::from_bits(bits).map_err(|e| e.to_string())?;
    let block = u64::from(entry_bits.address);
    let mut words = Vec::new();
    for i in 0..u64::from(entry_bits.length_dwords) {
        words.push(read_u32(gpu, block + 4 * i)?);
    }
    let mut at = 0;
    let mut dispatched = false;
    while at < words.len() {
        let (command, used) = Command::read(&words[at..]).map_err(|e| e.to_string())?;
        match command {
            Command::Dispatch(_) => {
                let packet = block + 4 * at as u64 + 4;
                gpu.prepare_dispatch(0, channel, entry, packet)
                    .map_err(|e| e.to_string())?;
                run_round_robin(gpu, 0, max_resident)?;
                dispatched = true;
            }
            Command::SemaphoreRelease { address, payload } => gpu
                .write(address, &payload.to_le_bytes())
                .map_err(|e| e.to_string())?,
            Command::WaitForIdle | Command::Nop { .. } => {}
            other => return Err(format!("unexpected command {other:?}")),
        }
        at += used;
    }
    if !dispatched {
        return Err("no DISPATCH in the queued block".into());
    }
    Ok(gpu.stats().instructions)
}

type WaveState = (WaveId, [u32; 128], Vec<[u32; 64]>, bool, u64, u32);

fn wave_states(waves: &[Wave]) -> Vec<WaveState> {
    let mut v: Vec<_> = waves
        .iter()
        .map(|w| (w.id, w.sgpr, w.vgpr.clone(), w.scc, w.pc, w.mode))
        .collect();
    v.sort_by_key(|s| (s.0.dispatch, s.0.workgroup, s.0.wave));
    v
}

/// Compares the two devices' memory, map by map.
fn same_memory(a: &GoldenGpu, b: &GoldenGpu) -> Result<(), String> {
    let maps: Vec<_> = a.memory().mappings().collect();
    if maps != b.memory().mappings().collect::<Vec<_>>() {
        return Err("different mappings".into());
    }
    for (base, size) in maps {
        let (mut x, mut y) = (vec![0; size as usize], vec![0; size as usize]);
        a.read(base, &mut x).map_err(|e| e.to_string())?;
        b.read(base, &mut y).map_err(|e| e.to_string())?;
        if let Some(i) = (0..x.len()).find(|&i| x[i] != y[i]) {
            return Err(format!(
                "memory differs at {:#x}: run {:#04x}, stepped {:#04x}",
                base + i as u64,
                x[i],
                y[i]
            ));
        }
    }
    Ok(())
}

/// Compares one workload; `Ok(false)` when it is not a single-dispatch one.
fn compare(path: &Path, max_resident: usize) -> Result<bool, String> {
    let p = Workload::load(path)
        .and_then(|w| w.prepare())
        .map_err(|e| e.to_string())?;
    if !p.waits.is_empty() || !p.signals.is_empty() {
        return Ok(false); // semaphore workloads have blocks of their own
    }
    // Run, not `Driver::wait`: the driver would free the dispatch's
    // allocations (kernarg, command block, scratch) once the fence is reached.
    let (mut reference, _) = submitted(&p, max_resident)?;
    match reference.device_mut().run(RunUntil::Idle) {
        Ok(RunStatus::Done) => {}
        other => return Err(format!("run: {other:?}")),
    }
    let (mut lockstep, _) = submitted(&p, max_resident)?;
    let instructions = stepped(&mut lockstep, max_resident)?;
    let (a, b) = (reference.device(), lockstep.device());
    same_memory(a, b)?;
    if wave_states(a.finished_waves()) != wave_states(b.finished_waves()) {
        return Err("final wave states differ".into());
    }
    let (x, y) = (a.stats(), b.stats());
    if (
        x.instructions,
        &x.instructions_by_class,
        x.active_lane_instructions,
    ) != (
        instructions,
        &y.instructions_by_class,
        y.active_lane_instructions,
    ) {
        return Err(format!("statistics differ: run {x:?}, stepped {y:?}"));
    }
    if (x.workgroups, x.waves) != (y.workgroups, y.waves) || y.waves == 0 {
        return Err(format!("launches differ: run {x:?}, stepped {y:?}"));
    }
    Ok(true)
}

#[test]
fn every_corpus_kernel_steps_to_the_same_result_as_it_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../workloads/corpus");
    let mut failures = Vec::new();
    let (mut count, mut compared) = (0, 0);
    for target in ["gfx803", "gfx1030", "gfx1030-w64"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(target))
            .expect("workload directory")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
            .collect();
        files.sort();
        assert!(files.len() >= 24, "{target}: {} workloads", files.len());
        for (i, f) in files.iter().enumerate() {
            count += 1;
            // Vary how many workgroups are interleaved: 1 (one at a time) to 4.
            match compare(f, 1 + i % 4) {
                Ok(done) => compared += usize::from(done),
                Err(e) => failures.push(format!("{}: {e}", f.display())),
            }
        }
    }
    println!(
        "{count} workloads, {compared} compared, {} failed",
        failures.len()
    );
    for f in &failures {
        println!("{f}");
    }
    assert!(failures.is_empty(), "{} of {count} differ", failures.len());
    assert!(compared >= 72, "only {compared} of {count} compared");
}
