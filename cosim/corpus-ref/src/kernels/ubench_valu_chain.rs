//! `ubench_valu_chain`: calibration microbenchmark for dependent ALU
//! latency: per work-item `vsteps` of x = (x ^ a) + b (one `v_xad_u32`
//! each on gfx1030) and `fsteps` of f = fma(f, fa, fb), per work-group
//! `ssteps` of u = u * a + b on the scalar ALU starting from the group id.
//! Exact (integer wrap-around; a single rounding per fma).

use super::*;
use crate::args::{buffer, buffer_mut, scalar_f32, scalar_u32};
use crate::types::{ArgValue, ElemType::F32, ElemType::U32};

const N: usize = 64;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "ubench_valu_chain",
    summary: "calibration: dependent VALU integer/fma chains and a dependent SALU chain",
    launch: crate::Launch {
        dims: dims1(N as u32, 64),
        args: &[
            input("xseed", U32, N, Init::Bits { seed: 101 }),
            input(
                "fseed",
                F32,
                N,
                Init::Float {
                    seed: 102,
                    lo: 0.5,
                    hi: 1.0,
                },
            ),
            output("xout", U32, N, Compare::Exact),
            output("fout", F32, N, Compare::Exact),
            output("sout", U32, 1, Compare::Exact),
            uint("a", 0x9e37_79b9),
            uint("b", 0x7f4a_7c15),
            // f converges slowly towards fb / (1 - fa) = 1: after 1024
            // steps it is still far from it, so the step count matters.
            float("fa", 0.999),
            float("fb", 0.001),
            uint("vsteps", 1024),
            uint("fsteps", 1024),
            uint("ssteps", 1024),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    require_1d(KERNEL.name, dims)?;
    let n = items(dims);
    let groups = dims.groups()[0] as usize;
    let (a, b) = (scalar_u32(args, 5)?, scalar_u32(args, 6)?);
    let (fa, fb) = (scalar_f32(args, 7)?, scalar_f32(args, 8)?);
    let (vsteps, fsteps, ssteps) = (
        scalar_u32(args, 9)?,
        scalar_u32(args, 10)?,
        scalar_u32(args, 11)?,
    );
    let xseed = buffer::<u32>(args, 0, n)?.to_vec();
    let fseed = buffer::<f32>(args, 1, n)?.to_vec();
    let xout = buffer_mut::<u32>(args, 2, n)?;
    for (o, &x0) in xout.iter_mut().zip(&xseed[..n]) {
        *o = (0..vsteps).fold(x0, |x, _| (x ^ a).wrapping_add(b));
    }
    let fout = buffer_mut::<f32>(args, 3, n)?;
    for (o, &f0) in fout.iter_mut().zip(&fseed[..n]) {
        *o = (0..fsteps).fold(f0, |f, _| f.mul_add(fa, fb));
    }
    let sout = buffer_mut::<u32>(args, 4, groups)?;
    for (g, o) in sout.iter_mut().take(groups).enumerate() {
        *o = (0..ssteps).fold(g as u32, |u, _| u.wrapping_mul(a).wrapping_add(b));
    }
    Ok(())
}
