/*
 * gpusim device library: the half <-> float conversions of vload_half and
 * vstore_half (OpenCL 1.2 §6.12.7), on the halves' bits (a ushort), in
 * integer arithmetic so every rounding mode is exact whatever the FP mode.
 *
 * vload_half: exact (every half is a float). A NaN keeps its sign and
 * payload (shifted into the float's top mantissa bits) and is made quiet,
 * as v_cvt_f32_f16 does.
 *
 * vstore_half_{rte,rtz,rtp,rtn}: the float rounded to a half in that mode
 * (plain vstore_half is _rte, the default rounding mode). A NaN becomes a
 * quiet NaN with the sign and the top 9 payload bits; overflow gives inf
 * or the largest finite half (65504) as the mode says; results below the
 * smallest normal are half denormals (no flushing).
 */

float __gpusim_vload_half_f32(ushort h) {
    uint s = ((uint)h & 0x8000u) << 16;
    uint e = ((uint)h >> 10) & 0x1fu;
    uint m = (uint)h & 0x3ffu;
    if (e == 0x1fu)
        return as_float(s | (m != 0u ? 0x7fc00000u : 0x7f800000u) | (m << 13));
    if (e == 0u)
        /* A denormal or zero: m * 2^-24 (0x33800000), exact in a float. */
        return as_float(s | as_uint((float)m * as_float(0x33800000u)));
    return as_float(s | ((e + 112u) << 23) | (m << 13));
}

/* The half of `f` rounded by `mode`: 0 to nearest even, 1 toward zero,
 * 2 toward +inf, 3 toward -inf. */
ushort __gpusim_half_round(float f, uint mode) {
    uint u = as_uint(f);
    uint sign = (u >> 16) & 0x8000u;
    uint a = u & 0x7fffffffu;
    bool neg = sign != 0u;
    /* Does rounding a magnitude go up (away from zero) for an inexact result? */
    bool up_dir = (mode == 2u && !neg) || (mode == 3u && neg);
    if (a > 0x7f800000u)
        return (ushort)(sign | 0x7e00u | ((a >> 13) & 0x3ffu));
    if (a == 0x7f800000u)
        return (ushort)(sign | 0x7c00u);
    int e = (int)(a >> 23) - 127;
    if (e > 15)
        /* Beyond 65504 + half an ULP in every mode. */
        return (ushort)(sign | ((mode == 0u || up_dir) ? 0x7c00u : 0x7bffu));
    /* The significand with its implicit bit (a float denormal has none,
     * and is far below the smallest half denormal). */
    uint m = (a >> 23) == 0u ? a : ((a & 0x7fffffu) | 0x800000u);
    /* Bits dropped: 13 into a normal half, more into a denormal. */
    int drop = e < -14 ? -1 - e : 13;
    uint q, rem, halfway;
    if (drop > 31) {
        q = 0u;
        rem = m;
        halfway = 0xffffffffu; /* m < 2^24: never reached, below half */
    } else {
        q = m >> drop;
        rem = m & ((1u << drop) - 1u);
        halfway = 1u << (drop - 1);
    }
    uint h = (e < -14 ? 0u : (uint)(e + 14) << 10) + q;
    bool inc;
    if (mode == 0u)
        inc = rem > halfway || (rem == halfway && (q & 1u) != 0u);
    else
        inc = rem != 0u && up_dir;
    /* A carry moves into the exponent (up to inf), as it should. */
    return (ushort)(sign | (h + (inc ? 1u : 0u)));
}

ushort __gpusim_vstore_half_rte_f32(float f) { return __gpusim_half_round(f, 0u); }
ushort __gpusim_vstore_half_rtz_f32(float f) { return __gpusim_half_round(f, 1u); }
ushort __gpusim_vstore_half_rtp_f32(float f) { return __gpusim_half_round(f, 2u); }
ushort __gpusim_vstore_half_rtn_f32(float f) { return __gpusim_half_round(f, 3u); }

/* The half of double `d` rounded by `mode`, in one step (rounding to float
 * first would round twice): the same integer rounding on the double's
 * 53-bit significand. */
ushort __gpusim_half_round_f64(double d, uint mode) {
    ulong u = as_ulong(d);
    uint sign = (uint)(u >> 48) & 0x8000u;
    ulong a = u & 0x7fffffffffffffffUL;
    bool neg = sign != 0u;
    bool up_dir = (mode == 2u && !neg) || (mode == 3u && neg);
    if (a > 0x7ff0000000000000UL)
        return (ushort)(sign | 0x7e00u | (uint)((a >> 42) & 0x3ffUL));
    if (a == 0x7ff0000000000000UL)
        return (ushort)(sign | 0x7c00u);
    int e = (int)(a >> 52) - 1023;
    if (e > 15)
        return (ushort)(sign | ((mode == 0u || up_dir) ? 0x7c00u : 0x7bffu));
    /* A double denormal (e = -1023) is far below the smallest half denormal. */
    ulong m = (a >> 52) == 0UL ? a : ((a & 0xfffffffffffffUL) | 0x10000000000000UL);
    /* Bits dropped: 42 into a normal half, more into a denormal (its
     * ULP is 2^-24: m 2^(e-52) / 2^-24). */
    int drop = e < -14 ? 28 - e : 42;
    ulong q, rem, halfway;
    if (drop > 63) {
        q = 0UL;
        rem = m;
        halfway = 0xffffffffffffffffUL; /* m < 2^53: below half an ULP */
    } else {
        q = m >> drop;
        rem = m & ((1UL << drop) - 1UL);
        halfway = 1UL << (drop - 1);
    }
    uint h = (e < -14 ? 0u : (uint)(e + 14) << 10) + (uint)q;
    bool inc;
    if (mode == 0u)
        inc = rem > halfway || (rem == halfway && (q & 1UL) != 0UL);
    else
        inc = rem != 0UL && up_dir;
    return (ushort)(sign | (h + (inc ? 1u : 0u)));
}

ushort __gpusim_vstore_half_rte_f64(double d) { return __gpusim_half_round_f64(d, 0u); }
ushort __gpusim_vstore_half_rtz_f64(double d) { return __gpusim_half_round_f64(d, 1u); }
ushort __gpusim_vstore_half_rtp_f64(double d) { return __gpusim_half_round_f64(d, 2u); }
ushort __gpusim_vstore_half_rtn_f64(double d) { return __gpusim_half_round_f64(d, 3u); }
