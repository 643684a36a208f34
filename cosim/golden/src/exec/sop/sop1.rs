//! SOP1: one-source scalar ALU, EXEC save/restore, PC moves, SGPR-relative moves.

use arch::device::Fault;
use arch::isa::{Instruction, Opcode, Operand};

use super::operand;
use crate::exec::{illegal, not_implemented, Flow, Wave, WaveCtx};
use crate::wave::{EXEC_LO, M0};

/// Executes one SOP1 instruction.
pub fn execute(ctx: &mut WaveCtx<'_>, inst: &Instruction) -> Result<Flow, Fault> {
    use Opcode::*;
    let w = &mut *ctx.wave;
    match inst.opcode {
        S_GETPC_B64 => {
            w.write_scalar64(operand(inst, 0)?, ctx.pc.wrapping_add(u64::from(inst.size)))?;
            return Ok(Flow::Next);
        }
        S_SETPC_B64 => return Ok(Flow::Jump(w.read_scalar64(operand(inst, 0)?)?)),
        S_SWAPPC_B64 => {
            let target = w.read_scalar64(operand(inst, 1)?)?;
            w.write_scalar64(operand(inst, 0)?, ctx.pc.wrapping_add(u64::from(inst.size)))?;
            return Ok(Flow::Jump(target));
        }
        _ => {}
    }
    let (d, a) = match (operand(inst, 0), operand(inst, 1)) {
        (Ok(d), Ok(a)) => (d, a),
        _ => return one_operand(w, inst),
    };
    if let Some(flow) = saveexec(w, inst, d, a)? {
        return Ok(flow);
    }
    let s0 = |w: &Wave| w.read_scalar(a);
    let s0_64 = |w: &Wave| w.read_scalar64(a);
    // (32-bit result, SCC update)
    let r32: Option<(u32, Option<bool>)> = match inst.opcode {
        S_MOV_B32 => Some((s0(w)?, None)),
        S_CMOV_B32 => {
            if !w.scc {
                return Ok(Flow::Next);
            }
            Some((s0(w)?, None))
        }
        S_NOT_B32 => Some(nz(!s0(w)?)),
        S_WQM_B32 => Some(nz(wqm(u64::from(s0(w)?)) as u32)),
        S_BREV_B32 => Some((s0(w)?.reverse_bits(), None)),
        S_BCNT0_I32_B32 => Some(nz(s0(w)?.count_zeros())),
        S_BCNT0_I32_B64 => Some(nz(s0_64(w)?.count_zeros())),
        S_BCNT1_I32_B32 => Some(nz(s0(w)?.count_ones())),
        S_BCNT1_I32_B64 => Some(nz(s0_64(w)?.count_ones())),
        S_FF0_I32_B32 => Some((first_set(u64::from(!s0(w)?)), None)),
        S_FF0_I32_B64 => Some((first_set(!s0_64(w)?), None)),
        S_FF1_I32_B32 => Some((first_set(u64::from(s0(w)?)), None)),
        S_FF1_I32_B64 => Some((first_set(s0_64(w)?), None)),
        S_FLBIT_I32_B32 => Some((leading(u64::from(s0(w)?) << 32, false), None)),
        S_FLBIT_I32_B64 => Some((leading(s0_64(w)?, false), None)),
        S_FLBIT_I32 => Some((
            leading(
                (u64::from(s0(w)?) << 32) | (0xffff_ffff * u64::from(s0(w)? >> 31)),
                true,
            ),
            None,
        )),
        S_FLBIT_I32_I64 => Some((leading(s0_64(w)?, true), None)),
        S_SEXT_I32_I8 => Some((s0(w)? as u8 as i8 as i32 as u32, None)),
        S_SEXT_I32_I16 => Some((s0(w)? as u16 as i16 as i32 as u32, None)),
        S_BITSET0_B32 => Some((w.read_scalar(d)? & !(1 << (s0(w)? & 31)), None)),
        S_BITSET1_B32 => Some((w.read_scalar(d)? | (1 << (s0(w)? & 31)), None)),
        S_QUADMASK_B32 => Some(nz(quadmask(u64::from(s0(w)?)) as u32)),
        S_ABS_I32 => Some(nz((s0(w)? as i32).wrapping_abs() as u32)),
        S_MOVRELS_B32 => Some((w.sgpr[relative(a, w.m0(), 1)?], None)),
        S_MOVRELD_B32 => {
            let v = s0(w)?;
            w.sgpr[relative(d, w.m0(), 1)?] = v;
            return Ok(Flow::Next);
        }
        S_MOVRELSD_2_B32 => {
            let m0 = w.m0();
            let v = w.sgpr[relative(a, m0 & 0x3ff, 1)?];
            w.sgpr[relative(d, (m0 >> 16) & 0x3ff, 1)?] = v;
            return Ok(Flow::Next);
        }
        _ => None,
    };
    if let Some((r, scc)) = r32 {
        w.write_scalar(d, r)?;
        if let Some(s) = scc {
            w.scc = s;
        }
        return Ok(Flow::Next);
    }
    let (r, scc): (u64, Option<bool>) = match inst.opcode {
        S_MOV_B64 => (s0_64(w)?, None),
        S_CMOV_B64 => {
            if !w.scc {
                return Ok(Flow::Next);
            }
            (s0_64(w)?, None)
        }
        S_NOT_B64 => nz64(!s0_64(w)?),
        S_WQM_B64 => nz64(wqm(s0_64(w)?)),
        S_BREV_B64 => (s0_64(w)?.reverse_bits(), None),
        S_BITSET0_B64 => (w.read_scalar64(d)? & !(1 << (s0(w)? & 63)), None),
        S_BITSET1_B64 => (w.read_scalar64(d)? | (1 << (s0(w)? & 63)), None),
        S_QUADMASK_B64 => nz64(quadmask(s0_64(w)?)),
        S_BITREPLICATE_B64_B32 => {
            let x = s0(w)?;
            (
                (0..32).fold(0u64, |acc, i| {
                    acc | (u64::from((x >> i) & 1) * 3) << (2 * i)
                }),
                None,
            )
        }
        S_MOVRELS_B64 => {
            let i = relative(a, w.m0(), 2)?;
            (
                u64::from(w.sgpr[i]) | (u64::from(w.sgpr[i + 1]) << 32),
                None,
            )
        }
        S_MOVRELD_B64 => {
            let v = s0_64(w)?;
            let i = relative(d, w.m0(), 2)?;
            w.sgpr[i] = v as u32;
            w.sgpr[i + 1] = (v >> 32) as u32;
            return Ok(Flow::Next);
        }
        _ => return Err(not_implemented(inst)),
    };
    w.write_scalar64(d, r)?;
    if let Some(s) = scc {
        w.scc = s;
    }
    Ok(Flow::Next)
}

