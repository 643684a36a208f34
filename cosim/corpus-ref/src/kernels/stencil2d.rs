//! `stencil2d`: 5-point stencil with contraction disabled; the reference
//! uses the same association ((n + s) + w) + e. Exact.

use super::*;
use crate::args::{buffer, buffer_mut, scalar_u32};
use crate::types::{ArgValue, ElemType::F32};

const W: usize = 64;
const H: usize = 32;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "stencil2d",
    summary: "2-D 5-point stencil with border copy (64x4 work-groups, FP_CONTRACT OFF)",
    launch: crate::Launch {
        dims: dims2([W as u32, H as u32], [64, 4]),
        args: &[
            input(
                "in",
                F32,
                W * H,
                Init::Float {
                    seed: 14,
                    lo: 0.0,
                    hi: 10.0,
                },
            ),
            output("out", F32, W * H, Compare::Exact),
            uint("width", W as u32),
            uint("height", H as u32),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    let (w, h) = (scalar_u32(args, 2)? as usize, scalar_u32(args, 3)? as usize);
    let input = buffer::<f32>(args, 0, w * h)?.to_vec();
    let out = buffer_mut::<f32>(args, 1, w * h)?;
    for y in 0..h.min(dims.grid[1] as usize) {
        for x in 0..w.min(dims.grid[0] as usize) {
            let i = y * w + x;
            let c = input[i];
            out[i] = if x == 0 || y == 0 || x == w - 1 || y == h - 1 {
                c
            } else {
                let sum = input[i - w] + input[i + w] + input[i - 1] + input[i + 1];
                0.5 * c + 0.125 * sum
            };
        }
    }
    Ok(())
}
