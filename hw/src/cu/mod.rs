//! One compute unit: two SIMD32s with their wave slots, VGPR files, VALUs and
//! schedulers, a scalar unit, the LDS, the vector memory unit, instruction
//! fetch and the decoded-instruction cache.
//!
//! Pipeline, evaluated back to front each cycle so that a value moves at most
//! one stage per clock (a result written back in cycle c is visible to issue
//! in cycle c — the writeback/issue bypass):
//!
//! ```text
//! 1. memory responses   fetch data → instruction buffers; load/store acks → mem ops
//! 2. LDS pipe           LDS ops whose latency elapsed complete
//! 3. writeback          ALU ops whose latency elapsed: apply Writes, retire, resolve branches;
//!                       memory ops retire in order per counter (vmcnt/vscnt/lgkmcnt)
//! 4. wave end           waves past s_endpgm with nothing outstanding leave
//! 5. issue              per SIMD one instruction from a ready wave (scheduler.rs),
//!                       executed functionally now (exec::execute), timed by its unit
//! 6. vector memory      queued cache-line requests enter the memory system
//! 7. fetch              one wave's instruction fetch enters the memory system
//! ```
//!
//! The functional effect of a memory instruction happens at issue, in
//! GPU-wide issue order; its packets then carry only its timing. Memory
//! results are not interlocked (s_waitcnt is), ALU results are (scoreboard).
//!
//! Blocks, one file each, each a `traces::signals!` register struct (traced
//! as `gpu.cuN.<name>`, docs/waveforms.md):
//!
//! ```text
//! fetch.rs      Fetch      fetch arbiter + request port          gpu.cuN.fetch
//! scheduler.rs  Sched      per-SIMD issue arbiter + issue port    gpu.cuN.schedS
//! salu.rs       Salu       scalar unit                            gpu.cuN.salu
//! simd.rs       Simd       VALU pipe                              gpu.cuN.simdS
//! vgpr.rs       VgprFile   VGPR banks (rows untraced)             gpu.cuN.simdS.vgpr
//! lds.rs        Lds        LDS banks, latency pipe, storage       gpu.cuN.lds
//! vmem.rs       Vmem       coalescer queue + memory request port  gpu.cuN.vmem
//! subvec.rs     ModeCtl    mode control unit (sub-vector looping) gpu.cuN.modectl
//! wave.rs       Wave       wave slot: pc, ibuf window, waitcnt    gpu.cuN.waveK
//!               Workgroup  workgroup slot + barrier               gpu.cuN.wgK
//! ```
//!
//! The form is the one the memory hierarchy uses (see `mem/l0.rs`): each
//! stage makes a pure decision from the registers as they are
//! ([`Sched::eval`], [`Fetch::eval`], [`simd::timing`],
//! [`lds::conflict_cycles`], [`vmem::coalesce`]) and commits it to its own
//! registers ([`Sched::issued`], [`Simd::accept`], [`Lds::accept`],
//! [`Salu::accept`], [`Vmem::sent`]) inside [`Cu::tick`], the CU's clock
//! edge; nothing changes a register outside `tick` and `launch` (the
//! dispatcher's write port). Port registers (`issue_*`, `req_*`) hold the
//! transfer of the cycle; the receiving unit starts the instruction in the
//! same cycle (issue and the first execute cycle coincide, the timing
//! docs/calibration.md is fitted to), so they record rather than delay it.

use arch::device::{Fault, WaveId};
use arch::isa::Instruction;

use crate::config::{CuConfig, SubvectorMode};
use crate::dispatch::state::{physical_rows, WorkgroupShape};
use crate::dispatch::WorkgroupInit;
use crate::event::{Event, PartPass, Retire};
use crate::exec::{ScalarState, Writes};
use crate::inject::Injection;
use crate::mem::staged::DeviceMem;
use crate::mem::{CuPorts, MemResponse, Unit};
use crate::stats::CuStats;

pub mod alloc;
pub mod config;
pub mod decode;
pub mod fetch;
mod issue;
pub mod lds;
mod retire;
pub mod salu;
pub mod scheduler;
pub mod simd;
mod skip;
pub mod slots;
pub mod subvec;
pub mod vgpr;
pub mod vmem;
pub mod wave;
mod window;

