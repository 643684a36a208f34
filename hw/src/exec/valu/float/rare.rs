//! The rarely used float opcodes the cycle model added to match the golden
//! GPU (issue 14): cube-map coordinates, the D3D9 lighting multiply and
//! `v_trig_preop_f64`. The semantics are the golden model's
//! (`cosim/golden/src/exec/vop/rare.rs`, from AMD's pseudo-code), rebuilt
//! here on the cycle model's own bit-level float datapath.

use arch::device::FaultKind;
use arch::isa::Opcode;

use super::super::super::fp::{self, FpMode, Order, Round};
use super::super::super::Writes;
use super::super::{Cx, Ty};

const F32_SIGN: u32 = 0x8000_0000;
/// `-MAX_FLOAT`, `v_mullit_f32`'s "no light" result.
const NEG_MAX_F32: u32 = 0xff7f_ffff;

/// True for an f32 denormal encoding.
fn is_denorm32(x: u32) -> bool {
    x & 0x7f80_0000 == 0 && x & 0x007f_ffff != 0
}

/// An f32 read as MODE's input denormal setting says.
fn flush_in32(x: u32, m: &FpMode) -> u32 {
    if is_denorm32(x) && !m.denorm32.keep_in {
        x & F32_SIGN
    } else {
        x
    }
}

/// An f32 moved to a result: a denormal survives only when MODE keeps
/// denormals both in and out.
fn pass32(x: u32, m: &FpMode) -> u32 {
    let x = flush_in32(x, m);
    if is_denorm32(x) && !m.denorm32.keep_out {
        x & F32_SIGN
    } else {
        x
    }
}

fn is_nan32(x: u32) -> bool {
    x & 0x7fff_ffff > 0x7f80_0000
}

/// `v_cube{id,sc,tc,ma}_f32` of the direction `(x, y, z)`: the major axis
/// is the largest magnitude (z wins ties over y and x, y over x; a NaN
/// compares false), "negative" is `< 0` (-0 picks the positive face).
fn cube(op: Opcode, x: u32, y: u32, z: u32, m: &FpMode) -> u32 {
    let ge = |a: u32, b: u32| {
        matches!(
            fp::compare_f32(a & !F32_SIGN, b & !F32_SIGN, m),
            Order::Greater | Order::Equal
        )
    };
    let neg = |v: u32| fp::compare_f32(v, 0, m) == Order::Less;
    let flip = |v: u32| v ^ F32_SIGN;
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
        Opcode::V_CUBEID_F32 => fp::cvt_f32_u32(face, m),
        Opcode::V_CUBESC_F32 => pass32(sc, m),
        Opcode::V_CUBETC_F32 => pass32(tc, m),
        _ => fp::mul_f32(flush_in32(ma, m), 0x4000_0000, m),
    }
}

/// `v_mullit_f32`: `s0 * s1`, or -MAX_FLOAT when `s1` is -MAX_FLOAT, -inf
/// or NaN or `s2` is `<= 0` or NaN; a zero factor gives +0 even against
/// inf or NaN (the DX9 rule of `v_mul_legacy_f32`).
fn mullit(s0: u32, s1: u32, s2: u32, m: &FpMode) -> u32 {
    let (s0, s1, s2) = (flush_in32(s0, m), flush_in32(s1, m), flush_in32(s2, m));
    let s2_le0 = matches!(fp::compare_f32(s2, 0, m), Order::Less | Order::Equal);
    if s1 == NEG_MAX_F32 || s1 == 0xff80_0000 || is_nan32(s1) || s2_le0 || is_nan32(s2) {
        NEG_MAX_F32
    } else if s0 & !F32_SIGN == 0 || s1 & !F32_SIGN == 0 {
        0
    } else {
        fp::mul_f32(s0, s1, m)
    }
}

/// The fraction bits of 2/π, weight 2^-1 first: 1201 bits left-aligned in
/// 19 words (the last 15 bits zero).
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

/// `v_trig_preop_f64`: the 53 bits of 2/π from bit `53 * seg[4:0]` (plus
/// `exp(x) - 1077` for biased exponents above 1077), scaled by
/// `2^(-53 - shift)` (and by 2^128 more for exponents from 1968), rounded
/// toward zero. NaN and inf count as exponent 2047, as in the pseudo-code.
fn trig_preop(x: u64, seg: u32, m: &FpMode) -> u64 {
    let exp = ((x >> 52) & 0x7ff) as u32;
    let mut shift = (seg & 31) * 53;
    if exp > 1077 {
        shift += exp - 1077;
    }
    let word = |i: usize| TWO_OVER_PI.get(i).copied().unwrap_or(0);
    let (i, b) = ((shift / 64) as usize, shift % 64);
    let window = u128::from(word(i)) << 64 | u128::from(word(i + 1));
    let bits = ((window << b) >> (128 - 53)) as u64;
    let mut scale = -53 - shift as i32;
    if exp >= 1968 {
        scale += 128;
    }
    if bits == 0 {
        return 0;
    }
    // `bits` (at most 53 significant bits) is exact as an f64; one ldexp
    // rounds it toward zero into the result range.
    let msb = 63 - bits.leading_zeros();
    let exact = (u64::from(1023 + msb) << 52) | ((bits << (52 - msb)) & ((1 << 52) - 1));
    let rz = FpMode {
        round64: Round::Zero,
        ..*m
    };
    fp::ldexp_f64(exact, scale, &rz)
}

/// Executes one of this file's opcodes; `Ok(false)` for any other.
pub(super) fn execute(cx: &mut Cx<'_>, out: &mut Writes) -> Result<bool, FaultKind> {
    use Opcode as O;
    let m = cx.mode;
    let op = cx.inst.opcode;
    let vals = match op {
        O::V_CUBEID_F32 | O::V_CUBESC_F32 | O::V_CUBETC_F32 | O::V_CUBEMA_F32 | O::V_MULLIT_F32 => {
            let a = cx.src(0, Ty::F32)?;
            let b = cx.src(1, Ty::F32)?;
            let c = cx.src(2, Ty::F32)?;
            cx.map3(&a, &b, &c, |x, y, z| {
                let (x, y, z) = (x as u32, y as u32, z as u32);
                u64::from(if op == O::V_MULLIT_F32 {
                    mullit(x, y, z, &m)
                } else {
                    cube(op, x, y, z, &m)
                })
            })
        }
        O::V_TRIG_PREOP_F64 => {
            let a = cx.src(0, Ty::F64)?;
            let b = cx.src(1, Ty::B32)?;
            cx.map2(&a, &b, |x, s| trig_preop(x, s as u32, &m))
        }
        _ => return Ok(false),
    };
    cx.finish(out, vals)?;
    Ok(true)
}
