//! SOP1 operations on EXEC, the program counter and relative SGPR indices, and
//! the SOPK family.
//!
//! The `_b32` saveexec forms (wave32) read and write `exec_lo` only; the `_b64`
//! forms the whole pair. SCC is whether the new EXEC is non-zero.

use arch::device::FaultKind;
use arch::isa::Opcode;

use super::control::{getreg, setreg, subvector_loop};
use super::{code, malformed, simm16, write32, write64, write_exec, Regs, Writes};
use crate::exec::{unimplemented, ExecCtx};

/// How a saveexec-family instruction combines S0 with EXEC, and what it stores
/// in the destination.
#[derive(Clone, Copy)]
enum ExecOp {
    /// `D = old EXEC; EXEC = f(S0, EXEC)`.
    Save(fn(u64, u64) -> u64),
    /// `EXEC = f(S0, EXEC); D = new EXEC`.
    Write(fn(u64, u64) -> u64),
}

fn exec_op(op: Opcode) -> Option<(ExecOp, bool)> {
    use ExecOp::{Save, Write};
    use Opcode::*;
    Some(match op {
        S_AND_SAVEEXEC_B64 => (Save(|s, e| s & e), true),
        S_OR_SAVEEXEC_B64 => (Save(|s, e| s | e), true),
        S_XOR_SAVEEXEC_B64 => (Save(|s, e| s ^ e), true),
        S_ANDN2_SAVEEXEC_B64 => (Save(|s, e| s & !e), true),
        S_ORN2_SAVEEXEC_B64 => (Save(|s, e| s | !e), true),
        S_NAND_SAVEEXEC_B64 => (Save(|s, e| !(s & e)), true),
        S_NOR_SAVEEXEC_B64 => (Save(|s, e| !(s | e)), true),
        S_XNOR_SAVEEXEC_B64 => (Save(|s, e| !(s ^ e)), true),
        S_ANDN1_SAVEEXEC_B64 => (Save(|s, e| !s & e), true),
        S_ORN1_SAVEEXEC_B64 => (Save(|s, e| !s | e), true),
        S_ANDN1_WREXEC_B64 => (Write(|s, e| !s & e), true),
        S_ANDN2_WREXEC_B64 => (Write(|s, e| s & !e), true),
        S_AND_SAVEEXEC_B32 => (Save(|s, e| s & e), false),
        S_OR_SAVEEXEC_B32 => (Save(|s, e| s | e), false),
        S_XOR_SAVEEXEC_B32 => (Save(|s, e| s ^ e), false),
        S_ANDN2_SAVEEXEC_B32 => (Save(|s, e| s & !e), false),
        S_ORN2_SAVEEXEC_B32 => (Save(|s, e| s | !e), false),
        S_NAND_SAVEEXEC_B32 => (Save(|s, e| !(s & e)), false),
        S_NOR_SAVEEXEC_B32 => (Save(|s, e| !(s | e)), false),
        S_XNOR_SAVEEXEC_B32 => (Save(|s, e| !(s ^ e)), false),
        S_ANDN1_SAVEEXEC_B32 => (Save(|s, e| !s & e), false),
        S_ORN1_SAVEEXEC_B32 => (Save(|s, e| !s | e), false),
        S_ANDN1_WREXEC_B32 => (Write(|s, e| !s & e), false),
        S_ANDN2_WREXEC_B32 => (Write(|s, e| s & !e), false),
        _ => return None,
    })
}

/// The SOP1 instructions [`super::alu::sop1`] does not own.
pub(super) fn sop1(
    r: &Regs<'_, '_>,
    ctx: &mut ExecCtx<'_>,
    out: &mut Writes,
) -> Result<(), FaultKind> {
    use Opcode::*;
    if let Some((op, two)) = exec_op(r.inst.opcode) {
        let width = if two { u64::MAX } else { u64::from(u32::MAX) };
        let exec = r.s.exec() & width;
        let src = r.src(1)? & width;
        let d = r.dst_code(0)?;
        let (saved, new) = match op {
            ExecOp::Save(f) => (exec, f(src, exec) & width),
            ExecOp::Write(f) => {
                let new = f(src, exec) & width;
                (new, new)
            }
        };
        // The destination first, EXEC last (the ISA's order: with EXEC as
        // the destination, the new EXEC stays). A destination EXEC write
        // would be overwritten at once, so it is not recorded: the retire
        // record holds one value per register.
        if d != code::EXEC_LO {
            if two {
                write64(out, d, saved);
            } else {
                write32(out, d, saved as u32);
            }
        }
        write_exec(out, new, two);
        out.scc = Some(new != 0);
        return Ok(());
    }
    let next = ctx.pc.wrapping_add(u64::from(r.inst.size));
    match r.inst.opcode {
        S_GETPC_B64 => r.write_dst(0, next, out),
        S_SETPC_B64 => {
            out.branch = Some(r.src(0)?);
            Ok(())
        }
        S_SWAPPC_B64 => {
            let target = r.src(1)?;
            r.write_dst(0, next, out)?;
            out.branch = Some(target);
            Ok(())
        }
        S_MOVRELS_B32 | S_MOVRELS_B64 => {
            let two = r.inst.opcode == S_MOVRELS_B64;
            let from = relative(r, 1, r.sgpr(usize::from(code::M0)), two)?;
            let lo = r.sgpr(from);
            let hi = if two { r.sgpr(from + 1) } else { 0 };
            r.write_dst(0, u64::from(lo) | u64::from(hi) << 32, out)
        }
        S_MOVRELD_B32 | S_MOVRELD_B64 => {
            let two = r.inst.opcode == S_MOVRELD_B64;
            let to = relative(r, 0, r.sgpr(usize::from(code::M0)), two)?;
            let value = r.src(1)?;
            // `relative` keeps `to` below 128.
            if two {
                write64(out, to as u8, value);
            } else {
                write32(out, to as u8, value as u32);
            }
            Ok(())
        }
        S_MOVRELSD_2_B32 => {
            let m0 = r.sgpr(usize::from(code::M0));
            let from = relative(r, 1, m0 & 0x3ff, false)?;
            let to = relative(r, 0, (m0 >> 16) & 0x3ff, false)?;
            write32(out, to as u8, r.sgpr(from));
            Ok(())
        }
        _ => Err(unimplemented(r.inst)),
    }
}

