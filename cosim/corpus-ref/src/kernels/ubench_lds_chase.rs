//! `ubench_lds_chase`: calibration microbenchmark for LDS latency and bank
//! conflicts: a 64 x 32-dword LDS table where entry (r, c) points to
//! (perm[r] mod 64, c); work-item t starts at dword (t * stride) mod 2048
//! and chases `steps` times. stride 1 = conflict-free, stride 32 = all
//! lanes in one bank. Exact.

use super::*;
use crate::args::{buffer, buffer_mut, scalar_u32};
use crate::types::{ArgValue, ElemType::U32};

const ROWS: usize = 64;
const COLS: usize = 32;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "ubench_lds_chase",
    summary: "calibration: LDS pointer chase, conflict-free (stride 1) or one bank (stride 32)",
    launch: crate::Launch {
        dims: dims1(64, 64),
        args: &[
            input("perm", U32, ROWS, Init::Permutation { seed: 103 }),
            output("out", U32, 64, Compare::Exact),
            uint("stride", 1),
            uint("steps", 1024),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    require_1d(KERNEL.name, dims)?;
    let n = items(dims);
    let wg = dims.local[0] as usize;
    let (stride, steps) = (scalar_u32(args, 2)?, scalar_u32(args, 3)?);
    let perm = buffer::<u32>(args, 0, ROWS)?;
    let lds: Vec<u32> = (0..ROWS * COLS)
        .map(|e| ((perm[e / COLS] as usize % ROWS * COLS + e % COLS) * 4) as u32)
        .collect();
    let out = buffer_mut::<u32>(args, 1, n)?;
    for (gid, o) in out.iter_mut().take(n).enumerate() {
        let t = (gid % wg) as u32;
        let start = t.wrapping_mul(stride) % (ROWS * COLS) as u32 * 4;
        *o = super::ubench_smem_chain::chase(KERNEL.name, &lds, start, steps)?;
    }
    Ok(())
}
