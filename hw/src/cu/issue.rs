//! The per-SIMD scheduler and issue stage: picks one ready wave per SIMD per
//! cycle with the configured policy, executes its instruction functionally
//! (`exec::execute`, sources final thanks to the scoreboard) and hands it to
//! the unit that times it: SALU, VALU (wave64 as two half passes, an all-zero
//! EXEC half skipped, VGPR bank read conflicts), LDS (bank conflicts), scalar
//! or vector memory (coalesced line requests), or the control logic
//! (waitcnt, barrier, nop, sleep, setprio, endpgm).

use arch::device::{Clock, Fault, FaultKind, LdsOutOfRange};

use super::decode::{Control, Decoded};
use super::salu::{self, ControlEffect};
use super::scheduler::Sched;
use super::subvec;
use super::{lds, simd, vmem};
use super::{AluOp, Cu, MemOpE, StagedIssue, TickCtx};
use crate::event::{Event, PartPass};
use crate::exec::{self, ExecCtx, MemOp, Vgprs};
use crate::inject::InjectKind;
use crate::mem::backing::Backing;
use crate::mem::staged::DeviceMem;
use crate::mem::Unit;
use crate::stats::{Class, Stall};

impl Cu {
    /// Whether wave `slot` can issue now; `Ok` carries its decoded instruction.
    fn ready(&mut self, slot: usize, cx: &mut TickCtx<'_>) -> Result<(), Option<Stall>> {
        let now = cx.now;
        // Read-only until something is written: a mutable access bumps the
        // slot's change generation, which the tracer would then compare.
        let w = &self.waves[slot];
        if !w.valid || w.ending {
            return Err(None);
        }
        if w.wait_branch {
            return Err(Some(Stall::Dependency));
        }
        if w.at_barrier {
            return Err(Some(Stall::Barrier));
        }
        if now < w.sleep_until {
            return Err(Some(Stall::NoReadyWave));
        }
        if w.wait.is_some() {
            if !w.waitcnt_met() {
                return Err(Some(Stall::Waitcnt));
            }
            self.waves[slot].wait = None;
        }
        self.decode_next(slot, cx)?;
        let w = &self.waves[slot];
        // EXEC (a "special" register) must be final before a window opens
        // on it; the dependency check below stalls the wave meanwhile.
        if (w.win_open || self.wants_subvec(w))
            && w.sb_special == 0
            && self.parts(w) > 1
            && self.window(slot)
        {
            // Back to the window's first instruction for the next part.
            self.decode_next(slot, cx)?;
        }
        let w = &self.waves[slot];
        let Some(d) = w.dec.as_ref() else {
            return Err(None);
        };
        let pc = w.pc.value();
        if pc + u64::from(d.inst.size) > w.ib_end.value() {
            return Err(Some(Stall::Fetch));
        }
        if w.sb_special > 0
            || d.sgprs & w.sb_sgpr != 0
            || (0..4).any(|i| d.vgprs[i] & w.sb_vgpr[i] != 0)
            || (d.indirect && w.alu_inflight > 0)
        {
            return Err(Some(Stall::Dependency));
        }
        if d.control == Control::Endpgm && w.alu_inflight > 0 {
            return Err(Some(Stall::Dependency));
        }
        // Each block says whether it can take the instruction now.
        let stall = match d.class {
            Class::Valu => self.simd[usize::from(w.simd.value())].stall(now),
            Class::Vmem | Class::Smem => self
                .vmem
                .stall(self.cfg.vmem_queue_depth)
                .or_else(|| w.counter_stall(d.class)),
            Class::Lds => w.counter_stall(d.class).or_else(|| self.lds.stall(now)),
            _ => None,
        };
        stall.map_or(Ok(()), |s| Err(Some(s)))
    }

