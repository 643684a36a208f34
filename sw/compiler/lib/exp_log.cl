/*
 * gpusim device library: exponentials and logarithms.
 *
 * Building blocks: v_exp_f32 (2^x) and v_log_f32 (log2 x), about 1 ULP,
 * which flush denormal results and inputs; the wrappers scale around that.
 * exp/exp10 split x*log2(e) into a hi/lo pair (fma) so the hardware 2^f
 * sees the fraction to more than float precision; log/log10 multiply
 * log2 by a two-part constant the same way. The extended natural log
 * (__gpusim_log_ep_f32) serves log1p and the pow family.
 */

#define GS_LOG2E_HI as_float(0x3fb8aa3bu)
#define GS_LOG2E_LO as_float(0x32a57060u)
#define GS_LOG2_10_HI as_float(0x40549a78u)
#define GS_LOG2_10_LO as_float(0x33979a37u)
#define GS_LN2_HI as_float(0x3f317218u)
#define GS_LN2_LO as_float(0xb102e308u)
#define GS_LN2_15 as_float(0x3f317200u)
#define GS_LN2_15_LO as_float(0x35bfbe8eu)
#define GS_LOG10_2_HI as_float(0x3e9a209bu)
#define GS_LOG10_2_LO as_float(0xb2760860u)

float __gpusim_exp2_f32(float x) {
    int tiny = x < -126.0f;
    float r = __builtin_amdgcn_exp2f(tiny ? x + 64.0f : x);
    return tiny ? r * as_float(0x1f800000u) : r;
}

/* 2^(h + l) for |l| far below ulp(h): the integer part by ldexp. */
float __gpusim_exp2_ep_f32(float h, float l) {
    float n = rint(h);
    float f = (h - n) + l;
    float r = __builtin_amdgcn_ldexpf(__builtin_amdgcn_exp2f(f), (int)n);
    r = h > 129.0f ? GS_INF : r;
    r = h < -152.0f ? 0.0f : r;
    return GS_ISNAN(h) ? h : r;
}

float __gpusim_exp_f32(float x) {
    float ph = x * GS_LOG2E_HI;
    float pl = fma(x, GS_LOG2E_HI, -ph) + x * GS_LOG2E_LO;
    float r = __gpusim_exp2_ep_f32(ph, pl);
    r = x > 89.0f ? GS_INF : r;
    return x < -104.0f ? 0.0f : r;
}

float __gpusim_exp10_f32(float x) {
    float ph = x * GS_LOG2_10_HI;
    float pl = fma(x, GS_LOG2_10_HI, -ph) + x * GS_LOG2_10_LO;
    float r = __gpusim_exp2_ep_f32(ph, pl);
    r = x > 39.0f ? GS_INF : r;
    return x < -46.0f ? 0.0f : r;
}

/* expm1: x = k ln2 + r with |r| <= ln2/2 (r as hi/lo), e^r - 1 by its
 * Taylor series, then 2^k (p + 1) - 1 = 2^k p + (2^k - 1). */
float __gpusim_expm1_f32(float x) {
    float k = rint(x * GS_LOG2E_HI);
    float rh = fma(-k, GS_LN2_15, x);
    float rl = -k * GS_LN2_15_LO;
    float r = rh + rl;
    float c = (rh - r) + rl;
    float p = fma(r, r * (0.5f + r * (as_float(0x3e2aaaabu) + r * (as_float(0x3d2aaaabu)
        + r * (as_float(0x3c088889u) + r * (as_float(0x3ab60b61u) + r * (as_float(0x39500d01u)
        + r * as_float(0x37d00d01u))))))), r);
    p = p + c * (1.0f + r);
    int ki = (int)k;
    float two_k = __builtin_amdgcn_ldexpf(1.0f, ki);
    float res = fma(two_k, p, two_k - 1.0f);
    res = k == 0.0f ? p : res;
    /* Past 2^24 the -1 is below half an ULP (and 2^k alone may overflow). */
    res = k > 24.0f ? __builtin_amdgcn_ldexpf(p + 1.0f, ki) : res;
    res = x > 88.7228394f ? GS_INF : res;
    res = x < -17.5f ? -1.0f : res;
    return GS_ISNAN(x) ? x : res;
}

