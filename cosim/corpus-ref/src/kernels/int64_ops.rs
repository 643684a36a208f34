//! `int64_ops`: 64-bit multiply, unsigned division / remainder, variable
//! shifts, signed compare and arithmetic shift. Exact.

use super::*;
use crate::args::{buffer, buffer_mut};
use crate::types::{ArgValue, ElemType::U64};

const N: usize = 1024;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "int64_ops",
    summary: "64-bit integer mul, udiv/urem (inline expansion), shifts, signed compare",
    launch: crate::Launch {
        dims: dims1(N as u32, 256),
        args: &[
            input("a", U64, N, Init::Bits { seed: 22 }),
            input(
                "b",
                U64,
                N,
                Init::Int {
                    seed: 23,
                    lo: 1,
                    hi: 1 << 40,
                },
            ),
            output("out", U64, 5 * N, Compare::Exact),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    let n = items(dims);
    let a = buffer::<u64>(args, 0, n)?.to_vec();
    let b = buffer::<u64>(args, 1, n)?.to_vec();
    let out = buffer_mut::<u64>(args, 2, 5 * n)?;
    for i in 0..n {
        let (x, y) = (a[i], b[i]);
        if y == 0 {
            return Err(bad(KERNEL.name, format!("b[{i}] is 0 (division by zero)")));
        }
        let o = &mut out[5 * i..5 * i + 5];
        o[0] = x.wrapping_mul(y).wrapping_add(0x0123_4567_89ab_cdef);
        o[1] = x / y;
        o[2] = x % y;
        o[3] = (x >> (y & 63)) ^ (x << (x & 63));
        let pick = if (x as i64) < (y as i64) {
            ((x as i64) >> 7) as u64
        } else {
            y.wrapping_sub(x)
        };
        o[4] = pick.wrapping_add((x >> 32).wrapping_mul(y & 0xffff_ffff));
    }
    Ok(())
}