    /// Makes wave `slot`'s `dec` the decoded instruction at its pc (copied
    /// out of the decode cache once per instruction).
    fn decode_next(&mut self, slot: usize, cx: &mut TickCtx<'_>) -> Result<(), Option<Stall>> {
        let now = cx.now;
        let w = &self.waves[slot];
        if w.pc.value() + 4 > w.ib_end.value() {
            return Err(Some(Stall::Fetch));
        }
        let (pc, wave64) = (w.pc.value(), w.env.target_wave64);
        if w.dec_pc != w.pc || w.dec.is_none() {
            // Once per instruction: copy its decoded form out of the cache.
            let rates = (self.cfg.trans_rate as u8, self.cfg.f64_rate as u8);
            match self.decode.get(
                pc,
                wave64,
                cx.backing.contents(),
                rates,
                self.cfg.vgpr_banks,
            ) {
                Ok(d) => {
                    let d = *d;
                    let w = &mut self.waves[slot];
                    w.dec = Some(d);
                    w.dec_pc = w.pc;
                }
                Err(reason) => {
                    let kind = FaultKind::IllegalInstruction {
                        reason: reason.clone(),
                    };
                    self.fault = Some(Box::new(Fault {
                        wave: Some(w.id),
                        pc: Some(pc),
                        ..Fault::at_cycle(kind, now)
                    }));
                    return Err(None);
                }
            }
        }
        Ok(())
    }

    /// One issue slot of SIMD `simd`.
    pub(super) fn issue(&mut self, simd: usize, cx: &mut TickCtx<'_>) {
        if self.simd[simd].waves.value() == 0 {
            if self.sched[simd].issue_valid || self.sched[simd].ready != 0 {
                self.sched[simd] = self.sched[simd].stalled(0, None);
            }
            return;
        }
        let ws = self.cfg.wave_slots as usize;
        let base = simd * ws;
        // Readiness of every slot (registers of the wave slots), then the
        // arbiter's pure choice, then the commit.
        let mut ready = 0u32;
        let mut stall: Option<(u64, Stall)> = None;
        for i in 0..ws {
            let slot = base + i;
            match self.ready(slot, cx) {
                Ok(()) => ready |= 1 << i,
                Err(Some(s)) => {
                    let age = self.waves[slot].age;
                    if stall.map_or(true, |(a, _)| age < a) {
                        stall = Some((age, s));
                    }
                }
                Err(None) => {
                    if self.fault.is_some() {
                        return;
                    }
                }
            }
        }
        let waves = &self.waves[base..base + ws];
        let pick = self.sched[simd].eval(self.cfg.scheduler, ready, ws, |i| {
            (waves[i].prio.value(), waves[i].age)
        });
        match pick {
            Some(i) => {
                let slot = base + i;
                if let Some(d) = self.waves[slot].dec {
                    self.sched[simd] = {
                        let w = &self.waves[slot];
                        let mut exec = exec::operand::masked(w.scalar.exec(), w.env.target_wave64);
                        if w.win_open {
                            exec &= subvec::part_lanes(w.part.value(), self.cfg.simd_lanes);
                        }
                        let lanes = exec.count_ones();
                        Sched::issued(ready, i, d.class, w.pc.value(), lanes)
                    };
                    self.issue_one(slot, simd, d, cx);
                }
            }
            None => {
                let s = stall.map_or(Stall::NoReadyWave, |s| s.1);
                self.sched[simd] = self.sched[simd].stalled(ready, Some(s));
                self.stats.stalls.add(s);
            }
        }
    }

