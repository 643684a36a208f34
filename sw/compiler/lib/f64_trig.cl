/*
 * gpusim device library: double trigonometric functions and erf/erfc.
 *
 * Reduction: below 2^30, k = rint(x 2/pi) and r = x - k pi/2 with pi/2
 * in three doubles: x - k P1 is exact (fma; both are multiples of
 * 2^-52 and the difference is below 1), k P2 is an exact hi/lo pair by
 * fma, k P3 is rounded (2^-129 absolute). From 2^30 on, Payne-Hanek:
 * x = M 2^E, the 224 bits of 2/pi from bit E - 31 on (bits before the
 * first give multiples of 4) times the 53-bit M in 32-bit limbs, the
 * quadrant in bits 192-193 and a 128-bit fraction, folded to
 * [-1/2, 1/2], normalised and multiplied by pi/2 as a hi/lo pair.
 * Polynomials: the Taylor series of sin (to r^21) and cos (to r^22) on
 * [-pi/4, pi/4] with r's low part folded in. atan: reduction to
 * |a| <= 0.4375 around atan(0), atan(1/2), atan(1), atan(3/2) and pi/2
 * (fdlibm's intervals), the series to a^53; asin/acos through atan2 of
 * sqrt((1-x)(1+x)). erf: its Taylor series below 1; erfc: e^(-x^2)
 * (x^2 exact as hi/lo) times erfcx(x), erfcx by its Taylor series around
 * c = 1, 1.5, ..., 5.5 (coefficients from the recurrence
 * (n+1) a(n+1) = 2c a(n) + 2 a(n-1), |x - c| <= 1/4, 20 terms) and by
 * Laplace's continued fraction (depth 24) from 5.75 on.
 */

/* Word j of 2/pi's bits after the binary point, preceded by two zero
 * words (word 2 holds bits 1..32). */
uint __gpusim_2opi_word_f64(int j) {
    switch (j - 1) {
    case 1: return 0xa2f9836eu;
    case 2: return 0x4e441529u;
    case 3: return 0xfc2757d1u;
    case 4: return 0xf534ddc0u;
    case 5: return 0xdb629599u;
    case 6: return 0x3c439041u;
    case 7: return 0xfe5163abu;
    case 8: return 0xdebbc561u;
    case 9: return 0xb7246e3au;
    case 10: return 0x424dd2e0u;
    case 11: return 0x06492eeau;
    case 12: return 0x09d1921cu;
    case 13: return 0xfe1deb1cu;
    case 14: return 0xb129a73eu;
    case 15: return 0xe88235f5u;
    case 16: return 0x2ebb4484u;
    case 17: return 0xe99c7026u;
    case 18: return 0xb45f7e41u;
    case 19: return 0x3991d639u;
    case 20: return 0x835339f4u;
    case 21: return 0x9c845f8bu;
    case 22: return 0xbdf9283bu;
    case 23: return 0x1ff897ffu;
    case 24: return 0xde05980fu;
    case 25: return 0xef2f118bu;
    case 26: return 0x5a0a6d1fu;
    case 27: return 0x6d367ecfu;
    case 28: return 0x27cb09b7u;
    case 29: return 0x4f463f66u;
    case 30: return 0x9e5fea2du;
    case 31: return 0x7527bac7u;
    case 32: return 0xebe5f17bu;
    case 33: return 0x3d0739f7u;
    case 34: return 0x8a5292eau;
    case 35: return 0x6bfb5fb1u;
    case 36: return 0x1f8d5d08u;
    case 37: return 0x56033046u;
    case 38: return 0xfc7b6babu;
    case 39: return 0xf0cfbc20u;
    case 40: return 0x9af4361du;    default: return 0u;
    }
}

/* 32 bits of the padded sequence starting sh bits into word w. */
uint __gpusim_2opi_bits_f64(int w, int sh) {
    ulong pair = ((ulong)__gpusim_2opi_word_f64(w) << 32) | (ulong)__gpusim_2opi_word_f64(w + 1);
    return (uint)(pair >> (32 - sh));
}

#define GD_LO(v) ((v) & 0xfffffffful)
#define GD_HI(v) ((v) >> 32)