use arbitrary_int::{u6, u7};
use decode::DecodeCache;
use fetch::Fetch;
use lds::Lds;
use salu::Salu;
use scheduler::Sched;
use simd::Simd;
use slots::Slots;
use vmem::Vmem;
use wave::{Wave, Workgroup};

/// An ALU (or control) instruction between issue and writeback.
#[derive(Clone, Debug)]
struct AluOp {
    due: u64,
    slot: u16,
    widx: u16,
    pc: u64,
    seq: u64,
    exec: u64,
    inst: Instruction,
    branch: bool,
    sb_sgpr: u128,
    sb_vgpr: [u64; 4],
    special: bool,
    /// The sub-vector pass it is.
    part: Option<PartPass>,
}

/// A memory instruction between issue and completion.
#[derive(Clone, Debug)]
struct MemOpE {
    slot: u16,
    counter: u8,
    /// A second counter it also holds (FLAT: lgkmcnt, or vmcnt for LDS), `u8::MAX` if none.
    also: u8,
    remaining: u32,
    widx: u16,
    pc: u64,
    seq: u64,
    exec: u64,
    inst: Instruction,
    /// The sub-vector pass it is.
    part: Option<PartPass>,
}

/// A memory instruction executed on staged device memory this edge, with
/// what executing it again takes (`Cu::reexecute_staged`).
#[derive(Clone, Debug)]
struct StagedIssue {
    slot: u16,
    simd: u8,
    widx: u16,
    pc: u64,
    part: Option<PartPass>,
    now: u64,
    inst: Instruction,
    /// Its issue event in the CU's event buffer of the edge (lockstep).
    event: Option<usize>,
}

/// Shared inputs of one CU clock.
pub struct TickCtx<'a> {
    /// The cycle.
    pub now: u64,
    /// Device memory contents (staged when CUs run on worker threads,
    /// `crate::mem::staged`).
    pub backing: DeviceMem<'a>,
    /// This CU's ports into the memory hierarchy (its three caches).
    pub mem: &'a mut CuPorts,
    /// Lockstep events, when on.
    pub events: Option<&'a mut Vec<Event>>,
    /// A pending fault injection.
    pub inject: &'a mut Option<Injection>,
}

/// One compute unit.
#[derive(Clone, Debug)]
pub struct Cu {
    index: usize,
    cfg: CuConfig,
    /// Wave slots, SIMD-major (`simd * wave_slots + i`).
    pub waves: Slots<Wave>,
    /// Workgroup slots with their barriers.
    wgs: Slots<Workgroup>,
    /// Instruction fetch arbiter.
    fetch: Fetch,
    /// Per SIMD: scheduler / issue arbiter.
    sched: Vec<Sched>,
    /// The scalar unit.
    salu: Salu,
    /// The SIMD32s (VALU pipeline, VGPR banks).
    simd: Vec<Simd>,
    /// The LDS.
    lds: Lds,
    /// The vector memory unit.
    vmem: Vmem,
    /// The mode control unit (sub-vector looping or conventional order).
    modectl: subvec::ModeCtl,
    resident: u32,
    decode: DecodeCache,
    pool: Vec<Writes>,
    pool_free: Vec<u16>,
    alu: Vec<AluOp>,
    mem_ops: Vec<Option<MemOpE>>,
    mem_free: Vec<u32>,
    age: u64,
    resp: Vec<MemResponse>,
    seen: Vec<(u64, u16, u16)>,
    alu_done: Vec<AluOp>,
    /// The unshared view of a wave with a shared VGPR region, rebuilt for
    /// each of its instructions (`Wave::vgpr_view`).
    vgpr_stage: Vec<[u32; 32]>,
    /// Memory instructions executed on staged device memory this edge.
    staged: Vec<StagedIssue>,
    /// Counters.
    pub stats: CuStats,
    /// Bumped whenever resources are taken or freed (the dispatcher retries a
    /// CU that could not take a workgroup only after it changed).
    pub epoch: u64,
    /// Dispatch numbers of workgroups that ended this cycle.
    pub ended_wgs: Vec<u32>,
    /// A fault raised this cycle.
    pub fault: Option<Box<Fault>>,
}