/// A result and its SCC (`result != 0`).
pub(in crate::exec) fn nz(v: u32) -> (u32, Option<bool>) {
    (v, Some(v != 0))
}

fn nz64(v: u64) -> (u64, Option<bool>) {
    (v, Some(v != 0))
}

/// Index of the lowest set bit, or -1 (as u32) when none.
pub(in crate::exec) fn first_set(v: u64) -> u32 {
    if v == 0 {
        u32::MAX
    } else {
        v.trailing_zeros()
    }
}

/// `s_flbit`: leading zeros from the MSB (unsigned), or leading copies of the sign
/// bit (signed); -1 when there is no opposite bit. `v` is left-aligned in 64 bits
/// (a 32-bit source arrives shifted up, padded with copies of its sign when signed).
fn leading(v: u64, signed: bool) -> u32 {
    let x = if signed && (v as i64) < 0 { !v } else { v };
    if x == 0 {
        u32::MAX
    } else {
        x.leading_zeros()
    }
}

/// Whole-quad mode: every 4-lane group with any lane set becomes all set.
fn wqm(v: u64) -> u64 {
    (0..16).fold(0, |acc, q| {
        if (v >> (4 * q)) & 0xf != 0 {
            acc | (0xf << (4 * q))
        } else {
            acc
        }
    })
}

/// One bit per 4-lane group: set when any lane of the group is.
fn quadmask(v: u64) -> u64 {
    (0..16).fold(0, |acc, q| {
        acc | (u64::from((v >> (4 * q)) & 0xf != 0) << q)
    })
}

/// The SOP1 forms with a single operand (off the common two-operand path).
fn one_operand(w: &mut Wave, inst: &Instruction) -> Result<Flow, Fault> {
    use Opcode::*;
    match inst.opcode {
        S_SET_GPR_IDX_IDX => {
            let m0 = (w.m0() & !0xff) | (w.read_scalar(operand(inst, 0)?)? & 0xff);
            w.sgpr[usize::from(M0)] = m0;
            Ok(Flow::Next)
        }
        // Trap return and GCN3 fork/join: docs/golden-coverage.md.
        S_RFE_B64 | S_CBRANCH_JOIN => Err(not_implemented(inst)),
        // Anything else: the missing-operand fault.
        _ => operand(inst, 0).and(operand(inst, 1)).map(|_| Flow::Next),
    }
}

/// `SGPR[op + offset]` for the `s_movrel*` forms: `dwords` registers starting at the
/// operand's register plus `offset`, which must stay inside the scalar file.
fn relative(op: &Operand, offset: u32, dwords: usize) -> Result<usize, Fault> {
    let Operand::Src { code, .. } = *op else {
        return Err(illegal("s_movrel operand is not a register"));
    };
    let i = usize::from(code) + offset as usize;
    if code >= 128 || i + dwords > 106 {
        return Err(illegal(format!(
            "s_movrel: register s{code} + M0 offset {offset} is outside s0..s105"
        )));
    }
    Ok(i)
}

