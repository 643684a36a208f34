//! VOP3P: packed 16-bit math (two halves per lane) and the integer dot
//! products. Each source half is picked by `op_sel` (low result) and
//! `op_sel_hi` (high result); f16 halves are negated by `neg_lo`/`neg_hi`.
//! An inline constant is one 32-bit value whose halves `op_sel`/`op_sel_hi`
//! pick like a register's: an integer constant is sign-extended to 32 bits,
//! a float constant is the f16 value in the low half and zero above (LLVM's
//! `isInlinableLiteralV216` takes a 32-bit value as inline only in that form,
//! and its operand folding sets `op_sel_hi` to 0 to splat a constant).

use arch::device::FaultKind;
use arch::isa::Opcode;

use super::super::Writes;
use super::{Cx, LaneVals, Ty};

/// Per lane: (low-result half, high-result half) of a source.
type Halves = [(u16, u16); 64];

impl Cx<'_> {
    /// Source `i` split into the halves the low and high results read.
    fn halves(&mut self, i: usize, float: bool) -> Result<Halves, FaultKind> {
        let op = *self.src_op(i)?;
        let raw = self.raw(&op, false)?;
        let m = &self.inst.modifiers;
        let sel_lo = m.op_sel >> i & 1 != 0;
        let sel_hi = m.op_sel_hi >> i & 1 != 0;
        let (neg_lo, neg_hi) = if float {
            (m.neg >> i & 1 != 0, m.neg_hi >> i & 1 != 0)
        } else {
            (false, false)
        };
        let mut out = [(0u16, 0u16); 64];
        for lane in 0..self.lanes {
            let x = raw[lane] as u32;
            let pick = |hi: bool| if hi { (x >> 16) as u16 } else { x as u16 };
            let mut lo = pick(sel_lo);
            let mut hi = pick(sel_hi);
            if neg_lo {
                lo ^= 0x8000;
            }
            if neg_hi {
                hi ^= 0x8000;
            }
            out[lane] = (lo, hi);
        }
        Ok(out)
    }
}

fn sat_u16(x: i64, clamp: bool) -> u16 {
    if clamp {
        x.clamp(0, 0xffff) as u16
    } else {
        x as u16
    }
}

fn sat_i16(x: i64, clamp: bool) -> u16 {
    if clamp {
        x.clamp(-0x8000, 0x7fff) as u16
    } else {
        x as u16
    }
}

