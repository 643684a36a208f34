/*
 * gpusim device library: geometric functions on float, float2, float3 and
 * float4 (called once on the whole vector). length/distance/normalize
 * rescale by a power of two when the sum of squares would overflow or
 * lose its precision to underflow.
 */

#define GS_GEO(N, S, VT) \
    float __gpusim_dot_##S(VT a, VT b) { return GS_DOT_##N(a, b); } \
    float __gpusim_length_##S(VT v) { \
        float d = GS_DOT_##N(v, v); \
        float sc = d == GS_INF ? as_float(0x1e800000u) : (d < as_float(0x1e800000u) ? as_float(0x60800000u) : 1.0f); \
        VT w = v * sc; \
        float r = sqrt(GS_DOT_##N(w, w)) * __builtin_amdgcn_rcpf(sc); \
        r = d == 0.0f ? 0.0f : r; \
        return GS_ISINF_ANY_##N(v) ? GS_INF : r; \
    } \
    float __gpusim_distance_##S(VT a, VT b) { return __gpusim_length_##S(a - b); } \
    VT __gpusim_normalize_##S(VT v) { \
        float d = GS_DOT_##N(v, v); \
        float sc = d == GS_INF ? as_float(0x1e800000u) : (d < as_float(0x1e800000u) ? as_float(0x60800000u) : 1.0f); \
        VT w = v * sc; \
        VT r = w * rsqrt(GS_DOT_##N(w, w)); \
        return d == 0.0f ? v : r; \
    }

#define GS_DOT_1(a, b) ((a) * (b))
#define GS_DOT_2(a, b) fma((a).y, (b).y, (a).x * (b).x)
#define GS_DOT_3(a, b) fma((a).z, (b).z, fma((a).y, (b).y, (a).x * (b).x))
#define GS_DOT_4(a, b) fma((a).w, (b).w, fma((a).z, (b).z, fma((a).y, (b).y, (a).x * (b).x)))
#define GS_ISINF_ANY_1(v) GS_ISINF(v)
#define GS_ISINF_ANY_2(v) (GS_ISINF((v).x) || GS_ISINF((v).y))
#define GS_ISINF_ANY_3(v) (GS_ISINF((v).x) || GS_ISINF((v).y) || GS_ISINF((v).z))
#define GS_ISINF_ANY_4(v) (GS_ISINF((v).x) || GS_ISINF((v).y) || GS_ISINF((v).z) || GS_ISINF((v).w))

GS_GEO(1, f32, float)
GS_GEO(2, f32v2, float2)
GS_GEO(3, f32v3, float3)
GS_GEO(4, f32v4, float4)

float3 __gpusim_cross_f32v3(float3 a, float3 b) {
    return (float3)(fma(a.y, b.z, -a.z * b.y), fma(a.z, b.x, -a.x * b.z), fma(a.x, b.y, -a.y * b.x));
}

float4 __gpusim_cross_f32v4(float4 a, float4 b) {
    return (float4)(__gpusim_cross_f32v3(a.xyz, b.xyz), 0.0f);
}
