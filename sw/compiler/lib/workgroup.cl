/*
 * gpusim device library: work-group functions (OpenCL 2.0 §6.13.15),
 * built on the sub-group functions of subgroup.cl (a sub-group is a wave).
 *
 * A library function cannot declare __local memory, so each function takes
 * a scratch area as its last parameter: the lowering reserves one per
 * kernel (WG_SCRATCH_BYTES = 256 bytes, one 8-byte slot per wave of the
 * largest work-group, 1024 work-items in wave32) and passes its address.
 *
 * Each wave reduces (or scans) its own values with the sub-group function,
 * its last work-item writes the wave's total to the wave's slot, and after
 * a barrier every work-item folds the slots it needs in wave order. A
 * barrier before the write keeps a slow wave of the previous work-group
 * function still reading the slots from seeing them overwritten. A
 * work-group of one wave needs no scratch and no barrier (the count of
 * waves is the same for the whole group, so all its work-items take the
 * same path). Suffixes: _i32 _u32 _i64 _u64 _f32 _f64.
 */

#define GS_WG_SYNC() barrier(CLK_LOCAL_MEM_FENCE)

/* __gpusim_wg_prefix_*: the fold of the totals of the waves before this
 * one, for the scans (only called when the group has several waves). */

/* The lanes' sub-group exclusive scan from their inclusive scan `inc`
 * (as subgroup.cl derives it), so a work-group exclusive scan scans once. */
#define GS_WG_OP(T, S, NAME, OP, ID)                                                \
    T __gpusim_wg_reduce_scan_##NAME##_##S(T x, __local ulong *scratch) {          \
        __local T *s = (__local T *)scratch;                                        \
        T r = __gpusim_sub_group_reduce_##NAME##_##S(x);                            \
        uint n = __gpusim_get_num_sub_groups_u32();                                 \
        if (n == 1u)                                                                \
            return r;                                                               \
        GS_WG_SYNC();                                                               \
        if (__gpusim_get_sub_group_local_id_u32() == 0u)                            \
            s[__gpusim_get_sub_group_id_u32()] = r;                                 \
        GS_WG_SYNC();                                                               \
        T acc = s[0];                                                               \
        for (uint i = 1u; i < n; ++i)                                               \
            acc = OP(acc, s[i]);                                                    \
        return acc;                                                                 \
    }                                                                               \
    T __gpusim_wg_prefix_##NAME##_##S(T inc, __local ulong *scratch) {              \
        __local T *s = (__local T *)scratch;                                        \
        uint sg = __gpusim_get_sub_group_id_u32();                                  \
        GS_WG_SYNC();                                                               \
        if (__gpusim_get_sub_group_local_id_u32() == __gpusim_get_sub_group_size_u32() - 1u) \
            s[sg] = inc;                                                            \
        GS_WG_SYNC();                                                               \
        T pre = s[0];                                                               \
        for (uint i = 1u; i < sg; ++i)                                              \
            pre = OP(pre, s[i]);                                                    \
        return pre;                                                                 \
    }                                                                               \
    T __gpusim_work_group_scan_inclusive_##NAME##_##S(T x, __local ulong *scratch) { \
        T inc = __gpusim_sub_group_scan_inclusive_##NAME##_##S(x);                  \
        if (__gpusim_get_num_sub_groups_u32() == 1u)                                \
            return inc;                                                             \
        T pre = __gpusim_wg_prefix_##NAME##_##S(inc, scratch);                      \
        return __gpusim_get_sub_group_id_u32() == 0u ? inc : OP(pre, inc);          \
    }                                                                               \
    T __gpusim_work_group_scan_exclusive_##NAME##_##S(T x, __local ulong *scratch) { \
        T inc = __gpusim_sub_group_scan_inclusive_##NAME##_##S(x);                  \
        uint lane = __gpusim_get_sub_group_local_id_u32();                          \
        T prev = __gpusim_sg_from_half_##S(inc, lane - 1u);                         \
        T low = __gpusim_sg_from_lane_##S(inc, 31u);                                \
        T exc = lane == 0u ? (ID) : ((lane & 31u) == 0u ? low : prev);              \
        if (__gpusim_get_num_sub_groups_u32() == 1u)                                \
            return exc;                                                             \
        T pre = __gpusim_wg_prefix_##NAME##_##S(inc, scratch);                      \
        if (__gpusim_get_sub_group_id_u32() == 0u)                                  \
            return exc;                                                             \
        return lane == 0u ? pre : OP(pre, exc);                                     \
    }

