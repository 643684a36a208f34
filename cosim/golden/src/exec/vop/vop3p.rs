//! VOP3P semantics (gfx1030): packed 16-bit math, dot products and the
//! mixed-precision `v_fma_mix*`; also the VOP2-encoded packed/dot
//! accumulators (`v_pk_fmac_f16`, `v_dot2c_f32_f16`, `v_dot4c_i32_i8`).
//!
//! Source halves: the low result lane reads source `i`'s high half when
//! `op_sel[i]`, the high lane when `op_sel_hi[i]`; `neg_lo`/`neg_hi` negate
//! float halves. Dot products and `fma_mix` compute with exact `f16 -> f32`
//! conversions and `f32` fused operations (see `docs/floating-point.md`).

use arch::device::Fault;
use arch::isa::tables::Field;
use arch::isa::{Instruction, Opcode, Variant};

use super::{each_lane, Valu};
use crate::exec::{not_implemented, Flow, WaveCtx};
use crate::fp::{self, FpMode, F16, F32};

/// Executes one VOP3P instruction.
pub fn execute(ctx: &mut WaveCtx<'_>, inst: &Instruction) -> Result<Flow, Fault> {
    let mut v = Valu::new(ctx.wave, inst)?;
    if packed(&mut v)? {
        Ok(Flow::Next)
    } else {
        Err(not_implemented(inst))
    }
}

/// Raw 32-bit source `i` for every lane (`None` when the row has no such source).
fn raw(v: &Valu<'_>, i: usize) -> Result<Option<[u32; 64]>, Fault> {
    let field = [Field::Src0, Field::Src1, Field::Src2][i];
    if !v.has(field) {
        return Ok(None);
    }
    let (op, _) = v.operand(field, 0)?;
    Ok(Some(v.w.read_lanes(&op)?))
}

/// f16 -> f32, exact.
fn h2f(h: u32) -> u64 {
    fp::convert(F16, F32, u64::from(h & 0xffff), FpMode::IEEE, FpMode::IEEE)
}

