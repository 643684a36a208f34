// Array sizes that are constant expressions through `const int` variables
// (clang folds them, with a warning) and an enum.
#include "gpusim_cl.h"

enum { W = 4 };

kernel void const_dims(global const float *in, global float *out) {
  const int T = 8;
  const uint N = T * 2;
  __local float tile[T][T];
  float priv[N];
  int lx = gs_local_id(0);
  uint g = gs_global_id(0);
  tile[lx / T][lx % T] = in[g];
  for (int k = 0; k < N; k++)
    priv[k] = in[g] * k;
  gs_barrier();
  out[g] = tile[(lx + 1) % T][lx / T] + priv[lx % N] + W;
}
