//! `append`: stream compaction with slots reserved by a global atomic
//! counter. The counter is exact; `out` is compared as a multiset because
//! the slot order depends on scheduling (unused slots keep 0xffffffff).

use super::*;
use crate::args::{buffer, buffer_mut, scalar_u32};
use crate::types::{ArgValue, ElemType::U32};

const N: usize = 2048;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "append",
    summary: "append/compaction: output slots reserved with a global atomic",
    launch: crate::Launch {
        dims: dims1(N as u32, 256),
        args: &[
            input(
                "in",
                U32,
                N,
                Init::Int {
                    seed: 34,
                    lo: 0,
                    hi: 1000,
                },
            ),
            inout("out", U32, N, Init::Fill(0xffff_ffff), Compare::Multiset),
            output("counter", U32, 1, Compare::Exact),
            uint("modulus", 7),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    let n = items(dims);
    let modulus = scalar_u32(args, 3)?;
    if modulus == 0 {
        return Err(bad(KERNEL.name, "modulus is 0"));
    }
    let input = buffer::<u32>(args, 0, n)?.to_vec();
    let start = buffer::<u32>(args, 2, 1)?[0];
    let picked: Vec<u32> = input[..n]
        .iter()
        .copied()
        .filter(|v| v % modulus == 0)
        .collect();
    let end = start as usize + picked.len();
    let out = buffer_mut::<u32>(args, 1, end)?;
    out[start as usize..end].copy_from_slice(&picked);
    buffer_mut::<u32>(args, 2, 1)?[0] = start.wrapping_add(picked.len() as u32);
    Ok(())
}
