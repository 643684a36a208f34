// Constant float expressions fold as clang's constant evaluator folds them:
// each operation rounded (no fused multiply-add), float division correctly
// rounded whatever the division options.
#include "gpusim_cl.h"

kernel void const_fold(global const float *x, global float *o, global double *od) {
  uint i = gs_global_id(0);
  o[i * 4 + 0] = 0.1f * 3.0f + 1.0f;
  o[i * 4 + 1] = 1.0f / 3.0f;
  o[i * 4 + 2] = x[i] * (2.0f / 7.0f) - 0.3f * 0.7f;
  o[i * 4 + 3] = 1.1f - 0.3f * 1.3f;
  od[i * 2 + 0] = 0.1 * 3.0 + 1.0 / 7.0;
  od[i * 2 + 1] = x[i] - 0.7 * 0.1;
}
