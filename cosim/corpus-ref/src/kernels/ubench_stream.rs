//! `ubench_stream`: calibration microbenchmark for streaming bandwidth:
//! STREAM triad c = s * b + a on float4 elements with a grid-stride loop,
//! repeated `reps` times. Exact (explicit fma, one rounding).

use super::*;
use crate::args::{buffer, buffer_mut, scalar_f32, scalar_u32};
use crate::types::{ArgValue, ElemType::F32};

/// float4 elements.
const N4: usize = 16384;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "ubench_stream",
    summary: "calibration: streaming triad c = s*b + a on float4, many waves (bandwidth)",
    launch: crate::Launch {
        dims: dims1(4096, 256),
        args: &[
            input(
                "a",
                F32,
                4 * N4,
                Init::Float {
                    seed: 105,
                    lo: -1.0,
                    hi: 1.0,
                },
            ),
            input(
                "b",
                F32,
                4 * N4,
                Init::Float {
                    seed: 106,
                    lo: -1.0,
                    hi: 1.0,
                },
            ),
            output("c", F32, 4 * N4, Compare::Exact),
            float("s", 3.0),
            uint("n4", N4 as u32),
            uint("reps", 2),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    require_1d(KERNEL.name, dims)?;
    let s = scalar_f32(args, 3)?;
    let n = 4 * scalar_u32(args, 4)? as usize;
    if scalar_u32(args, 5)? == 0 {
        return Ok(());
    }
    let a = buffer::<f32>(args, 0, n)?.to_vec();
    let b = buffer::<f32>(args, 1, n)?.to_vec();
    let c = buffer_mut::<f32>(args, 2, n)?;
    for i in 0..n {
        c[i] = s.mul_add(b[i], a[i]);
    }
    Ok(())
}
