// Black-Scholes call and put prices (exp, log, sqrt, erf).
float cnd(float d) { return 0.5f * (1.0f + erf(d * M_SQRT1_2_F)); }

__kernel void blackscholes(__global float *call, __global float *put, __global const float *s,
                           __global const float *k, __global const float *t, float r, float v) {
  int i = get_global_id(0);
  float st = sqrt(t[i]);
  float d1 = (log(s[i] / k[i]) + (r + 0.5f * v * v) * t[i]) / (v * st);
  float d2 = d1 - v * st;
  float e = exp(-r * t[i]);
  call[i] = s[i] * cnd(d1) - k[i] * e * cnd(d2);
  put[i] = k[i] * e * cnd(-d2) - s[i] * cnd(-d1);
}
