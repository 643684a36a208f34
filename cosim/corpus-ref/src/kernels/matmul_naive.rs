//! `matmul_naive`: C = A * B with one work-item per element of C and an
//! explicit fma chain in k order. Exact.

use super::*;
use crate::args::{buffer, buffer_mut, scalar_u32};
use crate::types::{ArgValue, ElemType::F32};

const M: usize = 48;
const N: usize = 64;
const K: usize = 40;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "matmul_naive",
    summary: "naive matrix multiply on a 2-D grid (fma chain)",
    launch: crate::Launch {
        dims: dims2([N as u32, M as u32], [16, 16]),
        args: &[
            input(
                "A",
                F32,
                M * K,
                Init::Float {
                    seed: 9,
                    lo: -1.0,
                    hi: 1.0,
                },
            ),
            input(
                "B",
                F32,
                K * N,
                Init::Float {
                    seed: 10,
                    lo: -1.0,
                    hi: 1.0,
                },
            ),
            output("C", F32, M * N, Compare::Exact),
            uint("M", M as u32),
            uint("N", N as u32),
            uint("K", K as u32),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    let (m, n, k) = (
        scalar_u32(args, 3)? as usize,
        scalar_u32(args, 4)? as usize,
        scalar_u32(args, 5)? as usize,
    );
    let a = buffer::<f32>(args, 0, m * k)?.to_vec();
    let b = buffer::<f32>(args, 1, k * n)?.to_vec();
    let c = buffer_mut::<f32>(args, 2, m * n)?;
    let rows = m.min(dims.grid[1] as usize);
    let cols = n.min(dims.grid[0] as usize);
    for row in 0..rows {
        for col in 0..cols {
            let mut acc = 0.0f32;
            for kk in 0..k {
                acc = a[row * k + kk].mul_add(b[kk * n + col], acc);
            }
            c[row * n + col] = acc;
        }
    }
    Ok(())
}
