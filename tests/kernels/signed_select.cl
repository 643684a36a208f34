// Selects between a value and its negation or absolute value: clang folds the
// fneg/fabs into v_cndmask_b32_e64's source modifiers (-v, |v|, -|v|), the form
// LLVM's own cos expansion uses. Regression for issue 14: the golden GPU once
// ignored those modifiers. All results are exact.
#include "gpusim_cl.h"

__kernel void signed_select(__global const float *a, __global const float *b,
                            __global const float *c, __global float *out) {
  uint i = gs_global_id(0);
  float x = a[i];
  float y = b[i];
  float z = c[i];
  __global float *o = out + 4 * i;
  o[0] = z > 0.0f ? x : -y;
  o[1] = z < 1.0f ? gs_fabs(x) : y;
  o[2] = z < -1.0f ? -gs_fabs(y) : x;
  o[3] = z > 0.5f ? -x : -gs_fabs(y);
}
