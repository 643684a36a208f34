//! The built-in functions the front end knows: OpenCL work-item,
//! synchronisation, math, integer and atomic functions, and the clang
//! built-ins AMD OpenCL code calls directly (`__builtin_amdgcn_*`,
//! generic `__builtin_*`). `lookup` maps a name to its signature class;
//! `sema` resolves the overload from the argument types and records the
//! call as [`Builtin`] with converted operands.

// The resolved built-in is a typed-AST node's payload: it lives in `tast`
// (which this module and the math table build on, never the reverse).
pub use super::tast::{AtomicOp, Builtin};

/// Argument type of a fixed signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum P {
    U32,
    I32,
    F32,
    U64,
    I64,
    Void,
    ConstBytePtr,
    Bool,
    U16,
}

/// How a built-in's operands are checked.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Sig {
    /// Fixed operand and result types.
    Fixed(Builtin, &'static [P], P),
    /// One float gentype for every operand and the result (`mix`: trailing scalars splat).
    FloatGen(Builtin, usize, bool),
    /// A per-component function of the device library named
    /// `__gpusim_{stem}_{element}` (`_f32`, `_i8` ... `_u64`): `n`
    /// operands of one gentype; operand i may be a scalar splat to a vector
    /// when bit i of `splat` is set.
    Generic {
        /// The library name's stem.
        stem: &'static str,
        /// Operand count.
        n: usize,
        /// Operands that may be scalars with vector others.
        splat: u8,
        /// The element types allowed and the result's.
        kind: GenKind,
    },
    /// `any(x)` (false) / `all(x)` (true): the sign bits of an integer gentype.
    AnyAll(bool),
    /// A sub-group function of the device library (`lib/subgroup.cl`):
    /// `__gpusim_{name}_{element}`.
    SubGroup(SubGroupKind),
    /// A work-group function of the device library (`lib/workgroup.cl`):
    /// `__gpusim_{name}_{element}`, with the kernel's work-group scratch
    /// (which the lowering supplies) as a last operand.
    WorkGroup(SubGroupKind),
    /// Geometric functions: operands of one float scalar/vector type; the
    /// result is the element type (`scalar`) or the operand type.
    Geometric(Builtin, usize, bool),
    /// `vloadN`.
    Vload(u8),
    /// `vstoreN`.
    Vstore(u8),
    /// `async_work_group_copy` (false) / `async_work_group_strided_copy`
    /// (true), `wait_group_events`, `prefetch`: `lib/async_copy.cl`.
    AsyncCopy(bool),
    /// `wait_group_events(n, events)`: a barrier.
    WaitGroupEvents,
    /// `prefetch(p, n)`: a hint.
    Prefetch,
    /// `vload_halfN` / `vloada_halfN` (`aligned`), N = 1 for the scalar form.
    VloadHalf {
        /// Components.
        n: u8,
        /// `vloada_`: a 3-vector takes 4 halves' room.
        aligned: bool,
    },
    /// `vstore_halfN[_rte|_rtz|_rtp|_rtn]` / `vstorea_halfN[...]`.
    VstoreHalf {
        /// Components.
        n: u8,
        /// `vstorea_`: a 3-vector takes 4 halves' room.
        aligned: bool,
        /// The rounding: `rte` (also the default), `rtz`, `rtp` or `rtn`.
        mode: &'static str,
    },
    /// Integer gentype.
    IntGen(Builtin, usize, bool),
    /// Integer gentype restricted to 32-bit (`mad24`, `mul24`).
    Int32Gen(Builtin, usize),
    /// Integer gentype in, unsigned result (`abs`, `abs_diff`).
    IntToUnsigned(Builtin, usize),
    /// Integer or float gentype (`min`, `max`, `clamp`).
    AnyGen(Builtin, usize),
    /// `select`.
    Select,
    /// `barrier(flags)`.
    Barrier,
    /// `work_group_barrier(flags[, scope])`.
    WorkGroupBarrier,
    /// `mem_fence(flags)` family.
    MemFence,
    /// `atomic_work_item_fence(flags, order, scope)`.
    WorkItemFence,
    /// `__builtin_amdgcn_fence(order, "scope")`.
    AmdgcnFence,
    /// OpenCL 1.x atomics (`atomic_*`, `atom_*`).
    Atomic1(Atomic1),
    /// OpenCL 2.0 atomics; `explicit` takes order (and scope) operands.
    Atomic2(Atomic2, bool),
    /// clang's `__opencl_atomic_*` (always explicit order and scope).
    ClangAtomic(Atomic2),
    /// The GNU `__atomic_*_n` / `__atomic_fetch_*` built-ins: a pointer to a
    /// plain integer, explicit memory orders, the device (or, in `__local`
    /// memory, work-group) scope.
    GnuAtomic(Atomic2),
    /// GNU `__atomic_{op}_fetch`: the new value.
    GnuOpFetch(AtomicOp),
    /// A float constant (`__builtin_inff()`, `__builtin_nanf("")`, `__builtin_huge_valf()`).
    FloatConst(f64, bool),
    /// A math built-in of [`super::library::table::MATH`] whose `float`
    /// forms are device-library functions.
    Library(&'static super::library::table::MathFn),
    /// `convert_T[_sat][_rt?]`.
    Convert,
    /// `as_T`.
    As,
}

/// The operands of a [`Sig::SubGroup`] function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SubGroupKind {
    /// `uint f(void)` (`get_sub_group_size`, ...).
    Query,
    /// `T f(T)` for `T` in `int uint long ulong float` (reductions, scans).
    Value,
    /// `T f(T, uint)` (`sub_group_broadcast`); `T f(T, size_t[, size_t[,
    /// size_t]])` (`work_group_broadcast`).
    Broadcast,
    /// `int f(int)` (`sub_group_all`, `sub_group_any`).
    Predicate,
    /// `void f(cl_mem_fence_flags[, memory_scope])` (`sub_group_barrier`).
    Barrier,
}

