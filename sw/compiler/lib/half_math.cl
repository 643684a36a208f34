/*
 * gpusim device library: the math, common, relational and geometric
 * built-ins on half (cl_khr_fp16), per component (geometric ones on
 * half..half4 as whole vectors), and the half sub-group and work-group
 * functions.
 *
 * Every half is a float (half denormals are float normals), so a
 * function is the float one on the converted operands, its result
 * rounded once to half (v_cvt_f16_f32, to nearest even). A float result
 * within e float ULPs rounds to within 0.5 + e * 2^-13 half ULPs: the
 * half bounds (1 to 4 ULP; 0 for the exact functions) hold with room.
 * Where one rounding of the float result is not enough the function
 * says why and does more:
 *   - sqrt must be correctly rounded: the float root (v_sqrt_f32, about
 *     1 float ULP) is rounded and then checked against the exact
 *     midpoints (12 bits, squares exact in float);
 *   - fract clamps at the largest half below 1, not the float's;
 *   - nextafter steps on the half's own bits;
 *   - sub-group and work-group add reductions and scans add in float and
 *     round each result once (min, max and broadcast are exact).
 * fabs, fmin, fmax, min, max, fma and mad are not here: the lowering
 * emits the f16 instructions (v_fma_f16 rounds once, as fma must).
 * Vector forms: the lowering applies the scalar function per component.
 * A pointer form (fract, modf, sincos, frexp, lgamma_r, remquo) returns
 * the float function's float2 (value, stored); the lowering rounds the
 * value (and a half stored value) to half.
 */

#define GH_F1(NAME) \
    half __gpusim_##NAME##_f16(half x) { return (half)__gpusim_##NAME##_f32((float)x); }
#define GH_F2(NAME) \
    half __gpusim_##NAME##_f16(half x, half y) { return (half)__gpusim_##NAME##_f32((float)x, (float)y); }
#define GH_FI(NAME) \
    half __gpusim_##NAME##_f16(half x, int n) { return (half)__gpusim_##NAME##_f32((float)x, n); }
#define GH_PTR1(NAME) \
    float2 __gpusim_##NAME##_f16(half x) { return __gpusim_##NAME##_f32((float)x); }

GH_F1(acos)
GH_F1(acosh)
GH_F1(acospi)
GH_F1(asin)
GH_F1(asinh)
GH_F1(asinpi)
GH_F1(atan)
GH_F1(atanh)
GH_F1(atanpi)
GH_F1(cbrt)
GH_F1(cos)
GH_F1(cosh)
GH_F1(cospi)
GH_F1(erfc)
GH_F1(erf)
GH_F1(exp)
GH_F1(exp2)
GH_F1(exp10)
GH_F1(expm1)
GH_F1(lgamma)
GH_F1(log)
GH_F1(log2)
GH_F1(log10)
GH_F1(log1p)
GH_F1(logb)
GH_F1(round)
GH_F1(sin)
GH_F1(sinh)
GH_F1(sinpi)
GH_F1(tan)
GH_F1(tanh)
GH_F1(tanpi)
GH_F1(tgamma)
/* fdim: x - y rounded to float, then to half, is the correctly rounded
 * difference (two roundings of a sum are innocuous for 24 >= 2 * 11 + 2). */
GH_F2(fdim)
GH_F2(atan2)
GH_F2(atan2pi)
GH_F2(fmod)
GH_F2(hypot)
GH_F2(maxmag)
GH_F2(minmag)
GH_F2(pow)
GH_F2(powr)
GH_F2(remainder)
/* ldexp: exact in float while the result is a float, and a float result
 * overflowing or underflowing is past half's range too. */
GH_FI(ldexp)
GH_FI(pown)
GH_FI(rootn)
int __gpusim_ilogb_f16(half x) { return __gpusim_ilogb_f32((float)x); }
GH_PTR1(modf)
GH_PTR1(sincos)
GH_PTR1(frexp)
GH_PTR1(lgamma_r)
float2 __gpusim_remquo_f16(half x, half y) { return __gpusim_remquo_f32((float)x, (float)y); }

