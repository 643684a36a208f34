//! Lane loops of the VALU fast paths ([`super`]): operands borrowed
//! from the register file in place, EXEC-masked iteration, 64-bit and carry
//! writes.
//!
//! Every helper here checks everything that could send the instruction to
//! the general path (an unallocated VGPR, an unreadable scalar) *before* it
//! changes any state, so `None` always means "nothing happened".

use super::Src;
pub(super) use crate::exec::each;
use crate::exec::Wave;

/// A 32-bit source's lanes by reference: the VGPR itself, or `buf` filled
/// with a scalar's broadcast. `None` sends the instruction to the general path.
macro_rules! lanes_ref {
    ($w:expr, $s:expr, $buf:ident) => {
        match $s {
            Src::Vgpr(n) => $w.vgpr.get(usize::from(*n))?,
            other => {
                $buf = [other.scalar32($w)?; 64];
                &$buf
            }
        }
    };
}
pub(super) use lanes_ref;

/// Runs `body(dst, a, b, c)` with the destination VGPR `d` and the lanes of
/// the first `nsrc` sources (unused ones alias `a`), or returns `None`
/// before anything changes when a register is not allocated or a scalar
/// source does not read as a value.
///
/// Sources are borrowed in place from the register file (split around the
/// destination); a scalar is broadcast into a buffer. A source that *is* the
/// destination reads a copy of its old lanes: every lane function of the
/// fast paths reads only its own lane, so this equals the general path's
/// "compute every lane, then write".
#[inline(always)]
pub fn with_lanes<R>(
    w: &mut Wave,
    d: u16,
    s: &[Src; 3],
    nsrc: usize,
    body: impl FnOnce(&mut [u32; 64], &[u32; 64], &[u32; 64], &[u32; 64]) -> R,
) -> Option<R> {
    let d = usize::from(d);
    let count = w.vgpr.len();
    if d >= count {
        return None;
    }
    // Scalars are read (and may fail) before anything is written.
    let mut scalar = [0u32; 3];
    let mut aliased = false;
    for (i, src) in s.iter().enumerate().take(nsrc) {
        match src {
            Src::Vgpr(v) => {
                let v = usize::from(*v);
                if v >= count {
                    return None;
                }
                aliased |= v == d;
            }
            other => scalar[i] = other.scalar32(w)?,
        }
    }
    let old = if aliased { Some(w.vgpr[d]) } else { None };
    let (below, rest) = w.vgpr.split_at_mut(d);
    let (dst, above) = rest.split_first_mut()?;
    let (ba, bb, bc): ([u32; 64], [u32; 64], [u32; 64]);
    macro_rules! operand {
        ($i:expr, $buf:ident) => {
            match s[$i] {
                Src::Vgpr(v) if usize::from(v) < d => &below[usize::from(v)],
                Src::Vgpr(v) if usize::from(v) == d => old.as_ref()?,
                Src::Vgpr(v) => &above[usize::from(v) - d - 1],
                _ => {
                    $buf = [scalar[$i]; 64];
                    &$buf
                }
            }
        };
    }
    let a: &[u32; 64] = operand!(0, ba);
    let b: &[u32; 64] = if nsrc > 1 { operand!(1, bb) } else { a };
    let c: &[u32; 64] = if nsrc > 2 { operand!(2, bc) } else { a };
    Some(body(dst, a, b, c))
}

/// `vdst = f(a, b, c)` over the EXEC lanes (see [`with_lanes`]).
#[inline(always)]
pub fn map3(
    w: &mut Wave,
    d: u16,
    s: &[Src; 3],
    nsrc: usize,
    f: impl Fn(u32, u32, u32) -> u32,
) -> Option<()> {
    let exec = w.exec();
    with_lanes(w, d, s, nsrc, |dst, a, b, c| {
        each(
            exec,
            #[inline(always)]
            |l| dst[l] = f(a[l], b[l], c[l]),
        );
    })
}

/// The lanes of a carry operation: `f(a, b, carry_in)` gives the 32-bit
/// result and the carry-out in bit 32; returns the carry mask of EXEC lanes.
#[inline(always)]
pub fn carry_lanes(
    dst: &mut [u32; 64],
    a: &[u32; 64],
    b: &[u32; 64],
    cin: u64,
    exec: u64,
    f: impl Fn(u64, u64, u64) -> u64,
) -> u64 {
    let mut carry = 0u64;
    each(
        exec,
        #[inline(always)]
        |l| {
            let x = f(u64::from(a[l]), u64::from(b[l]), cin >> l & 1);
            dst[l] = x as u32;
            carry |= (x >> 32 & 1) << l;
        },
    );
    carry
}