/// Which element types a [`Sig::Generic`] built-in takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GenKind {
    /// Float gentype; result of the operands' type.
    Float,
    /// Integer gentype; result of the operands' type.
    Int,
    /// Any arithmetic gentype (`bitselect`).
    Any,
    /// Float gentype; `int` (1/0) or a signed-int vector (-1/0) result.
    Rel,
    /// `upsample(hi, lo)`: `lo` unsigned, the result twice as wide.
    Upsample,
}

/// OpenCL 1.x atomic forms.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Atomic1 {
    Rmw(AtomicOp),
    Inc,
    Dec,
    Cmpxchg,
}

/// OpenCL 2.0 atomic forms.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Atomic2 {
    Rmw(AtomicOp),
    CompareExchange,
    Load,
    Store,
    Init,
    /// `atomic_flag_test_and_set`: an exchange of 1, true when the flag was set.
    FlagTestAndSet,
    /// `atomic_flag_clear`: a store of 0.
    FlagClear,
}

fn rmw(s: &str) -> Option<AtomicOp> {
    Some(match s {
        "add" => AtomicOp::Add,
        "sub" => AtomicOp::Sub,
        "xchg" | "exchange" => AtomicOp::Xchg,
        "min" => AtomicOp::Min,
        "max" => AtomicOp::Max,
        "and" => AtomicOp::And,
        "or" => AtomicOp::Or,
        "xor" => AtomicOp::Xor,
        _ => return None,
    })
}

