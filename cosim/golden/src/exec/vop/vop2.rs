//! VOP2 semantics: two-source vector operations (integer and float
//! arithmetic, carries, shifts, bitwise, min/max, `v_cndmask`, the
//! accumulating `mac`/`fmac` and the `madmk`/`madak`/`fmamk`/`fmaak` forms),
//! in their `_e32`, SDWA, DPP and `_e64` forms.
//!
//! Carries: gfx803's `v_add_u32`/`v_sub_u32`/`v_subrev_u32` write a carry
//! (borrow) out, `v_addc_u32`/`v_subb_u32`/`v_subbrev_u32` also read one;
//! gfx1030 spells them `v_add_co_u32`, `v_add_co_ci_u32`, ... and has the
//! carry-less `v_add_nc_u32`. The carry mask is VCC in `_e32` and any SGPR
//! (pair) in `_e64`; lanes outside EXEC get carry 0.

use arch::device::Fault;
use arch::isa::tables::Field;
use arch::isa::{Instruction, Opcode};

use super::{each_lane, Valu};
use crate::exec::{not_implemented, Flow, WaveCtx};
use crate::fp::{self, F16, F32};
use crate::wave::illegal;

/// Executes one VOP2 instruction.
pub fn execute(ctx: &mut WaveCtx<'_>, inst: &Instruction) -> Result<Flow, Fault> {
    if inst.opcode == Opcode::V_ILLEGAL {
        // RDNA2: raises an illegal-instruction exception, whose trap handler
        // is not modelled (as for s_trap): the wave faults.
        return Err(illegal(
            "v_illegal raised an illegal-instruction exception (trap handlers are not modelled)",
        ));
    }
    let mut v = Valu::new(ctx.wave, inst)?;
    if binary(&mut v)? || super::vop3p::packed(&mut v)? {
        Ok(Flow::Next)
    } else {
        Err(not_implemented(inst))
    }
}

/// Sign-extends the low 24 bits.
#[inline]
fn i24(x: u32) -> i64 {
    i64::from(((x << 8) as i32) >> 8)
}

