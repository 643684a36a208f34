//! A stand-in lockstep harness for tests: drives a prepared lockstep dispatch
//! ([`GoldenGpu::prepare_dispatch`]) to its end through the stepping API only,
//! one instruction per wave in turn, holding waves at `s_barrier` itself — as
//! the real harness does by following the clocked model's order.
//!
//! ```text
//! launch up to `max_resident` workgroups (linear order)
//! round: every resident wave not ended and not held steps once
//!        barrier: once every wave not ended is held, all go on
//!        workgroup: all waves ended ─► release, launch the next one
//! ```

use arch::device::WaveId;

use crate::lockstep::LockstepError;
use crate::wave::WaveStatus;
use crate::GoldenGpu;

/// What [`run_round_robin`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoundRobin {
    /// Instructions stepped in total.
    pub instructions: u64,
    /// Instructions each wave executed, in the order the waves' workgroups were
    /// released.
    pub per_wave: Vec<(WaveId, u64)>,
    /// `s_barrier` instructions stepped.
    pub barriers: u64,
}

/// One resident workgroup of the stand-in harness.
struct Resident {
    workgroup: [u32; 3],
    /// Per wave: ended, held at a barrier, instructions stepped.
    ended: Vec<bool>,
    held: Vec<bool>,
    stepped: Vec<u64>,
}

/// Steps every workgroup of lockstep dispatch `dispatch` to its end, at most
/// `max_resident` workgroups at a time, then completes the dispatch silently.
/// Besides the golden model's own errors it checks the stepping API's
/// bookkeeping ([`crate::lockstep::Stepped`] and
/// [`GoldenGpu::wave_instructions`] against what it stepped) and reports a
/// mismatch as an error.
pub fn run_round_robin(
    gpu: &mut GoldenGpu,
    dispatch: u32,
    max_resident: usize,
) -> Result<RoundRobin, String> {
    let e = |e: LockstepError| e.to_string();
    let env = gpu
        .dispatch_env(dispatch)
        .ok_or_else(|| e(LockstepError::UnknownDispatch(dispatch)))?;
    let count = env.workgroup_count();
    let grid = env.workgroups;
    let mut next = 0u64;
    let mut resident: Vec<Resident> = Vec::new();
    let mut report = RoundRobin::default();
    loop {
        while resident.len() < max_resident.max(1) && next < count {
            let [nx, ny, _] = grid.map(u64::from);
            let workgroup = [
                (next % nx) as u32,
                ((next / nx) % ny) as u32,
                (next / (nx * ny)) as u32,
            ];
            next += 1;
            let waves = gpu.launch_workgroup(dispatch, workgroup).map_err(e)? as usize;
            resident.push(Resident {
                workgroup,
                ended: vec![false; waves],
                held: vec![false; waves],
                stepped: vec![0; waves],
            });
        }
        if resident.is_empty() {
            break;
        }
        for wg in resident.iter_mut() {
            for w in 0..wg.ended.len() {
                if wg.ended[w] || wg.held[w] {
                    continue;
                }
                let id = WaveId {
                    dispatch,
                    workgroup: wg.workgroup,
                    wave: w as u32,
                };
                let pc = gpu.wave(id).map(|w| w.pc);
                let s = gpu.step_wave(id).map_err(e)?;
                let wave = gpu.wave(id).ok_or_else(|| format!("{id} vanished"))?;
                if Some(s.pc) != pc || s.next_pc != wave.pc || s.seq != wg.stepped[w] {
                    return Err(format!(
                        "{id}: stepped {s:?} but the wave was at {pc:x?}, is at {:#x}, \
                         and had stepped {}",
                        wave.pc, wg.stepped[w]
                    ));
                }
                if s.ended() != (wave.status == WaveStatus::Ended) {
                    return Err(format!(
                        "{id}: {s:?} disagrees with status {:?}",
                        wave.status
                    ));
                }
                wg.stepped[w] += 1;
                report.instructions += 1;
                wg.ended[w] = s.ended();
                wg.held[w] = s.barrier();
                report.barriers += u64::from(s.barrier());
            }
            // The barrier opens once every wave that has not ended is held.
            let waiting = (0..wg.ended.len()).filter(|&w| !wg.ended[w]);
            if wg.held.iter().any(|&h| h) && waiting.clone().all(|w| wg.held[w]) {
                wg.held.iter_mut().for_each(|h| *h = false);
            }
        }
        let mut i = 0;
        while i < resident.len() {
            let wg = &resident[i];
            if !wg.ended.iter().all(|&x| x) {
                i += 1;
                continue;
            }
            for (w, &stepped) in wg.stepped.iter().enumerate() {
                let id = WaveId {
                    dispatch,
                    workgroup: wg.workgroup,
                    wave: w as u32,
                };
                let counted = gpu.wave_instructions(id);
                if counted != Some(stepped) {
                    return Err(format!("{id}: stepped {stepped}, counted {counted:?}"));
                }
                report.per_wave.push((id, stepped));
            }
            gpu.release_workgroup(dispatch, wg.workgroup).map_err(e)?;
            resident.remove(i);
        }
    }
    gpu.complete_dispatch_silently(dispatch).map_err(e)?;
    Ok(report)
}
