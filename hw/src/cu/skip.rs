//! Event skipping in a compute unit (docs/cycle-model.md, "Event
//! skipping"): when every resident wave waits — on memory (`s_waitcnt`), a
//! barrier, `s_sleep`, a dependency or a busy unit — a CU's edge changes
//! nothing but its per-cycle counters: `active_cycles`, one stall cycle per
//! SIMD with waves (for the reason of its oldest stalled wave), and the
//! schedulers' stall registers. [`Cu::next_event`] says until when that
//! holds; [`Cu::skip`] applies `k` such edges at once, exactly as `k`
//! ticks would.
//!
//! `next_event` follows `Cu::tick` stage by stage, read-only: whatever a
//! stage would change, or any doubt (a wave that would decode, clear a met
//! `s_waitcnt` or step a sub-vector window), makes it answer "now", so a
//! jump is never taken over an edge that does something.

use super::decode::Control;
use super::Cu;
use crate::config::SubvectorMode;
use crate::mem::CuPorts;
use crate::mem::Unit;
use crate::stats::{Class, Stall};

/// What wave slot `slot`'s readiness check (`Cu::ready`) gives at a cycle.
enum SlotWait {
    /// Not a candidate (empty slot, or past `s_endpgm`).
    Absent,
    /// Cannot issue for this reason until at least this cycle (`u64::MAX`:
    /// until another block's event changes its registers).
    Stalled(Stall, u64),
    /// May issue, or the check would change its registers.
    Acts,
}

impl Cu {
    /// The earliest cycle at which this CU's edge may do more than count a
    /// waiting cycle, as far as its pipelines and ports tell: at or before
    /// `now` when the edge at `now` may, `u64::MAX` when only another block
    /// can wake it (`ports`: its caches, whose untaken responses the memory
    /// system reports). The waves' readiness is
    /// [`Cu::waves_next_event`]'s; the next event is the earlier of both.
    pub fn next_event(&self, now: u64, ports: &CuPorts) -> u64 {
        // Port valid bits fall at the next edge: that is a change. (A SIMD
        // that issued last edge would not be, but it most likely issues
        // again: looking further is not worth it.)
        if self.sched.iter().any(|s| s.issue_valid)
            || self.fetch.req_valid
            || self.vmem.req_valid
            || self.lds.valid
            || self.salu.valid
            || !self.ended_wgs.is_empty()
        {
            return now;
        }
        if self.is_idle() {
            return u64::MAX;
        }
        // A queued request whose port is busy waits (`blocked` stays set);
        // one whose port is free is sent.
        let blocked = match self.vmem.queue.front() {
            Some(&(unit, _)) => !ports.can_accept(self.index, unit),
            None => false,
        };
        if blocked != self.vmem.blocked || (!self.vmem.queue.is_empty() && !blocked) {
            return now;
        }
        let mut t = u64::MAX;
        t = t.min(self.alu.iter().map(|op| op.due).min().unwrap_or(u64::MAX));
        t = t.min(
            self.lds
                .pipe
                .iter()
                .map(|&(due, _)| due)
                .min()
                .unwrap_or(u64::MAX),
        );
        for s in self.simd.iter().filter(|s| s.valid) {
            t = t.min(s.busy_until).min(s.next_part_at);
        }
        if t <= now {
            return now;
        }
        if self.modectl.configured() == SubvectorMode::Auto
            && !self.modectl.settled(ports.vector_l0_counts(self.index))
        {
            return now;
        }
        if (self.waves.iter()).any(|w| w.valid && w.ending && w.drained()) {
            return now;
        }
        let depth = u64::from(self.cfg.ibuf_bytes);
        if self.resident > 0
            && ports.can_accept(self.index, Unit::Inst)
            && self.fetch.eval(&self.waves, depth).is_some()
        {
            return now;
        }
        t
    }

    /// The rest of [`Cu::next_event`] (the GPU asks every block the cheap
    /// questions first): the cycle until which no wave can issue, per
    /// SIMD, at or before `now` when one may.
    pub fn waves_next_event(&self, now: u64) -> u64 {
        let mut t = u64::MAX;
        for simd in 0..self.simd.len() {
            match self.simd_wait(simd, now) {
                Some((_, until)) => t = t.min(until),
                None => return now,
            }
        }
        t
    }

