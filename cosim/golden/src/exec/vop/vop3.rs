//! VOP3 semantics: the operations only the 64-bit encoding has (three
//! sources, 64-bit shifts and multiply-adds, lane reads and writes, bit
//! counts, `div_scale`/`div_fmas`/`div_fixup`, ...). Promoted VOP1/VOP2/VOPC
//! opcodes (`_e64`) run through those families' semantics with the VOP3
//! modifiers applied by the shared operand fetch.

use arch::device::Fault;
use arch::isa::tables::Field;
use arch::isa::{Instruction, Opcode};

use super::saturate::{sat_i32, sat_u32};
use super::vop1::norm16;
use super::{each_lane, vop1, vop2, vopc, Valu};
use crate::exec::sop::bfe;
use crate::exec::{not_implemented, Flow, WaveCtx};
use crate::fp::{self, Format, F16, F32, F64};

/// Executes one VOP3 instruction.
pub fn execute(ctx: &mut WaveCtx<'_>, inst: &Instruction) -> Result<Flow, Fault> {
    let mut v = Valu::new(ctx.wave, inst)?;
    if ternary(&mut v)?
        || vopc::compare(&mut v)?
        || vop2::binary(&mut v)?
        || vop1::unary(&mut v)?
        || super::rare::execute(&mut v)?
    {
        Ok(Flow::Next)
    } else {
        Err(not_implemented(inst))
    }
}

#[inline]
fn i24(x: u32) -> i64 {
    i64::from(((x << 8) as i32) >> 8)
}

/// Sum of absolute byte differences, skipping bytes whose `b` (reference) is
/// zero when `masked` (`v_msad_u8`).
fn sad_bytes(a: u32, b: u32, masked: bool) -> u32 {
    (0..4)
        .map(|i| {
            let (x, y) = ((a >> (8 * i)) & 0xff, (b >> (8 * i)) & 0xff);
            if masked && y == 0 {
                0
            } else {
                x.abs_diff(y)
            }
        })
        .sum()
}

/// `v_perm_b32`: each selector byte picks a byte of `{a, b}` (b is bytes 0–3),
/// a sign fill (8–11), zero (12) or 0xff (13+).
fn perm(a: u32, b: u32, sel: u32) -> u32 {
    let v = u64::from(a) << 32 | u64::from(b);
    (0..4)
        .map(|i| {
            let s = (sel >> (8 * i)) & 0xff;
            let byte = match s {
                0..=7 => (v >> (8 * s)) & 0xff,
                8..=11 => {
                    if v >> (16 * (s - 8) + 15) & 1 != 0 {
                        0xff
                    } else {
                        0
                    }
                }
                12 => 0,
                _ => 0xff,
            };
            (byte as u32) << (8 * i)
        })
        .fold(0, |acc, b| acc | b)
}

fn med3<T: Ord + Copy>(a: T, b: T, c: T) -> T {
    a.max(b).min(a.min(b).max(c))
}

