//! Float conversions that pack into integer fields, added to the cycle
//! model to match the golden GPU (issue 14): `v_cvt_pk_u8_f32`,
//! `v_cvt_norm_{i,u}16_f16` and `v_cvt_pknorm_{i,u}16_{f16,f32}`. Their
//! results are integers, so `clamp` changes nothing (they saturate by
//! definition) and no float output modifier applies.

use arch::device::FaultKind;
use arch::isa::Opcode;

use super::super::super::fp;
use super::super::super::Writes;
use super::super::{Cx, Ty};

/// Executes one of this file's opcodes; `Ok(false)` for any other.
pub(super) fn execute(cx: &mut Cx<'_>, out: &mut Writes) -> Result<bool, FaultKind> {
    use Opcode as O;
    let m = cx.mode;
    let op = cx.inst.opcode;
    let vals = match op {
        O::V_CVT_PK_U8_F32 => {
            // The byte selector and the accumulated dword are plain bits.
            let a = cx.src(0, Ty::F32)?;
            let sel = cx.src(1, Ty::B32)?;
            let old = cx.src(2, Ty::B32)?;
            cx.map3(&a, &sel, &old, |x, s, c| {
                let shift = 8 * (s & 3);
                let byte = u64::from(fp::cvt_u8_f32(x as u32, &m));
                (c & !(0xff << shift)) | byte << shift
            })
        }
        O::V_CVT_NORM_I16_F16 | O::V_CVT_NORM_U16_F16 => {
            let signed = op == O::V_CVT_NORM_I16_F16;
            let a = cx.src(0, Ty::F16)?;
            cx.map1(&a, |x| u64::from(fp::norm16(x as u32, true, signed)))
        }
        O::V_CVT_PKNORM_I16_F16
        | O::V_CVT_PKNORM_U16_F16
        | O::V_CVT_PKNORM_I16_F32
        | O::V_CVT_PKNORM_U16_F32 => {
            let signed = matches!(op, O::V_CVT_PKNORM_I16_F16 | O::V_CVT_PKNORM_I16_F32);
            let half = matches!(op, O::V_CVT_PKNORM_I16_F16 | O::V_CVT_PKNORM_U16_F16);
            let ty = if half { Ty::F16 } else { Ty::F32 };
            let a = cx.src(0, ty)?;
            let b = cx.src(1, ty)?;
            cx.map2(&a, &b, |x, y| {
                let lo = fp::norm16(x as u32, half, signed);
                let hi = fp::norm16(y as u32, half, signed);
                u64::from(lo) | u64::from(hi) << 16
            })
        }
        _ => return Ok(false),
    };
    let ty = cx.dst_ty()?;
    cx.write_vgpr(out, 0, ty, &vals, cx.write_mask)?;
    Ok(true)
}
