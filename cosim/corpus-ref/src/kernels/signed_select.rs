//! `signed_select`: selects between a value and its negation or absolute
//! value — `v_cndmask_b32_e64` with `-v`, `|v|`, `-|v|` source modifiers
//! (issue 14's regression: the golden GPU once dropped them). Exact.

use super::*;
use crate::args::{buffer, buffer_mut};
use crate::types::{ArgValue, ElemType::F32};

const N: usize = 1024;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "signed_select",
    summary: "select between a value and its negation/absolute value (v_cndmask -v, |v|, -|v|)",
    launch: crate::Launch {
        dims: dims1(N as u32, 256),
        args: &[
            input(
                "a",
                F32,
                N,
                Init::Float {
                    seed: 61,
                    lo: -4.0,
                    hi: 4.0,
                },
            ),
            input(
                "b",
                F32,
                N,
                Init::Float {
                    seed: 62,
                    lo: -4.0,
                    hi: 4.0,
                },
            ),
            input(
                "c",
                F32,
                N,
                Init::Float {
                    seed: 63,
                    lo: -2.0,
                    hi: 2.0,
                },
            ),
            output("out", F32, 4 * N, Compare::Exact),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    let n = items(dims);
    let a = buffer::<f32>(args, 0, n)?.to_vec();
    let b = buffer::<f32>(args, 1, n)?.to_vec();
    let c = buffer::<f32>(args, 2, n)?.to_vec();
    let out = buffer_mut::<f32>(args, 3, 4 * n)?;
    for i in 0..n {
        let (x, y, z) = (a[i], b[i], c[i]);
        out[4 * i] = if z > 0.0 { x } else { -y };
        out[4 * i + 1] = if z < 1.0 { x.abs() } else { y };
        out[4 * i + 2] = if z < -1.0 { -y.abs() } else { x };
        out[4 * i + 3] = if z > 0.5 { -x } else { -y.abs() };
    }
    Ok(())
}
