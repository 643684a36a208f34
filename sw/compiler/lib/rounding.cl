/* gpusim device library: rounding and remainders (exact results). */

float __gpusim_round_f32(float x) {
    float t = trunc(x);
    float d = fabs(x - t);
    return d >= 0.5f ? t + copysign(1.0f, x) : t;
}

/* (fractional part, integral part). */
float2 __gpusim_modf_f32(float x) {
    float i = trunc(x);
    float f = GS_ISINF(x) ? 0.0f : x - i;
    return (float2)(copysign(f, x), i);
}

/* (fmin(x - floor(x), largest float below 1), floor(x)). */
float2 __gpusim_fract_f32(float x) {
    float fl = floor(x);
    float f = fmin(x - fl, as_float(0x3f7fffffu));
    f = GS_ISINF(x) ? copysign(0.0f, x) : f;
    f = GS_ISNAN(x) ? x : f;
    return (float2)(f, fl);
}

/* fmod: exact, by shift-and-subtract on the integer significands. */
float __gpusim_fmod_f32(float x, float y) {
    float ax = fabs(x), ay = fabs(y);
    float r = ax;
    if (ax >= ay && GS_FINITE(ax) && ay > 0.0f) {
        int ex = __builtin_amdgcn_frexp_expf(ax);
        int ey = __builtin_amdgcn_frexp_expf(ay);
        /* Significands as 24-bit integers (denormals too). */
        uint mx = (uint)__builtin_amdgcn_ldexpf(__builtin_amdgcn_frexp_mantf(ax), 24);
        uint my = (uint)__builtin_amdgcn_ldexpf(__builtin_amdgcn_frexp_mantf(ay), 24);
        int n = ex - ey;
        while (n > 0) {
            mx = mx >= my ? mx - my : mx;
            mx = mx << 1;
            n = n - 1;
        }
        mx = mx >= my ? mx - my : mx;
        r = __builtin_amdgcn_ldexpf((float)mx, ey - 24);
    }
    r = copysign(r, x);
    return GS_ISNAN(x) || GS_ISNAN(y) || GS_ISINF(x) || y == 0.0f ? GS_NAN : r;
}

/*
 * remquo: the exact remainder x - n y with n = x / y rounded to nearest
 * even, by the same shift-and-subtract as fmod while collecting n's low
 * bits; (remainder, bits of the int stored: n's sign and low 7 bits).
 */
float2 __gpusim_remquo_f32(float x, float y) {
    float ax = fabs(x), ay = fabs(y);
    float r = ax;
    uint q = 0u;
    if (ax >= ay && GS_FINITE(ax) && ay > 0.0f) {
        int ex = __builtin_amdgcn_frexp_expf(ax);
        int ey = __builtin_amdgcn_frexp_expf(ay);
        uint mx = (uint)__builtin_amdgcn_ldexpf(__builtin_amdgcn_frexp_mantf(ax), 24);
        uint my = (uint)__builtin_amdgcn_ldexpf(__builtin_amdgcn_frexp_mantf(ay), 24);
        int n = ex - ey;
        while (n > 0) {
            uint ge = mx >= my;
            mx = ge ? mx - my : mx;
            q = (q | ge) << 1;
            mx = mx << 1;
            n = n - 1;
        }
        uint ge = mx >= my;
        mx = ge ? mx - my : mx;
        q = q | ge;
        r = __builtin_amdgcn_ldexpf((float)mx, ey - 24);
    }
    /* Round the quotient to nearest even: past half of y, one more. */
    float r2 = r + r;
    int up = r2 > ay || (r2 == ay && (q & 1u));
    r = up ? r - ay : r;
    q = up ? q + 1u : q;
    float res = as_float(as_uint(r) ^ (as_uint(x) & 0x80000000u));
    int quo = (int)(q & 0x7fu);
    quo = (as_int(x) ^ as_int(y)) < 0 ? -quo : quo;
    int bad = GS_ISNAN(x) || GS_ISNAN(y) || GS_ISINF(x) || y == 0.0f;
    return (float2)(bad ? GS_NAN : res, as_float(bad ? 0 : quo));
}

float __gpusim_remainder_f32(float x, float y) {
    return __gpusim_remquo_f32(x, y).x;
}