/* (r hi, r lo, quadrant) of x >= 2^30 (finite). */
double3 __gpusim_trigred_large_f64(double x) {
    ulong b = as_ulong(x);
    int e = __gpusim_expbits_f64(x) - 1075;
    ulong m = (b & GD_MANT) | 0x0010000000000000ul;
    ulong m0 = GD_LO(m), m1 = GD_HI(m);
    int p0 = e + 32;
    int w = p0 >> 5, sh = p0 & 31;
    ulong v6 = __gpusim_2opi_bits_f64(w, sh);
    ulong v5 = __gpusim_2opi_bits_f64(w + 1, sh);
    ulong v4 = __gpusim_2opi_bits_f64(w + 2, sh);
    ulong v3 = __gpusim_2opi_bits_f64(w + 3, sh);
    ulong v2 = __gpusim_2opi_bits_f64(w + 4, sh);
    ulong v1 = __gpusim_2opi_bits_f64(w + 5, sh);
    ulong v0 = __gpusim_2opi_bits_f64(w + 6, sh);
    ulong a0 = m0 * v0, a1 = m0 * v1, a2 = m0 * v2, a3 = m0 * v3, a4 = m0 * v4, a5 = m0 * v5,
          a6 = m0 * v6;
    ulong b0 = m1 * v0, b1 = m1 * v1, b2 = m1 * v2, b3 = m1 * v3, b4 = m1 * v4, b5 = m1 * v5;
    /* Column sums of 32-bit halves (each below 2^35). */
    ulong s = GD_LO(a1) + GD_LO(b0) + GD_HI(a0);
    s = GD_LO(a2) + GD_LO(b1) + GD_HI(a1) + GD_HI(b0) + GD_HI(s);
    ulong p2 = GD_LO(s);
    s = GD_LO(a3) + GD_LO(b2) + GD_HI(a2) + GD_HI(b1) + GD_HI(s);
    ulong p3 = GD_LO(s);
    s = GD_LO(a4) + GD_LO(b3) + GD_HI(a3) + GD_HI(b2) + GD_HI(s);
    ulong p4 = GD_LO(s);
    s = GD_LO(a5) + GD_LO(b4) + GD_HI(a4) + GD_HI(b3) + GD_HI(s);
    ulong p5 = GD_LO(s);
    s = GD_LO(a6) + GD_LO(b5) + GD_HI(a5) + GD_HI(b4) + GD_HI(s);
    int q = (int)(s & 3ul);
    ulong fhi = (p5 << 32) | p4, flo = (p3 << 32) | p2;
    int neg = (int)(fhi >> 63);
    if (neg) {
        flo = 0ul - flo;
        fhi = ~fhi + (flo == 0ul ? 1ul : 0ul);
        q = q + 1;
    }
    int extra = 0;
    if (fhi == 0ul) {
        fhi = flo;
        flo = 0ul;
        extra = 64;
    }
    uint hw = (uint)(fhi >> 32), lw = (uint)fhi;
    int lz = hw != 0u ? (int)clz(hw) : 32 + (int)clz(lw);
    ulong n = lz == 0 ? fhi : (fhi << lz) | (flo >> (64 - lz));
    double h = (double)(n >> 11) * GD_POW2(-53 - lz - extra);
    double l = (double)(n & 0x7fful) * GD_POW2(-64 - lz - extra);
    double rh = h * GD_PIO2_H;
    double rl = fma(h, GD_PIO2_H, -rh) + (h * GD_PIO2_M + l * GD_PIO2_H);
    double r = rh + rl;
    rl = rl - (r - rh);
    return neg ? (double3)(-r, -rl, (double)(q & 3)) : (double3)(r, rl, (double)(q & 3));
}

