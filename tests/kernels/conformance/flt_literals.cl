// Unsuffixed floating literals are double (C's rule): float operands are
// widened, the operation is done in double, the result rounded back.
#include "gpusim_cl.h"

kernel void flt_literals(global const float *x, global float *o, int n) {
  uint i = gs_global_id(0);
  float sum = 0.0;
  for (int k = 0; k < n; k++)
    sum += x[i + k] * 0.5;
  o[i * 4 + 0] = sum;
  o[i * 4 + 1] = x[i] * 0.1;
  o[i * 4 + 2] = (float)0.3 + x[i];
  o[i * 4 + 3] = x[i] > 0.5 ? 1.0 : 2.5f;
}
