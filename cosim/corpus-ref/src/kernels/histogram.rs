//! `histogram`: global atomic increments into `nbins` bins. Exact (integer
//! addition commutes).

use super::*;
use crate::args::{buffer, buffer_mut, scalar_u32};
use crate::types::{ArgValue, ElemType::U32};

const N: usize = 4096;
const BINS: usize = 64;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "histogram",
    summary: "histogram with global atomic increments",
    launch: crate::Launch {
        dims: dims1(N as u32, 256),
        args: &[
            input("in", U32, N, Init::Bits { seed: 17 }),
            output("hist", U32, BINS, Compare::Exact),
            uint("n", N as u32),
            uint("nbins", BINS as u32),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    let n = (scalar_u32(args, 2)? as usize).min(items(dims));
    let nbins = scalar_u32(args, 3)?;
    if nbins == 0 {
        return Err(bad(KERNEL.name, "nbins is 0"));
    }
    let input = buffer::<u32>(args, 0, n)?.to_vec();
    let hist = buffer_mut::<u32>(args, 1, nbins as usize)?;
    for v in &input[..n] {
        let bin = ((v >> 3) % nbins) as usize;
        hist[bin] = hist[bin].wrapping_add(1);
    }
    Ok(())
}
