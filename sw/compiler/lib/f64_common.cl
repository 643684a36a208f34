/*
 * gpusim device library: double precision (cl_khr_fp64), shared constants
 * and the exact functions: bits, rounding, ldexp/frexp/ilogb/logb, sqrt
 * (correctly rounded), fmod/remainder/remquo, modf/fract, copysign,
 * fdim/maxmag/minmag/nextafter, hypot.
 *
 * The double functions use no double hardware instruction beyond add,
 * multiply, fma, divide, compares and conversions: rounding and scaling
 * work on the bits (as_ulong/as_double), so every result is exact where
 * the specification asks for it. Constants are bit patterns (GD_*),
 * generated with mpmath at 80 digits; hi/lo pairs split a constant into
 * its double and the rest, "_HI" forms with 42 bits so a product by an
 * exponent (11 bits) is exact.
 */

#define GD_INF as_double(0x7ff0000000000000ul)
#define GD_NAN as_double(0x7ff8000000000000ul)
#define GD_ISNAN(x) ((x) != (x))
#define GD_FINITE(x) (fabs(x) < GD_INF)
#define GD_SIGN 0x8000000000000000ul
#define GD_MANT 0x000ffffffffffffful
#define GD_EXPF 0x7ff0000000000000ul
/* 2^k for a normal exponent k (-1022..1023). */
#define GD_POW2(k) as_double((ulong)((k) + 1023) << 52)
#define GD_LN2_HI as_double(0x3fe62e42fefa3800ul) /* 0.69314718055989033 */
#define GD_LN2_LO as_double(0x3d2ef35793c76730ul) /* 5.4979230187083712e-14 */
#define GD_LN2 as_double(0x3fe62e42fefa39eful) /* 0.69314718055994529 */
#define GD_LN2_L as_double(0x3c7abc9e3b39803ful) /* 2.3190468138462996e-17 */
#define GD_INVLN2 as_double(0x3ff71547652b82feul) /* 1.4426950408889634 */
#define GD_IL2_H as_double(0x3ff71547652b82feul) /* 1.4426950408889634 */
#define GD_IL2_L as_double(0x3c7777d0ffda0d24ul) /* 2.0355273740931032e-17 */
#define GD_IL10_H as_double(0x3fdbcb7b1526e50eul) /* 0.43429448190325182 */
#define GD_IL10_L as_double(0x3c695355baaafad3ul) /* 1.0983196502167651e-17 */
#define GD_LN10 as_double(0x40026bb1bbb55516ul) /* 2.3025850929940459 */
#define GD_LN10_L as_double(0xbcaf48ad494ea3e9ul) /* -2.1707562233822495e-16 */
#define GD_LOG2_10 as_double(0x400a934f0979a371ul) /* 3.3219280948873623 */
#define GD_LG2_HI as_double(0x3fd34413509f7800ul) /* 0.30102999566395283 */
#define GD_LG2_LO as_double(0x3d1fef311f12b358ul) /* 2.8363394551044964e-14 */
#define GD_TWO3_H as_double(0x3fe5555555555555ul) /* 0.66666666666666663 */
#define GD_TWO3_L as_double(0x3c85555555555555ul) /* 3.7007434154171885e-17 */
#define GD_SQRT2 as_double(0x3ff6a09e667f3bcdul) /* 1.414213562373095 */
#define GD_PIO2_H as_double(0x3ff921fb54442d18ul) /* 1.5707963267948966 */
#define GD_PIO2_M as_double(0x3c91a62633145c07ul) /* 6.123233995736766e-17 */
#define GD_PIO2_L as_double(0xb91f1976b7ed8fbcul) /* -1.4973849048591698e-33 */
#define GD_PI_H as_double(0x400921fb54442d18ul) /* 3.1415926535897931 */
#define GD_PI_L as_double(0x3ca1a62633145c07ul) /* 1.2246467991473532e-16 */
#define GD_PIO4_H as_double(0x3fe921fb54442d18ul) /* 0.78539816339744828 */
#define GD_PIO4_L as_double(0x3c81a62633145c07ul) /* 3.0616169978683829e-17 */
#define GD_IPI_H as_double(0x3fd45f306dc9c883ul) /* 0.31830988618379069 */
#define GD_IPI_L as_double(0xbc76b01ec5417056ul) /* -1.9678676675182487e-17 */
#define GD_2OPI as_double(0x3fe45f306dc9c883ul) /* 0.63661977236758134 */
#define GD_ATAN_HALF_H as_double(0x3fddac670561bb4ful) /* 0.46364760900080609 */
#define GD_ATAN_HALF_L as_double(0x3c7a2b7f222f65e2ul) /* 2.2698777452961687e-17 */
#define GD_ATAN_ONE_H as_double(0x3fe921fb54442d18ul) /* 0.78539816339744828 */
#define GD_ATAN_ONE_L as_double(0x3c81a62633145c07ul) /* 3.0616169978683829e-17 */
#define GD_ATAN_THREEHALF_H as_double(0x3fef730bd281f69bul) /* 0.98279372324732905 */
#define GD_ATAN_THREEHALF_L as_double(0x3c7007887af0cbbdul) /* 1.3903311031230997e-17 */
#define GD_2OSQRTPI as_double(0x3ff20dd750429b6dul) /* 1.1283791670955126 */
#define GD_ISQRTPI as_double(0x3fe20dd750429b6dul) /* 0.56418958354775629 */