/* (r hi, r lo, quadrant k mod 4) of finite x. */
double3 __gpusim_trigred_f64(double x) {
    double ax = fabs(x);
    double3 t;
    if (ax < GD_POW2(30)) {
        double k = __gpusim_rint_f64(ax * GD_2OPI);
        double r1 = fma(-k, GD_PIO2_H, ax);
        double ph = k * GD_PIO2_M;
        double pl = fma(k, GD_PIO2_M, -ph) + k * GD_PIO2_L;
        double rh = r1 - ph;
        double bb = rh - r1;
        double rl = ((r1 - (rh - bb)) + (-ph - bb)) - pl;
        double h = rh + rl;
        rl = rl - (h - rh);
        t = (double3)(h, rl, (double)((int)k & 3));
    } else {
        t = __gpusim_trigred_large_f64(ax);
    }
    int q = (int)t.z;
    return x < 0.0 ? (double3)(-t.x, -t.y, (double)((4 - q) & 3)) : t;
}

double __gpusim_sin_poly_f64(double r, double rl) {
    double s = r * r;
    double p = 1.9572941063391263e-20;
    p = fma(p, s, -8.22063524662433e-18);
    p = fma(p, s, 2.8114572543455206e-15);
    p = fma(p, s, -7.647163731819816e-13);
    p = fma(p, s, 1.6059043836821613e-10);
    p = fma(p, s, -2.505210838544172e-08);
    p = fma(p, s, 2.7557319223985893e-06);
    p = fma(p, s, -0.0001984126984126984);
    p = fma(p, s, 0.008333333333333333);
    p = fma(p, s, -0.16666666666666666);
    return r + (r * s * p + rl * (1.0 - 0.5 * s));
}

double __gpusim_cos_poly_f64(double r, double rl) {
    double s = r * r;
    double sl = fma(r, r, -s);
    double hs = 0.5 * s;
    double w = 1.0 - hs;
    double q = -8.896791392450574e-22;
    q = fma(q, s, 4.110317623312165e-19);
    q = fma(q, s, -1.5619206968586225e-16);
    q = fma(q, s, 4.779477332387385e-14);
    q = fma(q, s, -1.1470745597729725e-11);
    q = fma(q, s, 2.08767569878681e-09);
    q = fma(q, s, -2.755731922398589e-07);
    q = fma(q, s, 2.48015873015873e-05);
    q = fma(q, s, -0.001388888888888889);
    q = fma(q, s, 0.041666666666666664);
    return w + (((1.0 - w) - hs) + (s * s * q - (0.5 * sl + r * rl)));
}

/* (sin x, cos x). */
double2 __gpusim_sincos_f64(double x) {
    if (!GD_FINITE(x)) {
        return (double2)(GD_NAN, GD_NAN);
    }
    if (fabs(x) < GD_POW2(-27)) {
        return (double2)(x, 1.0);
    }
    double3 t = __gpusim_trigred_f64(x);
    int q = (int)t.z;
    double s = __gpusim_sin_poly_f64(t.x, t.y);
    double c = __gpusim_cos_poly_f64(t.x, t.y);
    double sn = (q & 1) ? c : s;
    double cs = (q & 1) ? s : c;
    sn = (q & 2) ? -sn : sn;
    cs = ((q + 1) & 2) ? -cs : cs;
    return (double2)(sn, cs);
}

double __gpusim_sin_f64(double x) {
    return __gpusim_sincos_f64(x).x;
}

double __gpusim_cos_f64(double x) {
    return __gpusim_sincos_f64(x).y;
}

/* sin/cos (or -cos/sin in odd quadrants), the quotient corrected by its
 * fma residual. */
double __gpusim_tan_f64(double x) {
    if (!GD_FINITE(x)) {
        return GD_NAN;
    }
    if (fabs(x) < GD_POW2(-27)) {
        return x;
    }
    double3 t = __gpusim_trigred_f64(x);
    int q = (int)t.z;
    double s = __gpusim_sin_poly_f64(t.x, t.y);
    double c = __gpusim_cos_poly_f64(t.x, t.y);
    double a = (q & 1) ? -c : s;
    double d = (q & 1) ? s : c;
    double r = a / d;
    return r + fma(-r, d, a) / d;
}