/// Runs `v`'s opcode if it is a VOP3-only operation; `Ok(false)` otherwise.
fn ternary(v: &mut Valu<'_>) -> Result<bool, Fault> {
    use Opcode::*;
    let ieee = v.mode.ieee;
    let clamp = v.clamp();
    let lanes = v.w.lanes() as usize;
    match v.inst.opcode {
        V_MAD_U32_U24 => v.map3(|a, b, c| {
            sat_u32(
                u64::from(a & 0xff_ffff) * u64::from(b & 0xff_ffff) + u64::from(c),
                clamp,
            )
        })?,
        V_MAD_I32_I24 => v.map3(|a, b, c| sat_i32(i24(a) * i24(b) + i64::from(c as i32), clamp))?,
        V_MUL_LO_U32 => v.map2(u32::wrapping_mul)?,
        V_MUL_HI_U32 => v.map2(|a, b| ((u64::from(a) * u64::from(b)) >> 32) as u32)?,
        V_MUL_HI_I32 => {
            v.map2(|a, b| ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32)?
        }
        V_BFE_U32 => v.map3(|a, b, c| bfe(u64::from(a), b & 31, c & 31, 32, false) as u32)?,
        V_BFE_I32 => v.map3(|a, b, c| bfe(u64::from(a), b & 31, c & 31, 32, true) as u32)?,
        V_BFI_B32 => v.map3(|a, b, c| (a & b) | (!a & c))?,
        V_BFM_B32 => v.map2(|a, b| ((1u32 << (a & 31)).wrapping_sub(1)) << (b & 31))?,
        V_ALIGNBIT_B32 => {
            v.map3(|a, b, c| ((u64::from(a) << 32 | u64::from(b)) >> (c & 31)) as u32)?
        }
        V_ALIGNBYTE_B32 => {
            v.map3(|a, b, c| ((u64::from(a) << 32 | u64::from(b)) >> (8 * (c & 3))) as u32)?
        }
        V_LERP_U8 => v.map3(|a, b, c| {
            (0..4).fold(0, |acc, i| {
                let byte = |x: u32| (x >> (8 * i)) & 0xff;
                acc | ((byte(a) + byte(b) + (byte(c) & 1)) >> 1) << (8 * i)
            })
        })?,
        V_SAD_U8 => {
            v.map3(|a, b, c| sat_u32(u64::from(sad_bytes(a, b, false)) + u64::from(c), clamp))?
        }
        V_MSAD_U8 => {
            v.map3(|a, b, c| sat_u32(u64::from(sad_bytes(a, b, true)) + u64::from(c), clamp))?
        }
        V_SAD_HI_U8 => v.map3(|a, b, c| {
            sat_u32(
                (u64::from(sad_bytes(a, b, false)) << 16) + u64::from(c),
                clamp,
            )
        })?,
        // RDNA2 ISA: D.u = ABS_DIFF(S0[15:0], S1[15:0]) + S2.u (one pair of
        // halves; the 16-bit sources are the low halves, op_sel aside).
        V_SAD_U16 => {
            // The table's b16 destination is a full 32-bit result (the sum
            // carries past bit 15): no 16-bit write-back.
            let (a, b, c) = (v.src(0)?, v.src(1)?, v.src(2)?);
            let mut r = [0u32; 64];
            each_lane(v.exec, |l| {
                let d = u64::from((a[l] as u16).abs_diff(b[l] as u16)) + u64::from(c[l]);
                r[l] = sat_u32(d, clamp);
            });
            let (n, exec) = (v.vdst()?, v.exec);
            let dst = v.w.vgpr_mut(n)?;
            each_lane(exec, |l| dst[l] = r[l]);
        }
        V_SAD_U32 => v.map3(|a, b, c| sat_u32(u64::from(a.abs_diff(b)) + u64::from(c), clamp))?,
        V_PERM_B32 => v.map3(perm)?,
        V_XAD_U32 => v.map3(|a, b, c| (a ^ b).wrapping_add(c))?,
        V_LSHL_ADD_U32 => v.map3(|a, b, c| (a << (b & 31)).wrapping_add(c))?,
        V_ADD_LSHL_U32 => v.map3(|a, b, c| a.wrapping_add(b) << (c & 31))?,
        V_ADD3_U32 => {
            v.map3(|a, b, c| sat_u32(u64::from(a) + u64::from(b) + u64::from(c), clamp))?
        }
        V_LSHL_OR_B32 => v.map3(|a, b, c| (a << (b & 31)) | c)?,
        V_AND_OR_B32 => v.map3(|a, b, c| (a & b) | c)?,
        V_OR3_B32 => v.map3(|a, b, c| a | b | c)?,
        V_XOR3_B32 => v.map3(|a, b, c| a ^ b ^ c)?,
        V_MIN3_I32 => v.map3(|a, b, c| (a as i32).min(b as i32).min(c as i32) as u32)?,
        V_MAX3_I32 => v.map3(|a, b, c| (a as i32).max(b as i32).max(c as i32) as u32)?,
        V_MED3_I32 => v.map3(|a, b, c| med3(a as i32, b as i32, c as i32) as u32)?,
        V_MIN3_U32 => v.map3(|a, b, c| a.min(b).min(c))?,
        V_MAX3_U32 => v.map3(|a, b, c| a.max(b).max(c))?,
        V_MED3_U32 => v.map3(med3)?,
        V_MIN3_I16 => v.map3(|a, b, c| (a as i16).min(b as i16).min(c as i16) as u16 as u32)?,
        V_MAX3_I16 => v.map3(|a, b, c| (a as i16).max(b as i16).max(c as i16) as u16 as u32)?,
        V_MED3_I16 => v.map3(|a, b, c| med3(a as i16, b as i16, c as i16) as u16 as u32)?,
        V_MIN3_U16 => v.map3(|a, b, c| u32::from((a as u16).min(b as u16).min(c as u16)))?,
        V_MAX3_U16 => v.map3(|a, b, c| u32::from((a as u16).max(b as u16).max(c as u16)))?,
        V_MED3_U16 => v.map3(|a, b, c| u32::from(med3(a as u16, b as u16, c as u16)))?,
        V_MAD_U16 => v.map3(|a, b, c| {
            let x = (a & 0xffff) * (b & 0xffff) + (c & 0xffff);
            if clamp {
                x.min(0xffff)
            } else {
                x & 0xffff
            }
        })?,
        V_MAD_I16 => v.map3(|a, b, c| {
            let x = i32::from(a as i16) * i32::from(b as i16) + i32::from(c as i16);
            let x = if clamp { x.clamp(-32768, 32767) } else { x };
            x as u16 as u32
        })?,
        V_MAD_U32_U16 => {
            v.map3(|a, b, c| sat_u32(u64::from((a & 0xffff) * (b & 0xffff)) + u64::from(c), clamp))?
        }
        V_MAD_I32_I16 => v.map3(|a, b, c| {
            let p = i64::from(i32::from(a as i16) * i32::from(b as i16));
            sat_i32(p + i64::from(c as i32), clamp)
        })?,
        V_BCNT_U32_B32 => v.map2(|a, b| a.count_ones().wrapping_add(b))?,
        V_MBCNT_LO_U32_B32 | V_MBCNT_HI_U32_B32 => {
            let hi = v.inst.opcode == V_MBCNT_HI_U32_B32;
            let a = v.src(0)?;
            let b = v.src(1)?;
            let mut r = [0u32; 64];
            each_lane(v.exec, |l| {
                let below = (1u64 << l) - 1;
                let m = if hi {
                    (below >> 32) as u32
                } else {
                    below as u32
                };
                r[l] = (a[l] & m).count_ones().wrapping_add(b[l]);
            });
            v.write(&r)?;
        }
        V_CVT_PK_U16_U32 => v.map2(|a, b| a.min(0xffff) | b.min(0xffff) << 16)?,
        V_CVT_PK_I16_I32 => v.map2(|a, b| {
            let s = |x: u32| (x as i32).clamp(-32768, 32767) as u16 as u32;
            s(a) | s(b) << 16
        })?,
        V_CVT_PKNORM_I16_F32 | V_CVT_PKNORM_U16_F32 | V_CVT_PKNORM_I16_F16
        | V_CVT_PKNORM_U16_F16 => {
            let op = v.inst.opcode;
            let signed = matches!(op, V_CVT_PKNORM_I16_F32 | V_CVT_PKNORM_I16_F16);
            let fmt = if matches!(op, V_CVT_PKNORM_I16_F32 | V_CVT_PKNORM_U16_F32) {
                F32
            } else {
                F16
            };
            v.map2(|a, b| norm16(fmt, a, signed) | norm16(fmt, b, signed) << 16)?
        }
        V_CVT_PK_U8_F32 => {
            let m = v.fp(F32);
            v.map3(|a, b, c| {
                let byte =
                    fp::to_int(F32, u64::from(a), fp::IntRound::NearestEven, 0, 255, m) as u32;
                let shift = 8 * (b & 3);
                (c & !(0xff << shift)) | byte << shift
            })?
        }
        V_PACK_B32_F16 => v.map2(|a, b| (a & 0xffff) | b << 16)?,
        V_LSHLREV_B64 | V_LSHRREV_B64 | V_ASHRREV_I64 => {
            let op = v.inst.opcode;
            let s = v.src(0)?;
            let x = v.src64(1)?;
            let mut r = [0u64; 64];
            each_lane(v.exec, |l| {
                let n = s[l] & 63;
                r[l] = match op {
                    V_LSHLREV_B64 => x[l] << n,
                    V_LSHRREV_B64 => x[l] >> n,
                    _ => ((x[l] as i64) >> n) as u64,
                };
            });
            v.write64(&r)?;
        }
        V_MAD_U64_U32 | V_MAD_I64_I32 => {
            let signed = v.inst.opcode == V_MAD_I64_I32;
            let a = v.src(0)?;
            let b = v.src(1)?;
            let c = v.src64(2)?;
            let mut r = [0u64; 64];
            let mut carry = 0u64;
            each_lane(v.exec, |l| {
                let (x, o) = if signed {
                    let p = i64::from(a[l] as i32) * i64::from(b[l] as i32);
                    let (x, o) = p.overflowing_add(c[l] as i64);
                    // clamp: an overflow needs product and addend of one
                    // sign, so the addend's sign says which bound.
                    let bound = if (c[l] as i64) < 0 {
                        i64::MIN
                    } else {
                        i64::MAX
                    };
                    ((if o && clamp { bound } else { x }) as u64, o)
                } else {
                    let (x, o) = (u64::from(a[l]) * u64::from(b[l])).overflowing_add(c[l]);
                    (if o && clamp { u64::MAX } else { x }, o)
                };
                r[l] = x;
                carry |= u64::from(o) << l;
            });
            v.write64(&r)?;
            v.write_mask_out(carry)?;
        }
        V_READLANE_B32 => {
            let (src, _) = v.operand(Field::Src0, 0)?;
            let (sel, _) = v.operand(Field::Src1, 0)?;
            let lane = v.w.read_scalar(&sel)? as usize % lanes;
            let value = v.w.read_lanes(&src)?[lane];
            let (dst, _) = v.operand(Field::Sdst, 0)?;
            v.w.write_scalar(&dst, value)?;
        }
        V_WRITELANE_B32 => {
            let (src, _) = v.operand(Field::Src0, 0)?;
            let (sel, _) = v.operand(Field::Src1, 0)?;
            let value = v.w.read_scalar(&src)?;
            let lane = v.w.read_scalar(&sel)? as usize % lanes;
            let n = v.vdst()?;
            v.w.vgpr_mut(n)?[lane] = value;
        }
        V_PERMLANE16_B32 | V_PERMLANEX16_B32 => {
            let cross = v.inst.opcode == V_PERMLANEX16_B32;
            let a = v.src(0)?;
            let (s1, _) = v.operand(Field::Src1, 0)?;
            let (s2, _) = v.operand(Field::Src2, 0)?;
            let sel = u64::from(v.w.read_scalar(&s1)?) | u64::from(v.w.read_scalar(&s2)?) << 32;
            // op_sel[0] is FI (read inactive source lanes too), op_sel[1]
            // BOUND_CTRL: a lane whose source lane is inactive gets 0 with
            // it, else keeps its old value (as DPP; LLVM's syntax
            // `op_sel:[fi,bound_ctrl]`).
            let fi = v.inst.modifiers.op_sel & 1 != 0;
            let bound = v.inst.modifiers.op_sel & 2 != 0;
            let exec = v.exec;
            let mut r = *v.w.vgpr(v.vdst()?)?;
            each_lane(exec, |l| {
                let row = if cross { (l & !15) ^ 16 } else { l & !15 };
                let from = row + (sel >> (4 * (l & 15)) & 15) as usize;
                if fi || exec >> from & 1 != 0 {
                    r[l] = a[from];
                } else if bound {
                    r[l] = 0;
                }
            });
            v.write(&r)?;
        }
        // Floating point.
        V_FMA_F32 => v.fmap3(F32, |a, b, c, m| fp::fma(F32, a, b, c, m))?,
        V_MAD_F32 => v.fmap3(F32, |a, b, c, m| fp::mad(F32, a, b, c, m))?,
        V_FMA_F16 => v.fmap3(F16, |a, b, c, m| fp::fma(F16, a, b, c, m))?,
        V_MAD_F16 => v.fmap3(F16, |a, b, c, m| fp::mad(F16, a, b, c, m))?,
        V_FMA_LEGACY_F32 | V_MAD_LEGACY_F32 => {
            let fused = v.inst.opcode == V_FMA_LEGACY_F32;
            v.fmap3(F32, move |a, b, c, m| {
                // v_mad_legacy_f32, like v_mad_f32, has no denormal support.
                let m = if fused {
                    m
                } else {
                    fp::FpMode {
                        denorm_in: false,
                        denorm_out: false,
                        ..m
                    }
                };
                let (fa, fb) = (fp::flush_in(F32, a, m), fp::flush_in(F32, b, m));
                if let Some(zero) = vop2::legacy_zero(fa, fb) {
                    fp::add(F32, zero, c, m)
                } else if fused {
                    fp::fma(F32, a, b, c, m)
                } else {
                    fp::mad(F32, a, b, c, m)
                }
            })?
        }
        V_FMA_F64 => v.dmap(3, |a, b, c, m| fp::fma(F64, a, b, c, m))?,
        V_ADD_F64 => v.dmap(2, |a, b, _, m| fp::add(F64, a, b, m))?,
        V_MUL_F64 => v.dmap(2, |a, b, _, m| fp::mul(F64, a, b, m))?,
        V_MIN_F64 => v.dmap(2, move |a, b, _, m| fp::min_max(F64, a, b, false, ieee, m))?,
        V_MAX_F64 => v.dmap(2, move |a, b, _, m| fp::min_max(F64, a, b, true, ieee, m))?,
        V_LDEXP_F64 => {
            let a = v.src64(0)?;
            let n = v.src(1)?;
            let m = v.fp(F64);
            let mut r = [0u64; 64];
            each_lane(v.exec, |l| {
                r[l] = v.post(F64, fp::ldexp(F64, a[l], n[l] as i32, m))
            });
            v.write64(&r)?;
        }
        V_MIN3_F32 | V_MAX3_F32 | V_MIN3_F16 | V_MAX3_F16 => {
            let op = v.inst.opcode;
            let fmt = if matches!(op, V_MIN3_F32 | V_MAX3_F32) {
                F32
            } else {
                F16
            };
            let max = matches!(op, V_MAX3_F32 | V_MAX3_F16);
            v.fmap3(fmt, move |a, b, c, m| {
                let t = fp::min_max(fmt, a, b, max, ieee, m);
                fp::min_max(fmt, t, c, max, ieee, m)
            })?
        }
        V_MED3_F32 => v.fmap3(F32, move |a, b, c, m| fp::med3(F32, a, b, c, ieee, m))?,
        V_MED3_F16 => v.fmap3(F16, move |a, b, c, m| fp::med3(F16, a, b, c, ieee, m))?,
        V_DIV_FIXUP_F32 => v.fmap3(F32, |a, b, c, m| div_fixup(F32, a, b, c, m))?,
        V_DIV_FIXUP_F16 => v.fmap3(F16, |a, b, c, m| div_fixup(F16, a, b, c, m))?,
        V_DIV_FIXUP_F64 => v.dmap(3, |a, b, c, m| div_fixup(F64, a, b, c, m))?,
        V_DIV_FMAS_F32 | V_DIV_FMAS_F64 => {
            let vcc = v.w.vcc();
            // The inverse of div_scale's 2^64 (f64: 2^128): up when the
            // quotient estimate S2 is at least 1 (a denominator scaled up),
            // else down (docs/floating-point.md: the guide's fixed 2^32 /
            // 2^64 cannot give a correctly rounded quotient).
            let (fmt, scale) = if v.inst.opcode == V_DIV_FMAS_F32 {
                (F32, 64)
            } else {
                (F64, 128)
            };
            let m = v.fp(fmt);
            let wide = fmt == F64;
            let (a, b, c) = if wide {
                (v.src64(0)?, v.src64(1)?, v.src64(2)?)
            } else {
                (
                    v.src(0)?.map(u64::from),
                    v.src(1)?.map(u64::from),
                    v.src(2)?.map(u64::from),
                )
            };
            let mut r = [0u64; 64];
            each_lane(v.exec, |l| {
                // The scale applies before the one rounding (a denormal
                // quotient keeps its bits; issue 14: this model rounded first).
                let x = if vcc >> l & 1 != 0 {
                    let up = exponent(fmt, c[l]) >= fmt.bias();
                    let s = if up { scale } else { -scale };
                    fp::fma_scaled(fmt, a[l], b[l], c[l], s, m)
                } else {
                    fp::fma(fmt, a[l], b[l], c[l], m)
                };
                r[l] = v.post(fmt, x);
            });
            if wide {
                v.write64(&r)?;
            } else {
                v.write(&r.map(|x| x as u32))?;
            }
        }
        V_DIV_SCALE_F32 | V_DIV_SCALE_F64 => div_scale(v)?,
        _ => return Ok(false),
    }
    Ok(true)
}

