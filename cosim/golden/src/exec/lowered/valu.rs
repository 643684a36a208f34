//! Execution of the lowered VALU forms of [`super`]: the lane
//! functions (the general path's expressions and `fp::` entry points, or the
//! host's result where it provably equals them) run through the lane loops of
//! [`super::lanes`].

use super::lanes::{self, carry_lanes, lanes_ref, map3, with_lanes, with_pair, Lane32, Lane64};
use super::{Carry, Lowered, Op, Src};
use crate::exec::sop::bfe;
use crate::exec::vop::vopc::{holds, Ty32};
use crate::exec::Wave;
use crate::fp::{self, FpMode, Mode, Round, F32};

/// The f32 sign bit.
const SIGN: u32 = 0x8000_0000;

/// Exponent zero and a non-zero mantissa: `|x| - 1` below the mantissa mask
/// (one subtract and compare instead of two masks).
#[inline(always)]
fn denormal(x: u32) -> bool {
    (x & 0x7fff_ffff).wrapping_sub(1) < 0x007f_ffff
}

#[inline(always)]
fn nan(x: u32) -> bool {
    x & 0x7fff_ffff > 0x7f80_0000
}

/// True when MODE's denormal handling leaves inputs `xs` and result `r` of a
/// nearest-even host operation alone and `r` is not a NaN: then `fp::add`,
/// `fp::mul` and `fp::fma` return exactly `r` (their host path flushes inputs
/// only if denormal, fixes NaN results, and flushes only denormal results).
#[inline(always)]
fn host_result_stands(xs: &[u32], r: u32, m: FpMode) -> bool {
    Checks::of(m).stands(xs, r)
}

/// [`host_result_stands`] for one MODE, as branch-free tests that a lane
/// loop can evaluate for every lane (no short-circuits).
#[derive(Clone, Copy)]
struct Checks {
    /// Not nearest-even: no host result stands.
    never: bool,
    /// Denormal inputs are flushed (so one makes the host result wrong).
    flush_in: bool,
    /// Denormal results are flushed.
    flush_out: bool,
}

impl Checks {
    fn of(m: FpMode) -> Checks {
        Checks {
            never: m.round != Round::NearestEven,
            flush_in: !m.denorm_in,
            flush_out: !m.denorm_out,
        }
    }

    /// `host_result_stands(xs, r, m)`.
    #[inline(always)]
    fn stands(self, xs: &[u32], r: u32) -> bool {
        let denormal_in = xs.iter().fold(false, |any, &x| any | denormal(x));
        !(self.never | nan(r) | (self.flush_in & denormal_in) | (self.flush_out & denormal(r)))
    }
}

/// A two-source f32 operation through [`map3_f32`]: `$host` is the host
/// result, `$exact` the lane function it must equal. The MODE's checks are
/// chosen once: with denormals kept only a NaN result needs `$exact`; with
/// a directed rounding no host result stands and `$exact` runs directly.
macro_rules! host_f32 {
    ($w:expr, $d:expr, $s:expr, $m:expr, |$a:ident, $b:ident| $host:expr, $exact:expr) => {{
        let k = Checks::of($m);
        if k.never {
            map3($w, $d, $s, 2, $exact)
        } else if !k.flush_in && !k.flush_out {
            map3_f32(
                $w,
                ($d, $s, 2),
                #[inline(always)]
                |$a, $b, _| {
                    let r: u32 = $host;
                    (r, !nan(r))
                },
                $exact,
            )
        } else {
            map3_f32(
                $w,
                ($d, $s, 2),
                #[inline(always)]
                |$a, $b, _| {
                    let r: u32 = $host;
                    (r, k.stands(&[$a, $b], r))
                },
                $exact,
            )
        }
    }};
}