impl Cu {
    /// An empty CU with index `index`.
    pub fn new(index: usize, cfg: &CuConfig) -> Cu {
        let slots = (cfg.simds * cfg.wave_slots) as usize;
        Cu {
            index,
            cfg: cfg.clone(),
            waves: Slots::new(slots),
            wgs: Slots::new(slots),
            fetch: Fetch::default(),
            sched: vec![Sched::default(); cfg.simds as usize],
            salu: Salu::default(),
            simd: (0..cfg.simds)
                .map(|_| Simd::new(cfg.vgpr_rows, 8))
                .collect(),
            lds: Lds::new(cfg.lds_bytes, cfg.lds_granule),
            vmem: Vmem::default(),
            modectl: subvec::ModeCtl::new(
                cfg.subvector_mode,
                cfg.subvector_miss_threshold,
                cfg.subvector_sample_accesses,
            ),
            resident: 0,
            decode: DecodeCache::default(),
            pool: Vec::new(),
            pool_free: Vec::new(),
            alu: Vec::new(),
            mem_ops: Vec::new(),
            mem_free: Vec::new(),
            age: 0,
            resp: Vec::new(),
            seen: Vec::new(),
            alu_done: Vec::new(),
            vgpr_stage: Vec::new(),
            staged: Vec::new(),
            stats: CuStats::default(),
            epoch: 0,
            ended_wgs: Vec::new(),
            fault: None,
        }
    }

    /// Waves resident.
    pub fn resident(&self) -> u32 {
        self.resident
    }

    /// True when nothing is resident or in flight.
    pub fn is_idle(&self) -> bool {
        self.resident == 0
            && self.alu.is_empty()
            && self.vmem.queue.is_empty()
            && self.fetch.outstanding == 0
            && self.lds.pipe.is_empty()
    }

    /// Drops decoded instructions over `[address, +len)` (host writes).
    pub fn invalidate_code(&mut self, address: u64, len: u64) {
        self.decode.invalidate(address, len);
        for w in self.waves.iter_mut() {
            w.dec = None;
        }
    }

    /// The architectural registers of resident wave `id`: its scalar state
    /// and every VGPR it may address, all 64 lanes (for lockstep register dumps).
    pub fn wave_registers(&self, id: WaveId) -> Option<(ScalarState, Vec<[u32; 64]>)> {
        let w = self.waves.iter().find(|w| w.valid && w.id == id)?;
        let file = &self.simd[usize::from(w.simd.value())].vgpr.rows;
        let mut staged = Vec::new();
        let rows = w.vgpr_view(file, &mut staged);
        let wave64 = w.env.target_wave64;
        let view = crate::exec::Vgprs { rows, wave64 };
        let vgprs = (0..view.count())
            .map(|r| std::array::from_fn(|lane| view.get(r, lane).unwrap_or(0)))
            .collect();
        Some((w.scalar.clone(), vgprs))
    }

    /// The LDS slice of the workgroup of resident wave `id`.
    pub fn workgroup_lds(&self, id: WaveId) -> Option<&[u8]> {
        let w = self.waves.iter().find(|w| w.valid && w.id == id)?;
        let g = self.wgs.get(usize::from(w.wg.value()))?;
        self.lds
            .bytes
            .get(g.lds_base as usize..(g.lds_base + g.lds_len) as usize)
    }

    /// The first LDS access outside its work-group's allocation on this CU.
    pub fn lds_out_of_range(&self) -> Option<&arch::device::LdsOutOfRange> {
        self.lds.out_of_range.as_deref()
    }

    /// The oldest running wave (for watchdog reports).
    pub fn oldest_wave(&self) -> Option<&Wave> {
        self.waves.iter().filter(|w| w.valid).min_by_key(|w| w.age)
    }