/// Runs `v`'s opcode if it is a packed/dot operation; `Ok(false)` otherwise.
pub(super) fn packed(v: &mut Valu<'_>) -> Result<bool, Fault> {
    use Opcode::*;
    let op = v.inst.opcode;
    let m = v.inst.modifiers;
    // VOP2 forms (`_e32`, DPP) have no op_sel: both halves in place, src2 = vdst.
    let vop2 = v.inst.family == arch::isa::Family::Vop2;
    let (sel, sel_hi) = if vop2 {
        (0, 0xff)
    } else {
        (m.op_sel, m.op_sel_hi)
    };
    let (neg_lo, neg_hi) = if vop2 {
        (m.neg, m.neg)
    } else {
        (m.neg, m.neg_hi)
    };
    // DPP forms of the VOP2 accumulators (gfx1030 `v_dot2c_f32_f16_dpp`,
    // `v_dot4c_i32_i8_dpp`): src0 goes through the lane permute. DPP's
    // neg/abs on either packed source (LLVM accepts both) are not modelled:
    // refused as not implemented rather than ignored.
    let dpp = vop2 && matches!(v.inst.variant, Variant::Dpp16 | Variant::Dpp8);
    // `v_dot2c_f32_f16_dpp` takes neg/abs on its sources as on any source
    // of 16-bit elements: bit 15 (the low f16's sign), which is what
    // `cosim/tests/float_modifiers.rs` requires of every modifier (issue 14;
    // the clocked GPU does the same).
    let packed_dpp_mods = dpp && op == V_DOT2C_F32_F16;
    if vop2
        && v.inst.variant != Variant::Plain
        && !(dpp && ((m.neg | m.abs) & 3 == 0 || packed_dpp_mods))
    {
        return Ok(false);
    }
    let is_float = matches!(
        op,
        V_PK_FMA_F16 | V_PK_ADD_F16 | V_PK_MUL_F16 | V_PK_MIN_F16 | V_PK_MAX_F16 | V_PK_FMAC_F16
    );
    let known = is_float
        || matches!(
            op,
            V_PK_MAD_I16
                | V_PK_MUL_LO_U16
                | V_PK_ADD_I16
                | V_PK_SUB_I16
                | V_PK_LSHLREV_B16
                | V_PK_LSHRREV_B16
                | V_PK_ASHRREV_I16
                | V_PK_MAX_I16
                | V_PK_MIN_I16
                | V_PK_MAD_U16
                | V_PK_ADD_U16
                | V_PK_SUB_U16
                | V_PK_MAX_U16
                | V_PK_MIN_U16
                | V_DOT2_F32_F16
                | V_DOT2_I32_I16
                | V_DOT2_U32_U16
                | V_DOT4_I32_I8
                | V_DOT4_U32_U8
                | V_DOT8_I32_I4
                | V_DOT8_U32_U4
                | V_DOT2C_F32_F16
                | V_DOT4C_I32_I8
                | V_FMA_MIX_F32
                | V_FMA_MIXLO_F16
                | V_FMA_MIXHI_F16
        );
    if !known {
        return Ok(false);
    }
    let mut a = if packed_dpp_mods {
        // The permuted raw dword, modifiers below.
        let mut x = raw(v, 0)?.unwrap_or([0; 64]);
        v.exec &= super::lanes::dpp(v.inst, &mut x, v.w.exec());
        x
    } else if dpp {
        v.src(0)?
    } else {
        raw(v, 0)?.unwrap_or([0; 64])
    };
    let mut b = raw(v, 1)?.unwrap_or([0; 64]);
    if packed_dpp_mods {
        for (i, src) in [&mut a, &mut b].into_iter().enumerate() {
            for x in src.iter_mut() {
                if m.abs >> i & 1 != 0 {
                    *x &= !0x8000;
                }
                if m.neg >> i & 1 != 0 {
                    *x ^= 0x8000;
                }
            }
        }
    }
    let accumulates = matches!(op, V_PK_FMAC_F16 | V_DOT2C_F32_F16 | V_DOT4C_I32_I8);
    let old = *v.w.vgpr(v.vdst()?)?;
    let c = if accumulates {
        old
    } else {
        raw(v, 2)?.unwrap_or([0; 64])
    };
    let half = |x: u32, i: usize, hi: bool| -> u32 {
        let s = if hi { sel_hi } else { sel };
        let h = if s >> i & 1 != 0 { x >> 16 } else { x } & 0xffff;
        let neg = if hi { neg_hi } else { neg_lo };
        if is_float && neg >> i & 1 != 0 {
            h ^ 0x8000
        } else {
            h
        }
    };
    let m16 = v.fp(F16);
    let m32 = v.fp(F32);
    let ieee = v.mode.ieee;
    let clamp = m.clamp;
    let mut r = [0u32; 64];
    each_lane(v.exec, |l| {
        let (x, y, z) = (a[l], b[l], c[l]);
        let lane = |hi: bool| -> u32 {
            let (p, q, s) = (half(x, 0, hi), half(y, 1, hi), half(z, 2, hi));
            let f = |r: u64| {
                if clamp {
                    fp::clamp01(F16, r) as u32
                } else {
                    r as u32
                }
            };
            let (pi, qi, si) = (p as u16 as i16, q as u16 as i16, s as u16 as i16);
            let sat_i = |v: i32| if clamp { v.clamp(-32768, 32767) } else { v } as u16 as u32;
            let sat_u = |v: u32| if clamp { v.min(0xffff) } else { v & 0xffff };
            match op {
                V_PK_FMA_F16 => f(fp::fma(F16, p.into(), q.into(), s.into(), m16)),
                V_PK_FMAC_F16 => f(fp::fma(
                    F16,
                    p.into(),
                    q.into(),
                    (if hi { z >> 16 } else { z } & 0xffff).into(),
                    m16,
                )),
                V_PK_ADD_F16 => f(fp::add(F16, p.into(), q.into(), m16)),
                V_PK_MUL_F16 => f(fp::mul(F16, p.into(), q.into(), m16)),
                V_PK_MIN_F16 => f(fp::min_max(F16, p.into(), q.into(), false, ieee, m16)),
                V_PK_MAX_F16 => f(fp::min_max(F16, p.into(), q.into(), true, ieee, m16)),
                V_PK_MAD_I16 => sat_i(i32::from(pi) * i32::from(qi) + i32::from(si)),
                V_PK_MAD_U16 => sat_u(p * q + s),
                V_PK_MUL_LO_U16 => sat_u(p * q),
                V_PK_ADD_I16 => sat_i(i32::from(pi) + i32::from(qi)),
                V_PK_SUB_I16 => sat_i(i32::from(pi) - i32::from(qi)),
                V_PK_ADD_U16 => sat_u(p + q),
                V_PK_SUB_U16 => {
                    if clamp {
                        p.saturating_sub(q)
                    } else {
                        p.wrapping_sub(q) & 0xffff
                    }
                }
                V_PK_LSHLREV_B16 => (q << (p & 15)) & 0xffff,
                V_PK_LSHRREV_B16 => q >> (p & 15),
                V_PK_ASHRREV_I16 => (qi >> (p & 15)) as u16 as u32,
                V_PK_MAX_I16 => pi.max(qi) as u16 as u32,
                V_PK_MIN_I16 => pi.min(qi) as u16 as u32,
                V_PK_MAX_U16 => p.max(q),
                _ => p.min(q),
            }
        };
        r[l] = match op {
            V_DOT2_F32_F16 | V_DOT2C_F32_F16 => {
                let t = fp::fma(
                    F32,
                    h2f(half(x, 0, false)),
                    h2f(half(y, 1, false)),
                    u64::from(z),
                    m32,
                );
                let t = fp::fma(F32, h2f(half(x, 0, true)), h2f(half(y, 1, true)), t, m32);
                if clamp {
                    fp::clamp01(F32, t) as u32
                } else {
                    t as u32
                }
            }
            V_DOT2_I32_I16 | V_DOT2_U32_U16 | V_DOT4_I32_I8 | V_DOT4C_I32_I8 | V_DOT4_U32_U8
            | V_DOT8_I32_I4 | V_DOT8_U32_U4 => {
                let (bits, signed) = match op {
                    V_DOT2_I32_I16 => (16, true),
                    V_DOT2_U32_U16 => (16, false),
                    V_DOT4_I32_I8 | V_DOT4C_I32_I8 => (8, true),
                    V_DOT4_U32_U8 => (8, false),
                    V_DOT8_I32_I4 => (4, true),
                    _ => (4, false),
                };
                let el = |w: u32, k: u32| -> i64 {
                    let e = (w >> (k * bits)) & ((1 << bits) - 1);
                    if signed {
                        i64::from(((e << (32 - bits)) as i32) >> (32 - bits))
                    } else {
                        i64::from(e)
                    }
                };
                let acc = if signed {
                    i64::from(z as i32)
                } else {
                    i64::from(z)
                };
                // The 16-bit elements are halves like any packed source's:
                // op_sel picks the first product's, op_sel_hi the second's.
                let (x, y) = if bits == 16 {
                    (
                        half(x, 0, false) | half(x, 0, true) << 16,
                        half(y, 1, false) | half(y, 1, true) << 16,
                    )
                } else {
                    (x, y)
                };
                let s: i64 = (0..32 / bits).map(|k| el(x, k) * el(y, k)).sum::<i64>() + acc;
                match (clamp, signed) {
                    (true, true) => s.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as u32,
                    (true, false) => s.clamp(0, i64::from(u32::MAX)) as u32,
                    _ => s as u32,
                }
            }
            V_FMA_MIX_F32 | V_FMA_MIXLO_F16 | V_FMA_MIXHI_F16 => {
                // op_sel_hi[i] = source i is f16 (its half chosen by op_sel[i]);
                // neg_lo = neg, neg_hi = abs.
                let src = |w: u32, i: usize| -> u64 {
                    let mut f = if m.op_sel_hi >> i & 1 != 0 {
                        h2f(if m.op_sel >> i & 1 != 0 { w >> 16 } else { w })
                    } else {
                        u64::from(w)
                    };
                    if m.neg_hi >> i & 1 != 0 {
                        f &= 0x7fff_ffff;
                    }
                    if m.neg >> i & 1 != 0 {
                        f ^= 0x8000_0000;
                    }
                    f
                };
                let t = fp::fma(F32, src(x, 0), src(y, 1), src(z, 2), m32);
                if op == V_FMA_MIX_F32 {
                    if clamp {
                        fp::clamp01(F32, t) as u32
                    } else {
                        t as u32
                    }
                } else {
                    let h = fp::convert(F32, F16, t, m32, m16);
                    let h = if clamp { fp::clamp01(F16, h) } else { h } as u32;
                    if op == V_FMA_MIXLO_F16 {
                        (old[l] & 0xffff_0000) | h
                    } else {
                        (old[l] & 0xffff) | h << 16
                    }
                }
            }
            _ => lane(false) | lane(true) << 16,
        };
    });
    let n = v.vdst()?;
    let dst = v.w.vgpr_mut(n)?;
    each_lane(v.exec, |l| dst[l] = r[l]);
    Ok(true)
}