/// `vload_half*`, `vloada_half*`, `vstore_half*`, `vstorea_half*` (OpenCL
/// 1.2 §6.12.7): the width (1 for none) and the store's rounding suffix.
fn half_vector_data(name: &str) -> Option<Sig> {
    let (rest, store, aligned) = if let Some(r) = name.strip_prefix("vload_half") {
        (r, false, false)
    } else if let Some(r) = name.strip_prefix("vloada_half") {
        (r, false, true)
    } else if let Some(r) = name.strip_prefix("vstore_half") {
        (r, true, false)
    } else {
        (name.strip_prefix("vstorea_half")?, true, true)
    };
    let (width, mode) = match rest.find('_') {
        Some(i) if store => (&rest[..i], &rest[i + 1..]),
        Some(_) => return None,
        None => (rest, "rte"),
    };
    let mode = ["rte", "rtz", "rtp", "rtn"]
        .into_iter()
        .find(|m| *m == mode)?;
    let n = match width {
        "" => 1,
        w => w
            .parse::<u8>()
            .ok()
            .filter(|n| matches!(n, 2 | 3 | 4 | 8 | 16))?,
    };
    if width.starts_with('0') {
        return None;
    }
    Some(if store {
        Sig::VstoreHalf { n, aligned, mode }
    } else {
        Sig::VloadHalf { n, aligned }
    })
}

