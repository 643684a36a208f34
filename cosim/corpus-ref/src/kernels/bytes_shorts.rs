//! `bytes_shorts`: char / uchar / short / ushort loads and byte / short
//! stores. Exact.

use super::*;
use crate::args::{buffer, buffer_mut};
use crate::types::{
    ArgValue,
    ElemType::{I16, I32, I8, U16, U8},
};

const N: usize = 2048;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "bytes_shorts",
    summary: "sub-dword loads (sign/zero extension) and byte/short stores",
    launch: crate::Launch {
        dims: dims1(N as u32, 256),
        args: &[
            input("ub", U8, N, Init::Bits { seed: 28 }),
            input("sb", I8, N, Init::Bits { seed: 29 }),
            input("ss", I16, N, Init::Bits { seed: 30 }),
            input("us", U16, N, Init::Bits { seed: 31 }),
            output("ob", U8, N, Compare::Exact),
            output("os", I16, N, Compare::Exact),
            output("oi", I32, N, Compare::Exact),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    let n = items(dims);
    // The kernel also reads ub[i ^ 1].
    let ub = buffer::<u8>(args, 0, n + (n & 1))?.to_vec();
    let sb = buffer::<i8>(args, 1, n)?.to_vec();
    let ss = buffer::<i16>(args, 2, n)?.to_vec();
    let us = buffer::<u16>(args, 3, n)?.to_vec();
    let ob = buffer_mut::<u8>(args, 4, n)?;
    for i in 0..n {
        ob[i] = ub[i].wrapping_add(sb[i] as u8).wrapping_add(ub[i ^ 1]);
    }
    let os = buffer_mut::<i16>(args, 5, n)?;
    for i in 0..n {
        os[i] = (ss[i] as i32 * 3 + ub[i] as i32) as i16;
    }
    let oi = buffer_mut::<i32>(args, 6, n)?;
    for i in 0..n {
        oi[i] = (sb[i] as i32) * (us[i] as i32) + ss[i] as i32;
    }
    Ok(())
}
