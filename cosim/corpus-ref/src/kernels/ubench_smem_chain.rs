//! `ubench_smem_chain`: calibration microbenchmark for the scalar-cache hit
//! latency: a uniform chase off = table[off / 4] through a table of byte
//! offsets, `steps` dependent `s_load_dword`s. The default table is one
//! 64-entry cycle i -> i + 17 (mod 64), so consecutive loads fall in
//! different 64-byte lines. Exact.

use super::*;
use crate::args::{buffer, buffer_mut, scalar_u32};
use crate::types::{ArgValue, ElemType::U32};

const ENTRIES: usize = 64;
const HOP: usize = 17;

/// Entry i holds the byte offset of entry (i + HOP) mod ENTRIES; HOP is odd,
/// so the entries form a single cycle.
const TABLE: [u64; ENTRIES] = {
    let mut t = [0u64; ENTRIES];
    let mut i = 0;
    while i < ENTRIES {
        t[i] = (((i + HOP) % ENTRIES) * 4) as u64;
        i += 1;
    }
    t
};

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "ubench_smem_chain",
    summary: "calibration: dependent scalar loads (s_load_dword chase through a uniform table)",
    launch: crate::Launch {
        dims: dims1(64, 64),
        args: &[
            input("table", U32, ENTRIES, Init::Values(&TABLE)),
            output("out", U32, 1, Compare::Exact),
            uint("start", 0),
            // Not a multiple of the cycle length 64, so the chase does not end
            // where it started.
            uint("steps", 1000),
        ],
    },
    reference,
};

/// Follows `steps` byte offsets through `table` from `start`.
pub(crate) fn chase(
    kernel: &'static str,
    table: &[u32],
    start: u32,
    steps: u32,
) -> Result<u32, CorpusError> {
    let mut off = start;
    for _ in 0..steps {
        let i = off as usize / 4;
        off = match table.get(i) {
            Some(&next) if off % 4 == 0 => next,
            _ => {
                return Err(bad(
                    kernel,
                    format!("byte offset {off} is not a dword of the table"),
                ))
            }
        };
    }
    Ok(off)
}

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    require_1d(KERNEL.name, dims)?;
    let groups = dims.groups()[0] as usize;
    let (start, steps) = (scalar_u32(args, 2)?, scalar_u32(args, 3)?);
    let table = buffer::<u32>(args, 0, 1)?;
    let end = chase(KERNEL.name, table, start, steps)?;
    buffer_mut::<u32>(args, 1, groups)?[..groups].fill(end);
    Ok(())
}
