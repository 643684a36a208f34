//! `ubench_atomics`: calibration microbenchmark for global atomic
//! throughput: work-item g adds vals[g] to counters[(g % naddr) * stride]
//! `iters` times. Exact (addition commutes; wrapping).

use super::*;
use crate::args::{buffer, buffer_mut, scalar_u32};
use crate::types::{ArgValue, ElemType::U32};

const N: usize = 1024;
const NADDR: usize = 4;
const STRIDE: usize = 32;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "ubench_atomics",
    summary: "calibration: global atomic_add throughput on few (contended) or distinct addresses",
    launch: crate::Launch {
        dims: dims1(N as u32, 256),
        args: &[
            output("counters", U32, NADDR * STRIDE, Compare::Exact),
            input(
                "vals",
                U32,
                N,
                Init::Int {
                    seed: 107,
                    lo: 1,
                    hi: 1000,
                },
            ),
            uint("naddr", NADDR as u32),
            uint("stride", STRIDE as u32),
            uint("iters", 16),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    require_1d(KERNEL.name, dims)?;
    let n = items(dims);
    let (naddr, stride, iters) = (
        scalar_u32(args, 2)? as usize,
        scalar_u32(args, 3)? as usize,
        scalar_u32(args, 4)?,
    );
    if naddr == 0 {
        return Err(bad(KERNEL.name, "naddr is 0"));
    }
    let vals = buffer::<u32>(args, 1, n)?.to_vec();
    let used = (naddr.min(n) - 1) * stride + 1;
    let counters = buffer_mut::<u32>(args, 0, used)?;
    for (g, &v) in vals[..n].iter().enumerate() {
        let c = &mut counters[(g % naddr) * stride];
        *c = c.wrapping_add(v.wrapping_mul(iters));
    }
    Ok(())
}