/* atan(t + tl) as (hi, lo) for t >= 0 (t may be +inf). */
double2 __gpusim_atan_dd_f64(double t, double tl) {
    if (t > GD_POW2(60)) {
        /* pi/2 - 1/t rounds to pi/2's double. */
        return (double2)(GD_PIO2_H, GD_PIO2_M);
    }
    double ch = 0.0, cl = 0.0, a;
    if (t < 0.4375) {
        a = t;
    } else if (t < 0.6875) {
        ch = GD_ATAN_HALF_H;
        cl = GD_ATAN_HALF_L;
        a = (2.0 * t - 1.0) / (2.0 + t);
    } else if (t < 1.1875) {
        ch = GD_ATAN_ONE_H;
        cl = GD_ATAN_ONE_L;
        a = (t - 1.0) / (t + 1.0);
    } else if (t < 2.4375) {
        ch = GD_ATAN_THREEHALF_H;
        cl = GD_ATAN_THREEHALF_L;
        a = (t - 1.5) / fma(1.5, t, 1.0);
    } else {
        ch = GD_PIO2_H;
        cl = GD_PIO2_M;
        a = -1.0 / t;
    }
    double z = a * a;
    double p = 0.018867924528301886;
    p = fma(p, z, -0.0196078431372549);
    p = fma(p, z, 0.02040816326530612);
    p = fma(p, z, -0.02127659574468085);
    p = fma(p, z, 0.022222222222222223);
    p = fma(p, z, -0.023255813953488372);
    p = fma(p, z, 0.024390243902439025);
    p = fma(p, z, -0.02564102564102564);
    p = fma(p, z, 0.02702702702702703);
    p = fma(p, z, -0.02857142857142857);
    p = fma(p, z, 0.030303030303030304);
    p = fma(p, z, -0.03225806451612903);
    p = fma(p, z, 0.034482758620689655);
    p = fma(p, z, -0.037037037037037035);
    p = fma(p, z, 0.04);
    p = fma(p, z, -0.043478260869565216);
    p = fma(p, z, 0.047619047619047616);
    p = fma(p, z, -0.05263157894736842);
    p = fma(p, z, 0.058823529411764705);
    p = fma(p, z, -0.06666666666666667);
    p = fma(p, z, 0.07692307692307693);
    p = fma(p, z, -0.09090909090909091);
    p = fma(p, z, 0.1111111111111111);
    p = fma(p, z, -0.14285714285714285);
    p = fma(p, z, 0.2);
    p = fma(p, z, -0.3333333333333333);
    double lo = cl + (a * z * p + tl / fma(t, t, 1.0));
    double h = ch + a;
    double hl = ch == 0.0 ? 0.0 : (ch - h) + a;
    hl = hl + lo;
    double r = h + hl;
    return (double2)(r, hl - (r - h));
}

/* atan2(ay, ax) as (hi, lo) for finite ay, ax >= 0, not both 0: the
 * smaller over the larger, both scaled so the larger is in [1, 2) (no
 * quotient near the overflow or denormal range), a quotient below 2^-900
 * taken as atan's value itself. */
double2 __gpusim_atan2_dd_f64(double ay, double ax) {
    int swap = ay > ax;
    double n = swap ? ax : ay, d = swap ? ay : ax;
    int e = __gpusim_ilogb_f64(d);
    n = __gpusim_ldexp_f64(n, -e);
    d = __gpusim_ldexp_f64(d, -e);
    double2 a;
    if (n < GD_POW2(-900)) {
        a = (double2)(__gpusim_ldexp_f64((n * GD_POW2(200)) / d, -200), 0.0);
    } else {
        double q = n / d;
        a = __gpusim_atan_dd_f64(q, fma(-q, d, n) / d);
    }
    if (!swap) {
        return a;
    }
    double h = GD_PIO2_H - a.x;
    double l = ((GD_PIO2_H - h) - a.x) + (GD_PIO2_M - a.y);
    double r = h + l;
    return (double2)(r, l - (r - h));
}

double __gpusim_atan_f64(double x) {
    if (GD_ISNAN(x)) {
        return x;
    }
    if (fabs(x) < GD_POW2(-27)) {
        return x;
    }
    double2 a = __gpusim_atan_dd_f64(fabs(x), 0.0);
    return __gpusim_copysign_f64(a.x + a.y, x);
}

