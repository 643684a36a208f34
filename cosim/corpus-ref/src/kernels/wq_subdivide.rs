//! `wq_subdivide` (work creation): counts primes in `[lo, hi)` by recursive
//! subdivision; a part longer than `leaf` above `max_depth` becomes a child
//! launch of the same kernel over two work-items.

use super::*;
use crate::args::{buffer_mut, scalar_u32};
use crate::types::{ArgValue, ElemType::U32};

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "wq_subdivide",
    summary: "work creation: recursive subdivision (a kernel launching itself)",
    launch: crate::Launch {
        dims: dims1(3, 3),
        args: &[
            output("result", U32, 10, Compare::Exact),
            uint("lo", 0),
            uint("hi", 20011),
            uint("depth", 0),
            uint("leaf", 400),
            uint("max_depth", 4),
        ],
    },
    reference,
};

fn is_prime(x: u32) -> bool {
    x >= 2 && (2..).take_while(|d: &u32| d * d <= x).all(|d| x % d != 0)
}

/// One launch of `g` work-items over `[lo, hi)` at `depth`.
fn run(result: &mut [u32], g: u32, lo: u32, hi: u32, depth: u32, leaf: u32, max: u32) {
    let len = u64::from(hi - lo);
    for i in 0..g {
        let a = lo + (len * u64::from(i) / u64::from(g)) as u32;
        let b = lo + (len * u64::from(i + 1) / u64::from(g)) as u32;
        if b - a > leaf && depth < max {
            run(result, 2, a, b, depth + 1, leaf, max);
        } else {
            result[0] += (a..b).filter(|&x| is_prime(x)).count() as u32;
            result[1 + depth as usize] += 1;
        }
    }
}

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    require_1d(KERNEL.name, dims)?;
    let g = items(dims) as u32;
    let (lo, hi) = (scalar_u32(args, 1)?, scalar_u32(args, 2)?);
    let (depth, leaf, max) = (
        scalar_u32(args, 3)?,
        scalar_u32(args, 4)?,
        scalar_u32(args, 5)?,
    );
    if lo > hi || max >= 9 || depth > max {
        return Err(bad(
            KERNEL.name,
            "needs lo <= hi and depth <= max_depth < 9",
        ));
    }
    let result = buffer_mut::<u32>(args, 0, 10)?;
    run(result, g, lo, hi, depth, leaf, max);
    Ok(())
}
