//! `hash_int`: four rounds of xor-shift / multiply / rotate / mul_hi
//! mixing. Exact.

use super::*;
use crate::args::{buffer, buffer_mut, scalar_u32};
use crate::types::{ArgValue, ElemType::U32};

const N: usize = 4096;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "hash_int",
    summary: "integer hashing: mul_hi, rotate, shifts, 32-bit multiply",
    launch: crate::Launch {
        dims: dims1(N as u32, 256),
        args: &[
            input("in", U32, N, Init::Bits { seed: 21 }),
            output("out", U32, N, Compare::Exact),
            uint("seed", 0xdead_beef),
        ],
    },
    reference,
};

/// The kernel's hash of one value.
fn hash(v: u32, seed: u32) -> u32 {
    let mut x = v ^ seed;
    for r in 0..4u32 {
        x ^= x >> 16;
        x = x.wrapping_mul(0x85eb_ca6b);
        x ^= x >> 13;
        x = x.rotate_left(7 + r);
        let h = ((x as u64 * 0x9e37_79b9u64) >> 32) as u32;
        x ^= h.wrapping_add(x << 5).wrapping_add(r);
    }
    x
}

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    let n = items(dims);
    let seed = scalar_u32(args, 2)?;
    let input = buffer::<u32>(args, 0, n)?.to_vec();
    let out = buffer_mut::<u32>(args, 1, n)?;
    for (o, &v) in out.iter_mut().zip(&input[..n]) {
        *o = hash(v, seed);
    }
    Ok(())
}
