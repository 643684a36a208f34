//! The rarely used vector operations: cube-map coordinates, quad SADs, the
//! D3D9 lighting multiply, `v_cvt_pkaccum_u8_f32`, `v_swaprel_b32` and
//! `v_trig_preop_f64` (the 1201-bit 2/π table).
//!
//! Semantics follow AMD's ISA reference pseudo-code (GCN3 and RDNA2 guides,
//! whose wording the later RDNA3 guide spells out as code); where a manual is
//! ambiguous the choice made is stated on the function and collected in
//! `docs/golden-coverage.md`.

use std::cmp::Ordering;

use arch::device::Fault;
use arch::isa::operand::VGPR_BASE;
use arch::isa::tables::Field;
use arch::isa::{Opcode, Operand};

use super::{each_lane, Valu};
use crate::fp::{self, FpMode, Round, F32, F64};

/// Runs `v`'s opcode if it is one of this file's; `Ok(false)` otherwise.
/// Cold and out of line: the family files call it only after their own
/// match failed, and it must not grow their hot path.
#[cold]
#[inline(never)]
pub fn execute(v: &mut Valu<'_>) -> Result<bool, Fault> {
    use Opcode::*;
    let clamp = v.clamp();
    match v.inst.opcode {
        V_CUBEID_F32 | V_CUBESC_F32 | V_CUBETC_F32 | V_CUBEMA_F32 => {
            let op = v.inst.opcode;
            v.fmap3(F32, move |x, y, z, m| cube(op, x, y, z, m))?
        }
        V_MULLIT_F32 => v.fmap3(F32, mullit)?,
        V_QSAD_PK_U16_U8 | V_MQSAD_PK_U16_U8 => {
            let masked = v.inst.opcode == V_MQSAD_PK_U16_U8;
            let a = v.src64(0)?;
            let b = v.src(1)?;
            let c = v.src64(2)?;
            let mut r = [0u64; 64];
            each_lane(v.exec, |l| {
                r[l] = (0..4).fold(0, |acc, i| {
                    let acc16 = (c[l] >> (16 * i)) as u32 & 0xffff;
                    let sum = quad_sad(a[l], b[l], i, masked) + acc16;
                    let sad = if clamp { sum.min(0xffff) } else { sum & 0xffff };
                    acc | u64::from(sad) << (16 * i)
                });
            });
            v.write64(&r)?;
        }
        V_MQSAD_U32_U8 => {
            let a = v.src64(0)?;
            let b = v.src(1)?;
            let c = src128(v, 2)?;
            let mut r = [[0u32; 4]; 64];
            each_lane(v.exec, |l| {
                for (i, d) in r[l].iter_mut().enumerate() {
                    let sum = u64::from(quad_sad(a[l], b[l], i as u32, true)) + u64::from(c[l][i]);
                    *d = super::saturate::sat_u32(sum, clamp);
                }
            });
            write128(v, &r)?;
        }
        V_CVT_PKACCUM_U8_F32 => {
            // "Uses src_c to pass the destination in as a source": the other
            // three bytes of vdst are kept.
            let d = *v.w.vgpr(v.vdst()?)?;
            let a = v.src(0)?;
            let sel = v.src(1)?;
            let m = v.fp(F32);
            let mut r = [0u32; 64];
            each_lane(v.exec, |l| {
                let byte =
                    fp::to_int(F32, u64::from(a[l]), fp::IntRound::NearestEven, 0, 255, m) as u32;
                let shift = 8 * (sel[l] & 3);
                r[l] = (d[l] & !(0xff << shift)) | byte << shift;
            });
            v.write(&r)?;
        }
        V_TRIG_PREOP_F64 => {
            let a = v.src64(0)?;
            let seg = v.src(1)?;
            let m = v.fp(F64).with_round(Round::Zero);
            let mut r = [0u64; 64];
            each_lane(v.exec, |l| r[l] = v.post(F64, trig_preop(a[l], seg[l], m)));
            v.write64(&r)?;
        }
        V_SWAPREL_B32 => swaprel(v)?,
        _ => return Ok(false),
    }
    Ok(true)
}