/// `vdst = exact(a, b, c)` over the EXEC lanes, where `host(a, b, c)` gives
/// a candidate result and whether it provably equals `exact`'s. A first pass
/// writes every candidate and notes whether all stand (a loop without
/// branches or calls); only if one does not, a second pass recomputes those
/// lanes with `exact` (the sources are still intact: see `with_lanes`).
#[inline(always)]
fn map3_f32(
    w: &mut Wave,
    (d, s, nsrc): (u16, &[Src; 3], usize),
    host: impl Fn(u32, u32, u32) -> (u32, bool),
    exact: impl Fn(u32, u32, u32) -> u32,
) -> Option<()> {
    let exec = w.exec();
    with_lanes(w, d, s, nsrc, |dst, a, b, c| {
        let mut all = true;
        lanes::each(
            exec,
            #[inline(always)]
            |l| {
                let (r, ok) = host(a[l], b[l], c[l]);
                dst[l] = r;
                all &= ok;
            },
        );
        if !all {
            lanes::each(exec, |l| {
                if !host(a[l], b[l], c[l]).1 {
                    dst[l] = exact(a[l], b[l], c[l]);
                }
            });
        }
    })
}

/// `fp::add` on f32 bits: the host sum when it provably stands, else `fp::add`.
#[inline(always)]
fn add_f32(a: u32, b: u32, m: FpMode) -> u32 {
    let r = (f32::from_bits(a) + f32::from_bits(b)).to_bits();
    if host_result_stands(&[a, b], r, m) {
        return r;
    }
    fp::add(F32, u64::from(a), u64::from(b), m) as u32
}

/// `fp::mul` on f32 bits, as [`add_f32`].
#[inline(always)]
fn mul_f32(a: u32, b: u32, m: FpMode) -> u32 {
    let r = (f32::from_bits(a) * f32::from_bits(b)).to_bits();
    if host_result_stands(&[a, b], r, m) {
        return r;
    }
    fp::mul(F32, u64::from(a), u64::from(b), m) as u32
}

/// `fp::fma` on f32 bits: its exact f64-based fused multiply-add when that
/// applies and the result stands, else `fp::fma`.
#[inline(always)]
fn fma_f32(a: u32, b: u32, c: u32, m: FpMode) -> u32 {
    if let Some(r) = fp::fma_f32_via_f64(a, b, c) {
        if host_result_stands(&[a, b, c], r, m) {
            return r;
        }
    }
    fp::fma(F32, u64::from(a), u64::from(b), u64::from(c), m) as u32
}

#[inline]
fn i24(x: u32) -> i64 {
    i64::from(((x << 8) as i32) >> 8)
}

/// The VGPR a source names, if it is one.
#[inline(always)]
fn vgpr_of(s: Src) -> Option<u16> {
    match s {
        Src::Vgpr(v) => Some(v),
        _ => None,
    }
}

