//! Integer and bit operations of VOP1, VOP2 and VOP3 (including VOP3b
//! carry-outs). Every lane computes the exact (unbounded) result as an `i128`;
//! the destination width truncates it, or with `clamp` saturates it to the
//! destination's unsigned or signed range.

use arch::device::FaultKind;
use arch::isa::{Family, Opcode};

use super::super::Writes;
use super::{malformed, Cx, LaneVals, Ty};

/// What `clamp` saturates to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sat {
    /// `clamp` is not defined for the opcode.
    None,
    U16,
    I16,
    U32,
    I32,
}

type Wide = [i128; 64];

fn s16(x: u64) -> i128 {
    i128::from(x as u16 as i16)
}
fn u16_(x: u64) -> i128 {
    i128::from(x as u16)
}
fn s24(x: u64) -> i128 {
    i128::from(((x as u32) << 8) as i32 >> 8)
}
fn u24(x: u64) -> i128 {
    i128::from(x as u32 & 0xff_ffff)
}
fn s32(x: u64) -> i128 {
    i128::from(x as u32 as i32)
}
fn u32_(x: u64) -> i128 {
    i128::from(x as u32)
}

fn med3<T: Ord + Copy>(a: T, b: T, c: T) -> T {
    a.max(b).min(a.min(b).max(c))
}

fn bfe_u(x: u32, off: u32, w: u32) -> u32 {
    let (off, w) = (off & 31, w & 31);
    if w == 0 {
        0
    } else if off + w < 32 {
        (x >> off) & ((1 << w) - 1)
    } else {
        x >> off
    }
}

fn bfe_i(x: u32, off: u32, w: u32) -> u32 {
    let (off, w) = (off & 31, w & 31);
    if w == 0 {
        return 0;
    }
    if off + w < 32 {
        let f = (x >> off) & ((1 << w) - 1);
        ((f << (32 - w)) as i32 >> (32 - w)) as u32
    } else {
        ((x as i32) >> off) as u32
    }
}

/// Sum of absolute differences of the four bytes of `a` and `b`.
fn sad_u8(a: u32, b: u32, skip_zero_ref: bool) -> u32 {
    (0..4)
        .map(|i| {
            let x = (a >> (8 * i)) & 0xff;
            let y = (b >> (8 * i)) & 0xff;
            if skip_zero_ref && y == 0 {
                0
            } else {
                x.abs_diff(y)
            }
        })
        .sum()
}

/// `v_perm_b32`: byte select from {S0, S1} with constant selectors.
fn perm(s0: u32, s1: u32, sel: u32) -> u32 {
    let bytes = u64::from(s1) | u64::from(s0) << 32;
    let mut d = 0u32;
    for i in 0..4 {
        let s = (sel >> (8 * i)) & 0xff;
        let byte = match s {
            0..=7 => (bytes >> (8 * s)) as u32 & 0xff,
            8..=11 => {
                // Sign of the 16-bit halves: byte 1, 3 of S1, then of S0.
                let src = 2 * (s - 8) + 1;
                if (bytes >> (8 * src + 7)) & 1 != 0 {
                    0xff
                } else {
                    0
                }
            }
            12 => 0,
            _ => 0xff,
        };
        d |= byte << (8 * i);
    }
    d
}

/// `v_lerp_u8`: per-byte rounded average with S2's byte-0 rounding bits.
fn lerp_u8(a: u32, b: u32, c: u32) -> u32 {
    let mut d = 0;
    for i in 0..4 {
        let x = (a >> (8 * i)) & 0xff;
        let y = (b >> (8 * i)) & 0xff;
        let r = (c >> (8 * i)) & 1;
        d |= ((x + y + r) >> 1) << (8 * i);
    }
    d
}

/// Number of lanes below `lane` set in `mask` (32 bits per half).
fn mbcnt(mask: u32, lane: usize, hi: bool) -> i128 {
    let below = if hi {
        lane.saturating_sub(32)
    } else {
        lane.min(32)
    };
    let m = if below >= 32 {
        mask
    } else {
        mask & ((1u32 << below) - 1)
    };
    i128::from(m.count_ones())
}

