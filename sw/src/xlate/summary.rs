//! The summary pass (seed 003 Fig. 4, step 44): ONE linear pass over the
//! preprocessed program, no CFG and no IR. It gathers:
//!
//! * register usage: the highest SGPR and VGPR the legacy code names, so the
//!   translator knows which registers are free for its own temporaries;
//! * memory operations by kind (scalar loads, LDS, vector loads and stores);
//! * block leaders (branch targets, marked by preprocessing);
//! * outstanding-memory bookkeeping for waits: gfx8 counts vector loads AND
//!   stores in `vmcnt`; gfx1030 counts loads (and returning atomics) in
//!   `vmcnt` and stores in `vscnt`. For each legacy `s_waitcnt vmcnt(N)` the
//!   pass looks at the last `N` vector memory operations issued since the most
//!   recent block leader, in static order, and records how many are loads
//!   (`L`) and stores (`S`). `vmcnt(L)` + `vscnt(S)` is then exactly as strong
//!   as the legacy wait on straight-line code and stronger when the window
//!   would reach across a leader (operations on other paths are unknown, so
//!   they are not counted, which only waits longer).

use arch::isa::{Family, Field, Instruction, Opcode};

use super::forms::temp_vgprs;
use super::preprocess::{registers, Program};
use super::tables;

/// Legacy (gfx8) `vmcnt` value meaning "do not wait" (4-bit field).
pub const GFX8_VMCNT_MAX: u8 = 15;
/// Legacy (gfx8) `lgkmcnt` value meaning "do not wait" (4-bit field).
pub const GFX8_LGKMCNT_MAX: u8 = 15;

/// The memory behaviour of one instruction, as both ISAs' counters see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemKind {
    /// Not a memory instruction.
    None,
    /// SMEM load (`lgkmcnt`).
    ScalarLoad,
    /// SMEM store or cache write-back (`lgkmcnt`).
    ScalarStore,
    /// LDS/GDS (`lgkmcnt`).
    Lds,
    /// Vector memory that returns data: loads and returning atomics
    /// (gfx8 `vmcnt`; gfx1030 `vmcnt`).
    VectorLoad,
    /// Vector memory that returns nothing: stores and non-returning atomics
    /// (gfx8 `vmcnt`; gfx1030 `vscnt`).
    VectorStore,
}

/// Classifies a legacy instruction. `arch`'s tables carry no load/store
/// attribute, so MUBUF/MTBUF direction comes from AMD's naming convention
/// (`*_store_*`, `*_atomic_*`, precomputed in [`super::tables`]); FLAT's from
/// its operand list.
pub fn mem_kind(inst: &Instruction) -> MemKind {
    let flags = tables::flags(inst.opcode);
    match inst.family {
        Family::Smem if flags & tables::SMEM_LOAD != 0 => MemKind::ScalarLoad,
        Family::Smem => MemKind::ScalarStore,
        Family::Ds => MemKind::Lds,
        Family::Flat | Family::Global | Family::Scratch => {
            let row = tables::row(inst.target.isa, inst.family, inst.opcode);
            let has_vdst = row.is_some_and(|r| r.operands.iter().any(|o| o.field == Field::Vdst));
            let returning_atomic =
                row.is_some_and(|r| usize::from(inst.operand_count) > r.operands.len());
            if has_vdst || returning_atomic {
                MemKind::VectorLoad
            } else {
                MemKind::VectorStore
            }
        }
        Family::Mubuf | Family::Mtbuf => {
            if flags & tables::ATOMIC != 0 {
                if inst.modifiers.glc {
                    MemKind::VectorLoad
                } else {
                    MemKind::VectorStore
                }
            } else if flags & tables::STORE != 0 || inst.modifiers.lds {
                MemKind::VectorStore
            } else {
                MemKind::VectorLoad
            }
        }
        _ => MemKind::None,
    }
}

