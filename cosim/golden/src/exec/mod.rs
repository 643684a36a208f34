//! Instruction semantics: one folder (or file) per encoding family, holding
//! all of that family's semantics, common and rare.
//!
//! | module | what |
//! |---|---|
//! | [`sop`] | scalar ALU: SOP2/SOPC/SOPK (`mod.rs`), SOP1, SOPP and hardware registers |
//! | [`smem`] | scalar memory |
//! | [`vop`] | vector ALU: the shared operand/write-back machinery (`mod.rs`, `lanes.rs`), VOP1, VOP2, VOPC, VOP3, VOP3P, and the rarely used operations (`rare.rs`) |
//! | [`ds`] | LDS (and `rare.rs`: LDS-to-LDS atomics, `addtid`, `condxchg`) |
//! | [`flat`] | FLAT, GLOBAL, SCRATCH |
//! | [`mubuf`] | MUBUF/MTBUF: raw 32-bit components (`mod.rs`), typed formats and `d16` (`buffer_format.rs`), `tfe` (`tfe.rs`) |
//! | [`vmem`] | what the vector-memory families share: address classes, atomics, data formats, the lane access loop |
//! | [`lowered`] | the second path: common instructions lowered once (when the program cache decodes them) into a plan run per wave; kept equal to the families above by `cosim/tests/golden_lowered.rs` |
//!
//! Arrows point down: a family file may use this module (the interface
//! below), its own folder's `mod.rs` and the shared folders (`vmem`, `sop`'s
//! scalar operand reader, `vop`'s lane machinery); [`lowered`] uses the
//! families, never the reverse. `tests/tests/tree/modules.rs` checks it.
//!
//! # The execution interface
//!
//! Every family file exports one entry point with the same signature:
//!
//! ```text
//! pub fn execute(ctx: &mut WaveCtx<'_>, inst: &Instruction) -> Result<Flow, Fault>
//! ```
//!
//! * `inst` is the decoded instruction (decoded once per program and cached, see
//!   [`super::program`]); its operands are in LLVM's print order and its
//!   modifiers in `inst.modifiers`.
//! * `ctx.wave` is the wave's architectural state ([`Wave`]): `sgpr[code]` for
//!   every scalar register (including VCC, M0, EXEC, TTMPs), `vgpr[n][lane]`,
//!   `scc`, `mode`, ... Read sources with [`Wave::read_scalar`],
//!   [`Wave::read_scalar64`], [`Wave::read_mask`], [`Wave::read_lanes`],
//!   [`Wave::read_lanes64`] (they handle SGPRs, inline constants in the operand's
//!   width, literals and `src_*` registers); write with [`Wave::write_scalar`],
//!   [`Wave::write_scalar64`], [`Wave::write_mask`], [`Wave::vgpr_mut`].
//! * A whole wave instruction runs at once over its 32 or 64 lanes; vector
//!   results are written only to lanes whose EXEC bit ([`Wave::exec`]) is set.
//! * `ctx.mem` is device memory; use [`WaveCtx::load`]/[`WaveCtx::store`] (and the
//!   `_u32`/`_u64` forms), which turn an unmapped access into a
//!   `MemoryViolation` fault naming the address. `ctx.lds` is the workgroup's LDS
//!   (its length is the allocation); `ctx.env` describes the dispatch (kernarg
//!   and dispatch-packet addresses, scratch layout, apertures).
//! * `ctx.pc` is the byte address of the instruction being executed; the
//!   interpreter advances the PC itself according to the returned [`Flow`] —
//!   never write `ctx.wave.pc` from a family file.
//! * Errors: return a [`Fault`] built with [`illegal`] or [`fault`]; the
//!   interpreter loop fills in the wave, PC, instruction text and step count.
//!   An instruction a family does not implement yet returns
//!   [`not_implemented`]. Never panic on instruction or memory contents.
//! * Determinism: no hash-map iteration, no host randomness or time.
//!
//! Statistics (instruction classes, active lanes) are counted by the
//! interpreter loop, not by family files.

use arch::device::{Clock, Fault, FaultKind, LdsOutOfRange};
use arch::isa::{Family, Instruction};

use super::dispatch::DispatchEnv;
use super::memory::Memory;
pub use super::wave::{fault, illegal, Wave};

pub mod ds;
pub mod flat;
pub mod lowered;
pub mod mubuf;
pub mod smem;
pub mod sop;
pub mod vmem;
pub mod vop;

/// What the interpreter does after an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Continue with the next instruction (`pc + size`).
    Next,
    /// Continue at this byte address (taken branch, `s_setpc`, ...).
    Jump(u64),
    /// Wait at the workgroup barrier, then continue with the next instruction.
    Barrier,
    /// The wave has ended (`s_endpgm`).
    End,
}

/// Everything one instruction may touch.
pub struct WaveCtx<'a> {
    /// The executing wave.
    pub wave: &'a mut Wave,
    /// Device memory.
    pub mem: &'a mut Memory,
    /// The workgroup's LDS allocation.
    pub lds: &'a mut [u8],
    /// Facts about the dispatch the wave belongs to.
    pub env: &'a DispatchEnv,
    /// Byte address of the executing instruction.
    pub pc: u64,
    /// Device step count when the instruction issued (for `s_memtime`, `s_getreg SHADER_CYCLES`).
    pub now: u64,
}