/// The mask of the EXEC lanes where the 32-bit compare of `a[l]` and `b[l]`
/// (signed when `signed`) lands in the truth table `table` (bit 0 less,
/// bit 1 equal, bit 2 greater; integers are never unordered, so this is
/// `vopc::holds` without the `Ordering`).
#[inline(always)]
pub fn int_compare(a: &[u32; 64], b: &[u32; 64], exec: u64, signed: bool, table: u8) -> u64 {
    // Flipping the sign bit turns a signed order into an unsigned one.
    let flip = if signed { 0x8000_0000 } else { 0 };
    let mut mask = 0u64;
    each(exec, |l| {
        let (x, y) = (a[l] ^ flip, b[l] ^ flip);
        // 0 less, 1 equal, 2 greater: the table bit to test.
        let bit = u32::from(x >= y) + u32::from(x > y);
        mask |= u64::from(table >> bit & 1) << l;
    });
    mask
}

/// A 32-bit source's lanes: a register borrowed in place, or a scalar.
#[derive(Clone, Copy)]
pub enum Lane32<'a> {
    /// A VGPR's lanes.
    Reg(&'a [u32; 64]),
    /// The same value in every lane.
    Same(u32),
}

impl Lane32<'_> {
    /// Lane `l`'s value.
    #[inline(always)]
    pub fn at(self, l: usize) -> u32 {
        match self {
            Lane32::Reg(r) => r[l],
            Lane32::Same(v) => v,
        }
    }
}

/// A 64-bit source of a lane loop: a VGPR pair read in place, or one value.
#[derive(Clone, Copy)]
pub enum Lane64<'a> {
    /// The low and high VGPRs' lanes.
    Pair(&'a [u32; 64], &'a [u32; 64]),
    /// The same value in every lane.
    Same(u64),
}

impl<'a> Lane64<'a> {
    /// The pair when both halves are VGPRs, else `uniform`.
    #[inline(always)]
    pub fn of(lo: Option<&'a [u32; 64]>, hi: Option<&'a [u32; 64]>, uniform: u64) -> Self {
        match (lo, hi) {
            (Some(lo), Some(hi)) => Lane64::Pair(lo, hi),
            _ => Lane64::Same(uniform),
        }
    }

    /// Lane `l`'s value.
    #[inline(always)]
    pub fn at(self, l: usize) -> u64 {
        match self {
            Lane64::Pair(lo, hi) => u64::from(lo[l]) | u64::from(hi[l]) << 32,
            Lane64::Same(v) => v,
        }
    }
}

/// Runs `body(lo, hi, srcs)` with the destination VGPR pair `d`, `d + 1`
/// and the source VGPRs `regs` (`None`: no register) borrowed in place from
/// the register file; a source inside the destination pair reads a copy of
/// its old lanes (every 64-bit lane function reads only its own lane, so
/// this equals computing all lanes before writing). `None` before any change
/// when a register is not allocated.
#[inline(always)]
pub fn with_pair<R, const N: usize>(
    w: &mut Wave,
    d: u16,
    regs: [Option<u16>; N],
    body: impl FnOnce(&mut [u32; 64], &mut [u32; 64], [Option<&[u32; 64]>; N]) -> R,
) -> Option<R> {
    let d = usize::from(d);
    let count = w.vgpr.len();
    if d + 1 >= count || regs.iter().flatten().any(|&r| usize::from(r) >= count) {
        return None;
    }
    // At most the two destination registers need a copy.
    let reads = |x: usize| regs.iter().flatten().any(|&r| usize::from(r) == x);
    let old_lo = if reads(d) { Some(w.vgpr[d]) } else { None };
    let old_hi = if reads(d + 1) {
        Some(w.vgpr[d + 1])
    } else {
        None
    };
    let (below, rest) = w.vgpr.split_at_mut(d);
    let (pair, above) = rest.split_at_mut(2);
    let (lo, hi) = pair.split_at_mut(1);
    let srcs: [Option<&[u32; 64]>; N] = std::array::from_fn(|i| {
        let r = usize::from(regs[i]?);
        if r < d {
            Some(&below[r])
        } else if r == d {
            old_lo.as_ref()
        } else if r == d + 1 {
            old_hi.as_ref()
        } else {
            Some(&above[r - d - 2])
        }
    });
    Some(body(&mut lo[0], &mut hi[0], srcs))
}
