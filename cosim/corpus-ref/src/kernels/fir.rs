//! `fir`: 1-D FIR filter with taps staged in LDS and an fma chain in tap
//! order. Exact.

use super::*;
use crate::args::{buffer, buffer_mut, scalar_u32};
use crate::types::{ArgValue, ElemType::F32};

const N: usize = 2048;
const TAPS: usize = 16;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "fir",
    summary: "1-D FIR convolution, taps staged in static LDS",
    launch: crate::Launch {
        dims: dims1(N as u32, 256),
        args: &[
            input(
                "in",
                F32,
                N + TAPS - 1,
                Init::Float {
                    seed: 15,
                    lo: -1.0,
                    hi: 1.0,
                },
            ),
            input(
                "coef",
                F32,
                TAPS,
                Init::Float {
                    seed: 16,
                    lo: -0.5,
                    hi: 0.5,
                },
            ),
            output("out", F32, N, Compare::Exact),
            uint("n", N as u32),
            uint("taps", TAPS as u32),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    require_1d(KERNEL.name, dims)?;
    let taps = scalar_u32(args, 4)? as usize;
    // Only the first `taps` work-items of a group load the LDS copy.
    if taps > 64 || taps > dims.local[0] as usize {
        return Err(bad(
            KERNEL.name,
            "taps must be <= 64 and <= the work-group size",
        ));
    }
    let n = (scalar_u32(args, 3)? as usize).min(items(dims));
    let input = buffer::<f32>(args, 0, n + taps.saturating_sub(1))?.to_vec();
    let coef = buffer::<f32>(args, 1, taps)?[..taps].to_vec();
    let out = buffer_mut::<f32>(args, 2, n)?;
    for (i, o) in out.iter_mut().take(n).enumerate() {
        let mut acc = 0.0f32;
        for (k, c) in coef.iter().enumerate() {
            acc = c.mul_add(input[i + k], acc);
        }
        *o = acc;
    }
    Ok(())
}
