/*
 * gpusim device library: sub-group functions (cl_khr_subgroups, OpenCL
 * 2.1). A sub-group is a wave: work-items are packed into waves in local
 * linear id order (32 per wave, 64 with -mwavefrontsize64), so the last
 * wave of a work-group may be partial. The wave size is a constant the back
 * end supplies (__builtin_amdgcn_wavefrontsize), so the one preprocessed
 * library serves wave32 and wave64.
 *
 * Cross-lane data moves with ds_bpermute, which on gfx1030 stays inside a
 * 32-lane half of a wave64 (and reads inactive lanes as 0), and with
 * v_readlane for a uniform lane. Scans run Hillis-Steele steps 1..16 inside
 * each half, then the upper half of a wave64 adds the lower half's total
 * (lane 31); they only ever read lanes below the reader, which are active
 * in a partial wave. Reductions read the scan of the sub-group's last
 * work-item. Suffixes: _i32 _u32 _i64 _u64 _f32 _f64.
 */

/* 32-bit products: a work-group has at most 1024 work-items. */
uint __gpusim_sg_local_count(void) {
    return (uint)get_local_size(0) * (uint)get_local_size(1) * (uint)get_local_size(2);
}

/* The local linear id (the lowering computes it in 32 bits when narrowed). */
uint __gpusim_sg_linear_id(void) { return (uint)get_local_linear_id(); }

uint __gpusim_get_sub_group_local_id_u32(void) {
    return __gpusim_sg_linear_id() & (__builtin_amdgcn_wavefrontsize() - 1u);
}

/* log2 of the wave size: divisions by it become shifts (the wave size is
 * a constant only the back end knows, so the IR cannot fold them). */
uint __gpusim_sg_wave_shift(void) { return __builtin_amdgcn_wavefrontsize() == 64u ? 6u : 5u; }

uint __gpusim_get_sub_group_id_u32(void) {
    return __gpusim_sg_linear_id() >> __gpusim_sg_wave_shift();
}

uint __gpusim_get_num_sub_groups_u32(void) {
    uint w = __builtin_amdgcn_wavefrontsize();
    return (__gpusim_sg_local_count() + w - 1u) >> __gpusim_sg_wave_shift();
}

uint __gpusim_get_enqueued_num_sub_groups_u32(void) {
    uint w = __builtin_amdgcn_wavefrontsize();
    uint n = (uint)(get_enqueued_local_size(0) * get_enqueued_local_size(1) *
                    get_enqueued_local_size(2));
    return (n + w - 1u) >> __gpusim_sg_wave_shift();
}

/* "The maximum size of a sub-group within the dispatch": a work-group
 * smaller than a wave makes smaller sub-groups (ROCm's ockl agrees). */
uint __gpusim_get_max_sub_group_size_u32(void) {
    uint w = __builtin_amdgcn_wavefrontsize();
    uint n = (uint)(get_enqueued_local_size(0) * get_enqueued_local_size(1) *
                    get_enqueued_local_size(2));
    return n < w ? n : w;
}

uint __gpusim_get_sub_group_size_u32(void) {
    uint w = __builtin_amdgcn_wavefrontsize();
    uint left = __gpusim_sg_local_count() - __gpusim_get_sub_group_id_u32() * w;
    return left < w ? left : w;
}

/* 32-bit lane moves: from lane `src` of the same 32-lane half, and from a
 * uniform lane anywhere in the wave. */
uint __gpusim_sg_from_half_u32(uint x, uint src) {
    return (uint)__builtin_amdgcn_ds_bpermute((int)(src << 2), (int)x);
}
uint __gpusim_sg_from_lane_u32(uint x, uint lane) {
    return (uint)__builtin_amdgcn_readlane((int)x, (int)lane);
}

#define GS_SG_MOVES(T, S)                                                           \
    T __gpusim_sg_from_half_##S(T x, uint src) {                                    \
        ulong u = (ulong)x;                                                         \
        uint lo = __gpusim_sg_from_half_u32((uint)u, src);                          \
        uint hi = __gpusim_sg_from_half_u32((uint)(u >> 32), src);                  \
        return (T)(((ulong)hi << 32) | lo);                                         \
    }                                                                               \
    T __gpusim_sg_from_lane_##S(T x, uint lane) {                                   \
        ulong u = (ulong)x;                                                         \
        uint lo = __gpusim_sg_from_lane_u32((uint)u, lane);                         \
        uint hi = __gpusim_sg_from_lane_u32((uint)(u >> 32), lane);                 \
        return (T)(((ulong)hi << 32) | lo);                                         \
    }
GS_SG_MOVES(long, i64)
GS_SG_MOVES(ulong, u64)

int __gpusim_sg_from_half_i32(int x, uint src) { return (int)__gpusim_sg_from_half_u32((uint)x, src); }
int __gpusim_sg_from_lane_i32(int x, uint lane) { return (int)__gpusim_sg_from_lane_u32((uint)x, lane); }
float __gpusim_sg_from_half_f32(float x, uint src) {
    return as_float(__gpusim_sg_from_half_u32(as_uint(x), src));
}
float __gpusim_sg_from_lane_f32(float x, uint lane) {
    return as_float(__gpusim_sg_from_lane_u32(as_uint(x), lane));
}

