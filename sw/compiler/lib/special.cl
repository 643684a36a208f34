/*
 * gpusim device library: error functions.
 *
 * erf on |x| < 1: its Taylor series (2/sqrt(pi)) sum (-1)^n x^(2n+1) /
 * (n! (2n+1)), 14 terms. erfc for x >= 0.75: e^(-x^2) erfcx(x), erfcx
 * by its Taylor series around c = 1, 1.5, ..., 10 (see
 * __gpusim_erfc_large_f32), with e^(-x^2) from x^2 as an exact hi/lo pair.
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

/* erfcx(c) = e^(c^2) erfc(c) for c = 1, 1.5, ..., 3.5 (index 2c - 2). */
float __gpusim_erfcx_at_f32(int i) {
    switch (i) {
    case 0: return as_float(0x3edaec3cu);
    case 1: return as_float(0x3ea4a6d8u);
    case 2: return as_float(0x3e82c339u);
    case 3: return as_float(0x3e57dda0u);
    case 4: return as_float(0x3e374c14u);
    default: return as_float(0x3e1f054du);
    }
}

/* erfc(x) for x >= 0.75 (0 from about 10.06 on): e^(-x^2) (x^2 as an
 * exact hi/lo pair) times erfcx(x). Below 3.75, erfcx by its Taylor
 * series around the nearest c = 1, 1.5, ..., 3.5 (|x - c| <= 1/4, 12
 * terms), the coefficients from the recurrence (n+1) a(n+1) = 2c a(n) +
 * 2 a(n-1), a(1) = 2c a(0) - 2/sqrt(pi) (which cancels more and more for
 * larger c); from 3.75 on, Laplace's continued fraction
 * 1/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))) from depth 14.
 * (The continued fraction from depth 60 alone, used before, took 60
 * reciprocals.) */
