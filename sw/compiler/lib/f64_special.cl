/*
 * gpusim device library: tgamma, lgamma and lgamma_r on double.
 *
 * ln Gamma(z) for z >= 20 by Stirling's series (z - 1/2) ln z - z +
 * ln(2 pi)/2 + sum of B2k / (2k (2k-1) z^(2k-1)) to k = 8 (the next term
 * is below 2^-70 from z = 20 on), everything but the series in
 * double-double (ln z from log_dd, about 2^-100 relative); a smaller x is
 * shifted up, z = x + n kept as a hi/lo pair, and the shift product
 * x (x+1) ... (x+n-1) as a hi/lo pair too, its ln subtracted. The
 * result ln Gamma(x) carries about 2^-90 absolute error, so tgamma =
 * e^(ln Gamma) (exp_dd) keeps the exponential's own rounding. Negative x
 * by reflection: |Gamma(x)| = pi / (|sinpi(x)| t Gamma(t)), t = -x, its
 * logarithm in double-double too (sinpi's own 1 ULP is the largest
 * error), the sign that of sinpi(x).
 */

/* Stirling's coefficients B2k / (2k (2k-1)), k = 1..8. */
#define GD_ST1 as_double(0x3fb5555555555555ul) /* 1/12 */
#define GD_ST2 as_double(0xbf66c16c16c16c17ul) /* -1/360 */
#define GD_ST3 as_double(0x3f4a01a01a01a01aul) /* 1/1260 */
#define GD_ST4 as_double(0xbf43813813813814ul) /* -1/1680 */
#define GD_ST5 as_double(0x3f4b951e2b18ff23ul) /* 1/1188 */
#define GD_ST6 as_double(0xbf5f6ab0d9993c7dul) /* -691/360360 */
#define GD_ST7 as_double(0x3f7a41a41a41a41aul) /* 1/156 */
#define GD_ST8 as_double(0xbf9e4286cb0f5398ul) /* -3617/122400 */
/* ln(2 pi) / 2 as hi + lo. */
#define GD_LN2PI2_H as_double(0x3fed67f1c864beb5ul) /* 0.91893853320467278 */
#define GD_LN2PI2_L as_double(0xbc865b5a1b7ff5dful) /* -3.8782941580672414e-17 */
/* ln pi as hi + lo. */
#define GD_LNPI_H as_double(0x3ff250d048e7a1bdul) /* 1.1447298858494002 */
#define GD_LNPI_L as_double(0x3c67abf2ad8d5088ul) /* 1.0265951162707826e-17 */

/* ln Gamma(x) as (hi, lo) for finite x > 0. */
double2 __gpusim_lgamma_dd_f64(double x) {
    if (x > GD_POW2(1000)) {
        /* (x - 1/2) ln x - x to double precision, overflowing to inf
         * from about 2.55e305 on. */
        double lnx = __gpusim_log_dd_f64(x).x;
        return (double2)(x * (lnx - 1.0), 0.0);
    }
    double zh = x, zl = 0.0, ph = 1.0, pl = 0.0;
    int shifted = 0;
    while (zh < 20.0) {
        /* (ph, pl) *= (zh, zl), then z += 1 exactly as a pair. */
        double nh = ph * zh;
        pl = fma(ph, zh, -nh) + (ph * zl + pl * zh);
        ph = nh;
        double s = zh + 1.0;
        double bb = s - zh;
        zl = zl + ((zh - (s - bb)) + (1.0 - bb));
        zh = s;
        shifted = 1;
    }
    double2 ln = __gpusim_log_dd_f64(zh);
    double lnl = ln.y + zl / zh;
    double a = zh - 0.5; /* exact below 2^52; beyond, the result overflows or is huge */
    double th = a * ln.x;
    double tl = fma(a, ln.x, -th) + (a * lnl + zl * ln.x);
    /* (th + tl) - z, two-sum. */
    double s = th - zh;
    double bb = s - th;
    double lo = ((th - (s - bb)) + (-zh - bb)) + (tl - zl);
    double r = 1.0 / zh;
    double r2 = r * r;
    double series = GD_ST8;
    series = fma(series, r2, GD_ST7);
    series = fma(series, r2, GD_ST6);
    series = fma(series, r2, GD_ST5);
    series = fma(series, r2, GD_ST4);
    series = fma(series, r2, GD_ST3);
    series = fma(series, r2, GD_ST2);
    series = fma(series, r2, GD_ST1);
    lo = lo + (series * r + GD_LN2PI2_L);
    double hs = s + GD_LN2PI2_H;
    double b2 = hs - s;
    lo = lo + ((s - (hs - b2)) + (GD_LN2PI2_H - b2));
    double h = hs + lo;
    lo = lo - (h - hs);
    if (shifted) {
        /* - ln(ph + pl), two-sum. */
        double2 lp = __gpusim_log_dd_f64(ph);
        double lpl = lp.y + pl / ph;
        double d = h - lp.x;
        double b3 = d - h;
        lo = ((h - (d - b3)) + (-lp.x - b3)) + (lo - lpl);
        h = d + lo;
        lo = lo - (h - d);
    }
    return (double2)(h, lo);
}

