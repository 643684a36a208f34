/*
 * Host reference for tests/builtins_ulp_f64.rs: glibc's long double
 * (x87, 64-bit significand) functions, 11 bits more than double. Reads
 * triples (x, y, got) of doubles on stdin, writes one double per triple:
 * the error of `got` in ULPs of the exact result's double binade
 * (2^-1074 for denormals), 0 when NaN/infinity match, +inf when they do
 * not. argv[1] names the function.
 */
#define _GNU_SOURCE
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The device's double -> int conversion (v_cvt_i32_f64): saturating,
 * NaN to 0, so the integer operand of ldexp/pown/rootn is the same. */
static int to_int(long double y) {
    if (isnan(y)) return 0;
    if (y >= 2147483647.0L) return 2147483647;
    if (y <= -2147483648.0L) return -2147483647 - 1;
    return (int)y;
}

/* sinpi, cospi by exact reductions to [0, 1/2] (a product by pi near
 * an integer argument would lose the result's relative precision). */
static long double sinpi_ref(long double x) {
    long double r = fmodl(fabsl(x), 2.0L), s = signbit(x) ? -1.0L : 1.0L;
    if (isnan(r)) return NAN;
    if (r >= 1.0L) { r -= 1.0L; s = -s; }
    if (r > 0.5L) r = 1.0L - r;
    if (r == 0.0L) return copysignl(0.0L, x);
    return s * sinl(M_PIl * r);
}

static long double cospi_ref(long double x) {
    long double r = fmodl(fabsl(x), 2.0L), s = 1.0L;
    if (isnan(r)) return NAN;
    if (r >= 1.0L) { r -= 1.0L; s = -s; }
    if (r > 0.5L) { r = 1.0L - r; s = -s; }
    if (r == 0.5L) return 0.0L;
    return r > 0.25L ? s * sinl(M_PIl * (0.5L - r)) : s * cosl(M_PIl * r);
}

static long double ref(const char *f, long double x, long double y) {
#define F1(n, e) if (!strcmp(f, n)) return e;
    F1("sqrt", sqrtl(x)) F1("exp", expl(x)) F1("exp2", exp2l(x)) F1("exp10", exp10l(x))
    F1("expm1", expm1l(x)) F1("log", logl(x)) F1("log2", log2l(x)) F1("log10", log10l(x))
    F1("log1p", log1pl(x)) F1("sin", sinl(x)) F1("cos", cosl(x)) F1("tan", tanl(x))
    F1("asin", asinl(x)) F1("acos", acosl(x)) F1("atan", atanl(x)) F1("atan2", atan2l(x, y))
    F1("asinpi", asinl(x) / (long double)M_PIl) F1("acospi", acosl(x) / M_PIl)
    F1("atanpi", atanl(x) / M_PIl) F1("atan2pi", atan2l(x, y) / M_PIl)
    F1("sinh", sinhl(x)) F1("cosh", coshl(x)) F1("tanh", tanhl(x)) F1("asinh", asinhl(x))
    F1("acosh", acoshl(x)) F1("atanh", atanhl(x)) F1("cbrt", cbrtl(x)) F1("sinpi", sinpi_ref(x)) F1("cospi", cospi_ref(x))
    F1("tanpi", sinpi_ref(x) / cospi_ref(x)) F1("rsqrt", 1.0L / sqrtl(x))
    F1("hypot", hypotl(x, y)) F1("fmod", fmodl(x, y)) F1("remainder", remainderl(x, y))
    F1("erf", erfl(x)) F1("erfc", erfcl(x)) F1("tgamma", tgammal(x)) F1("lgamma", lgammal(x)) F1("pow", powl(x, y))
    F1("pown", powl(x, to_int(y))) F1("floor", floorl(x)) F1("ceil", ceill(x)) F1("trunc", truncl(x))
    F1("round", roundl(x)) F1("rint", rintl(x)) F1("fabs", fabsl(x))
    F1("ldexp", ldexpl(x, to_int(y))) F1("logb", logbl(x)) F1("fdim", fdiml(x, y))
    F1("copysign", copysignl(x, y)) F1("fmin", fminl(x, y)) F1("fmax", fmaxl(x, y))
    F1("fma", fmal(x, y, x)) F1("nextafter", (long double)nextafter((double)x, (double)y))
    F1("maxmag", fabsl(x) > fabsl(y) ? x : (fabsl(y) > fabsl(x) ? y : fmaxl(x, y)))
    F1("minmag", fabsl(x) < fabsl(y) ? x : (fabsl(y) < fabsl(x) ? y : fminl(x, y)))
    if (!strcmp(f, "powr")) {
        /* OpenCL's powr table: x < 0, 0^0, inf^0 and 1^inf are NaN. */
        if (isnan(x) || isnan(y) || x < 0 || (x == 0 && y == 0) || (isinf(x) && y == 0) ||
            (x == 1 && isinf(y)))
            return NAN;
        if (x == 0) return y < 0 ? INFINITY : 0.0L;
        return powl(x, y);
    }
    if (!strcmp(f, "rootn")) {
        int n = to_int(y);
        if (n == 0 || (x < 0 && n % 2 == 0)) return NAN;
        long double r = powl(fabsl(x), 1.0L / n);
        /* rootn(-0, even n) is +0 or +inf. */
        return signbit(x) && (n % 2 != 0) ? -r : r;
    }
    fprintf(stderr, "reference: unknown function %s\n", f);
    return NAN;
}

int main(int argc, char **argv) {
    double t[3];
    if (argc < 2) return 2;
    while (fread(t, sizeof t, 1, stdin) == 1) {
        long double want = ref(argv[1], t[0], t[1]);
        double got = t[2], err;
        if (isnan(want) || isnan(got)) {
            err = isnan(want) && isnan(got) ? 0.0 : INFINITY;
        } else if (isinf(got) || fabsl(want) > DBL_MAX) {
            err = (double)want == got ? 0.0 : INFINITY;
        } else {
            /* lgamma has no bound: its error is counted in ULPs of
             * max(|f|, 1) (it has zeros at 1, 2 and between the poles). */
            long double scale = !strcmp(argv[1], "lgamma") && fabsl(want) < 1 ? 1.0L : want;
            int e = scale == 0 ? -1074 : ilogbl(scale);
            e = (e < -1022 ? -1022 : e) - 52;
            err = (double)(fabsl((long double)got - want) / ldexpl(1.0L, e));
        }
        fwrite(&err, sizeof err, 1, stdout);
    }
    return 0;
}
