/*
 * gpusim device library: float atomics of cl_ext_float_atomics
 * (atomic_fetch_{add,sub,min,max}[_explicit] and clang's
 * __opencl_atomic_fetch_* on atomic_float). gfx1030 has no global float
 * atomic add, so each is what clang-19 emits for the global form: a
 * compare-and-swap loop around the float operation on the word's bits
 * (the old value is the last one the compare-and-swap saw). The same
 * loop serves __local and generic pointers (clang uses ds_add_f32 in
 * LDS: same results, fewer instructions). `order` is the C11 memory
 * order: release orders fence before the loop, acquire orders after
 * (the constant folds after inlining); the scope changes nothing on one
 * device.
 */

#define GS_FATOMIC(NAME, OP, SP, AS)                                               \
    float __gpusim_atomic_fetch_##NAME##_##SP##_f32(volatile AS uint *p, float v, int order) { \
        if (order >= 3)                                                            \
            mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);                  \
        uint old = *p;                                                             \
        for (;;) {                                                                 \
            uint prev = atomic_cmpxchg(p, old, as_uint(OP(as_float(old), v)));     \
            if (prev == old)                                                       \
                break;                                                             \
            old = prev;                                                            \
        }                                                                          \
        if (order == 1 || order == 2 || order >= 4)                                \
            mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);                  \
        return as_float(old);                                                      \
    }

#define GS_FA_ADD(a, b) ((a) + (b))
#define GS_FA_SUB(a, b) ((a) - (b))
#define GS_FA_MIN(a, b) __builtin_fminf(a, b)
#define GS_FA_MAX(a, b) __builtin_fmaxf(a, b)

#define GS_FATOMIC_SPACES(NAME, OP) \
    GS_FATOMIC(NAME, OP, g, __global) \
    GS_FATOMIC(NAME, OP, l, __local) \
    GS_FATOMIC(NAME, OP, p, )

GS_FATOMIC_SPACES(add, GS_FA_ADD)
GS_FATOMIC_SPACES(sub, GS_FA_SUB)
GS_FATOMIC_SPACES(min, GS_FA_MIN)
GS_FATOMIC_SPACES(max, GS_FA_MAX)
