//! `int_ops`: elementwise 32-bit integer ALU, eight results per work-item.
//! Exact.

use super::*;
use crate::args::{buffer, buffer_mut, scalar_u32};
use crate::types::{ArgValue, ElemType::I32};

const N: usize = 1024;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "int_ops",
    summary: "elementwise int add/sub/mul/div/rem/logic/shifts/min-max",
    launch: crate::Launch {
        dims: dims1(N as u32, 256),
        args: &[
            input(
                "a",
                I32,
                N,
                Init::Int {
                    seed: 1,
                    lo: -100_000,
                    hi: 100_000,
                },
            ),
            input(
                "b",
                I32,
                N,
                Init::Int {
                    seed: 2,
                    lo: 1,
                    hi: 1000,
                },
            ),
            output("out", I32, 8 * N, Compare::Exact),
            uint("n", N as u32),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    let n = (scalar_u32(args, 3)? as usize).min(items(dims));
    let a = buffer::<i32>(args, 0, n)?.to_vec();
    let b = buffer::<i32>(args, 1, n)?.to_vec();
    let out = buffer_mut::<i32>(args, 2, 8 * n)?;
    for i in 0..n {
        let (x, y) = (a[i], b[i]);
        if y == 0 {
            return Err(bad(KERNEL.name, format!("b[{i}] is 0 (division by zero)")));
        }
        let o = &mut out[8 * i..8 * i + 8];
        o[0] = x.wrapping_add(y);
        o[1] = x.wrapping_sub(y);
        o[2] = x.wrapping_mul(y);
        o[3] = x.wrapping_div(y);
        o[4] = x.wrapping_rem(y);
        o[5] = (x & y) | (x ^ y.wrapping_shl(3));
        o[6] = (x >> (y & 31)).wrapping_add(((x as u32) >> (y & 15)) as i32);
        o[7] = x.max(y).wrapping_sub(x.min(y));
    }
    Ok(())
}
