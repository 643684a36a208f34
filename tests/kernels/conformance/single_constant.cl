// FLAGS: -cl-single-precision-constant
// With -cl-single-precision-constant unsuffixed literals are float.
#include "gpusim_cl.h"

kernel void single_constant(global const float *x, global float *o) {
  uint i = gs_global_id(0);
  o[i * 2 + 0] = x[i] * 0.1 + 0.7;
  o[i * 2 + 1] = x[i] / 3.0;
}