/// The SGPR `operand i + index` of an `s_movrel*` instruction; an index past
/// the scalar register file is an illegal-instruction fault.
fn relative(r: &Regs<'_, '_>, i: usize, index: u32, two: bool) -> Result<usize, FaultKind> {
    let base = r.dst_code(i)?;
    let at = u64::from(base) + u64::from(index);
    let last = at + u64::from(two);
    if last >= 128 {
        return Err(malformed(
            r.inst,
            "M0 indexes past the scalar register file",
        ));
    }
    Ok(at as usize)
}

/// SOPK: 16-bit immediate forms (sign-extended except for unsigned compares).
pub(super) fn sopk(
    r: &Regs<'_, '_>,
    ctx: &mut ExecCtx<'_>,
    out: &mut Writes,
) -> Result<(), FaultKind> {
    use Opcode::*;
    let k = simm16(r.inst);
    let ku = u32::from(r.inst.modifiers.simm16);
    match r.inst.opcode {
        S_MOVK_I32 => r.write_dst(0, u64::from(k), out)?,
        S_CMOVK_I32 => {
            if r.s.scc {
                r.write_dst(0, u64::from(k), out)?;
            }
        }
        S_CMPK_EQ_I32 | S_CMPK_LG_I32 | S_CMPK_GT_I32 | S_CMPK_GE_I32 | S_CMPK_LT_I32
        | S_CMPK_LE_I32 => {
            let (a, b) = (r.src32(0)? as i32, k as i32);
            out.scc = Some(match r.inst.opcode {
                S_CMPK_EQ_I32 => a == b,
                S_CMPK_LG_I32 => a != b,
                S_CMPK_GT_I32 => a > b,
                S_CMPK_GE_I32 => a >= b,
                S_CMPK_LT_I32 => a < b,
                _ => a <= b,
            });
        }
        S_CMPK_EQ_U32 | S_CMPK_LG_U32 | S_CMPK_GT_U32 | S_CMPK_GE_U32 | S_CMPK_LT_U32
        | S_CMPK_LE_U32 => {
            let a = r.src32(0)?;
            out.scc = Some(match r.inst.opcode {
                S_CMPK_EQ_U32 => a == ku,
                S_CMPK_LG_U32 => a != ku,
                S_CMPK_GT_U32 => a > ku,
                S_CMPK_GE_U32 => a >= ku,
                S_CMPK_LT_U32 => a < ku,
                _ => a <= ku,
            });
        }
        S_ADDK_I32 => {
            let (d, o) = (r.src32(0)? as i32).overflowing_add(k as i32);
            r.write_dst(0, u64::from(d as u32), out)?;
            out.scc = Some(o);
        }
        S_MULK_I32 => {
            let d = r.src32(0)?.wrapping_mul(k);
            r.write_dst(0, u64::from(d), out)?;
        }
        S_GETREG_B32 => {
            let value = getreg(r, ctx, r.inst.modifiers.simm16);
            r.write_dst(0, u64::from(value), out)?;
        }
        S_SETREG_B32 => setreg(r, r.inst.modifiers.simm16, r.src32(0)?, out),
        S_SETREG_IMM32_B32 => setreg(r, r.inst.modifiers.simm16, r.inst.modifiers.imm32, out),
        S_CALL_B64 => {
            let next = ctx.pc.wrapping_add(4);
            r.write_dst(0, next, out)?;
            out.branch = Some(next.wrapping_add(i64::from(k as i32).wrapping_mul(4) as u64));
        }
        S_SUBVECTOR_LOOP_BEGIN | S_SUBVECTOR_LOOP_END => subvector_loop(r, ctx, out)?,
        // Pipeline-only (the compute unit's waitcnt logic) or no effect.
        S_VERSION | S_WAITCNT_VSCNT | S_WAITCNT_VMCNT | S_WAITCNT_EXPCNT | S_WAITCNT_LGKMCNT => {}
        _ => return Err(unimplemented(r.inst)),
    }
    Ok(())
}
