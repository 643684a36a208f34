//! Work-creation kernels (seed 001): parent kernels that create child work
//! through a GPU-owned channel with `sw/devlib/gpusim_work.h`.
//!
//! They are kept apart from the main corpus ([`crate::all`]): each code
//! object holds a parent and its children, the parent's first argument is the
//! work-queue descriptor (passed by the driver, not listed in the launch),
//! and they are built into `tests/kernels/work/prebuilt/<target>/` by
//! `bash tests/kernels/build.sh` (no disassembly oracle).

use std::path::PathBuf;

use crate::kernels::{wq_bfs, wq_partition_sort, wq_producer, wq_subdivide};
use crate::{kernels_dir, target_dir, CorpusKernel, Target};

/// One work-creation kernel.
#[derive(Clone, Copy, Debug)]
pub struct WorkKernel {
    /// The parent: its name (= file stem = ELF symbol), launch (arguments
    /// after the queue) and reference.
    pub kernel: CorpusKernel,
    /// The child kernels it dispatches, in the order of the device library's
    /// kernel indices (a kernel may name itself).
    pub children: &'static [&'static str],
    /// Ring entries `Q` the default launch needs.
    pub entries: u32,
    /// Block-heap bytes the default launch needs.
    pub heap_bytes: u32,
}

impl WorkKernel {
    /// The parent kernel's name.
    pub fn name(&self) -> &'static str {
        self.kernel.name
    }

    /// `tests/kernels/work/<name>.cl`.
    pub fn source_path(&self) -> PathBuf {
        work_dir().join(format!("{}.cl", self.name()))
    }

    /// The prebuilt code object for `target`.
    pub fn prebuilt_path(&self, target: Target) -> PathBuf {
        work_dir()
            .join("prebuilt")
            .join(target_dir(target))
            .join(format!("{}.hsaco", self.name()))
    }
}

/// `tests/kernels/work`.
pub fn work_dir() -> PathBuf {
    kernels_dir().join("work")
}

/// The work-creation kernels (seed 001), sorted by name: the parent kernel
/// of each `tests/kernels/work/<name>.cl`. Their launches list the
/// arguments after the work-queue descriptor, which the driver passes first.
static WORK: &[WorkKernel] = &[
    WorkKernel {
        kernel: wq_bfs::KERNEL,
        children: &["wq_bfs_level"],
        entries: 64,
        heap_bytes: 1 << 16,
    },
    WorkKernel {
        kernel: wq_partition_sort::KERNEL,
        children: &["wq_partition_sort_rank"],
        entries: 64,
        heap_bytes: 1 << 16,
    },
    WorkKernel {
        kernel: wq_producer::KERNEL,
        children: &["wq_producer_fill"],
        entries: 1024,
        heap_bytes: 1 << 20,
    },
    WorkKernel {
        kernel: wq_subdivide::KERNEL,
        children: &["wq_subdivide"],
        entries: 256,
        heap_bytes: 1 << 18,
    },
];

/// Every work-creation kernel, sorted by name.
pub fn all() -> &'static [WorkKernel] {
    WORK
}

/// The work-creation kernel called `name`.
pub fn find(name: &str) -> Option<&'static WorkKernel> {
    all().iter().find(|k| k.name() == name)
}

/// `wq_producer_fill`'s value for element `j` of child `child` (for tests
/// that run the producer with other sizes).
pub fn producer_fill(child: u32, j: u32) -> u32 {
    wq_producer::fill_hash(child, j)
}
