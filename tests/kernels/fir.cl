// 1-D FIR filter / convolution: out[i] = sum_k coef[k] * in[i + k]. The taps
// are staged in LDS by the first work-items; the accumulation is an explicit
// fma chain in k order (exact). taps <= 64.
#include "gpusim_cl.h"

__kernel void fir(__global const float *in, __global const float *coef, __global float *out,
                  uint n, uint taps) {
  __local float c[64];
  uint t = gs_local_id(0);
  if (t < taps)
    c[t] = coef[t];
  gs_barrier();
  uint i = gs_global_id(0);
  if (i >= n)
    return;
  float acc = 0.0f;
  for (uint k = 0; k < taps; k++)
    acc = gs_fma(c[k], in[i + k], acc);
  out[i] = acc;
}
