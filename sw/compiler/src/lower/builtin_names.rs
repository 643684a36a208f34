//! The OpenCL C names of the front end's resolved built-ins, for the
//! lowering's diagnostics: a user who calls `__builtin_amdgcn_exp2f` reads
//! that name back, never the enum variant (`HwExp2`) it resolved to.

use crate::front::builtins::{AtomicOp as FAtomic, Builtin as FB};

/// The name a user writes for `bi` (the usual spelling where several
/// spellings resolve to one built-in: `atomic_add` also stands for
/// `atomic_fetch_add`, `atom_add` and `__opencl_atomic_fetch_add`).
pub(super) fn spelling(bi: FB) -> String {
    let xyz = |d: u8| ["x", "y", "z"].get(usize::from(d)).copied().unwrap_or("?");
    let atomic = |op: FAtomic| match op {
        FAtomic::Add => "add",
        FAtomic::Sub => "sub",
        FAtomic::Xchg => "xchg",
        FAtomic::Min => "min",
        FAtomic::Max => "max",
        FAtomic::And => "and",
        FAtomic::Or => "or",
        FAtomic::Xor => "xor",
    };
    let s = match bi {
        FB::GetGlobalId => "get_global_id",
        FB::GetLocalId => "get_local_id",
        FB::GetGroupId => "get_group_id",
        FB::GetGlobalSize => "get_global_size",
        FB::GetLocalSize => "get_local_size",
        FB::GetNumGroups => "get_num_groups",
        FB::GetGlobalOffset => "get_global_offset",
        FB::GetEnqueuedLocalSize => "get_enqueued_local_size",
        FB::GetWorkDim => "get_work_dim",
        FB::GetGlobalLinearId => "get_global_linear_id",
        FB::GetLocalLinearId => "get_local_linear_id",
        FB::WorkitemId(d) => return format!("__builtin_amdgcn_workitem_id_{}", xyz(d)),
        FB::WorkgroupId(d) => return format!("__builtin_amdgcn_workgroup_id_{}", xyz(d)),
        FB::WorkgroupSize(d) => return format!("__builtin_amdgcn_workgroup_size_{}", xyz(d)),
        FB::GridSize(d) => return format!("__builtin_amdgcn_grid_size_{}", xyz(d)),
        FB::DispatchPtr => "__builtin_amdgcn_dispatch_ptr",
        FB::Printf(_) => "printf",
        FB::WaveSize => "__builtin_amdgcn_wavefrontsize",
        FB::ImplicitArgPtr => "__builtin_amdgcn_implicitarg_ptr",
        FB::KernargSegmentPtr => "__builtin_amdgcn_kernarg_segment_ptr",
        FB::SBarrier => "__builtin_amdgcn_s_barrier",
        FB::WaveBarrier => "__builtin_amdgcn_wave_barrier",
        FB::Fence => "__builtin_amdgcn_fence",
        FB::DsBpermute => "__builtin_amdgcn_ds_bpermute",
        FB::DsPermute => "__builtin_amdgcn_ds_permute",
        FB::MbcntLo => "__builtin_amdgcn_mbcnt_lo",
        FB::MbcntHi => "__builtin_amdgcn_mbcnt_hi",
        FB::ReadFirstLane => "__builtin_amdgcn_readfirstlane",
        FB::ReadLane => "__builtin_amdgcn_readlane",
        FB::HwRsq => "__builtin_amdgcn_rsqf",
        FB::HwRcp => "__builtin_amdgcn_rcpf",
        FB::HwSqrt => "__builtin_amdgcn_sqrtf",
        FB::HwExp2 => "__builtin_amdgcn_exp2f",
        FB::HwLog2 => "__builtin_amdgcn_logf",
        FB::Fmed3 => "__builtin_amdgcn_fmed3f",
        FB::Ubfe => "__builtin_amdgcn_ubfe",
        FB::Sbfe => "__builtin_amdgcn_sbfe",
        FB::Alignbit => "__builtin_amdgcn_alignbit",
        FB::SSleep => "__builtin_amdgcn_s_sleep",
        FB::SMemtime => "__builtin_amdgcn_s_memtime",
        FB::HwSin => "__builtin_amdgcn_sinf",
        FB::HwCos => "__builtin_amdgcn_cosf",
        FB::HwFract => "__builtin_amdgcn_fractf",
        FB::HwLdexp => "__builtin_amdgcn_ldexpf",
        FB::HwFrexpMant => "__builtin_amdgcn_frexp_mantf",
        FB::HwFrexpExp => "__builtin_amdgcn_frexp_expf",
        FB::Barrier => "barrier",
        FB::MemFence => "mem_fence",
        FB::WorkItemFence => "atomic_work_item_fence",
        FB::Sqrt => "sqrt",
        FB::Rsqrt => "rsqrt",
        FB::Fabs => "fabs",
        FB::Floor => "floor",
        FB::Ceil => "ceil",
        FB::Trunc => "trunc",
        FB::Rint => "rint",
        FB::Recip => "native_recip",
        FB::Fmin => "fmin",
        FB::Fmax => "fmax",
        FB::Copysign => "copysign",
        FB::Fma => "fma",
        FB::Mad => "mad",
        FB::Mix => "mix",
        FB::Dot => "dot",
        FB::Cross => "cross",
        FB::Length => "length",
        FB::Distance => "distance",
        FB::Normalize => "normalize",
        FB::Vload(n) => return format!("vload{n}"),
        FB::Vstore(n) => return format!("vstore{n}"),
        FB::Clz => "clz",
        FB::Ctz => "ctz",
        FB::Popcount => "popcount",
        FB::Bitreverse => "__builtin_bitreverse32",
        FB::MulHi => "mul_hi",
        FB::Rotate => "rotate",
        FB::RotateRight => "__builtin_rotateright32",
        FB::Abs => "abs",
        FB::AbsDiff => "abs_diff",
        FB::AddSat => "add_sat",
        FB::SubSat => "sub_sat",
        FB::Hadd => "hadd",
        FB::Mad24 => "mad24",
        FB::Mul24 => "mul24",
        FB::Min => "min",
        FB::Max => "max",
        FB::Clamp => "clamp",
        FB::Select => "select",
        FB::AtomicRmwFetch(op) => return format!("__atomic_{}_fetch", atomic(op)),
        FB::AtomicRmw(op) => return format!("atomic_{}", atomic(op)),
        FB::AtomicCmpxchg => "atomic_cmpxchg",
        FB::AtomicCompareExchange => "atomic_compare_exchange_strong",
        FB::AtomicLoad => "atomic_load",
        FB::AtomicStore => "atomic_store",
        FB::Expect => "__builtin_expect",
        FB::Assume => "__builtin_assume",
        FB::HalfDivide => "native_divide",
        FB::Any => "any",
        FB::All => "all",
        // Device-library functions carry their own names (the caller
        // reads them from the translation unit).
        FB::Lib(_) | FB::LibRel(_) => "this built-in function",
    };
    s.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_what_users_write() {
        assert_eq!(
            spelling(FB::WorkgroupSize(0)),
            "__builtin_amdgcn_workgroup_size_x"
        );
        assert_eq!(spelling(FB::HwExp2), "__builtin_amdgcn_exp2f");
        assert_eq!(spelling(FB::AtomicRmw(FAtomic::Add)), "atomic_add");
        assert_eq!(spelling(FB::Vload(4)), "vload4");
    }
}
