//! The sub-vector window registers of a wave at the issue stage
//! (docs/variable-wavefront.md): the pure step ([`subvec::window_step`])
//! committed to the wave's `win_open`, `part`, `parts_left`, `win_pc` and
//! `win_seq`.

use super::subvec::{self, WindowStep};
use super::Cu;
use crate::exec;

impl Cu {
    /// Parts of wave `w` on this CU's SIMDs.
    #[inline]
    pub(super) fn parts(&self, w: &super::wave::Wave) -> u8 {
        let lanes = if w.env.target_wave64 { 64 } else { 32 };
        subvec::parts(lanes, self.cfg.simd_lanes)
    }

    /// Whether wave `w` opens its next window in sub-vector order: its
    /// latched mode, or in `auto` the mode control unit's current choice.
    #[inline]
    pub(super) fn wants_subvec(&self, w: &super::wave::Wave) -> bool {
        match w.svmode.value() {
            0 => false,
            1 => true,
            _ => self.modectl.wants_subvec(),
        }
    }

    /// The sub-vector window step for wave `slot`'s decoded next
    /// instruction ([`subvec::window_step`]), committed to its window
    /// registers; true when the wave went back to the window's start.
    pub(super) fn window(&mut self, slot: usize) -> bool {
        let lanes = self.cfg.simd_lanes;
        let want = self.wants_subvec(&self.waves[slot]);
        let ibuf = u64::from(self.cfg.ibuf_bytes);
        let parts = self.parts(&self.waves[slot]);
        let w = &mut self.waves[slot];
        let Some(d) = w.dec.as_ref() else {
            return false;
        };
        let exec = exec::operand::masked(w.scalar.exec(), w.env.target_wave64);
        let active = subvec::active_parts(exec, parts, lanes);
        let end = w.pc.value() + u64::from(d.inst.size);
        let in_window = !w.win_open || end - w.win_pc.value() <= ibuf;
        let per_lane = d.per_lane;
        let mut step = subvec::window_step(
            w.win_open,
            w.parts_left.value(),
            per_lane,
            in_window,
            active,
        );
        if step == WindowStep::Close {
            w.win_open = false;
            w.part = arbitrary_int::u2::new(0);
            step = if want {
                subvec::window_step(false, 0, per_lane, true, active)
            } else {
                WindowStep::Conventional
            };
        }
        match step {
            WindowStep::Open { part, rest } => {
                w.win_open = true;
                w.part = arbitrary_int::u2::new(part & 3);
                w.parts_left = arbitrary_int::u4::new(rest & 15);
                w.win_pc = w.pc;
                w.win_seq = w.seq;
                false
            }
            WindowStep::LoopBack { part, rest } => {
                w.part = arbitrary_int::u2::new(part & 3);
                w.parts_left = arbitrary_int::u4::new(rest & 15);
                w.pc = w.win_pc;
                w.seq = w.win_seq;
                true
            }
            _ => false,
        }
    }
}
