/* gpusim device library: native_* (implementation-defined accuracy): the
 * hardware instructions with at most a multiply around them. */

float __gpusim_native_sin_f32(float x) { return __builtin_amdgcn_sinf(x * as_float(0x3e22f983u)); }
float __gpusim_native_cos_f32(float x) { return __builtin_amdgcn_cosf(x * as_float(0x3e22f983u)); }
float __gpusim_native_tan_f32(float x) {
    float t = x * as_float(0x3e22f983u);
    return __builtin_amdgcn_sinf(t) * __builtin_amdgcn_rcpf(__builtin_amdgcn_cosf(t));
}
float __gpusim_native_exp2_f32(float x) { return __builtin_amdgcn_exp2f(x); }
float __gpusim_native_exp_f32(float x) { return __builtin_amdgcn_exp2f(x * as_float(0x3fb8aa3bu)); }
float __gpusim_native_exp10_f32(float x) { return __builtin_amdgcn_exp2f(x * as_float(0x40549a78u)); }
float __gpusim_native_log2_f32(float x) { return __builtin_amdgcn_logf(x); }
float __gpusim_native_log_f32(float x) { return __builtin_amdgcn_logf(x) * as_float(0x3f317218u); }
float __gpusim_native_log10_f32(float x) { return __builtin_amdgcn_logf(x) * as_float(0x3e9a209bu); }
float __gpusim_native_powr_f32(float x, float y) {
    return __builtin_amdgcn_exp2f(y * __builtin_amdgcn_logf(x));
}
