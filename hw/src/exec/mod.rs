//! The functional datapath of the clocked GPU: what one gfx1030 wave
//! instruction computes, written independently of the golden model (sharing
//! ALU code with it would hide exactly the bugs lockstep exists to catch).
//!
//! The pipeline calls [`execute`] once per instruction when it issues, with the
//! wave's registers as they are at issue (the scoreboard guarantees every source
//! is final). The result is a [`Writes`] record that the pipeline holds until
//! the instruction's writeback cycle, when it is applied to the register files
//! and becomes the instruction's retire event. Memory instructions perform
//! their access on device memory and LDS at issue (in GPU-wide issue order) and
//! describe it in [`MemAccess`], from which the timing model builds its
//! requests; see `docs/cycle-model.md` for why.
//!
//! ```text
//! execute ─┬─ scalar/   SOP1 SOP2 SOPK SOPC SOPP(branches) SMEM
//!          ├─ valu/     VOP1 VOP2 VOPC VOP3 VOP3P, SDWA, DPP (integer and lane ops;
//!          │            floating point through fp/)
//!          ├─ fp/       bit-level IEEE-754 f16/f32/f64 arithmetic, compare, convert,
//!          │            transcendental approximations
//!          └─ vmem/     GLOBAL FLAT SCRATCH MUBUF MTBUF DS: addresses, data, atomics
//! ```

use arch::device::FaultKind;
use arch::isa::{Family, Instruction, Target};

use crate::mem::backing::Backing;
use crate::mem::staged::DeviceMem;

pub mod fp;
pub mod operand;
pub mod scalar;
pub mod valu;
pub mod vmem;

/// Lanes in the widest wave.
pub const MAX_LANES: usize = 64;

/// Source codes of the special scalar registers (gfx1030).
pub mod code {
    /// `vcc_lo` (`vcc_hi` is 107).
    pub const VCC_LO: u8 = 106;
    /// `m0`.
    pub const M0: u8 = 124;
    /// `null` (reads 0, writes are dropped).
    pub const NULL: u8 = 125;
    /// `exec_lo` (`exec_hi` is 127).
    pub const EXEC_LO: u8 = 126;
}

/// A wave's scalar architectural state as the datapath reads it at issue.
#[derive(Clone, Debug)]
pub struct ScalarState {
    /// Scalar registers by source code 0–127: `s0`–`s105`, `vcc` (106–107),
    /// trap temporaries (108–123), `m0` (124), `null` (125), `exec` (126–127).
    pub sgpr: [u32; 128],
    /// Scalar condition code.
    pub scc: bool,
    /// The MODE hardware register (round and denormal modes, IEEE, DX10 clamp).
    pub mode: u32,
    /// The TRAPSTS hardware register.
    pub trapsts: u32,
    /// FLAT_SCRATCH (a hardware register on gfx1030, written with `s_setreg`).
    pub flat_scratch: u64,
}

impl ScalarState {
    /// All zero.
    pub fn new() -> ScalarState {
        ScalarState {
            sgpr: [0; 128],
            scc: false,
            mode: 0,
            trapsts: 0,
            flat_scratch: 0,
        }
    }

    /// EXEC as a 64-bit mask (the high half is zero-extended in wave32 use).
    #[inline]
    pub fn exec(&self) -> u64 {
        u64::from(self.sgpr[126]) | u64::from(self.sgpr[127]) << 32
    }

    /// VCC as a 64-bit mask.
    #[inline]
    pub fn vcc(&self) -> u64 {
        u64::from(self.sgpr[106]) | u64::from(self.sgpr[107]) << 32
    }
}

impl Default for ScalarState {
    fn default() -> Self {
        ScalarState::new()
    }
}

/// Read access to one wave's slice of a SIMD's VGPR file. The file is rows of
/// 32 lanes (the SIMD's width); register `r` of a wave64 occupies rows `2r`
/// (lanes 0–31) and `2r + 1` (lanes 32–63) of the slice, of a wave32 row `r`.
#[derive(Clone, Copy, Debug)]
pub struct Vgprs<'a> {
    /// The wave's rows.
    pub rows: &'a [[u32; 32]],
    /// True for a wave64.
    pub wave64: bool,
}

