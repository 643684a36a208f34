// Black-Scholes call and put prices; the normal CDF from erfc.
float cnd(float d) { return 0.5f * erfc(-d * 0.70710678118654752f); }
__kernel void k(__global const float *s, __global const float *x, __global const float *t,
                __global float *call, __global float *put) {
  int i = get_global_id(0);
  float r = 0.02f, v = 0.30f;
  float sq = sqrt(t[i]);
  float d1 = (log(s[i] / x[i]) + (r + 0.5f * v * v) * t[i]) / (v * sq);
  float d2 = d1 - v * sq;
  float e = exp(-r * t[i]);
  call[i] = s[i] * cnd(d1) - x[i] * e * cnd(d2);
  put[i] = x[i] * e * cnd(-d2) - s[i] * cnd(-d1);
}
