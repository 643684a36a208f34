//! One wave slot: the wave's architectural state, its instruction buffer
//! window, waitcnt counters, scoreboard and what it is waiting for.

use arbitrary_int::{u1, u2, u4, u48, u6, u7};
use arch::device::WaveId;
use std::collections::VecDeque;

use crate::exec::{ScalarState, WaveEnv};

traces::signals! {
/// A wave slot's registers (bulk architectural state untraced).
#[derive(Clone, Debug, Default)]
pub struct Wave {
    /// The slot holds a wave.
    pub valid: bool,
    /// Its id.
    @untraced
    pub id: WaveId,
    /// SIMD it runs on.
    pub simd: u1,
    /// Workgroup slot in the CU.
    pub wg: u6,
    /// Launch order (for oldest-first).
    pub age: u64,
    /// Next instruction to issue.
    pub pc: u48,
    /// Per-wave sequence number of the next instruction.
    pub seq: u64,
    /// The cycle it launched (the per-wave watchdog counts its residency).
    @untraced
    pub launched: u64,
    /// Scalar state.
    @untraced
    pub scalar: ScalarState,
    /// Datapath facts.
    @untraced
    pub env: WaveEnv,
    /// First VGPR row of its slice in its SIMD's file.
    pub vgpr_base: u32,
    /// Rows it may address (VGPRs × 1 or 2).
    pub vgpr_rows: u32,
    /// Rows allocated (granule-rounded).
    pub vgpr_alloc: u32,
    /// Its top VGPRs shared by its parts (seed 000 §2; 0 for none): one row
    /// each instead of two (`vgpr::VgprLayout`). Untraced so that the pinned
    /// waveforms stay as they were; `vgpr_alloc` shows its effect.
    @untraced
    pub vgpr_shared: u16,
    /// Priority (`s_setprio`).
    pub prio: u2,
    /// May not issue before this cycle (`s_nop`, `s_sleep`, launch latency).
    pub sleep_until: u64,
    /// Waiting for a branch to resolve.
    pub wait_branch: bool,
    /// Parked at `s_barrier`.
    pub at_barrier: bool,
    /// Issued `s_endpgm`; ends when nothing is outstanding.
    pub ending: bool,
    /// `s_waitcnt` limits in force `(vm, vs, lgkm)`.
    @untraced
    pub wait: Option<(u8, u8, u8)>,
    /// Outstanding vector loads (and returning atomics, FLAT loads).
    pub vmcnt: u6,
    /// Outstanding vector stores (and non-returning atomics, FLAT stores).
    pub vscnt: u6,
    /// Outstanding LDS, scalar memory and FLAT instructions.
    pub lgkmcnt: u6,
    /// Memory operations in flight per counter, oldest first (slab indices).
    @untraced
    pub mem_q: [VecDeque<u32>; 3],
    /// Instruction buffer: bytes `[pc, ib_end)` are present.
    pub ib_end: u48,
    /// Next byte address to fetch.
    pub fetch_next: u48,
    /// Returned fetch chunks beyond `ib_end` (bit i = chunk i).
    pub fetch_done: u16,
    /// Fetches in flight.
    pub fetch_inflight: u8,
    /// Fetch epoch (bumped on flush, launch) to drop stale responses.
    pub epoch: u4,
    /// Fetches in flight per epoch, stale ones included: an epoch is not
    /// reused while a response tagged with it is still on its way (a tight
    /// loop flushes 16 times within one fetch latency, and a stale response
    /// taken for a current one left a chunk never filled: a hang).
    @untraced
    pub fetch_pending: [u8; 16],
    /// Scoreboard: SGPRs 0–105 with ALU writes in flight.
    @untraced
    pub sb_sgpr: u128,
    /// Scoreboard: VGPRs with ALU writes in flight.
    pub sb_vgpr: [u64; 4],
    /// ALU writes in flight to VCC, EXEC, M0, SCC, MODE and other specials.
    pub sb_special: u8,
    /// ALU instructions in flight.
    pub alu_inflight: u8,
    /// The decoded instruction at `dec_pc` (copied from the CU's cache once
    /// per instruction, so the scheduler's readiness checks cost no lookup).
    @untraced
    pub dec: Option<super::decode::Decoded>,
    /// The pc `dec` belongs to.
    pub dec_pc: u48,
    /// A sub-vector window is open (docs/variable-wavefront.md).
    pub win_open: bool,
    /// The part the window is running.
    pub part: u2,
    /// Parts the window still runs on after this one (bit per part).
    pub parts_left: u4,
    /// The window's first instruction.
    pub win_pc: u48,
    /// Its sequence number.
    pub win_seq: u64,
    /// The wave's issue order, latched at launch from its dispatch's
    /// indication or the configured default (0 conventional, 1 sub-vector,
    /// 2 the mode control unit's choice; `config::SubvectorMode`).
    pub svmode: u2,
}
}

/// Index of each counter's queue in [`Wave::mem_q`].
pub mod counter {
    /// Largest value of the vmcnt, vscnt and lgkmcnt counters (6-bit fields on gfx10).
    pub const MAX: u8 = 63;
    /// vmcnt.
    pub const VM: usize = 0;
    /// vscnt.
    pub const VS: usize = 1;
    /// lgkmcnt.
    pub const LGKM: usize = 2;
}

