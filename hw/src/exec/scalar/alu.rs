//! Scalar ALU value operations: SOP2, SOPC and the SOP1 operations that only
//! compute a value (moves, bit counts, bit reversal, sign extension, ...).
//!
//! SCC rules (RDNA2 guide): unsigned add/sub give the carry/borrow, signed
//! add/sub the signed overflow, min/max whether `S0` was chosen, logic, shifts,
//! `s_bfe`, `s_absdiff`, `s_abs`, `s_not`, `s_wqm`, `s_quadmask` and the bit
//! counts whether the result is non-zero; moves, `s_cselect`, `s_bfm`,
//! multiplies, packs, `s_brev`, `s_ff*`, `s_flbit*`, sign extension and
//! `s_bitset*` leave SCC alone.

use arch::device::FaultKind;
use arch::isa::Opcode;

use super::{Regs, Writes};
use crate::exec::unimplemented;

/// SCC = result != 0, for 32-bit results.
#[inline]
fn nz32(d: u32) -> (u64, Option<bool>) {
    (u64::from(d), Some(d != 0))
}

/// SCC = result != 0, for 64-bit results.
#[inline]
fn nz64(d: u64) -> (u64, Option<bool>) {
    (d, Some(d != 0))
}

/// `s_bfe_u32`: offset `S1[4:0]`, width `S1[22:16]`. Width 0 gives 0; a field
/// reaching past bit 31 is the plain shift.
pub(super) fn bfe_u32(x: u32, ctl: u32) -> u32 {
    let off = ctl & 31;
    let width = (ctl >> 16) & 0x7f;
    if width == 0 {
        0
    } else if off + width >= 32 {
        x >> off
    } else {
        (x >> off) & ((1u32 << width) - 1)
    }
}

/// `s_bfe_i32`: as [`bfe_u32`], sign-extending the field (arithmetic shift when
/// the field reaches past bit 31).
pub(super) fn bfe_i32(x: u32, ctl: u32) -> u32 {
    let off = ctl & 31;
    let width = (ctl >> 16) & 0x7f;
    if width == 0 {
        0
    } else if off + width >= 32 {
        ((x as i32) >> off) as u32
    } else {
        (((x << (32 - off - width)) as i32) >> (32 - width)) as u32
    }
}

/// `s_bfe_u64`: offset `S1[5:0]`, width `S1[22:16]`.
pub(super) fn bfe_u64(x: u64, ctl: u32) -> u64 {
    let off = ctl & 63;
    let width = (ctl >> 16) & 0x7f;
    if width == 0 {
        0
    } else if off + width >= 64 {
        x >> off
    } else {
        (x >> off) & ((1u64 << width) - 1)
    }
}

/// `s_bfe_i64`.
pub(super) fn bfe_i64(x: u64, ctl: u32) -> u64 {
    let off = ctl & 63;
    let width = (ctl >> 16) & 0x7f;
    if width == 0 {
        0
    } else if off + width >= 64 {
        ((x as i64) >> off) as u64
    } else {
        (((x << (64 - off - width)) as i64) >> (64 - width)) as u64
    }
}

