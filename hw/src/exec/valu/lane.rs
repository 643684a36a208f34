//! Cross-lane and register-indexed operations: `v_readlane`, `v_readfirstlane`
//! and `v_writelane` (which ignore EXEC as documented), `v_swap`,
//! `v_movrel*`/`v_swaprel` (M0-relative VGPRs) and `v_permlane16`/`x16`.

use arch::device::FaultKind;
use arch::isa::{Opcode, Operand};

use super::super::{code, operand, VgprWrite, Writes, MAX_LANES};
use super::{malformed, Cx, Ty};

impl Cx<'_> {
    /// The VGPR number of operand `i` (print order).
    fn vgpr_of(&self, i: usize) -> Result<usize, FaultKind> {
        self.inst
            .operands()
            .get(i)
            .and_then(operand::vgpr_index)
            .map(usize::from)
            .ok_or_else(|| malformed(self.inst))
    }

    /// Lane values of VGPR `reg`, faulting past the allocation.
    fn vgpr_lanes(&self, reg: usize) -> Result<[u32; MAX_LANES], FaultKind> {
        if reg >= self.v.count() {
            return Err(operand::vgpr_out_of_range(reg, &self.v));
        }
        let mut out = [0u32; MAX_LANES];
        for (lane, o) in out.iter_mut().enumerate().take(self.lanes) {
            *o = self.v.get(reg, lane).unwrap_or(0);
        }
        Ok(out)
    }

    fn push_vgpr(&self, out: &mut Writes, reg: usize, vals: &[u32; MAX_LANES], mask: u64) {
        out.vgpr.push(VgprWrite {
            reg: reg as u16,
            mask: mask & self.all(),
            values: *vals,
        });
    }
}

/// Executes a cross-lane opcode; `Ok(None)` when `cx`'s opcode is not one.
pub(crate) fn execute(cx: &mut Cx<'_>, out: &mut Writes) -> Result<Option<()>, FaultKind> {
    use Opcode as O;
    let m0 = cx.s.sgpr[usize::from(code::M0)] as usize;
    match cx.inst.opcode {
        O::V_READFIRSTLANE_B32 => {
            let a = cx.src(0, Ty::B32)?;
            let lane = if cx.exec == 0 {
                0
            } else {
                cx.exec.trailing_zeros() as usize
            };
            let dst = cx.sdst_code(0)?;
            if dst != code::NULL {
                out.sgpr.push((dst, a[lane] as u32));
            }
        }
        O::V_READLANE_B32 => {
            let a = cx.src(0, Ty::B32)?;
            let sel = operand::scalar(cx.src_op(1)?, cx.s, &cx.v)? as usize & (cx.lanes - 1);
            let dst = cx.sdst_code(0)?;
            if dst != code::NULL {
                out.sgpr.push((dst, a[sel] as u32));
            }
        }
        O::V_WRITELANE_B32 => {
            let value = operand::scalar(cx.src_op(0)?, cx.s, &cx.v)? as u32;
            let sel = operand::scalar(cx.src_op(1)?, cx.s, &cx.v)? as usize & (cx.lanes - 1);
            let reg = cx.vgpr_of(0)?;
            let mut vals = cx.vgpr_lanes(reg)?;
            vals[sel] = value;
            cx.push_vgpr(out, reg, &vals, 1 << sel);
        }
        O::V_SWAP_B32 | O::V_SWAPREL_B32 => {
            let (d_off, s_off) = if cx.inst.opcode == O::V_SWAPREL_B32 {
                ((m0 >> 16) & 0x3ff, m0 & 0x3ff)
            } else {
                (0, 0)
            };
            let d = cx.vgpr_of(0)? + d_off;
            let s = cx.vgpr_of(1)? + s_off;
            let dv = cx.vgpr_lanes(d)?;
            let sv = cx.vgpr_lanes(s)?;
            cx.push_vgpr(out, d, &sv, cx.exec);
            cx.push_vgpr(out, s, &dv, cx.exec);
        }
        O::V_MOVRELD_B32 | O::V_MOVRELS_B32 | O::V_MOVRELSD_B32 | O::V_MOVRELSD_2_B32 => {
            let (d_off, s_off) = match cx.inst.opcode {
                O::V_MOVRELD_B32 => (m0, 0),
                O::V_MOVRELS_B32 => (0, m0),
                O::V_MOVRELSD_B32 => (m0, m0),
                _ => ((m0 >> 16) & 0x3ff, m0 & 0x3ff),
            };
            let d = cx.vgpr_of(0)? + d_off;
            if d >= cx.v.count() {
                return Err(operand::vgpr_out_of_range(d, &cx.v));
            }
            let src = *cx.src_op(0)?;
            let vals = match src {
                Operand::Src { code, .. } if code >= 256 => {
                    cx.vgpr_lanes(usize::from(code - 256) + s_off)?
                }
                _ => {
                    let x = operand::scalar(&src, cx.s, &cx.v)? as u32;
                    [x; MAX_LANES]
                }
            };
            cx.push_vgpr(out, d, &vals, cx.exec);
        }
        O::V_PERMLANE16_B32 | O::V_PERMLANEX16_B32 => {
            let src = cx.vgpr_lanes(cx.vgpr_of(1)?)?;
            let lo = operand::scalar(cx.src_op(1)?, cx.s, &cx.v)? as u32;
            let hi = operand::scalar(cx.src_op(2)?, cx.s, &cx.v)? as u32;
            let sel = u64::from(lo) | u64::from(hi) << 32;
            // op_sel[0] is fetch-inactive, op_sel[1] bound_ctrl.
            let fi = cx.inst.modifiers.op_sel & 1 != 0;
            let bound = cx.inst.modifiers.op_sel & 2 != 0;
            let x = cx.inst.opcode == O::V_PERMLANEX16_B32;
            let reg = cx.vgpr_of(0)?;
            if reg >= cx.v.count() {
                return Err(operand::vgpr_out_of_range(reg, &cx.v));
            }
            let mut vals = [0u32; MAX_LANES];
            let mut mask = cx.exec;
            for lane in 0..cx.lanes {
                let row = if x { (lane >> 4) ^ 1 } else { lane >> 4 };
                let from = row * 16 + (sel >> (4 * (lane & 15)) & 15) as usize;
                if fi || cx.exec >> from & 1 != 0 {
                    vals[lane] = src[from];
                } else if !bound {
                    mask &= !(1 << lane);
                }
            }
            cx.push_vgpr(out, reg, &vals, mask);
        }
        _ => return Ok(None),
    }
    Ok(Some(()))
}