impl Vgprs<'_> {
    /// Registers allocated to the wave.
    #[inline]
    pub fn count(&self) -> usize {
        if self.wave64 {
            self.rows.len() / 2
        } else {
            self.rows.len()
        }
    }

    /// Lane `lane` of register `reg`, or `None` past the allocation.
    #[inline]
    pub fn get(&self, reg: usize, lane: usize) -> Option<u32> {
        let row = if self.wave64 {
            2 * reg + (lane >> 5)
        } else {
            reg
        };
        self.rows.get(row).map(|r| r[lane & 31])
    }
}

/// One VGPR written by an instruction: the lanes in `mask` take `values`.
#[derive(Clone, Debug)]
pub struct VgprWrite {
    /// Register number (0–255).
    pub reg: u16,
    /// Lanes written.
    pub mask: u64,
    /// New values (only lanes in `mask` are meaningful).
    pub values: [u32; MAX_LANES],
}

impl Default for VgprWrite {
    fn default() -> Self {
        VgprWrite {
            reg: 0,
            mask: 0,
            values: [0; MAX_LANES],
        }
    }
}

/// Bytes written to device memory (or LDS) by one lane of one instruction,
/// recorded for the retire event.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemWrite {
    /// Byte address (device address, or LDS byte offset for [`MemSpace::Lds`]).
    pub address: u64,
    /// Number of valid bytes in `data` (1–16).
    pub len: u8,
    /// The bytes.
    pub data: [u8; 16],
    /// Which memory.
    pub space: MemSpace,
}

/// Which memory an access touches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MemSpace {
    /// Device memory through the vector or scalar caches.
    #[default]
    Global,
    /// The workgroup's LDS.
    Lds,
}

/// The class of a memory instruction, which decides its waitcnt counter and
/// the unit that times it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MemOp {
    /// Not a memory instruction.
    #[default]
    None,
    /// Scalar memory load (`lgkmcnt`).
    ScalarLoad,
    /// Vector memory load, or atomic returning its pre-op value (`vmcnt`).
    VectorLoad,
    /// Vector memory store, or atomic without return (`vscnt`).
    VectorStore,
    /// Vector atomic performed at L2 (`vmcnt` when it returns, else `vscnt`).
    VectorAtomic {
        /// True when the pre-op value is returned to VGPRs.
        returns: bool,
    },
    /// LDS access (`lgkmcnt`).
    Lds,
    /// Cache invalidate / write-back (`buffer_gl0_inv`, `buffer_gl1_inv`).
    CacheControl,
}

/// What a memory instruction touched, for the timing model: the per-lane byte
/// addresses the coalescer turns into cache-line requests (or the LDS banks).
#[derive(Clone, Debug, Default)]
pub struct MemAccess {
    /// The instruction's memory class.
    pub op: MemOp,
    /// `(lane, byte address, bytes)` of every access, in lane order (DS
    /// two-address forms give two entries per lane; a scalar load gives one
    /// entry with lane 0).
    pub lanes: Vec<(u8, u64, u8)>,
}

/// Everything one instruction changes, applied at its writeback cycle and
/// reported as its retire event.
#[derive(Clone, Debug, Default)]
pub struct Writes {
    /// Scalar registers written, by source code, in order.
    pub sgpr: Vec<(u8, u32)>,
    /// SCC, if written.
    pub scc: Option<bool>,
    /// VGPRs written.
    pub vgpr: Vec<VgprWrite>,
    /// MODE, if written (`s_setreg`, `s_round_mode`, `s_denorm_mode`).
    pub mode: Option<u32>,
    /// TRAPSTS, if written.
    pub trapsts: Option<u32>,
    /// FLAT_SCRATCH, if written.
    pub flat_scratch: Option<u64>,
    /// Memory written (device memory and LDS), for the retire event.
    pub memory: Vec<MemWrite>,
    /// Where the wave continues: `Some(target)` for a taken branch or jump.
    pub branch: Option<u64>,
    /// The memory access, for timing.
    pub access: MemAccess,
}

impl Writes {
    /// Empties the record, keeping its allocations (one per wave slot, reused).
    pub fn clear(&mut self) {
        self.sgpr.clear();
        self.scc = None;
        self.vgpr.clear();
        self.mode = None;
        self.trapsts = None;
        self.flat_scratch = None;
        self.memory.clear();
        self.branch = None;
        self.access.op = MemOp::None;
        self.access.lanes.clear();
    }
}