/* work_group_broadcast(a, x[, y[, z]]): the work-item at local id (x, y, z)
 * (missing ones 0) writes the value, every work-item reads it. In a
 * one-wave group it is a v_readlane. */
/* Integer reductions: one LDS atomic per work-item on a word the first
 * work-item initialises (the order does not matter for them). */
#define GS_WG_REDUCE_1(T, S, NAME, ID)                                              \
    T __gpusim_work_group_reduce_##NAME##_##S(T x, __local ulong *scratch) {        \
        __local T *s = (__local T *)scratch;                                        \
        GS_WG_SYNC();                                                               \
        if (__gpusim_sg_linear_id() == 0u)                                          \
            s[0] = ID;                                                              \
        GS_WG_SYNC();                                                               \
        atom_##NAME(s, x);                                                          \
        GS_WG_SYNC();                                                               \
        return s[0];                                                                \
    }
/* Float reductions: the waves' sub-group reductions folded in wave order. */
#define GS_WG_REDUCE_0(T, S, NAME, ID)                                              \
    T __gpusim_work_group_reduce_##NAME##_##S(T x, __local ulong *scratch) {        \
        return __gpusim_wg_reduce_scan_##NAME##_##S(x, scratch);                    \
    }

#define GS_WG_TYPE(T, S, MIN_ID, MAX_ID, MINOP, MAXOP, ATOMIC)                      \
    T __gpusim_work_group_broadcast_##S(T a, uint x, uint y, uint z,                \
                                        __local ulong *scratch) {                   \
        __local T *s = (__local T *)scratch;                                        \
        uint target = (z * (uint)get_local_size(1) + y) * (uint)get_local_size(0) + x; \
        if (__gpusim_get_num_sub_groups_u32() == 1u)                                \
            return __gpusim_sg_from_lane_##S(a, target);                            \
        GS_WG_SYNC();                                                               \
        if (__gpusim_sg_linear_id() == target)                                      \
            s[0] = a;                                                               \
        GS_WG_SYNC();                                                               \
        return s[0];                                                                \
    }                                                                               \
    GS_WG_OP(T, S, add, GS_SG_ADD, (T)0)                                            \
    GS_WG_OP(T, S, min, MINOP, MIN_ID)                                              \
    GS_WG_OP(T, S, max, MAXOP, MAX_ID)                                              \
    GS_WG_REDUCE_##ATOMIC(T, S, add, (T)0)                                          \
    GS_WG_REDUCE_##ATOMIC(T, S, min, MIN_ID)                                        \
    GS_WG_REDUCE_##ATOMIC(T, S, max, MAX_ID)

GS_WG_TYPE(int, i32, 0x7fffffff, (-0x7fffffff - 1), GS_SG_MIN, GS_SG_MAX, 1)
GS_WG_TYPE(uint, u32, 0xffffffffu, 0u, GS_SG_MIN, GS_SG_MAX, 1)
GS_WG_TYPE(long, i64, 0x7fffffffffffffffL, (-0x7fffffffffffffffL - 1L), GS_SG_MIN, GS_SG_MAX, 1)
GS_WG_TYPE(ulong, u64, 0xffffffffffffffffUL, 0UL, GS_SG_MIN, GS_SG_MAX, 1)
GS_WG_TYPE(float, f32, __builtin_inff(), -__builtin_inff(), GS_SG_FMIN, GS_SG_FMAX, 0)
GS_WG_TYPE(double, f64, GS_SG_DINF, -GS_SG_DINF, GS_SG_DMIN, GS_SG_DMAX, 0)

/* work_group_all / work_group_any: a flag in the scratch that the first
 * work-item sets and any work-item whose predicate decides clears; three
 * barriers and no cross-lane scan. */
int __gpusim_wg_flag(int p, int want, __local ulong *scratch) {
    __local uint *s = (__local uint *)scratch;
    GS_WG_SYNC();
    if (__gpusim_sg_linear_id() == 0u)
        s[0] = 1u;
    GS_WG_SYNC();
    if ((p != 0) != (want != 0))
        s[0] = 0u;
    GS_WG_SYNC();
    return s[0] != 0u;
}
int __gpusim_work_group_all_i32(int p, __local ulong *scratch) {
    return __gpusim_wg_flag(p, 1, scratch);
}
int __gpusim_work_group_any_i32(int p, __local ulong *scratch) {
    return !__gpusim_wg_flag(p, 0, scratch);
}