/// The vector part of [`execute`](super::execute).
#[inline]
pub fn valu(w: &mut Wave, lowered: &Lowered) -> Option<()> {
    match *lowered {
        Lowered::Generic | Lowered::Scalar(_) => None,
        Lowered::Map { op, d, ref s } => {
            // `vdst = f(src0, src1, src2)` over the EXEC lanes for `$n` sources,
            // with the lane function inlined into the loop.
            macro_rules! lane_map {
                ($n:expr, |$a:pat_param, $b:pat_param, $c:pat_param| $e:expr) => {
                    map3(
                        w,
                        d,
                        s,
                        $n,
                        #[inline(always)]
                        |$a, $b, $c| $e,
                    )
                };
            }
            let mode = Mode::from_register(w.mode);
            let (m, ieee) = (mode.f32, mode.ieee);
            match op {
                Op::Mov => lane_map!(1, |a, _, _| a),
                Op::Not => lane_map!(1, |a, _, _| !a),
                Op::AddNc => lane_map!(2, |a, b, _| a.wrapping_add(b)),
                Op::SubNc => lane_map!(2, |a, b, _| a.wrapping_sub(b)),
                Op::SubrevNc => lane_map!(2, |a, b, _| b.wrapping_sub(a)),
                Op::And => lane_map!(2, |a, b, _| a & b),
                Op::Or => lane_map!(2, |a, b, _| a | b),
                Op::Xor => lane_map!(2, |a, b, _| a ^ b),
                Op::Xnor => lane_map!(2, |a, b, _| !(a ^ b)),
                Op::Lshlrev => lane_map!(2, |a, b, _| b << (a & 31)),
                Op::Lshrrev => lane_map!(2, |a, b, _| b >> (a & 31)),
                Op::Ashrrev => lane_map!(2, |a, b, _| ((b as i32) >> (a & 31)) as u32),
                Op::MinI => lane_map!(2, |a, b, _| (a as i32).min(b as i32) as u32),
                Op::MaxI => lane_map!(2, |a, b, _| (a as i32).max(b as i32) as u32),
                Op::MinU => lane_map!(2, |a, b, _| a.min(b)),
                Op::MaxU => lane_map!(2, |a, b, _| a.max(b)),
                Op::MulLo => lane_map!(2, |a, b, _| a.wrapping_mul(b)),
                Op::MulHiU => lane_map!(2, |a, b, _| ((u64::from(a) * u64::from(b)) >> 32) as u32),
                Op::MulHiI => lane_map!(2, |a, b, _| ((i64::from(a as i32) * i64::from(b as i32))
                    >> 32) as u32),
                Op::MulU24 => lane_map!(2, |a, b, _| (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff)),
                Op::MulI24 => lane_map!(2, |a, b, _| (i24(a) * i24(b)) as u32),
                Op::LshlAdd => lane_map!(3, |a, b, c| (a << (b & 31)).wrapping_add(c)),
                Op::AddLshl => lane_map!(3, |a, b, c| a.wrapping_add(b) << (c & 31)),
                Op::Add3 => lane_map!(3, |a, b, c| a.wrapping_add(b).wrapping_add(c)),
                Op::LshlOr => lane_map!(3, |a, b, c| (a << (b & 31)) | c),
                Op::AndOr => lane_map!(3, |a, b, c| (a & b) | c),
                Op::Or3 => lane_map!(3, |a, b, c| a | b | c),
                Op::Xor3 => lane_map!(3, |a, b, c| a ^ b ^ c),
                Op::Xad => lane_map!(3, |a, b, c| (a ^ b).wrapping_add(c)),
                Op::AlignBit => lane_map!(3, |a, b, c| ((u64::from(a) << 32 | u64::from(b))
                    >> (c & 31)) as u32),
                Op::Bfi => lane_map!(3, |a, b, c| (a & b) | (!a & c)),
                // f32 arithmetic: the host result in a first, branch-free
                // pass, and the lanes where it does not provably stand
                // (see `Checks`) recomputed with the exact lane function.
                Op::AddF32 => host_f32!(
                    w,
                    d,
                    s,
                    m,
                    |a, b| { (f32::from_bits(a) + f32::from_bits(b)).to_bits() },
                    |a, b, _| add_f32(a, b, m)
                ),
                // `fp::sub`: a + (-b) (the host's a - b, the same when not NaN).
                Op::SubF32 => host_f32!(
                    w,
                    d,
                    s,
                    m,
                    |a, b| { (f32::from_bits(a) - f32::from_bits(b)).to_bits() },
                    |a, b, _| add_f32(a, b ^ SIGN, m)
                ),
                Op::SubrevF32 => host_f32!(
                    w,
                    d,
                    s,
                    m,
                    |a, b| { (f32::from_bits(b) - f32::from_bits(a)).to_bits() },
                    |a, b, _| add_f32(b, a ^ SIGN, m)
                ),
                Op::MulF32 => host_f32!(
                    w,
                    d,
                    s,
                    m,
                    |a, b| { (f32::from_bits(a) * f32::from_bits(b)).to_bits() },
                    |a, b, _| mul_f32(a, b, m)
                ),
                // Single pass: the f64-based fused multiply-add branches on
                // its own, so a separate candidate pass does not pay here.
                // With denormals kept and nearest-even, `fma_f32`'s check is
                // only "not NaN" (decided once, as in `host_f32!`).
                Op::FmaF32 => {
                    let k = Checks::of(m);
                    if !k.never && !k.flush_in && !k.flush_out {
                        lane_map!(3, |a, b, c| match fp::fma_f32_via_f64(a, b, c) {
                            Some(r) if !nan(r) => r,
                            _ => fp::fma(F32, u64::from(a), u64::from(b), u64::from(c), m) as u32,
                        })
                    } else {
                        lane_map!(3, |a, b, c| fma_f32(a, b, c, m))
                    }
                }
                Op::MadF32 => {
                    // `fp::mad` (f32): add(mul(a, b)) with denormals flushed whatever MODE says.
                    let mf = FpMode {
                        denorm_in: false,
                        denorm_out: false,
                        ..m
                    };
                    let k = Checks::of(mf);
                    map3_f32(
                        w,
                        (d, s, 3),
                        #[inline(always)]
                        |a, b, c| {
                            let p = (f32::from_bits(a) * f32::from_bits(b)).to_bits();
                            let r = (f32::from_bits(p) + f32::from_bits(c)).to_bits();
                            (r, k.stands(&[a, b], p) & k.stands(&[p, c], r))
                        },
                        |a, b, c| add_f32(mul_f32(a, b, mf), c, mf),
                    )
                }
                Op::LdexpF32 => lane_map!(2, |a, b, _| fp::ldexp(F32, u64::from(a), b as i32, m)
                    as u32),
                Op::MinF32 => {
                    lane_map!(2, |a, b, _| fp::min_max(
                        F32,
                        u64::from(a),
                        u64::from(b),
                        false,
                        ieee,
                        m
                    ) as u32)
                }
                Op::MaxF32 => {
                    lane_map!(2, |a, b, _| fp::min_max(
                        F32,
                        u64::from(a),
                        u64::from(b),
                        true,
                        ieee,
                        m
                    ) as u32)
                }
                // The host conversion rounds to nearest even (an integer never
                // gives a denormal); other modes: `fp::`.
                Op::CvtF32I32 => lane_map!(1, |a, _, _| match m.round {
                    Round::NearestEven => (a as i32 as f32).to_bits(),
                    _ => fp::from_i64(F32, i64::from(a as i32), m) as u32,
                }),
                Op::CvtF32U32 => lane_map!(1, |a, _, _| match m.round {
                    Round::NearestEven => (a as f32).to_bits(),
                    _ => fp::from_u64(F32, u64::from(a), m) as u32,
                }),
                Op::BfeU32 => lane_map!(3, |a, b, c| bfe(u64::from(a), b & 31, c & 31, 32, false)
                    as u32),
                Op::BfeI32 => lane_map!(3, |a, b, c| bfe(u64::from(a), b & 31, c & 31, 32, true)
                    as u32),
                Op::MadU24 => lane_map!(3, |a, b, c| (a & 0xff_ffff)
                    .wrapping_mul(b & 0xff_ffff)
                    .wrapping_add(c)),
                Op::MadI24 => lane_map!(3, |a, b, c| ((i24(a) * i24(b)) as u32).wrapping_add(c)),
                // `fp::to_int` truncating and saturating, NaN 0: exactly Rust's
                // `as` (denormals truncate to 0 flushed or not).
                Op::CvtI32F32 => lane_map!(1, |a, _, _| f32::from_bits(a) as i32 as u32),
                Op::CvtU32F32 => lane_map!(1, |a, _, _| f32::from_bits(a) as u32),
                Op::Unary(op) => {
                    let (_, f) = crate::exec::vop::vop1::float_unary(op)?;
                    lane_map!(1, |a, _, _| f(u64::from(a), m) as u32)
                }
            }
        }
        Lowered::Carry {
            kind,
            d,
            a,
            b,
            cin,
            cout,
        } => {
            let cin = match cin {
                Some(op) => w.read_mask(&op).ok()? & w.full_mask(),
                None => 0,
            };
            let exec = w.exec();
            // Same expressions as `vop2::carry_op` (bit 32 is the carry/borrow),
            // one monomorphised loop per flavour.
            let carry = with_lanes(w, d, &[a, b, a], 2, |dst, a, b, _| match kind {
                Carry::Add | Carry::AddCi => carry_lanes(dst, a, b, cin, exec, |x, y, c| x + y + c),
                Carry::Sub | Carry::SubCi => carry_lanes(dst, a, b, cin, exec, |x, y, c| {
                    x.wrapping_sub(y).wrapping_sub(c) & 0x1_ffff_ffff
                }),
                Carry::Subrev | Carry::SubrevCi => carry_lanes(dst, a, b, cin, exec, |x, y, c| {
                    y.wrapping_sub(x).wrapping_sub(c) & 0x1_ffff_ffff
                }),
            })?;
            // `write_mask_out` writes only EXEC lanes' bits (cannot fault: checked when lowered).
            w.write_mask(&cout, carry & exec).ok()
        }
        Lowered::Cndmask { d, a, b, cond } => {
            let cond = w.read_mask(&cond).ok()? & w.full_mask();
            let exec = w.exec();
            with_lanes(w, d, &[a, b, a], 2, |dst, a, b, _| {
                lanes::each(exec, |l| {
                    dst[l] = if cond >> l & 1 != 0 { b[l] } else { a[l] };
                });
            })
        }
        Lowered::Cmp {
            ty,
            table,
            ref a,
            ref b,
            dst,
            exec_write,
        } => {
            let exec = w.exec();
            let mut mask = {
                let (ba, bb): ([u32; 64], [u32; 64]);
                let a = lanes_ref!(w, a, ba);
                let b = lanes_ref!(w, b, bb);
                match ty {
                    // The same truth table as `vopc::compare`, over flat masks.
                    Ty32::U32 => lanes::int_compare(a, b, exec, false, table),
                    Ty32::I32 => lanes::int_compare(a, b, exec, true, table),
                    Ty32::F32 => {
                        let m = Mode::from_register(w.mode).f32;
                        let mut mask = 0u64;
                        lanes::each(exec, |l| {
                            let o = fp::compare(F32, u64::from(a[l]), u64::from(b[l]), m);
                            mask |= u64::from(holds(table, o)) << l;
                        });
                        mask
                    }
                }
            };
            mask &= exec;
            if let Some(dst) = dst {
                w.write_mask(&dst, mask).ok()?;
            }
            if exec_write {
                w.set_exec(mask);
            }
            Some(())
        }
        Lowered::ReadLane { src, sel, dst } => {
            // As `vop3`'s general path: select, then the lane, then the write.
            let lane = sel.scalar32(w)? as usize % w.lanes() as usize;
            let value = w.vgpr.get(usize::from(src))?[lane];
            w.write_scalar(&dst, value).ok()
        }
        Lowered::Lshl64 { d, a, b } => {
            // Sources in place (see `with_pair`): a 32-bit shift amount, a
            // 64-bit value in a VGPR pair or a scalar pair.
            let exec = w.exec();
            let ka = a.uniform32(w)?;
            let kb = b.uniform64(w)?;
            let (ra, rb) = (vgpr_of(a), vgpr_of(b));
            with_pair(w, d, [ra, rb, rb.map(|r| r + 1)], |lo, hi, [sa, bl, bh]| {
                let a = sa.map_or(Lane32::Same(ka), Lane32::Reg);
                let b = Lane64::of(bl, bh, kb);
                lanes::each(
                    exec,
                    #[inline(always)]
                    |l| {
                        let x = b.at(l) << (a.at(l) & 63);
                        lo[l] = x as u32;
                        hi[l] = (x >> 32) as u32;
                    },
                );
            })
        }
        Lowered::MadU64 { d, a, b, c, cout } => {
            let exec = w.exec();
            let ka = a.uniform32(w)?;
            let kb = b.uniform32(w)?;
            let kc = c.uniform64(w)?;
            let rc = vgpr_of(c);
            let carry = with_pair(
                w,
                d,
                [vgpr_of(a), vgpr_of(b), rc, rc.map(|r| r + 1)],
                |lo, hi, [sa, sb, cl, ch]| {
                    let a = sa.map_or(Lane32::Same(ka), Lane32::Reg);
                    let b = sb.map_or(Lane32::Same(kb), Lane32::Reg);
                    let c = Lane64::of(cl, ch, kc);
                    let mut carry = 0u64;
                    lanes::each(
                        exec,
                        #[inline(always)]
                        |l| {
                            let p = u64::from(a.at(l)) * u64::from(b.at(l));
                            let (x, o) = p.overflowing_add(c.at(l));
                            lo[l] = x as u32;
                            hi[l] = (x >> 32) as u32;
                            carry |= u64::from(o) << l;
                        },
                    );
                    carry
                },
            )?;
            w.write_mask(&cout, carry & exec).ok()
        }
    }
}

