//! Writeback and retirement: an instruction's held `Writes` record is applied
//! to the wave's registers (SGPRs by code — VCC and EXEC are codes 106/107 and
//! 126/127 —, SCC, MODE, TRAPSTS, FLAT_SCRATCH, VGPR rows) when its latency
//! has elapsed (ALU) or all its memory responses returned (memory, in order
//! per waitcnt counter), and reported as a `Retire` event.

use super::{AluOp, Cu, TickCtx};
use crate::cu::wave::Wave;
use crate::exec::Writes;

/// Applies `w`'s register effects to wave `wave` and its VGPR rows.
fn apply(writes: &Writes, wave: &mut Wave, file: &mut [[u32; 32]]) {
    for &(code, v) in &writes.sgpr {
        if let Some(r) = wave.scalar.sgpr.get_mut(usize::from(code)) {
            *r = v;
        }
    }
    if let Some(scc) = writes.scc {
        wave.scalar.scc = scc;
    }
    if let Some(m) = writes.mode {
        wave.scalar.mode = m;
    }
    if let Some(t) = writes.trapsts {
        wave.scalar.trapsts = t;
    }
    if let Some(f) = writes.flat_scratch {
        wave.scalar.flat_scratch = f;
    }
    let base = wave.vgpr_base as usize;
    let wave64 = wave.env.target_wave64;
    let layout = wave.vgpr_layout();
    for v in &writes.vgpr {
        let reg = usize::from(v.reg);
        if reg >= usize::from(layout.vgprs) {
            continue;
        }
        let halves: &[(usize, usize)] = if wave64 {
            &[(0, 0), (1, 32)]
        } else {
            &[(0, 0)]
        };
        // A shared register's halves are one row: the high half, written
        // second, replaces the low half's values (seed 000 §2).
        for &(h, lane0) in halves {
            let row = base + layout.row(reg, h);
            let Some(r) = file.get_mut(row) else { continue };
            let mask = (v.mask >> lane0) as u32;
            if mask == u32::MAX {
                r.copy_from_slice(&v.values[lane0..lane0 + 32]);
            } else {
                for (l, x) in r.iter_mut().enumerate() {
                    if mask >> l & 1 != 0 {
                        *x = v.values[lane0 + l];
                    }
                }
            }
        }
    }
}

impl Cu {
    pub(super) fn writeback(&mut self, cx: &mut TickCtx<'_>) {
        if self.alu.is_empty() {
            return;
        }
        let now = cx.now;
        let mut done = std::mem::take(&mut self.alu_done);
        done.clear();
        self.alu.retain(|op| {
            if op.due <= now {
                done.push(op.clone());
                false
            } else {
                true
            }
        });
        done.sort_by_key(|op| op.due);
        for op in done.drain(..) {
            self.retire_alu(op, cx);
        }
        self.alu_done = done;
    }

    fn retire_alu(&mut self, op: AluOp, cx: &mut TickCtx<'_>) {
        let slot = op.slot as usize;
        let w = &mut self.waves[slot];
        let writes = &self.pool[op.widx as usize];
        apply(
            writes,
            w,
            &mut self.simd[usize::from(w.simd.value())].vgpr.rows,
        );
        w.sb_sgpr &= !op.sb_sgpr;
        for i in 0..4 {
            w.sb_vgpr[i] &= !op.sb_vgpr[i];
        }
        if op.special {
            w.sb_special -= 1;
        }
        w.alu_inflight -= 1;
        Cu::emit_retire(
            &mut cx.events,
            w,
            (op.inst, op.pc, op.seq, op.exec, op.part),
            writes,
            cx.now,
        );
        let target = writes.branch;
        if op.branch {
            w.wait_branch = false;
        }
        if let Some(t) = target {
            self.flush(slot, t);
        }
        self.pool_free.push(op.widx);
    }

    /// Retires the completed memory instructions at the head of each of wave
    /// `slot`'s counter queues.
    pub(super) fn retire_mem_heads(&mut self, slot: u16, cx: &mut TickCtx<'_>) {
        let slot = slot as usize;
        for q in 0..3 {
            while let Some(&i) = self.waves[slot].mem_q[q].front() {
                let done = self.mem_ops[i as usize]
                    .as_ref()
                    .map_or(true, |o| o.remaining == 0);
                if !done {
                    break;
                }
                self.waves[slot].mem_q[q].pop_front();
                let Some(op) = self.mem_ops[i as usize].take() else {
                    continue;
                };
                self.mem_free.push(i);
                let w = &mut self.waves[slot];
                let writes = &self.pool[op.widx as usize];
                apply(
                    writes,
                    w,
                    &mut self.simd[usize::from(w.simd.value())].vgpr.rows,
                );
                w.bump(usize::from(op.counter), false);
                if op.also != u8::MAX {
                    w.bump(usize::from(op.also), false);
                }
                Cu::emit_retire(
                    &mut cx.events,
                    w,
                    (op.inst, op.pc, op.seq, op.exec, op.part),
                    writes,
                    cx.now,
                );
                self.pool_free.push(op.widx);
            }
        }
    }

    pub(super) fn send_vmem(&mut self, cx: &mut TickCtx<'_>) {
        for _ in 0..self.cfg.vmem_requests_per_cycle {
            let Some(&(unit, req)) = self.vmem.queue.front() else {
                return;
            };
            if !cx.mem.can_accept(self.index, unit) {
                self.vmem.blocked = true;
                return;
            }
            self.vmem.queue.pop_front();
            self.vmem.sent(unit, &req);
            cx.mem.request(self.index, unit, req);
        }
    }
}
