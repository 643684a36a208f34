//! `reduce_max_dyn`: unsigned max reduction through a `__local` pointer
//! argument sized by the launch. Exact; the reference replays the same tree
//! for any work-group size.

use super::*;
use crate::args::{buffer, buffer_mut, local_bytes};
use crate::types::{ArgSpec, ArgValue, ElemType::U32};

const WG: usize = 128;
const N: usize = 2048;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "reduce_max_dyn",
    summary: "uint max reduction in dynamic LDS (__local pointer argument), loop bound from the dispatch packet",
    launch: crate::Launch {
        dims: dims1(N as u32, WG as u32),
        args: &[
            input("in", U32, N, Init::Bits { seed: 8 }),
            output("out", U32, N / WG, Compare::Exact),
            ArgSpec::Local { name: "scratch", bytes: 4 * WG as u32 },
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    require_1d(KERNEL.name, dims)?;
    let wg = dims.local[0] as usize;
    if (local_bytes(args, 2)? as usize) < 4 * wg {
        return Err(bad(
            KERNEL.name,
            format!("scratch needs {} bytes of LDS", 4 * wg),
        ));
    }
    let n = items(dims);
    let groups = n / wg;
    let input = buffer::<u32>(args, 0, n)?.to_vec();
    let out = buffer_mut::<u32>(args, 1, groups)?;
    for (g, slot) in out.iter_mut().take(groups).enumerate() {
        let mut s = input[g * wg..(g + 1) * wg].to_vec();
        let mut stride = wg / 2;
        while stride > 0 {
            for t in 0..stride {
                s[t] = s[t].max(s[t + stride]);
            }
            stride >>= 1;
        }
        *slot = s[0];
    }
    Ok(())
}