    /// True when a workgroup of `shape` fits now.
    pub fn fits(&self, shape: &WorkgroupShape) -> bool {
        let free_slots = self.cfg.simds * self.cfg.wave_slots - self.resident;
        if free_slots < shape.waves || !self.wgs.iter().any(|w| !w.valid) {
            return false;
        }
        if self.lds.alloc.capacity(shape.lds_bytes) == 0 && shape.lds_bytes > 0 {
            return false;
        }
        let rows = physical_rows(shape.vgprs, shape.shared_vgprs, shape.wave64, &self.cfg);
        let per_wave_sgpr = self.cfg.sgprs_per_wave;
        let mut cap = 0;
        for s in &self.simd {
            let waves = u32::from(s.waves.value());
            let slots = self.cfg.wave_slots - waves;
            let sg = (self.cfg.sgprs / per_wave_sgpr).saturating_sub(waves);
            cap += slots.min(s.vgpr.alloc.capacity(rows)).min(sg);
        }
        cap >= shape.waves
    }

    /// Writes a workgroup's waves into free slots (after [`Cu::fits`]).
    pub fn launch(
        &mut self,
        init: &WorkgroupInit,
        now: u64,
        latency: u32,
        events: Option<&mut Vec<Event>>,
    ) {
        let shape = init.shape;
        let rows = physical_rows(shape.vgprs, shape.shared_vgprs, shape.wave64, &self.cfg);
        let layout = vgpr::VgprLayout {
            vgprs: shape.vgprs,
            shared: shape.shared_vgprs,
            wave64: shape.wave64,
        };
        let g = self.wgs.iter().position(|w| !w.valid).unwrap_or(0);
        let lds_base = self.lds.alloc.alloc(shape.lds_bytes).unwrap_or(0);
        let lds_len = shape.lds_bytes;
        self.lds.bytes[lds_base as usize..(lds_base + lds_len) as usize].fill(0);
        let mut wg = std::mem::take(&mut self.wgs[g]);
        wg.valid = true;
        wg.dispatch = init.wave.first().map_or(0, |w| w.id.dispatch);
        wg.live = u7::new(init.waves.min(127) as u8);
        wg.arrived = u7::new(0);
        wg.waves.clear();
        wg.lds_base = lds_base;
        wg.lds_len = lds_len;
        let mut events = events;
        let svmode = subvec::wave_mode(init.subvector_hint, self.cfg.subvector_mode);
        if svmode == SubvectorMode::Auto && self.modectl.configured() != SubvectorMode::Auto {
            // The driver asked for the mode control unit on a GPU configured
            // without it: the dispatch programs it (it starts conventional).
            self.modectl = subvec::ModeCtl::new(
                SubvectorMode::Auto,
                self.cfg.subvector_miss_threshold,
                self.cfg.subvector_sample_accesses,
            );
        }
        for wi in &init.wave {
            // The SIMD with the most room takes the next wave.
            let ws = self.cfg.wave_slots;
            let simd = (0..self.simd.len())
                .filter(|&s| u32::from(self.simd[s].waves.value()) < ws)
                .max_by_key(|&s| {
                    let sd = &self.simd[s];
                    (
                        sd.vgpr
                            .alloc
                            .capacity(rows)
                            .min(ws - u32::from(sd.waves.value())),
                        std::cmp::Reverse(s),
                    )
                })
                .unwrap_or(0);
            let base = self.simd[simd].vgpr.alloc.alloc(rows).unwrap_or(0);
            let ws = self.cfg.wave_slots as usize;
            let slot = (simd * ws..(simd + 1) * ws)
                .find(|&i| !self.waves[i].valid)
                .unwrap_or(simd * ws);
            let sd = &mut self.simd[simd];
            sd.waves = u6::new((sd.waves.value() + 1).min(63));
            sd.vgpr.rows_used += rows;
            self.resident += 1;
            let vrows = u32::from(shape.vgprs) * if shape.wave64 { 2 } else { 1 };
            let slice = &mut sd.vgpr.rows[base as usize..(base + rows) as usize];
            layout.write_initial(slice, &wi.vgpr);
            self.stats.shared_vgpr_waves += u64::from(shape.shared_vgprs > 0);
            self.stats.vgpr_rows_shared +=
                u64::from(physical_rows(shape.vgprs, 0, shape.wave64, &self.cfg) - rows);
            let w = &mut self.waves[slot];
            let epoch = fetch::next_epoch(w.epoch, &w.fetch_pending);
            let fetch_pending = w.fetch_pending;
            let mut q = std::mem::take(&mut w.mem_q);
            q.iter_mut().for_each(|q| q.clear());
            *w = Wave {
                valid: true,
                id: wi.id,
                simd: wave::simd_bit(simd),
                wg: u6::new((g & 63) as u8),
                age: self.age,
                pc: wave::a48(init.pc),
                seq: 0,
                launched: now,
                scalar: wi.scalar.clone(),
                env: wi.env,
                vgpr_base: base,
                vgpr_rows: vrows,
                vgpr_alloc: rows,
                vgpr_shared: shape.shared_vgprs,
                sleep_until: now + u64::from(latency),
                ib_end: wave::a48(init.pc & !u64::from(self.cfg.fetch_bytes - 1)),
                fetch_next: wave::a48(init.pc & !u64::from(self.cfg.fetch_bytes - 1)),
                epoch,
                fetch_pending,
                mem_q: q,
                svmode: arbitrary_int::u2::new(svmode as u8),
                ..Wave::default()
            };
            self.age += 1;
            wg.waves.push(slot as u16);
            self.stats.waves += 1;
            if let Some(ev) = events.as_deref_mut() {
                ev.push(Event::WaveLaunch {
                    wave: wi.id,
                    pc: init.pc,
                    scalar: Box::new(wi.scalar.clone()),
                    vgpr: Box::new(wi.vgpr),
                    vgprs: shape.vgprs,
                    shared_vgprs: shape.shared_vgprs,
                });
            }
        }
        self.wgs[g] = wg;
        self.epoch += 1;
        self.stats.workgroups += 1;
        let rows_used: u32 = self.simd.iter().map(|s| s.vgpr.rows_used).sum();
        self.stats.peak_resident_waves = self.stats.peak_resident_waves.max(self.resident.into());
        self.stats.peak_vgpr_rows = self.stats.peak_vgpr_rows.max(rows_used.into());
    }