/// The `s_*_saveexec_*` and `s_*_wrexec_*` forms: D = old EXEC (wrexec: new EXEC),
/// EXEC = op(S0, EXEC), SCC = (new EXEC != 0). The b64 forms use the whole
/// EXEC pair, the b32 forms (wave32) only EXEC_LO.
fn saveexec(
    w: &mut Wave,
    inst: &Instruction,
    d: &Operand,
    a: &Operand,
) -> Result<Option<Flow>, Fault> {
    use Opcode::*;
    let (wide, f): (bool, fn(u64, u64) -> u64) = match inst.opcode {
        S_AND_SAVEEXEC_B64 => (true, |s, e| s & e),
        S_OR_SAVEEXEC_B64 => (true, |s, e| s | e),
        S_XOR_SAVEEXEC_B64 => (true, |s, e| s ^ e),
        S_ANDN2_SAVEEXEC_B64 | S_ANDN2_WREXEC_B64 => (true, |s, e| s & !e),
        S_ORN2_SAVEEXEC_B64 => (true, |s, e| s | !e),
        S_NAND_SAVEEXEC_B64 => (true, |s, e| !(s & e)),
        S_NOR_SAVEEXEC_B64 => (true, |s, e| !(s | e)),
        S_XNOR_SAVEEXEC_B64 => (true, |s, e| !(s ^ e)),
        S_ANDN1_SAVEEXEC_B64 | S_ANDN1_WREXEC_B64 => (true, |s, e| !s & e),
        S_ORN1_SAVEEXEC_B64 => (true, |s, e| !s | e),
        S_AND_SAVEEXEC_B32 => (false, |s, e| s & e),
        S_OR_SAVEEXEC_B32 => (false, |s, e| s | e),
        S_XOR_SAVEEXEC_B32 => (false, |s, e| s ^ e),
        S_ANDN2_SAVEEXEC_B32 | S_ANDN2_WREXEC_B32 => (false, |s, e| s & !e),
        S_ORN2_SAVEEXEC_B32 => (false, |s, e| s | !e),
        S_NAND_SAVEEXEC_B32 => (false, |s, e| !(s & e)),
        S_NOR_SAVEEXEC_B32 => (false, |s, e| !(s | e)),
        S_XNOR_SAVEEXEC_B32 => (false, |s, e| !(s ^ e)),
        S_ANDN1_SAVEEXEC_B32 | S_ANDN1_WREXEC_B32 => (false, |s, e| !s & e),
        S_ORN1_SAVEEXEC_B32 => (false, |s, e| !s | e),
        _ => return Ok(None),
    };
    let wrexec = matches!(
        inst.opcode,
        S_ANDN1_WREXEC_B64 | S_ANDN2_WREXEC_B64 | S_ANDN1_WREXEC_B32 | S_ANDN2_WREXEC_B32
    );
    let lo = usize::from(EXEC_LO);
    if wide {
        let s = w.read_scalar64(a)?;
        let old = u64::from(w.sgpr[lo]) | (u64::from(w.sgpr[lo + 1]) << 32);
        let new = f(s, old);
        // The ISA's order (D = EXEC; EXEC = ...): with EXEC as D, EXEC
        // ends as the new mask.
        w.write_scalar64(d, if wrexec { new } else { old })?;
        w.sgpr[lo] = new as u32;
        w.sgpr[lo + 1] = (new >> 32) as u32;
        w.scc = new != 0;
    } else {
        let s = u64::from(w.read_scalar(a)?);
        let old = u64::from(w.sgpr[lo]);
        let new = f(s, old) as u32;
        w.write_scalar(d, if wrexec { new } else { old as u32 })?;
        w.sgpr[lo] = new;
        w.scc = new != 0;
    }
    Ok(Some(Flow::Next))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_helpers() {
        assert_eq!(first_set(0), u32::MAX);
        assert_eq!(first_set(0b1000), 3);
        assert_eq!(leading(1u64 << 32, false), 31);
        assert_eq!(leading(0, false), u32::MAX);
        // Signed: 0xffff_ff00 (32-bit) has 24 leading ones.
        let v = 0xffff_ff00u32;
        assert_eq!(leading(u64::from(v) << 32 | 0xffff_ffff, true), 24);
        assert_eq!(leading(u64::MAX, true), u32::MAX);
        assert_eq!(wqm(0x0000_0000_0001_0020), 0x0000_0000_000f_00f0);
        assert_eq!(quadmask(0x0000_0000_0001_0020), 0b1_0010);
    }
}