/// `v_cube{id,sc,tc,ma}_f32` for the direction `(x, y, z)`: the major axis is
/// the largest magnitude, z winning ties over y and x, y over x. A NaN
/// compares false (so a NaN z never wins), and "negative" means `< 0.0`
/// (-0.0 picks the positive face), as the pseudo-code's comparisons say.
/// Inputs are read under MODE's denormal setting; results are moves (only
/// `cubema` rounds: `2 * axis`).
pub fn cube(op: Opcode, x: u64, y: u64, z: u64, m: FpMode) -> u64 {
    let [x, y, z] = [x, y, z].map(|v| fp::flush_in(F32, v, m));
    let abs = |v: u64| v & !F32.sign_bit();
    let ge = |a: u64, b: u64| {
        matches!(
            fp::compare(F32, abs(a), abs(b), m),
            Some(Ordering::Greater | Ordering::Equal)
        )
    };
    let neg = |v: u64| fp::compare(F32, v, 0, m) == Some(Ordering::Less);
    let flip = |v: u64| v ^ F32.sign_bit();
    // (face, sc, tc, major axis)
    let (face, sc, tc, ma) = if ge(z, x) && ge(z, y) {
        if neg(z) {
            (5, flip(x), flip(y), z)
        } else {
            (4, x, flip(y), z)
        }
    } else if ge(y, x) {
        if neg(y) {
            (3, x, flip(z), y)
        } else {
            (2, x, z, y)
        }
    } else if neg(x) {
        (1, z, flip(y), x)
    } else {
        (0, flip(z), flip(y), x)
    };
    match op {
        Opcode::V_CUBEID_F32 => fp::from_u64(F32, face, m),
        Opcode::V_CUBESC_F32 => fp::flush_out(F32, sc, m),
        Opcode::V_CUBETC_F32 => fp::flush_out(F32, tc, m),
        _ => fp::mul(F32, ma, 0x4000_0000, m),
    }
}

/// `-MAX_FLOAT` as f32 bits.
const NEG_MAX_F32: u64 = 0xff7f_ffff;

/// `v_mullit_f32 d = s0 * s1` unless `s1` is -MAX_FLOAT, -inf or NaN or `s2`
/// is `<= 0` or NaN, which give -MAX_FLOAT. The guides' description says
/// "0.0 * x = 0.0" while the pseudo-code writes a plain product: the DX9
/// zero rule of `v_mul_legacy_f32` is applied (a ±0 factor gives +0 even
/// against inf/NaN), since that is what the lighting use needs.
pub fn mullit(s0: u64, s1: u64, s2: u64, m: FpMode) -> u64 {
    let (s0, s1, s2) = (
        fp::flush_in(F32, s0, m),
        fp::flush_in(F32, s1, m),
        fp::flush_in(F32, s2, m),
    );
    let s2_le0 = matches!(
        fp::compare(F32, s2, 0, m),
        Some(Ordering::Less | Ordering::Equal)
    );
    if s1 == NEG_MAX_F32 || s1 == F32.inf(true) || F32.is_nan(s1) || s2_le0 || F32.is_nan(s2) {
        NEG_MAX_F32
    } else if F32.is_zero(s0) || F32.is_zero(s1) {
        // +0 whatever the signs, as `v_mul_legacy_f32` (issue 14).
        0
    } else {
        fp::mul(F32, s0, s1, m)
    }
}

/// One of the four byte-SADs of the quad SADs: the window of `a` starting at
/// byte `i` (`a[8i+31 : 8i]`) against the reference `b`, masked (bytes whose
/// reference is 0 skipped) for the `mqsad` forms.
pub fn quad_sad(a: u64, b: u32, i: u32, masked: bool) -> u32 {
    let window = (a >> (8 * i)) as u32;
    (0..4)
        .map(|k| {
            let (x, y) = ((window >> (8 * k)) & 0xff, (b >> (8 * k)) & 0xff);
            if masked && y == 0 {
                0
            } else {
                x.abs_diff(y)
            }
        })
        .sum()
}

/// A 128-bit source (`v_mqsad_u32_u8` src2): four consecutive VGPRs or
/// SGPRs; a constant fills the low dword pair as a 64-bit constant would
/// and leaves the high pair zero.
fn src128(v: &mut Valu<'_>, i: usize) -> Result<[[u32; 4]; 64], Fault> {
    let field = [Field::Src0, Field::Src1, Field::Src2][i];
    let (op, _) = v.operand(field, 0)?;
    let lo = v.src64(i)?;
    let hi = match op {
        Operand::Src { code, ty } if !(106..VGPR_BASE).contains(&code) => {
            v.w.read_lanes64(&Operand::Src { code: code + 2, ty })?
        }
        _ => [0; 64],
    };
    Ok(std::array::from_fn(|l| {
        [
            lo[l] as u32,
            (lo[l] >> 32) as u32,
            hi[l] as u32,
            (hi[l] >> 32) as u32,
        ]
    }))
}

