//! The per-cycle check: every event the clocked GPU reported this cycle,
//! in order, steers the golden GPU (dispatches, workgroup launches, one
//! instruction per issue, front-end writes) and is compared with it (wave
//! launches, retirements, wave ends), then the memory this cycle's
//! instructions wrote.

use std::collections::BTreeMap;

use arch::device::{Device, Fault, FaultKind, WaveId};
use golden::GoldenGpu;
use hw::event::{Event, PartPass, Retire};
use hw::exec::MemWrite;
use hw::ClockedGpu;

use super::launch::{self, Launch};
use super::memory;
use super::report::Report;
use super::retire::{self, Passes, Record};
use super::{LockstepStats, WaveTrack};

/// The borrowed state the per-cycle check works on.
pub(super) struct Checker<'a> {
    pub golden: &'a mut GoldenGpu,
    pub waves: &'a mut BTreeMap<WaveId, WaveTrack>,
    pub workgroups: &'a mut BTreeMap<(u32, [u32; 3]), u32>,
    pub released: &'a mut BTreeMap<u32, u64>,
    pub stats: &'a mut LockstepStats,
    pub events: Vec<Event>,
    /// Memory written by the instructions issued this cycle.
    pub touched: Vec<(WaveId, MemWrite, arch::isa::Instruction)>,
}

/// The report line for a mismatch in a wave with a shared VGPR region: the
/// likely cause when the program breaks the region's contract.
fn shared_region_note(vgprs: u16, shared: u16) -> String {
    format!(
        "this wave's parts share v{}–v{} (seed 000 §2; the golden GPU does not): a value \
         read there after the sub-vector window that wrote it is the last part's \
         (docs/variable-wavefront.md, \"The shared VGPR region\")",
        vgprs - shared,
        vgprs - 1
    )
}

/// A lockstep-mismatch fault with `report` as its text.
pub(super) fn mismatch(report: String, wave: WaveId, pc: Option<u64>, cycle: u64) -> Box<Fault> {
    Box::new(Fault {
        kind: FaultKind::LockstepMismatch { report },
        wave: Some(wave),
        pc,
        instruction: None,
        cycle,
        clock: arch::device::Clock::Cycles,
    })
}

