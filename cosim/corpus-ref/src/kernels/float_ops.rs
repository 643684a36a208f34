//! `float_ops`: elementwise f32 add/sub/mul/fabs/floor/fmin/fmax and
//! conversions. Every result is one IEEE operation: exact.

use super::*;
use crate::args::{buffer, buffer_mut};
use crate::types::{
    ArgValue,
    ElemType::{F32, I32},
};

const N: usize = 1024;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "float_ops",
    summary: "elementwise float add/sub/mul/fabs/floor/fmin/fmax, float<->int conversion",
    launch: crate::Launch {
        dims: dims1(N as u32, 256),
        args: &[
            input(
                "a",
                F32,
                N,
                Init::Float {
                    seed: 3,
                    lo: -10.0,
                    hi: 10.0,
                },
            ),
            input(
                "b",
                F32,
                N,
                Init::Float {
                    seed: 4,
                    lo: -10.0,
                    hi: 10.0,
                },
            ),
            output("out", F32, 8 * N, Compare::Exact),
            output("iout", I32, N, Compare::Exact),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    let n = items(dims);
    let a = buffer::<f32>(args, 0, n)?.to_vec();
    let b = buffer::<f32>(args, 1, n)?.to_vec();
    let out = buffer_mut::<f32>(args, 2, 8 * n)?;
    for i in 0..n {
        let (x, y) = (a[i], b[i]);
        let o = &mut out[8 * i..8 * i + 8];
        o[0] = x + y;
        o[1] = x - y;
        o[2] = x * y;
        o[3] = x.abs();
        o[4] = (x * 4.0).floor();
        o[5] = x.min(y);
        o[6] = x.max(y);
        // `as` truncates toward zero like v_cvt_i32_f32 (inputs are in range).
        o[7] = ((x * 100.0) as i32) as f32;
    }
    let iout = buffer_mut::<i32>(args, 3, n)?;
    for i in 0..n {
        iout[i] = (b[i] * 1000.0) as i32;
    }
    Ok(())
}
