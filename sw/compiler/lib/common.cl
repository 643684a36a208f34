/*
 * gpusim device library: shared definitions and small float functions.
 *
 * Compiled by gpusim's own front end once per process and linked into the
 * kernels that call it (sw/compiler/src/front/library). Rules for every
 * file: functions only (no program-scope variables, no structs); names
 * start with __gpusim_; call other library functions by those names, never
 * by the OpenCL names the library implements; reach the hardware through
 * __builtin_amdgcn_* (clang's names).
 */

#define GS_INF as_float(0x7f800000u)
#define GS_NAN as_float(0x7fc00000u)
#define GS_ISNAN(x) ((x) != (x))
#define GS_ISINF(x) (fabs(x) == GS_INF)
#define GS_FINITE(x) (fabs(x) < GS_INF)

int __gpusim_ilogb_f32(float x) {
    int e = __builtin_amdgcn_frexp_expf(x) - 1;
    e = x == 0.0f ? (int)0x80000000u : e;
    return GS_FINITE(x) ? e : 0x7fffffff;
}

float __gpusim_logb_f32(float x) {
    float e = (float)(__builtin_amdgcn_frexp_expf(x) - 1);
    e = x == 0.0f ? -GS_INF : e;
    return GS_FINITE(x) ? e : x * x;
}

float __gpusim_ldexp_f32(float x, int e) {
    return __builtin_amdgcn_ldexpf(x, e);
}

/* (mantissa, exponent bits): the exponent is stored through frexp's pointer. */
float2 __gpusim_frexp_f32(float x) {
    int e = __builtin_amdgcn_frexp_expf(x);
    float m = __builtin_amdgcn_frexp_mantf(x);
    e = GS_FINITE(x) ? e : 0;
    return (float2)(m, as_float(e));
}

float __gpusim_fdim_f32(float x, float y) {
    float r = x > y ? x - y : 0.0f;
    return GS_ISNAN(x) || GS_ISNAN(y) ? GS_NAN : r;
}

float __gpusim_maxmag_f32(float x, float y) {
    float ax = fabs(x), ay = fabs(y);
    return ax > ay ? x : (ay > ax ? y : fmax(x, y));
}

float __gpusim_minmag_f32(float x, float y) {
    float ax = fabs(x), ay = fabs(y);
    return ax < ay ? x : (ay < ax ? y : fmin(x, y));
}

float __gpusim_nextafter_f32(float x, float y) {
    int ix = as_int(x), iy = as_int(y);
    /* Sign-magnitude to a monotonic integer order. */
    int ox = ix < 0 ? (int)0x80000000u - ix : ix;
    int oy = iy < 0 ? (int)0x80000000u - iy : iy;
    int o = ox < oy ? ox + 1 : ox - 1;
    int r = o < 0 ? (int)0x80000000u - o : o;
    float f = as_float(r);
    f = ox == oy ? y : f;
    return GS_ISNAN(x) || GS_ISNAN(y) ? x + y : f;
}

/* hypot: both scaled by the larger one's binade so the squares neither
 * overflow nor underflow; 4 ULP allowed. */
float __gpusim_hypot_f32(float x, float y) {
    float ax = fabs(x), ay = fabs(y);
    float m = fmax(ax, ay);
    int e = __builtin_amdgcn_frexp_expf(m);
    float sx = __builtin_amdgcn_ldexpf(ax, -e), sy = __builtin_amdgcn_ldexpf(ay, -e);
    float r = __builtin_amdgcn_ldexpf(sqrt(fma(sx, sx, sy * sy)), e);
    r = m == 0.0f ? 0.0f : r;
    r = GS_ISNAN(x) || GS_ISNAN(y) ? GS_NAN : r;
    return GS_ISINF(x) || GS_ISINF(y) ? GS_INF : r;
}
