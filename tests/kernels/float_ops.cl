// Elementwise single-precision ALU: add, sub, mul, fabs, floor, fmin, fmax,
// float->int->float conversion. Each result is one correctly rounded IEEE
// operation (no a*b+c expression, so no contraction): bit-exact.
#include "gpusim_cl.h"

__kernel void float_ops(__global const float *a, __global const float *b, __global float *out,
                        __global int *iout) {
  uint i = gs_global_id(0);
  float x = a[i];
  float y = b[i];
  __global float *o = out + 8 * i;
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = gs_fabs(x);
  float x4 = x * 4.0f;
  o[4] = gs_floor(x4);
  o[5] = gs_fmin(x, y);
  o[6] = gs_fmax(x, y);
  float x100 = x * 100.0f;
  o[7] = (float)(int)x100;
  float x1000 = y * 1000.0f;
  iout[i] = (int)x1000;
}
