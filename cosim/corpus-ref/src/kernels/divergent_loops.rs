//! `divergent_loops`: Collatz loop with early exit plus a three-way branch.
//! Exact.

use super::*;
use crate::args::{buffer, buffer_mut, scalar_u32};
use crate::types::{ArgValue, ElemType::U32};

const N: usize = 2048;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "divergent_loops",
    summary: "divergent branches, data-dependent loops with break",
    launch: crate::Launch {
        dims: dims1(N as u32, 256),
        args: &[
            input(
                "in",
                U32,
                N,
                Init::Int {
                    seed: 24,
                    lo: 1,
                    hi: 10_000,
                },
            ),
            output("out", U32, N, Compare::Exact),
            uint("limit", 200),
        ],
    },
    reference,
};

/// The kernel's computation for work-item `i` with input `v`.
fn item(i: usize, v: u32, limit: u32) -> u32 {
    let mut x = v;
    let mut steps = 0u32;
    while x != 1 {
        x = if x & 1 != 0 {
            x.wrapping_mul(3).wrapping_add(1)
        } else {
            x >> 1
        };
        steps = steps.wrapping_add(1);
        if steps >= limit {
            break;
        }
    }
    match i % 3 {
        0 => steps.wrapping_mul(2),
        1 => x ^ steps,
        _ => {
            let mut acc = 0u32;
            for k in 0..(v & 15) {
                acc = acc.wrapping_add(k * k);
                if acc > 100 {
                    break;
                }
            }
            acc
        }
    }
}

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    let n = items(dims);
    let limit = scalar_u32(args, 2)?;
    let input = buffer::<u32>(args, 0, n)?.to_vec();
    let out = buffer_mut::<u32>(args, 1, n)?;
    for i in 0..n {
        out[i] = item(i, input[i], limit);
    }
    Ok(())
}
