//! The waveform of the cycles before a lockstep mismatch, without tracing
//! every lockstep run.
//!
//! Tracing costs several times the simulation itself, and a mismatch is
//! rare, so lockstep does not trace while it checks. It keeps instead a copy
//! of the clocked GPU (taken before the first host operation, and again after
//! [`super::LockstepGpu::clocked_mut`], which may change it in ways no log
//! sees) and a log of every host operation since (map, unmap, write, MMIO,
//! run). The clocked GPU is deterministic and never reads the golden model,
//! so replaying the log on the copy, alone and at the cycle model's speed,
//! passes through exactly the states the checked run did; the replay writes
//! the requested window of cycles to a VCD file and stops at the mismatch.

use std::path::Path;

use arch::device::{Device, Fault, FaultKind, RunUntil};
use hw::ClockedGpu;
use traces::{Probe, VcdOptions, VcdTrace};

/// One host operation on the lockstep device, in the order it happened.
#[derive(Clone, Debug)]
pub(super) enum HostOp {
    Map { base: u64, size: u64 },
    Unmap { base: u64 },
    Write { address: u64, data: Vec<u8> },
    MmioRead { offset: u32 },
    MmioWrite { offset: u32, value: u32 },
    Run { until: RunUntil },
}

/// The copy of the clocked GPU and the host operations applied since.
#[derive(Default)]
pub(super) struct ReplayLog {
    start: Option<Box<ClockedGpu>>,
    ops: Vec<HostOp>,
}

/// The cycles a replay wrote to its waveform.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayedWindow {
    /// First cycle written.
    pub from: u64,
    /// Last cycle written: the cycle the mismatch was found in.
    pub to: u64,
}

impl ReplayLog {
    /// Forgets the copy and the log: the next operation copies the GPU anew.
    pub(super) fn restart(&mut self) {
        self.start = None;
        self.ops.clear();
    }

    /// Logs `op`, about to be applied to `hw` (copied first if nothing is
    /// logged yet).
    pub(super) fn push(&mut self, hw: &ClockedGpu, op: HostOp) {
        if self.start.is_none() {
            self.start = Some(Box::new(hw.clone()));
        }
        self.ops.push(op);
    }

    /// Replays the log on a copy of the start state, writing cycles
    /// `to - cycles_before ..= to` of the signals `filter` selects (all when
    /// `None`) to `path`, and stops at cycle `to`.
    pub(super) fn waveform(
        &self,
        path: &Path,
        to: u64,
        cycles_before: u64,
        filter: Option<String>,
    ) -> Result<ReplayedWindow, String> {
        let Some(start) = &self.start else {
            return Err("nothing ran in lockstep: there is no run to replay".into());
        };
        let from = to.saturating_sub(cycles_before);
        let options = VcdOptions {
            filter,
            from: Some(from),
            to: Some(to),
            ..VcdOptions::default()
        };
        let mut trace =
            VcdTrace::create(path, options).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut gpu = (**start).clone();
        let mut write_error = None;
        let replayed = replay(&mut gpu, &self.ops, to, |gpu| {
            if gpu.now() >= from && write_error.is_none() {
                if let Err(e) = trace.sample(gpu.now(), |t| gpu.probe("gpu", t)) {
                    write_error = Some(e.to_string());
                }
            }
        });
        let closed = trace.finish().map_err(|e| e.to_string());
        if let Some(e) = write_error {
            return Err(format!("{}: {e}", path.display()));
        }
        closed.map_err(|e| format!("{}: {e}", path.display()))?;
        let last = replayed?;
        if last < to {
            return Err(format!(
                "the replay ended at cycle {last}, before the mismatch at cycle {to}: \
                 the clocked GPU did not repeat its run"
            ));
        }
        Ok(ReplayedWindow { from, to })
    }
}

/// Applies `ops` to `gpu`, calling `sample` after every clock edge, until the
/// GPU reaches cycle `to` or the log ends; returns the cycle reached.
fn replay<S>(gpu: &mut ClockedGpu, ops: &[HostOp], to: u64, mut sample: S) -> Result<u64, String>
where
    S: FnMut(&ClockedGpu),
{
    let stop = |cycle: u64| {
        Box::new(Fault {
            // Not a signal: the replay stops itself at the window's end.
            kind: FaultKind::Interrupted {
                signal: "the end of the replay window",
            },
            wave: None,
            pc: None,
            instruction: None,
            cycle,
            clock: arch::device::Clock::Cycles,
        })
    };
    let mut drained = Vec::new();
    // Host operations failed or succeeded the same way in the checked run; the
    // driver's reactions to them are in the log already.
    for op in ops {
        match op {
            HostOp::Map { base, size } => {
                let _ = gpu.map(*base, *size);
            }
            HostOp::Unmap { base } => {
                let _ = gpu.unmap(*base);
            }
            HostOp::Write { address, data } => {
                let _ = gpu.write(*address, data);
            }
            HostOp::MmioRead { offset } => {
                let _ = gpu.mmio_read(*offset);
            }
            HostOp::MmioWrite { offset, value } => {
                let _ = gpu.mmio_write(*offset, *value);
            }
            HostOp::Run { until } => {
                let ran = gpu.run_with(*until, |gpu| {
                    // Lockstep runs with events on; drain them as its checker did.
                    gpu.swap_events(&mut drained);
                    sample(gpu);
                    if gpu.now() >= to {
                        Err(stop(gpu.now()))
                    } else {
                        Ok(())
                    }
                });
                if ran.is_err() {
                    // The stop, or the clocked GPU's own fault the checked run met too.
                    return Ok(gpu.now());
                }
            }
        }
        if gpu.now() >= to {
            break;
        }
    }
    Ok(gpu.now())
}