/// SOP2: `D = S0 op S1`.
pub(super) fn sop2(r: &Regs<'_, '_>, out: &mut Writes) -> Result<(), FaultKind> {
    use Opcode::*;
    let a = r.src(1)?;
    let b = r.src(2)?;
    let (a32, b32) = (a as u32, b as u32);
    let scc_in = u64::from(r.s.scc);
    let (d, scc): (u64, Option<bool>) = match r.inst.opcode {
        S_ADD_U32 => {
            let (d, c) = a32.overflowing_add(b32);
            (u64::from(d), Some(c))
        }
        S_SUB_U32 => {
            let (d, c) = a32.overflowing_sub(b32);
            (u64::from(d), Some(c))
        }
        S_ADD_I32 => {
            let (d, o) = (a32 as i32).overflowing_add(b32 as i32);
            (u64::from(d as u32), Some(o))
        }
        S_SUB_I32 => {
            let (d, o) = (a32 as i32).overflowing_sub(b32 as i32);
            (u64::from(d as u32), Some(o))
        }
        S_ADDC_U32 => {
            let t = u64::from(a32) + u64::from(b32) + scc_in;
            (t & 0xffff_ffff, Some(t >> 32 != 0))
        }
        S_SUBB_U32 => {
            let t = u64::from(a32)
                .wrapping_sub(u64::from(b32))
                .wrapping_sub(scc_in);
            (
                t & 0xffff_ffff,
                Some(u64::from(b32) + scc_in > u64::from(a32)),
            )
        }
        S_MIN_I32 => {
            let c = (a32 as i32) < (b32 as i32);
            (u64::from(if c { a32 } else { b32 }), Some(c))
        }
        S_MIN_U32 => {
            let c = a32 < b32;
            (u64::from(if c { a32 } else { b32 }), Some(c))
        }
        S_MAX_I32 => {
            let c = (a32 as i32) > (b32 as i32);
            (u64::from(if c { a32 } else { b32 }), Some(c))
        }
        S_MAX_U32 => {
            let c = a32 > b32;
            (u64::from(if c { a32 } else { b32 }), Some(c))
        }
        S_CSELECT_B32 | S_CSELECT_B64 => (if r.s.scc { a } else { b }, None),
        S_AND_B32 => nz32(a32 & b32),
        S_AND_B64 => nz64(a & b),
        S_OR_B32 => nz32(a32 | b32),
        S_OR_B64 => nz64(a | b),
        S_XOR_B32 => nz32(a32 ^ b32),
        S_XOR_B64 => nz64(a ^ b),
        S_ANDN2_B32 => nz32(a32 & !b32),
        S_ANDN2_B64 => nz64(a & !b),
        S_ORN2_B32 => nz32(a32 | !b32),
        S_ORN2_B64 => nz64(a | !b),
        S_NAND_B32 => nz32(!(a32 & b32)),
        S_NAND_B64 => nz64(!(a & b)),
        S_NOR_B32 => nz32(!(a32 | b32)),
        S_NOR_B64 => nz64(!(a | b)),
        S_XNOR_B32 => nz32(!(a32 ^ b32)),
        S_XNOR_B64 => nz64(!(a ^ b)),
        // The shift amount is S1[4:0] (S1[5:0] for 64 bits): the hardware
        // ignores the upper bits, so a shift by 33 is a shift by 1.
        S_LSHL_B32 => nz32(a32 << (b32 & 31)),
        S_LSHL_B64 => nz64(a << (b32 & 63)),
        S_LSHR_B32 => nz32(a32 >> (b32 & 31)),
        S_LSHR_B64 => nz64(a >> (b32 & 63)),
        S_ASHR_I32 => nz32(((a32 as i32) >> (b32 & 31)) as u32),
        S_ASHR_I64 => nz64(((a as i64) >> (b32 & 63)) as u64),
        S_BFM_B32 => {
            let d = ((1u32 << (a32 & 31)) - 1) << (b32 & 31);
            (u64::from(d), None)
        }
        S_BFM_B64 => (((1u64 << (a32 & 63)) - 1) << (b32 & 63), None),
        S_MUL_I32 => (u64::from(a32.wrapping_mul(b32)), None),
        S_BFE_U32 => nz32(bfe_u32(a32, b32)),
        S_BFE_I32 => nz32(bfe_i32(a32, b32)),
        S_BFE_U64 => nz64(bfe_u64(a, b32)),
        S_BFE_I64 => nz64(bfe_i64(a, b32)),
        S_ABSDIFF_I32 => nz32((a32 as i32).wrapping_sub(b32 as i32).wrapping_abs() as u32),
        S_LSHL1_ADD_U32 | S_LSHL2_ADD_U32 | S_LSHL3_ADD_U32 | S_LSHL4_ADD_U32 => {
            let n = match r.inst.opcode {
                S_LSHL1_ADD_U32 => 1,
                S_LSHL2_ADD_U32 => 2,
                S_LSHL3_ADD_U32 => 3,
                _ => 4,
            };
            // The carry counts the bits shifted out as well as the add's carry.
            let t = (u64::from(a32) << n) + u64::from(b32);
            (t & 0xffff_ffff, Some(t >> 32 != 0))
        }
        S_PACK_LL_B32_B16 => (u64::from((a32 & 0xffff) | (b32 << 16)), None),
        S_PACK_LH_B32_B16 => (u64::from((a32 & 0xffff) | (b32 & 0xffff_0000)), None),
        S_PACK_HH_B32_B16 => (u64::from((a32 >> 16) | (b32 & 0xffff_0000)), None),
        S_MUL_HI_U32 => ((u64::from(a32) * u64::from(b32)) >> 32, None),
        S_MUL_HI_I32 => {
            let p = i64::from(a32 as i32) * i64::from(b32 as i32);
            (u64::from((p >> 32) as u32), None)
        }
        _ => return Err(unimplemented(r.inst)),
    };
    r.write_dst(0, d, out)?;
    out.scc = scc;
    Ok(())
}