/// Per-wave facts the datapath needs besides registers (set by the dispatcher).
#[derive(Clone, Copy, Debug, Default)]
pub struct WaveEnv {
    /// Lanes per wave and ISA.
    pub target_wave64: bool,
    /// Device address of the wave's private (scratch) slice; private byte `o`
    /// of lane `l` is at `scratch_slice + (o / 4) * 4 * L + 4 * l + o % 4`.
    pub scratch_slice: u64,
    /// Bytes of private memory per work-item.
    pub scratch_per_item: u32,
    /// Bytes of LDS the workgroup owns.
    pub lds_bytes: u32,
    /// The wave's index in its workgroup (what `s_getreg HW_REG_HW_ID` reads).
    pub wave_in_group: u32,
}

impl WaveEnv {
    /// The wave's target.
    pub fn target(&self) -> Target {
        if self.target_wave64 {
            Target::GFX1030_W64
        } else {
            Target::GFX1030_W32
        }
    }
}

/// What [`execute`] may touch besides the wave's registers.
pub struct ExecCtx<'a> {
    /// Device memory (the backing store behind the caches, or its staged
    /// view on worker threads).
    pub memory: DeviceMem<'a>,
    /// The workgroup's LDS.
    pub lds: &'a mut [u8],
    /// Per-wave facts.
    pub env: &'a WaveEnv,
    /// Byte address of the instruction.
    pub pc: u64,
    /// The current cycle (for `s_memtime`, `s_getreg SHADER_CYCLES`).
    pub cycle: u64,
    /// Out: the first LDS byte outside the work-group's allocation the
    /// instruction accessed, and whether it was a write (the access itself
    /// reads 0 or is dropped, as RDNA's LDS clamp does).
    pub lds_out_of_range: Option<(u64, bool)>,
}

impl ExecCtx<'_> {
    /// Notes an LDS access at byte `address`, outside the allocation (the
    /// instruction's first is kept).
    #[cold]
    pub fn note_lds_outside(&mut self, address: u64, write: bool) {
        if self.lds_out_of_range.is_none() {
            self.lds_out_of_range = Some((address, write));
        }
    }
}

/// Executes `inst` for a wave whose state at issue is `s` and `v`, filling
/// `out` (cleared first). A fault leaves `out` unspecified.
///
/// Instructions that only control the pipeline (`s_waitcnt*`, `s_barrier`,
/// `s_endpgm`, `s_nop`, `s_sleep`, `s_setprio`, `s_clause`, ...) produce an
/// empty record here; the compute unit's issue stage acts on them.
pub fn execute(
    inst: &Instruction,
    s: &ScalarState,
    v: Vgprs<'_>,
    ctx: &mut ExecCtx<'_>,
    out: &mut Writes,
) -> Result<(), FaultKind> {
    out.clear();
    match inst.family {
        Family::Sop1 | Family::Sop2 | Family::Sopk | Family::Sopc | Family::Sopp | Family::Smem => {
            scalar::execute(inst, s, v, ctx, out)
        }
        Family::Vop1 | Family::Vop2 | Family::Vopc | Family::Vop3 | Family::Vop3p => {
            valu::execute(inst, s, v, ctx, out)
        }
        Family::Ds
        | Family::Flat
        | Family::Global
        | Family::Scratch
        | Family::Mubuf
        | Family::Mtbuf => vmem::execute(inst, s, v, ctx, out),
    }
}

/// Executes one register-only instruction on its own: a wave of `v`'s size,
/// an empty device memory and no LDS. For datapath tests and per-instruction
/// differentials against the golden model (a memory access faults as unmapped).
pub fn execute_isolated(
    inst: &Instruction,
    s: &ScalarState,
    v: Vgprs<'_>,
) -> Result<Writes, FaultKind> {
    let mut memory = Backing::new();
    let env = WaveEnv {
        target_wave64: v.wave64,
        ..WaveEnv::default()
    };
    let mut ctx = ExecCtx {
        memory: DeviceMem::Direct(&mut memory),
        lds: &mut [],
        env: &env,
        pc: 0,
        cycle: 0,
        lds_out_of_range: None,
    };
    let mut out = Writes::default();
    execute(inst, s, v, &mut ctx, &mut out)?;
    Ok(out)
}

/// The fault for an instruction the cycle model does not implement.
pub fn unimplemented(inst: &Instruction) -> FaultKind {
    FaultKind::IllegalInstruction {
        reason: format!("`{inst}` is not implemented in the cycle model"),
    }
}
