//! VOP1 semantics: one-source vector operations (moves, conversions, unary
//! float functions, bit scans), in their `_e32`, SDWA, DPP and `_e64` forms.
//!
//! Floating point follows `docs/floating-point.md`: MODE rounding and
//! denormals, correctly rounded `v_rcp`/`v_rsq`/`v_sqrt`, `v_exp`/`v_log`/
//! `v_sin`/`v_cos` through host `f64` functions. Float-to-integer conversions
//! truncate (except `rpi`/`flr`), saturate, and turn NaN into 0.

use arch::device::Fault;
use arch::isa::tables::Field;
use arch::isa::{Instruction, Opcode, Operand};

use super::{each_lane, narrow, Valu};
use crate::exec::{not_implemented, Flow, WaveCtx};
use crate::fp::{self, Format, FpMode, IntRound, F16, F32, F64};

/// Executes one VOP1 instruction.
pub fn execute(ctx: &mut WaveCtx<'_>, inst: &Instruction) -> Result<Flow, Fault> {
    let mut v = Valu::new(ctx.wave, inst)?;
    if unary(&mut v)? || super::rare::execute(&mut v)? {
        Ok(Flow::Next)
    } else {
        Err(not_implemented(inst))
    }
}

/// `f(x)` computed in host `f64` and rounded to `fmt` (nearest-even, MODE
/// output denormals): the transcendental functions.
fn via_f64(fmt: Format, x: u64, m: FpMode, f: impl Fn(f64) -> f64) -> u64 {
    let x = fp::flush_in(fmt, x, m);
    if fmt.is_nan(x) {
        return fmt.quiet(x);
    }
    let d = f64::from_bits(fp::convert(fmt, F64, x, m, FpMode::IEEE));
    let r = f(d).to_bits();
    if F64.is_nan(r) {
        return fmt.default_nan();
    }
    fp::convert(
        F64,
        fmt,
        r,
        FpMode::IEEE,
        m.with_round(fp::Round::NearestEven),
    )
}

