//! `transpose`: out (width x height) = in (height x width) transposed via a
//! padded LDS tile. Exact.

use super::*;
use crate::args::{buffer, buffer_mut, scalar_u32};
use crate::types::{ArgValue, ElemType::U32};

const W: usize = 64;
const H: usize = 48;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "transpose",
    summary: "matrix transpose through a padded 16x17 LDS tile (2-D work-groups)",
    launch: crate::Launch {
        dims: dims2([W as u32, H as u32], [16, 16]),
        args: &[
            input("in", U32, W * H, Init::Bits { seed: 13 }),
            output("out", U32, W * H, Compare::Exact),
            uint("width", W as u32),
            uint("height", H as u32),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    require_local(KERNEL.name, dims, [16, 16, 1])?;
    let (w, h) = (scalar_u32(args, 2)? as usize, scalar_u32(args, 3)? as usize);
    if dims.grid != [w as u32, h as u32, 1] {
        return Err(bad(
            KERNEL.name,
            format!("needs grid [width, height, 1] = [{w}, {h}, 1]"),
        ));
    }
    let input = buffer::<u32>(args, 0, w * h)?.to_vec();
    let out = buffer_mut::<u32>(args, 1, w * h)?;
    for y in 0..h {
        for x in 0..w {
            out[x * h + y] = input[y * w + x];
        }
    }
    Ok(())
}