impl Wave {
    /// Its registers as the datapath addresses them (`exec::Vgprs` rows):
    /// its slice of `file` itself, or with a shared region the slice
    /// expanded into `staged`.
    pub fn vgpr_view<'a>(
        &self,
        file: &'a [[u32; 32]],
        staged: &'a mut Vec<[u32; 32]>,
    ) -> &'a [[u32; 32]] {
        let base = self.vgpr_base as usize;
        if self.vgpr_shared == 0 {
            return &file[base..base + self.vgpr_rows as usize];
        }
        let layout = self.vgpr_layout();
        layout.expand(&file[base..base + layout.rows() as usize], staged);
        staged
    }

    /// Where its registers sit in its slice of the VGPR file.
    #[inline]
    pub fn vgpr_layout(&self) -> super::vgpr::VgprLayout {
        let wave64 = self.env.target_wave64;
        super::vgpr::VgprLayout {
            vgprs: (self.vgpr_rows / if wave64 { 2 } else { 1 }) as u16,
            shared: self.vgpr_shared,
            wave64,
        }
    }

    /// True when its counters satisfy the `s_waitcnt` in force (or none is);
    /// the caller clears `wait` once it is met.
    #[inline]
    pub fn waitcnt_met(&self) -> bool {
        match self.wait {
            None => true,
            Some((vm, vs, lgkm)) => {
                self.vmcnt.value() <= vm && self.vscnt.value() <= vs && self.lgkmcnt.value() <= lgkm
            }
        }
    }

    /// Counts one memory instruction up (`up`) or down on counter `c`
    /// ([`counter`] index).
    #[inline]
    pub fn bump(&mut self, c: usize, up: bool) {
        match c {
            counter::VM => self.vmcnt = count(self.vmcnt, up),
            counter::VS => self.vscnt = count(self.vscnt, up),
            _ => self.lgkmcnt = count(self.lgkmcnt, up),
        }
    }

    /// Why a memory instruction of class `class` cannot issue because a
    /// counter it would count on is full, if it cannot (FLAT counts on
    /// lgkmcnt too).
    #[inline]
    pub fn counter_stall(&self, class: crate::stats::Class) -> Option<crate::stats::Stall> {
        use crate::stats::Class;
        let full = match class {
            Class::Vmem => {
                self.vmcnt.value() >= counter::MAX
                    || self.vscnt.value() >= counter::MAX
                    || self.lgkmcnt.value() >= counter::MAX
            }
            Class::Smem | Class::Lds => self.lgkmcnt.value() >= counter::MAX,
            _ => false,
        };
        full.then_some(crate::stats::Stall::Backpressure)
    }

    /// True when nothing it issued is still in flight.
    #[inline]
    pub fn drained(&self) -> bool {
        self.alu_inflight == 0 && self.mem_q.iter().all(|q| q.is_empty())
    }
}

/// Adds `d` (±1) to a 6-bit waitcnt counter, saturating at 0 and 63 (the
/// counters' width: more outstanding instructions than that are counted as 63).
#[inline]
pub fn count(c: u6, up: bool) -> u6 {
    let v = c.value();
    u6::new(if up {
        (v + 1).min(63)
    } else {
        v.saturating_sub(1)
    })
}

/// SGPR codes below this (s0–s105) have one scoreboard bit each; writes to
/// the codes above (VCC, TTMPs, M0, EXEC, …) count as "special" writes, which
/// every later instruction waits for.
pub const SCOREBOARD_SGPRS: u8 = 106;

/// The scoreboard bits an ALU instruction with writes `w` sets until its
/// writeback: `(SGPRs 0–105, VGPRs, special)`.
pub fn scoreboard(w: &crate::exec::Writes) -> (u128, [u64; 4], bool) {
    let mut sgpr = 0u128;
    let mut special = false;
    for &(code, _) in &w.sgpr {
        if code < SCOREBOARD_SGPRS {
            sgpr |= 1 << code;
        } else {
            special = true;
        }
    }
    special |=
        w.scc.is_some() || w.mode.is_some() || w.trapsts.is_some() || w.flat_scratch.is_some();
    let mut vgpr = [0u64; 4];
    for v in &w.vgpr {
        let r = usize::from(v.reg & 0xff);
        vgpr[r / 64] |= 1 << (r % 64);
    }
    (sgpr, vgpr, special)
}

/// A byte address as the 48-bit register it is held in (the device's virtual
/// addresses are 48-bit; higher bits are dropped as the hardware would).
#[inline]
pub fn a48(address: u64) -> u48 {
    u48::new(address & ((1 << 48) - 1))
}

/// The `u1` SIMD number.
#[inline]
pub fn simd_bit(simd: usize) -> u1 {
    u1::new((simd & 1) as u8)
}

traces::signals! {
/// A workgroup resident on the CU and its barrier (`gpu.cuN.wgK`).
#[derive(Clone, Debug, Default)]
pub struct Workgroup {
    /// Slot in use.
    pub valid: bool,
    /// Dispatch number.
    pub dispatch: u32,
    /// Waves not yet ended (a workgroup has at most 64 waves on a CU).
    pub live: u7,
    /// Waves parked at the barrier.
    pub arrived: u7,
    /// Wave slots of its waves.
    @untraced
    pub waves: Vec<u16>,
    /// LDS slice start (bytes).
    pub lds_base: u32,
    /// LDS slice length (bytes).
    pub lds_len: u32,
}
}
