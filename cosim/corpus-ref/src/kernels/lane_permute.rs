//! `lane_permute`: ds_bpermute from lane ^ 31 (same result in wave32 and
//! wave64) and the lane id modulo 32 from mbcnt. Exact.

use super::*;
use crate::args::{buffer, buffer_mut};
use crate::types::{
    ArgValue,
    ElemType::{I32, U32},
};

const N: usize = 1024;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "lane_permute",
    summary: "cross-lane ds_bpermute and mbcnt lane id (wave-size independent pattern)",
    launch: crate::Launch {
        dims: dims1(N as u32, 256),
        args: &[
            input("in", I32, N, Init::Bits { seed: 38 }),
            output("out", I32, N, Compare::Exact),
            output("lane_out", U32, N, Compare::Exact),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    require_1d(KERNEL.name, dims)?;
    // With work-groups a multiple of 64 the wave and lane of work-item g are
    // the same in wave32 and wave64 modulo 32, so g ^ 31 is in g's wave.
    if dims.local[0] % 64 != 0 {
        return Err(bad(KERNEL.name, "work-group size must be a multiple of 64"));
    }
    let n = items(dims);
    let input = buffer::<i32>(args, 0, n)?.to_vec();
    let out = buffer_mut::<i32>(args, 1, n)?;
    for g in 0..n {
        out[g] = input[g ^ 31];
    }
    let lane = buffer_mut::<u32>(args, 2, n)?;
    for (g, l) in lane.iter_mut().take(n).enumerate() {
        *l = (g & 31) as u32;
    }
    Ok(())
}
