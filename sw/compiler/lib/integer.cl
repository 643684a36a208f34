/*
 * gpusim device library: integer functions for every integer type, one
 * macro instantiation per type (names end in _i8, _u8, ..., _u64). The
 * 32-bit forms the lowering emits directly (clz, popcount, mul_hi, ...)
 * are not here.
 */

#define GS_INT_ALL(T, UT, S, BITS, MINV, MAXV) \
    UT __gpusim_abs_diff_##S(T a, T b) { return a > b ? (UT)a - (UT)b : (UT)b - (UT)a; } \
    T __gpusim_add_sat_##S(T a, T b) { \
        T r = (T)((UT)a + (UT)b); \
        return GS_ADD_OVF_##S(a, b, r) ? (a < (T)0 ? MINV : MAXV) : r; \
    } \
    T __gpusim_sub_sat_##S(T a, T b) { \
        T r = (T)((UT)a - (UT)b); \
        return GS_SUB_OVF_##S(a, b, r) ? (GS_SUB_LOW_##S(a, b) ? MINV : MAXV) : r; \
    } \
    T __gpusim_hadd_##S(T a, T b) { return (T)((a >> 1) + (b >> 1) + (a & b & (T)1)); } \
    T __gpusim_rhadd_##S(T a, T b) { return (T)((a >> 1) + (b >> 1) + ((a | b) & (T)1)); } \
    T __gpusim_clamp_##S(T x, T lo, T hi) { T m = x > lo ? x : lo; return m < hi ? m : hi; } \
    T __gpusim_max_##S(T a, T b) { return a > b ? a : b; } \
    T __gpusim_min_##S(T a, T b) { return a < b ? a : b; } \
    T __gpusim_rotate_##S(T v, T n) { \
        UT x = (UT)v; uint k = (uint)n & (BITS - 1); \
        return (T)(UT)((UT)(x << k) | (UT)(x >> ((BITS - k) & (BITS - 1)))); \
    } \
    T __gpusim_mad_hi_##S(T a, T b, T c) { return __gpusim_mul_hi_##S(a, b) + c; }

/* Signed overflow: operands of one sign, result of the other. */
#define GS_SADD_OVF(a, b, r) ((((a) ^ (r)) & ((b) ^ (r))) < 0)
#define GS_SSUB_OVF(a, b, r) ((((a) ^ (b)) & ((a) ^ (r))) < 0)
#define GS_UADD_OVF(a, b, r) ((r) < (a))
#define GS_USUB_OVF(a, b, r) ((a) < (b))

/* Narrow types: abs, clz, ctz, popcount, mul_hi, abs through int. */
/* WT: a type holding a * b + c exactly (int, or uint for ushort). */
#define GS_INT_NARROW(T, UT, S, BITS, WT) \
    UT __gpusim_abs_##S(T x) { return (UT)(x < (T)0 ? -x : x); } \
    T __gpusim_clz_##S(T x) { return (T)(clz((uint)(UT)x) - (32 - BITS)); } \
    T __gpusim_ctz_##S(T x) { uint c = ctz((uint)(UT)x); return (T)(c > BITS ? BITS : c); } \
    T __gpusim_popcount_##S(T x) { return (T)popcount((uint)(UT)x); } \
    T __gpusim_mul_hi_##S(T a, T b) { return (T)(((int)a * (int)b) >> BITS); } \
    T __gpusim_mad_sat_##S(T a, T b, T c) { \
        WT r = (WT)a * (WT)b + (WT)c; \
        return (T)(r < (WT)GS_MIN_##S ? (WT)GS_MIN_##S : (r > (WT)GS_MAX_##S ? (WT)GS_MAX_##S : r)); \
    }