impl Cx<'_> {
    fn lanes1(&self, a: &LaneVals, f: impl Fn(u64) -> i128) -> Wide {
        let mut r = [0i128; 64];
        for lane in 0..self.lanes {
            if self.write_mask >> lane & 1 != 0 {
                r[lane] = f(a[lane]);
            }
        }
        r
    }

    fn lanes2(&self, a: &LaneVals, b: &LaneVals, f: impl Fn(u64, u64) -> i128) -> Wide {
        let mut r = [0i128; 64];
        for lane in 0..self.lanes {
            if self.write_mask >> lane & 1 != 0 {
                r[lane] = f(a[lane], b[lane]);
            }
        }
        r
    }

    fn lanes3(
        &self,
        a: &LaneVals,
        b: &LaneVals,
        c: &LaneVals,
        f: impl Fn(u64, u64, u64) -> i128,
    ) -> Wide {
        let mut r = [0i128; 64];
        for lane in 0..self.lanes {
            if self.write_mask >> lane & 1 != 0 {
                r[lane] = f(a[lane], b[lane], c[lane]);
            }
        }
        r
    }

    /// Truncates (or with `clamp`, saturates) the exact results and writes
    /// them to the first destination.
    fn store(&self, out: &mut Writes, exact: &Wide, sat: Sat) -> Result<(), FaultKind> {
        let ty = self.dst_ty()?;
        let clamp = self.inst.modifiers.clamp;
        let (lo, hi) = match sat {
            Sat::U16 => (0, 0xffff),
            Sat::I16 => (-0x8000, 0x7fff),
            Sat::U32 => (0, 0xffff_ffff),
            Sat::I32 => (-0x8000_0000, 0x7fff_ffff),
            Sat::None => (i128::MIN, i128::MAX),
        };
        // With `Sat::None` the result is always in range (min/max/med3, bit
        // operations): `clamp` changes nothing.
        let mut vals = [0u64; 64];
        for lane in 0..self.lanes {
            let x = if clamp {
                exact[lane].clamp(lo, hi)
            } else {
                exact[lane]
            };
            vals[lane] = x as u64;
        }
        self.write_vgpr(out, 0, ty, &vals, self.write_mask)
    }

    /// The type of the first destination.
    pub(crate) fn dst_ty(&self) -> Result<Ty, FaultKind> {
        match self.inst.operands().first() {
            Some(arch::isa::Operand::Src { ty, .. }) => Ok(Ty::of(*ty)),
            _ => Err(malformed(self.inst)),
        }
    }

    /// The carry-in mask: VCC for e32 forms, `src2` for VOP3b.
    fn carry_in(&self) -> Result<u64, FaultKind> {
        let op = if self.inst.family == Family::Vop3 {
            self.src_op(2)?
        } else {
            // e32/SDWA/DPP: the trailing vcc operand.
            self.inst
                .operands()
                .last()
                .ok_or_else(|| malformed(self.inst))?
        };
        self.mask_src(op)
    }

    /// Writes the carry/borrow-out mask (bit 32 of each exact result, or a
    /// negative result for subtraction) to the second destination.
    fn carry_out(&self, out: &mut Writes, exact: &Wide) -> Result<(), FaultKind> {
        let mut mask = 0u64;
        for lane in 0..self.lanes {
            if self.write_mask >> lane & 1 != 0 && !(0..=0xffff_ffff).contains(&exact[lane]) {
                mask |= 1 << lane;
            }
        }
        let code = self.sdst_code(1)?;
        self.write_mask_sgpr(out, code, mask);
        Ok(())
    }
}

