/*
 * gpusim device library: trigonometric functions.
 *
 * Argument reduction (Cody-Waite): k = rint(x 2/pi), r = x - k pi/2 with
 * pi/2 in four parts, the first of 8 bits (k P1 is exact for k < 2^16 and
 * x - k P1 exact by Sterbenz), the other three giving a hi/lo pair by fma
 * products. Used for |x| < 2^16; larger arguments take Payne-Hanek with
 * 2/pi's bits (__gpusim_trigred_large_f32), exact up to FLT_MAX.
 * Polynomials: Taylor series on [-pi/4, pi/4] (degree 11 sin, 12 cos),
 * with the low part of r folded in to first order.
 */

#define GS_2_PI as_float(0x3f22f983u)
#define GS_P1 as_float(0x3fc90000u)
#define GS_P2 as_float(0x39fdaa22u)
#define GS_P3 as_float(0x2c34611au)
#define GS_P4 as_float(0x1fc4c663u)

/* Word i of 2/pi's bits after the binary point, preceded by two zero
 * words (word 2 holds bits 1..32). */
uint __gpusim_2opi_word(int i) {
    return i == 2 ? 0xa2f9836eu : i == 3 ? 0x4e441529u : i == 4 ? 0xfc2757d1u
        : i == 5 ? 0xf534ddc0u : i == 6 ? 0xdb629599u : i == 7 ? 0x3c439041u
        : i == 8 ? 0xfe5163abu : 0u;
}

/* 32 bits of 2/pi starting sh bits into word w. */
uint __gpusim_2opi_bits(int w, int sh) {
    ulong pair = ((ulong)__gpusim_2opi_word(w) << 32) | (ulong)__gpusim_2opi_word(w + 1);
    return (uint)(pair >> (32 - sh));
}

/*
 * Payne-Hanek reduction for |x| >= 2^16 (finite): x = M 2^E with M a
 * 24-bit integer; the 96 bits of 2/pi from bit E - 1 on, times M, give
 * x 2/pi mod 4 with the binary point at bit 94 of the 120-bit product
 * (earlier bits only add multiples of 4). The 94-bit fraction, folded to
 * [-1/2, 1/2), is normalised and scaled by pi/2 as a hi/lo pair.
 */
float3 __gpusim_trigred_large_f32(float x) {
    uint bits = as_uint(x);
    uint m = (bits & 0x7fffffu) | 0x800000u;
    int s = (int)((bits >> 23) & 0xffu) - 150 + 62;
    int w = s >> 5, sh = s & 31;
    uint v0 = __gpusim_2opi_bits(w, sh);
    uint v1 = __gpusim_2opi_bits(w + 1, sh);
    uint v2 = __gpusim_2opi_bits(w + 2, sh);
    uint p0 = m * v2;
    ulong t1 = (ulong)(m * v1) + (ulong)mul_hi(m, v2);
    ulong t2 = (ulong)(m * v0) + (ulong)mul_hi(m, v1) + (t1 >> 32);
    uint p1 = (uint)t1, p2 = (uint)t2;
    int q = (int)(p2 >> 30);
    ulong fhi = ((ulong)(p2 & 0x3fffffffu) << 32) | (ulong)p1;
    uint flo = p0;
    int neg = (p2 >> 29) & 1u;
    /* Fold: 2^94 - F when the fraction is at least 1/2. */
    ulong nhi = 0x4000000000000000ul - fhi - (ulong)(flo != 0u);
    fhi = neg ? nhi : fhi;
    flo = neg ? 0u - flo : flo;
    q = q + neg;
    uint hw = (uint)(fhi >> 32), lw = (uint)fhi;
    int lz = hw != 0u ? (int)clz(hw) : 32 + (int)clz(lw);
    ulong n = lz < 32 ? (fhi << lz) | ((ulong)flo >> (32 - lz))
                      : (fhi << lz) | ((ulong)flo << (lz - 32));
    float h = __builtin_amdgcn_ldexpf((float)(uint)(n >> 40), -22 - lz);
    float l = __builtin_amdgcn_ldexpf((float)(uint)(n >> 8), -54 - lz);
    float ph = h * as_float(0x3fc90fdbu);
    float pl = fma(h, as_float(0x3fc90fdbu), -ph) + (h * as_float(0xb33bbd2eu) + l * as_float(0x3fc90fdbu));
    float rh = ph + pl;
    float rl = pl - (rh - ph);
    rh = neg ? -rh : rh;
    rl = neg ? -rl : rl;
    return (float3)(rh, rl, (float)(q & 3));
}

