//! Lockstep co-simulation: the clocked GPU (`hw`) drives, the golden GPU
//! follows one wave-instruction at a time, and every retired instruction is
//! compared. See `docs/cycle-model.md` ("Lockstep") for the rules.
//!
//! ```text
//! hw event            golden action                       comparison
//! Dispatch            prepare_dispatch                     —
//! WaveLaunch          launch_workgroup (first wave of it)  initial registers
//! Issue               step_wave → record                   pc, sequence number
//! Retire              —                                    written registers, EXEC,
//!                                                          memory bytes, vs the record
//! WaveEnd             release_workgroup (last wave)        ended, instruction counts
//! FrontEndWrite       write into golden memory             —
//! run(Idle) returns   —                                    all device memory
//! ```

use std::collections::{BTreeMap, VecDeque};

use arch::device::{Device, DeviceError, Fault, FaultKind, RunStatus, RunUntil, WaveId};
use arch::isa::{Isa, Opcode};
use golden::GoldenGpu;
use hw::event::{Event, Retire};
use hw::exec::{MemSpace, MemWrite, ScalarState};
use hw::ClockedGpu;

mod replay;
mod report;

pub use replay::ReplayedWindow;
use replay::{HostOp, ReplayLog};
use report::Report;

/// What the golden model computed for one instruction, kept until the clocked
/// model retires it.
#[derive(Clone, Debug)]
struct Record {
    seq: u64,
    pc: u64,
    inst: arch::isa::Instruction,
    exec: u64,
    sgpr_before: [u32; 128],
    sgpr_after: [u32; 128],
    scc_before: bool,
    scc_after: bool,
    mode_after: u32,
    /// Sub-vector passes (docs/variable-wavefront.md): the golden model's
    /// VGPRs right after the instruction (later instructions of the window
    /// run on the golden model before this one's later parts retire), the
    /// passes issued and not yet retired, and whether the last one issued.
    passes: Option<Passes>,
}

/// The sub-vector passes of one instruction.
#[derive(Clone, Debug)]
struct Passes {
    vgpr_after: Vec<[u32; 64]>,
    in_flight: u32,
    last_issued: bool,
}

/// Per-wave lockstep bookkeeping.
#[derive(Debug, Default)]
struct WaveTrack {
    records: VecDeque<Record>,
    issued: u64,
    retired: u64,
    /// `(VGPRs, of which shared by the parts)`: the golden GPU does not
    /// alias a shared region, so a mismatch report names it.
    shared_vgprs: (u16, u16),
}

/// Counters of a lockstep run.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct LockstepStats {
    /// Instructions compared at retirement.
    pub compared: u64,
    /// Waves whose initial state was compared.
    pub waves: u64,
    /// Bytes of device memory compared at the end of runs.
    pub memory_bytes_compared: u64,
}

/// The clocked GPU and the golden GPU in lockstep, as one [`Device`].
pub struct LockstepGpu {
    hw: ClockedGpu,
    golden: GoldenGpu,
    waves: BTreeMap<WaveId, WaveTrack>,
    /// Live waves per (dispatch, workgroup).
    workgroups: BTreeMap<(u32, [u32; 3]), u32>,
    /// Workgroups released per dispatch.
    released: BTreeMap<u32, u64>,
    stats: LockstepStats,
    /// What replays a run up to a mismatch with tracing on.
    replay: ReplayLog,
}

impl LockstepGpu {
    /// Pairs a clocked GPU with a golden GPU (which must execute gfx1030).
    pub fn new(mut hw: ClockedGpu, golden: GoldenGpu) -> Result<LockstepGpu, String> {
        if golden.isa() != Isa::Gfx1030 {
            return Err(format!(
                "the golden GPU executes {}, the clocked GPU gfx1030",
                golden.isa()
            ));
        }
        hw.set_events(true);
        Ok(LockstepGpu {
            hw,
            golden,
            waves: BTreeMap::new(),
            workgroups: BTreeMap::new(),
            released: BTreeMap::new(),
            stats: LockstepStats::default(),
            replay: ReplayLog::default(),
        })
    }

