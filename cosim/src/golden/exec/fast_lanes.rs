//! Lane loops of the VALU fast paths ([`super::fast`]): operands borrowed
//! from the register file in place, EXEC-masked iteration, 64-bit and carry
//! writes.
//!
//! Every helper here checks everything that could send the instruction to
//! the general path (an unallocated VGPR, an unreadable scalar) *before* it
//! changes any state, so `None` always means "nothing happened".

use super::fast::Src;
use super::Wave;

/// Calls `f(lane)` for every lane of `exec`, in ascending order. A full
/// wave32 or wave64 mask (or the low 32 lanes of a wave64) runs as a counted
/// loop the compiler can unroll and vectorise; other masks walk the set bits.
/// Inlined into each lowered form so the lane function is inlined too.
#[inline(always)]
pub fn each(exec: u64, mut f: impl FnMut(usize)) {
    // Two call sites of `f` (not three), so that callers' lane functions,
    // marked `#[inline(always)]`, are inlined without too much code.
    if exec == u64::MAX || exec == 0xffff_ffff {
        let n = if exec == u64::MAX { 64 } else { 32 };
        for l in 0..n {
            f(l);
        }
    } else {
        let mut m = exec;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            f(l);
        }
    }
}

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

/// A source's 64-bit lanes (a VGPR pair, or a 64-bit scalar broadcast).
#[inline]
pub fn lanes64(w: &Wave, s: &Src) -> Option<[u64; 64]> {
    match s {
        Src::Vgpr(n) => {
            let lo = w.vgpr.get(usize::from(*n))?;
            let hi = w.vgpr.get(usize::from(*n) + 1)?;
            Some(std::array::from_fn(|l| {
                u64::from(lo[l]) | (u64::from(hi[l]) << 32)
            }))
        }
        Src::Scalar(op) => w.read_scalar64(op).ok().map(|x| [x; 64]),
        // Resolved 32-bit forms are never read as 64 bits.
        Src::Sgpr(_) | Src::Imm(_) => None,
    }
}

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

/// Writes 64-bit results to the EXEC lanes of the VGPR pair at `d` (checks
/// the pair exists before writing either half, like `Valu::write64`).
#[inline(always)]
pub fn write64(w: &mut Wave, d: u16, f: impl Fn(usize) -> u64) -> Option<()> {
    let exec = w.exec();
    let n = usize::from(d);
    if n + 1 >= w.vgpr.len() {
        return None;
    }
    let (lo, hi) = w.vgpr.split_at_mut(n + 1);
    let (lo, hi) = (&mut lo[n], &mut hi[0]);
    each(exec, |l| {
        let x = f(l);
        lo[l] = x as u32;
        hi[l] = (x >> 32) as u32;
    });
    Some(())
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
