//! `wq_producer` (work creation): every parent work-item launches one child
//! that fills its slice of `out`; `status` holds each thread's `GW_*` code.

use super::*;
use crate::args::{buffer_mut, scalar_u32};
use crate::types::{ArgValue, ElemType::U32};

const THREADS: usize = 256;
const PER_CHILD: usize = 32;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "wq_producer",
    summary: "work creation: 256 threads each launch a child (contention on soft GP_PUT)",
    launch: crate::Launch {
        dims: dims1(THREADS as u32, 64),
        args: &[
            output("out", U32, THREADS * PER_CHILD, Compare::Exact),
            inout(
                "status",
                U32,
                THREADS,
                Init::Fill(0xffff_ffff),
                Compare::Exact,
            ),
            uint("per_child", PER_CHILD as u32),
        ],
    },
    reference,
};

/// The child's hash of (child, j), as `wq_producer_fill` computes it.
pub(crate) fn fill_hash(child: u32, j: u32) -> u32 {
    let mut h = child
        .wrapping_mul(0x9e37_79b9)
        .wrapping_add(j.wrapping_mul(0x85eb_ca6b));
    h ^= h >> 15;
    h = h.wrapping_mul(0x2c1b_3c6d);
    h ^= h >> 12;
    h
}

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    require_1d(KERNEL.name, dims)?;
    let threads = items(dims);
    let per_child = scalar_u32(args, 2)? as usize;
    if per_child == 0 || per_child > 1024 {
        return Err(bad(KERNEL.name, "per_child must be 1 to 1024"));
    }
    let out = buffer_mut::<u32>(args, 0, threads * per_child)?;
    for c in 0..threads {
        for j in 0..per_child {
            out[c * per_child + j] = fill_hash(c as u32, j as u32);
        }
    }
    buffer_mut::<u32>(args, 1, threads)?[..threads].fill(0);
    Ok(())
}