/// Executes an integer or bit opcode; `Ok(false)` when `cx`'s opcode is not one.
pub(crate) fn execute(cx: &mut Cx<'_>, out: &mut Writes) -> Result<bool, FaultKind> {
    use Opcode as O;
    use Ty::{B16, B32, B64};
    let op = cx.inst.opcode;
    let (exact, sat) = match op {
        O::V_NOP | O::V_PIPEFLUSH | O::V_CLREXCP => return Ok(true),
        O::V_ILLEGAL => {
            return Err(FaultKind::IllegalInstruction {
                reason: "`v_illegal` executed".into(),
            })
        }
        // --- one source
        O::V_MOV_B32 => {
            let a = cx.src(0, B32)?;
            (cx.lanes1(&a, u32_), Sat::None)
        }
        O::V_NOT_B32 => {
            let a = cx.src(0, B32)?;
            (cx.lanes1(&a, |x| i128::from(!(x as u32))), Sat::None)
        }
        O::V_BFREV_B32 => {
            let a = cx.src(0, B32)?;
            (
                cx.lanes1(&a, |x| i128::from((x as u32).reverse_bits())),
                Sat::None,
            )
        }
        O::V_FFBH_U32 => {
            let a = cx.src(0, B32)?;
            let f = |x: u64| {
                let x = x as u32;
                i128::from(if x == 0 { u32::MAX } else { x.leading_zeros() })
            };
            (cx.lanes1(&a, f), Sat::None)
        }
        O::V_FFBL_B32 => {
            let a = cx.src(0, B32)?;
            let f = |x: u64| {
                let x = x as u32;
                i128::from(if x == 0 { u32::MAX } else { x.trailing_zeros() })
            };
            (cx.lanes1(&a, f), Sat::None)
        }
        O::V_FFBH_I32 => {
            let a = cx.src(0, B32)?;
            let f = |x: u64| {
                let x = x as u32 as i32;
                i128::from(if x == 0 || x == -1 {
                    u32::MAX
                } else if x < 0 {
                    (!x).leading_zeros()
                } else {
                    x.leading_zeros()
                })
            };
            (cx.lanes1(&a, f), Sat::None)
        }
        O::V_SAT_PK_U8_I16 => {
            let a = cx.src(0, B32)?;
            let f = |x: u64| {
                let lo = (x as u16 as i16).clamp(0, 255) as u32;
                let hi = ((x >> 16) as u16 as i16).clamp(0, 255) as u32;
                i128::from(lo | hi << 8)
            };
            (cx.lanes1(&a, f), Sat::None)
        }
        // --- two sources, 32-bit
        O::V_CNDMASK_B32 => {
            // Untyped bits; its `abs`/`neg` (LLVM accepts them) apply in `Cx::read`.
            let a = cx.src(0, B32)?;
            let b = cx.src(1, B32)?;
            let sel = if cx.inst.family == Family::Vop3 {
                cx.mask_src(cx.src_op(2)?)?
            } else {
                cx.s.vcc() & cx.all()
            };
            let mut r = [0i128; 64];
            for lane in 0..cx.lanes {
                r[lane] = if sel >> lane & 1 != 0 {
                    u32_(b[lane])
                } else {
                    u32_(a[lane])
                };
            }
            (r, Sat::None)
        }
        O::V_MUL_I32_I24 | O::V_MUL_HI_I32_I24 | O::V_MUL_U32_U24 | O::V_MUL_HI_U32_U24 => {
            let a = cx.src(0, B32)?;
            let b = cx.src(1, B32)?;
            let (r, sat) = match op {
                O::V_MUL_I32_I24 => (cx.lanes2(&a, &b, |x, y| s24(x) * s24(y)), Sat::I32),
                O::V_MUL_U32_U24 => (cx.lanes2(&a, &b, |x, y| u24(x) * u24(y)), Sat::U32),
                O::V_MUL_HI_I32_I24 => (
                    cx.lanes2(&a, &b, |x, y| (s24(x) * s24(y)) >> 32 & 0xffff_ffff),
                    Sat::None,
                ),
                _ => (cx.lanes2(&a, &b, |x, y| (u24(x) * u24(y)) >> 32), Sat::None),
            };
            (r, sat)
        }
        O::V_MIN_I32 | O::V_MAX_I32 | O::V_MIN_U32 | O::V_MAX_U32 => {
            let a = cx.src(0, B32)?;
            let b = cx.src(1, B32)?;
            let r = match op {
                O::V_MIN_I32 => cx.lanes2(&a, &b, |x, y| s32(x).min(s32(y)) & 0xffff_ffff),
                O::V_MAX_I32 => cx.lanes2(&a, &b, |x, y| s32(x).max(s32(y)) & 0xffff_ffff),
                O::V_MIN_U32 => cx.lanes2(&a, &b, |x, y| u32_(x).min(u32_(y))),
                _ => cx.lanes2(&a, &b, |x, y| u32_(x).max(u32_(y))),
            };
            (r, Sat::None)
        }
        O::V_LSHRREV_B32 | O::V_ASHRREV_I32 | O::V_LSHLREV_B32 => {
            let a = cx.src(0, B32)?;
            let b = cx.src(1, B32)?;
            let r = match op {
                O::V_LSHRREV_B32 => cx.lanes2(&a, &b, |s, x| u32_(x) >> (s & 31)),
                O::V_ASHRREV_I32 => cx.lanes2(&a, &b, |s, x| (s32(x) >> (s & 31)) & 0xffff_ffff),
                _ => cx.lanes2(&a, &b, |s, x| i128::from((x as u32) << (s & 31))),
            };
            (r, Sat::None)
        }
        O::V_AND_B32 | O::V_OR_B32 | O::V_XOR_B32 | O::V_XNOR_B32 | O::V_BFM_B32 => {
            let a = cx.src(0, B32)?;
            let b = cx.src(1, B32)?;
            let r = match op {
                O::V_AND_B32 => cx.lanes2(&a, &b, |x, y| u32_(x & y)),
                O::V_OR_B32 => cx.lanes2(&a, &b, |x, y| u32_(x | y)),
                O::V_XOR_B32 => cx.lanes2(&a, &b, |x, y| u32_(x ^ y)),
                O::V_XNOR_B32 => cx.lanes2(&a, &b, |x, y| u32_(!(x ^ y))),
                _ => cx.lanes2(&a, &b, |w, o| {
                    let m = ((1u64 << (w & 31)) - 1) as u32;
                    i128::from(m << (o & 31))
                }),
            };
            (r, Sat::None)
        }
        O::V_ADD_NC_U32 | O::V_SUB_NC_U32 | O::V_SUBREV_NC_U32 => {
            let a = cx.src(0, B32)?;
            let b = cx.src(1, B32)?;
            let r = match op {
                O::V_ADD_NC_U32 => cx.lanes2(&a, &b, |x, y| u32_(x) + u32_(y)),
                O::V_SUB_NC_U32 => cx.lanes2(&a, &b, |x, y| u32_(x) - u32_(y)),
                _ => cx.lanes2(&a, &b, |x, y| u32_(y) - u32_(x)),
            };
            (r, Sat::U32)
        }
        O::V_ADD_NC_I32 | O::V_SUB_NC_I32 => {
            let a = cx.src(0, B32)?;
            let b = cx.src(1, B32)?;
            let r = match op {
                O::V_ADD_NC_I32 => cx.lanes2(&a, &b, |x, y| s32(x) + s32(y)),
                _ => cx.lanes2(&a, &b, |x, y| s32(x) - s32(y)),
            };
            (r, Sat::I32)
        }
        O::V_ADD_CO_U32 | O::V_SUB_CO_U32 | O::V_SUBREV_CO_U32 => {
            let a = cx.src(0, B32)?;
            let b = cx.src(1, B32)?;
            let r = match op {
                O::V_ADD_CO_U32 => cx.lanes2(&a, &b, |x, y| u32_(x) + u32_(y)),
                O::V_SUB_CO_U32 => cx.lanes2(&a, &b, |x, y| u32_(x) - u32_(y)),
                _ => cx.lanes2(&a, &b, |x, y| u32_(y) - u32_(x)),
            };
            cx.carry_out(out, &r)?;
            (r, Sat::U32)
        }
        O::V_ADD_CO_CI_U32 | O::V_SUB_CO_CI_U32 | O::V_SUBREV_CO_CI_U32 => {
            let a = cx.src(0, B32)?;
            let b = cx.src(1, B32)?;
            let cin = cx.carry_in()?;
            let mut r = [0i128; 64];
            for lane in 0..cx.lanes {
                if cx.write_mask >> lane & 1 == 0 {
                    continue;
                }
                let c = i128::from(cin >> lane & 1);
                let (x, y) = (u32_(a[lane]), u32_(b[lane]));
                r[lane] = match op {
                    O::V_ADD_CO_CI_U32 => x + y + c,
                    O::V_SUB_CO_CI_U32 => x - y - c,
                    _ => y - x - c,
                };
            }
            cx.carry_out(out, &r)?;
            (r, Sat::U32)
        }
        O::V_MUL_LO_U32 | O::V_MUL_HI_U32 | O::V_MUL_HI_I32 => {
            let a = cx.src(0, B32)?;
            let b = cx.src(1, B32)?;
            let r = match op {
                O::V_MUL_LO_U32 => cx.lanes2(&a, &b, |x, y| (u32_(x) * u32_(y)) & 0xffff_ffff),
                O::V_MUL_HI_U32 => cx.lanes2(&a, &b, |x, y| (u32_(x) * u32_(y)) >> 32),
                _ => cx.lanes2(&a, &b, |x, y| (s32(x) * s32(y)) >> 32 & 0xffff_ffff),
            };
            (r, Sat::None)
        }
        O::V_BCNT_U32_B32 => {
            let a = cx.src(0, B32)?;
            let b = cx.src(1, B32)?;
            (
                cx.lanes2(&a, &b, |x, y| i128::from((x as u32).count_ones()) + u32_(y)),
                Sat::U32,
            )
        }
        O::V_MBCNT_LO_U32_B32 | O::V_MBCNT_HI_U32_B32 => {
            let a = cx.src(0, B32)?;
            let b = cx.src(1, B32)?;
            let hi = op == O::V_MBCNT_HI_U32_B32;
            let mut r = [0i128; 64];
            for lane in 0..cx.lanes {
                r[lane] = mbcnt(a[lane] as u32, lane, hi) + u32_(b[lane]);
            }
            (r, Sat::U32)
        }
        O::V_CVT_PK_U16_U32 | O::V_CVT_PK_I16_I32 => {
            let a = cx.src(0, B32)?;
            let b = cx.src(1, B32)?;
            let r = if op == O::V_CVT_PK_U16_U32 {
                cx.lanes2(&a, &b, |x, y| {
                    let p = |v: u64| (v as u32).min(0xffff);
                    i128::from(p(x) | p(y) << 16)
                })
            } else {
                cx.lanes2(&a, &b, |x, y| {
                    let p = |v: u64| (v as u32 as i32).clamp(-0x8000, 0x7fff) as u32 & 0xffff;
                    i128::from(p(x) | p(y) << 16)
                })
            };
            (r, Sat::None)
        }
        O::V_DOT4C_I32_I8 => {
            let a = cx.src(0, B32)?;
            let b = cx.src(1, B32)?;
            let acc = *cx
                .inst
                .operands()
                .first()
                .ok_or_else(|| malformed(cx.inst))?;
            let d = cx.read(&acc, 3, B32)?;
            let r = cx.lanes3(&a, &b, &d, |x, y, acc| {
                let dot: i128 = (0..4)
                    .map(|i| i128::from((x >> (8 * i)) as i8) * i128::from((y >> (8 * i)) as i8))
                    .sum();
                (s32(acc) + dot) & 0xffff_ffff
            });
            (r, Sat::None)
        }
        // --- 64-bit shifts: the shift amount is src0, the value src1
        O::V_LSHLREV_B64 | O::V_LSHRREV_B64 | O::V_ASHRREV_I64 => {
            let a = cx.src(0, B32)?;
            let b = cx.src(1, B64)?;
            let r = match op {
                O::V_LSHLREV_B64 => cx.lanes2(&a, &b, |s, x| i128::from(x << (s & 63))),
                O::V_LSHRREV_B64 => cx.lanes2(&a, &b, |s, x| i128::from(x >> (s & 63))),
                _ => cx.lanes2(&a, &b, |s, x| i128::from(((x as i64) >> (s & 63)) as u64)),
            };
            (r, Sat::None)
        }
        // --- 16-bit
        O::V_ADD_NC_U16
        | O::V_SUB_NC_U16
        | O::V_MUL_LO_U16
        | O::V_ADD_NC_I16
        | O::V_SUB_NC_I16
        | O::V_LSHRREV_B16
        | O::V_ASHRREV_I16
        | O::V_LSHLREV_B16
        | O::V_MAX_U16
        | O::V_MAX_I16
        | O::V_MIN_U16
        | O::V_MIN_I16 => {
            let a = cx.src(0, B16)?;
            let b = cx.src(1, B16)?;
            match op {
                O::V_ADD_NC_U16 => (cx.lanes2(&a, &b, |x, y| u16_(x) + u16_(y)), Sat::U16),
                O::V_SUB_NC_U16 => (cx.lanes2(&a, &b, |x, y| u16_(x) - u16_(y)), Sat::U16),
                O::V_MUL_LO_U16 => (cx.lanes2(&a, &b, |x, y| u16_(x) * u16_(y)), Sat::U16),
                O::V_ADD_NC_I16 => (cx.lanes2(&a, &b, |x, y| s16(x) + s16(y)), Sat::I16),
                O::V_SUB_NC_I16 => (cx.lanes2(&a, &b, |x, y| s16(x) - s16(y)), Sat::I16),
                O::V_LSHRREV_B16 => (cx.lanes2(&a, &b, |s, x| u16_(x) >> (s & 15)), Sat::None),
                O::V_ASHRREV_I16 => (cx.lanes2(&a, &b, |s, x| s16(x) >> (s & 15)), Sat::None),
                O::V_LSHLREV_B16 => (cx.lanes2(&a, &b, |s, x| u16_(x) << (s & 15)), Sat::None),
                O::V_MAX_U16 => (cx.lanes2(&a, &b, |x, y| u16_(x).max(u16_(y))), Sat::None),
                O::V_MAX_I16 => (cx.lanes2(&a, &b, |x, y| s16(x).max(s16(y))), Sat::None),
                O::V_MIN_U16 => (cx.lanes2(&a, &b, |x, y| u16_(x).min(u16_(y))), Sat::None),
                _ => (cx.lanes2(&a, &b, |x, y| s16(x).min(s16(y))), Sat::None),
            }
        }
        O::V_MAD_U16 | O::V_MAD_I16 => {
            let a = cx.src(0, B16)?;
            let b = cx.src(1, B16)?;
            let c = cx.src(2, B16)?;
            if op == O::V_MAD_U16 {
                (
                    cx.lanes3(&a, &b, &c, |x, y, z| u16_(x) * u16_(y) + u16_(z)),
                    Sat::U16,
                )
            } else {
                (
                    cx.lanes3(&a, &b, &c, |x, y, z| s16(x) * s16(y) + s16(z)),
                    Sat::I16,
                )
            }
        }
        O::V_MAD_U32_U16 | O::V_MAD_I32_I16 => {
            let a = cx.src(0, B16)?;
            let b = cx.src(1, B16)?;
            let c = cx.src(2, B32)?;
            if op == O::V_MAD_U32_U16 {
                (
                    cx.lanes3(&a, &b, &c, |x, y, z| u16_(x) * u16_(y) + u32_(z)),
                    Sat::U32,
                )
            } else {
                (
                    cx.lanes3(&a, &b, &c, |x, y, z| s16(x) * s16(y) + s32(z)),
                    Sat::I32,
                )
            }
        }
        O::V_MIN3_I16
        | O::V_MIN3_U16
        | O::V_MAX3_I16
        | O::V_MAX3_U16
        | O::V_MED3_I16
        | O::V_MED3_U16 => {
            let a = cx.src(0, B16)?;
            let b = cx.src(1, B16)?;
            let c = cx.src(2, B16)?;
            let r = match op {
                O::V_MIN3_I16 => cx.lanes3(&a, &b, &c, |x, y, z| s16(x).min(s16(y)).min(s16(z))),
                O::V_MIN3_U16 => cx.lanes3(&a, &b, &c, |x, y, z| u16_(x).min(u16_(y)).min(u16_(z))),
                O::V_MAX3_I16 => cx.lanes3(&a, &b, &c, |x, y, z| s16(x).max(s16(y)).max(s16(z))),
                O::V_MAX3_U16 => cx.lanes3(&a, &b, &c, |x, y, z| u16_(x).max(u16_(y)).max(u16_(z))),
                O::V_MED3_I16 => cx.lanes3(&a, &b, &c, |x, y, z| med3(s16(x), s16(y), s16(z))),
                _ => cx.lanes3(&a, &b, &c, |x, y, z| med3(u16_(x), u16_(y), u16_(z))),
            };
            (r, Sat::None)
        }
        // --- three sources, 32-bit
        O::V_MAD_I32_I24 | O::V_MAD_U32_U24 => {
            let a = cx.src(0, B32)?;
            let b = cx.src(1, B32)?;
            let c = cx.src(2, B32)?;
            if op == O::V_MAD_I32_I24 {
                (
                    cx.lanes3(&a, &b, &c, |x, y, z| s24(x) * s24(y) + s32(z)),
                    Sat::I32,
                )
            } else {
                (
                    cx.lanes3(&a, &b, &c, |x, y, z| u24(x) * u24(y) + u32_(z)),
                    Sat::U32,
                )
            }
        }
        O::V_ADD3_U32 | O::V_XAD_U32 | O::V_LSHL_ADD_U32 | O::V_ADD_LSHL_U32 => {
            let a = cx.src(0, B32)?;
            let b = cx.src(1, B32)?;
            let c = cx.src(2, B32)?;
            let r = match op {
                O::V_ADD3_U32 => {
                    return store3(cx, out, &a, &b, &c, |x, y, z| u32_(x) + u32_(y) + u32_(z))
                        .map(|_| true);
                }
                O::V_XAD_U32 => cx.lanes3(&a, &b, &c, |x, y, z| u32_(x ^ y) + u32_(z)),
                O::V_LSHL_ADD_U32 => cx.lanes3(&a, &b, &c, |x, s, z| {
                    i128::from((x as u32) << (s & 31)) + u32_(z)
                }),
                _ => cx.lanes3(&a, &b, &c, |x, y, s| {
                    i128::from((x as u32).wrapping_add(y as u32) << (s & 31))
                }),
            };
            (r, Sat::None)
        }
        O::V_BFE_U32
        | O::V_BFE_I32
        | O::V_BFI_B32
        | O::V_ALIGNBIT_B32
        | O::V_ALIGNBYTE_B32
        | O::V_XOR3_B32
        | O::V_LSHL_OR_B32
        | O::V_AND_OR_B32
        | O::V_OR3_B32
        | O::V_PERM_B32
        | O::V_LERP_U8
        | O::V_MIN3_I32
        | O::V_MIN3_U32
        | O::V_MAX3_I32
        | O::V_MAX3_U32
        | O::V_MED3_I32
        | O::V_MED3_U32
        | O::V_SAD_U8
        | O::V_SAD_HI_U8
        | O::V_SAD_U32
        | O::V_MSAD_U8 => {
            let a = cx.src(0, B32)?;
            let b = cx.src(1, B32)?;
            let c = cx.src(2, B32)?;
            let w = |x: u64| x as u32;
            let r = match op {
                O::V_BFE_U32 => {
                    cx.lanes3(&a, &b, &c, |x, o, n| i128::from(bfe_u(w(x), w(o), w(n))))
                }
                O::V_BFE_I32 => {
                    cx.lanes3(&a, &b, &c, |x, o, n| i128::from(bfe_i(w(x), w(o), w(n))))
                }
                O::V_BFI_B32 => cx.lanes3(&a, &b, &c, |m, x, y| u32_(m & x | !m & y)),
                O::V_ALIGNBIT_B32 => cx.lanes3(&a, &b, &c, |x, y, s| {
                    u32_(((x << 32 | y & 0xffff_ffff) >> (s & 31)) & 0xffff_ffff)
                }),
                O::V_ALIGNBYTE_B32 => cx.lanes3(&a, &b, &c, |x, y, s| {
                    u32_(((x << 32 | y & 0xffff_ffff) >> (8 * (s & 3))) & 0xffff_ffff)
                }),
                O::V_XOR3_B32 => cx.lanes3(&a, &b, &c, |x, y, z| u32_(x ^ y ^ z)),
                O::V_LSHL_OR_B32 => {
                    cx.lanes3(&a, &b, &c, |x, s, z| i128::from((w(x) << (s & 31)) | w(z)))
                }
                O::V_AND_OR_B32 => cx.lanes3(&a, &b, &c, |x, y, z| u32_((x & y) | z)),
                O::V_OR3_B32 => cx.lanes3(&a, &b, &c, |x, y, z| u32_(x | y | z)),
                O::V_PERM_B32 => {
                    cx.lanes3(&a, &b, &c, |x, y, s| i128::from(perm(w(x), w(y), w(s))))
                }
                O::V_LERP_U8 => {
                    cx.lanes3(&a, &b, &c, |x, y, z| i128::from(lerp_u8(w(x), w(y), w(z))))
                }
                O::V_MIN3_I32 => cx.lanes3(&a, &b, &c, |x, y, z| {
                    s32(x).min(s32(y)).min(s32(z)) & 0xffff_ffff
                }),
                O::V_MIN3_U32 => cx.lanes3(&a, &b, &c, |x, y, z| u32_(x.min(y).min(z))),
                O::V_MAX3_I32 => cx.lanes3(&a, &b, &c, |x, y, z| {
                    s32(x).max(s32(y)).max(s32(z)) & 0xffff_ffff
                }),
                O::V_MAX3_U32 => cx.lanes3(&a, &b, &c, |x, y, z| u32_(x.max(y).max(z))),
                O::V_MED3_I32 => cx.lanes3(&a, &b, &c, |x, y, z| {
                    med3(s32(x), s32(y), s32(z)) & 0xffff_ffff
                }),
                O::V_MED3_U32 => cx.lanes3(&a, &b, &c, |x, y, z| med3(u32_(x), u32_(y), u32_(z))),
                O::V_SAD_U8 => cx.lanes3(&a, &b, &c, |x, y, z| {
                    i128::from(sad_u8(w(x), w(y), false)) + u32_(z)
                }),
                O::V_SAD_HI_U8 => cx.lanes3(&a, &b, &c, |x, y, z| {
                    (i128::from(sad_u8(w(x), w(y), false)) << 16) + u32_(z)
                }),
                O::V_MSAD_U8 => cx.lanes3(&a, &b, &c, |x, y, z| {
                    i128::from(sad_u8(w(x), w(y), true)) + u32_(z)
                }),
                _ => cx.lanes3(&a, &b, &c, |x, y, z| {
                    i128::from(w(x).abs_diff(w(y))) + u32_(z)
                }),
            };
            let sat = match op {
                O::V_SAD_U8 | O::V_SAD_HI_U8 | O::V_MSAD_U8 | O::V_SAD_U32 => Sat::U32,
                _ => Sat::None,
            };
            (r, sat)
        }
        O::V_QSAD_PK_U16_U8 | O::V_MQSAD_PK_U16_U8 => {
            // Four SADs of S1 against the byte windows S0[31:0], S0[39:8],
            // S0[47:16], S0[55:24], each added to a 16-bit half of S2.
            let a = cx.src(0, B64)?;
            let b = cx.src(1, B32)?;
            let c = cx.src(2, B64)?;
            let masked = op == O::V_MQSAD_PK_U16_U8;
            let clamp = cx.inst.modifiers.clamp;
            let mut vals = [0u64; 64];
            for lane in 0..cx.lanes {
                let mut d = 0u64;
                for k in 0..4 {
                    let window = (a[lane] >> (8 * k)) as u32;
                    let acc = (c[lane] >> (16 * k)) & 0xffff;
                    let sum = u64::from(sad_u8(window, b[lane] as u32, masked)) + acc;
                    let sum = if clamp { sum.min(0xffff) } else { sum & 0xffff };
                    d |= sum << (16 * k);
                }
                vals[lane] = d;
            }
            cx.write_vgpr(out, 0, B64, &vals, cx.write_mask)?;
            return Ok(true);
        }
        O::V_MQSAD_U32_U8 => {
            // Four 32-bit masked SADs of S1 against the byte windows of S0,
            // each added to a dword of the 128-bit S2.
            let a = cx.src(0, B64)?;
            let b = cx.src(1, B32)?;
            let s2 = *cx.src_op(2)?;
            let mut acc = [[0u32; 64]; 4];
            for (k, dw) in acc.iter_mut().enumerate() {
                *dw = super::super::operand::vector_dword(&s2, k as u16, cx.s, &cx.v)?;
            }
            let clamp = cx.inst.modifiers.clamp;
            for k in 0..4 {
                let mut vals = [0u64; 64];
                for lane in 0..cx.lanes {
                    let window = (a[lane] >> (8 * k)) as u32;
                    let sum =
                        u64::from(sad_u8(window, b[lane] as u32, true)) + u64::from(acc[k][lane]);
                    vals[lane] = if clamp { sum.min(0xffff_ffff) } else { sum };
                }
                cx.write_vgpr_dword(out, k, &vals)?;
            }
            return Ok(true);
        }
        O::V_SAD_U16 => {
            let a = cx.src(0, B16)?;
            let b = cx.src(1, B16)?;
            let c = cx.src(2, B32)?;
            // The 16-bit destination of v_sad_u16 is a 32-bit result in LLVM's
            // table (b16 only for the sources' inline constants).
            let r = cx.lanes3(&a, &b, &c, |x, y, z| {
                i128::from((x as u16).abs_diff(y as u16)) + u32_(z)
            });
            let mut vals = [0u64; 64];
            let clamp = cx.inst.modifiers.clamp;
            for lane in 0..cx.lanes {
                vals[lane] = if clamp {
                    r[lane].min(0xffff_ffff) as u64
                } else {
                    r[lane] as u64
                };
            }
            cx.write_vgpr(out, 0, B32, &vals, cx.write_mask)?;
            return Ok(true);
        }
        O::V_MAD_U64_U32 | O::V_MAD_I64_I32 => {
            let a = cx.src(0, B32)?;
            let b = cx.src(1, B32)?;
            let c = cx.src(2, B64)?;
            let mut vals = [0u64; 64];
            let mut carry = 0u64;
            for lane in 0..cx.lanes {
                if cx.write_mask >> lane & 1 == 0 {
                    continue;
                }
                let (res, co) = if op == O::V_MAD_U64_U32 {
                    let p = u128::from(a[lane] as u32) * u128::from(b[lane] as u32);
                    let sum = p + u128::from(c[lane]);
                    (sum as u64, sum >> 64 != 0)
                } else {
                    let p = i128::from(a[lane] as u32 as i32) * i128::from(b[lane] as u32 as i32);
                    let sum = p + i128::from(c[lane] as i64);
                    (
                        sum as u64,
                        sum < i128::from(i64::MIN) || sum > i128::from(i64::MAX),
                    )
                };
                vals[lane] = res;
                carry |= u64::from(co) << lane;
            }
            if cx.inst.modifiers.clamp {
                saturate_mad64(op == O::V_MAD_I64_I32, &c, carry, &mut vals);
            }
            cx.write_vgpr(out, 0, B64, &vals, cx.write_mask)?;
            let code = cx.sdst_code(1)?;
            cx.write_mask_sgpr(out, code, carry);
            return Ok(true);
        }
        _ => return Ok(false),
    };
    cx.store(out, &exact, sat)?;
    Ok(true)
}