/// One lane of a [`Lowered::Map`] operation with MODE register `mode`: the
/// same lane functions [`valu`] runs (the exact ones, where `valu` may first
/// try the host's result), for the JIT's per-lane calls into the
/// interpreter's semantics (`crate::jit`).
pub fn lane(op: Op, a: u32, b: u32, c: u32, mode: u32) -> u32 {
    let mode = Mode::from_register(mode);
    let (m, ieee) = (mode.f32, mode.ieee);
    match op {
        Op::Mov => a,
        Op::Not => !a,
        Op::AddNc => a.wrapping_add(b),
        Op::SubNc => a.wrapping_sub(b),
        Op::SubrevNc => b.wrapping_sub(a),
        Op::And => a & b,
        Op::Or => a | b,
        Op::Xor => a ^ b,
        Op::Xnor => !(a ^ b),
        Op::Lshlrev => b << (a & 31),
        Op::Lshrrev => b >> (a & 31),
        Op::Ashrrev => ((b as i32) >> (a & 31)) as u32,
        Op::MinI => (a as i32).min(b as i32) as u32,
        Op::MaxI => (a as i32).max(b as i32) as u32,
        Op::MinU => a.min(b),
        Op::MaxU => a.max(b),
        Op::MulLo => a.wrapping_mul(b),
        Op::MulHiU => ((u64::from(a) * u64::from(b)) >> 32) as u32,
        Op::MulHiI => ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32,
        Op::MulU24 => (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff),
        Op::MulI24 => (i24(a) * i24(b)) as u32,
        Op::LshlAdd => (a << (b & 31)).wrapping_add(c),
        Op::AddLshl => a.wrapping_add(b) << (c & 31),
        Op::Add3 => a.wrapping_add(b).wrapping_add(c),
        Op::LshlOr => (a << (b & 31)) | c,
        Op::AndOr => (a & b) | c,
        Op::Or3 => a | b | c,
        Op::Xor3 => a ^ b ^ c,
        Op::Xad => (a ^ b).wrapping_add(c),
        Op::AlignBit => ((u64::from(a) << 32 | u64::from(b)) >> (c & 31)) as u32,
        Op::Bfi => (a & b) | (!a & c),
        Op::AddF32 => add_f32(a, b, m),
        Op::SubF32 => add_f32(a, b ^ SIGN, m),
        Op::SubrevF32 => add_f32(b, a ^ SIGN, m),
        Op::MulF32 => mul_f32(a, b, m),
        Op::FmaF32 => fma_f32(a, b, c, m),
        Op::MadF32 => {
            let mf = FpMode {
                denorm_in: false,
                denorm_out: false,
                ..m
            };
            add_f32(mul_f32(a, b, mf), c, mf)
        }
        Op::LdexpF32 => fp::ldexp(F32, u64::from(a), b as i32, m) as u32,
        Op::MinF32 => fp::min_max(F32, u64::from(a), u64::from(b), false, ieee, m) as u32,
        Op::MaxF32 => fp::min_max(F32, u64::from(a), u64::from(b), true, ieee, m) as u32,
        Op::CvtF32I32 => match m.round {
            Round::NearestEven => (a as i32 as f32).to_bits(),
            _ => fp::from_i64(F32, i64::from(a as i32), m) as u32,
        },
        Op::CvtF32U32 => match m.round {
            Round::NearestEven => (a as f32).to_bits(),
            _ => fp::from_u64(F32, u64::from(a), m) as u32,
        },
        Op::BfeU32 => bfe(u64::from(a), b & 31, c & 31, 32, false) as u32,
        Op::BfeI32 => bfe(u64::from(a), b & 31, c & 31, 32, true) as u32,
        Op::MadU24 => (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff).wrapping_add(c),
        Op::MadI24 => ((i24(a) * i24(b)) as u32).wrapping_add(c),
        Op::CvtI32F32 => f32::from_bits(a) as i32 as u32,
        Op::CvtU32F32 => f32::from_bits(a) as u32,
        // `valu` sends an opcode without an `f32` unary function to the
        // general path; the JIT never lowers one (see `jit::emit`).
        Op::Unary(op) => match crate::exec::vop::vop1::float_unary(op) {
            Some((_, f)) => f(u64::from(a), m) as u32,
            None => 0,
        },
    }
}