/* (r hi, r lo, quadrant k mod 4 as a float) of finite x; the sign of x
 * is handled by reducing |x| and mirroring. */
float3 __gpusim_trigred_f32(float x) {
    float ax = fabs(x);
    float3 t;
    if (ax < 65536.0f) {
        float k = rint(ax * GS_2_PI);
        float r1 = fma(-k, GS_P1, ax);
        float ph = k * GS_P2;
        float pl = fma(k, GS_P2, -ph) + k * GS_P3 + k * GS_P4;
        float rh = r1 - ph;
        float bb = rh - r1;
        float rl = ((r1 - (rh - bb)) + (-ph - bb)) - pl;
        float h = rh + rl;
        rl = rl - (h - rh);
        t = (float3)(h, rl, (float)((int)k & 3));
    } else {
        t = __gpusim_trigred_large_f32(ax);
    }
    /* sin(-x) = -sin(x): r negated and the quadrant mirrored. */
    int q = (int)t.z;
    return x < 0.0f ? (float3)(-t.x, -t.y, (float)((4 - q) & 3)) : t;
}

float __gpusim_sin_poly_f32(float r, float rl) {
    float s = r * r;
    float p = as_float(0xbe2aaaabu) + s * (as_float(0x3c088889u) + s * (as_float(0xb9500d01u)
        + s * (as_float(0x3638ef1du) + s * as_float(0xb2d7322bu))));
    return r + (rl + r * s * p);
}

float __gpusim_cos_poly_f32(float r, float rl) {
    float s = r * r;
    float hs = 0.5f * s;
    float w = 1.0f - hs;
    float p = as_float(0x3d2aaaabu) + s * (as_float(0xbab60b61u) + s * (as_float(0x37d00d01u)
        + s * (as_float(0xb493f27eu) + s * as_float(0x310f76c7u))));
    return w + (((1.0f - w) - hs) + (s * s * p - r * rl));
}

float __gpusim_sin_f32(float x) {
    float3 t = __gpusim_trigred_f32(x);
    int q = (int)t.z;
    float s = __gpusim_sin_poly_f32(t.x, t.y);
    float c = __gpusim_cos_poly_f32(t.x, t.y);
    float r = (q & 1) ? c : s;
    r = (q & 2) ? -r : r;
    r = x == 0.0f ? x : r;
    return GS_FINITE(x) ? r : GS_NAN;
}

float __gpusim_cos_f32(float x) {
    float3 t = __gpusim_trigred_f32(x);
    int q = (int)t.z;
    float s = __gpusim_sin_poly_f32(t.x, t.y);
    float c = __gpusim_cos_poly_f32(t.x, t.y);
    float r = (q & 1) ? -s : c;
    r = (q & 2) ? -r : r;
    return GS_FINITE(x) ? r : GS_NAN;
}

/* (sin, cos). */
float2 __gpusim_sincos_f32(float x) {
    float3 t = __gpusim_trigred_f32(x);
    int q = (int)t.z;
    float s = __gpusim_sin_poly_f32(t.x, t.y);
    float c = __gpusim_cos_poly_f32(t.x, t.y);
    float rs = (q & 1) ? c : s;
    float rc = (q & 1) ? -s : c;
    rs = (q & 2) ? -rs : rs;
    rc = (q & 2) ? -rc : rc;
    rs = x == 0.0f ? x : rs;
    int ok = GS_FINITE(x);
    return (float2)(ok ? rs : GS_NAN, ok ? rc : GS_NAN);
}

/* a / b to about 1 ULP for finite nonzero b: the significands divided (the
 * reciprocal's quotient corrected by its fma residual), the exponents
 * subtracted, so denormal and huge operands need no care. */
float __gpusim_div_f32(float a, float b) {
    float ma = __builtin_amdgcn_frexp_mantf(a), mb = __builtin_amdgcn_frexp_mantf(b);
    int e = __builtin_amdgcn_frexp_expf(a) - __builtin_amdgcn_frexp_expf(b);
    float rb = __builtin_amdgcn_rcpf(mb);
    float q = ma * rb;
    q = fma(fma(-q, mb, ma), rb, q);
    return __builtin_amdgcn_ldexpf(q, e);
}