/// `v_div_fixup`: special cases of `S2 / S1` given the quotient `S0`.
fn div_fixup(fmt: Format, q: u64, d: u64, n: u64, m: fp::FpMode) -> u64 {
    // The pseudo-code's tests (`S1.f == 0`, …) are float compares, so
    // denormal inputs read as zero when MODE flushes them (issue 14: the
    // clocked GPU did, this model did not).
    let [q, d, n] = [q, d, n].map(|x| fp::flush_in(fmt, x, m));
    let sign = fmt.sign(d) != fmt.sign(n);
    if fmt.is_nan(n) {
        fmt.quiet(n)
    } else if fmt.is_nan(d) {
        fmt.quiet(d)
    } else if (fmt.is_zero(d) && fmt.is_zero(n)) || (fmt.is_inf(d) && fmt.is_inf(n)) {
        fmt.default_nan()
    } else if fmt.is_zero(d) || fmt.is_inf(n) {
        fmt.inf(sign)
    } else if fmt.is_inf(d) || fmt.is_zero(n) {
        fmt.zero(sign)
    } else if exponent(fmt, n) - exponent(fmt, d) < -(fmt.bias() + fmt.man_bits as i32) {
        // The guide's UNDERFLOW case: below half the smallest denormal.
        fmt.zero(sign)
    } else if fmt.is_nan(q) {
        // Finite operands and a NaN estimate: it overflowed (GCN3 guide:
        // the signed infinity; issue 29 follow-up, `DBL_MAX / DBL_MIN`).
        fmt.inf(sign)
    } else {
        fmt.abs(q) | fmt.zero(sign)
    }
}

