//! `bit_ops`: popcount, clz, ctz, bit reverse, bit-field extract on
//! `x = (i % 256 == 0) ? 0 : in[i] >> (i % 32)` (so zeros and small values
//! occur). Exact.

use super::*;
use crate::args::{buffer, buffer_mut};
use crate::types::{ArgValue, ElemType::U32};

const N: usize = 2048;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "bit_ops",
    summary: "popcount, clz, ctz, bitreverse, shift-and-mask bit-field extract",
    launch: crate::Launch {
        dims: dims1(N as u32, 256),
        args: &[
            input("in", U32, N, Init::Bits { seed: 37 }),
            output("out", U32, 5 * N, Compare::Exact),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    let n = items(dims);
    let input = buffer::<u32>(args, 0, n)?.to_vec();
    let out = buffer_mut::<u32>(args, 1, 5 * n)?;
    for i in 0..n {
        let x = if i & 255 == 0 {
            0
        } else {
            input[i] >> (i & 31)
        };
        out[5 * i..5 * i + 5].copy_from_slice(&[
            x.count_ones(),
            x.leading_zeros(),
            x.trailing_zeros(),
            x.reverse_bits(),
            (x >> (i & 15)) & 0x3ff,
        ]);
    }
    Ok(())
}
