// `s += a * b` contracts into an fma like `s = s + a * b` (clang treats a
// compound assignment's multiply as part of one expression), in float and
// in double.
#include "gpusim_cl.h"

kernel void contract_compound(global const float *x, global const float *y, global float *o,
                              global double *od) {
  uint i = gs_global_id(0);
  float s = 0.0f;
  double d = 1.0;
  for (int k = 0; k < 8; k++) {
    s += x[i + k] * y[i + k];
    d -= (double)x[i + k] * 0.1;
  }
  o[i] = s;
  od[i] = d;
}