    /// The clocked GPU.
    pub fn clocked(&self) -> &ClockedGpu {
        &self.hw
    }

    /// The clocked GPU, mutably (fault injection in tests, tracing).
    pub fn clocked_mut(&mut self) -> &mut ClockedGpu {
        // Whatever the caller changes must be in the state a replay starts from.
        self.replay.restart();
        &mut self.hw
    }

    /// Writes a VCD of the clocked GPU's cycles `to - cycles_before ..= to`
    /// (signals selected by `filter`, all when `None`) to `path`, by replaying
    /// this device's run on a copy of the clocked GPU without the checker —
    /// after a mismatch, `to` is the fault's cycle. See `replay.rs`.
    pub fn replay_waveform(
        &self,
        path: &std::path::Path,
        to: u64,
        cycles_before: u64,
        filter: Option<String>,
    ) -> Result<ReplayedWindow, String> {
        self.replay.waveform(path, to, cycles_before, filter)
    }

    /// The golden GPU.
    pub fn golden(&self) -> &GoldenGpu {
        &self.golden
    }

    /// Counters so far.
    pub fn stats(&self) -> &LockstepStats {
        &self.stats
    }

    /// Runs `until` like [`Device::run`], calling `hook` after every clock edge
    /// of the clocked GPU once its events have been checked (tracing, progress,
    /// interruption: an `Err` stops the run with that fault).
    pub fn run_with<H>(&mut self, until: RunUntil, mut hook: H) -> Result<RunStatus, DeviceError>
    where
        H: FnMut(&ClockedGpu) -> Result<(), Box<Fault>>,
    {
        self.replay.push(&self.hw, HostOp::Run { until });
        let LockstepGpu {
            hw,
            golden,
            waves,
            workgroups,
            released,
            stats,
            replay: _,
        } = self;
        let mut checker = Checker {
            golden,
            waves,
            workgroups,
            released,
            stats,
            events: Vec::new(),
            touched: Vec::new(),
        };
        let status = hw.run_with(until, |hw| {
            hw.swap_events(&mut checker.events);
            let result = checker.check(hw);
            let hooked = hook(hw);
            result.and(hooked)
        });
        // A fault of the clocked model: events before it were checked already.
        let status = status?;
        // Both models have executed exactly the instructions the clocked model
        // issued, and front-end writes are mirrored: at every return the two
        // memories must agree (the driver usually waits on a fence word, not
        // for idleness, so this is where a run ends).
        if status == RunStatus::Done {
            self.finish()
                .map_err(|f| DeviceError::Fault(Box::new(*f)))?;
        }
        Ok(status)
    }

    /// End-of-run checks: every wave that has left retired what it issued
    /// (checked at its end), and all device memory is identical.
    fn finish(&mut self) -> Result<(), Box<Fault>> {
        let cycle = self.hw.now();
        for (id, t) in self.waves.iter().filter(|_| self.hw.is_idle()) {
            if t.issued != t.retired {
                return Err(mismatch(
                    Report::new(*id, None, cycle)
                        .line(format!(
                            "instruction-count parity: the cycle model issued {} instructions and retired {}",
                            t.issued, t.retired
                        ))
                        .text(),
                    *id,
                    None,
                    cycle,
                ));
            }
        }
        let mut a = vec![0u8; 1 << 16];
        let mut b = vec![0u8; 1 << 16];
        let maps: Vec<(u64, u64)> = self.hw.backing().mappings().collect();
        for (base, size) in maps {
            let mut off = 0;
            while off < size {
                let n = (size - off).min(a.len() as u64) as usize;
                let addr = base + off;
                let hw_ok = self.hw.backing().read(addr, &mut a[..n]).is_ok();
                let golden_ok = self.golden.memory().read(addr, &mut b[..n]).is_ok();
                if !hw_ok || !golden_ok || a[..n] != b[..n] {
                    let i = (0..n).find(|&i| a[i] != b[i]).unwrap_or(0);
                    let report = format!(
                        "final memory differs at {:#x}: cycle model {:#04x}, golden {:#04x}{}",
                        addr + i as u64,
                        a[i],
                        b[i],
                        if golden_ok {
                            ""
                        } else {
                            " (not mapped in the golden model)"
                        }
                    );
                    let f = Box::new(Fault {
                        kind: FaultKind::LockstepMismatch { report },
                        wave: None,
                        pc: None,
                        instruction: None,
                        cycle,
                    });
                    return Err(f);
                }
                self.stats.memory_bytes_compared += n as u64;
                off += n as u64;
            }
        }
        Ok(())
    }
}