/// Biased exponent field.
fn exponent(fmt: Format, x: u64) -> i32 {
    ((x & fmt.exp_mask()) >> fmt.man_bits) as i32
}

/// `v_div_scale`: scales the numerator or denominator of a division away from
/// the denormal/overflow range and sets VCC when the quotient must be scaled
/// back (AMD's pseudo-code, `docs/floating-point.md`).
fn div_scale(v: &mut Valu<'_>) -> Result<(), Fault> {
    let wide = v.inst.opcode == Opcode::V_DIV_SCALE_F64;
    let (fmt, big, tiny, scale) = if wide {
        (F64, 768, 53, 128)
    } else {
        (F32, 96, 23, 64)
    };
    let m = v.fp(fmt);
    let (a, b, c) = if wide {
        (v.src64(0)?, v.src64(1)?, v.src64(2)?)
    } else {
        (
            v.src(0)?.map(u64::from),
            v.src(1)?.map(u64::from),
            v.src(2)?.map(u64::from),
        )
    };
    let ieee = fp::FpMode::IEEE;
    let mut r = [0u64; 64];
    let mut vcc = 0u64;
    each_lane(v.exec, |l| {
        // Inputs as MODE reads them (the pseudo-code's `S1 == 0` is a float
        // compare), and a NaN is never "the same operand" (issue 14: the
        // clocked GPU did both, this model neither).
        let (s0, s1, s2) = (
            fp::flush_in(fmt, a[l], m),
            fp::flush_in(fmt, b[l], m),
            fp::flush_in(fmt, c[l], m),
        );
        let same = |x: u64, y: u64| x == y && !fmt.is_nan(x);
        let up = fp::ldexp(fmt, s0, scale, m);
        let rcp_denorm = fmt.is_denormal(fp::rcp(fmt, s1, ieee));
        let quot_denorm = fmt.is_denormal(fp::div(fmt, s2, s1, ieee));
        let (d, flag) = if fmt.is_zero(s2) || fmt.is_zero(s1) {
            (fmt.default_nan(), false)
        } else if exponent(fmt, s2) - exponent(fmt, s1) >= big {
            (if same(s0, s1) { up } else { s0 }, true)
        } else if fmt.is_denormal(s1) {
            (up, false)
        } else if rcp_denorm && quot_denorm {
            // Scaled down, not up as the guide says: a denominator whose
            // reciprocal is denormal overflows by 2^scale (`1.0 / DBL_MAX`
            // gave NaN); div_fmas scales the small quotient back down.
            (
                if same(s0, s1) {
                    fp::ldexp(fmt, s0, -scale, m)
                } else {
                    s0
                },
                true,
            )
        } else if rcp_denorm {
            (fp::ldexp(fmt, s0, -scale, m), false)
        } else if quot_denorm {
            (if same(s0, s2) { up } else { s0 }, true)
        } else if exponent(fmt, s2) <= tiny {
            (up, false)
        } else {
            (s0, false)
        };
        // omod and clamp apply to the scaled value, as on the clocked GPU.
        r[l] = v.post(fmt, d);
        vcc |= u64::from(flag) << l;
    });
    if wide {
        v.write64(&r)?;
    } else {
        v.write(&r.map(|x| x as u32))?;
    }
    v.write_mask_out(vcc)
}