/// Runs `v`'s opcode if it is a two-source operation; `Ok(false)` otherwise.
pub(super) fn binary(v: &mut Valu<'_>) -> Result<bool, Fault> {
    use Opcode::*;
    let clamp = v.clamp();
    let ieee = v.mode.ieee;
    match v.inst.opcode {
        V_ADD_NC_U32 => v.map2(|a, b| {
            let (r, c) = a.overflowing_add(b);
            if c && clamp {
                u32::MAX
            } else {
                r
            }
        })?,
        V_SUB_NC_U32 => v.map2(|a, b| sub_u32(a, b, clamp))?,
        V_SUBREV_NC_U32 => v.map2(|a, b| sub_u32(b, a, clamp))?,
        V_ADD_NC_I32 => v.map2(|a, b| add_i32(a, b, clamp))?,
        // Exact difference, then saturate: negating b first overflows for
        // i32::MIN (`0 - i32::MIN` must clamp to i32::MAX).
        V_SUB_NC_I32 => v.map2(|a, b| {
            super::saturate::sat_i32(i64::from(a as i32) - i64::from(b as i32), clamp)
        })?,
        V_ADD_U32 | V_ADD_CO_U32 => {
            carry_op(v, false, false, |a, b, _| u64::from(a) + u64::from(b))?
        }
        V_SUB_U32 | V_SUB_CO_U32 => carry_op(v, false, true, |a, b, _| borrow(a, b, 0))?,
        V_SUBREV_U32 | V_SUBREV_CO_U32 => carry_op(v, false, true, |a, b, _| borrow(b, a, 0))?,
        V_ADDC_U32 | V_ADD_CO_CI_U32 => carry_op(v, true, false, |a, b, c| {
            u64::from(a) + u64::from(b) + u64::from(c)
        })?,
        V_SUBB_U32 | V_SUB_CO_CI_U32 => carry_op(v, true, true, borrow)?,
        V_SUBBREV_U32 | V_SUBREV_CO_CI_U32 => carry_op(v, true, true, |a, b, c| borrow(b, a, c))?,
        V_CNDMASK_B32 => {
            let a = v.src(0)?;
            let b = v.src(1)?;
            let cond = v.mask_in()?;
            let mut r = [0u32; 64];
            each_lane(v.exec, |l| {
                r[l] = if cond >> l & 1 != 0 { b[l] } else { a[l] }
            });
            v.write(&r)?;
        }
        V_MUL_I32_I24 => v.map2(|a, b| super::saturate::sat_i32(i24(a) * i24(b), clamp))?,
        V_MUL_HI_I32_I24 => v.map2(|a, b| ((i24(a) * i24(b)) >> 32) as u32)?,
        V_MUL_U32_U24 => v.map2(|a, b| {
            super::saturate::sat_u32(u64::from(a & 0xff_ffff) * u64::from(b & 0xff_ffff), clamp)
        })?,
        V_MUL_HI_U32_U24 => {
            v.map2(|a, b| ((u64::from(a & 0xff_ffff) * u64::from(b & 0xff_ffff)) >> 32) as u32)?
        }
        V_MIN_I32 => v.map2(|a, b| (a as i32).min(b as i32) as u32)?,
        V_MAX_I32 => v.map2(|a, b| (a as i32).max(b as i32) as u32)?,
        V_MIN_U32 => v.map2(u32::min)?,
        V_MAX_U32 => v.map2(u32::max)?,
        V_LSHRREV_B32 => v.map2(|a, b| b >> (a & 31))?,
        V_ASHRREV_I32 => v.map2(|a, b| ((b as i32) >> (a & 31)) as u32)?,
        V_LSHLREV_B32 => v.map2(|a, b| b << (a & 31))?,
        V_AND_B32 => v.map2(|a, b| a & b)?,
        V_OR_B32 => v.map2(|a, b| a | b)?,
        V_XOR_B32 => v.map2(|a, b| a ^ b)?,
        V_XNOR_B32 => v.map2(|a, b| !(a ^ b))?,
        // 16-bit integer.
        V_ADD_U16 | V_ADD_NC_U16 => v.map2(|a, b| {
            let s = (a & 0xffff) + (b & 0xffff);
            if clamp {
                s.min(0xffff)
            } else {
                s & 0xffff
            }
        })?,
        V_SUB_U16 | V_SUB_NC_U16 => v.map2(|a, b| sub_u16(a, b, clamp))?,
        V_SUBREV_U16 => v.map2(|a, b| sub_u16(b, a, clamp))?,
        V_ADD_NC_I16 => v.map2(|a, b| add_i16(a as i16, b as i16, clamp))?,
        V_SUB_NC_I16 => v.map2(|a, b| {
            let d = i32::from(a as i16) - i32::from(b as i16);
            (if clamp { d.clamp(-0x8000, 0x7fff) } else { d }) as u16 as u32
        })?,
        V_MUL_LO_U16 => v.map2(|a, b| {
            let p = (a & 0xffff) * (b & 0xffff);
            if clamp {
                p.min(0xffff)
            } else {
                p & 0xffff
            }
        })?,
        V_LSHLREV_B16 => v.map2(|a, b| ((b as u16) << (a & 15)) as u32)?,
        V_LSHRREV_B16 => v.map2(|a, b| ((b as u16) >> (a & 15)) as u32)?,
        V_ASHRREV_I16 => v.map2(|a, b| ((b as i16) >> (a & 15)) as u16 as u32)?,
        V_MAX_U16 => v.map2(|a, b| (a as u16).max(b as u16) as u32)?,
        V_MIN_U16 => v.map2(|a, b| (a as u16).min(b as u16) as u32)?,
        V_MAX_I16 => v.map2(|a, b| (a as i16).max(b as i16) as u16 as u32)?,
        V_MIN_I16 => v.map2(|a, b| (a as i16).min(b as i16) as u16 as u32)?,
        // f32.
        V_ADD_F32 => v.fmap2(F32, |a, b, m| fp::add(F32, a, b, m))?,
        V_SUB_F32 => v.fmap2(F32, |a, b, m| fp::sub(F32, a, b, m))?,
        V_SUBREV_F32 => v.fmap2(F32, |a, b, m| fp::sub(F32, b, a, m))?,
        V_MUL_F32 => v.fmap2(F32, |a, b, m| fp::mul(F32, a, b, m))?,
        V_MUL_LEGACY_F32 => v.fmap2(F32, legacy_mul)?,
        V_MIN_F32 => v.fmap2(F32, move |a, b, m| fp::min_max(F32, a, b, false, ieee, m))?,
        V_MAX_F32 => v.fmap2(F32, move |a, b, m| fp::min_max(F32, a, b, true, ieee, m))?,
        V_LDEXP_F32 => v.fmap2(F32, |a, b, m| fp::ldexp(F32, a, b as u32 as i32, m))?,
        V_FMAC_F32 => accumulate(v, F32, true)?,
        V_MAC_F32 => accumulate(v, F32, false)?,
        V_FMAC_LEGACY_F32 => {
            let d = *v.w.vgpr(v.vdst()?)?;
            let a = v.src(0)?;
            let b = v.src(1)?;
            let m = v.fp(F32);
            let mut r = [0u32; 64];
            each_lane(v.exec, |l| {
                // Zero factors as MODE reads them (a flushed denormal is one).
                let p = legacy_zero(
                    fp::flush_in(F32, u64::from(a[l]), m),
                    fp::flush_in(F32, u64::from(b[l]), m),
                );
                let x = match p {
                    Some(z) => fp::add(F32, z, u64::from(d[l]), m),
                    None => fp::fma(F32, u64::from(a[l]), u64::from(b[l]), u64::from(d[l]), m),
                };
                r[l] = v.post(F32, x) as u32;
            });
            v.write(&r)?;
        }
        V_FMAMK_F32 | V_MADMK_F32 | V_FMAAK_F32 | V_MADAK_F32 => constant_form(v, F32)?,
        V_FMAMK_F16 | V_MADMK_F16 | V_FMAAK_F16 | V_MADAK_F16 => constant_form(v, F16)?,
        // f16.
        V_ADD_F16 => v.fmap2(F16, |a, b, m| fp::add(F16, a, b, m))?,
        V_SUB_F16 => v.fmap2(F16, |a, b, m| fp::sub(F16, a, b, m))?,
        V_SUBREV_F16 => v.fmap2(F16, |a, b, m| fp::sub(F16, b, a, m))?,
        V_MUL_F16 => v.fmap2(F16, |a, b, m| fp::mul(F16, a, b, m))?,
        V_MIN_F16 => v.fmap2(F16, move |a, b, m| fp::min_max(F16, a, b, false, ieee, m))?,
        V_MAX_F16 => v.fmap2(F16, move |a, b, m| fp::min_max(F16, a, b, true, ieee, m))?,
        V_LDEXP_F16 => v.fmap2(F16, |a, b, m| fp::ldexp(F16, a, i32::from(b as i16), m))?,
        V_FMAC_F16 => accumulate(v, F16, true)?,
        V_MAC_F16 => accumulate(v, F16, false)?,
        V_CVT_PKRTZ_F16_F32 => {
            let m32 = v.fp(F32);
            let m16 = v.fp(F16).with_round(fp::Round::Zero);
            v.map2(|a, b| {
                let lo = fp::convert(F32, F16, u64::from(a), m32, m16);
                let hi = fp::convert(F32, F16, u64::from(b), m32, m16);
                (lo | hi << 16) as u32
            })?
        }
        _ => return Ok(false),
    }
    Ok(true)
}

