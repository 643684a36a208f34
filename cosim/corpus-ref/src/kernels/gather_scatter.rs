//! `gather_scatter`: out[dst[i]] = in[src[i]] + i through two seeded
//! permutations. Exact.

use super::*;
use crate::args::{buffer, buffer_mut};
use crate::types::{ArgValue, ElemType::U32};

const N: usize = 2048;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "gather_scatter",
    summary: "indirect loads and stores through index buffers",
    launch: crate::Launch {
        dims: dims1(N as u32, 256),
        args: &[
            input("in", U32, N, Init::Bits { seed: 39 }),
            input("src", U32, N, Init::Permutation { seed: 40 }),
            input("dst", U32, N, Init::Permutation { seed: 41 }),
            output("out", U32, N, Compare::Exact),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    let n = items(dims);
    let input = buffer::<u32>(args, 0, 0)?.to_vec();
    let src = buffer::<u32>(args, 1, n)?.to_vec();
    let dst = buffer::<u32>(args, 2, n)?.to_vec();
    let out = buffer_mut::<u32>(args, 3, 0)?;
    for i in 0..n {
        let (s, d) = (src[i] as usize, dst[i] as usize);
        let v = *input
            .get(s)
            .ok_or_else(|| bad(KERNEL.name, format!("src[{i}] = {s} is out of bounds")))?;
        let slot = out
            .get_mut(d)
            .ok_or_else(|| bad(KERNEL.name, format!("dst[{i}] = {d} is out of bounds")))?;
        *slot = v.wrapping_add(i as u32);
    }
    Ok(())
}
