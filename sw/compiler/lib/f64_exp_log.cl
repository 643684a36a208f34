/*
 * gpusim device library: double exponentials, logarithms, powers and
 * hyperbolic functions.
 *
 * exp: k = rint(x / ln2), r = x - k ln2 with ln2 in two parts (the first
 * of 42 bits, so k ln2_hi and the difference are exact), e^r - 1 by its
 * Taylor series to r^13 (|r| <= ln2/2: truncation below 2^-57), then
 * 2^k by the exponent bits. The double-double forms (exp_dd of h + l,
 * log_dd giving hi + lo with about 2^-100 relative error) carry pow,
 * powr, pown, rootn and cbrt: y ln|x| keeps more than 60 bits before the
 * exponential. log: x = m 2^k with m in [sqrt(1/2), sqrt(2)), ln m =
 * 2 atanh(s) with s = (m-1)/(m+1) as a hi/lo pair and its cube term in
 * double-double, the rest of the atanh series (to s^25) in double.
 */

/* e^(h + l) - 1 for |h| <= ln2/2 + a little, |l| << |h| or tiny. */
double __gpusim_expm1k_f64(double h, double l) {
    double p = 1.1470745597729725e-11;
    p = fma(p, h, 1.6059043836821613e-10);
    p = fma(p, h, 2.08767569878681e-09);
    p = fma(p, h, 2.505210838544172e-08);
    p = fma(p, h, 2.755731922398589e-07);
    p = fma(p, h, 2.7557319223985893e-06);
    p = fma(p, h, 2.48015873015873e-05);
    p = fma(p, h, 0.0001984126984126984);
    p = fma(p, h, 0.001388888888888889);
    p = fma(p, h, 0.008333333333333333);
    p = fma(p, h, 0.041666666666666664);
    p = fma(p, h, 0.16666666666666666);
    p = fma(p, h, 0.5);
    double h2 = h * h;
    return h + fma(l, h, l + h2 * p);
}

/* e^(h + l) (l a correction of h), overflow and underflow included. */
double __gpusim_exp_dd_f64(double h, double l) {
    if (GD_ISNAN(h)) {
        return h;
    }
    if (h > 709.8) {
        return GD_INF;
    }
    if (h < -745.2) {
        return 0.0;
    }
    double k = __gpusim_rint_f64(h * GD_INVLN2);
    double r = fma(-k, GD_LN2_HI, h);
    double rl = fma(-k, GD_LN2_LO, l);
    double rh = r + rl;
    rl = rl - (rh - r);
    double em1 = __gpusim_expm1k_f64(rh, rl);
    return __gpusim_ldexp_f64(1.0 + em1, (int)k);
}

double __gpusim_exp_f64(double x) {
    return __gpusim_exp_dd_f64(x, 0.0);
}

/* 2^x: x = k + f exactly, f ln2 as a hi/lo pair. */
double __gpusim_exp2_f64(double x) {
    if (GD_ISNAN(x)) {
        return x;
    }
    if (x >= 1024.0) {
        return GD_INF;
    }
    if (x < -1080.0) {
        return 0.0;
    }
    double k = __gpusim_rint_f64(x);
    double f = x - k;
    double rh = f * GD_LN2;
    double rl = fma(f, GD_LN2, -rh) + f * GD_LN2_L;
    double r = rh + rl;
    rl = rl - (r - rh);
    rh = r;
    return __gpusim_ldexp_f64(1.0 + __gpusim_expm1k_f64(rh, rl), (int)k);
}

/* 10^x: x = k log10(2) + t (t exact: log10(2) in 42 + 53 bits), t ln10
 * as a hi/lo pair. */
double __gpusim_exp10_f64(double x) {
    if (GD_ISNAN(x)) {
        return x;
    }
    if (x > 308.3) {
        return GD_INF;
    }
    if (x < -324.0) {
        return 0.0;
    }
    double k = __gpusim_rint_f64(x * GD_LOG2_10);
    double t = fma(-k, GD_LG2_HI, x);
    double tl = -k * GD_LG2_LO;
    double rh = t * GD_LN10;
    double rl = fma(t, GD_LN10, -rh) + (t * GD_LN10_L + tl * GD_LN10);
    /* The kernel folds rl in to first order: |rl| must be an ulp of rh. */
    double r = rh + rl;
    rl = rl - (r - rh);
    rh = r;
    return __gpusim_ldexp_f64(1.0 + __gpusim_expm1k_f64(rh, rl), (int)k);
}

