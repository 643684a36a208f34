//! `matmul_tiled`: C = A * B with 16x16 LDS tiles. The fma order is k
//! ascending, as in `matmul_naive`, so C is exact.

use super::*;
use crate::args::{buffer, buffer_mut, scalar_u32};
use crate::types::{ArgValue, ElemType::F32};

const T: usize = 16;
const M: usize = 64;
const N: usize = 96;
const K: usize = 48;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "matmul_tiled",
    summary: "LDS-tiled matrix multiply (16x16 tiles, two barriers per tile)",
    launch: crate::Launch {
        dims: dims2([N as u32, M as u32], [T as u32, T as u32]),
        args: &[
            input(
                "A",
                F32,
                M * K,
                Init::Float {
                    seed: 11,
                    lo: -1.0,
                    hi: 1.0,
                },
            ),
            input(
                "B",
                F32,
                K * N,
                Init::Float {
                    seed: 12,
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
    require_local(KERNEL.name, dims, [T as u32, T as u32, 1])?;
    let (m, n, k) = (
        scalar_u32(args, 3)? as usize,
        scalar_u32(args, 4)? as usize,
        scalar_u32(args, 5)? as usize,
    );
    // The kernel has no bounds checks: the grid must be exactly N x M.
    if dims.grid != [n as u32, m as u32, 1] || k % T != 0 {
        return Err(bad(
            KERNEL.name,
            format!("needs grid [N, M, 1] = [{n}, {m}, 1] and K % 16 == 0"),
        ));
    }
    let a = buffer::<f32>(args, 0, m * k)?.to_vec();
    let b = buffer::<f32>(args, 1, k * n)?.to_vec();
    let c = buffer_mut::<f32>(args, 2, m * n)?;
    for row in 0..m {
        for col in 0..n {
            let mut acc = 0.0f32;
            for kk in 0..k {
                acc = a[row * k + kk].mul_add(b[kk * n + col], acc);
            }
            c[row * n + col] = acc;
        }
    }
    Ok(())
}