float __gpusim_tan_f32(float x) {
    float3 t = __gpusim_trigred_f32(x);
    int q = (int)t.z;
    float s = __gpusim_sin_poly_f32(t.x, t.y);
    float c = __gpusim_cos_poly_f32(t.x, t.y);
    float r = (q & 1) ? -__gpusim_div_f32(c, s) : __gpusim_div_f32(s, c);
    r = x == 0.0f ? x : r;
    return GS_FINITE(x) ? r : GS_NAN;
}

/* sin(pi x) etc.: x - n/2 is exact, so only pi r needs a hi/lo product. */
float3 __gpusim_pired_f32(float x) {
    int small = fabs(x) < 16777216.0f;
    float n = small ? rint(x + x) : 0.0f;
    /* From 2^24 on every float is an even integer. */
    float r = small ? fma(n, -0.5f, x) : 0.0f;
    int q = (int)n & 3;
    float ph = r * as_float(0x40490fdbu);
    float pl = fma(r, as_float(0x40490fdbu), -ph) + r * as_float(0xb3bbbd2eu);
    float h = ph + pl;
    return (float3)(h, pl - (h - ph), (float)q);
}

float __gpusim_sinpi_f32(float x) {
    float3 t = __gpusim_pired_f32(x);
    int q = (int)t.z;
    float r = (q & 1) ? __gpusim_cos_poly_f32(t.x, t.y) : __gpusim_sin_poly_f32(t.x, t.y);
    r = (q & 2) ? -r : r;
    /* Integers give +-0 with x's sign. */
    r = t.x == 0.0f && !(q & 1) ? copysign(0.0f, x) : r;
    return GS_FINITE(x) ? r : GS_NAN;
}

float __gpusim_cospi_f32(float x) {
    float3 t = __gpusim_pired_f32(x);
    int q = (int)t.z;
    float r = (q & 1) ? -__gpusim_sin_poly_f32(t.x, t.y) : __gpusim_cos_poly_f32(t.x, t.y);
    r = (q & 2) ? -r : r;
    /* Half-integers give +0. */
    r = t.x == 0.0f && (q & 1) ? 0.0f : r;
    return GS_FINITE(x) ? r : GS_NAN;
}

float __gpusim_tanpi_f32(float x) {
    float3 t = __gpusim_pired_f32(x);
    int q = (int)t.z;
    float s = __gpusim_sin_poly_f32(t.x, t.y);
    float c = __gpusim_cos_poly_f32(t.x, t.y);
    float r = (q & 1) ? -__gpusim_div_f32(c, s) : __gpusim_div_f32(s, c);
    r = t.x == 0.0f && !(q & 1) ? copysign(0.0f, x) : r;
    /* n + 1/2: +inf for even n, -inf for odd n. */
    r = t.x == 0.0f && (q & 1) ? (q == 1 ? GS_INF : -GS_INF) : r;
    return GS_FINITE(x) ? r : GS_NAN;
}

/* atan on [0, 1]: reduced around 1 past tan(pi/8); Taylor series on |t| <= 0.4143. */
float __gpusim_atan01_f32(float a) {
    int big = a > as_float(0x3ed413cdu);
    float t = big ? __gpusim_div_f32(a - 1.0f, a + 1.0f) : a;
    float s = t * t;
    float p = as_float(0xbeaaaaabu) + s * (as_float(0x3e4ccccdu) + s * (as_float(0xbe124925u)
        + s * (as_float(0x3de38e39u) + s * (as_float(0xbdba2e8cu) + s * (as_float(0x3d9d89d9u)
        + s * (as_float(0xbd888889u) + s * (as_float(0x3d70f0f1u) + s * (as_float(0xbd579436u)
        + s * as_float(0x3d430c31u)))))))));
    float r = fma(t * s, p, t);
    return big ? (as_float(0x3f490fdbu) + (r + as_float(0xb2bbbd2eu))) : r;
}

float __gpusim_atan_f32(float x) {
    float a = fabs(x);
    int inv = a > 1.0f;
    float r = __gpusim_atan01_f32(inv ? __gpusim_div_f32(1.0f, a) : a);
    r = inv ? as_float(0x3fc90fdbu) + (as_float(0xb33bbd2eu) - r) : r;
    r = GS_ISINF(x) ? as_float(0x3fc90fdbu) : r;
    r = GS_ISNAN(x) ? x : r;
    return copysign(r, x);
}