/// `clamp` on `v_mad_u64_u32`/`v_mad_i64_i32`: a lane whose sum overflowed
/// (its carry-out bit) takes the nearest representable 64-bit value.
fn saturate_mad64(signed: bool, c: &LaneVals, carry: u64, vals: &mut [u64; 64]) {
    for (lane, v) in vals.iter_mut().enumerate() {
        if carry >> lane & 1 == 0 {
            continue;
        }
        // A signed overflow needs product and addend of one sign (the
        // product is within ±2^62), so the addend's sign says which way.
        *v = if !signed {
            u64::MAX
        } else if (c[lane] as i64) < 0 {
            i64::MIN as u64
        } else {
            i64::MAX as u64
        };
    }
}

fn store3(
    cx: &Cx<'_>,
    out: &mut Writes,
    a: &LaneVals,
    b: &LaneVals,
    c: &LaneVals,
    f: impl Fn(u64, u64, u64) -> i128,
) -> Result<(), FaultKind> {
    let r = cx.lanes3(a, b, c, f);
    cx.store(out, &r, Sat::U32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_field_extract() {
        assert_eq!(bfe_u(0xabcd_1234, 8, 8), 0x12);
        assert_eq!(bfe_i(0x0000_f000, 12, 4), 0xffff_ffff);
        assert_eq!(bfe_i(0x0000_7000, 12, 4), 7);
        assert_eq!(bfe_u(0xffff_ffff, 0, 0), 0);
        assert_eq!(bfe_u(0x8000_0000, 28, 8), 8);
    }

    #[test]
    fn byte_permute() {
        // Selectors 0..7 pick bytes of {S0, S1}; 12 is zero; 13+ is 0xff.
        assert_eq!(perm(0x4433_2211, 0x8877_6655, 0x0004_0700), 0x5511_4455);
        assert_eq!(perm(0, 0, 0x0d0c_0d0c), 0xff00_ff00);
        assert_eq!(perm(0x8000_0000, 0x0000_8000, 0x0b0a_0908), 0xff00_00ff);
    }

    #[test]
    fn mbcnt_halves() {
        assert_eq!(mbcnt(0xffff_ffff, 5, false), 5);
        assert_eq!(mbcnt(0xffff_ffff, 40, false), 32);
        assert_eq!(mbcnt(0xffff_ffff, 5, true), 0);
        assert_eq!(mbcnt(0xffff_ffff, 40, true), 8);
    }
}