#define GS_ADD_OVF_i8 GS_SADD_OVF
#define GS_ADD_OVF_i16 GS_SADD_OVF
#define GS_ADD_OVF_i32 GS_SADD_OVF
#define GS_ADD_OVF_i64 GS_SADD_OVF
#define GS_ADD_OVF_u8 GS_UADD_OVF
#define GS_ADD_OVF_u16 GS_UADD_OVF
#define GS_ADD_OVF_u32 GS_UADD_OVF
#define GS_ADD_OVF_u64 GS_UADD_OVF
#define GS_SUB_OVF_i8 GS_SSUB_OVF
#define GS_SUB_OVF_i16 GS_SSUB_OVF
#define GS_SUB_OVF_i32 GS_SSUB_OVF
#define GS_SUB_OVF_i64 GS_SSUB_OVF
#define GS_SUB_OVF_u8 GS_USUB_OVF
#define GS_SUB_OVF_u16 GS_USUB_OVF
#define GS_SUB_OVF_u32 GS_USUB_OVF
#define GS_SUB_OVF_u64 GS_USUB_OVF
/* Which way a saturated subtraction goes: signed a < 0 (overflow past the
 * minimum), unsigned always to 0. */
#define GS_SUB_LOW_i8(a, b) ((a) < 0)
#define GS_SUB_LOW_i16(a, b) ((a) < 0)
#define GS_SUB_LOW_i32(a, b) ((a) < 0)
#define GS_SUB_LOW_i64(a, b) ((a) < 0)
#define GS_SUB_LOW_u8(a, b) 1
#define GS_SUB_LOW_u16(a, b) 1
#define GS_SUB_LOW_u32(a, b) 1
#define GS_SUB_LOW_u64(a, b) 1
#define GS_MIN_i8 ((char)-128)
#define GS_MAX_i8 ((char)127)
#define GS_MIN_u8 ((uchar)0)
#define GS_MAX_u8 ((uchar)255)
#define GS_MIN_i16 ((short)-32768)
#define GS_MAX_i16 ((short)32767)
#define GS_MIN_u16 ((ushort)0)
#define GS_MAX_u16 ((ushort)65535)
#define GS_MIN_i32 ((int)0x80000000u)
#define GS_MAX_i32 0x7fffffff
#define GS_MIN_u32 0u
#define GS_MAX_u32 0xffffffffu
#define GS_MIN_i64 ((long)0x8000000000000000ul)
#define GS_MAX_i64 0x7fffffffffffffffl
#define GS_MIN_u64 0ul
#define GS_MAX_u64 0xfffffffffffffffful

GS_INT_NARROW(char, uchar, i8, 8, int)
GS_INT_NARROW(uchar, uchar, u8, 8, int)
GS_INT_NARROW(short, ushort, i16, 16, int)
GS_INT_NARROW(ushort, ushort, u16, 16, uint)
GS_INT_ALL(char, uchar, i8, 8, GS_MIN_i8, GS_MAX_i8)
GS_INT_ALL(uchar, uchar, u8, 8, GS_MIN_u8, GS_MAX_u8)
GS_INT_ALL(short, ushort, i16, 16, GS_MIN_i16, GS_MAX_i16)
GS_INT_ALL(ushort, ushort, u16, 16, GS_MIN_u16, GS_MAX_u16)

/* 32 bits: mul_hi, clz, ... are instructions; mad_sat through long. */
int __gpusim_mul_hi_i32(int a, int b) { return mul_hi(a, b); }
uint __gpusim_mul_hi_u32(uint a, uint b) { return mul_hi(a, b); }
int __gpusim_mad_sat_i32(int a, int b, int c) {
    long r = (long)a * (long)b + (long)c;
    return r < -2147483648l ? (int)0x80000000u : (r > 2147483647l ? 0x7fffffff : (int)r);
}
uint __gpusim_mad_sat_u32(uint a, uint b, uint c) {
    ulong r = (ulong)a * (ulong)b + (ulong)c;
    return r > 0xfffffffful ? 0xffffffffu : (uint)r;
}
uint __gpusim_mul24_u32(uint a, uint b) { return (a & 0xffffffu) * (b & 0xffffffu); }
uint __gpusim_mad24_u32(uint a, uint b, uint c) { return (a & 0xffffffu) * (b & 0xffffffu) + c; }
GS_INT_ALL(int, uint, i32, 32, GS_MIN_i32, GS_MAX_i32)
GS_INT_ALL(uint, uint, u32, 32, GS_MIN_u32, GS_MAX_u32)