float __gpusim_atan2_f32(float y, float x) {
    float ax = fabs(x), ay = fabs(y);
    float mn = fmin(ax, ay), mx = fmax(ax, ay);
    float t = __gpusim_div_f32(mn, mx);
    t = GS_ISINF(mx) ? (GS_ISINF(mn) ? 1.0f : 0.0f) : t;
    t = mx == 0.0f ? 0.0f : t;
    float a = __gpusim_atan01_f32(t);
    a = ay > ax ? as_float(0x3fc90fdbu) + (as_float(0xb33bbd2eu) - a) : a;
    a = x < 0.0f || (x == 0.0f && as_int(x) < 0)
        ? as_float(0x40490fdbu) + (as_float(0xb3bbbd2eu) - a) : a;
    a = GS_ISNAN(x) || GS_ISNAN(y) ? GS_NAN : a;
    return copysign(a, y);
}

float __gpusim_asin_f32(float x) {
    float a = fabs(x);
    float c = sqrt((1.0f - a) * (1.0f + a));
    float r = __gpusim_atan2_f32(a, c);
    r = a > 1.0f ? GS_NAN : r;
    return copysign(r, x);
}

float __gpusim_acos_f32(float x) {
    float c = sqrt((1.0f - x) * (1.0f + x));
    float r = __gpusim_atan2_f32(c, x);
    return fabs(x) > 1.0f ? GS_NAN : r;
}

#define GS_1_PI as_float(0x3ea2f983u)

float __gpusim_asinpi_f32(float x) { return __gpusim_asin_f32(x) * GS_1_PI; }
float __gpusim_acospi_f32(float x) { return __gpusim_acos_f32(x) * GS_1_PI; }
float __gpusim_atanpi_f32(float x) { return __gpusim_atan_f32(x) * GS_1_PI; }
float __gpusim_atan2pi_f32(float y, float x) { return __gpusim_atan2_f32(y, x) * GS_1_PI; }

/* Hyperbolic functions from exp and expm1. */

/* e^a / 2 for large a, without overflowing early: 2^(a log2(e) - 1). */
float __gpusim_exp_half_f32(float a) {
    float ph = a * as_float(0x3fb8aa3bu);
    float pl = fma(a, as_float(0x3fb8aa3bu), -ph) + a * as_float(0x32a57060u);
    return __gpusim_exp2_ep_f32(ph - 1.0f, pl);
}

float __gpusim_sinh_f32(float x) {
    float a = fabs(x);
    float em = __gpusim_expm1_f32(a);
    float r = 0.5f * (em + __gpusim_div_f32(em, em + 1.0f));
    /* Large: e^a / 2 = e^(a - ln2) without overflowing early. */
    r = a > 88.0f ? __gpusim_exp_half_f32(a) : r;
    return copysign(GS_ISNAN(x) ? x : r, x);
}

float __gpusim_cosh_f32(float x) {
    float a = fabs(x);
    float e = __gpusim_exp_f32(a);
    float r = 0.5f * e + __gpusim_div_f32(0.5f, e);
    return a > 88.0f ? __gpusim_exp_half_f32(a) : r;
}

float __gpusim_tanh_f32(float x) {
    float a = fabs(x);
    float em = __gpusim_expm1_f32(a + a);
    float r = __gpusim_div_f32(em, em + 2.0f);
    r = a > 10.0f ? 1.0f : r;
    return copysign(GS_ISNAN(x) ? x : r, x);
}

float __gpusim_asinh_f32(float x) {
    float a = fabs(x);
    float a2 = a * a;
    float r = __gpusim_log1p_f32(a + __gpusim_div_f32(a2, 1.0f + sqrt(1.0f + a2)));
    r = a > 4096.0f ? __gpusim_log_f32(a) + as_float(0x3f317218u) : r;
    return copysign(GS_ISINF(x) || GS_ISNAN(x) ? a : r, x);
}

float __gpusim_acosh_f32(float x) {
    float t = x - 1.0f;
    float r = __gpusim_log1p_f32(t + sqrt(fma(t, t, t + t)));
    r = x > 4096.0f ? __gpusim_log_f32(x) + as_float(0x3f317218u) : r;
    r = x < 1.0f ? GS_NAN : r;
    return GS_ISINF(x) && x > 0.0f ? x : r;
}

float __gpusim_atanh_f32(float x) {
    float a = fabs(x);
    float r = 0.5f * __gpusim_log1p_f32(__gpusim_div_f32(a + a, 1.0f - a));
    r = a > 1.0f ? GS_NAN : r;
    r = a == 1.0f ? GS_INF : r;
    return copysign(r, x);
}