/// The borrowed state the per-cycle check works on.
struct Checker<'a> {
    golden: &'a mut GoldenGpu,
    waves: &'a mut BTreeMap<WaveId, WaveTrack>,
    workgroups: &'a mut BTreeMap<(u32, [u32; 3]), u32>,
    released: &'a mut BTreeMap<u32, u64>,
    stats: &'a mut LockstepStats,
    events: Vec<Event>,
    /// Memory written by the instructions issued this cycle.
    touched: Vec<(WaveId, MemWrite, arch::isa::Instruction)>,
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

fn mismatch(report: String, wave: WaveId, pc: Option<u64>, cycle: u64) -> Box<Fault> {
    Box::new(Fault {
        kind: FaultKind::LockstepMismatch { report },
        wave: Some(wave),
        pc,
        instruction: None,
        cycle,
    })
}

impl Checker<'_> {
    fn check(&mut self, hw: &ClockedGpu) -> Result<(), Box<Fault>> {
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
        for (wave, m, inst) in &touched {
            let n = usize::from(m.len);
            let (mut a, mut b) = ([0u8; 16], [0u8; 16]);
            let (hw_ok, golden_ok) = match m.space {
                MemSpace::Global => (
                    hw.backing().read(m.address, &mut a[..n]).is_ok(),
                    self.golden.memory().read(m.address, &mut b[..n]).is_ok(),
                ),
                MemSpace::Lds => {
                    let range = m.address as usize..m.address as usize + n;
                    let hw_lds = hw.workgroup_lds(*wave).and_then(|l| l.get(range.clone()));
                    let golden_lds = self
                        .golden
                        .lds(wave.dispatch, wave.workgroup)
                        .and_then(|l| l.get(range));
                    match (hw_lds, golden_lds) {
                        (Some(x), Some(y)) => {
                            a[..n].copy_from_slice(x);
                            b[..n].copy_from_slice(y);
                            (true, true)
                        }
                        // The workgroup has ended on one side: nothing left to compare.
                        _ => continue,
                    }
                }
            };
            if !hw_ok || !golden_ok || a[..n] != b[..n] {
                let space = if m.space == MemSpace::Lds {
                    "LDS"
                } else {
                    "memory"
                };
                let rep = Report::new(*wave, Some(inst), hw.now())
                    .line("memory after this cycle's instructions differs:".into())
                    .side(
                        &format!("{space} [{:#x}]", m.address),
                        if hw_ok {
                            report::hex_bytes(&a[..n])
                        } else {
                            "(not accessible)".into()
                        },
                        if golden_ok {
                            report::hex_bytes(&b[..n])
                        } else {
                            "(not accessible)".into()
                        },
                    );
                let rep = match self.waves.get(wave).map(|t| t.shared_vgprs) {
                    Some((vgprs, shared)) if shared > 0 => {
                        rep.line(shared_region_note(vgprs, shared))
                    }
                    _ => rep,
                };
                return Err(mismatch(rep.text(), *wave, None, hw.now()));
            }
        }
        Ok(())
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
            } => {
                let key = (wave.dispatch, wave.workgroup);
                if !self.workgroups.contains_key(&key) {
                    let n = self
                        .golden
                        .launch_workgroup(wave.dispatch, wave.workgroup)
                        .map_err(|e| self.golden_error(e, *wave, Some(*pc), cycle))?;
                    self.workgroups.insert(key, n);
                }
                self.stats.waves += 1;
                self.waves.insert(
                    *wave,
                    WaveTrack {
                        shared_vgprs: (*vgprs, *shared_vgprs),
                        ..WaveTrack::default()
                    },
                );
                self.compare_launch(*wave, *pc, scalar, vgpr, *vgprs, cycle)
            }
            Event::Issue {
                wave,
                pc,
                seq,
                memory,
                part: Some(p),
            } if !p.first && memory.is_empty() => {
                // A later part of an instruction whose first part issued: the
                // golden model executed it (all lanes) then.
                let t = self.waves.entry(*wave).or_default();
                let rec = t.records.iter_mut().find(|r| r.seq == *seq);
                match rec.and_then(|r| r.passes.as_mut().map(|ps| (r.pc, ps))) {
                    Some((rpc, ps)) if rpc == *pc => {
                        ps.in_flight += 1;
                        ps.last_issued |= p.last;
                        Ok(())
                    }
                    _ => Err(mismatch(
                        format!(
                            "the cycle model issued part {} of instruction #{seq} at pc {pc:#x} without its first part in flight",
                            p.part
                        ),
                        *wave,
                        Some(*pc),
                        cycle,
                    )),
                }
            }
            Event::Issue {
                wave,
                pc,
                seq,
                memory,
                part,
            } => {
                let Some(g) = self.golden.wave(*wave) else {
                    return Err(mismatch(
                        "the cycle model issued for a wave the golden model does not have".into(),
                        *wave,
                        Some(*pc),
                        cycle,
                    ));
                };
                let (sgpr_before, scc_before) = (g.sgpr, g.scc);
                let stepped = self
                    .golden
                    .step_wave(*wave)
                    .map_err(|e| self.golden_error(e, *wave, Some(*pc), cycle))?;
                let g = self.golden.wave(*wave).expect("stepped wave exists");
                if stepped.pc != *pc || stepped.seq != *seq {
                    return Err(mismatch(
                        Report::new(*wave, Some(&stepped.inst), cycle)
                            .line(format!(
                                "control flow differs: the cycle model issued instruction #{seq} at pc {pc:#x}, the golden model's next is #{} at pc {:#x}",
                                stepped.seq, stepped.pc
                            ))
                            .text(),
                        *wave,
                        Some(*pc),
                        cycle,
                    ));
                }
                let record = Record {
                    seq: *seq,
                    pc: *pc,
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
                let t = self.waves.entry(*wave).or_default();
                t.issued += 1;
                t.records.push_back(record);
                self.touched.extend(memory.iter().map(|m| (*wave, *m, stepped.inst)));
                Ok(())
            }
            Event::Retire(r) => self.compare_retire(r, hw),
            Event::WaveEnd { wave } => {
                let golden_count = self.golden.wave_instructions(*wave).unwrap_or(0);
                let t = self.waves.get(wave).map(|t| (t.issued, t.retired)).unwrap_or((0, 0));
                let ended = self
                    .golden
                    .wave(*wave)
                    .is_some_and(|w| w.status == golden::wave::WaveStatus::Ended);
                if !ended || t.0 != golden_count || t.1 != t.0 {
                    return Err(mismatch(
                        Report::new(*wave, None, cycle)
                            .line(format!(
                                "wave end: the cycle model issued {} and retired {} instructions, the golden model executed {golden_count}{}",
                                t.0,
                                t.1,
                                if ended { "" } else { " and has not ended" }
                            ))
                            .text(),
                        *wave,
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
                            .map_err(|e| self.golden_error(e, *wave, None, cycle))?;
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
                                .map_err(|e| self.golden_error(e, *wave, None, cycle))?;
                        }
                    }
                }
                // Waves are done with; keep the map small.
                self.waves.remove(wave);
                Ok(())
            }
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
                    })
                }),
        }
    }

    fn compare_launch(
        &self,
        wave: WaveId,
        pc: u64,
        scalar: &ScalarState,
        vgpr: &[[u32; 64]; 3],
        vgprs: u16,
        cycle: u64,
    ) -> Result<(), Box<Fault>> {
        let g = self.golden.wave(wave).ok_or_else(|| {
            mismatch(
                "the golden model did not create this wave for its workgroup".into(),
                wave,
                Some(pc),
                cycle,
            )
        })?;
        let mut r = Report::new(wave, None, cycle);
        r = r.line("initial state differs:".into());
        let mut bad = false;
        if g.pc != pc {
            r = r.side("pc", format!("{pc:#x}"), format!("{:#x}", g.pc));
            bad = true;
        }
        for (code, (a, b)) in scalar.sgpr.iter().zip(&g.sgpr).enumerate() {
            if a != b {
                r = r.side(
                    &report::sgpr_name(code as u8),
                    format!("{a:#010x}"),
                    format!("{b:#010x}"),
                );
                bad = true;
            }
        }
        if scalar.scc != g.scc || scalar.mode != g.mode {
            r = r.side(
                "scc/mode",
                format!("{} {:#x}", u8::from(scalar.scc), scalar.mode),
                format!("{} {:#x}", u8::from(g.scc), g.mode),
            );
            bad = true;
        }
        if usize::from(vgprs) != g.vgpr.len() {
            r = r.side(
                "VGPRs allocated",
                vgprs.to_string(),
                g.vgpr.len().to_string(),
            );
            bad = true;
        }
        let lanes = g.target.wave_size() as usize;
        for (reg, values) in vgpr.iter().enumerate().take(g.vgpr.len().min(3)) {
            if let Some(lane) = (0..lanes).find(|&l| values[l] != g.vgpr[reg][l]) {
                r = r.side(
                    &format!("v{reg} lane {lane}"),
                    format!("{:#010x}", values[lane]),
                    format!("{:#010x}", g.vgpr[reg][lane]),
                );
                bad = true;
            }
        }
        if bad {
            return Err(mismatch(r.text(), wave, Some(pc), cycle));
        }
        Ok(())
    }

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
        let lanes = g.target.wave_size();
        let lane_mask = if lanes == 64 { u64::MAX } else { 0xffff_ffff };
        let mut rep = Report::new(wave, Some(&rec.inst), cycle);
        let mut bad = false;
        if rec.pc != r.pc {
            rep = rep.side("pc", format!("{:#x}", r.pc), format!("{:#x}", rec.pc));
            bad = true;
        }
        let expected_exec = rec.exec & r.part.map_or(u64::MAX, |p| p.lanes);
        if expected_exec & lane_mask != r.exec & lane_mask {
            rep = rep.side(
                "EXEC at issue",
                format!("{:#018x}", r.exec & lane_mask),
                format!("{:#018x}", expected_exec & lane_mask),
            );
            bad = true;
        }
        // Values that legitimately differ between the models (time, hardware ids)
        // are taken from the cycle model.
        let model_specific = matches!(
            rec.inst.opcode,
            Opcode::S_MEMTIME | Opcode::S_MEMREALTIME | Opcode::S_GETREG_B32
        );
        let mut written = [false; 128];
        for &(code, value) in &r.writes.sgpr {
            let c = usize::from(code);
            if c >= 128 || code == hw::exec::code::NULL {
                continue;
            }
            written[c] = true;
            if value != rec.sgpr_after[c] && !model_specific {
                rep = rep.side(
                    &report::sgpr_name(code),
                    format!("{value:#010x}"),
                    format!("{:#010x}", rec.sgpr_after[c]),
                );
                bad = true;
            }
        }
        for (c, (after, before)) in rec.sgpr_after.iter().zip(&rec.sgpr_before).enumerate() {
            if !written[c] && after != before {
                rep = rep.side(
                    &report::sgpr_name(c as u8),
                    "(not written)".into(),
                    format!("{after:#010x}"),
                );
                bad = true;
            }
        }
        match r.writes.scc {
            Some(scc) if scc != rec.scc_after => {
                rep = rep.side(
                    "scc",
                    u8::from(scc).to_string(),
                    u8::from(rec.scc_after).to_string(),
                );
                bad = true;
            }
            None if rec.scc_after != rec.scc_before => {
                rep = rep.side(
                    "scc",
                    "(not written)".into(),
                    u8::from(rec.scc_after).to_string(),
                );
                bad = true;
            }
            _ => {}
        }
        if let Some(mode) = r.writes.mode {
            if mode != rec.mode_after {
                rep = rep.side(
                    "mode",
                    format!("{mode:#x}"),
                    format!("{:#x}", rec.mode_after),
                );
                bad = true;
            }
        }
        let golden_vgpr = rec.passes.as_ref().map_or(&g.vgpr, |p| &p.vgpr_after);
        for w in &r.writes.vgpr {
            let reg = usize::from(w.reg);
            let Some(gv) = golden_vgpr.get(reg) else {
                rep = rep.side(
                    &format!("v{reg}"),
                    "written".into(),
                    "(beyond the allocation)".into(),
                );
                bad = true;
                continue;
            };
            let differ: Vec<usize> = (0..lanes as usize)
                .filter(|&l| w.mask >> l & 1 == 1 && w.values[l] != gv[l])
                .collect();
            if !differ.is_empty() {
                rep = rep.lanes(reg, &differ, &w.values, gv);
                bad = true;
            }
        }
        if bad {
            if shared > 0 {
                rep = rep.line(shared_region_note(vgprs, shared));
            }
            let rep = rep.dump(hw.wave_registers(wave), g);
            return Err(mismatch(rep.text(), wave, Some(r.pc), cycle));
        }
        if model_specific {
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

impl Device for LockstepGpu {
    fn isa(&self) -> Isa {
        Isa::Gfx1030
    }

    fn map(&mut self, base: u64, size: u64) -> Result<(), DeviceError> {
        self.replay.push(&self.hw, HostOp::Map { base, size });
        self.hw.map(base, size)?;
        self.golden.map(base, size)
    }

    fn unmap(&mut self, base: u64) -> Result<(), DeviceError> {
        self.replay.push(&self.hw, HostOp::Unmap { base });
        self.hw.unmap(base)?;
        self.golden.unmap(base)
    }

    fn read(&self, address: u64, out: &mut [u8]) -> Result<(), DeviceError> {
        self.hw.read(address, out)
    }

    fn write(&mut self, address: u64, data: &[u8]) -> Result<(), DeviceError> {
        let op = HostOp::Write {
            address,
            data: data.to_vec(),
        };
        self.replay.push(&self.hw, op);
        self.hw.write(address, data)?;
        self.golden.write(address, data)
    }

    fn mmio_read(&mut self, offset: u32) -> Result<u32, DeviceError> {
        self.replay.push(&self.hw, HostOp::MmioRead { offset });
        self.hw.mmio_read(offset)
    }

    fn mmio_write(&mut self, offset: u32, value: u32) -> Result<(), DeviceError> {
        // Only the clocked model's front end runs; the golden model follows events.
        self.replay
            .push(&self.hw, HostOp::MmioWrite { offset, value });
        self.hw.mmio_write(offset, value)
    }

    fn run(&mut self, until: RunUntil) -> Result<RunStatus, DeviceError> {
        self.run_with(until, |_| Ok(()))
    }

    fn now(&self) -> u64 {
        self.hw.now()
    }
}
