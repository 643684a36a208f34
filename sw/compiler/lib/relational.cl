/*
 * gpusim device library: common and relational functions, per component.
 * Relational functions return 1/0 here; the lowering turns a vector
 * form's 1 into -1 (OpenCL's vector truth). Names end in the element type
 * (_f32, _i32, ...), the way sema looks them up.
 */

float __gpusim_clamp_f32(float x, float lo, float hi) { return fmin(fmax(x, lo), hi); }
float __gpusim_mix_f32(float x, float y, float a) { return fma(y - x, a, x); }
float __gpusim_step_f32(float edge, float x) { return x < edge ? 0.0f : 1.0f; }
float __gpusim_smoothstep_f32(float e0, float e1, float x) {
    float t = __gpusim_clamp_f32(__gpusim_div_f32(x - e0, e1 - e0), 0.0f, 1.0f);
    return t * t * fma(-2.0f, t, 3.0f);
}
float __gpusim_sign_f32(float x) {
    float r = x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : copysign(0.0f, x));
    return GS_ISNAN(x) ? 0.0f : r;
}
float __gpusim_degrees_f32(float r) { return r * as_float(0x42652ee1u); }
float __gpusim_radians_f32(float d) { return d * as_float(0x3c8efa35u); }

int __gpusim_isequal_f32(float x, float y) { return x == y; }
int __gpusim_isnotequal_f32(float x, float y) { return x != y; }
int __gpusim_isgreater_f32(float x, float y) { return x > y; }
int __gpusim_isgreaterequal_f32(float x, float y) { return x >= y; }
int __gpusim_isless_f32(float x, float y) { return x < y; }
int __gpusim_islessequal_f32(float x, float y) { return x <= y; }
int __gpusim_islessgreater_f32(float x, float y) { return x < y || x > y; }
int __gpusim_isordered_f32(float x, float y) { return x == x && y == y; }
int __gpusim_isunordered_f32(float x, float y) { return x != x || y != y; }
int __gpusim_isnan_f32(float x) { return x != x; }
int __gpusim_isinf_f32(float x) { return fabs(x) == GS_INF; }
int __gpusim_isfinite_f32(float x) { return fabs(x) < GS_INF; }
int __gpusim_isnormal_f32(float x) { return fabs(x) < GS_INF && fabs(x) >= as_float(0x00800000u); }
int __gpusim_signbit_f32(float x) { return as_int(x) < 0; }

/* bitselect: each bit from b where c's is set, else from a. */
#define GS_BITSELECT(T, S, U) \
    T __gpusim_bitselect_##S(T a, T b, T c) { return as_##T((as_##U(a) & ~as_##U(c)) | (as_##U(b) & as_##U(c))); }
GS_BITSELECT(float, f32, uint)
#define GS_BITSELECT_INT(T, S) T __gpusim_bitselect_##S(T a, T b, T c) { return (a & ~c) | (b & c); }
GS_BITSELECT_INT(char, i8)
GS_BITSELECT_INT(uchar, u8)
GS_BITSELECT_INT(short, i16)
GS_BITSELECT_INT(ushort, u16)
GS_BITSELECT_INT(int, i32)
GS_BITSELECT_INT(uint, u32)
GS_BITSELECT_INT(long, i64)
GS_BITSELECT_INT(ulong, u64)