    fn take_writes(&mut self) -> u16 {
        match self.pool_free.pop() {
            Some(i) => i,
            None => {
                self.pool.push(Writes::default());
                (self.pool.len() - 1) as u16
            }
        }
    }

    /// One clock of the whole CU.
    pub fn tick(&mut self, cx: &mut TickCtx<'_>) {
        // Per-cycle port valid bits fall unless a stage drives them again
        // (also on the edge after which the CU is idle).
        self.fetch.req_valid = false;
        self.vmem.req_valid = false;
        self.vmem.blocked = false;
        self.lds.valid = false;
        self.salu.valid = false;
        if self.is_idle() {
            return;
        }
        self.ended_wgs.clear();
        if self.resident > 0 {
            self.stats.active_cycles += 1;
        }
        for s in &mut self.simd {
            s.advance(cx.now);
        }
        if self.modectl.configured() == SubvectorMode::Auto {
            self.modectl = self.modectl.eval(cx.mem.vector_l0_counts(self.index));
        }
        self.responses(cx);
        self.lds_stage(cx);
        self.writeback(cx);
        self.end_waves(cx);
        if self.fault.is_some() {
            return;
        }
        for simd in 0..self.cfg.simds as usize {
            self.issue(simd, cx);
            if self.fault.is_some() {
                return;
            }
        }
        self.send_vmem(cx);
        self.fetch(cx);
        self.vmem.queued = self.vmem.queue.len().min(usize::from(u16::MAX)) as u16;
        self.lds.inflight = self.lds.pipe.len().min(usize::from(u16::MAX)) as u16;
    }

    fn responses(&mut self, cx: &mut TickCtx<'_>) {
        let mut resp = std::mem::take(&mut self.resp);
        if self.fetch.outstanding > 0 {
            resp.clear();
            cx.mem.take_responses(self.index, Unit::Inst, &mut resp);
            for r in &resp {
                self.fetch.outstanding -= 1;
                self.fetch_response(r.tag);
            }
        }
        for unit in [Unit::Scalar, Unit::Vector] {
            resp.clear();
            cx.mem.take_responses(self.index, unit, &mut resp);
            self.vmem.outstanding = self.vmem.outstanding.saturating_sub(resp.len() as u32);
            for r in &resp {
                let i = r.tag as usize;
                if let Some(op) = self.mem_ops.get_mut(i).and_then(|o| o.as_mut()) {
                    op.remaining = op.remaining.saturating_sub(1);
                    let slot = op.slot;
                    if op.remaining == 0 {
                        self.retire_mem_heads(slot, cx);
                    }
                }
            }
        }
        self.resp = resp;
    }