/// Executes a VOP3P instruction.
pub(crate) fn execute(cx: &mut Cx<'_>, out: &mut Writes) -> Result<(), FaultKind> {
    use Opcode as O;
    let op = cx.inst.opcode;
    let clamp = cx.inst.modifiers.clamp;
    let mut vals: LaneVals = [0; 64];
    match op {
        O::V_DOT4_I32_I8 | O::V_DOT4_U32_U8 | O::V_DOT8_I32_I4 | O::V_DOT8_U32_U4 => {
            let a = cx.src(0, Ty::B32)?;
            let b = cx.src(1, Ty::B32)?;
            let c = cx.src(2, Ty::B32)?;
            for lane in 0..cx.lanes {
                let (x, y) = (a[lane] as u32, b[lane] as u32);
                let (bits, signed) = match op {
                    O::V_DOT4_I32_I8 => (8, true),
                    O::V_DOT4_U32_U8 => (8, false),
                    O::V_DOT8_I32_I4 => (4, true),
                    _ => (4, false),
                };
                let field = |v: u32, k: u32| -> i64 {
                    let f = (v >> (bits * k)) & ((1 << bits) - 1);
                    if signed {
                        i64::from(((f << (32 - bits)) as i32) >> (32 - bits))
                    } else {
                        i64::from(f)
                    }
                };
                let dot: i64 = (0..32 / bits).map(|k| field(x, k) * field(y, k)).sum();
                let acc = if signed {
                    i64::from(c[lane] as u32 as i32)
                } else {
                    i64::from(c[lane] as u32)
                };
                let r = dot + acc;
                vals[lane] = match (clamp, signed) {
                    (true, true) => r.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as u64,
                    (true, false) => r.clamp(0, i64::from(u32::MAX)) as u64,
                    _ => r as u64,
                };
            }
        }
        O::V_DOT2_I32_I16 | O::V_DOT2_U32_U16 => {
            let a = cx.halves(0, false)?;
            let b = cx.halves(1, false)?;
            let c = cx.src(2, Ty::B32)?;
            let signed = op == O::V_DOT2_I32_I16;
            for lane in 0..cx.lanes {
                let e = |v: u16| {
                    if signed {
                        i64::from(v as i16)
                    } else {
                        i64::from(v)
                    }
                };
                let (x, y) = (a[lane], b[lane]);
                let acc = if signed {
                    i64::from(c[lane] as u32 as i32)
                } else {
                    i64::from(c[lane] as u32)
                };
                let r = e(x.0) * e(y.0) + e(x.1) * e(y.1) + acc;
                vals[lane] = match (clamp, signed) {
                    (true, true) => r.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as u64,
                    (true, false) => r.clamp(0, i64::from(u32::MAX)) as u64,
                    _ => r as u64,
                };
            }
        }
        O::V_PK_MAD_I16
        | O::V_PK_MUL_LO_U16
        | O::V_PK_ADD_I16
        | O::V_PK_SUB_I16
        | O::V_PK_LSHLREV_B16
        | O::V_PK_LSHRREV_B16
        | O::V_PK_ASHRREV_I16
        | O::V_PK_MAX_I16
        | O::V_PK_MIN_I16
        | O::V_PK_MAD_U16
        | O::V_PK_ADD_U16
        | O::V_PK_SUB_U16
        | O::V_PK_MAX_U16
        | O::V_PK_MIN_U16 => {
            // `clamp` cannot change an in-range result (min/max/shifts);
            // a low product saturates like the sums.
            let three = matches!(op, O::V_PK_MAD_I16 | O::V_PK_MAD_U16);
            let a = cx.halves(0, false)?;
            let b = cx.halves(1, false)?;
            let c = if three {
                cx.halves(2, false)?
            } else {
                [(0, 0); 64]
            };
            let f = |x: u16, y: u16, z: u16| -> u16 {
                let (sx, sy, sz) = (
                    i64::from(x as i16),
                    i64::from(y as i16),
                    i64::from(z as i16),
                );
                let (ux, uy, uz) = (i64::from(x), i64::from(y), i64::from(z));
                match op {
                    O::V_PK_MAD_I16 => sat_i16(sx * sy + sz, clamp),
                    O::V_PK_MUL_LO_U16 => sat_u16(ux * uy, clamp),
                    O::V_PK_ADD_I16 => sat_i16(sx + sy, clamp),
                    O::V_PK_SUB_I16 => sat_i16(sx - sy, clamp),
                    O::V_PK_LSHLREV_B16 => y << (x & 15),
                    O::V_PK_LSHRREV_B16 => y >> (x & 15),
                    O::V_PK_ASHRREV_I16 => ((y as i16) >> (x & 15)) as u16,
                    O::V_PK_MAX_I16 => (x as i16).max(y as i16) as u16,
                    O::V_PK_MIN_I16 => (x as i16).min(y as i16) as u16,
                    O::V_PK_MAD_U16 => sat_u16(ux * uy + uz, clamp),
                    O::V_PK_ADD_U16 => sat_u16(ux + uy, clamp),
                    O::V_PK_SUB_U16 => sat_u16(ux - uy, clamp),
                    O::V_PK_MAX_U16 => x.max(y),
                    _ => x.min(y),
                }
            };
            for lane in 0..cx.lanes {
                let (x, y, z) = (a[lane], b[lane], c[lane]);
                let lo = f(x.0, y.0, z.0);
                let hi = f(x.1, y.1, z.1);
                vals[lane] = u64::from(lo) | u64::from(hi) << 16;
            }
        }
        _ => {
            if super::packed_float::execute(cx, out)? {
                return Ok(());
            }
            return Err(super::super::unimplemented(cx.inst));
        }
    }
    cx.write_vgpr(out, 0, Ty::B32, &vals, cx.write_mask)
}
