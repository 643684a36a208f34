// Work-group tree reduction of floats in a static LDS array with barriers:
// stride halves from 128 to 1, s[t] += s[t + stride]. One partial sum per
// work-group. The reference follows the same tree, so the result is exact.
#include "gpusim_cl.h"

#define WG 256

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
reduce_sum(__global const float *in, __global float *partial) {
  __local float s[WG];
  uint t = gs_local_id(0);
  s[t] = in[gs_global_id(0)];
  gs_barrier();
  for (uint stride = WG / 2; stride > 0; stride >>= 1) {
    if (t < stride)
      s[t] += s[t + stride];
    gs_barrier();
  }
  if (t == 0)
    partial[gs_group_id(0)] = s[0];
}
