//! `private_scratch`: a dynamically indexed 128-entry private array, which
//! clang places in scratch memory (private_segment_fixed_size > 0). Exact.

use super::*;
use crate::args::{buffer, buffer_mut, scalar_u32};
use crate::types::{ArgValue, ElemType::U32};

const N: usize = 1024;
const P: usize = 128;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "private_scratch",
    summary: "private array in scratch memory with data-dependent indexing",
    launch: crate::Launch {
        dims: dims1(N as u32, 256),
        args: &[
            input("in", U32, N, Init::Bits { seed: 33 }),
            output("out", U32, N, Compare::Exact),
            uint("rounds", 64),
        ],
    },
    reference,
};

/// The kernel's computation for work-item `i` with input `v`.
fn item(i: u32, v: u32, rounds: u32) -> u32 {
    let mut private = [0u32; P];
    for (k, slot) in private.iter_mut().enumerate() {
        *slot = v.wrapping_mul(k as u32).wrapping_add(i);
    }
    let mut x = v;
    for _ in 0..rounds {
        let idx = ((x >> 9) as usize) & (P - 1);
        private[idx] = private[idx].wrapping_add(x);
        x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
    }
    private[v as usize & (P - 1)] ^ private[(v >> 7) as usize & (P - 1)]
}

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    let n = items(dims);
    let rounds = scalar_u32(args, 2)?;
    let input = buffer::<u32>(args, 0, n)?.to_vec();
    let out = buffer_mut::<u32>(args, 1, n)?;
    for i in 0..n {
        out[i] = item(i as u32, input[i], rounds);
    }
    Ok(())
}
