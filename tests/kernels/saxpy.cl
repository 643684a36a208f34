// y = a*x + y. The expression contracts (OpenCL FP_CONTRACT is on): fused
// v_fma/v_fmac on gfx1030, possibly unfused v_mac/v_mad on gfx803, so the
// reference allows 2 ULP (inputs are positive: no cancellation).
#include "gpusim_cl.h"

__kernel void saxpy(uint n, float a, __global const float *x, __global float *y) {
  uint i = gs_global_id(0);
  if (i < n)
    y[i] = a * x[i] + y[i];
}