    /// Issues instruction `d` of wave `slot` on SIMD `simd`: the common
    /// bookkeeping, then the block that handles its class.
    fn issue_one(&mut self, slot: usize, simd: usize, d: Decoded, cx: &mut TickCtx<'_>) {
        let now = cx.now;
        let inst = d.inst;
        let lanes = self.cfg.simd_lanes;
        let parts = self.parts(&self.waves[slot]);
        let (pc, seq, exec_mask, pass) = {
            let w = &mut self.waves[slot];
            let full = exec::operand::masked(w.scalar.exec(), w.env.target_wave64);
            let pass = w.win_open.then(|| {
                let part = w.part.value();
                PartPass {
                    part,
                    lanes: subvec::part_lanes(part, lanes),
                    first: u32::from(part)
                        == subvec::active_parts(full, parts, lanes).trailing_zeros(),
                    last: w.parts_left.value() == 0,
                }
            });
            let r = (
                w.pc.value(),
                w.seq,
                pass.map_or(full, |p| full & p.lanes),
                pass,
            );
            w.pc = super::wave::a48(w.pc.value() + u64::from(inst.size));
            w.seq += 1;
            r
        };
        if let Some(p) = pass {
            self.stats.subvector_passes += 1;
            if p.first {
                self.stats.instructions.add(d.class);
                // Parts with no active lane are skipped once per instruction.
                let full = exec::operand::masked(
                    self.waves[slot].scalar.exec(),
                    self.waves[slot].env.target_wave64,
                );
                let ran = subvec::active_parts(full, parts, lanes).count_ones();
                self.stats.skipped_halves += u64::from(u32::from(parts) - ran);
            }
        } else {
            self.stats.instructions.add(d.class);
        }
        self.stats.active_lane_instructions += match d.class {
            Class::Valu | Class::Vmem | Class::Lds => u64::from(exec_mask.count_ones()),
            _ => 1,
        };
        let widx = self.take_writes();
        let op = AluOp {
            due: now + 1,
            slot: slot as u16,
            widx,
            pc,
            seq,
            exec: exec_mask,
            inst,
            branch: false,
            sb_sgpr: 0,
            sb_vgpr: [0; 4],
            special: false,
            part: pass,
        };
        if d.control != Control::None {
            self.issue_control(op, simd, d, cx);
            return;
        }
        // Only memory instructions see device memory: an ALU instruction
        // leaves nothing to commit after a staged edge (crate::parallel).
        let memory = matches!(d.class, Class::Vmem | Class::Smem | Class::Other);
        let ok = self.execute(slot, simd, widx, (pc, seq, pass, memory), &inst, cx);
        if !ok {
            return;
        }
        if self.pool[widx as usize].access.op == MemOp::None {
            self.issue_alu(op, simd, d, now);
        } else {
            self.issue_mem(op, cx);
        }
    }

    /// A control instruction: the issue stage applies its effect to the
    /// wave's registers ([`salu::control_effect`]); it retires through the
    /// writeback pipe like a SALU instruction.
    fn issue_control(&mut self, op: AluOp, simd: usize, d: Decoded, cx: &mut TickCtx<'_>) {
        let (slot, now) = (usize::from(op.slot), cx.now);
        self.salu.accept(slot, simd, op.pc, false);
        self.pool[op.widx as usize].clear();
        let w = &mut self.waves[slot];
        let g = usize::from(w.wg.value());
        match salu::control_effect(d.control, &op.inst, &w.scalar, now) {
            ControlEffect::End => w.ending = true,
            ControlEffect::Barrier => {
                w.at_barrier = true;
                let wg = &mut self.wgs[g];
                wg.arrived = salu::count7(wg.arrived);
                self.release_barrier(g);
            }
            ControlEffect::Wait(limits) => w.wait = Some(limits),
            ControlEffect::SleepUntil(t) => w.sleep_until = t,
            ControlEffect::Prio(p) => w.prio = p,
            ControlEffect::Nothing => {}
        }
        if let Some(ev) = cx.events.as_deref_mut() {
            ev.push(Event::Issue {
                wave: self.waves[slot].id,
                pc: op.pc,
                seq: op.seq,
                memory: Vec::new(),
                part: None,
            });
        }
        self.push_alu(op);
    }

