//! `vec4_scale`: float4 / uint4 loads and stores with swizzles. Exact.

use super::*;
use crate::args::{buffer, buffer_mut, scalar_f32};
use crate::types::{
    ArgValue,
    ElemType::{F32, U32},
};

const N: usize = 1024;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "vec4_scale",
    summary: "float4/uint4 vector loads/stores (dwordx4), swizzles, vector*scalar",
    launch: crate::Launch {
        dims: dims1(N as u32, 256),
        args: &[
            input(
                "in",
                F32,
                4 * N,
                Init::Float {
                    seed: 35,
                    lo: -100.0,
                    hi: 100.0,
                },
            ),
            output("out", F32, 4 * N, Compare::Exact),
            input("iin", U32, 4 * N, Init::Bits { seed: 36 }),
            output("iout", U32, 4 * N, Compare::Exact),
            float("s", 0.75),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    let n = items(dims);
    let s = scalar_f32(args, 4)?;
    let input = buffer::<f32>(args, 0, 4 * n)?.to_vec();
    let iin = buffer::<u32>(args, 2, 4 * n)?.to_vec();
    let out = buffer_mut::<f32>(args, 1, 4 * n)?;
    for i in 0..n {
        for c in 0..4 {
            out[4 * i + c] = input[4 * i + 3 - c] * s;
        }
    }
    let iout = buffer_mut::<u32>(args, 3, 4 * n)?;
    for i in 0..n {
        let u = &iin[4 * i..4 * i + 4];
        iout[4 * i..4 * i + 4].copy_from_slice(&[
            u[1],
            u[0].wrapping_add(u[3]),
            u[2] ^ u[1],
            u[3] << 3,
        ]);
    }
    Ok(())
}
