/*
 * gpusim device library: error functions.
 *
 * erf on |x| < 1: its Taylor series (2/sqrt(pi)) sum (-1)^n x^(2n+1) /
 * (n! (2n+1)), 14 terms. erfc for x >= 0.75: Laplace's continued fraction
 * e^(-x^2) / sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))),
 * evaluated backward from depth 60 (stable; converged to float precision
 * from x = 0.75 on), with e^(-x^2) from x^2 as an exact hi/lo pair.
 * The other ranges follow from erf = 1 - erfc and erfc(-x) = 2 - erfc(x).
 */

float __gpusim_erf_small_f32(float x) {
    float s = x * x;
    float p = as_float(0xacec229eu);
    p = fma(p, s, as_float(0x2ecf356bu));
    p = fma(p, s, as_float(0xb0a8eb8cu));
    p = fma(p, s, as_float(0x327e62b9u));
    p = fma(p, s, as_float(0xb42fba17u));
    p = fma(p, s, as_float(0x35dcf365u));
    p = fma(p, s, as_float(0xb77a692eu));
    p = fma(p, s, as_float(0x38fcd193u));
    p = fma(p, s, as_float(0xba6016dau));
    p = fma(p, s, as_float(0x3bab2de7u));
    p = fma(p, s, as_float(0xbcdc1672u));
    p = fma(p, s, as_float(0x3de71791u));
    p = fma(p, s, as_float(0xbec093a3u));
    return fma(x * s, p, x * as_float(0x3f906ebbu));
}

/* erfc(x) for x >= 0.75 (0 from about 10.06 on). */
float __gpusim_erfc_large_f32(float x) {
    float t = x;
    for (int k = 60; k > 0; k--) {
        t = x + (0.5f * (float)k) * __builtin_amdgcn_rcpf(t);
    }
    float h = x * x;
    float l = fma(x, x, -h);
    float e = __gpusim_exp_f32(-h);
    e = fma(-e, l, e);
    float r = __gpusim_div_f32(e * as_float(0x3f106ebbu), t);
    return x > 10.1f ? 0.0f : r;
}

float __gpusim_erf_f32(float x) {
    float a = fabs(x);
    float r = a < 1.0f ? __gpusim_erf_small_f32(a) : 1.0f - __gpusim_erfc_large_f32(a);
    r = a > 4.0f ? 1.0f : r;
    return copysign(GS_ISNAN(x) ? x : r, x);
}

float __gpusim_erfc_f32(float x) {
    float a = fabs(x);
    float big = a >= 0.75f ? __gpusim_erfc_large_f32(a) : 1.0f - __gpusim_erf_small_f32(a);
    float r = x < 0.0f ? 2.0f - big : big;
    r = x < -4.0f ? 2.0f : r;
    return GS_ISNAN(x) ? x : r;
}