/// Runs `v`'s opcode if it is a one-source operation; `Ok(false)` otherwise.
pub(super) fn unary(v: &mut Valu<'_>) -> Result<bool, Fault> {
    use Opcode::*;
    let i32r = (i64::from(i32::MIN), i64::from(i32::MAX));
    let u32r = (0, i64::from(u32::MAX));
    match v.inst.opcode {
        V_NOP | V_CLREXCP | V_PIPEFLUSH => {}
        V_MOV_B32 => v.map1(|a| a)?,
        V_NOT_B32 => v.map1(|a| !a)?,
        V_BFREV_B32 => v.map1(u32::reverse_bits)?,
        V_FFBH_U32 => v.map1(|a| if a == 0 { u32::MAX } else { a.leading_zeros() })?,
        V_FFBL_B32 => v.map1(|a| if a == 0 { u32::MAX } else { a.trailing_zeros() })?,
        V_FFBH_I32 => v.map1(|a| {
            let n = if (a as i32) < 0 { !a } else { a };
            if a == 0 || a == u32::MAX {
                u32::MAX
            } else {
                // The sign bit counts (RDNA2 ISA: leading bits equal to
                // the sign bit; LLVM lowers `cls` as this minus one).
                n.leading_zeros()
            }
        })?,
        V_READFIRSTLANE_B32 => {
            let (src, _) = v.operand(Field::Src0, 0)?;
            let vals = v.w.read_lanes(&src)?;
            let exec = v.w.exec();
            let lane = if exec == 0 {
                0
            } else {
                exec.trailing_zeros() as usize
            };
            let (dst, _) = v.operand(Field::Sdst, 0)?;
            v.w.write_scalar(&dst, vals[lane])?;
        }
        V_SAT_PK_U8_I16 => v.map1(|a| {
            let s = |h: u32| (h as u16 as i16).clamp(0, 255) as u32;
            s(a) | s(a >> 16) << 8
        })?,
        V_CVT_NORM_I16_F16 => v.map1(|a| norm16(F16, a, true))?,
        V_CVT_NORM_U16_F16 => v.map1(|a| norm16(F16, a, false))?,
        // Conversions.
        V_CVT_F32_I32 => v.fmap1(F32, |a, m| fp::from_i64(F32, i64::from(a as i32), m))?,
        V_CVT_F32_U32 => v.fmap1(F32, |a, m| fp::from_u64(F32, a, m))?,
        V_CVT_I32_F32 => int_from(v, F32, IntRound::Trunc, i32r)?,
        V_CVT_U32_F32 => int_from(v, F32, IntRound::Trunc, u32r)?,
        V_CVT_RPI_I32_F32 => int_from(v, F32, IntRound::HalfUp, i32r)?,
        V_CVT_FLR_I32_F32 => int_from(v, F32, IntRound::Floor, i32r)?,
        V_CVT_I16_F16 => int_from(v, F16, IntRound::Trunc, (-32768, 32767))?,
        V_CVT_U16_F16 => int_from(v, F16, IntRound::Trunc, (0, 65535))?,
        V_CVT_F16_I16 => v.fmap1(F16, |a, m| fp::from_i64(F16, i64::from(a as i16), m))?,
        V_CVT_F16_U16 => v.fmap1(F16, |a, m| fp::from_u64(F16, a & 0xffff, m))?,
        V_CVT_F16_F32 => {
            let m32 = v.fp(F32);
            let a = v.src(0)?;
            let m16 = v.fp(F16);
            let mut r = [0u32; 64];
            each_lane(v.exec, |l| {
                let h = fp::convert(F32, F16, u64::from(a[l]), m32, m16);
                r[l] = v.post(F16, h) as u32;
            });
            v.write(&r)?;
        }
        V_CVT_F32_F16 => {
            let m16 = v.fp(F16);
            v.fmap1(F32, |a, m| fp::convert(F16, F32, a & 0xffff, m16, m))?
        }
        V_CVT_OFF_F32_I4 => v.fmap1(F32, |a, m| {
            let n = ((a as u32) << 28) as i32 >> 28;
            fp::ldexp(F32, fp::from_i64(F32, i64::from(n), m), -4, m)
        })?,
        V_CVT_F32_UBYTE0 | V_CVT_F32_UBYTE1 | V_CVT_F32_UBYTE2 | V_CVT_F32_UBYTE3 => {
            let shift = match v.inst.opcode {
                V_CVT_F32_UBYTE0 => 0,
                V_CVT_F32_UBYTE1 => 8,
                V_CVT_F32_UBYTE2 => 16,
                _ => 24,
            };
            v.fmap1(F32, move |a, m| fp::from_u64(F32, (a >> shift) & 0xff, m))?
        }
        V_CVT_F64_I32 | V_CVT_F64_U32 => {
            let signed = v.inst.opcode == V_CVT_F64_I32;
            let a = v.src(0)?;
            let m = v.fp(F64);
            let mut r = [0u64; 64];
            each_lane(v.exec, |l| {
                let x = if signed {
                    fp::from_i64(F64, i64::from(a[l] as i32), m)
                } else {
                    fp::from_u64(F64, u64::from(a[l]), m)
                };
                r[l] = v.post(F64, x);
            });
            v.write64(&r)?;
        }
        V_CVT_F64_F32 => {
            let a = v.src(0)?;
            let (m32, m64) = (v.fp(F32), v.fp(F64));
            let mut r = [0u64; 64];
            each_lane(v.exec, |l| {
                r[l] = v.post(F64, fp::convert(F32, F64, u64::from(a[l]), m32, m64));
            });
            v.write64(&r)?;
        }
        V_CVT_F32_F64 | V_CVT_I32_F64 | V_CVT_U32_F64 | V_FREXP_EXP_I32_F64 => {
            let op = v.inst.opcode;
            let a = v.src64(0)?;
            let (m32, m64) = (v.fp(F32), v.fp(F64));
            let mut r = [0u32; 64];
            each_lane(v.exec, |l| {
                r[l] = match op {
                    V_CVT_F32_F64 => v.post(F32, fp::convert(F64, F32, a[l], m64, m32)) as u32,
                    V_CVT_I32_F64 => {
                        fp::to_int(F64, a[l], IntRound::Trunc, i32r.0, i32r.1, m64) as u32
                    }
                    V_CVT_U32_F64 => {
                        fp::to_int(F64, a[l], IntRound::Trunc, u32r.0, u32r.1, m64) as u32
                    }
                    _ => fp::frexp_exp(F64, a[l], m64) as u32,
                };
            });
            v.write(&r)?;
        }
        // f64 unary.
        V_TRUNC_F64 => v.dmap(1, |a, _, _, m| fp::to_integral(F64, a, IntRound::Trunc, m))?,
        V_CEIL_F64 => v.dmap(1, |a, _, _, m| fp::to_integral(F64, a, IntRound::Ceil, m))?,
        V_FLOOR_F64 => v.dmap(1, |a, _, _, m| fp::to_integral(F64, a, IntRound::Floor, m))?,
        V_RNDNE_F64 => v.dmap(1, |a, _, _, m| {
            fp::to_integral(F64, a, IntRound::NearestEven, m)
        })?,
        V_FRACT_F64 => v.dmap(1, |a, _, _, m| fp::fract(F64, a, m))?,
        V_RCP_F64 => v.dmap(1, |a, _, _, m| fp::rcp(F64, a, m))?,
        V_RSQ_F64 => v.dmap(1, |a, _, _, m| fp::rsq(F64, a, m))?,
        V_SQRT_F64 => v.dmap(1, |a, _, _, m| fp::sqrt(F64, a, m))?,
        V_FREXP_MANT_F64 => v.dmap(1, |a, _, _, m| fp::frexp_mant(F64, a, m))?,
        // Integer results: a float `clamp` must not touch them (issue 14:
        // this model clamped -85 to 0; the exponent is the result).
        V_FREXP_EXP_I32_F32 | V_FREXP_EXP_I16_F16 => {
            let Some((fmt, f)) = float_unary(v.inst.opcode) else {
                return moves(v);
            };
            let m = v.fp(fmt);
            let a = v.src(0)?;
            let mut r = [0u32; 64];
            each_lane(v.exec, |l| r[l] = f(narrow(fmt, a[l]), m) as u32);
            v.write(&r)?;
        }
        // f32 / f16 unary.
        op => {
            let Some((fmt, f)) = float_unary(op) else {
                return moves(v);
            };
            v.fmap1(fmt, f)?;
        }
    }
    Ok(true)
}

