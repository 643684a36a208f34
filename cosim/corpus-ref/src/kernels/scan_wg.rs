//! `scan_wg`: work-group exclusive prefix sum (Blelloch) in LDS, plus the
//! per-group totals. The reference replays the up-sweep / down-sweep tree;
//! the tests check it against a plain sequential scan. Exact.

use super::*;
use crate::args::{buffer, buffer_mut};
use crate::types::{ArgValue, ElemType::U32};

const WG: usize = 256;
const N: usize = 2048;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "scan_wg",
    summary: "work-group exclusive prefix scan (Blelloch up/down sweep in LDS)",
    launch: crate::Launch {
        dims: dims1(N as u32, WG as u32),
        args: &[
            input(
                "in",
                U32,
                N,
                Init::Int {
                    seed: 18,
                    lo: 0,
                    hi: 1_000_000,
                },
            ),
            output("out", U32, N, Compare::Exact),
            output("sums", U32, N / WG, Compare::Exact),
        ],
    },
    reference,
};

/// The kernel's tree on one block of `WG` values: returns the exclusive
/// scan and the total.
fn blelloch(block: &[u32]) -> (Vec<u32>, u32) {
    let mut s = block.to_vec();
    let mut d = 1;
    while d < WG {
        for t in 0..WG {
            let idx = (t + 1) * (d << 1) - 1;
            if idx < WG {
                s[idx] = s[idx].wrapping_add(s[idx - d]);
            }
        }
        d <<= 1;
    }
    let total = s[WG - 1];
    s[WG - 1] = 0;
    let mut d = WG >> 1;
    while d >= 1 {
        for t in 0..WG {
            let idx = (t + 1) * (d << 1) - 1;
            if idx < WG {
                let left = s[idx - d];
                s[idx - d] = s[idx];
                s[idx] = s[idx].wrapping_add(left);
            }
        }
        d >>= 1;
    }
    (s, total)
}

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    require_local(KERNEL.name, dims, [WG as u32, 1, 1])?;
    require_1d(KERNEL.name, dims)?;
    let n = items(dims);
    let groups = n / WG;
    let input = buffer::<u32>(args, 0, n)?.to_vec();
    let mut totals = Vec::with_capacity(groups);
    {
        let out = buffer_mut::<u32>(args, 1, n)?;
        for g in 0..groups {
            let (scan, total) = blelloch(&input[g * WG..(g + 1) * WG]);
            out[g * WG..(g + 1) * WG].copy_from_slice(&scan);
            totals.push(total);
        }
    }
    buffer_mut::<u32>(args, 2, groups)?[..groups].copy_from_slice(&totals);
    Ok(())
}