/* The biased exponent field of x. */
int __gpusim_expbits_f64(double x) {
    return (int)((as_ulong(x) >> 52) & 0x7fful);
}

double __gpusim_copysign_f64(double x, double y) {
    return as_double((as_ulong(x) & ~GD_SIGN) | (as_ulong(y) & GD_SIGN));
}

/* x 2^n, one rounding (denormal results): the exponent field is set
 * directly, or set 600 higher and the value multiplied by 2^-600. */
double __gpusim_ldexp_f64(double x, int n) {
    if (x == 0.0 || !GD_FINITE(x) || n == 0) {
        return x;
    }
    ulong b = as_ulong(x);
    int e = __gpusim_expbits_f64(x);
    if (e == 0) {
        b = as_ulong(x * GD_POW2(54));
        e = (int)((b >> 52) & 0x7fful) - 54;
    }
    n = n > 2200 ? 2200 : (n < -2200 ? -2200 : n);
    int t = e + n;
    ulong keep = b & ~GD_EXPF;
    if (t > 2046) {
        return as_double((b & GD_SIGN) | GD_EXPF);
    }
    if (t >= 1) {
        return as_double(keep | ((ulong)t << 52));
    }
    if (t < -60) {
        return as_double(b & GD_SIGN);
    }
    return as_double(keep | ((ulong)(t + 600) << 52)) * GD_POW2(-600);
}

/* (mantissa in [0.5, 1), exponent in the low 32 bits). */
double2 __gpusim_frexp_f64(double x) {
    if (x == 0.0 || !GD_FINITE(x)) {
        return (double2)(x, as_double(0ul));
    }
    ulong b = as_ulong(x);
    int e = __gpusim_expbits_f64(x);
    int adj = 0;
    if (e == 0) {
        b = as_ulong(x * GD_POW2(54));
        e = (int)((b >> 52) & 0x7fful);
        adj = 54;
    }
    double m = as_double((b & ~GD_EXPF) | (0x3feul << 52));
    return (double2)(m, as_double((ulong)(uint)(e - 1022 - adj)));
}

int __gpusim_ilogb_f64(double x) {
    if (x == 0.0) {
        return (int)0x80000000u;
    }
    if (!GD_FINITE(x)) {
        return 0x7fffffff;
    }
    int e = __gpusim_expbits_f64(x);
    if (e == 0) {
        return __gpusim_expbits_f64(x * GD_POW2(54)) - 1023 - 54;
    }
    return e - 1023;
}

double __gpusim_logb_f64(double x) {
    if (x == 0.0) {
        return -GD_INF;
    }
    if (!GD_FINITE(x)) {
        return x * x;
    }
    return (double)__gpusim_ilogb_f64(x);
}

double __gpusim_trunc_f64(double x) {
    ulong b = as_ulong(x);
    int e = __gpusim_expbits_f64(x) - 1023;
    if (e >= 52) {
        return x;
    }
    if (e < 0) {
        return as_double(b & GD_SIGN);
    }
    return as_double(b & ~(GD_MANT >> e));
}

double __gpusim_floor_f64(double x) {
    double t = __gpusim_trunc_f64(x);
    return x < t ? t - 1.0 : t;
}