double __gpusim_sg_from_half_f64(double x, uint src) {
    return as_double(__gpusim_sg_from_half_u64(as_ulong(x), src));
}
double __gpusim_sg_from_lane_f64(double x, uint lane) {
    return as_double(__gpusim_sg_from_lane_u64(as_ulong(x), lane));
}

/* The operations and their identities. */
#define GS_SG_ADD(a, b) ((a) + (b))
#define GS_SG_MIN(a, b) ((a) < (b) ? (a) : (b))
#define GS_SG_MAX(a, b) ((a) > (b) ? (a) : (b))
#define GS_SG_FMIN(a, b) __builtin_fminf(a, b)
#define GS_SG_FMAX(a, b) __builtin_fmaxf(a, b)
#define GS_SG_DMIN(a, b) fmin(a, b)
#define GS_SG_DMAX(a, b) fmax(a, b)
#define GS_SG_DINF as_double(0x7ff0000000000000ul)

/* broadcast, inclusive and exclusive scans and the reduction of one
 * operation on one type. */
#define GS_SG_OP(T, S, NAME, OP, ID)                                                \
    T __gpusim_sub_group_scan_inclusive_##NAME##_##S(T x) {                         \
        uint lane = __gpusim_get_sub_group_local_id_u32();                          \
        uint h = lane & 31u;                                                        \
        /* Selects, not branches: every step is a few VALU instructions. */     \
        for (uint d = 1u; d < 32u; d <<= 1) {                                       \
            T y = __gpusim_sg_from_half_##S(x, lane - d);                           \
            x = h >= d ? OP(y, x) : x;                                              \
        }                                                                           \
        if (__builtin_amdgcn_wavefrontsize() == 64u) {                              \
            T low = __gpusim_sg_from_lane_##S(x, 31u);                              \
            x = lane >= 32u ? OP(low, x) : x;                                       \
        }                                                                           \
        return x;                                                                   \
    }                                                                               \
    T __gpusim_sub_group_scan_exclusive_##NAME##_##S(T x) {                         \
        T inc = __gpusim_sub_group_scan_inclusive_##NAME##_##S(x);                  \
        uint lane = __gpusim_get_sub_group_local_id_u32();                          \
        T prev = __gpusim_sg_from_half_##S(inc, lane - 1u);                         \
        T low = __gpusim_sg_from_lane_##S(inc, 31u);                                \
        return lane == 0u ? (ID) : ((lane & 31u) == 0u ? low : prev);               \
    }                                                                               \
    T __gpusim_sub_group_reduce_##NAME##_##S(T x) {                                 \
        T inc = __gpusim_sub_group_scan_inclusive_##NAME##_##S(x);                  \
        return __gpusim_sg_from_lane_##S(inc, __gpusim_get_sub_group_size_u32() - 1u); \
    }

#define GS_SG_TYPE(T, S, MIN_ID, MAX_ID, MINOP, MAXOP)                              \
    T __gpusim_sub_group_broadcast_##S(T x, uint id) { return __gpusim_sg_from_lane_##S(x, id); } \
    GS_SG_OP(T, S, add, GS_SG_ADD, (T)0)                                            \
    GS_SG_OP(T, S, min, MINOP, MIN_ID)                                              \
    GS_SG_OP(T, S, max, MAXOP, MAX_ID)

GS_SG_TYPE(int, i32, 0x7fffffff, (-0x7fffffff - 1), GS_SG_MIN, GS_SG_MAX)
GS_SG_TYPE(uint, u32, 0xffffffffu, 0u, GS_SG_MIN, GS_SG_MAX)
GS_SG_TYPE(long, i64, 0x7fffffffffffffffL, (-0x7fffffffffffffffL - 1L), GS_SG_MIN, GS_SG_MAX)
GS_SG_TYPE(ulong, u64, 0xffffffffffffffffUL, 0UL, GS_SG_MIN, GS_SG_MAX)
GS_SG_TYPE(float, f32, __builtin_inff(), -__builtin_inff(), GS_SG_FMIN, GS_SG_FMAX)
GS_SG_TYPE(double, f64, GS_SG_DINF, -GS_SG_DINF, GS_SG_DMIN, GS_SG_DMAX)

/* sub_group_all / sub_group_any: a reduction of the predicate. */
int __gpusim_sub_group_all_i32(int p) { return __gpusim_sub_group_reduce_min_u32(p != 0 ? 1u : 0u) != 0u; }
int __gpusim_sub_group_any_i32(int p) { return __gpusim_sub_group_reduce_max_u32(p != 0 ? 1u : 0u) != 0u; }

/* sub_group_barrier: a wave runs in lockstep; only memory needs ordering. */
void __gpusim_sub_group_barrier_u32(uint flags) { __builtin_amdgcn_wave_barrier(); }
