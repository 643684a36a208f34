/*
 * gpusim device library: common, relational and geometric functions on
 * double (per component; geometric ones on double..double4 as whole
 * vectors). Relational functions return 1/0 as the float ones do.
 */

double __gpusim_clamp_f64(double x, double lo, double hi) { return fmin(fmax(x, lo), hi); }
double __gpusim_mix_f64(double x, double y, double a) { return fma(y - x, a, x); }
double __gpusim_step_f64(double edge, double x) { return x < edge ? 0.0 : 1.0; }
double __gpusim_smoothstep_f64(double e0, double e1, double x) {
    double t = __gpusim_clamp_f64((x - e0) / (e1 - e0), 0.0, 1.0);
    return t * t * fma(-2.0, t, 3.0);
}
double __gpusim_sign_f64(double x) {
    double r = x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : __gpusim_copysign_f64(0.0, x));
    return GD_ISNAN(x) ? 0.0 : r;
}
double __gpusim_degrees_f64(double r) { return r * as_double(0x404ca5dc1a63c1f8ul); }
double __gpusim_radians_f64(double d) { return d * as_double(0x3f91df46a2529d39ul); }

int __gpusim_isequal_f64(double x, double y) { return x == y; }
int __gpusim_isnotequal_f64(double x, double y) { return x != y; }
int __gpusim_isgreater_f64(double x, double y) { return x > y; }
int __gpusim_isgreaterequal_f64(double x, double y) { return x >= y; }
int __gpusim_isless_f64(double x, double y) { return x < y; }
int __gpusim_islessequal_f64(double x, double y) { return x <= y; }
int __gpusim_islessgreater_f64(double x, double y) { return x < y || x > y; }
int __gpusim_isordered_f64(double x, double y) { return x == x && y == y; }
int __gpusim_isunordered_f64(double x, double y) { return x != x || y != y; }
int __gpusim_isnan_f64(double x) { return x != x; }
int __gpusim_isinf_f64(double x) { return fabs(x) == GD_INF; }
int __gpusim_isfinite_f64(double x) { return fabs(x) < GD_INF; }
int __gpusim_isnormal_f64(double x) { return fabs(x) < GD_INF && fabs(x) >= GD_POW2(-1022); }
int __gpusim_signbit_f64(double x) { return as_long(x) < 0; }
double __gpusim_bitselect_f64(double a, double b, double c) {
    return as_double((as_ulong(a) & ~as_ulong(c)) | (as_ulong(b) & as_ulong(c)));
}

/* Geometric: the sum of squares rescaled by 2^-600 / 2^600 when it would
 * overflow or lose precision to underflow. */
#define GD_GEO(N, S, VT) \
    double __gpusim_dot_##S(VT a, VT b) { return GD_DOT_##N(a, b); } \
    double __gpusim_length_##S(VT v) { \
        double d = GD_DOT_##N(v, v); \
        double sc = d == GD_INF ? GD_POW2(-600) : (d < GD_POW2(-900) ? GD_POW2(600) : 1.0); \
        VT w = v * sc; \
        double r = __gpusim_sqrt_f64(GD_DOT_##N(w, w)) / sc; \
        r = d == 0.0 ? 0.0 : r; \
        return GD_ISINF_ANY_##N(v) ? GD_INF : r; \
    } \
    double __gpusim_distance_##S(VT a, VT b) { return __gpusim_length_##S(a - b); } \
    VT __gpusim_normalize_##S(VT v) { \
        double d = GD_DOT_##N(v, v); \
        double sc = d == GD_INF ? GD_POW2(-600) : (d < GD_POW2(-900) ? GD_POW2(600) : 1.0); \
        VT w = v * sc; \
        VT r = w * __gpusim_rsqrt_f64(GD_DOT_##N(w, w)); \
        return d == 0.0 ? v : r; \
    }

#define GD_DOT_1(a, b) ((a) * (b))
#define GD_DOT_2(a, b) fma((a).y, (b).y, (a).x * (b).x)
#define GD_DOT_3(a, b) fma((a).z, (b).z, fma((a).y, (b).y, (a).x * (b).x))
#define GD_DOT_4(a, b) fma((a).w, (b).w, fma((a).z, (b).z, fma((a).y, (b).y, (a).x * (b).x)))
#define GD_ISINF_ANY_1(v) (fabs(v) == GD_INF)
#define GD_ISINF_ANY_2(v) (fabs((v).x) == GD_INF || fabs((v).y) == GD_INF)
#define GD_ISINF_ANY_3(v) (GD_ISINF_ANY_2(v) || fabs((v).z) == GD_INF)
#define GD_ISINF_ANY_4(v) (GD_ISINF_ANY_3(v) || fabs((v).w) == GD_INF)

GD_GEO(1, f64, double)
GD_GEO(2, f64v2, double2)
GD_GEO(3, f64v3, double3)
GD_GEO(4, f64v4, double4)