/// The signature class of built-in `name`, or None.
pub(crate) fn lookup(name: &str) -> Option<Sig> {
    use Builtin as B;
    use Sig::*;
    use P::*;
    if let Some(rest) = name
        .strip_prefix("atomic_")
        .or_else(|| name.strip_prefix("atom_"))
    {
        // `atomic_exchange` is the 2.0 function below, not a 1.x one.
        if let Some(op) = rmw(rest).filter(|_| rest != "exchange") {
            return Some(Atomic1(self::Atomic1::Rmw(op)));
        }
        match rest {
            "inc" => return Some(Atomic1(self::Atomic1::Inc)),
            "dec" => return Some(Atomic1(self::Atomic1::Dec)),
            "cmpxchg" => return Some(Atomic1(self::Atomic1::Cmpxchg)),
            _ => {}
        }
        if name.starts_with("atomic_") {
            let (base, explicit) = match rest.strip_suffix("_explicit") {
                Some(b) => (b, true),
                None => (rest, false),
            };
            let kind = match base {
                "load" => Some(self::Atomic2::Load),
                "store" => Some(self::Atomic2::Store),
                "init" if !explicit => Some(self::Atomic2::Init),
                "exchange" => Some(self::Atomic2::Rmw(AtomicOp::Xchg)),
                "flag_test_and_set" => Some(self::Atomic2::FlagTestAndSet),
                "flag_clear" => Some(self::Atomic2::FlagClear),
                "compare_exchange_strong" | "compare_exchange_weak" => {
                    Some(self::Atomic2::CompareExchange)
                }
                _ => base
                    .strip_prefix("fetch_")
                    .and_then(rmw)
                    .filter(|o| *o != AtomicOp::Xchg)
                    .map(self::Atomic2::Rmw),
            };
            if let Some(k) = kind {
                return Some(Atomic2(k, explicit));
            }
        }
    }
    if let Some(rest) = name.strip_prefix("__atomic_") {
        if let Some(op) = rest
            .strip_suffix("_fetch")
            .and_then(rmw)
            .filter(|o| *o != AtomicOp::Xchg)
        {
            return Some(GnuOpFetch(op));
        }
        let kind = match rest {
            "load_n" => Some(self::Atomic2::Load),
            "store_n" => Some(self::Atomic2::Store),
            "exchange_n" => Some(self::Atomic2::Rmw(AtomicOp::Xchg)),
            "compare_exchange_n" => Some(self::Atomic2::CompareExchange),
            _ => rest
                .strip_prefix("fetch_")
                .and_then(rmw)
                .filter(|o| *o != AtomicOp::Xchg)
                .map(self::Atomic2::Rmw),
        };
        return kind.map(GnuAtomic);
    }
    if let Some(rest) = name.strip_prefix("__opencl_atomic_") {
        let kind = match rest {
            "load" => Some(self::Atomic2::Load),
            "store" => Some(self::Atomic2::Store),
            "init" => Some(self::Atomic2::Init),
            "exchange" => Some(self::Atomic2::Rmw(AtomicOp::Xchg)),
            "compare_exchange_strong" | "compare_exchange_weak" => {
                Some(self::Atomic2::CompareExchange)
            }
            _ => rest
                .strip_prefix("fetch_")
                .and_then(rmw)
                .filter(|o| *o != AtomicOp::Xchg)
                .map(self::Atomic2::Rmw),
        };
        return kind.map(ClangAtomic);
    }
    if let Some(sig) = half_vector_data(name) {
        return Some(sig);
    }
    for (prefix, store) in [("vload", false), ("vstore", true)] {
        if let Some(n) = name.strip_prefix(prefix).and_then(|n| n.parse::<u8>().ok()) {
            if matches!(n, 2 | 3 | 4 | 8 | 16) {
                return Some(if store { Sig::Vstore(n) } else { Sig::Vload(n) });
            }
        }
    }
    if let Some(m) = super::library::table::find(name) {
        return Some(match m.f32 {
            super::library::table::Impl::Native(b) => {
                let n = match m.shape {
                    super::library::table::Shape::F3 => 3,
                    super::library::table::Shape::F2 => 2,
                    _ => 1,
                };
                FloatGen(b, n, matches!(b, B::Fmin | B::Fmax))
            }
            super::library::table::Impl::Lib(_) => Library(m),
        });
    }
    if name.starts_with("convert_") {
        return Some(Convert);
    }
    if name.starts_with("as_") {
        return Some(As);
    }
    let dim = |s: &str| match s {
        "x" => Some(0u8),
        "y" => Some(1),
        "z" => Some(2),
        _ => None,
    };
    if let Some(rest) = name.strip_prefix("__builtin_amdgcn_") {
        for (prefix, make, ret) in [
            ("workitem_id_", B::WorkitemId as fn(u8) -> Builtin, U32),
            ("workgroup_id_", B::WorkgroupId, U32),
            ("workgroup_size_", B::WorkgroupSize, U16),
            ("grid_size_", B::GridSize, U32),
        ] {
            if let Some(d) = rest.strip_prefix(prefix).and_then(dim) {
                return Some(Fixed(make(d), &[], ret));
            }
        }
        return Some(match rest {
            "dispatch_ptr" => Fixed(B::DispatchPtr, &[], ConstBytePtr),
            "implicitarg_ptr" => Fixed(B::ImplicitArgPtr, &[], ConstBytePtr),
            "kernarg_segment_ptr" => Fixed(B::KernargSegmentPtr, &[], ConstBytePtr),
            "s_barrier" => Fixed(B::SBarrier, &[], Void),
            "wave_barrier" => Fixed(B::WaveBarrier, &[], Void),
            "wavefrontsize" => Fixed(B::WaveSize, &[], U32),
            "fence" => AmdgcnFence,
            "ds_bpermute" => Fixed(B::DsBpermute, &[I32, I32], I32),
            "ds_permute" => Fixed(B::DsPermute, &[I32, I32], I32),
            "mbcnt_lo" => Fixed(B::MbcntLo, &[U32, U32], U32),
            "mbcnt_hi" => Fixed(B::MbcntHi, &[U32, U32], U32),
            "readfirstlane" => Fixed(B::ReadFirstLane, &[I32], I32),
            "readlane" => Fixed(B::ReadLane, &[I32, I32], I32),
            "rsqf" => Fixed(B::HwRsq, &[F32], F32),
            "rcpf" => Fixed(B::HwRcp, &[F32], F32),
            "sqrtf" => Fixed(B::HwSqrt, &[F32], F32),
            "exp2f" => Fixed(B::HwExp2, &[F32], F32),
            "logf" => Fixed(B::HwLog2, &[F32], F32),
            "sinf" => Fixed(B::HwSin, &[F32], F32),
            "cosf" => Fixed(B::HwCos, &[F32], F32),
            "fractf" => Fixed(B::HwFract, &[F32], F32),
            "ldexpf" => Fixed(B::HwLdexp, &[F32, I32], F32),
            "frexp_mantf" => Fixed(B::HwFrexpMant, &[F32], F32),
            "frexp_expf" => Fixed(B::HwFrexpExp, &[F32], I32),
            "fmed3f" => Fixed(B::Fmed3, &[F32, F32, F32], F32),
            "ubfe" => Fixed(B::Ubfe, &[U32, U32, U32], U32),
            "sbfe" => Fixed(B::Sbfe, &[I32, U32, U32], I32),
            "alignbit" => Fixed(B::Alignbit, &[U32, U32, U32], U32),
            "s_sleep" => Fixed(B::SSleep, &[I32], Void),
            "s_memtime" => Fixed(B::SMemtime, &[], U64),
            _ => return None,
        });
    }
    Some(match name {
        "get_global_id" => Fixed(B::GetGlobalId, &[U32], U64),
        "get_local_id" => Fixed(B::GetLocalId, &[U32], U64),
        "get_group_id" => Fixed(B::GetGroupId, &[U32], U64),
        "get_global_size" => Fixed(B::GetGlobalSize, &[U32], U64),
        "get_local_size" => Fixed(B::GetLocalSize, &[U32], U64),
        "get_num_groups" => Fixed(B::GetNumGroups, &[U32], U64),
        "get_global_offset" => Fixed(B::GetGlobalOffset, &[U32], U64),
        "get_enqueued_local_size" => Fixed(B::GetEnqueuedLocalSize, &[U32], U64),
        "get_work_dim" => Fixed(B::GetWorkDim, &[], U32),
        "get_global_linear_id" => Fixed(B::GetGlobalLinearId, &[], U64),
        "get_local_linear_id" => Fixed(B::GetLocalLinearId, &[], U64),
        "barrier" => Barrier,
        "get_sub_group_size"
        | "get_max_sub_group_size"
        | "get_num_sub_groups"
        | "get_enqueued_num_sub_groups"
        | "get_sub_group_id"
        | "get_sub_group_local_id" => SubGroup(SubGroupKind::Query),
        "sub_group_broadcast" => SubGroup(SubGroupKind::Broadcast),
        "sub_group_all" | "sub_group_any" => SubGroup(SubGroupKind::Predicate),
        "sub_group_barrier" => SubGroup(SubGroupKind::Barrier),
        "sub_group_reduce_add"
        | "sub_group_reduce_min"
        | "sub_group_reduce_max"
        | "sub_group_scan_inclusive_add"
        | "sub_group_scan_inclusive_min"
        | "sub_group_scan_inclusive_max"
        | "sub_group_scan_exclusive_add"
        | "sub_group_scan_exclusive_min"
        | "sub_group_scan_exclusive_max" => SubGroup(SubGroupKind::Value),
        "work_group_broadcast" => WorkGroup(SubGroupKind::Broadcast),
        "work_group_all" | "work_group_any" => WorkGroup(SubGroupKind::Predicate),
        "work_group_reduce_add"
        | "work_group_reduce_min"
        | "work_group_reduce_max"
        | "work_group_scan_inclusive_add"
        | "work_group_scan_inclusive_min"
        | "work_group_scan_inclusive_max"
        | "work_group_scan_exclusive_add"
        | "work_group_scan_exclusive_min"
        | "work_group_scan_exclusive_max" => WorkGroup(SubGroupKind::Value),
        "async_work_group_copy" => AsyncCopy(false),
        "async_work_group_strided_copy" => AsyncCopy(true),
        "wait_group_events" => WaitGroupEvents,
        "prefetch" => Prefetch,
        "work_group_barrier" => WorkGroupBarrier,
        "mem_fence" | "read_mem_fence" | "write_mem_fence" => MemFence,
        "atomic_work_item_fence" => WorkItemFence,
        "mix" => FloatGen(B::Mix, 3, true),
        "dot" => Geometric(B::Dot, 2, true),
        "cross" => Geometric(B::Cross, 2, false),
        "length" | "fast_length" => Geometric(B::Length, 1, true),
        "distance" | "fast_distance" => Geometric(B::Distance, 2, true),
        "normalize" | "fast_normalize" => Geometric(B::Normalize, 1, false),
        "clz" => IntGen(B::Clz, 1, false),
        "ctz" => IntGen(B::Ctz, 1, false),
        "popcount" => IntGen(B::Popcount, 1, false),
        "mul_hi" => IntGen(B::MulHi, 2, false),
        "rotate" => IntGen(B::Rotate, 2, false),
        "add_sat" => IntGen(B::AddSat, 2, false),
        "sub_sat" => IntGen(B::SubSat, 2, false),
        "hadd" => IntGen(B::Hadd, 2, false),
        "mad24" => Int32Gen(B::Mad24, 3),
        "mul24" => Int32Gen(B::Mul24, 2),
        "abs" => IntToUnsigned(B::Abs, 1),
        "abs_diff" => IntToUnsigned(B::AbsDiff, 2),
        "min" => AnyGen(B::Min, 2),
        "max" => AnyGen(B::Max, 2),
        "clamp" => AnyGen(B::Clamp, 3),
        "select" => Select,
        "isequal" => Generic {
            stem: "isequal",
            n: 2,
            splat: 0,
            kind: GenKind::Rel,
        },
        "isnotequal" => Generic {
            stem: "isnotequal",
            n: 2,
            splat: 0,
            kind: GenKind::Rel,
        },
        "isgreater" => Generic {
            stem: "isgreater",
            n: 2,
            splat: 0,
            kind: GenKind::Rel,
        },
        "isgreaterequal" => Generic {
            stem: "isgreaterequal",
            n: 2,
            splat: 0,
            kind: GenKind::Rel,
        },
        "isless" => Generic {
            stem: "isless",
            n: 2,
            splat: 0,
            kind: GenKind::Rel,
        },
        "islessequal" => Generic {
            stem: "islessequal",
            n: 2,
            splat: 0,
            kind: GenKind::Rel,
        },
        "islessgreater" => Generic {
            stem: "islessgreater",
            n: 2,
            splat: 0,
            kind: GenKind::Rel,
        },
        "isordered" => Generic {
            stem: "isordered",
            n: 2,
            splat: 0,
            kind: GenKind::Rel,
        },
        "isunordered" => Generic {
            stem: "isunordered",
            n: 2,
            splat: 0,
            kind: GenKind::Rel,
        },
        "isnan" => Generic {
            stem: "isnan",
            n: 1,
            splat: 0,
            kind: GenKind::Rel,
        },
        "isinf" => Generic {
            stem: "isinf",
            n: 1,
            splat: 0,
            kind: GenKind::Rel,
        },
        "isfinite" => Generic {
            stem: "isfinite",
            n: 1,
            splat: 0,
            kind: GenKind::Rel,
        },
        "isnormal" => Generic {
            stem: "isnormal",
            n: 1,
            splat: 0,
            kind: GenKind::Rel,
        },
        "signbit" => Generic {
            stem: "signbit",
            n: 1,
            splat: 0,
            kind: GenKind::Rel,
        },
        "step" => Generic {
            stem: "step",
            n: 2,
            splat: 1,
            kind: GenKind::Float,
        },
        "smoothstep" => Generic {
            stem: "smoothstep",
            n: 3,
            splat: 3,
            kind: GenKind::Float,
        },
        "sign" => Generic {
            stem: "sign",
            n: 1,
            splat: 0,
            kind: GenKind::Float,
        },
        "degrees" => Generic {
            stem: "degrees",
            n: 1,
            splat: 0,
            kind: GenKind::Float,
        },
        "radians" => Generic {
            stem: "radians",
            n: 1,
            splat: 0,
            kind: GenKind::Float,
        },
        "bitselect" => Generic {
            stem: "bitselect",
            n: 3,
            splat: 0,
            kind: GenKind::Any,
        },
        "rhadd" => Generic {
            stem: "rhadd",
            n: 2,
            splat: 0,
            kind: GenKind::Int,
        },
        "mad_hi" => Generic {
            stem: "mad_hi",
            n: 3,
            splat: 0,
            kind: GenKind::Int,
        },
        "mad_sat" => Generic {
            stem: "mad_sat",
            n: 3,
            splat: 0,
            kind: GenKind::Int,
        },
        "upsample" => Generic {
            stem: "upsample",
            n: 2,
            splat: 0,
            kind: GenKind::Upsample,
        },
        "any" => AnyAll(false),
        "all" => AnyAll(true),
        "__builtin_clz" => Fixed(B::Clz, &[U32], I32),
        "__builtin_ctz" => Fixed(B::Ctz, &[U32], I32),
        "__builtin_popcount" => Fixed(B::Popcount, &[U32], I32),
        "__builtin_clzl" | "__builtin_clzll" => Fixed(B::Clz, &[U64], I32),
        "__builtin_ctzl" | "__builtin_ctzll" => Fixed(B::Ctz, &[U64], I32),
        "__builtin_popcountl" | "__builtin_popcountll" => Fixed(B::Popcount, &[U64], I32),
        "__builtin_bitreverse32" => Fixed(B::Bitreverse, &[U32], U32),
        "__builtin_bitreverse64" => Fixed(B::Bitreverse, &[U64], U64),
        "__builtin_rotateleft32" => Fixed(B::Rotate, &[U32, U32], U32),
        "__builtin_rotateright32" => Fixed(B::RotateRight, &[U32, U32], U32),
        "__builtin_rotateleft64" => Fixed(B::Rotate, &[U64, U64], U64),
        "__builtin_rotateright64" => Fixed(B::RotateRight, &[U64, U64], U64),
        "__builtin_fmaf" => Fixed(B::Fma, &[F32, F32, F32], F32),
        "__builtin_fabsf" => Fixed(B::Fabs, &[F32], F32),
        "__builtin_sqrtf" => Fixed(B::Sqrt, &[F32], F32),
        "__builtin_floorf" => Fixed(B::Floor, &[F32], F32),
        "__builtin_ceilf" => Fixed(B::Ceil, &[F32], F32),
        "__builtin_truncf" => Fixed(B::Trunc, &[F32], F32),
        "__builtin_roundf" => return lookup("round"),
        "__builtin_rintf" => Fixed(B::Rint, &[F32], F32),
        "__builtin_fminf" => Fixed(B::Fmin, &[F32, F32], F32),
        "__builtin_fmaxf" => Fixed(B::Fmax, &[F32, F32], F32),
        "__builtin_copysignf" => Fixed(B::Copysign, &[F32, F32], F32),
        "__builtin_exp2f" => return lookup("exp2"),
        "__builtin_log2f" => return lookup("log2"),
        "__builtin_expf" => return lookup("exp"),
        "__builtin_logf" => return lookup("log"),
        "__builtin_isnan" => return lookup("isnan"),
        "__builtin_isinf" => return lookup("isinf"),
        "__builtin_isfinite" => return lookup("isfinite"),
        "__builtin_expect" => Fixed(B::Expect, &[I64, I64], I64),
        "__builtin_assume" => Fixed(B::Assume, &[Bool], Void),
        "__builtin_inff" | "__builtin_huge_valf" => FloatConst(f64::INFINITY, false),
        "__builtin_nanf" => FloatConst(f64::NAN, true),
        _ => return None,
    })
}