/* e^x - 1: the series itself near 0; else 2^k (p + 1 - 2^-k). */
double __gpusim_expm1_f64(double x) {
    if (GD_ISNAN(x)) {
        return x;
    }
    if (x > 709.8) {
        return GD_INF;
    }
    if (x < -38.0) {
        return -1.0;
    }
    if (fabs(x) < 0.34) {
        return __gpusim_expm1k_f64(x, 0.0);
    }
    double k = __gpusim_rint_f64(x * GD_INVLN2);
    double r = fma(-k, GD_LN2_HI, x);
    double rl = -k * GD_LN2_LO;
    double rh = r + rl;
    rl = rl - (rh - r);
    double p = __gpusim_expm1k_f64(rh, rl);
    int n = (int)k;
    if (n > 56) {
        return __gpusim_ldexp_f64(1.0 + p, n);
    }
    /* 1 - 2^-n is exact for -56 <= n <= 56. */
    double c = 1.0 - __gpusim_ldexp_f64(1.0, -n);
    return __gpusim_ldexp_f64(p + c, n);
}

/* ln x as (hi, lo) for finite x > 0 (denormals included). */
double2 __gpusim_log_dd_f64(double x) {
    ulong b = as_ulong(x);
    int e = __gpusim_expbits_f64(x);
    int adj = 0;
    if (e == 0) {
        b = as_ulong(x * GD_POW2(54));
        e = (int)((b >> 52) & 0x7fful);
        adj = 54;
    }
    int k = e - 1023 - adj;
    double m = as_double((b & GD_MANT) | (1023ul << 52));
    if (m > GD_SQRT2) {
        m = m * 0.5;
        k = k + 1;
    }
    double f = m - 1.0;
    /* s = f / (2 + f) as s + sl; d + dl = 2 + f exactly. */
    double d = 2.0 + f;
    double dl = f - (d - 2.0);
    double s = f / d;
    double sl = (fma(-s, d, f) - s * dl) / d;
    double zh = s * s;
    double zl = fma(s, s, -zh);
    double s3 = s * zh;
    double s3l = fma(s, zh, -s3) + s * zl;
    /* 2 s^3 / 3 in double-double. */
    double c = GD_TWO3_H * s3;
    double cl = fma(GD_TWO3_H, s3, -c) + (GD_TWO3_L * s3 + GD_TWO3_H * s3l);
    /* The rest of 2 atanh(s): 2 s^5/5 + 2 s^7/7 + ... */
    double q = 0.07407407407407407;
    q = fma(q, zh, 0.08);
    q = fma(q, zh, 0.08695652173913043);
    q = fma(q, zh, 0.09523809523809523);
    q = fma(q, zh, 0.10526315789473684);
    q = fma(q, zh, 0.11764705882352941);
    q = fma(q, zh, 0.13333333333333333);
    q = fma(q, zh, 0.15384615384615385);
    q = fma(q, zh, 0.18181818181818182);
    q = fma(q, zh, 0.2222222222222222);
    q = fma(q, zh, 0.2857142857142857);
    q = fma(q, zh, 0.4);
    double rest = s3 * zh * q;
    double h = 2.0 * s;
    double t = h + c;
    double tl = c - (t - h);
    double lo = tl + (2.0 * sl + cl + rest);
    /* + k ln2 (k ln2_hi exact), two-sum. */
    double kh = (double)k * GD_LN2_HI;
    double u = kh + t;
    double bb = u - kh;
    double ul = (kh - (u - bb)) + (t - bb);
    ul = ul + (lo + (double)k * GD_LN2_LO);
    double rh = u + ul;
    return (double2)(rh, ul - (rh - u));
}

/* NaN, infinity, zero and negative arguments of the logarithms. */
#define GD_LOG_SPECIAL(x)                                                   \
    if (GD_ISNAN(x)) {                                                      \
        return x;                                                           \
    }                                                                       \
    if (x < 0.0) {                                                          \
        return GD_NAN;                                                      \
    }                                                                       \
    if (x == 0.0) {                                                         \
        return -GD_INF;                                                     \
    }                                                                       \
    if (x == GD_INF) {                                                      \
        return x;                                                           \
    }

double __gpusim_log_f64(double x) {
    GD_LOG_SPECIAL(x)
    double2 l = __gpusim_log_dd_f64(x);
    return l.x + l.y;
}

double __gpusim_log2_f64(double x) {
    GD_LOG_SPECIAL(x)
    double2 l = __gpusim_log_dd_f64(x);
    double h = l.x * GD_IL2_H;
    return h + (fma(l.x, GD_IL2_H, -h) + (l.y * GD_IL2_H + l.x * GD_IL2_L));
}

