//! `select_ops`: ternary / select on ints and floats. Exact.

use super::*;
use crate::args::{buffer, buffer_mut};
use crate::types::{
    ArgValue,
    ElemType::{F32, I32},
};

const N: usize = 1024;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "select_ops",
    summary: "ternary/select patterns on int and float (v_cndmask, mixed predicates)",
    launch: crate::Launch {
        dims: dims1(N as u32, 256),
        args: &[
            input(
                "a",
                I32,
                N,
                Init::Int {
                    seed: 25,
                    lo: -1000,
                    hi: 1000,
                },
            ),
            input(
                "b",
                I32,
                N,
                Init::Int {
                    seed: 26,
                    lo: -1000,
                    hi: 1000,
                },
            ),
            input(
                "f",
                F32,
                N,
                Init::Float {
                    seed: 27,
                    lo: -4.0,
                    hi: 4.0,
                },
            ),
            output("iout", I32, 3 * N, Compare::Exact),
            output("fout", F32, N, Compare::Exact),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    let n = items(dims);
    let a = buffer::<i32>(args, 0, n)?.to_vec();
    let b = buffer::<i32>(args, 1, n)?.to_vec();
    let f = buffer::<f32>(args, 2, n)?.to_vec();
    let iout = buffer_mut::<i32>(args, 3, 3 * n)?;
    for i in 0..n {
        let (x, y) = (a[i], b[i]);
        iout[3 * i] = if x > y {
            x.wrapping_sub(y)
        } else {
            y.wrapping_sub(x)
        };
        iout[3 * i + 1] = if x & 1 != 0 { x } else { y.wrapping_neg() };
        iout[3 * i + 2] = if x >= 0 && y <= 0 {
            1
        } else if (x < 0) != (y < 0) {
            2
        } else {
            3
        };
    }
    let fout = buffer_mut::<f32>(args, 4, n)?;
    for i in 0..n {
        let z = f[i];
        fout[i] = if z < 0.0 { z * -0.5 } else { z + 1.0 };
    }
    Ok(())
}