double __gpusim_ceil_f64(double x) {
    double t = __gpusim_trunc_f64(x);
    return x > t ? t + 1.0 : t;
}

/* Ties to even: below 2^52, adding and subtracting 2^52 rounds the
 * fraction away in the current (nearest-even) mode. */
double __gpusim_rint_f64(double x) {
    double a = fabs(x);
    double two52 = GD_POW2(52);
    double r = a < two52 ? (a + two52) - two52 : a;
    return __gpusim_copysign_f64(r, x);
}

/* Halfway cases away from zero. */
double __gpusim_round_f64(double x) {
    double t = __gpusim_trunc_f64(x);
    double d = x - t;
    double r = fabs(d) >= 0.5 ? t + __gpusim_copysign_f64(1.0, x) : t;
    return GD_FINITE(x) ? r : x + x;
}

/* Correctly rounded. x = m 2^2h with m in [1, 4): a float rsqrt seed,
 * two Goldschmidt steps to g ~ sqrt(m), h ~ 1/(2 sqrt(m)), one residual
 * step, then the exact residual r = m - s^2 (fma) against the midpoints
 * s +- ulp/2: s^2, m and s ulp are multiples of ulp^2, so the sign tests
 * r > s ulp+ (round up) and r <= -s ulp- (round down) are exact. */
double __gpusim_sqrt_f64(double x) {
    if (!(x > 0.0) || x == GD_INF) {
        return x == 0.0 || x == GD_INF ? x : GD_NAN;
    }
    ulong b = as_ulong(x);
    int e = __gpusim_expbits_f64(x);
    int adj = 0;
    if (e == 0) {
        b = as_ulong(x * GD_POW2(54));
        e = (int)((b >> 52) & 0x7fful);
        adj = 54;
    }
    int k = e - 1023 - adj;
    int odd = k & 1;
    double m = as_double((b & GD_MANT) | ((ulong)(1023 + odd) << 52));
    int hexp = (k - odd) >> 1;
    double y = (double)__builtin_amdgcn_rsqf((float)m);
    double g = m * y;
    double h = 0.5 * y;
    double r = fma(-g, h, 0.5);
    g = fma(g, r, g);
    h = fma(h, r, h);
    r = fma(-g, h, 0.5);
    g = fma(g, r, g);
    h = fma(h, r, h);
    double d = fma(-g, g, m);
    double s = fma(d, h, g);
    double up = as_double(as_ulong(s) + 1ul) - s;
    double dn = s - as_double(as_ulong(s) - 1ul);
    r = fma(-s, s, m);
    s = r > s * up ? s + up : (r <= -(s * dn) ? s - dn : s);
    return s * GD_POW2(hexp);
}

/* 1 / sqrt(x): two correctly rounded steps (the root lies in
 * [2^-537, 2^512], so the quotient never nears the denormal range). */
double __gpusim_rsqrt_f64(double x) {
    return 1.0 / __gpusim_sqrt_f64(x);
}

/* (|x| mod |y|, the low bits of the integer quotient) for finite x and
 * finite nonzero y with |x| >= |y|: the integer significands, 10 bits of
 * the exponent difference per 64-bit remainder step (exact). */
double2 __gpusim_fmodq_f64(double x, double y) {
    ulong bx = as_ulong(fabs(x)), by = as_ulong(fabs(y));
    int ex = (int)(bx >> 52), ey = (int)(by >> 52);
    ulong mx = (bx & GD_MANT) | (ex != 0 ? 0x0010000000000000ul : 0ul);
    ulong my = (by & GD_MANT) | (ey != 0 ? 0x0010000000000000ul : 0ul);
    ex = ex != 0 ? ex : 1;
    ey = ey != 0 ? ey : 1;
    int d = ex - ey;
    ulong q = mx / my;
    mx = mx % my;
    while (d > 0) {
        int s = d < 10 ? d : 10;
        mx = mx << s;
        q = (q << s) | (mx / my);
        mx = mx % my;
        d -= s;
    }
    /* mx 2^(ey - 1075), exact (a multiple of the smallest denormal). */
    double r = __gpusim_ldexp_f64((double)mx, ey - 1075);
    return (double2)(r, as_double(q & 0xfffffffful));
}