/* 64 bits from 32-bit halves. */
ulong __gpusim_abs_i64(long x) { return (ulong)(x < 0l ? -x : x); }
ulong __gpusim_abs_u64(ulong x) { return x; }
#define GS_INT64(T, S) \
    T __gpusim_clz_##S(T x) { \
        uint h = (uint)((ulong)x >> 32), l = (uint)x; \
        return (T)(h != 0u ? clz(h) : 32u + clz(l)); \
    } \
    T __gpusim_ctz_##S(T x) { \
        uint h = (uint)((ulong)x >> 32), l = (uint)x; \
        return (T)(l != 0u ? ctz(l) : 32u + ctz(h)); \
    } \
    T __gpusim_popcount_##S(T x) { \
        return (T)(popcount((uint)((ulong)x >> 32)) + popcount((uint)x)); \
    }
GS_INT64(long, i64)
GS_INT64(ulong, u64)
/* The high 64 bits of the 128-bit product, from four 32x32 products. */
ulong __gpusim_mul_hi_u64(ulong a, ulong b) {
    uint a0 = (uint)a, a1 = (uint)(a >> 32), b0 = (uint)b, b1 = (uint)(b >> 32);
    ulong p00 = (ulong)a0 * b0, p01 = (ulong)a0 * b1, p10 = (ulong)a1 * b0, p11 = (ulong)a1 * b1;
    ulong mid = (p00 >> 32) + (ulong)(uint)p01 + (ulong)(uint)p10;
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}
long __gpusim_mul_hi_i64(long a, long b) {
    ulong h = __gpusim_mul_hi_u64((ulong)a, (ulong)b);
    h = h - (a < 0l ? (ulong)b : 0ul) - (b < 0l ? (ulong)a : 0ul);
    return (long)h;
}
/* mad_sat on 64 bits: the 128-bit product as (mul_hi, a * b), plus c with
 * its carry, saturated when the high half is not the low half's sign. */
ulong __gpusim_mad_sat_u64(ulong a, ulong b, ulong c) {
    ulong lo = a * b + c;
    bool carry = lo < a * b;
    return (__gpusim_mul_hi_u64(a, b) != 0ul || carry) ? 0xfffffffffffffffful : lo;
}
long __gpusim_mad_sat_i64(long a, long b, long c) {
    ulong p = (ulong)a * (ulong)b;
    ulong lo = p + (ulong)c;
    long hi = __gpusim_mul_hi_i64(a, b) + (c < 0l ? -1l : 0l) + (lo < p ? 1l : 0l);
    if (hi == ((long)lo >> 63))
        return (long)lo;
    return hi < 0l ? (-0x7fffffffffffffffl - 1l) : 0x7fffffffffffffffl;
}
GS_INT_ALL(long, ulong, i64, 64, GS_MIN_i64, GS_MAX_i64)
GS_INT_ALL(ulong, ulong, u64, 64, GS_MIN_u64, GS_MAX_u64)

short __gpusim_upsample_i8(char hi, uchar lo) { return (short)(((short)hi << 8) | (short)lo); }
ushort __gpusim_upsample_u8(uchar hi, uchar lo) { return (ushort)(((ushort)hi << 8) | (ushort)lo); }
int __gpusim_upsample_i16(short hi, ushort lo) { return ((int)hi << 16) | (int)lo; }
uint __gpusim_upsample_u16(ushort hi, ushort lo) { return ((uint)hi << 16) | (uint)lo; }
long __gpusim_upsample_i32(int hi, uint lo) { return ((long)hi << 32) | (long)lo; }
ulong __gpusim_upsample_u32(uint hi, uint lo) { return ((ulong)hi << 32) | (ulong)lo; }
