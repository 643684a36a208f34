//! `nbody`: all-pairs softened gravity (rsqrt), plus a potential using
//! sqrt and a division. The kernel uses approximate hardware rsq / rcp and
//! contracted sums, so the reference is computed in f64 and compared with
//! |actual - expected| <= 5e-4 + 1e-5 * |expected|.
//!
//! Budget: an f32 emulation of the kernel (rounding after every operation,
//! rsq 2 ULP off) stays within 7e-6 of the f64 result on the default
//! launch, where every output is below 8 in magnitude. Fusing the
//! accumulations (v_fmac on gfx1030) moves each of the 256 steps by at most
//! half an ULP of the running sum (< 5e-7 below 8), < 1.3e-4 in total even
//! if every step erred the same way.

use super::*;
use crate::args::{buffer, buffer_mut, scalar_f32, scalar_u32};
use crate::types::{ArgValue, ElemType::F32};

const N: usize = 256;

pub(crate) const KERNEL: CorpusKernel = CorpusKernel {
    name: "nbody",
    summary: "n-body-like float4 math: rsqrt, sqrt, division, long accumulation loop",
    launch: crate::Launch {
        dims: dims1(N as u32, 64),
        args: &[
            input(
                "pos",
                F32,
                4 * N,
                Init::Float {
                    seed: 20,
                    lo: -1.0,
                    hi: 1.0,
                },
            ),
            output(
                "out",
                F32,
                4 * N,
                Compare::AbsRel {
                    abs: 5e-4,
                    rel: 1e-5,
                },
            ),
            uint("n", N as u32),
            float("eps2", 0.5),
        ],
    },
    reference,
};

fn reference(dims: &Dims, args: &mut [ArgValue]) -> Result<(), CorpusError> {
    let n = scalar_u32(args, 2)? as usize;
    let eps2 = scalar_f32(args, 3)? as f64;
    let pos = buffer::<f32>(args, 0, 4 * n)?.to_vec();
    let out = buffer_mut::<f32>(args, 1, 4 * n)?;
    for i in 0..n.min(items(dims)) {
        let p = |j: usize, c: usize| pos[4 * j + c] as f64;
        let (mut ax, mut ay, mut az, mut pot) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
        for j in 0..n {
            let (dx, dy, dz) = (p(j, 0) - p(i, 0), p(j, 1) - p(i, 1), p(j, 2) - p(i, 2));
            let r2 = dx * dx + dy * dy + dz * dz + eps2;
            let inv = 1.0 / r2.sqrt();
            let s = p(j, 3) * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
            pot += p(j, 3) / r2.sqrt();
        }
        out[4 * i..4 * i + 4].copy_from_slice(&[ax as f32, ay as f32, az as f32, pot as f32]);
    }
    Ok(())
}
