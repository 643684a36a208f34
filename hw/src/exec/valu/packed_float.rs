//! Mixed-precision float opcodes: `v_fma_mix_f32`, `v_fma_mixlo_f16`,
//! `v_fma_mixhi_f16`, `v_dot2_f32_f16` (VOP3P) and `v_dot2c_f32_f16`
//! (VOP2). f16 sources are widened to f32 exactly (denormals kept), the
//! arithmetic is f32 fused multiply-add under MODE, as the golden GPU does
//! (`cosim/golden/src/exec/vop/vop3p.rs`, docs/floating-point.md).

use arch::device::FaultKind;
use arch::isa::{Opcode, Variant};

use super::super::fp;
use super::super::Writes;
use super::{Cx, LaneVals, Ty};

/// Executes one of this file's opcodes; `Ok(false)` for any other.
pub(crate) fn execute(cx: &mut Cx<'_>, out: &mut Writes) -> Result<bool, FaultKind> {
    use Opcode as O;
    let op = cx.inst.opcode;
    let m = cx.mode;
    let mods = cx.inst.modifiers;
    let clamp = mods.clamp;
    let mut vals: LaneVals = [0; 64];
    match op {
        O::V_FMA_MIX_F32 | O::V_FMA_MIXLO_F16 | O::V_FMA_MIXHI_F16 => {
            // Source i is f32, or (op_sel_hi[i]) the f16 half op_sel[i]
            // picks; `neg_hi` is the sources' `abs`, `neg_lo` their `neg`.
            let mut srcs = [[0u32; 64]; 3];
            for (i, src) in srcs.iter_mut().enumerate() {
                let operand = *cx.src_op(i)?;
                let raw = cx.raw(&operand, false)?;
                let half = mods.op_sel_hi >> i & 1 != 0;
                let hi = mods.op_sel >> i & 1 != 0;
                let (neg, abs) = (mods.neg >> i & 1 != 0, mods.neg_hi >> i & 1 != 0);
                for lane in 0..cx.lanes {
                    let x = raw[lane] as u32;
                    let mut f = if half {
                        fp::widen_f16_exact(if hi { (x >> 16) as u16 } else { x as u16 })
                    } else {
                        x
                    };
                    if abs {
                        f &= 0x7fff_ffff;
                    }
                    if neg {
                        f ^= 0x8000_0000;
                    }
                    src[lane] = f;
                }
            }
            let old = if op == O::V_FMA_MIX_F32 {
                [0; 64]
            } else {
                let d = *cx
                    .inst
                    .operands()
                    .first()
                    .ok_or_else(|| super::malformed(cx.inst))?;
                cx.raw(&d, false)?
            };
            for lane in 0..cx.lanes {
                if cx.write_mask >> lane & 1 == 0 {
                    continue;
                }
                let r = fp::fma_f32(srcs[0][lane], srcs[1][lane], srcs[2][lane], &m);
                vals[lane] = if op == O::V_FMA_MIX_F32 {
                    u64::from(if clamp { fp::clamp_f32(r, &m) } else { r })
                } else {
                    let h = fp::cvt_f16_f32(r, &m);
                    let h = u64::from(if clamp { fp::clamp_f16(h, &m) } else { h });
                    let o = old[lane];
                    if op == O::V_FMA_MIXLO_F16 {
                        o & 0xffff_0000 | h
                    } else {
                        o & 0xffff | h << 16
                    }
                };
            }
        }
        O::V_PK_FMA_F16 | O::V_PK_ADD_F16 | O::V_PK_MUL_F16 | O::V_PK_MIN_F16 | O::V_PK_MAX_F16 => {
            // Each half of each source as op_sel/op_sel_hi pick it from the
            // 32-bit operand as read (an inline constant is its 32-bit
            // value, not a replicated half: issue 14), neg_lo/neg_hi on the
            // f16 sign.
            let three = op == O::V_PK_FMA_F16;
            let mut raw = [[0u64; 64]; 3];
            for (i, r) in raw.iter_mut().enumerate().take(if three { 3 } else { 2 }) {
                let operand = *cx.src_op(i)?;
                *r = cx.raw(&operand, false)?;
            }
            let half = |x: u64, i: usize, hi: bool| -> u16 {
                let (sel, neg) = if hi {
                    (mods.op_sel_hi, mods.neg_hi)
                } else {
                    (mods.op_sel, mods.neg)
                };
                let h = if sel >> i & 1 != 0 { x >> 16 } else { x } as u16;
                if neg >> i & 1 != 0 {
                    h ^ 0x8000
                } else {
                    h
                }
            };
            for lane in 0..cx.lanes {
                if cx.write_mask >> lane & 1 == 0 {
                    continue;
                }
                let result = |hi: bool| -> u64 {
                    let x = half(raw[0][lane], 0, hi);
                    let y = half(raw[1][lane], 1, hi);
                    let z = half(raw[2][lane], 2, hi);
                    let r = match op {
                        O::V_PK_FMA_F16 => fp::fma_f16(x, y, z, &m),
                        O::V_PK_ADD_F16 => fp::add_f16(x, y, &m),
                        O::V_PK_MUL_F16 => fp::mul_f16(x, y, &m),
                        O::V_PK_MIN_F16 => fp::min_f16(x, y, &m),
                        _ => fp::max_f16(x, y, &m),
                    };
                    u64::from(if clamp { fp::clamp_f16(r, &m) } else { r })
                };
                vals[lane] = result(false) | result(true) << 16;
            }
        }
        O::V_DOT2_F32_F16 => {
            // Raw sources: the golden model applies no neg_lo/neg_hi here.
            let mut raw = [[0u64; 64]; 3];
            for (i, r) in raw.iter_mut().enumerate() {
                let operand = *cx.src_op(i)?;
                *r = cx.raw(&operand, false)?;
            }
            let pick = |x: u64, i: usize, hi: bool| -> u32 {
                let sel = if hi { mods.op_sel_hi } else { mods.op_sel };
                let h = if sel >> i & 1 != 0 { x >> 16 } else { x } as u16;
                fp::widen_f16_exact(h)
            };
            for lane in 0..cx.lanes {
                if cx.write_mask >> lane & 1 == 0 {
                    continue;
                }
                let (x, y, z) = (raw[0][lane], raw[1][lane], raw[2][lane] as u32);
                let t = fp::fma_f32(pick(x, 0, false), pick(y, 1, false), z, &m);
                let t = fp::fma_f32(pick(x, 0, true), pick(y, 1, true), t, &m);
                vals[lane] = u64::from(if clamp { fp::clamp_f32(t, &m) } else { t });
            }
        }
        O::V_DOT2C_F32_F16 => {
            // VOP2: halves in place, the destination accumulates. DPP's
            // neg/abs apply to bit 15 (the low f16's sign), as for any
            // source of 16-bit elements and on the golden GPU; SDWA is not
            // an encoding this opcode has.
            let dpp = matches!(cx.inst.variant, Variant::Dpp16 | Variant::Dpp8);
            if cx.inst.variant != Variant::Plain && !dpp {
                return Err(super::super::unimplemented(cx.inst));
            }
            let operand = *cx.src_op(0)?;
            let mut a = cx.raw(&operand, false)?;
            if dpp {
                cx.write_mask &= super::sdwa_dpp::dpp_permute(cx, &mut a);
            }
            let operand = *cx.src_op(1)?;
            let mut b = cx.raw(&operand, false)?;
            if dpp {
                for (i, src) in [&mut a, &mut b].into_iter().enumerate() {
                    for x in src.iter_mut().take(cx.lanes) {
                        if mods.abs >> i & 1 != 0 {
                            *x &= !0x8000;
                        }
                        if mods.neg >> i & 1 != 0 {
                            *x ^= 0x8000;
                        }
                    }
                }
            }
            let d = *cx
                .inst
                .operands()
                .first()
                .ok_or_else(|| super::malformed(cx.inst))?;
            let c = cx.raw(&d, false)?;
            let lo = |x: u64| fp::widen_f16_exact(x as u16);
            let hi = |x: u64| fp::widen_f16_exact((x >> 16) as u16);
            for lane in 0..cx.lanes {
                if cx.write_mask >> lane & 1 == 0 {
                    continue;
                }
                let (x, y) = (a[lane], b[lane]);
                let t = fp::fma_f32(lo(x), lo(y), c[lane] as u32, &m);
                vals[lane] = u64::from(fp::fma_f32(hi(x), hi(y), t, &m));
            }
        }
        _ => return Ok(false),
    }
    cx.write_vgpr(out, 0, Ty::B32, &vals, cx.write_mask)?;
    Ok(true)
}