double __gpusim_fmod_f64(double x, double y) {
    double ax = fabs(x), ay = fabs(y);
    if (GD_ISNAN(x) || GD_ISNAN(y) || !GD_FINITE(x) || y == 0.0) {
        return GD_NAN;
    }
    if (ax < ay) {
        return x;
    }
    return __gpusim_copysign_f64(__gpusim_fmodq_f64(x, y).x, x);
}

/* (x - n y with n the nearest integer to x / y, ties to even; n's low
 * bits with the quotient's sign). */
double2 __gpusim_remquo_f64(double x, double y) {
    double ax = fabs(x), ay = fabs(y);
    if (GD_ISNAN(x) || GD_ISNAN(y) || !GD_FINITE(x) || y == 0.0) {
        return (double2)(GD_NAN, as_double(0ul));
    }
    double r = ax;
    uint q = 0u;
    if (ax >= ay && GD_FINITE(ay)) {
        double2 t = __gpusim_fmodq_f64(x, y);
        r = t.x;
        q = (uint)as_ulong(t.y);
    }
    if (GD_FINITE(ay)) {
        /* ay - r is exact when r >= ay / 2 (Sterbenz), larger than r otherwise. */
        double o = ay - r;
        if (r > o || (r == o && (q & 1u) != 0u)) {
            r = r - ay;
            q = q + 1u;
        }
    }
    int n = (int)(q & 0x7fu);
    n = (as_ulong(x) ^ as_ulong(y)) >> 63 ? -n : n;
    double res = as_double(as_ulong(r) ^ (as_ulong(x) & GD_SIGN));
    return (double2)(res, as_double((ulong)(uint)n));
}

double __gpusim_remainder_f64(double x, double y) {
    return __gpusim_remquo_f64(x, y).x;
}

/* (fractional part, integral part), both with x's sign. */
double2 __gpusim_modf_f64(double x) {
    double i = __gpusim_trunc_f64(x);
    double f = GD_FINITE(x) ? x - i : 0.0;
    f = GD_ISNAN(x) ? x : f;
    return (double2)(__gpusim_copysign_f64(f, x), i);
}

/* (fmin(x - floor(x), largest double below 1), floor(x)). */
double2 __gpusim_fract_f64(double x) {
    double fl = __gpusim_floor_f64(x);
    double f = fmin(x - fl, as_double(0x3fefffffffffffful));
    f = GD_FINITE(x) ? f : __gpusim_copysign_f64(0.0, x);
    f = GD_ISNAN(x) ? x : f;
    return (double2)(f, fl);
}

double __gpusim_fdim_f64(double x, double y) {
    double r = x > y ? x - y : 0.0;
    return GD_ISNAN(x) || GD_ISNAN(y) ? GD_NAN : r;
}

double __gpusim_maxmag_f64(double x, double y) {
    double ax = fabs(x), ay = fabs(y);
    return ax > ay ? x : (ay > ax ? y : fmax(x, y));
}

double __gpusim_minmag_f64(double x, double y) {
    double ax = fabs(x), ay = fabs(y);
    return ax < ay ? x : (ay < ax ? y : fmin(x, y));
}

double __gpusim_nextafter_f64(double x, double y) {
    long ix = as_long(x), iy = as_long(y);
    long mn = (long)GD_SIGN;
    /* Sign-magnitude to a monotonic integer order. */
    long ox = ix < 0 ? mn - ix : ix;
    long oy = iy < 0 ? mn - iy : iy;
    long o = ox < oy ? ox + 1 : ox - 1;
    long r = o < 0 ? mn - o : o;
    double f = ox == oy ? y : as_double(r);
    return GD_ISNAN(x) || GD_ISNAN(y) ? x + y : f;
}

/* Both scaled by the larger one's binade; the sum of squares with one
 * rounding (fma) before a correctly rounded root. */
double __gpusim_hypot_f64(double x, double y) {
    double ax = fabs(x), ay = fabs(y);
    double a = fmax(ax, ay), b = fmin(ax, ay);
    if (ax == GD_INF || ay == GD_INF) {
        return GD_INF;
    }
    if (GD_ISNAN(x) || GD_ISNAN(y)) {
        return x + y;
    }
    if (b == 0.0) {
        return a;
    }
    int e = __gpusim_ilogb_f64(a);
    a = __gpusim_ldexp_f64(a, -e);
    b = __gpusim_ldexp_f64(b, -e);
    return __gpusim_ldexp_f64(__gpusim_sqrt_f64(fma(a, a, b * b)), e);
}