    /// The functional effect of instruction `inst` of wave `slot`, now, into
    /// the write record `widx`; false (with the CU's fault set) when it faulted.
    fn execute(
        &mut self,
        slot: usize,
        simd: usize,
        widx: u16,
        (pc, seq, part, memory): (u64, u64, Option<PartPass>, bool),
        inst: &arch::isa::Instruction,
        cx: &mut TickCtx<'_>,
    ) -> bool {
        let now = cx.now;
        let id = self.waves[slot].id;
        let mut no_memory = crate::mem::backing::Backing::new();
        let device = if memory {
            cx.backing.reborrow()
        } else {
            DeviceMem::Direct(&mut no_memory)
        };
        let staged = device.is_staged();
        if let Err(kind) = self.datapath(slot, simd, widx, (pc, part, now), inst, device) {
            self.pool_free.push(widx);
            self.fault = Some(Box::new(Fault {
                wave: Some(id),
                pc: Some(pc),
                instruction: Some(inst.to_string()),
                ..Fault::at_cycle(kind, now)
            }));
            return false;
        }
        self.inject(slot, widx, cx);
        let event = cx.events.as_deref_mut().map(|ev| {
            ev.push(Event::Issue {
                wave: id,
                pc,
                seq,
                memory: self.pool[widx as usize].memory.clone(),
                part,
            });
            ev.len() - 1
        });
        if staged {
            self.staged.push(StagedIssue {
                slot: slot as u16,
                simd: simd as u8,
                widx,
                pc,
                part,
                now,
                inst: *inst,
                event,
            });
        }
        true
    }

    /// Runs instruction `inst` of wave `slot` through the datapath into the
    /// write record `widx`. A sub-vector pass executes with EXEC limited to
    /// its part (nothing in a window writes EXEC, so the full mask is put
    /// back unchanged).
    fn datapath(
        &mut self,
        slot: usize,
        simd: usize,
        widx: u16,
        (pc, part, now): (u64, Option<PartPass>, u64),
        inst: &arch::isa::Instruction,
        memory: DeviceMem<'_>,
    ) -> Result<(), FaultKind> {
        let saved_exec = part.map(|p| {
            let s = &mut self.waves[slot].scalar;
            let e = s.exec();
            let m = e & p.lanes;
            (s.sgpr[126], s.sgpr[127]) = (m as u32, (m >> 32) as u32);
            e
        });
        let w = &self.waves[slot];
        let (result, outside) = {
            let rows = w.vgpr_view(&self.simd[simd].vgpr.rows, &mut self.vgpr_stage);
            let wg = &self.wgs[usize::from(w.wg.value())];
            let lds =
                &mut self.lds.bytes[wg.lds_base as usize..(wg.lds_base + wg.lds_len) as usize];
            let mut ctx = ExecCtx {
                memory,
                lds,
                env: &w.env,
                pc,
                cycle: now,
                lds_out_of_range: None,
            };
            let wave64 = w.env.target_wave64;
            let result = exec::execute(
                inst,
                &w.scalar,
                Vgprs { rows, wave64 },
                &mut ctx,
                &mut self.pool[widx as usize],
            );
            (result, ctx.lds_out_of_range)
        };
        if let Some((address, write)) = outside {
            if self.lds.out_of_range.is_none() {
                let w = &self.waves[slot];
                self.lds.out_of_range = Some(Box::new(LdsOutOfRange {
                    wave: w.id,
                    pc,
                    instruction: inst.to_string(),
                    address,
                    write,
                    lds_bytes: w.env.lds_bytes,
                    cycle: now,
                    clock: Clock::Cycles,
                }));
            }
        }
        if let Some(e) = saved_exec {
            let s = &mut self.waves[slot].scalar;
            (s.sgpr[126], s.sgpr[127]) = (e as u32, (e >> 32) as u32);
        }
        result
    }

    /// Executes this edge's staged memory instructions again, in issue
    /// order, on the store itself: one of their reads may have missed a
    /// write made before it in the serial order (`crate::mem::staged`). The
    /// wave's registers are those of issue (issue is the CU's last stage to
    /// read them and writeback comes before it), so only the values read
    /// from memory change: the write records, and the memory of their issue
    /// events in `events` (this CU's events of the edge).
    pub fn reexecute_staged(&mut self, backing: &mut Backing, mut events: Option<&mut Vec<Event>>) {
        for s in std::mem::take(&mut self.staged) {
            let (slot, widx) = (usize::from(s.slot), s.widx);
            let done = self.datapath(
                slot,
                usize::from(s.simd),
                widx,
                (s.pc, s.part, s.now),
                &s.inst,
                DeviceMem::Direct(backing),
            );
            // The same addresses were mapped when the instruction ran first.
            debug_assert!(done.is_ok(), "a staged instruction faulted on re-execution");
            if let (Some(ev), Some(i)) = (events.as_deref_mut(), s.event) {
                if let Some(Event::Issue { memory, .. }) = ev.get_mut(i) {
                    memory.clone_from(&self.pool[widx as usize].memory);
                }
            }
        }
    }

