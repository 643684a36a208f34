//! The scalar datapath: SOP1, SOP2, SOPK, SOPC, SOPP and SMEM on gfx1030
//! (wave32 and wave64), as the RDNA2 ISA guide defines them and
//! `docs/architecture.md` ("Scalar semantics choices") pins down.
//!
//! ```text
//! execute ─┬─ alu.rs      SOP2, SOPC and the SOP1 value operations
//!          ├─ exec_ops.rs SOP1 saveexec/wrexec, movrel, pc and SOPK
//!          ├─ control.rs  SOPP (branches, modes), hardware registers, subvector loops
//!          └─ smem.rs     SMEM loads (performed on device memory at issue)
//! ```
//!
//! Nothing here mutates the wave: every result goes into [`Writes`] (scalar
//! destinations as `(source code, dword)` entries, low dword first; SCC; the
//! taken-branch target; MODE/TRAPSTS/FLAT_SCRATCH). Writes to `null` are
//! dropped here, so a record names only registers that change.
//!
//! Instructions that produce an **empty record** (the compute unit's issue stage
//! acts on them, or they have no architectural effect in this model):
//! `s_nop`, `s_endpgm`, `s_endpgm_saved`, `s_endpgm_ordered_ps_done`,
//! `s_barrier`, `s_wakeup`, `s_setkill`, `s_waitcnt`, `s_waitcnt_vscnt`,
//! `s_waitcnt_vmcnt`, `s_waitcnt_expcnt`, `s_waitcnt_lgkmcnt`,
//! `s_waitcnt_depctr`, `s_wait_idle`, `s_sleep`, `s_setprio`, `s_sendmsg`,
//! `s_icache_inv`, `s_incperflevel`, `s_decperflevel`, `s_ttracedata`,
//! `s_ttracedata_imm`, `s_code_end`, `s_inst_prefetch`, `s_clause`,
//! `s_version`, `s_sethalt 0`, `s_dcache_inv`, `s_gl1_inv`, `s_atc_probe`,
//! `s_atc_probe_buffer`, and the never-taken `s_cbranch_cdbg*` (no debugger).
//!
//! Not implemented (`exec::unimplemented`): `s_rfe_b64` (no trap handlers),
//! `s_sendmsghalt` and `s_sethalt 1` (nothing would resume the wave). `s_trap`
//! is an `IllegalInstruction` fault of its own ("trap handlers are not
//! modelled").
//!
//! `s_memtime`/`s_memrealtime` write `ctx.cycle` and, like the cache
//! invalidations, leave `out.access` empty (no cache line is touched); SMEM
//! loads set `MemOp::ScalarLoad` with one `(0, address, bytes)` entry.

mod alu;
mod control;
mod exec_ops;
mod smem;

#[cfg(test)]
mod tests;

use arch::device::FaultKind;
use arch::isa::{Family, Instruction, Operand};

use super::operand;
use super::{code, ExecCtx, ScalarState, Vgprs, Writes};

/// Executes one scalar instruction (see the module documentation).
pub fn execute(
    inst: &Instruction,
    s: &ScalarState,
    v: Vgprs<'_>,
    ctx: &mut ExecCtx<'_>,
    out: &mut Writes,
) -> Result<(), FaultKind> {
    let r = Regs { inst, s, v };
    match inst.family {
        Family::Sop2 => alu::sop2(&r, out),
        Family::Sopc => alu::sopc(&r, out),
        Family::Sop1 => match alu::sop1(&r, out)? {
            true => Ok(()),
            false => exec_ops::sop1(&r, ctx, out),
        },
        Family::Sopk => exec_ops::sopk(&r, ctx, out),
        Family::Sopp => control::sopp(&r, ctx, out),
        Family::Smem => smem::execute(&r, ctx, out),
        _ => Err(super::unimplemented(inst)),
    }
}

/// The instruction and the wave's registers at issue, with operand readers.
pub(super) struct Regs<'a, 'b> {
    inst: &'a Instruction,
    s: &'a ScalarState,
    v: Vgprs<'b>,
}

impl Regs<'_, '_> {
    /// Operand `i` in print order.
    fn operand(&self, i: usize) -> Result<&Operand, FaultKind> {
        self.inst
            .operands()
            .get(i)
            .ok_or_else(|| malformed(self.inst, "an operand is missing"))
    }

    /// Operand `i` read as a scalar source (1 or 2 dwords per its type).
    fn src(&self, i: usize) -> Result<u64, FaultKind> {
        operand::scalar(self.operand(i)?, self.s, &self.v)
    }

    /// Operand `i` read as a 32-bit scalar source.
    fn src32(&self, i: usize) -> Result<u32, FaultKind> {
        self.src(i).map(|x| x as u32)
    }

    /// The SGPR source code of destination operand `i`.
    fn dst_code(&self, i: usize) -> Result<u8, FaultKind> {
        operand::sgpr_code(self.operand(i)?)
            .ok_or_else(|| malformed(self.inst, "the destination is not a scalar register"))
    }

    /// Dwords operand `i` spans on the instruction's target.
    fn dwords(&self, i: usize) -> Result<u8, FaultKind> {
        match *self.operand(i)? {
            Operand::Src { ty, .. } | Operand::Literal { ty, .. } => {
                Ok(ty.dwords(self.inst.target))
            }
            Operand::Off => Ok(0),
        }
    }

    /// Writes `value` to destination operand `i`, one or two dwords per its type.
    fn write_dst(&self, i: usize, value: u64, out: &mut Writes) -> Result<(), FaultKind> {
        let code = self.dst_code(i)?;
        if self.dwords(i)? >= 2 {
            write64(out, code, value);
        } else {
            write32(out, code, value as u32);
        }
        Ok(())
    }

    /// True for a wave64.
    fn wave64(&self) -> bool {
        self.v.wave64
    }

    /// SGPR `code` as the wave holds it at issue (`null` reads 0).
    fn sgpr(&self, code: usize) -> u32 {
        match code {
            c if c == usize::from(code::NULL) => 0,
            c => self.s.sgpr.get(c).copied().unwrap_or(0),
        }
    }
}

/// Appends a dword write of SGPR `code` (dropped for `null`).
#[inline]
fn write32(out: &mut Writes, code: u8, value: u32) {
    if code != code::NULL && code < 128 {
        out.sgpr.push((code, value));
    }
}

/// Appends a 64-bit write of the pair at `code`, low dword first.
#[inline]
fn write64(out: &mut Writes, code: u8, value: u64) {
    write32(out, code, value as u32);
    if code != code::NULL {
        write32(out, code.wrapping_add(1), (value >> 32) as u32);
    }
}

/// Writes EXEC: the low dword always, the high dword for 64-bit forms.
#[inline]
fn write_exec(out: &mut Writes, value: u64, two: bool) {
    if two {
        write64(out, code::EXEC_LO, value);
    } else {
        write32(out, code::EXEC_LO, value as u32);
    }
}

/// The fault for an instruction whose operands do not match its table row.
fn malformed(inst: &Instruction, what: &str) -> FaultKind {
    FaultKind::IllegalInstruction {
        reason: format!("`{inst}`: {what}"),
    }
}

/// A 16-bit immediate sign-extended to 32 bits.
#[inline]
fn simm16(inst: &Instruction) -> u32 {
    inst.modifiers.simm16 as i16 as i32 as u32
}