/* fract: min(x - floor(x), the largest half below 1); a NaN stays NaN. */
float2 __gpusim_fract_f16(half x) {
    float2 r = __gpusim_fract_f32((float)x);
    /* A compare, not fmin: a NaN passes through. */
    r.x = r.x > as_float(0x3f7fe000u) ? as_float(0x3f7fe000u) : r.x;
    return r;
}

/* The instruction rows, which the lowering emits for float. */
half __gpusim_floor_f16(half x) { return (half)floor((float)x); }
half __gpusim_ceil_f16(half x) { return (half)ceil((float)x); }
half __gpusim_trunc_f16(half x) { return (half)trunc((float)x); }
half __gpusim_rint_f16(half x) { return (half)rint((float)x); }
half __gpusim_rsqrt_f16(half x) { return (half)rsqrt((float)x); }
half __gpusim_copysign_f16(half x, half y) {
    return as_half((ushort)((as_ushort(x) & 0x7fffu) | (as_ushort(y) & 0x8000u)));
}

/* sqrt, correctly rounded: h = half(v_sqrt_f32(x)) is the root or a
 * neighbour; the midpoints between h and its neighbours have 12
 * significant bits, so their squares are exact floats and comparing x
 * with them decides (x, a half, never equals such a square). */
half __gpusim_sqrt_f16(half x) {
    float xf = (float)x;
    half h = (half)__builtin_amdgcn_sqrtf(xf);
    ushort b = as_ushort(h);
    /* Zero, negative (NaN), infinity and NaN come out of v_sqrt right. */
    if (!(xf > 0.0f) || b >= 0x7c00u)
        return h;
    float hf = (float)h;
    float up = (float)as_half((ushort)(b + 1u));
    float dn = (float)as_half((ushort)(b - 1u));
    float mu = 0.5f * (hf + up);
    float md = 0.5f * (hf + dn);
    if (xf > mu * mu)
        return as_half((ushort)(b + 1u));
    if (b > 0u && xf < md * md)
        return as_half((ushort)(b - 1u));
    return h;
}

/* nextafter on the half's bits: the neighbour of x toward y. */
half __gpusim_nextafter_f16(half x, half y) {
    ushort a = as_ushort(x), b = as_ushort(y);
    if ((a & 0x7fffu) > 0x7c00u || (b & 0x7fffu) > 0x7c00u)
        return as_half((ushort)0x7e00u);
    float xf = (float)x, yf = (float)y;
    if (xf == yf)
        return y;
    if ((a & 0x7fffu) == 0u)
        /* From a zero: the smallest denormal with y's sign. */
        return as_half((ushort)((b & 0x8000u) | 1u));
    /* Away from zero when y is beyond x in x's direction. */
    bool away = (xf < yf) == (xf > 0.0f);
    return as_half((ushort)(away ? a + 1u : a - 1u));
}

/* Common functions. */
half __gpusim_clamp_f16(half x, half lo, half hi) { return fmin(fmax(x, lo), hi); }
half __gpusim_mix_f16(half x, half y, half a) {
    return (half)fma((float)y - (float)x, (float)a, (float)x);
}
half __gpusim_step_f16(half edge, half x) { return x < edge ? (half)0.0f : (half)1.0f; }
half __gpusim_smoothstep_f16(half e0, half e1, half x) {
    return (half)__gpusim_smoothstep_f32((float)e0, (float)e1, (float)x);
}
half __gpusim_sign_f16(half x) { return (half)__gpusim_sign_f32((float)x); }
half __gpusim_degrees_f16(half r) { return (half)__gpusim_degrees_f32((float)r); }
half __gpusim_radians_f16(half d) { return (half)__gpusim_radians_f32((float)d); }

