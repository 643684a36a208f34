// 5-point 2-D stencil on a width x height grid: interior points become
// 0.5*c + 0.125*(((n + s) + w) + e), border points are copied. Contraction is
// switched off so every operation rounds separately: bit-exact.
#include "gpusim_cl.h"

#pragma OPENCL FP_CONTRACT OFF

__kernel void stencil2d(__global const float *in, __global float *out, uint width, uint height) {
  uint x = gs_global_id(0);
  uint y = gs_global_id(1);
  if (x >= width || y >= height)
    return;
  uint i = y * width + x;
  float c = in[i];
  if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
    out[i] = c;
    return;
  }
  float sum = in[i - width] + in[i + width] + in[i - 1] + in[i + 1];
  out[i] = 0.5f * c + 0.125f * sum;
}