/// The gfx1030 vector-memory wait one legacy `s_waitcnt` needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VmWait {
    /// Index of the `s_waitcnt` in the preprocessed program.
    pub index: u32,
    /// The legacy `vmcnt` (15 = no wait).
    pub legacy: u8,
    /// Loads within the window: the gfx1030 `vmcnt`.
    pub loads: u8,
    /// Stores within the window: the gfx1030 `vscnt`.
    pub stores: u8,
}

/// What the summary pass found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Highest SGPR index the legacy code names.
    pub max_sgpr: Option<u16>,
    /// Highest VGPR index the legacy code names.
    pub max_vgpr: Option<u16>,
    /// Vector loads and returning atomics.
    pub vector_loads: u64,
    /// Vector stores and non-returning atomics.
    pub vector_stores: u64,
    /// Scalar memory loads.
    pub scalar_loads: u64,
    /// Scalar memory stores.
    pub scalar_stores: u64,
    /// LDS/GDS operations.
    pub lds_ops: u64,
    /// Block leaders (branch targets).
    pub leaders: u64,
    /// VGPR temporaries the expansion needs (after the program's own).
    pub temp_vgprs: u16,
    /// The program writes the MODE register (`s_setreg` of `HW_REG_MODE`).
    pub writes_mode: bool,
    /// One entry per legacy `s_waitcnt`, in program order.
    pub waits: Vec<VmWait>,
    /// Instructions visited: exactly one per instruction for one pass (the
    /// linearity tests assert this).
    pub work: u64,
}

impl Summary {
    /// Any vector store anywhere: only then can a legacy wait need `vscnt`.
    pub fn has_vector_stores(&self) -> bool {
        self.vector_stores > 0
    }

    /// First VGPR no legacy instruction names.
    pub fn first_free_vgpr(&self) -> u16 {
        self.max_vgpr.map_or(0, |v| v + 1)
    }
}

/// `HW_REG_MODE`'s id in `s_setreg`'s `hwreg` field (both ISAs).
const HW_REG_MODE: u16 = 1;

/// The summary pass.
pub fn summarize(program: &Program) -> Summary {
    let mut s = Summary::default();
    // The last 16 vector memory kinds since the latest leader (true = store);
    // 16 covers gfx8's largest vmcnt (15).
    let mut ring = [false; 16];
    let mut since_leader = 0usize;
    let mut head = 0usize;
    for (i, li) in program.insts.iter().enumerate() {
        s.work += 1;
        let inst = &li.inst;
        if li.leader {
            s.leaders += 1;
            since_leader = 0;
        }
        s.temp_vgprs = s.temp_vgprs.max(temp_vgprs(inst));
        let (sg, vg) = registers(inst);
        s.max_sgpr = s.max_sgpr.max(sg);
        s.max_vgpr = s.max_vgpr.max(vg);
        match mem_kind(inst) {
            MemKind::None => {}
            MemKind::ScalarLoad => s.scalar_loads += 1,
            MemKind::ScalarStore => s.scalar_stores += 1,
            MemKind::Lds => s.lds_ops += 1,
            k @ (MemKind::VectorLoad | MemKind::VectorStore) => {
                let store = k == MemKind::VectorStore;
                if store {
                    s.vector_stores += 1;
                } else {
                    s.vector_loads += 1;
                }
                ring[head] = store;
                head = (head + 1) % ring.len();
                since_leader += 1;
            }
        }
        match inst.opcode {
            Opcode::S_WAITCNT if inst.family == Family::Sopp => {
                let legacy = (inst.modifiers.simm16 & 0xf) as u8;
                let window = usize::from(legacy).min(since_leader).min(ring.len());
                let stores = (1..=window)
                    .filter(|back| ring[(head + ring.len() - back) % ring.len()])
                    .count() as u8;
                s.waits.push(VmWait {
                    index: i as u32,
                    legacy,
                    loads: window as u8 - stores,
                    stores,
                });
            }
            Opcode::S_SETREG_B32 | Opcode::S_SETREG_IMM32_B32 => {
                s.writes_mode |= inst.modifiers.simm16 & 0x3f == HW_REG_MODE;
            }
            _ => {}
        }
    }
    s
}
