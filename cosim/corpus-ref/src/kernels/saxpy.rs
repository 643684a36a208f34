//! `saxpy`: y = a*x + y. The kernel's expression contracts to a fused
//! multiply-add on gfx1030 and may stay unfused (v_mac_f32) on gfx803; the
//! reference is the fused result and y is compared within 2 ULP (all
//! inputs positive, so there is no cancellation; 2 rather than 1 covers a
//! binade boundary between the two roundings).

use super::*;
use crate::args::{buffer, buffer_mut, scalar_f32, scalar_u32};
use crate::types::{ArgValue, ElemType::F32};

const N: usize = 2048;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "saxpy",
    summary: "y = a*x + y with a float scalar argument (fma/mac contraction)",
    launch: crate::Launch {
        dims: dims1(N as u32, 256),
        args: &[
            uint("n", N as u32),
            float("a", 1.5),
            input(
                "x",
                F32,
                N,
                Init::Float {
                    seed: 5,
                    lo: 0.5,
                    hi: 2.0,
                },
            ),
            inout(
                "y",
                F32,
                N,
                Init::Float {
                    seed: 6,
                    lo: 0.5,
                    hi: 2.0,
                },
                Compare::Ulps(2),
            ),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    let n = (scalar_u32(args, 0)? as usize).min(items(dims));
    let a = scalar_f32(args, 1)?;
    let x = buffer::<f32>(args, 2, n)?.to_vec();
    let y = buffer_mut::<f32>(args, 3, n)?;
    for i in 0..n {
        y[i] = a.mul_add(x[i], y[i]);
    }
    Ok(())
}