    /// Forgets this edge's staged memory instructions (their log was
    /// committed as it was).
    pub fn clear_staged(&mut self) {
        if !self.staged.is_empty() {
            self.staged.clear();
        }
    }

    /// An ALU instruction (VALU, SALU or branch): scoreboard bits from its
    /// writes, and the due cycle its unit decides ([`simd::timing`],
    /// [`salu::due`]).
    fn issue_alu(&mut self, mut op: AluOp, simd: usize, d: Decoded, now: u64) {
        let slot = usize::from(op.slot);
        (op.sb_sgpr, op.sb_vgpr, op.special) =
            super::wave::scoreboard(&self.pool[op.widx as usize]);
        op.branch = d.branch;
        op.due = match d.class {
            Class::Valu => {
                // A sub-vector pass is one pass of its part; otherwise every
                // part with an active lane, in order.
                let (active, parts) = match op.part {
                    Some(p) => (1u8 << p.part, 1),
                    None => {
                        let parts = self.parts(&self.waves[slot]);
                        let lanes = self.cfg.simd_lanes;
                        (subvec::active_parts(op.exec, parts, lanes), parts)
                    }
                };
                let v = simd::timing(active, parts, d.rate, &d.bank_reads, self.cfg.valu_latency);
                self.stats.skipped_halves += u64::from(v.skipped);
                self.stats.vgpr_bank_conflict_cycles += u64::from(v.conflict);
                self.stats.valu_busy_cycles += u64::from(v.busy);
                let in_simd = slot - simd * self.cfg.wave_slots as usize;
                let run = match op.part {
                    Some(p) => (p.part, 0),
                    None => simd::run_parts(active, parts),
                };
                self.simd[simd].accept(now, in_simd, run, &v);
                now + u64::from(v.writeback)
            }
            _ => {
                self.salu.accept(slot, simd, op.pc, d.branch);
                salu::due(
                    now,
                    d.branch,
                    self.cfg.salu_latency,
                    self.cfg.branch_latency,
                )
            }
        };
        if d.branch {
            self.waves[slot].wait_branch = true;
        }
        self.push_alu(op);
    }

    /// A memory instruction (timing only from here on): its counters
    /// ([`vmem::counters`]), then the LDS ([`lds::conflict_cycles`]) or the
    /// coalescer ([`vmem::coalesce`]) decides how many completions it waits for.
    fn issue_mem(&mut self, op: AluOp, cx: &mut TickCtx<'_>) {
        let (now, slot, widx, inst) = (cx.now, usize::from(op.slot), op.widx, op.inst);
        let mem_op = self.pool[widx as usize].access.op;
        let (counter, also) = vmem::counters(mem_op, inst.family == arch::isa::Family::Flat);
        let index = match self.mem_free.pop() {
            Some(i) => i,
            None => {
                self.mem_ops.push(None);
                (self.mem_ops.len() - 1) as u32
            }
        };
        let lanes = &self.pool[widx as usize].access.lanes;
        let line = cx.mem.line_bytes();
        let bypass = inst.modifiers.glc || inst.modifiers.dlc || inst.modifiers.slc;
        let remaining = match mem_op {
            MemOp::Lds => {
                let cycles = lds::conflict_cycles(lanes, self.cfg.lds_banks);
                self.stats.lds_bank_conflict_cycles += u64::from(cycles - 1);
                let due = self.lds.accept(now, slot, cycles, self.cfg.lds_latency);
                self.lds.pipe.push_back((due, index));
                1
            }
            MemOp::CacheControl => 0,
            _ => {
                let (unit, access) = vmem::request_kind(mem_op);
                let mut seen = std::mem::take(&mut self.seen);
                let mut q = std::mem::take(&mut self.vmem.queue);
                let mut adder = QueueExtend { q: &mut q, unit };
                let n = vmem::coalesce(
                    lanes,
                    line,
                    access,
                    index as u16,
                    bypass,
                    &mut adder,
                    &mut seen,
                );
                self.vmem.queue = q;
                self.seen = seen;
                if unit == Unit::Scalar {
                    self.stats.smem_requests += u64::from(n);
                } else {
                    self.stats.vmem_requests += u64::from(n);
                }
                n
            }
        };
        if remaining == 0 {
            // Nothing to wait for (no active lanes): completes next cycle.
            self.lds.pipe.push_back((now + 1, index));
        }
        self.mem_ops[index as usize] = Some(MemOpE {
            slot: slot as u16,
            counter: counter as u8,
            also: also.map_or(u8::MAX, |c| c as u8),
            remaining: remaining.max(1),
            widx,
            pc: op.pc,
            seq: op.seq,
            exec: op.exec,
            inst,
            part: op.part,
        });
        let w = &mut self.waves[slot];
        w.mem_q[counter].push_back(index);
        w.bump(counter, true);
        if let Some(c) = also {
            w.bump(c, true);
        }
    }