type Unary = fn(u64, FpMode) -> u64;

/// The f32/f16 one-source float functions.
pub(in crate::exec) fn float_unary(op: Opcode) -> Option<(Format, Unary)> {
    use std::f64::consts::TAU;
    use Opcode::*;
    Some(match op {
        V_TRUNC_F32 => (F32, |a, m| fp::to_integral(F32, a, IntRound::Trunc, m)),
        V_CEIL_F32 => (F32, |a, m| fp::to_integral(F32, a, IntRound::Ceil, m)),
        V_FLOOR_F32 => (F32, |a, m| fp::to_integral(F32, a, IntRound::Floor, m)),
        V_RNDNE_F32 => (F32, |a, m| {
            fp::to_integral(F32, a, IntRound::NearestEven, m)
        }),
        V_FRACT_F32 => (F32, |a, m| fp::fract(F32, a, m)),
        V_RCP_F32 | V_RCP_IFLAG_F32 => (F32, |a, m| fp::rcp(F32, a, m)),
        V_RSQ_F32 => (F32, |a, m| fp::rsq(F32, a, m)),
        V_SQRT_F32 => (F32, |a, m| fp::sqrt(F32, a, m)),
        V_EXP_F32 | V_EXP_LEGACY_F32 => (F32, |a, m| via_f64(F32, a, m, f64::exp2)),
        V_LOG_F32 | V_LOG_LEGACY_F32 => (F32, |a, m| via_f64(F32, a, m, f64::log2)),
        V_SIN_F32 => (F32, |a, m| via_f64(F32, a, m, |x| (x * TAU).sin())),
        V_COS_F32 => (F32, |a, m| via_f64(F32, a, m, |x| (x * TAU).cos())),
        V_FREXP_MANT_F32 => (F32, |a, m| fp::frexp_mant(F32, a, m)),
        V_FREXP_EXP_I32_F32 => (F32, |a, m| fp::frexp_exp(F32, a, m) as u32 as u64),
        V_TRUNC_F16 => (F16, |a, m| fp::to_integral(F16, a, IntRound::Trunc, m)),
        V_CEIL_F16 => (F16, |a, m| fp::to_integral(F16, a, IntRound::Ceil, m)),
        V_FLOOR_F16 => (F16, |a, m| fp::to_integral(F16, a, IntRound::Floor, m)),
        V_RNDNE_F16 => (F16, |a, m| {
            fp::to_integral(F16, a, IntRound::NearestEven, m)
        }),
        V_FRACT_F16 => (F16, |a, m| fp::fract(F16, a, m)),
        V_RCP_F16 => (F16, |a, m| fp::rcp(F16, a, m)),
        V_RSQ_F16 => (F16, |a, m| fp::rsq(F16, a, m)),
        V_SQRT_F16 => (F16, |a, m| fp::sqrt(F16, a, m)),
        V_EXP_F16 => (F16, |a, m| via_f64(F16, a, m, f64::exp2)),
        V_LOG_F16 => (F16, |a, m| via_f64(F16, a, m, f64::log2)),
        V_SIN_F16 => (F16, |a, m| via_f64(F16, a, m, |x| (x * TAU).sin())),
        V_COS_F16 => (F16, |a, m| via_f64(F16, a, m, |x| (x * TAU).cos())),
        V_FREXP_MANT_F16 => (F16, |a, m| fp::frexp_mant(F16, a, m)),
        V_FREXP_EXP_I16_F16 => (F16, |a, m| u64::from(fp::frexp_exp(F16, a, m) as u16)),
        _ => return None,
    })
}