/// Writes a 128-bit result to the four VGPRs at `vdst` (all checked first).
fn write128(v: &mut Valu<'_>, r: &[[u32; 4]; 64]) -> Result<(), Fault> {
    let n = v.vdst()?;
    v.w.vgpr(n + 3)?;
    let exec = v.exec;
    for k in 0..4u16 {
        let reg = v.w.vgpr_mut(n + k)?;
        each_lane(exec, |l| reg[l] = r[l][usize::from(k)]);
    }
    Ok(())
}

/// `v_swaprel_b32 vdst, vsrc`: swaps `VGPR[src + M0[9:0]]` with
/// `VGPR[dst + M0[25:16]]` in the active lanes. An index past the wave's
/// VGPRs faults (RDNA3's guide says the write is discarded; RDNA2's says
/// nothing: a fault names the problem instead of hiding it).
fn swaprel(v: &mut Valu<'_>) -> Result<(), Fault> {
    let m0 = v.w.m0();
    let (src, _) = v.operand(Field::Src0, 0)?;
    let s = v.w.vgpr_index(&src)? + (m0 & 0x3ff) as u16;
    let d = v.vdst()? + (m0 >> 16 & 0x3ff) as u16;
    let a = *v.w.vgpr(s)?;
    let b = *v.w.vgpr(d)?;
    let exec = v.exec;
    let rs = v.w.vgpr_mut(s)?;
    each_lane(exec, |l| rs[l] = b[l]);
    let rd = v.w.vgpr_mut(d)?;
    each_lane(exec, |l| rd[l] = a[l]);
    Ok(())
}

/// The fraction bits of 2/π, `b_1200` (weight 2^-1) first: 1201 bits
/// left-aligned in 19 words, the last 15 bits zero.
const TWO_OVER_PI: [u64; 19] = [
    0xa2f9_836e_4e44_1529,
    0xfc27_57d1_f534_ddc0,
    0xdb62_9599_3c43_9041,
    0xfe51_63ab_debb_c561,
    0xb724_6e3a_424d_d2e0,
    0x0649_2eea_09d1_921c,
    0xfe1d_eb1c_b129_a73e,
    0xe882_35f5_2ebb_4484,
    0xe99c_7026_b45f_7e41,
    0x3991_d639_8353_39f4,
    0x9c84_5f8b_bdf9_283b,
    0x1ff8_97ff_de05_980f,
    0xef2f_118b_5a0a_6d1f,
    0x6d36_7ecf_27cb_09b7,
    0x4f46_3f66_9e5f_ea2d,
    0x7527_bac7_ebe5_f17b,
    0x3d07_39f7_8a52_92ea,
    0x6bfb_5fb1_1f8d_5d08,
    0x5603_3046_fc7b_0000,
];

/// The 53 bits of 2/π's fraction starting `shift` bits after the binary
/// point (zero past the table's 1201 bits).
fn two_over_pi_bits(shift: u32) -> u64 {
    let word = |i: usize| TWO_OVER_PI.get(i).copied().unwrap_or(0);
    let (i, b) = ((shift / 64) as usize, shift % 64);
    let hi = u128::from(word(i)) << 64 | u128::from(word(i + 1));
    ((hi << b) >> (128 - 53)) as u64
}

/// `v_trig_preop_f64`: segment `seg[4:0]` of 2/π for range-reducing `x`:
/// the 53 table bits from `shift = 53 * seg` (plus `exp(x) - 1077` when the
/// biased exponent is above 1077), scaled by `2^(-53 - shift)`, plus 2^128
/// when the exponent is at least 1968 (the guides' "large inputs are scaled
/// to avoid loss of precision"). Rounded toward zero. Neither guide says
/// what NaN or inf inputs give: like the pseudo-code, they are treated as
/// any value of biased exponent 2047.
pub fn trig_preop(x: u64, seg: u32, m: FpMode) -> u64 {
    let exp = ((x >> 52) & 0x7ff) as u32;
    let mut shift = (seg & 31) * 53;
    if exp > 1077 {
        shift += exp - 1077;
    }
    let bits = two_over_pi_bits(shift);
    let mut scale = -53 - shift as i32;
    if exp >= 1968 {
        scale += 128;
    }
    fp::round_pack(F64, false, u128::from(bits), scale, m)
}
