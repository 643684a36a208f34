//! `reduce_sum`: work-group tree reduction of floats in LDS. The reference
//! adds in the kernel's tree order (stride 128, 64, ..., 1), so the partial
//! sums are exact.

use super::*;
use crate::args::{buffer, buffer_mut};
use crate::types::{ArgValue, ElemType::F32};

const WG: usize = 256;
const N: usize = 4096;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "reduce_sum",
    summary: "float tree reduction in a static LDS array with barriers",
    launch: crate::Launch {
        dims: dims1(N as u32, WG as u32),
        args: &[
            input(
                "in",
                F32,
                N,
                Init::Float {
                    seed: 7,
                    lo: -1.0,
                    hi: 1.0,
                },
            ),
            output("partial", F32, N / WG, Compare::Exact),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    require_local(KERNEL.name, dims, [WG as u32, 1, 1])?;
    require_1d(KERNEL.name, dims)?;
    let n = items(dims);
    let groups = n / WG;
    let input = buffer::<f32>(args, 0, n)?.to_vec();
    let partial = buffer_mut::<f32>(args, 1, groups)?;
    for (g, slot) in partial.iter_mut().take(groups).enumerate() {
        let mut s = input[g * WG..(g + 1) * WG].to_vec();
        let mut stride = WG / 2;
        while stride > 0 {
            for t in 0..stride {
                s[t] += s[t + stride];
            }
            stride >>= 1;
        }
        *slot = s[0];
    }
    Ok(())
}