/// Float to integer with saturation to `[lo, hi]` (no omod/clamp).
fn int_from(
    v: &mut Valu<'_>,
    fmt: Format,
    dir: IntRound,
    (lo, hi): (i64, i64),
) -> Result<(), Fault> {
    let m = v.fp(fmt);
    let a = v.src(0)?;
    let mut r = [0u32; 64];
    each_lane(v.exec, |l| {
        let x = fp::to_int(fmt, narrow(fmt, a[l]), dir, lo, hi, m) as u32;
        // A 16-bit result is its 16 bits (zero-extended where SDWA
        // dst_sel:DWORD writes the dword), as on the clocked GPU (issue 14).
        r[l] = if hi <= 0xffff { x & 0xffff } else { x };
    });
    v.write(&r)
}

/// `v_movrel*`, `v_swap*`: VGPR-indexed moves.
fn moves(v: &mut Valu<'_>) -> Result<bool, Fault> {
    use Opcode::*;
    let op = v.inst.opcode;
    if !matches!(
        op,
        V_MOVRELD_B32 | V_MOVRELS_B32 | V_MOVRELSD_B32 | V_MOVRELSD_2_B32 | V_SWAP_B32
    ) {
        return Ok(false);
    }
    let m0 = v.w.m0();
    let d = v.vdst()?;
    let (src, _) = v.operand(Field::Src0, 0)?;
    let exec = v.exec;
    let vgpr_src = |v: &Valu<'_>, add: u32| -> Result<[u32; 64], Fault> {
        match src {
            Operand::Src { .. } if v.w.vgpr_index(&src).is_ok() => {
                let n = v.w.vgpr_index(&src)?;
                Ok(*v.w.vgpr(n.wrapping_add(add as u16))?)
            }
            _ => v.w.read_lanes(&src),
        }
    };
    let (dst, vals) = match op {
        V_MOVRELD_B32 => (d.wrapping_add(m0 as u16), v.w.read_lanes(&src)?),
        V_MOVRELS_B32 => (d, vgpr_src(v, m0)?),
        V_MOVRELSD_B32 => (d.wrapping_add(m0 as u16), vgpr_src(v, m0)?),
        V_MOVRELSD_2_B32 => (
            d.wrapping_add((m0 >> 16 & 0x3ff) as u16),
            vgpr_src(v, m0 & 0x3ff)?,
        ),
        _ => {
            // v_swap_b32: both are VGPRs.
            let s = v.w.vgpr_index(&src)?;
            let a = *v.w.vgpr(d)?;
            let b = *v.w.vgpr(s)?;
            let src_reg = v.w.vgpr_mut(s)?;
            each_lane(exec, |l| src_reg[l] = a[l]);
            (d, b)
        }
    };
    let reg = v.w.vgpr_mut(dst)?;
    each_lane(exec, |l| reg[l] = vals[l]);
    Ok(true)
}

/// `v_cvt_*norm_*16`: a float in [-1, 1] (signed) or [0, 1] to a 16-bit
/// fixed-point value, rounded to nearest even; NaN gives 0.
pub(super) fn norm16(fmt: Format, x: u32, signed: bool) -> u32 {
    let bits = if fmt == F16 {
        u64::from(x & 0xffff)
    } else {
        u64::from(x)
    };
    let d = f64::from_bits(fp::convert(
        fmt,
        F64,
        bits,
        fp::FpMode::IEEE,
        fp::FpMode::IEEE,
    ));
    if d.is_nan() {
        return 0;
    }
    // The products are exact in f64 (at most 24 + 16 significant bits).
    let r = if signed {
        (d.clamp(-1.0, 1.0) * 32767.0).round_ties_even() as i32
    } else {
        (d.clamp(0.0, 1.0) * 65535.0).round_ties_even() as i32
    };
    r as u16 as u32
}