    fn lds_stage(&mut self, cx: &mut TickCtx<'_>) {
        while let Some(&(due, op)) = self.lds.pipe.front() {
            if due > cx.now {
                break;
            }
            self.lds.pipe.pop_front();
            if let Some(o) = self.mem_ops[op as usize].as_mut() {
                o.remaining = 0;
                let slot = o.slot;
                self.retire_mem_heads(slot, cx);
            }
        }
    }

    fn end_waves(&mut self, cx: &mut TickCtx<'_>) {
        for slot in 0..self.waves.len() {
            let w = &self.waves[slot];
            if !(w.valid && w.ending && w.drained()) {
                continue;
            }
            let id = w.id;
            let simd = usize::from(w.simd.value());
            let (base, alloc) = (w.vgpr_base, w.vgpr_alloc);
            let g = usize::from(w.wg.value());
            self.waves[slot].valid = false;
            self.epoch += 1;
            let sd = &mut self.simd[simd];
            sd.vgpr.alloc.free(base, alloc);
            sd.vgpr.rows_used -= alloc;
            sd.waves = u6::new(sd.waves.value().saturating_sub(1));
            self.resident -= 1;
            if let Some(ev) = cx.events.as_deref_mut() {
                ev.push(Event::WaveEnd { wave: id });
            }
            let wg = &mut self.wgs[g];
            wg.live = u7::new(wg.live.value().saturating_sub(1));
            if wg.live.value() == 0 {
                wg.valid = false;
                let (b, l) = (wg.lds_base, wg.lds_len);
                self.lds.alloc.free(b, l);
                self.ended_wgs.push(wg.dispatch);
            } else {
                self.release_barrier(g);
            }
        }
    }

    /// Releases the barrier of workgroup `g` when every live wave arrived.
    fn release_barrier(&mut self, g: usize) {
        let wg = &mut self.wgs[g];
        if wg.arrived.value() == 0 || wg.arrived < wg.live {
            return;
        }
        wg.arrived = u7::new(0);
        for &s in &wg.waves {
            self.waves[s as usize].at_barrier = false;
        }
    }

    /// Pushes a retire event built from the held record.
    fn emit_retire(
        events: &mut Option<&mut Vec<Event>>,
        w: &Wave,
        (inst, pc, seq, exec, part): (Instruction, u64, u64, u64, Option<PartPass>),
        writes: &Writes,
        now: u64,
    ) {
        if let Some(ev) = events.as_deref_mut() {
            ev.push(Event::Retire(Box::new(Retire {
                wave: w.id,
                pc,
                seq,
                inst,
                exec,
                writes: writes.clone(),
                cycle: now,
                part,
            })));
        }
    }
}

impl Cu {
    /// Emits the CU's blocks under the current scope (the GPU adds the CU's
    /// caches to the same scope).
    pub fn probe_blocks(&self, t: &mut traces::Tracer) {
        use traces::Probe;
        t.signal("resident", 7, u64::from(self.resident));
        self.fetch.probe("fetch", t);
        self.sched.probe("sched", t);
        self.salu.probe("salu", t);
        self.simd.probe("simd", t);
        self.lds.probe("lds", t);
        self.vmem.probe("vmem", t);
        self.modectl.probe("modectl", t);
        // Unused workgroup and wave slots (most of them, most of the time) cost nothing.
        t.slots_hinted("wg", &self.wgs, self.wgs.gens(), |g| g.valid);
        t.slots_hinted("wave", &self.waves, self.waves.gens(), |w| w.valid);
    }
}

impl traces::Probe for Cu {
    fn probe(&self, name: &str, t: &mut traces::Tracer) {
        t.scope(name, |t| self.probe_blocks(t));
    }
}
