//! `ubench_mem_chase`: calibration microbenchmark for global-memory
//! load-to-use latency: the work-group links `lines` 128-byte lines of
//! `chain` into one cycle in the order of the permutation `order`, then one
//! lane chases `steps` links. The footprint (lines x 128 bytes) selects the
//! cache level (workloads/ubench). Exact; one work-group only.

use super::*;
use crate::args::{buffer, buffer_mut, scalar_u32};
use crate::types::{ArgValue, ElemType::U32};

/// Dwords per 128-byte line.
const LINE: usize = 32;
const LINES: usize = 2048;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "ubench_mem_chase",
    summary: "calibration: single-lane global pointer chase over a random cycle of 128-byte lines",
    launch: crate::Launch {
        dims: dims1(256, 256),
        args: &[
            inout("chain", U32, LINES * LINE, Init::Zero, Compare::Exact),
            input("order", U32, LINES, Init::Permutation { seed: 104 }),
            output("out", U32, 1, Compare::Exact),
            uint("lines", LINES as u32),
            uint("steps", 2048),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    require_1d(KERNEL.name, dims)?;
    if dims.groups()[0] != 1 {
        return Err(bad(KERNEL.name, "needs exactly one work-group"));
    }
    let (lines, steps) = (scalar_u32(args, 3)? as usize, scalar_u32(args, 4)?);
    if lines == 0 {
        return Err(bad(KERNEL.name, "lines is 0"));
    }
    let order = buffer::<u32>(args, 1, lines)?[..lines].to_vec();
    // Two lanes writing different links into one line would race.
    let mut seen = vec![false; lines];
    for &o in &order {
        match seen.get_mut(o as usize) {
            Some(s) if !*s => *s = true,
            _ => {
                return Err(bad(
                    KERNEL.name,
                    format!("order is not a permutation of 0..{lines}"),
                ))
            }
        }
    }
    let chain = buffer_mut::<u32>(args, 0, lines * LINE)?;
    for k in 0..lines {
        let next = order[(k + 1) % lines] as usize;
        chain[order[k] as usize * LINE] = (next * LINE * 4) as u32;
    }
    let start = (order[0] as usize * LINE * 4) as u32;
    let end = super::ubench_smem_chain::chase(KERNEL.name, &chain[..lines * LINE], start, steps)?;
    buffer_mut::<u32>(args, 2, 1)?[0] = end;
    Ok(())
}
