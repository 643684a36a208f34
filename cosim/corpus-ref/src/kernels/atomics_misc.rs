//! `atomics_misc`: global atomic smax / smin / or / and / xor / sub and a
//! compare-and-swap increment loop on seven counters. All commute: exact.

use super::*;
use crate::args::{buffer, buffer_mut};
use crate::types::{ArgValue, ElemType::U32};

const N: usize = 2048;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "atomics_misc",
    summary: "global atomic smax/smin/or/and/xor/sub and a cmpxchg retry loop",
    launch: crate::Launch {
        dims: dims1(N as u32, 256),
        args: &[
            input("in", U32, N, Init::Bits { seed: 42 }),
            inout(
                "res",
                U32,
                7,
                Init::Values(&[0x8000_0000, 0x7fff_ffff, 0, 0xffff_ffff, 0, 0, 0x1000_0000]),
                Compare::Exact,
            ),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    let n = items(dims);
    let input = buffer::<u32>(args, 0, n)?.to_vec();
    let res = buffer_mut::<u32>(args, 1, 7)?;
    for &v in &input[..n] {
        res[0] = (res[0] as i32).max(v as i32) as u32;
        res[1] = (res[1] as i32).min(v as i32) as u32;
        res[2] |= 1 << (v & 31);
        res[3] &= !(1 << (v % 29));
        res[4] ^= v;
        res[5] = res[5].wrapping_add(v & 0xff);
        res[6] = res[6].wrapping_sub(v & 0xffff);
    }
    Ok(())
}