fn sub_u32(a: u32, b: u32, clamp: bool) -> u32 {
    if clamp {
        a.saturating_sub(b)
    } else {
        a.wrapping_sub(b)
    }
}

fn add_i32(a: u32, b: u32, clamp: bool) -> u32 {
    if clamp {
        (a as i32).saturating_add(b as i32) as u32
    } else {
        a.wrapping_add(b)
    }
}

fn sub_u16(a: u32, b: u32, clamp: bool) -> u32 {
    let (a, b) = (a as u16, b as u16);
    u32::from(if clamp {
        a.saturating_sub(b)
    } else {
        a.wrapping_sub(b)
    })
}

fn add_i16(a: i16, b: i16, clamp: bool) -> u32 {
    (if clamp {
        a.saturating_add(b)
    } else {
        a.wrapping_add(b)
    }) as u16 as u32
}

/// `a - b - c` as a 33-bit value whose bit 32 is the borrow.
#[inline]
fn borrow(a: u32, b: u32, c: u32) -> u64 {
    u64::from(a)
        .wrapping_sub(u64::from(b))
        .wrapping_sub(u64::from(c))
        & 0x1_ffff_ffff
}

/// An add (`sub` false) or subtract with carry-out (bit 32 of `f`'s result)
/// and, when `carry_in`, a carry-in mask.
fn carry_op(
    v: &mut Valu<'_>,
    carry_in: bool,
    sub: bool,
    f: impl Fn(u32, u32, u32) -> u64,
) -> Result<(), Fault> {
    let a = v.src(0)?;
    let b = v.src(1)?;
    let cin = if carry_in { v.mask_in()? } else { 0 };
    let clamp = v.clamp();
    let mut r = [0u32; 64];
    let mut cout = 0u64;
    each_lane(v.exec, |l| {
        let x = f(a[l], b[l], (cin >> l & 1) as u32);
        let c = x >> 32 != 0;
        // Clamp saturates: to all ones on a carry, to 0 on a borrow.
        r[l] = match (c && clamp, sub) {
            (true, false) => u32::MAX,
            (true, true) => 0,
            _ => x as u32,
        };
        cout |= u64::from(c) << l;
    });
    v.write(&r)?;
    v.write_mask_out(cout)
}