/* pi - (h + l) as (hi, lo). */
double2 __gpusim_pi_minus_f64(double2 a) {
    double h = GD_PI_H - a.x;
    double l = ((GD_PI_H - h) - a.x) + (GD_PI_L - a.y);
    double r = h + l;
    return (double2)(r, l - (r - h));
}

double2 __gpusim_atan2_full_f64(double y, double x) {
    double ay = fabs(y), ax = fabs(x);
    int xneg = (int)(as_ulong(x) >> 63);
    double2 a;
    if (ay == GD_INF || ax == GD_INF) {
        if (ay == GD_INF && ax == GD_INF) {
            a = xneg ? (double2)(3.0 * GD_PIO4_H, 3.0 * GD_PIO4_L) : (double2)(GD_PIO4_H, GD_PIO4_L);
        } else if (ay == GD_INF) {
            a = (double2)(GD_PIO2_H, GD_PIO2_M);
        } else {
            a = xneg ? (double2)(GD_PI_H, GD_PI_L) : (double2)(0.0, 0.0);
        }
    } else if (y == 0.0) {
        a = xneg ? (double2)(GD_PI_H, GD_PI_L) : (double2)(0.0, 0.0);
    } else if (x == 0.0) {
        a = (double2)(GD_PIO2_H, GD_PIO2_M);
    } else {
        a = __gpusim_atan2_dd_f64(ay, ax);
        a = xneg ? __gpusim_pi_minus_f64(a) : a;
    }
    ulong sy = as_ulong(y) & GD_SIGN;
    return (double2)(as_double(as_ulong(a.x) ^ sy), as_double(as_ulong(a.y) ^ sy));
}

double __gpusim_atan2_f64(double y, double x) {
    if (GD_ISNAN(x) || GD_ISNAN(y)) {
        return x + y;
    }
    double2 a = __gpusim_atan2_full_f64(y, x);
    return a.x + a.y;
}

double __gpusim_asin_f64(double x) {
    double ax = fabs(x);
    if (GD_ISNAN(x) || ax > 1.0) {
        return GD_ISNAN(x) ? x : GD_NAN;
    }
    if (ax < GD_POW2(-27)) {
        return x;
    }
    double c = __gpusim_sqrt_f64((1.0 - ax) * (1.0 + ax));
    double2 a = c == 0.0 ? (double2)(GD_PIO2_H, GD_PIO2_M) : __gpusim_atan2_dd_f64(ax, c);
    return __gpusim_copysign_f64(a.x + a.y, x);
}

double __gpusim_acos_f64(double x) {
    double ax = fabs(x);
    if (GD_ISNAN(x) || ax > 1.0) {
        return GD_ISNAN(x) ? x : GD_NAN;
    }
    double s = __gpusim_sqrt_f64((1.0 - ax) * (1.0 + ax));
    double2 a = __gpusim_atan2_full_f64(s, x);
    return a.x + a.y;
}

/* (h + l) / pi rounded once. */
double __gpusim_over_pi_f64(double2 a) {
    double h = a.x * GD_IPI_H;
    return h + (fma(a.x, GD_IPI_H, -h) + (a.y * GD_IPI_H + a.x * GD_IPI_L));
}

double __gpusim_asinpi_f64(double x) {
    double r = __gpusim_asin_f64(x);
    double ax = fabs(x);
    if (GD_ISNAN(r) || ax < GD_POW2(-27)) {
        return GD_ISNAN(r) ? r : __gpusim_over_pi_f64((double2)(x, 0.0));
    }
    double c = __gpusim_sqrt_f64((1.0 - ax) * (1.0 + ax));
    double2 a = c == 0.0 ? (double2)(GD_PIO2_H, GD_PIO2_M) : __gpusim_atan2_dd_f64(ax, c);
    return __gpusim_copysign_f64(__gpusim_over_pi_f64(a), x);
}

double __gpusim_acospi_f64(double x) {
    double ax = fabs(x);
    if (GD_ISNAN(x) || ax > 1.0) {
        return GD_ISNAN(x) ? x : GD_NAN;
    }
    double s = __gpusim_sqrt_f64((1.0 - ax) * (1.0 + ax));
    return __gpusim_over_pi_f64(__gpusim_atan2_full_f64(s, x));
}

