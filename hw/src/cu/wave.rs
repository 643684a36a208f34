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
}
}

/// Index of each counter's queue in [`Wave::mem_q`].
pub mod counter {
    /// vmcnt.
    pub const VM: usize = 0;
    /// vscnt.
    pub const VS: usize = 1;
    /// lgkmcnt.
    pub const LGKM: usize = 2;
}

impl Wave {
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

/// The CU's wave slots, with a change generation per slot for tracing.
///
/// Every way of getting a `&mut Wave` (indexing, [`Waves::get_mut`],
/// [`Waves::iter_mut`]) bumps the slot's generation, so a write cannot miss
/// it; reading goes through `Deref` to `[Wave]` and bumps nothing. A tracer
/// ([`traces::Tracer::slots_hinted`]) then steps over a slot whose generation
/// is the one it saw at its previous sample instead of reading and comparing
/// its registers: most live waves are not written in a given cycle.
#[derive(Clone, Debug, Default)]
pub struct Waves {
    slots: Vec<Wave>,
    /// By slot: how many times it was handed out for writing (wrapping; a
    /// tracer only compares it for equality with an earlier value).
    gens: Vec<u64>,
}

impl Waves {
    /// `n` empty slots.
    pub fn new(n: usize) -> Waves {
        Waves {
            slots: vec![Wave::default(); n],
            gens: vec![0; n],
        }
    }

    /// Each slot's change generation.
    #[inline]
    pub fn gens(&self) -> &[u64] {
        &self.gens
    }

    /// Slot `i` for writing (bumps its generation), or `None` out of range.
    #[inline]
    pub fn get_mut(&mut self, i: usize) -> Option<&mut Wave> {
        let w = self.slots.get_mut(i)?;
        if let Some(g) = self.gens.get_mut(i) {
            *g = g.wrapping_add(1);
        }
        Some(w)
    }

    /// Every slot for writing (bumps every generation).
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, Wave> {
        for g in &mut self.gens {
            *g = g.wrapping_add(1);
        }
        self.slots.iter_mut()
    }
}

impl std::ops::Deref for Waves {
    type Target = [Wave];
    #[inline]
    fn deref(&self) -> &[Wave] {
        &self.slots
    }
}

impl std::ops::Index<usize> for Waves {
    type Output = Wave;
    #[inline]
    fn index(&self, i: usize) -> &Wave {
        &self.slots[i]
    }
}

/// A row of slots for reading (there is no `IndexMut` for ranges: writes go
/// through single slots).
impl std::ops::Index<std::ops::Range<usize>> for Waves {
    type Output = [Wave];
    #[inline]
    fn index(&self, r: std::ops::Range<usize>) -> &[Wave] {
        &self.slots[r]
    }
}

impl std::ops::IndexMut<usize> for Waves {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut Wave {
        let w = &mut self.slots[i];
        // Same length as `slots`: `i` is in range here.
        if let Some(g) = self.gens.get_mut(i) {
            *g = g.wrapping_add(1);
        }
        w
    }
}