double __gpusim_log10_f64(double x) {
    GD_LOG_SPECIAL(x)
    double2 l = __gpusim_log_dd_f64(x);
    double h = l.x * GD_IL10_H;
    return h + (fma(l.x, GD_IL10_H, -h) + (l.y * GD_IL10_H + l.x * GD_IL10_L));
}

/* ln(1 + x): u = 1 + x rounded, c = the rounding error, ln u + c / u. */
double __gpusim_log1p_f64(double x) {
    if (GD_ISNAN(x)) {
        return x;
    }
    if (x < -1.0) {
        return GD_NAN;
    }
    if (x == -1.0) {
        return -GD_INF;
    }
    if (x == GD_INF) {
        return x;
    }
    if (fabs(x) < GD_POW2(-54)) {
        return x;
    }
    if (x > GD_POW2(53)) {
        double2 lb = __gpusim_log_dd_f64(x);
        return lb.x + lb.y;
    }
    double u = 1.0 + x;
    double c = u > 2.0 ? 1.0 - (u - x) : x - (u - 1.0);
    double2 l = __gpusim_log_dd_f64(u);
    return l.x + (l.y + c / u);
}

/* Whether y is an integer, and an odd one (|y| < 2^53). */
int __gpusim_is_int_f64(double y) {
    return __gpusim_trunc_f64(y) == y;
}

int __gpusim_is_odd_f64(double y) {
    double h = 0.5 * y;
    return fabs(y) < GD_POW2(53) && __gpusim_is_int_f64(y) && __gpusim_trunc_f64(h) != h;
}

/* |x|^y for finite nonzero x and finite y: e^(y ln|x|) in double-double. */
double __gpusim_pow_core_f64(double x, double y) {
    double2 l = __gpusim_log_dd_f64(fabs(x));
    double h = y * l.x;
    double lo = fma(y, l.x, -h) + y * l.y;
    return __gpusim_exp_dd_f64(h, lo);
}

/* C99 Annex F's special cases (OpenCL pow). */
double __gpusim_pow_f64(double x, double y) {
    double ax = fabs(x), ay = fabs(y);
    int yint = __gpusim_is_int_f64(y);
    int yodd = __gpusim_is_odd_f64(y);
    if (y == 0.0 || x == 1.0) {
        return 1.0;
    }
    if (GD_ISNAN(x) || GD_ISNAN(y)) {
        return x + y;
    }
    if (ay == GD_INF) {
        if (ax == 1.0) {
            return 1.0;
        }
        return (ax < 1.0) == (y < 0.0) ? GD_INF : 0.0;
    }
    if (x == 0.0) {
        double r = y < 0.0 ? GD_INF : 0.0;
        return yodd ? __gpusim_copysign_f64(r, x) : r;
    }
    if (ax == GD_INF) {
        double r = y < 0.0 ? 0.0 : GD_INF;
        return yodd && x < 0.0 ? -r : r;
    }
    if (x < 0.0 && !yint) {
        return GD_NAN;
    }
    double r = __gpusim_pow_core_f64(x, y);
    return x < 0.0 && yodd ? -r : r;
}

double __gpusim_pown_f64(double x, int n) {
    return __gpusim_pow_f64(x, (double)n);
}

/* pow for x >= 0 only (the OpenCL table of powr). */
double __gpusim_powr_f64(double x, double y) {
    if (GD_ISNAN(x) || GD_ISNAN(y) || x < 0.0) {
        return GD_NAN;
    }
    if (x == 0.0) {
        return y == 0.0 ? GD_NAN : (y < 0.0 ? GD_INF : 0.0);
    }
    if (x == GD_INF) {
        return y == 0.0 ? GD_NAN : (y < 0.0 ? 0.0 : GD_INF);
    }
    if (x == 1.0) {
        return fabs(y) == GD_INF ? GD_NAN : 1.0;
    }
    if (y == 0.0) {
        return 1.0;
    }
    if (fabs(y) == GD_INF) {
        return (x < 1.0) == (y < 0.0) ? GD_INF : 0.0;
    }
    return __gpusim_pow_core_f64(x, y);
}

/* x^(1/n): ln|x| / n in double-double. */
double __gpusim_rootn_f64(double x, int n) {
    int odd = n & 1;
    if (n == 0 || GD_ISNAN(x) || (x < 0.0 && !odd)) {
        return GD_NAN;
    }
    if (x == 0.0) {
        double r = n < 0 ? GD_INF : 0.0;
        return odd ? __gpusim_copysign_f64(r, x) : r;
    }
    if (fabs(x) == GD_INF) {
        double r = n < 0 ? 0.0 : GD_INF;
        return __gpusim_copysign_f64(r, x);
    }
    double dn = (double)n;
    double2 l = __gpusim_log_dd_f64(fabs(x));
    double q = l.x / dn;
    double ql = (fma(-q, dn, l.x) + l.y) / dn;
    double r = __gpusim_exp_dd_f64(q, ql);
    return __gpusim_copysign_f64(r, x);
}