    /// Applies `cycles` waiting edges from `now` on (only when
    /// [`Cu::next_event`] is at least `now + cycles`): the counters and
    /// registers those edges would change, nothing else.
    pub fn skip(&mut self, now: u64, cycles: u64) {
        if self.is_idle() {
            return;
        }
        if self.resident > 0 {
            self.stats.active_cycles += cycles;
        }
        for simd in 0..self.simd.len() {
            if self.simd[simd].waves.value() == 0 {
                if self.sched[simd].issue_valid || self.sched[simd].ready != 0 {
                    self.sched[simd] = self.sched[simd].stalled(0, None);
                }
                continue;
            }
            let reason = self
                .simd_wait(simd, now)
                .map_or(Stall::NoReadyWave, |w| w.0);
            self.sched[simd] = self.sched[simd].stalled(0, Some(reason));
            self.stats.stalls.add_cycles(reason, cycles);
        }
        self.vmem.queued = self.vmem.queue.len().min(usize::from(u16::MAX)) as u16;
        self.lds.inflight = self.lds.pipe.len().min(usize::from(u16::MAX)) as u16;
    }

    /// SIMD `simd`'s issue slot at `now` when none of its waves can issue:
    /// the stall it counts (its oldest stalled wave's reason) and the cycle
    /// until which that holds at least; `None` when a wave may issue (or
    /// its check would change a register).
    fn simd_wait(&self, simd: usize, now: u64) -> Option<(Stall, u64)> {
        if self.simd[simd].waves.value() == 0 {
            return Some((Stall::NoReadyWave, u64::MAX));
        }
        let ws = self.cfg.wave_slots as usize;
        let mut oldest: Option<(u64, Stall)> = None;
        let mut until = u64::MAX;
        for slot in simd * ws..(simd + 1) * ws {
            match self.slot_wait(slot, now) {
                SlotWait::Absent => {}
                SlotWait::Acts => return None,
                SlotWait::Stalled(s, u) => {
                    until = until.min(u);
                    let age = self.waves[slot].age;
                    if oldest.map_or(true, |(a, _)| age < a) {
                        oldest = Some((age, s));
                    }
                }
            }
        }
        Some((oldest.map_or(Stall::NoReadyWave, |o| o.1), until))
    }

    /// `Cu::ready` of wave `slot` at `now`, read-only (same checks, same
    /// order).
    fn slot_wait(&self, slot: usize, now: u64) -> SlotWait {
        use SlotWait::{Absent, Acts, Stalled};
        let forever = u64::MAX;
        let w = &self.waves[slot];
        if !w.valid || w.ending {
            return Absent;
        }
        if w.wait_branch {
            return Stalled(Stall::Dependency, forever);
        }
        if w.at_barrier {
            return Stalled(Stall::Barrier, forever);
        }
        if now < w.sleep_until {
            return Stalled(Stall::NoReadyWave, w.sleep_until);
        }
        if w.wait.is_some() {
            // A met wait is cleared by the check: a change.
            return if w.waitcnt_met() {
                Acts
            } else {
                Stalled(Stall::Waitcnt, forever)
            };
        }
        let pc = w.pc.value();
        if pc + 4 > w.ib_end.value() {
            return Stalled(Stall::Fetch, forever);
        }
        let Some(d) = w.dec.as_ref().filter(|_| w.dec_pc == w.pc) else {
            return Acts; // it would decode now
        };
        if (w.win_open || self.wants_subvec(w)) && w.sb_special == 0 && self.parts(w) > 1 {
            return Acts; // the window step may move it
        }
        if pc + u64::from(d.inst.size) > w.ib_end.value() {
            return Stalled(Stall::Fetch, forever);
        }
        if w.sb_special > 0
            || d.sgprs & w.sb_sgpr != 0
            || (0..4).any(|i| d.vgprs[i] & w.sb_vgpr[i] != 0)
            || (d.indirect && w.alu_inflight > 0)
            || (d.control == Control::Endpgm && w.alu_inflight > 0)
        {
            return Stalled(Stall::Dependency, forever);
        }
        let stall = match d.class {
            Class::Valu => {
                let s = &self.simd[usize::from(w.simd.value())];
                s.stall(now).map(|r| (r, s.busy_until))
            }
            Class::Vmem | Class::Smem => (self.vmem.stall(self.cfg.vmem_queue_depth))
                .or_else(|| w.counter_stall(d.class))
                .map(|r| (r, forever)),
            Class::Lds => match w.counter_stall(d.class) {
                Some(r) => Some((r, forever)),
                None => (self.lds.stall(now)).map(|r| (r, self.lds.stall_ends())),
            },
            _ => None,
        };
        match stall {
            Some((r, until)) => Stalled(r, until),
            None => Acts,
        }
    }
}