    fn push_alu(&mut self, op: AluOp) {
        let w = &mut self.waves[op.slot as usize];
        w.sb_sgpr |= op.sb_sgpr;
        for i in 0..4 {
            w.sb_vgpr[i] |= op.sb_vgpr[i];
        }
        if op.special {
            w.sb_special += 1;
        }
        w.alu_inflight += 1;
        self.alu.push(op);
    }

    /// Applies a pending test injection to the record just produced by wave `slot`.
    fn inject(&mut self, slot: usize, widx: u16, cx: &mut TickCtx<'_>) {
        let Some(inj) = *cx.inject else { return };
        let w = &self.waves[slot];
        if inj.wave != w.id {
            return;
        }
        let writes = &mut self.pool[widx as usize];
        let fired = match inj.kind {
            InjectKind::ValuLane { lane, bit } => {
                match writes
                    .vgpr
                    .iter_mut()
                    .find(|v| v.mask >> (lane & 63) & 1 != 0)
                {
                    Some(v) => {
                        v.values[usize::from(lane & 63)] ^= 1 << (bit & 31);
                        true
                    }
                    None => false,
                }
            }
            InjectKind::ExecBit { bit } => {
                let code = if bit >= 32 { 127 } else { 126 };
                match writes.sgpr.iter_mut().find(|s| s.0 == code) {
                    Some(s) => {
                        s.1 ^= 1 << (bit & 31);
                        true
                    }
                    None => false,
                }
            }
            InjectKind::Scc => match writes.scc.as_mut() {
                Some(s) => {
                    *s = !*s;
                    true
                }
                None => false,
            },
            InjectKind::StoreByte { mask } => match writes.memory.first_mut() {
                Some(m) if m.len > 0 => {
                    m.data[0] ^= mask;
                    match m.space {
                        exec::MemSpace::Global => {
                            let _ = cx.backing.write(m.address, &m.data[..1]);
                        }
                        exec::MemSpace::Lds => {
                            let wg = &self.wgs[usize::from(w.wg.value())];
                            let a = wg.lds_base as u64 + m.address;
                            if let Some(b) = self.lds.bytes.get_mut(a as usize) {
                                *b = m.data[0];
                            }
                        }
                    }
                    true
                }
                _ => false,
            },
        };
        if fired {
            *cx.inject = None;
        }
    }
}

/// Adapts the vector memory queue to `Extend<MemRequest>`.
struct QueueExtend<'a> {
    q: &'a mut std::collections::VecDeque<(Unit, crate::mem::MemRequest)>,
    unit: Unit,
}

impl Extend<crate::mem::MemRequest> for QueueExtend<'_> {
    fn extend<T: IntoIterator<Item = crate::mem::MemRequest>>(&mut self, iter: T) {
        for r in iter {
            self.q.push_back((self.unit, r));
        }
    }
}