impl Checker<'_> {
    /// Checks this cycle's events, then the memory they wrote.
    pub fn check(&mut self, hw: &ClockedGpu) -> Result<(), Box<Fault>> {
        let events = std::mem::take(&mut self.events);
        let mut result = Ok(());
        for e in &events {
            result = self.event(e, hw);
            if result.is_err() {
                break;
            }
        }
        self.events = events;
        result?;
        self.compare_memory(hw)
    }

    /// After every instruction issued this cycle has run on both models (in the
    /// same order), the bytes they wrote must be identical in both memories —
    /// exact even for atomics and for several waves writing one address.
    fn compare_memory(&mut self, hw: &ClockedGpu) -> Result<(), Box<Fault>> {
        let touched = std::mem::take(&mut self.touched);
        memory::compare_written(hw, self.golden, &touched).map_err(|found| {
            let (rep, wave) = *found;
            let rep = match self.waves.get(&wave).map(|t| t.shared_vgprs) {
                Some((vgprs, shared)) if shared > 0 => rep.line(shared_region_note(vgprs, shared)),
                _ => rep,
            };
            mismatch(rep.text(), wave, None, hw.now())
        })
    }

    fn golden_error(
        &self,
        e: golden::LockstepError,
        wave: WaveId,
        pc: Option<u64>,
        cycle: u64,
    ) -> Box<Fault> {
        match e {
            golden::LockstepError::Fault(f) => mismatch(
                format!("the golden model faulted where the cycle model did not: {f}"),
                wave,
                pc,
                cycle,
            ),
            other => mismatch(format!("lockstep harness: {other}"), wave, pc, cycle),
        }
    }

    fn event(&mut self, e: &Event, hw: &ClockedGpu) -> Result<(), Box<Fault>> {
        let cycle = hw.now();
        match e {
            Event::Dispatch {
                number,
                channel,
                entry,
                packet_address,
            } => self
                .golden
                .prepare_dispatch(*number, *channel, *entry, *packet_address)
                .map_err(|e| self.golden_error(e, WaveId::default(), None, cycle)),
            Event::WaveLaunch {
                wave,
                pc,
                scalar,
                vgpr,
                vgprs,
                shared_vgprs,
            } => self.wave_launch(
                &Launch {
                    wave: *wave,
                    pc: *pc,
                    scalar,
                    vgpr,
                    vgprs: *vgprs,
                },
                *shared_vgprs,
                cycle,
            ),
            Event::Issue {
                wave,
                pc,
                seq,
                memory,
                part: Some(p),
            } if !p.first && memory.is_empty() => self.later_part(*wave, *pc, *seq, p, cycle),
            Event::Issue {
                wave,
                pc,
                seq,
                memory,
                part,
            } => self.issue(*wave, *pc, *seq, memory, part.as_ref(), cycle),
            Event::Retire(r) => self.compare_retire(r, hw),
            Event::WaveEnd { wave } => self.wave_end(*wave, cycle),
            Event::FrontEndWrite { address, value } => self
                .golden
                .write(*address, &value.to_le_bytes())
                .map_err(|e| {
                    Box::new(Fault {
                        kind: FaultKind::LockstepMismatch {
                            report: format!("front-end write to {address:#x} cannot be mirrored into the golden model: {e}"),
                        },
                        wave: None,
                        pc: None,
                        instruction: None,
                        cycle,
                        clock: arch::device::Clock::Cycles,
                    })
                }),
        }
    }

    /// A wave launched: the golden model launches its workgroup (at the
    /// first wave of it), and the initial states must agree.
    fn wave_launch(&mut self, l: &Launch, shared_vgprs: u16, cycle: u64) -> Result<(), Box<Fault>> {
        let wave = l.wave;
        let key = (wave.dispatch, wave.workgroup);
        if !self.workgroups.contains_key(&key) {
            let n = self
                .golden
                .launch_workgroup(wave.dispatch, wave.workgroup)
                .map_err(|e| self.golden_error(e, wave, Some(l.pc), cycle))?;
            self.workgroups.insert(key, n);
        }
        self.stats.waves += 1;
        self.waves.insert(
            wave,
            WaveTrack {
                shared_vgprs: (l.vgprs, shared_vgprs),
                ..WaveTrack::default()
            },
        );
        let g = self.golden.wave(wave).ok_or_else(|| {
            mismatch(
                "the golden model did not create this wave for its workgroup".into(),
                wave,
                Some(l.pc),
                cycle,
            )
        })?;
        match launch::compare(l, g, cycle) {
            Some(r) => Err(mismatch(r.text(), wave, Some(l.pc), cycle)),
            None => Ok(()),
        }
    }

    /// A later part of an instruction whose first part issued: the golden
    /// model executed it (all lanes) then.
    fn later_part(
        &mut self,
        wave: WaveId,
        pc: u64,
        seq: u64,
        p: &PartPass,
        cycle: u64,
    ) -> Result<(), Box<Fault>> {
        let t = self.waves.entry(wave).or_default();
        let rec = t.records.iter_mut().find(|r| r.seq == seq);
        match rec.and_then(|r| r.passes.as_mut().map(|ps| (r.pc, ps))) {
            Some((rpc, ps)) if rpc == pc => {
                ps.in_flight += 1;
                ps.last_issued |= p.last;
                Ok(())
            }
            _ => Err(mismatch(
                format!(
                    "the cycle model issued part {} of instruction #{seq} at pc {pc:#x} without its first part in flight",
                    p.part
                ),
                wave,
                Some(pc),
                cycle,
            )),
        }
    }

    /// An instruction issued: the golden model steps the wave and keeps what
    /// it computed until the clocked model retires the instruction.
    fn issue(
        &mut self,
        wave: WaveId,
        pc: u64,
        seq: u64,
        memory: &[MemWrite],
        part: Option<&PartPass>,
        cycle: u64,
    ) -> Result<(), Box<Fault>> {
        let Some(g) = self.golden.wave(wave) else {
            return Err(mismatch(
                "the cycle model issued for a wave the golden model does not have".into(),
                wave,
                Some(pc),
                cycle,
            ));
        };
        let (sgpr_before, scc_before) = (g.sgpr, g.scc);
        let stepped = self
            .golden
            .step_wave(wave)
            .map_err(|e| self.golden_error(e, wave, Some(pc), cycle))?;
        let g = self.golden.wave(wave).expect("stepped wave exists");
        if stepped.pc != pc || stepped.seq != seq {
            return Err(mismatch(
                Report::new(wave, Some(&stepped.inst), cycle)
                    .line(format!(
                        "control flow differs: the cycle model issued instruction #{seq} at pc {pc:#x}, the golden model's next is #{} at pc {:#x}",
                        stepped.seq, stepped.pc
                    ))
                    .text(),
                wave,
                Some(pc),
                cycle,
            ));
        }
        let record = Record {
            seq,
            pc,
            inst: stepped.inst,
            exec: stepped.exec,
            sgpr_before,
            sgpr_after: g.sgpr,
            scc_before,
            scc_after: g.scc,
            mode_after: g.mode,
            passes: part.map(|p| Passes {
                vgpr_after: g.vgpr.clone(),
                in_flight: 1,
                last_issued: p.last,
            }),
        };
        let t = self.waves.entry(wave).or_default();
        t.issued += 1;
        t.records.push_back(record);
        self.touched
            .extend(memory.iter().map(|m| (wave, *m, stepped.inst)));
        Ok(())
    }

    /// A wave ended: both models ended it after the same instructions; the
    /// last wave of a workgroup releases it on the golden model, and the last
    /// workgroup of a dispatch completes it.
    fn wave_end(&mut self, wave: WaveId, cycle: u64) -> Result<(), Box<Fault>> {
        let golden_count = self.golden.wave_instructions(wave).unwrap_or(0);
        let t = self
            .waves
            .get(&wave)
            .map(|t| (t.issued, t.retired))
            .unwrap_or((0, 0));
        let ended = self
            .golden
            .wave(wave)
            .is_some_and(|w| w.status == golden::wave::WaveStatus::Ended);
        if !ended || t.0 != golden_count || t.1 != t.0 {
            return Err(mismatch(
                Report::new(wave, None, cycle)
                    .line(format!(
                        "wave end: the cycle model issued {} and retired {} instructions, the golden model executed {golden_count}{}",
                        t.0,
                        t.1,
                        if ended { "" } else { " and has not ended" }
                    ))
                    .text(),
                wave,
                None,
                cycle,
            ));
        }
        let key = (wave.dispatch, wave.workgroup);
        if let Some(live) = self.workgroups.get_mut(&key) {
            *live -= 1;
            if *live == 0 {
                self.workgroups.remove(&key);
                self.golden
                    .release_workgroup(wave.dispatch, wave.workgroup)
                    .map_err(|e| self.golden_error(e, wave, None, cycle))?;
                let done = self.released.entry(wave.dispatch).or_default();
                *done += 1;
                let total = self
                    .golden
                    .dispatch_env(wave.dispatch)
                    .map_or(u64::MAX, |env| env.workgroup_count());
                if *done == total {
                    self.released.remove(&wave.dispatch);
                    self.golden
                        .complete_dispatch_silently(wave.dispatch)
                        .map_err(|e| self.golden_error(e, wave, None, cycle))?;
                }
            }
        }
        // Waves are done with; keep the map small.
        self.waves.remove(&wave);
        Ok(())
    }

    /// An instruction (or a sub-vector pass of one) retired: its record is
    /// taken (at the last pass) and compared with what the clocked model wrote.
    fn compare_retire(&mut self, r: &Retire, hw: &ClockedGpu) -> Result<(), Box<Fault>> {
        let cycle = r.cycle;
        let wave = r.wave;
        let t = self.waves.entry(wave).or_default();
        let (vgprs, shared) = t.shared_vgprs;
        let Some(i) = t.records.iter().position(|rec| rec.seq == r.seq) else {
            return Err(mismatch(
                format!(
                    "the cycle model retired instruction #{} at pc {:#x} that it never issued",
                    r.seq, r.pc
                ),
                wave,
                Some(r.pc),
                cycle,
            ));
        };
        // A sub-vector pass keeps the record until its instruction's last
        // pass retired.
        let done = match t.records[i].passes.as_mut() {
            Some(ps) => {
                ps.in_flight = ps.in_flight.saturating_sub(1);
                ps.last_issued && ps.in_flight == 0
            }
            None => true,
        };
        let rec = if done {
            t.retired += 1;
            t.records.remove(i).expect("position is in range")
        } else {
            t.records[i].clone()
        };
        self.stats.compared += 1;
        let g = self.golden.wave(wave).expect("a wave with records exists");
        let golden_vgpr = rec.passes.as_ref().map_or(&g.vgpr, |p| &p.vgpr_after);
        let diffs = retire::differences(&rec, r, golden_vgpr, g.target.wave_size());
        if !diffs.is_empty() {
            let mut rep = retire::describe(Report::new(wave, Some(&rec.inst), cycle), &diffs);
            if shared > 0 {
                rep = rep.line(shared_region_note(vgprs, shared));
            }
            let rep = rep.dump(hw.wave_registers(wave), g);
            return Err(mismatch(rep.text(), wave, Some(r.pc), cycle));
        }
        if rec.model_specific() {
            // Keep the golden model in step with the cycle model's values.
            if let Some(gw) = self.golden.wave_mut(wave) {
                for &(code, value) in &r.writes.sgpr {
                    if usize::from(code) < 128 {
                        gw.sgpr[usize::from(code)] = value;
                    }
                }
            }
        }
        Ok(())
    }
}
