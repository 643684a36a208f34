//! One module per corpus kernel: its default launch and CPU reference.
//! The argument lists follow the kernel signatures in `tests/kernels/*.cl`
//! exactly (checked against the code-object metadata by the tests).
//! The work-creation parents (`wq_*`) are registered in [`crate::work`].

use crate::types::{ArgSpec, BufferSpec, Compare, Dims, ElemType, Init, ScalarValue};
use crate::{CorpusError, CorpusKernel};

mod append;
mod atomics_misc;
mod bfs_relax;
mod bit_ops;
mod bitonic_step;
mod bytes_shorts;
mod divergent_loops;
mod fir;
mod float_ops;
mod gather_scatter;
mod hash_int;
mod histogram;
mod int64_ops;
mod int_ops;
mod lane_permute;
mod lds_atomics;
mod matmul_naive;
mod matmul_tiled;
mod nbody;
mod private_scratch;
mod reduce_max_dyn;
mod reduce_sum;
mod saxpy;
mod scan_wg;
mod select_ops;
mod signed_select;
mod stencil2d;
mod transpose;
mod ubench_atomics;
mod ubench_lds_chase;
mod ubench_mem_chase;
mod ubench_smem_chain;
mod ubench_stream;
mod ubench_valu_chain;
mod vec4_scale;
pub(crate) mod wq_bfs;
pub(crate) mod wq_partition_sort;
pub(crate) mod wq_producer;
pub(crate) mod wq_subdivide;

/// The registry, sorted by name.
pub(crate) static ALL: &[CorpusKernel] = &[
    append::KERNEL,
    atomics_misc::KERNEL,
    bfs_relax::KERNEL,
    bit_ops::KERNEL,
    bitonic_step::KERNEL,
    bytes_shorts::KERNEL,
    divergent_loops::KERNEL,
    fir::KERNEL,
    float_ops::KERNEL,
    gather_scatter::KERNEL,
    hash_int::KERNEL,
    histogram::KERNEL,
    int64_ops::KERNEL,
    int_ops::KERNEL,
    lane_permute::KERNEL,
    lds_atomics::KERNEL,
    matmul_naive::KERNEL,
    matmul_tiled::KERNEL,
    nbody::KERNEL,
    private_scratch::KERNEL,
    reduce_max_dyn::KERNEL,
    reduce_sum::KERNEL,
    saxpy::KERNEL,
    scan_wg::KERNEL,
    select_ops::KERNEL,
    signed_select::KERNEL,
    stencil2d::KERNEL,
    transpose::KERNEL,
    ubench_atomics::KERNEL,
    ubench_lds_chase::KERNEL,
    ubench_mem_chase::KERNEL,
    ubench_smem_chain::KERNEL,
    ubench_stream::KERNEL,
    ubench_valu_chain::KERNEL,
    vec4_scale::KERNEL,
];

/// A read-only input buffer (compared exactly afterwards: it must not change).
const fn input(name: &'static str, elem: ElemType, len: usize, init: Init) -> ArgSpec {
    ArgSpec::Buffer(BufferSpec {
        name,
        elem,
        len,
        init,
        compare: Compare::Exact,
    })
}

/// An output buffer, zero-initialised.
const fn output(name: &'static str, elem: ElemType, len: usize, compare: Compare) -> ArgSpec {
    ArgSpec::Buffer(BufferSpec {
        name,
        elem,
        len,
        init: Init::Zero,
        compare,
    })
}

/// A buffer with explicit initial contents and comparison.
const fn inout(
    name: &'static str,
    elem: ElemType,
    len: usize,
    init: Init,
    compare: Compare,
) -> ArgSpec {
    ArgSpec::Buffer(BufferSpec {
        name,
        elem,
        len,
        init,
        compare,
    })
}

/// A `uint` scalar.
const fn uint(name: &'static str, value: u32) -> ArgSpec {
    ArgSpec::Scalar {
        name,
        value: ScalarValue::U32(value),
    }
}

/// A `float` scalar.
const fn float(name: &'static str, value: f32) -> ArgSpec {
    ArgSpec::Scalar {
        name,
        value: ScalarValue::F32(value),
    }
}

/// A 1-D launch.
const fn dims1(grid: u32, local: u32) -> Dims {
    Dims {
        grid: [grid, 1, 1],
        local: [local, 1, 1],
    }
}

/// A 2-D launch.
const fn dims2(grid: [u32; 2], local: [u32; 2]) -> Dims {
    Dims {
        grid: [grid[0], grid[1], 1],
        local: [local[0], local[1], 1],
    }
}

/// Total work-items of a launch, as a `usize` index bound.
fn items(dims: &Dims) -> usize {
    dims.work_items() as usize
}

/// A `BadLaunch` error.
fn bad(kernel: &'static str, reason: impl Into<String>) -> CorpusError {
    CorpusError::BadLaunch {
        kernel,
        reason: reason.into(),
    }
}

/// Fails unless the work-group is exactly `local` (kernels with
/// `reqd_work_group_size` or fixed-size LDS tiles).
fn require_local(kernel: &'static str, dims: &Dims, local: [u32; 3]) -> Result<(), CorpusError> {
    if dims.local == local {
        Ok(())
    } else {
        Err(bad(
            kernel,
            format!("needs work-group size {local:?}, got {:?}", dims.local),
        ))
    }
}

/// Fails unless the launch is one-dimensional.
fn require_1d(kernel: &'static str, dims: &Dims) -> Result<(), CorpusError> {
    if dims.grid[1] == 1 && dims.grid[2] == 1 && dims.local[1] == 1 && dims.local[2] == 1 {
        Ok(())
    } else {
        Err(bad(
            kernel,
            format!("needs a 1-D launch, got grid {:?}", dims.grid),
        ))
    }
}