double __gpusim_atanpi_f64(double x) {
    if (GD_ISNAN(x)) {
        return x;
    }
    double2 a = __gpusim_atan_dd_f64(fabs(x), 0.0);
    a = fabs(x) < GD_POW2(-27) ? (double2)(fabs(x), 0.0) : a;
    return __gpusim_copysign_f64(__gpusim_over_pi_f64(a), x);
}

double __gpusim_atan2pi_f64(double y, double x) {
    if (GD_ISNAN(x) || GD_ISNAN(y)) {
        return x + y;
    }
    return __gpusim_over_pi_f64(__gpusim_atan2_full_f64(y, x));
}

/* 2/sqrt(pi) (x + x z P(z)), z = x^2: erf below 1. */
double __gpusim_erf_series_f64(double x) {
    double z = x * x;
    double p = -8.230149299214221e-25;
    p = fma(p, z, 1.977064753877905e-23);
    p = fma(p, z, -4.5518467589282e-22);
    p = fma(p, z, 1.0025164934907719e-20);
    p = fma(p, z, -2.107855191442136e-19);
    p = fma(p, z, 4.221407288807088e-18);
    p = fma(p, z, -8.032735012415773e-17);
    p = fma(p, z, 1.4483264643598138e-15);
    p = fma(p, z, -2.466827010264457e-14);
    p = fma(p, z, 3.9554295164585257e-13);
    p = fma(p, z, -5.9477940136376354e-12);
    p = fma(p, z, 8.35070279514724e-11);
    p = fma(p, z, -1.0892221037148573e-09);
    p = fma(p, z, 1.3122532963802806e-08);
    p = fma(p, z, -1.4503852223150468e-07);
    p = fma(p, z, 1.4589169000933706e-06);
    p = fma(p, z, -1.3227513227513228e-05);
    p = fma(p, z, 0.00010683760683760684);
    p = fma(p, z, -0.0007575757575757576);
    p = fma(p, z, 0.004629629629629629);
    p = fma(p, z, -0.023809523809523808);
    p = fma(p, z, 0.1);
    p = fma(p, z, -0.3333333333333333);
    double h = GD_2OSQRTPI * x;
    return h + h * z * p;
}

/* erfcx(c) = e^(c^2) erfc(c) for c = 1, 1.5, ..., 5.5 (index 2c - 2). */
double __gpusim_erfcx_at_f64(int i) {
    switch (i) {
    case 0: return as_double(0x3fdb5d8780f956b2ul);
    case 1: return as_double(0x3fd494daffa2ad68ul);
    case 2: return as_double(0x3fd058671b52c776ul);
    case 3: return as_double(0x3fcafbb3f3b7343bul);
    case 4: return as_double(0x3fc6e9827d229d2dul);
    case 5: return as_double(0x3fc3e0a99a0ee914ul);
    case 6: return as_double(0x3fc18932bf08e154ul);
    case 7: return as_double(0x3fbf5b2a049cf4c6ul);
    case 8: return as_double(0x3fbc57239e943d1aul);
    default: return as_double(0x3fb9d8a8f2284f2cul);
    }
}

/* erfc(x) for x >= 0.75 (finite): e^(-x^2) erfcx(x). */
double __gpusim_erfc_big_f64(double x) {
    double g;
    if (x < 5.75) {
        double c = 0.5 * __gpusim_rint_f64(2.0 * x);
        double t = x - c;
        double a0 = __gpusim_erfcx_at_f64((int)(2.0 * c) - 2);
        double a1 = 2.0 * c * a0 - GD_2OSQRTPI;
        g = a0 + a1 * t;
        double tn = t;
        for (int n = 1; n < 20; n++) {
            double a2 = (2.0 * c * a1 + 2.0 * a0) / (double)(n + 1);
            tn = tn * t;
            g = fma(a2, tn, g);
            a0 = a1;
            a1 = a2;
        }
    } else {
        double f = x;
        for (int k = 24; k > 0; k--) {
            f = x + (0.5 * (double)k) / f;
        }
        g = GD_ISQRTPI / f;
    }
    double sh = x * x;
    double sl = fma(x, x, -sh);
    return __gpusim_exp_dd_f64(-sh, -sl) * g;
}

