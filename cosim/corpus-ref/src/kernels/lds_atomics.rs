//! `lds_atomics`: per-work-group 32-bin histogram (ds_add) and maximum
//! (ds_max) in LDS; 33 uints per group. Exact.

use super::*;
use crate::args::{buffer, buffer_mut};
use crate::types::{ArgValue, ElemType::U32};

const WG: usize = 256;
const N: usize = 2048;
const NB: usize = 32;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "lds_atomics",
    summary: "LDS atomics: ds_add histogram and ds_max per work-group",
    launch: crate::Launch {
        dims: dims1(N as u32, WG as u32),
        args: &[
            input("in", U32, N, Init::Bits { seed: 32 }),
            output("out", U32, (N / WG) * (NB + 1), Compare::Exact),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    require_local(KERNEL.name, dims, [WG as u32, 1, 1])?;
    require_1d(KERNEL.name, dims)?;
    let n = items(dims);
    let groups = n / WG;
    let input = buffer::<u32>(args, 0, n)?.to_vec();
    let out = buffer_mut::<u32>(args, 1, groups * (NB + 1))?;
    for g in 0..groups {
        let mut bins = [0u32; NB + 1];
        for &v in &input[g * WG..(g + 1) * WG] {
            bins[v as usize % NB] += 1;
            bins[NB] = bins[NB].max(v);
        }
        out[g * (NB + 1)..(g + 1) * (NB + 1)].copy_from_slice(&bins);
    }
    Ok(())
}
