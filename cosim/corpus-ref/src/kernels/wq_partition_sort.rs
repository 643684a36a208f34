//! `wq_partition_sort` (work creation): partitions keys into buckets by their
//! top bits, then each bucket is ranked into place by a child launch.

use super::*;
use crate::args::{buffer, buffer_mut, scalar_u32};
use crate::types::{ArgValue, ElemType::U32};

const N: usize = 1024;
const BUCKETS: usize = 16;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "wq_partition_sort",
    summary: "work creation: partition by top bits, then a child sorts each part",
    launch: crate::Launch {
        dims: dims1(BUCKETS as u32, BUCKETS as u32),
        args: &[
            input(
                "keys",
                U32,
                N,
                Init::Int {
                    seed: 1001,
                    lo: 0,
                    hi: 0xffff,
                },
            ),
            output("tmp", U32, N, Compare::Exact),
            output("out", U32, N, Compare::Exact),
            output("counts", U32, BUCKETS, Compare::Exact),
            uint("n", N as u32),
            uint("shift", 12),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    require_1d(KERNEL.name, dims)?;
    let buckets = items(dims);
    let n = scalar_u32(args, 4)? as usize;
    let shift = scalar_u32(args, 5)?;
    if shift >= 32 {
        return Err(bad(KERNEL.name, "shift must be below 32"));
    }
    let keys = buffer::<u32>(args, 0, n)?.to_vec();
    if keys.iter().any(|&k| (k >> shift) as usize >= buckets) {
        return Err(bad(KERNEL.name, "a key's bucket has no work-item"));
    }
    // tmp: keys grouped by bucket, in index order within a bucket.
    let mut tmp = keys.clone();
    tmp.sort_by_key(|&k| k >> shift);
    let mut out = keys.clone();
    out.sort_unstable();
    let mut counts = vec![0u32; buckets];
    for &k in &keys {
        counts[(k >> shift) as usize] += 1;
    }
    buffer_mut::<u32>(args, 1, n)?.copy_from_slice(&tmp);
    buffer_mut::<u32>(args, 2, n)?.copy_from_slice(&out);
    buffer_mut::<u32>(args, 3, buckets)?.copy_from_slice(&counts);
    Ok(())
}