/* ln |Gamma(x)| as (hi, lo) for finite non-integer x < 0:
 * ln pi - ln |sinpi(x)| - ln t - ln Gamma(t), t = -x. */
double2 __gpusim_lgamma_neg_dd_f64(double x, double sp) {
    double t = -x;
    double2 g = __gpusim_lgamma_dd_f64(t);
    double2 l1 = __gpusim_log_dd_f64(fabs(sp));
    double2 l2 = __gpusim_log_dd_f64(t);
    /* ln pi - l1 - l2 - g in double-double (two-sums of the high parts). */
    double h = GD_LNPI_H, lo = GD_LNPI_L - l1.y - l2.y - g.y;
    double s = h - l1.x;
    double bb = s - h;
    lo = lo + ((h - (s - bb)) + (-l1.x - bb));
    h = s;
    s = h - l2.x;
    bb = s - h;
    lo = lo + ((h - (s - bb)) + (-l2.x - bb));
    h = s;
    s = h - g.x;
    bb = s - h;
    lo = lo + ((h - (s - bb)) + (-g.x - bb));
    h = s;
    double r = h + lo;
    return (double2)(r, lo - (r - h));
}

double __gpusim_tgamma_f64(double x) {
    if (GD_ISNAN(x))
        return x;
    if (x == 0.0)
        return __gpusim_copysign_f64(GD_INF, x);
    if (x < 0.0 && (__gpusim_rint_f64(x) == x || x == -GD_INF))
        return GD_NAN;
    if (x > 171.7)
        return GD_INF;
    /* Below 2^-54, Gamma(-t) = -(1/t + gamma + ...) is -Gamma(t) within
     * 2^-53 relative (sinpi(x) would be near the denormals). */
    if (x > 0.0 || x > -GD_POW2(-54)) {
        double2 g = __gpusim_lgamma_dd_f64(fabs(x));
        return __gpusim_copysign_f64(__gpusim_exp_dd_f64(g.x, g.y), x);
    }
    double sp = __gpusim_sinpi_f64(x);
    double2 l = __gpusim_lgamma_neg_dd_f64(x, sp);
    return __gpusim_copysign_f64(__gpusim_exp_dd_f64(l.x, l.y), sp);
}

/* (ln |Gamma(x)|, sign of Gamma(x) as an int in the low bits). */
double2 __gpusim_lgamma_r_f64(double x) {
    double r;
    long sign = 1;
    if (GD_ISNAN(x)) {
        r = x;
    } else if (fabs(x) == GD_INF || (x <= 0.0 && __gpusim_rint_f64(x) == x)) {
        r = GD_INF;
        sign = x == 0.0 && as_long(x) < 0 ? -1 : 1;
    } else if (x > 0.0 || x > -GD_POW2(-54)) {
        /* ln |Gamma(-t)| = ln |Gamma(t)| + O(t) below 2^-54 (as tgamma). */
        double2 g = __gpusim_lgamma_dd_f64(fabs(x));
        r = g.x + g.y;
        sign = x < 0.0 ? -1 : 1;
    } else {
        double sp = __gpusim_sinpi_f64(x);
        double2 l = __gpusim_lgamma_neg_dd_f64(x, sp);
        r = l.x + l.y;
        sign = sp < 0.0 ? -1 : 1;
    }
    return (double2)(r, as_double(sign));
}

double __gpusim_lgamma_f64(double x) { return __gpusim_lgamma_r_f64(x).x; }
