//! Floating-point opcodes: routing to the bit-level arithmetic of
//! [`fp`](super::super::fp). Sources arrive with `abs`/`neg` already applied on
//! the sign bit; results take `omod` then `clamp` through `fp::omod_*` and
//! `fp::clamp_*`.

use arch::device::FaultKind;
use arch::isa::{Opcode, Operand};

use super::super::fp::{self, FpMode, Round};
use super::super::Writes;
use super::{malformed, Cx, LaneVals, Ty};

mod pack;
mod rare;

impl Cx<'_> {
    fn map1(&self, a: &LaneVals, f: impl Fn(u64) -> u64) -> LaneVals {
        let mut r = [0u64; 64];
        for lane in 0..self.lanes {
            if self.write_mask >> lane & 1 != 0 {
                r[lane] = f(a[lane]);
            }
        }
        r
    }

    fn map2(&self, a: &LaneVals, b: &LaneVals, f: impl Fn(u64, u64) -> u64) -> LaneVals {
        let mut r = [0u64; 64];
        for lane in 0..self.lanes {
            if self.write_mask >> lane & 1 != 0 {
                r[lane] = f(a[lane], b[lane]);
            }
        }
        r
    }

    fn map3(
        &self,
        a: &LaneVals,
        b: &LaneVals,
        c: &LaneVals,
        f: impl Fn(u64, u64, u64) -> u64,
    ) -> LaneVals {
        let mut r = [0u64; 64];
        for lane in 0..self.lanes {
            if self.write_mask >> lane & 1 != 0 {
                r[lane] = f(a[lane], b[lane], c[lane]);
            }
        }
        r
    }

    /// Applies `omod` and `clamp` to a float result and writes it; an integer
    /// result is written as it is (its `clamp` is not modelled).
    fn finish(&self, out: &mut Writes, mut vals: LaneVals) -> Result<(), FaultKind> {
        let ty = self.dst_ty()?;
        let mods = &self.inst.modifiers;
        let m = &self.mode;
        if ty.is_float() && (mods.omod != 0 || mods.clamp) {
            for lane in 0..self.lanes {
                if self.write_mask >> lane & 1 == 0 {
                    continue;
                }
                let mut x = vals[lane];
                match ty {
                    Ty::F16 => {
                        if mods.omod != 0 {
                            x = u64::from(fp::omod_f16(x as u16, mods.omod, m));
                        }
                        if mods.clamp {
                            x = u64::from(fp::clamp_f16(x as u16, m));
                        }
                    }
                    Ty::F64 => {
                        if mods.omod != 0 {
                            x = fp::omod_f64(x, mods.omod, m);
                        }
                        if mods.clamp {
                            x = fp::clamp_f64(x, m);
                        }
                    }
                    _ => {
                        if mods.omod != 0 {
                            x = u64::from(fp::omod_f32(x as u32, mods.omod, m));
                        }
                        if mods.clamp {
                            x = u64::from(fp::clamp_f32(x as u32, m));
                        }
                    }
                }
                vals[lane] = x;
            }
        } else if !ty.is_float() && mods.clamp {
            return Err(super::super::unimplemented(self.inst));
        }
        self.write_vgpr(out, 0, ty, &vals, self.write_mask)
    }

    /// The destination register's current value read as an accumulator
    /// (`v_fmac_*`), without modifiers or lane permutation.
    fn accumulator(&mut self, ty: Ty) -> Result<LaneVals, FaultKind> {
        let d: Operand = *self
            .inst
            .operands()
            .first()
            .ok_or_else(|| malformed(self.inst))?;
        self.read(&d, 3, ty)
    }
}

fn w(x: u64) -> u32 {
    x as u32
}
fn h(x: u64) -> u16 {
    x as u16
}
fn up(x: u32) -> u64 {
    u64::from(x)
}
fn uh(x: u16) -> u64 {
    u64::from(x)
}