/* Relational functions (1/0; the lowering makes a vector's true -1). */
int __gpusim_isequal_f16(half x, half y) { return x == y; }
int __gpusim_isnotequal_f16(half x, half y) { return x != y; }
int __gpusim_isgreater_f16(half x, half y) { return x > y; }
int __gpusim_isgreaterequal_f16(half x, half y) { return x >= y; }
int __gpusim_isless_f16(half x, half y) { return x < y; }
int __gpusim_islessequal_f16(half x, half y) { return x <= y; }
int __gpusim_islessgreater_f16(half x, half y) { return x < y || x > y; }
int __gpusim_isordered_f16(half x, half y) { return x == x && y == y; }
int __gpusim_isunordered_f16(half x, half y) { return x != x || y != y; }
int __gpusim_isnan_f16(half x) { return (as_ushort(x) & 0x7fffu) > 0x7c00u; }
int __gpusim_isinf_f16(half x) { return (as_ushort(x) & 0x7fffu) == 0x7c00u; }
int __gpusim_isfinite_f16(half x) { return (as_ushort(x) & 0x7fffu) < 0x7c00u; }
int __gpusim_isnormal_f16(half x) {
    ushort m = as_ushort(x) & 0x7fffu;
    return m >= 0x0400u && m < 0x7c00u;
}
int __gpusim_signbit_f16(half x) { return (as_ushort(x) & 0x8000u) != 0u; }
half __gpusim_bitselect_f16(half a, half b, half c) {
    return as_half((ushort)((as_ushort(a) & ~as_ushort(c)) | (as_ushort(b) & as_ushort(c))));
}

/* Geometric functions: the float ones on the converted vectors, rounded once. */
#define GH_GEO(S, VT, FS, CVT) \
    half __gpusim_dot_##S(VT a, VT b) { return (half)__gpusim_dot_##FS(CVT(a), CVT(b)); } \
    half __gpusim_length_##S(VT v) { return (half)__gpusim_length_##FS(CVT(v)); } \
    half __gpusim_distance_##S(VT a, VT b) { return (half)__gpusim_distance_##FS(CVT(a), CVT(b)); }
GH_GEO(f16, half, f32, (float))
GH_GEO(f16v2, half2, f32v2, convert_float2)
GH_GEO(f16v3, half3, f32v3, convert_float3)
GH_GEO(f16v4, half4, f32v4, convert_float4)
half __gpusim_normalize_f16(half v) { return (half)__gpusim_normalize_f32((float)v); }
half2 __gpusim_normalize_f16v2(half2 v) { return convert_half2(__gpusim_normalize_f32v2(convert_float2(v))); }
half3 __gpusim_normalize_f16v3(half3 v) { return convert_half3(__gpusim_normalize_f32v3(convert_float3(v))); }
half4 __gpusim_normalize_f16v4(half4 v) { return convert_half4(__gpusim_normalize_f32v4(convert_float4(v))); }
half3 __gpusim_cross_f16v3(half3 a, half3 b) {
    return convert_half3(__gpusim_cross_f32v3(convert_float3(a), convert_float3(b)));
}
half4 __gpusim_cross_f16v4(half4 a, half4 b) {
    return convert_half4(__gpusim_cross_f32v4(convert_float4(a), convert_float4(b)));
}

/* Sub-group and work-group functions: min, max and broadcast are exact on
 * the float; add sums in float and rounds once per result. */
#define GH_SG(NAME) \
    half __gpusim_sub_group_##NAME##_f16(half x) { return (half)__gpusim_sub_group_##NAME##_f32((float)x); }
#define GH_WG(NAME) \
    half __gpusim_work_group_##NAME##_f16(half x, __local ulong *scratch) { \
        return (half)__gpusim_work_group_##NAME##_f32((float)x, scratch); \
    }
#define GH_GROUP_OP(OP) \
    GH_SG(reduce_##OP) GH_SG(scan_inclusive_##OP) GH_SG(scan_exclusive_##OP) \
    GH_WG(reduce_##OP) GH_WG(scan_inclusive_##OP) GH_WG(scan_exclusive_##OP)
GH_GROUP_OP(add)
GH_GROUP_OP(min)
GH_GROUP_OP(max)
half __gpusim_sub_group_broadcast_f16(half x, uint id) {
    return (half)__gpusim_sub_group_broadcast_f32((float)x, id);
}
half __gpusim_work_group_broadcast_f16(half a, uint x, uint y, uint z, __local ulong *scratch) {
    return (half)__gpusim_work_group_broadcast_f32((float)a, x, y, z, scratch);
}