double __gpusim_cbrt_f64(double x) {
    if (x == 0.0 || !GD_FINITE(x)) {
        return x + x;
    }
    double2 l = __gpusim_log_dd_f64(fabs(x));
    double q = l.x / 3.0;
    double ql = (fma(-q, 3.0, l.x) + l.y) / 3.0;
    return __gpusim_copysign_f64(__gpusim_exp_dd_f64(q, ql), x);
}

/* e^|x| / 2 without early overflow: e^(|x| - ln2) in double-double. */
double __gpusim_exp_half_f64(double ax) {
    double h = ax - GD_LN2;
    double l = ((ax - h) - GD_LN2) - GD_LN2_L;
    return __gpusim_exp_dd_f64(h, l);
}

double __gpusim_sinh_f64(double x) {
    double ax = fabs(x);
    double r;
    if (!(ax < GD_INF) || ax < GD_POW2(-28)) {
        return x;
    }
    if (ax < 22.0) {
        double t = __gpusim_expm1_f64(ax);
        r = 0.5 * (t + t / (t + 1.0));
    } else {
        r = __gpusim_exp_half_f64(ax);
    }
    return __gpusim_copysign_f64(r, x);
}

double __gpusim_cosh_f64(double x) {
    double ax = fabs(x);
    if (GD_ISNAN(x)) {
        return x;
    }
    if (ax < 0.34) {
        double t = __gpusim_expm1_f64(ax);
        return 1.0 + (t * t) / (2.0 * (1.0 + t));
    }
    if (ax < 22.0) {
        double e = __gpusim_exp_f64(ax);
        return 0.5 * e + 0.5 / e;
    }
    return __gpusim_exp_half_f64(ax);
}

double __gpusim_tanh_f64(double x) {
    double ax = fabs(x);
    double r;
    if (GD_ISNAN(x) || ax < GD_POW2(-28)) {
        return x;
    }
    if (ax >= 22.0) {
        r = 1.0;
    } else if (ax >= 1.0) {
        r = 1.0 - 2.0 / (__gpusim_expm1_f64(2.0 * ax) + 2.0);
    } else {
        double t = __gpusim_expm1_f64(-2.0 * ax);
        r = -t / (t + 2.0);
    }
    return __gpusim_copysign_f64(r, x);
}

double __gpusim_asinh_f64(double x) {
    double ax = fabs(x);
    double r;
    if (!(ax < GD_INF) || ax < GD_POW2(-28)) {
        return x;
    }
    if (ax > GD_POW2(28)) {
        r = __gpusim_log_f64(ax) + GD_LN2;
    } else if (ax > 2.0) {
        r = __gpusim_log_f64(2.0 * ax + 1.0 / (__gpusim_sqrt_f64(fma(ax, ax, 1.0)) + ax));
    } else {
        double t = ax * ax;
        r = __gpusim_log1p_f64(ax + t / (1.0 + __gpusim_sqrt_f64(1.0 + t)));
    }
    return __gpusim_copysign_f64(r, x);
}

double __gpusim_acosh_f64(double x) {
    if (GD_ISNAN(x) || x < 1.0) {
        return GD_ISNAN(x) ? x : GD_NAN;
    }
    if (x == GD_INF) {
        return x;
    }
    if (x > GD_POW2(28)) {
        return __gpusim_log_f64(x) + GD_LN2;
    }
    if (x > 2.0) {
        return __gpusim_log_f64(2.0 * x - 1.0 / (x + __gpusim_sqrt_f64(fma(x, x, -1.0))));
    }
    double t = x - 1.0;
    return __gpusim_log1p_f64(t + __gpusim_sqrt_f64(2.0 * t + t * t));
}

double __gpusim_atanh_f64(double x) {
    double ax = fabs(x);
    if (GD_ISNAN(x) || ax > 1.0) {
        return GD_ISNAN(x) ? x : GD_NAN;
    }
    if (ax == 1.0) {
        return __gpusim_copysign_f64(GD_INF, x);
    }
    if (ax < GD_POW2(-28)) {
        return x;
    }
    double r;
    if (ax < 0.5) {
        double t = ax + ax;
        r = 0.5 * __gpusim_log1p_f64(t + t * ax / (1.0 - ax));
    } else {
        r = 0.5 * __gpusim_log1p_f64((ax + ax) / (1.0 - ax));
    }
    return __gpusim_copysign_f64(r, x);
}