double __gpusim_erfc_f64(double x) {
    if (GD_ISNAN(x)) {
        return x;
    }
    double ax = fabs(x);
    if (ax < 0.75) {
        return 1.0 - __gpusim_erf_series_f64(x);
    }
    if (x > 27.5) {
        return 0.0;
    }
    if (x < -6.0) {
        return 2.0;
    }
    double r = __gpusim_erfc_big_f64(ax);
    return x < 0.0 ? 2.0 - r : r;
}

double __gpusim_erf_f64(double x) {
    if (GD_ISNAN(x)) {
        return x;
    }
    double ax = fabs(x);
    if (ax < 1.0) {
        return __gpusim_erf_series_f64(x);
    }
    double r = ax >= 6.0 ? 1.0 : 1.0 - __gpusim_erfc_big_f64(ax);
    return __gpusim_copysign_f64(r, x);
}

/* (pi r hi, pi r lo, quadrant) with |x| = q/2 + r, |r| <= 1/4, for finite
 * x: 2|x| is exact, so is r = |x| - n/2; from 2^52 on |x| is an integer,
 * even from 2^53 on. */
double3 __gpusim_pired_f64(double x) {
    double ax = fabs(x);
    double r = 0.0;
    int q;
    if (ax >= GD_POW2(52)) {
        q = ax < GD_POW2(53) ? (int)(as_ulong(ax) & 1ul) * 2 : 0;
    } else {
        double n = __gpusim_rint_f64(2.0 * ax);
        r = ax - 0.5 * n;
        q = (int)((long)n & 3l);
    }
    double rh = r * GD_PI_H;
    double rl = fma(r, GD_PI_H, -rh) + r * GD_PI_L;
    double h = rh + rl;
    return (double3)(h, rl - (h - rh), (double)q);
}

/* sinpi(+n) = +0, sinpi(-n) = -0. */
double __gpusim_sinpi_f64(double x) {
    if (!GD_FINITE(x)) {
        return GD_NAN;
    }
    double3 t = __gpusim_pired_f64(x);
    int q = (int)t.z;
    double v = (q & 1) ? __gpusim_cos_poly_f64(t.x, t.y) : __gpusim_sin_poly_f64(t.x, t.y);
    v = (q & 2) ? -v : v;
    v = t.x == 0.0 && (q & 1) == 0 ? 0.0 : v;
    return as_double(as_ulong(v) ^ (as_ulong(x) & GD_SIGN));
}

/* cospi(n + 1/2) = +0. */
double __gpusim_cospi_f64(double x) {
    if (!GD_FINITE(x)) {
        return GD_NAN;
    }
    double3 t = __gpusim_pired_f64(x);
    int q = (int)t.z;
    double v = (q & 1) ? __gpusim_sin_poly_f64(t.x, t.y) : __gpusim_cos_poly_f64(t.x, t.y);
    v = ((q + 1) & 2) ? -v : v;
    return t.x == 0.0 && (q & 1) != 0 ? 0.0 : v;
}

/* tanpi(n) = copysign(0, n) for even n and copysign(0, -n) for odd n;
 * tanpi(n + 1/2) = +inf for even n, -inf for odd n. */
double __gpusim_tanpi_f64(double x) {
    if (!GD_FINITE(x)) {
        return GD_NAN;
    }
    double3 t = __gpusim_pired_f64(x);
    int q = (int)t.z;
    double s = __gpusim_sin_poly_f64(t.x, t.y);
    double c = __gpusim_cos_poly_f64(t.x, t.y);
    double a = (q & 1) ? -c : s;
    double d = (q & 1) ? s : c;
    double v = a / d;
    v = v + fma(-v, d, a) / d;
    /* tan(r) = r below 2^-27 (and no quotient in the denormal range). */
    v = (q & 1) == 0 && fabs(t.x) < GD_POW2(-27) ? t.x : v;
    if (t.x == 0.0) {
        v = (q & 1) ? (q == 1 ? GD_INF : -GD_INF) : (q == 2 ? -0.0 : 0.0);
    }
    return as_double(as_ulong(v) ^ (as_ulong(x) & GD_SIGN));
}