/// SOPC: SCC = S0 compare S1.
pub(super) fn sopc(r: &Regs<'_, '_>, out: &mut Writes) -> Result<(), FaultKind> {
    use Opcode::*;
    let a = r.src(0)?;
    let b = r.src(1)?;
    let (a32, b32) = (a as u32, b as u32);
    let (ai, bi) = (a32 as i32, b32 as i32);
    out.scc = Some(match r.inst.opcode {
        S_CMP_EQ_I32 | S_CMP_EQ_U32 => a32 == b32,
        S_CMP_LG_I32 | S_CMP_LG_U32 => a32 != b32,
        S_CMP_GT_I32 => ai > bi,
        S_CMP_GE_I32 => ai >= bi,
        S_CMP_LT_I32 => ai < bi,
        S_CMP_LE_I32 => ai <= bi,
        S_CMP_GT_U32 => a32 > b32,
        S_CMP_GE_U32 => a32 >= b32,
        S_CMP_LT_U32 => a32 < b32,
        S_CMP_LE_U32 => a32 <= b32,
        S_BITCMP0_B32 => (a32 >> (b32 & 31)) & 1 == 0,
        S_BITCMP1_B32 => (a32 >> (b32 & 31)) & 1 == 1,
        S_BITCMP0_B64 => (a >> (b32 & 63)) & 1 == 0,
        S_BITCMP1_B64 => (a >> (b32 & 63)) & 1 == 1,
        S_CMP_EQ_U64 => a == b,
        S_CMP_LG_U64 => a != b,
        _ => return Err(unimplemented(r.inst)),
    });
    Ok(())
}

/// `s_wqm`: every group of 4 bits becomes all ones if any bit of it is set.
fn wqm(x: u64, groups: u32) -> u64 {
    (0..groups).fold(0, |d, g| {
        if (x >> (4 * g)) & 0xf != 0 {
            d | 0xf << (4 * g)
        } else {
            d
        }
    })
}

/// `s_quadmask`: bit `g` of the result is set if any bit of group `g` of 4 is.
fn quadmask(x: u64, groups: u32) -> u64 {
    (0..groups).fold(0, |d, g| d | u64::from((x >> (4 * g)) & 0xf != 0) << g)
}

/// `s_bitreplicate_b64_b32`: every bit of S0 twice.
fn bitreplicate(x: u32) -> u64 {
    (0..32).fold(0, |d, i| d | (u64::from((x >> i) & 1) * 3) << (2 * i))
}

/// -1 when nothing is found, else the bit position.
#[inline]
fn found(x: Option<u32>) -> u64 {
    u64::from(x.unwrap_or(u32::MAX))
}