impl WaveCtx<'_> {
    /// Reads device memory, faulting on an unmapped byte.
    #[inline]
    pub fn load(&self, address: u64, out: &mut [u8]) -> Result<(), Fault> {
        self.mem.read(address, out).map_err(|a| violation(a, false))
    }

    /// Writes device memory, faulting (with no effect) on an unmapped byte.
    #[inline]
    pub fn store(&mut self, address: u64, data: &[u8]) -> Result<(), Fault> {
        self.mem
            .write(address, data)
            .map_err(|a| violation(a, true))
    }

    /// Reads a little-endian dword.
    #[inline]
    pub fn load_u32(&self, address: u64) -> Result<u32, Fault> {
        self.mem.read_u32(address).map_err(|a| violation(a, false))
    }

    /// Reads a little-endian qword.
    #[inline]
    pub fn load_u64(&self, address: u64) -> Result<u64, Fault> {
        self.mem.read_u64(address).map_err(|a| violation(a, false))
    }

    /// Writes a little-endian dword.
    #[inline]
    pub fn store_u32(&mut self, address: u64, value: u32) -> Result<(), Fault> {
        self.mem
            .write_u32(address, value)
            .map_err(|a| violation(a, true))
    }

    /// Writes a little-endian qword.
    #[inline]
    pub fn store_u64(&mut self, address: u64, value: u64) -> Result<(), Fault> {
        self.mem
            .write_u64(address, value)
            .map_err(|a| violation(a, true))
    }
}

/// A `MemoryViolation` fault at `address`.
pub fn violation(address: u64, write: bool) -> Fault {
    fault(FaultKind::MemoryViolation { address, write })
}

/// The fault for an instruction the golden model does not implement.
pub fn not_implemented(inst: &Instruction) -> Fault {
    illegal(format!("not implemented in the golden model: {inst}"))
}

/// Calls `f(lane)` for every lane of `exec`, in ascending order. A full
/// wave32 or wave64 mask (or the low 32 lanes of a wave64) runs as a counted
/// loop the compiler can unroll and vectorise; other masks walk the set bits.
/// Inlined into each caller (the memory families, the lowered forms) so the
/// lane function is inlined too.
#[inline(always)]
pub fn each(exec: u64, mut f: impl FnMut(usize)) {
    // Two call sites of `f` (not three), so that callers' lane functions,
    // marked `#[inline(always)]`, are inlined without too much code.
    if exec == u64::MAX || exec == 0xffff_ffff {
        let n = if exec == u64::MAX { 64 } else { 32 };
        for l in 0..n {
            f(l);
        }
    } else {
        let mut m = exec;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            f(l);
        }
    }
}

/// Executes one instruction of any family.
#[inline]
pub fn execute(ctx: &mut WaveCtx<'_>, inst: &Instruction) -> Result<Flow, Fault> {
    match inst.family {
        Family::Sop1 | Family::Sop2 | Family::Sopk | Family::Sopc | Family::Sopp => {
            sop::execute(ctx, inst)
        }
        Family::Smem => smem::execute(ctx, inst),
        Family::Vop1 => vop::vop1::execute(ctx, inst),
        Family::Vop2 => vop::vop2::execute(ctx, inst),
        Family::Vopc => vop::vopc::execute(ctx, inst),
        Family::Vop3 => vop::vop3::execute(ctx, inst),
        Family::Vop3p => vop::vop3p::execute(ctx, inst),
        Family::Ds => noting_lds(ctx, inst, ds::execute),
        Family::Flat | Family::Global | Family::Scratch => noting_lds(ctx, inst, flat::execute),
        Family::Mubuf | Family::Mtbuf => mubuf::execute(ctx, inst),
    }
}

/// Runs an instruction that may access LDS, then records on the wave its
/// first LDS access outside the work-group's allocation (the wave's first
/// such access is kept; the device reports the earliest after the run).
#[inline(always)]
fn noting_lds(
    ctx: &mut WaveCtx<'_>,
    inst: &Instruction,
    f: fn(&mut WaveCtx<'_>, &Instruction) -> Result<Flow, Fault>,
) -> Result<Flow, Fault> {
    let r = f(ctx, inst);
    if let Some((address, write)) = vmem::take_lds_outside() {
        note_lds_outside(ctx, inst, address, write);
    }
    r
}

#[cold]
#[inline(never)]
fn note_lds_outside(ctx: &mut WaveCtx<'_>, inst: &Instruction, address: u64, write: bool) {
    if ctx.wave.lds_out_of_range.is_none() {
        ctx.wave.lds_out_of_range = Some(Box::new(LdsOutOfRange {
            wave: ctx.wave.id,
            pc: ctx.pc,
            instruction: inst.to_string(),
            address,
            write,
            lds_bytes: ctx.lds.len() as u32,
            cycle: ctx.now,
            clock: Clock::Steps,
        }));
    }
}

/// True for families that run on the vector side (their active-lane count is
/// EXEC's population count; scalar instructions count one lane).
pub fn is_vector(family: Family) -> bool {
    !matches!(
        family,
        Family::Sop1 | Family::Sop2 | Family::Sopk | Family::Sopc | Family::Sopp | Family::Smem
    )
}