/// Executes a floating-point opcode; `Ok(false)` when `cx`'s opcode is not one.
pub(crate) fn execute(cx: &mut Cx<'_>, out: &mut Writes) -> Result<bool, FaultKind> {
    use Opcode as O;
    use Ty::{B16, B32, F16, F32, F64};
    let m: FpMode = cx.mode;
    let m = &m;
    let op = cx.inst.opcode;
    let vals = match op {
        // --- f32 one source
        O::V_CVT_F32_I32 => {
            let a = cx.src(0, B32)?;
            cx.map1(&a, |x| up(fp::cvt_f32_i32(w(x) as i32, m)))
        }
        O::V_CVT_F32_U32 => {
            let a = cx.src(0, B32)?;
            cx.map1(&a, |x| up(fp::cvt_f32_u32(w(x), m)))
        }
        O::V_CVT_U32_F32
        | O::V_CVT_I32_F32
        | O::V_CVT_RPI_I32_F32
        | O::V_CVT_FLR_I32_F32
        | O::V_CVT_F16_F32
        | O::V_CVT_F64_F32
        | O::V_CVT_F32_UBYTE0
        | O::V_CVT_F32_UBYTE1
        | O::V_CVT_F32_UBYTE2
        | O::V_CVT_F32_UBYTE3
        | O::V_FRACT_F32
        | O::V_TRUNC_F32
        | O::V_CEIL_F32
        | O::V_RNDNE_F32
        | O::V_FLOOR_F32
        | O::V_EXP_F32
        | O::V_LOG_F32
        | O::V_RCP_F32
        | O::V_RCP_IFLAG_F32
        | O::V_RSQ_F32
        | O::V_SQRT_F32
        | O::V_SIN_F32
        | O::V_COS_F32
        | O::V_FREXP_EXP_I32_F32
        | O::V_FREXP_MANT_F32 => {
            // The ubyte conversions read raw bits (no float modifiers apply).
            let ubyte = matches!(
                op,
                O::V_CVT_F32_UBYTE0
                    | O::V_CVT_F32_UBYTE1
                    | O::V_CVT_F32_UBYTE2
                    | O::V_CVT_F32_UBYTE3
            );
            let a = cx.src(0, if ubyte { B32 } else { F32 })?;
            let f: fn(u32, &FpMode) -> u64 = match op {
                O::V_CVT_U32_F32 => |x, m| up(fp::cvt_u32_f32(x, m)),
                O::V_CVT_I32_F32 => |x, m| up(fp::cvt_i32_f32(x, m) as u32),
                O::V_CVT_RPI_I32_F32 => |x, m| up(fp::cvt_rpi_i32_f32(x, m) as u32),
                O::V_CVT_FLR_I32_F32 => |x, m| up(fp::cvt_flr_i32_f32(x, m) as u32),
                O::V_CVT_F16_F32 => |x, m| uh(fp::cvt_f16_f32(x, m)),
                O::V_CVT_F64_F32 => fp::cvt_f64_f32,
                O::V_CVT_F32_UBYTE0 => |x, _| up(fp::cvt_f32_ubyte(x, 0)),
                O::V_CVT_F32_UBYTE1 => |x, _| up(fp::cvt_f32_ubyte(x, 1)),
                O::V_CVT_F32_UBYTE2 => |x, _| up(fp::cvt_f32_ubyte(x, 2)),
                O::V_CVT_F32_UBYTE3 => |x, _| up(fp::cvt_f32_ubyte(x, 3)),
                O::V_FRACT_F32 => |x, m| up(fp::fract_f32(x, m)),
                O::V_TRUNC_F32 => |x, m| up(fp::trunc_f32(x, m)),
                O::V_CEIL_F32 => |x, m| up(fp::ceil_f32(x, m)),
                O::V_RNDNE_F32 => |x, m| up(fp::rndne_f32(x, m)),
                O::V_FLOOR_F32 => |x, m| up(fp::floor_f32(x, m)),
                O::V_EXP_F32 => |x, m| up(fp::exp_f32(x, m)),
                O::V_LOG_F32 => |x, m| up(fp::log_f32(x, m)),
                O::V_RCP_F32 => |x, m| up(fp::rcp_f32(x, m)),
                O::V_RCP_IFLAG_F32 => |x, m| up(fp::rcp_iflag_f32(x, m)),
                O::V_RSQ_F32 => |x, m| up(fp::rsq_f32(x, m)),
                O::V_SQRT_F32 => |x, m| up(fp::sqrt_f32(x, m)),
                O::V_SIN_F32 => |x, m| up(fp::sin_f32(x, m)),
                O::V_COS_F32 => |x, m| up(fp::cos_f32(x, m)),
                O::V_FREXP_EXP_I32_F32 => |x, m| up(fp::frexp_exp_i32_f32(x, m) as u32),
                _ => |x, m| up(fp::frexp_mant_f32(x, m)),
            };
            cx.map1(&a, |x| f(w(x), m))
        }
        O::V_CVT_OFF_F32_I4 => {
            // S0[3:0] as a signed 4-bit value / 16: sixteen exact constants.
            const POS: [u32; 9] = [
                0,
                0x3d80_0000,
                0x3e00_0000,
                0x3e40_0000,
                0x3e80_0000,
                0x3ea0_0000,
                0x3ec0_0000,
                0x3ee0_0000,
                0x3f00_0000,
            ];
            let a = cx.src(0, B32)?;
            cx.map1(&a, |x| {
                let i = ((x as u32 & 15) << 28) as i32 >> 28;
                let bits = POS[i.unsigned_abs() as usize];
                up(if i < 0 { bits | 0x8000_0000 } else { bits })
            })
        }
        // --- f64 one source
        O::V_CVT_F64_I32 => {
            let a = cx.src(0, B32)?;
            cx.map1(&a, |x| fp::cvt_f64_i32(w(x) as i32))
        }
        O::V_CVT_F64_U32 => {
            let a = cx.src(0, B32)?;
            cx.map1(&a, |x| fp::cvt_f64_u32(w(x)))
        }
        O::V_CVT_I32_F64
        | O::V_CVT_U32_F64
        | O::V_CVT_F32_F64
        | O::V_TRUNC_F64
        | O::V_CEIL_F64
        | O::V_RNDNE_F64
        | O::V_FLOOR_F64
        | O::V_FRACT_F64
        | O::V_RCP_F64
        | O::V_RSQ_F64
        | O::V_SQRT_F64
        | O::V_FREXP_EXP_I32_F64
        | O::V_FREXP_MANT_F64 => {
            let a = cx.src(0, F64)?;
            let f: fn(u64, &FpMode) -> u64 = match op {
                O::V_CVT_I32_F64 => |x, m| up(fp::cvt_i32_f64(x, m) as u32),
                O::V_CVT_U32_F64 => |x, m| up(fp::cvt_u32_f64(x, m)),
                O::V_CVT_F32_F64 => |x, m| up(fp::cvt_f32_f64(x, m)),
                O::V_TRUNC_F64 => fp::trunc_f64,
                O::V_CEIL_F64 => fp::ceil_f64,
                O::V_RNDNE_F64 => fp::rndne_f64,
                O::V_FLOOR_F64 => fp::floor_f64,
                O::V_FRACT_F64 => fp::fract_f64,
                O::V_RCP_F64 => fp::rcp_f64,
                O::V_RSQ_F64 => fp::rsq_f64,
                O::V_SQRT_F64 => fp::sqrt_f64,
                O::V_FREXP_EXP_I32_F64 => |x, m| up(fp::frexp_exp_i32_f64(x, m) as u32),
                _ => fp::frexp_mant_f64,
            };
            cx.map1(&a, |x| f(x, m))
        }
        // --- f16 one source
        O::V_CVT_F16_U16 | O::V_CVT_F16_I16 => {
            let a = cx.src(0, B16)?;
            if op == O::V_CVT_F16_U16 {
                cx.map1(&a, |x| uh(fp::cvt_f16_u16(h(x), m)))
            } else {
                cx.map1(&a, |x| uh(fp::cvt_f16_i16(h(x) as i16, m)))
            }
        }
        O::V_CVT_F32_F16
        | O::V_CVT_U16_F16
        | O::V_CVT_I16_F16
        | O::V_RCP_F16
        | O::V_SQRT_F16
        | O::V_RSQ_F16
        | O::V_LOG_F16
        | O::V_EXP_F16
        | O::V_FREXP_MANT_F16
        | O::V_FREXP_EXP_I16_F16
        | O::V_FLOOR_F16
        | O::V_CEIL_F16
        | O::V_TRUNC_F16
        | O::V_RNDNE_F16
        | O::V_FRACT_F16
        | O::V_SIN_F16
        | O::V_COS_F16 => {
            let a = cx.src(0, F16)?;
            let f: fn(u16, &FpMode) -> u64 = match op {
                O::V_CVT_F32_F16 => |x, m| up(fp::cvt_f32_f16(x, m)),
                O::V_CVT_U16_F16 => |x, m| uh(fp::cvt_u16_f16(x, m)),
                O::V_CVT_I16_F16 => |x, m| uh(fp::cvt_i16_f16(x, m) as u16),
                O::V_RCP_F16 => |x, m| uh(fp::rcp_f16(x, m)),
                O::V_SQRT_F16 => |x, m| uh(fp::sqrt_f16(x, m)),
                O::V_RSQ_F16 => |x, m| uh(fp::rsq_f16(x, m)),
                O::V_LOG_F16 => |x, m| uh(fp::log_f16(x, m)),
                O::V_EXP_F16 => |x, m| uh(fp::exp_f16(x, m)),
                O::V_FREXP_MANT_F16 => |x, m| uh(fp::frexp_mant_f16(x, m)),
                O::V_FREXP_EXP_I16_F16 => |x, m| uh(fp::frexp_exp_i16_f16(x, m) as u16),
                O::V_FLOOR_F16 => |x, m| uh(fp::floor_f16(x, m)),
                O::V_CEIL_F16 => |x, m| uh(fp::ceil_f16(x, m)),
                O::V_TRUNC_F16 => |x, m| uh(fp::trunc_f16(x, m)),
                O::V_RNDNE_F16 => |x, m| uh(fp::rndne_f16(x, m)),
                O::V_FRACT_F16 => |x, m| uh(fp::fract_f16(x, m)),
                O::V_SIN_F16 => |x, m| uh(fp::sin_f16(x, m)),
                _ => |x, m| uh(fp::cos_f16(x, m)),
            };
            cx.map1(&a, |x| f(h(x), m))
        }
        // --- f32 two sources
        O::V_ADD_F32
        | O::V_SUB_F32
        | O::V_SUBREV_F32
        | O::V_MUL_F32
        | O::V_MUL_LEGACY_F32
        | O::V_MIN_F32
        | O::V_MAX_F32 => {
            let a = cx.src(0, F32)?;
            let b = cx.src(1, F32)?;
            let f: fn(u32, u32, &FpMode) -> u32 = match op {
                O::V_ADD_F32 => fp::add_f32,
                O::V_SUB_F32 => |x, y, m| fp::add_f32(x, y ^ 0x8000_0000, m),
                O::V_SUBREV_F32 => |x, y, m| fp::add_f32(y, x ^ 0x8000_0000, m),
                O::V_MUL_F32 => fp::mul_f32,
                O::V_MUL_LEGACY_F32 => fp::mul_legacy_f32,
                O::V_MIN_F32 => fp::min_f32,
                _ => fp::max_f32,
            };
            cx.map2(&a, &b, |x, y| up(f(w(x), w(y), m)))
        }
        O::V_LDEXP_F32 => {
            let a = cx.src(0, F32)?;
            let b = cx.src(1, B32)?;
            cx.map2(&a, &b, |x, e| up(fp::ldexp_f32(w(x), w(e) as i32, m)))
        }
        O::V_PACK_B32_F16 => {
            // (moved from int.rs: an f16 opcode, and its `clamp` is ignored)
            let a = cx.src(0, F16)?;
            let b = cx.src(1, F16)?;
            cx.map2(&a, &b, |x, y| x | y << 16)
        }
        O::V_CVT_PKRTZ_F16_F32 => {
            let a = cx.src(0, F32)?;
            let b = cx.src(1, F32)?;
            let rtz = FpMode {
                round32: Round::Zero,
                round64: Round::Zero,
                ..*m
            };
            cx.map2(&a, &b, |x, y| {
                uh(fp::cvt_f16_f32(w(x), &rtz)) | uh(fp::cvt_f16_f32(w(y), &rtz)) << 16
            })
        }
        O::V_FMAC_F32 | O::V_FMAC_LEGACY_F32 => {
            let a = cx.src(0, F32)?;
            let b = cx.src(1, F32)?;
            let c = cx.accumulator(F32)?;
            if op == O::V_FMAC_F32 {
                cx.map3(&a, &b, &c, |x, y, z| up(fp::fma_f32(w(x), w(y), w(z), m)))
            } else {
                cx.map3(&a, &b, &c, |x, y, z| {
                    up(fp::fma_legacy_f32(w(x), w(y), w(z), m))
                })
            }
        }
        // Print order is src0, K, src1 (fmamk) and src0, src1, K (fmaak): both a*b+c.
        O::V_FMAMK_F32 | O::V_FMAAK_F32 | O::V_FMA_F32 | O::V_FMA_LEGACY_F32 => {
            let a = cx.src(0, F32)?;
            let b = cx.src(1, F32)?;
            let c = cx.src(2, F32)?;
            if op == O::V_FMA_LEGACY_F32 {
                cx.map3(&a, &b, &c, |x, y, z| {
                    up(fp::fma_legacy_f32(w(x), w(y), w(z), m))
                })
            } else {
                cx.map3(&a, &b, &c, |x, y, z| up(fp::fma_f32(w(x), w(y), w(z), m)))
            }
        }
        O::V_MIN3_F32 | O::V_MAX3_F32 | O::V_MED3_F32 | O::V_DIV_FIXUP_F32 => {
            let a = cx.src(0, F32)?;
            let b = cx.src(1, F32)?;
            let c = cx.src(2, F32)?;
            let f: fn(u32, u32, u32, &FpMode) -> u32 = match op {
                O::V_MIN3_F32 => |x, y, z, m| fp::min_f32(fp::min_f32(x, y, m), z, m),
                O::V_MAX3_F32 => |x, y, z, m| fp::max_f32(fp::max_f32(x, y, m), z, m),
                O::V_MED3_F32 => fp::med3_f32,
                _ => fp::div_fixup_f32,
            };
            cx.map3(&a, &b, &c, |x, y, z| up(f(w(x), w(y), w(z), m)))
        }
        O::V_DIV_FMAS_F32 | O::V_DIV_FMAS_F64 => {
            let ty = if op == O::V_DIV_FMAS_F32 { F32 } else { F64 };
            let a = cx.src(0, ty)?;
            let b = cx.src(1, ty)?;
            let c = cx.src(2, ty)?;
            let vcc = cx.s.vcc();
            let mut r = [0u64; 64];
            for lane in 0..cx.lanes {
                if cx.write_mask >> lane & 1 == 0 {
                    continue;
                }
                let bit = vcc >> lane & 1 != 0;
                r[lane] = if ty == F32 {
                    up(fp::div_fmas_f32(w(a[lane]), w(b[lane]), w(c[lane]), bit, m))
                } else {
                    fp::div_fmas_f64(a[lane], b[lane], c[lane], bit, m)
                };
            }
            r
        }
        O::V_DIV_SCALE_F32 | O::V_DIV_SCALE_F64 => {
            let ty = if op == O::V_DIV_SCALE_F32 { F32 } else { F64 };
            let a = cx.src(0, ty)?;
            let b = cx.src(1, ty)?;
            let c = cx.src(2, ty)?;
            let mut r = [0u64; 64];
            let mut flags = 0u64;
            for lane in 0..cx.lanes {
                if cx.write_mask >> lane & 1 == 0 {
                    continue;
                }
                let (x, f) = if ty == F32 {
                    let (x, f) = fp::div_scale_f32(w(a[lane]), w(b[lane]), w(c[lane]), m);
                    (up(x), f)
                } else {
                    fp::div_scale_f64(a[lane], b[lane], c[lane], m)
                };
                r[lane] = x;
                flags |= u64::from(f) << lane;
            }
            let code = cx.sdst_code(1)?;
            cx.write_mask_sgpr(out, code, flags);
            r
        }
        // --- f64 two and three sources
        O::V_ADD_F64 | O::V_MUL_F64 | O::V_MIN_F64 | O::V_MAX_F64 => {
            let a = cx.src(0, F64)?;
            let b = cx.src(1, F64)?;
            let f: fn(u64, u64, &FpMode) -> u64 = match op {
                O::V_ADD_F64 => fp::add_f64,
                O::V_MUL_F64 => fp::mul_f64,
                O::V_MIN_F64 => fp::min_f64,
                _ => fp::max_f64,
            };
            cx.map2(&a, &b, |x, y| f(x, y, m))
        }
        O::V_LDEXP_F64 => {
            let a = cx.src(0, F64)?;
            let b = cx.src(1, B32)?;
            cx.map2(&a, &b, |x, e| fp::ldexp_f64(x, w(e) as i32, m))
        }
        O::V_FMA_F64 | O::V_DIV_FIXUP_F64 => {
            let a = cx.src(0, F64)?;
            let b = cx.src(1, F64)?;
            let c = cx.src(2, F64)?;
            let f: fn(u64, u64, u64, &FpMode) -> u64 = if op == O::V_FMA_F64 {
                fp::fma_f64
            } else {
                fp::div_fixup_f64
            };
            cx.map3(&a, &b, &c, |x, y, z| f(x, y, z, m))
        }
        // --- f16 two and three sources
        O::V_ADD_F16
        | O::V_SUB_F16
        | O::V_SUBREV_F16
        | O::V_MUL_F16
        | O::V_MAX_F16
        | O::V_MIN_F16 => {
            let a = cx.src(0, F16)?;
            let b = cx.src(1, F16)?;
            let f: fn(u16, u16, &FpMode) -> u16 = match op {
                O::V_ADD_F16 => fp::add_f16,
                O::V_SUB_F16 => |x, y, m| fp::add_f16(x, y ^ 0x8000, m),
                O::V_SUBREV_F16 => |x, y, m| fp::add_f16(y, x ^ 0x8000, m),
                O::V_MUL_F16 => fp::mul_f16,
                O::V_MAX_F16 => fp::max_f16,
                _ => fp::min_f16,
            };
            cx.map2(&a, &b, |x, y| uh(f(h(x), h(y), m)))
        }
        O::V_LDEXP_F16 => {
            let a = cx.src(0, F16)?;
            // S1 is an i16 (RDNA2 guide: `S0.f16 * 2 ** S1.i16`): the low
            // half of a 32-bit operand (LLVM types it i32, so op_sel does not
            // pick its half).
            let b = cx.src(1, B32)?;
            cx.map2(&a, &b, |x, e| {
                uh(fp::ldexp_f16(h(x), i32::from(h(e) as i16), m))
            })
        }
        O::V_FMAC_F16 => {
            let a = cx.src(0, F16)?;
            let b = cx.src(1, F16)?;
            let c = cx.accumulator(F16)?;
            cx.map3(&a, &b, &c, |x, y, z| uh(fp::fma_f16(h(x), h(y), h(z), m)))
        }
        O::V_FMAMK_F16
        | O::V_FMAAK_F16
        | O::V_FMA_F16
        | O::V_MIN3_F16
        | O::V_MAX3_F16
        | O::V_MED3_F16
        | O::V_DIV_FIXUP_F16 => {
            let a = cx.src(0, F16)?;
            let b = cx.src(1, F16)?;
            let c = cx.src(2, F16)?;
            let f: fn(u16, u16, u16, &FpMode) -> u16 = match op {
                O::V_MIN3_F16 => |x, y, z, m| fp::min_f16(fp::min_f16(x, y, m), z, m),
                O::V_MAX3_F16 => |x, y, z, m| fp::max_f16(fp::max_f16(x, y, m), z, m),
                O::V_MED3_F16 => fp::med3_f16,
                O::V_DIV_FIXUP_F16 => fp::div_fixup_f16,
                _ => fp::fma_f16,
            };
            cx.map3(&a, &b, &c, |x, y, z| uh(f(h(x), h(y), h(z), m)))
        }
        O::V_PK_FMAC_F16 => {
            let a = cx.src(0, B32)?;
            let b = cx.src(1, B32)?;
            let c = cx.accumulator(B32)?;
            cx.map3(&a, &b, &c, |x, y, z| {
                let lo = fp::fma_f16(h(x), h(y), h(z), m);
                let hi = fp::fma_f16(h(x >> 16), h(y >> 16), h(z >> 16), m);
                uh(lo) | uh(hi) << 16
            })
        }
        _ => {
            return Ok(rare::execute(cx, out)?
                || pack::execute(cx, out)?
                || super::packed_float::execute(cx, out)?)
        }
    };
    if no_output_modifiers(op) {
        // Float to integer conversions saturate by themselves: `clamp` (the
        // only output modifier their VOP3 form has) changes nothing. The
        // two packing opcodes ignore `clamp` and `omod` as the golden GPU
        // does (docs/floating-point.md).
        let ty = cx.dst_ty()?;
        cx.write_vgpr(out, 0, ty, &vals, cx.write_mask)?;
    } else {
        cx.finish(out, vals)?;
    }
    Ok(true)
}

/// Opcodes with float sources whose result takes no output modifier: an
/// integer result, or two f16 packed into a dword.
fn no_output_modifiers(op: Opcode) -> bool {
    use Opcode as O;
    matches!(
        op,
        O::V_CVT_PKRTZ_F16_F32
            | O::V_PACK_B32_F16
            | O::V_CVT_U32_F32
            | O::V_CVT_I32_F32
            | O::V_CVT_RPI_I32_F32
            | O::V_CVT_FLR_I32_F32
            | O::V_CVT_I32_F64
            | O::V_CVT_U32_F64
            | O::V_CVT_U16_F16
            | O::V_CVT_I16_F16
            | O::V_FREXP_EXP_I32_F32
            | O::V_FREXP_EXP_I32_F64
            | O::V_FREXP_EXP_I16_F16
    )
}