/// The SOP1 operations that compute a value from S0 (and, for `s_bitset*`,
/// the destination). Returns `Ok(false)` for the opcodes it does not own.
pub(super) fn sop1(r: &Regs<'_, '_>, out: &mut Writes) -> Result<bool, FaultKind> {
    use Opcode::*;
    let op = r.inst.opcode;
    let (d, scc): (u64, Option<bool>) = match op {
        S_MOV_B32 | S_MOV_B64 => (r.src(1)?, None),
        S_CMOV_B32 | S_CMOV_B64 => {
            if r.s.scc {
                r.write_dst(0, r.src(1)?, out)?;
            }
            return Ok(true);
        }
        S_NOT_B32 => nz32(!r.src32(1)?),
        S_NOT_B64 => nz64(!r.src(1)?),
        S_WQM_B32 => nz64(wqm(r.src(1)?, 8)),
        S_WQM_B64 => nz64(wqm(r.src(1)?, 16)),
        S_BREV_B32 => (u64::from(r.src32(1)?.reverse_bits()), None),
        S_BREV_B64 => (r.src(1)?.reverse_bits(), None),
        S_BCNT0_I32_B32 => nz32(r.src32(1)?.count_zeros()),
        S_BCNT0_I32_B64 => nz32(r.src(1)?.count_zeros()),
        S_BCNT1_I32_B32 => nz32(r.src32(1)?.count_ones()),
        S_BCNT1_I32_B64 => nz32(r.src(1)?.count_ones()),
        S_FF0_I32_B32 => {
            let x = !r.src32(1)?;
            (found((x != 0).then(|| x.trailing_zeros())), None)
        }
        S_FF0_I32_B64 => {
            let x = !r.src(1)?;
            (found((x != 0).then(|| x.trailing_zeros())), None)
        }
        S_FF1_I32_B32 => {
            let x = r.src32(1)?;
            (found((x != 0).then(|| x.trailing_zeros())), None)
        }
        S_FF1_I32_B64 => {
            let x = r.src(1)?;
            (found((x != 0).then(|| x.trailing_zeros())), None)
        }
        S_FLBIT_I32_B32 => {
            let x = r.src32(1)?;
            (found((x != 0).then(|| x.leading_zeros())), None)
        }
        S_FLBIT_I32_B64 => {
            let x = r.src(1)?;
            (found((x != 0).then(|| x.leading_zeros())), None)
        }
        // Leading bits equal to the sign bit; -1 for 0 and -1.
        S_FLBIT_I32 => {
            let x = r.src32(1)?;
            let y = if (x as i32) < 0 { !x } else { x };
            (found((y != 0).then(|| y.leading_zeros())), None)
        }
        S_FLBIT_I32_I64 => {
            let x = r.src(1)?;
            let y = if (x as i64) < 0 { !x } else { x };
            (found((y != 0).then(|| y.leading_zeros())), None)
        }
        S_SEXT_I32_I8 => (u64::from(r.src32(1)? as i8 as i32 as u32), None),
        S_SEXT_I32_I16 => (u64::from(r.src32(1)? as i16 as i32 as u32), None),
        // Read-modify-write of the destination.
        S_BITSET0_B32 => (u64::from(r.src32(0)? & !(1u32 << (r.src32(1)? & 31))), None),
        S_BITSET1_B32 => (u64::from(r.src32(0)? | 1u32 << (r.src32(1)? & 31)), None),
        S_BITSET0_B64 => (r.src(0)? & !(1u64 << (r.src32(1)? & 63)), None),
        S_BITSET1_B64 => (r.src(0)? | 1u64 << (r.src32(1)? & 63), None),
        S_QUADMASK_B32 => nz64(quadmask(r.src(1)?, 8)),
        S_QUADMASK_B64 => nz64(quadmask(r.src(1)?, 16)),
        S_ABS_I32 => nz32((r.src32(1)? as i32).wrapping_abs() as u32),
        S_BITREPLICATE_B64_B32 => (bitreplicate(r.src32(1)?), None),
        _ => return Ok(false),
    };
    r.write_dst(0, d, out)?;
    out.scc = scc;
    Ok(true)
}