float __gpusim_log2_f32(float x) {
    int tiny = x < as_float(0x00800000u);
    float r = __builtin_amdgcn_logf(tiny ? x * as_float(0x4f800000u) : x);
    return tiny ? r - 32.0f : r;
}

/* log2(x) times a two-part constant c: the product to more than float
 * precision before the one rounding. */
float __gpusim_log2_times_f32(float x, float ch, float cl) {
    float y = __gpusim_log2_f32(x);
    float r = y * ch;
    float e = fma(y, ch, -r);
    r = r + fma(y, cl, e);
    return GS_FINITE(y) ? r : y;
}

float __gpusim_log_f32(float x) {
    return __gpusim_log2_times_f32(x, GS_LN2_HI, GS_LN2_LO);
}

float __gpusim_log10_f32(float x) {
    return __gpusim_log2_times_f32(x, GS_LOG10_2_HI, GS_LOG10_2_LO);
}

/*
 * ln(x) as a hi/lo pair (about 2^-40 relative) for finite x > 0:
 * x = m 2^e with m in [sqrt(1/2), sqrt(2)); ln m = 2 atanh(q) with
 * q = (m - 1)/(m + 1), |q| < 0.172: 2q + q^3 (2/3 + 2/5 q^2 + ...).
 * q is a hi/lo pair (an fma residual corrects the reciprocal).
 */
float2 __gpusim_log_ep_f32(float x) {
    float m = __builtin_amdgcn_frexp_mantf(x);
    int e = __builtin_amdgcn_frexp_expf(x);
    int b = m < as_float(0x3f3504f3u);
    m = b ? m + m : m;
    e = e - b;
    float num = m - 1.0f;
    float den = m + 1.0f;
    float den_lo = (1.0f - den) + m;
    float rq = __builtin_amdgcn_rcpf(den);
    float qh = num * rq;
    float res = fma(-qh, den, num);
    res = fma(-qh, den_lo, res);
    float ql = res * rq;
    float q0 = qh + ql;
    ql = ql - (q0 - qh);
    qh = q0;
    float s = qh * qh;
    float p = as_float(0x3f2aaaabu) + s * (as_float(0x3ecccccdu) + s * (as_float(0x3e924925u)
        + s * (as_float(0x3e638e39u) + s * (as_float(0x3e3a2e8cu) + s * as_float(0x3e1d89d9u)))));
    float t = qh * s * p;
    float fe = (float)e;
    float eh = fe * GS_LN2_15;
    float el = fe * GS_LN2_15_LO;
    float h = qh + qh;
    float sum = eh + h;
    float bb = sum - eh;
    float err = (eh - (sum - bb)) + (h - bb);
    float lo = err + ((ql + ql) + t + el);
    float hi = sum + lo;
    lo = lo - (hi - sum);
    return (float2)(hi, lo);
}

/* log1p: ln(u) for u = 1 + x as an exact hi/lo sum. */
float __gpusim_log1p_f32(float x) {
    float u = 1.0f + x;
    float ul = fabs(x) < 1.0f ? (1.0f - u) + x : (x - u) + 1.0f;
    float2 l = __gpusim_log_ep_f32(u);
    float r = l.x + (l.y + ul * __builtin_amdgcn_rcpf(u));
    r = fabs(x) < as_float(0x33800000u) ? x : r;
    r = x == -1.0f ? -GS_INF : r;
    r = x < -1.0f ? GS_NAN : r;
    return GS_ISINF(x) && x > 0.0f ? x : (GS_ISNAN(x) ? x : r);
}
