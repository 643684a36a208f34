/*
 * gpusim device library: the pow family, cbrt.
 *
 * x^y = 2^(y log2|x|) with log2|x| as a hi/lo pair (the extended natural
 * log times log2(e)) so that y log2|x| keeps about 40 bits: the result's
 * error is then the hardware 2^f's. Special values follow C99 Annex F
 * (pow, pown, rootn) and the OpenCL table (powr).
 */

#define GS_LOG2E_H as_float(0x3fb8aa3bu)
#define GS_LOG2E_L as_float(0x32a57060u)

/* log2|x| as hi/lo, finite nonzero x. */
float2 __gpusim_log2_ep_f32(float x) {
    float2 l = __gpusim_log_ep_f32(fabs(x));
    float h = l.x * GS_LOG2E_H;
    float lo = fma(l.x, GS_LOG2E_H, -h) + (l.x * GS_LOG2E_L + l.y * GS_LOG2E_H);
    float r = h + lo;
    return (float2)(r, lo - (r - h));
}

/* |x|^y for finite nonzero x (overflow/underflow included), y finite. */
float __gpusim_pow_core_f32(float x, float y, float ylo) {
    float2 l = __gpusim_log2_ep_f32(x);
    float th = y * l.x;
    float tl = fma(y, l.x, -th) + (y * l.y + ylo * l.x);
    return __gpusim_exp2_ep_f32(th, tl);
}

float __gpusim_pow_f32(float x, float y) {
    float ax = fabs(x), ay = fabs(y);
    float r = __gpusim_pow_core_f32(x, y, 0.0f);
    int yint = trunc(y) == y;
    int yodd = yint && ay < 16777216.0f && ((int)y & 1);
    /* |x| = 0 or inf. */
    float zero_inf = (ax == 0.0f) == (y < 0.0f) ? GS_INF : 0.0f;
    r = ax == 0.0f || GS_ISINF(x) ? zero_inf : r;
    /* y = +-inf. */
    float yinf = ax == 1.0f ? 1.0f : ((ax < 1.0f) == (y < 0.0f) ? GS_INF : 0.0f);
    r = GS_ISINF(y) ? yinf : r;
    r = as_int(x) < 0 && yodd ? -r : r;
    r = x < 0.0f && GS_FINITE(x) && !yint ? GS_NAN : r;
    r = GS_ISNAN(x) || GS_ISNAN(y) ? GS_NAN : r;
    return y == 0.0f || x == 1.0f ? 1.0f : r;
}

float __gpusim_powr_f32(float x, float y) {
    float r = __gpusim_pow_f32(x, y);
    int bad = x < 0.0f || (x == 0.0f && y == 0.0f) || (GS_ISINF(x) && y == 0.0f)
        || (x == 1.0f && GS_ISINF(y)) || GS_ISNAN(x) || GS_ISNAN(y);
    return bad ? GS_NAN : r;
}

float __gpusim_pown_f32(float x, int n) {
    float y = (float)n;
    float ylo = (float)(n - (int)y);
    float ax = fabs(x);
    float r = __gpusim_pow_core_f32(x, y, ylo);
    int odd = n & 1;
    float zero_inf = (ax == 0.0f) == (n < 0) ? GS_INF : 0.0f;
    r = ax == 0.0f || GS_ISINF(x) ? zero_inf : r;
    r = as_int(x) < 0 && odd ? -r : r;
    r = GS_ISNAN(x) ? x : r;
    return n == 0 ? 1.0f : r;
}

float __gpusim_rootn_f32(float x, int n) {
    float2 l = __gpusim_log2_ep_f32(x);
    float fn = (float)n;
    float rn = __builtin_amdgcn_rcpf(fn);
    float th = l.x * rn;
    float res = fma(-th, fn, l.x);
    th = th + res * rn;
    res = fma(-th, fn, l.x) + l.y;
    float tl = res * rn;
    float ax = fabs(x);
    float r = __gpusim_exp2_ep_f32(th, tl);
    int odd = n & 1;
    float zero_inf = (ax == 0.0f) == (n < 0) ? GS_INF : 0.0f;
    r = ax == 0.0f || GS_ISINF(x) ? zero_inf : r;
    r = as_int(x) < 0 && odd ? -r : r;
    r = (x < 0.0f && !odd) || n == 0 || GS_ISNAN(x) ? GS_NAN : r;
    return r;
}

/* cbrt: 2^(log2|x| / 3) from the extended log, then one Newton step. */
float __gpusim_cbrt_f32(float x) {
    float ax = fabs(x);
    float2 l = __gpusim_log2_ep_f32(ax);
    float th = l.x * as_float(0x3eaaaaabu);
    float res = fma(-th, 3.0f, l.x) + l.y;
    float r = __gpusim_exp2_ep_f32(th, res * as_float(0x3eaaaaabu));
    r = ax == 0.0f || !GS_FINITE(ax) ? ax : r;
    return copysign(r, x);
}