/// DX9 `0 * anything = 0` rule of the legacy multiplies: `Some(+0)` when
/// either input is ±0, `None` otherwise. The zero is +0 whatever the signs
/// (LLVM's constant folding of `llvm.amdgcn.fmul.legacy`: "multiplying
/// +/-0.0 by anything, even NaN or infinity, gives +0.0"; issue 14: this
/// model gave the product's sign, the clocked GPU +0).
pub(super) fn legacy_zero(a: u64, b: u64) -> Option<u64> {
    if F32.is_zero(a) || F32.is_zero(b) {
        Some(0)
    } else {
        None
    }
}

fn legacy_mul(a: u64, b: u64, m: fp::FpMode) -> u64 {
    let (fa, fb) = (fp::flush_in(F32, a, m), fp::flush_in(F32, b, m));
    legacy_zero(fa, fb).unwrap_or_else(|| fp::mul(F32, a, b, m))
}

/// `d = a * b + d`: fused (`fmac`) or unfused (`mac`: the product rounded and
/// flushed first, as GCN's `v_mac_f32` does).
fn accumulate(v: &mut Valu<'_>, fmt: fp::Format, fused: bool) -> Result<(), Fault> {
    // `_e64` forms have an explicit src2 tied to vdst; read vdst either way.
    let d = *v.w.vgpr(v.vdst()?)?;
    let a = v.src(0)?;
    let b = v.src(1)?;
    let m = v.fp(fmt);
    let half = fmt == F16;
    // A 16-bit accumulator is the destination half the result goes to
    // (VOP3 op_sel[3] picks the high one), as on the clocked GPU (issue 14).
    let acc_shift = if half
        && v.isa() == arch::isa::Isa::Gfx1030
        && v.inst.variant == arch::isa::Variant::Plain
        && v.inst.modifiers.op_sel & 8 != 0
    {
        16
    } else {
        0
    };
    let mut r = [0u32; 64];
    each_lane(v.exec, |l| {
        let n = |x: u32| u64::from(if half { x & 0xffff } else { x });
        let acc = n(d[l] >> acc_shift);
        let x = if fused {
            fp::fma(fmt, n(a[l]), n(b[l]), acc, m)
        } else {
            fp::mad(fmt, n(a[l]), n(b[l]), acc, m)
        };
        r[l] = v.post(fmt, x) as u32;
    });
    v.write(&r)
}

/// `madmk`/`fmamk` (`d = a * K + b`) and `madak`/`fmaak` (`d = a * b + K`).
fn constant_form(v: &mut Valu<'_>, fmt: fp::Format) -> Result<(), Fault> {
    use Opcode::*;
    let op = v.inst.opcode;
    let (k, _) = v.operand(Field::K, 0)?;
    let k = u64::from(v.w.read_scalar(&k)?) & if fmt == F16 { 0xffff } else { u64::MAX };
    let fused = matches!(op, V_FMAMK_F32 | V_FMAAK_F32 | V_FMAMK_F16 | V_FMAAK_F16);
    let k_is_mul = matches!(op, V_FMAMK_F32 | V_MADMK_F32 | V_FMAMK_F16 | V_MADMK_F16);
    v.fmap2(fmt, move |a, b, m| {
        let (x, y, z) = if k_is_mul { (a, k, b) } else { (a, b, k) };
        if fused {
            fp::fma(fmt, x, y, z, m)
        } else {
            fp::mad(fmt, x, y, z, m)
        }
    })
}