float __gpusim_erfc_large_f32(float x) {
    float g;
    if (x < 3.75f) {
        float c = 0.5f * rint(2.0f * x);
        float t = x - c;
        float a0 = __gpusim_erfcx_at_f32((int)(2.0f * c) - 2);
        float a1 = fma(2.0f * c, a0, -as_float(0x3f906ebbu));
        g = fma(a1, t, a0);
        float tn = t;
        for (int n = 1; n < 12; n++) {
            float a2 = fma(2.0f * c, a1, 2.0f * a0) * __builtin_amdgcn_rcpf((float)(n + 1));
            tn = tn * t;
            g = fma(a2, tn, g);
            a0 = a1;
            a1 = a2;
        }
    } else {
        float f = x;
        for (int k = 14; k > 0; k--) {
            f = x + (0.5f * (float)k) * __builtin_amdgcn_rcpf(f);
        }
        g = __gpusim_div_f32(as_float(0x3f106ebbu), f);
    }
    float h = x * x;
    float l = fma(x, x, -h);
    float e = __gpusim_exp_f32(-h);
    e = fma(-e, l, e);
    return x > 10.1f ? 0.0f : e * g;
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

/*
 * Gamma functions. ln Gamma(z) for z >= 8 by Stirling's series
 * (z - 1/2) ln z - z + ln(2 pi)/2 + 1/(12z) - 1/(360z^3) + 1/(1260z^5)
 * - 1/(1680z^7), everything but the series as hi/lo pairs; smaller x are
 * shifted up, z = x + n (kept as a hi/lo pair) with the product
 * x (x+1) ... (x+n-1) as a hi/lo pair too. Negative x by reflection,
 * Gamma(x) = pi / (sinpi(x) (-x) Gamma(-x)).
 */

/* (ln Gamma(x) hi/lo, ln of the shift product hi/lo) for finite x > 0. */
float4 __gpusim_lgamma_parts_f32(float x) {
    float zh = x, zl = 0.0f, ph = 1.0f, pl = 0.0f;
    while (zh < 8.0f) {
        /* (ph, pl) *= (zh, zl), then z += 1 exactly as a pair. */
        float nh = ph * zh;
        pl = fma(ph, zh, -nh) + (ph * zl + pl * zh);
        ph = nh;
        float s = zh + 1.0f;
        float bb = s - zh;
        zl = zl + ((zh - (s - bb)) + (1.0f - bb));
        zh = s;
    }
    float2 ln = __gpusim_log_ep_f32(zh);
    float lnl = ln.y + zl * __builtin_amdgcn_rcpf(zh);
    float a = zh - 0.5f;
    float th = a * ln.x;
    float tl = fma(a, ln.x, -th) + (a * lnl + zl * ln.x);
    float s = th - zh;
    float bb = s - th;
    float err = (th - (s - bb)) + (-zh - bb);
    float r = __builtin_amdgcn_rcpf(zh);
    float r2 = r * r;
    float series = r * (as_float(0x3daaaaabu) + r2 * (as_float(0xbb360b61u)
        + r2 * (as_float(0x3a500d01u) + r2 * as_float(0xba1c09c1u))));
    float lo = err + (tl - zl + as_float(0x32864bebu) + series);
    float hi2 = as_float(0x3f6b3f8eu);
    float hs = s + hi2;
    float b2 = hs - s;
    lo = lo + ((s - (hs - b2)) + (hi2 - b2));
    float h = hs + lo;
    lo = lo - (h - hs);
    /* ln of the product. */
    float2 lp = __gpusim_log_ep_f32(ph);
    float lpl = lp.y + __gpusim_div_f32(pl, ph);
    return (float4)(h, lo, lp.x, lpl);
}

/* Gamma(x) 2^-bias for finite x > 0. */
float __gpusim_tgamma_pos_f32(float x, float bias) {
    float4 p = __gpusim_lgamma_parts_f32(x);
    /* ln Gamma = L - ln P, then times log2(e), as pairs. */
    float dh = p.x - p.z;
    float bb = dh - p.x;
    float dl = ((p.x - (dh - bb)) + (-p.z - bb)) + (p.y - p.w);
    float h = dh + dl;
    dl = dl - (h - dh);
    float eh = h * as_float(0x3fb8aa3bu);
    float el = fma(h, as_float(0x3fb8aa3bu), -eh) + (h * as_float(0x32a57060u) + dl * as_float(0x3fb8aa3bu));
    return __gpusim_exp2_ep_f32(eh - bias, el);
}

float __gpusim_tgamma_f32(float x) {
    float t = fabs(x);
    /* Past 30, Gamma(t) of a negative x is carried as Gamma(t) 2^-64. */
    int big = x < 0.0f && t > 30.0f;
    float g = __gpusim_tgamma_pos_f32(t, big ? 64.0f : 0.0f);
    /* x < 0: pi / (sinpi(x) t Gamma(t)). */
    float sp = __gpusim_sinpi_f32(x);
    float neg = __builtin_amdgcn_ldexpf(__gpusim_div_f32(as_float(0x40490fdbu),
        sp * t * g), big ? -64 : 0);
    neg = t > 45.0f ? copysign(0.0f, sp) : neg;
    float r = x < 0.0f ? neg : g;
    /* Gamma(x) = 1/x - 0.577... + O(x): 1/x is exact to float below 2^-30. */
    r = t < as_float(0x30800000u) ? __gpusim_div_f32(1.0f, x) : r;
    r = x < 0.0f && rint(x) == x ? GS_NAN : r;
    r = x == 0.0f ? copysign(GS_INF, x) : r;
    r = x > 35.5f ? GS_INF : r;
    return GS_ISNAN(x) ? x : r;
}

/* (ln |Gamma(x)|, sign of Gamma(x) as int bits). */
float2 __gpusim_lgamma_r_f32(float x) {
    float t = fabs(x);
    float4 p = __gpusim_lgamma_parts_f32(t);
    float lg = (p.x - p.z) + (p.y - p.w);
    /* x < 0: ln pi - ln |sinpi(x) t| - ln Gamma(t). */
    float sp = __gpusim_sinpi_f32(x);
    /* Two logs: sinpi(x) t may underflow. */
    float2 l1 = __gpusim_log_ep_f32(fabs(sp));
    float2 l2 = __gpusim_log_ep_f32(t);
    float neg = ((as_float(0x3f928682u) - l1.x) - l2.x) - lg
        + ((as_float(0x330e7a1cu) - l1.y) - l2.y);
    float r = x < 0.0f ? neg : lg;
    int sign = x < 0.0f && sp < 0.0f ? -1 : 1;
    sign = x == 0.0f && as_int(x) < 0 ? -1 : sign;
    r = (x <= 0.0f && rint(x) == x) || GS_ISINF(x) ? GS_INF : r;
    r = GS_ISNAN(x) ? x : r;
    return (float2)(r, as_float(sign));
}

float __gpusim_lgamma_f32(float x) {
    return __gpusim_lgamma_r_f32(x).x;
}
