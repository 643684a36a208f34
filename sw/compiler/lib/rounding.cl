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
