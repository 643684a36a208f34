//! `bitonic_step`: one (j, k) compare-exchange step of a bitonic sorting
//! network, in place. Exact. The pairs (i, i ^ j) are disjoint, so applying
//! them sequentially gives the parallel result.

use super::*;
use crate::args::{buffer_mut, scalar_u32};
use crate::types::{ArgValue, ElemType::U32};

const N: usize = 1024;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "bitonic_step",
    summary: "one bitonic-sort compare-exchange step (partner i ^ j, direction from i & k)",
    launch: crate::Launch {
        dims: dims1(N as u32, 256),
        args: &[
            inout("data", U32, N, Init::Bits { seed: 19 }, Compare::Exact),
            uint("j", 8),
            uint("k", 16),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    let (j, k) = (scalar_u32(args, 1)? as usize, scalar_u32(args, 2)? as usize);
    let n = items(dims);
    // Every partner index must exist too.
    let needed = (0..n).map(|i| (i ^ j) + 1).max().unwrap_or(0).max(n);
    let data = buffer_mut::<u32>(args, 0, needed)?;
    for i in 0..n {
        let ixj = i ^ j;
        if ixj > i {
            let (a, b) = (data[i], data[ixj]);
            let up = i & k == 0;
            if (a > b) == up {
                data[i] = b;
                data[ixj] = a;
            }
        }
    }
    Ok(())
}