/// The mask of lanes `0..4` where the `f32` compare of `a[l]` and `b[l]`
/// under MODE `mode` lands in `table` (as [`valu`]'s `Lowered::Cmp`).
pub fn compare_f32_lanes(table: u8, a: &[u32], b: &[u32], mode: u32) -> u32 {
    let m = Mode::from_register(mode).f32;
    let mut mask = 0;
    for l in 0..a.len().min(b.len()) {
        let o = fp::compare(F32, u64::from(a[l]), u64::from(b[l]), m);
        mask |= u32::from(holds(table, o)) << l;
    }
    mask
}

#[cfg(test)]
mod tests {
    use crate::fp::{self, FpMode, IntRound, Round, F32};

    /// The host conversions the lowered `v_cvt_*` forms use give exactly the
    /// `fp::` results, for specials and random bits, in every MODE that
    /// lets them run.
    #[test]
    fn host_int_float_conversions_match_fp() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut inputs: Vec<u32> = vec![
            0,
            0x8000_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0xffa0_0001,
            0x0000_0001,
            0x807f_ffff,
            0x4f00_0000, // 2^31
            0xcf00_0000, // -2^31
            0x4f80_0000, // 2^32
            0x4effffff,
            0xbf80_0000,
            0xbf00_0000, // -0.5
            u32::MAX,
            i32::MAX as u32,
            i32::MIN as u32,
        ];
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            inputs.push(x as u32);
        }
        for denorm in [false, true] {
            let m = FpMode {
                round: Round::NearestEven,
                denorm_in: denorm,
                denorm_out: denorm,
            };
            for &a in &inputs {
                let (lo, hi) = (i64::from(i32::MIN), i64::from(i32::MAX));
                let i = fp::to_int(F32, u64::from(a), IntRound::Trunc, lo, hi, m) as u32;
                assert_eq!(f32::from_bits(a) as i32 as u32, i, "{a:#x}");
                let u = fp::to_int(F32, u64::from(a), IntRound::Trunc, 0, hi * 2 + 1, m) as u32;
                assert_eq!(f32::from_bits(a) as u32, u, "{a:#x}");
                let f = fp::from_i64(F32, i64::from(a as i32), m) as u32;
                assert_eq!((a as i32 as f32).to_bits(), f, "{a:#x}");
                let g = fp::from_u64(F32, u64::from(a), m) as u32;
                assert_eq!((a as f32).to_bits(), g, "{a:#x}");
            }
        }
    }
}
