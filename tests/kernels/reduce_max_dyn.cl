// Unsigned max reduction through a dynamically sized LDS buffer passed as a
// __local pointer argument; the work-group size is read from the dispatch
// packet, so the loop bound is not a compile-time constant.
#include "gpusim_cl.h"

__kernel void reduce_max_dyn(__global const uint *in, __global uint *out, __local uint *scratch) {
  uint t = gs_local_id(0);
  uint n = gs_local_size(0);
  scratch[t] = in[gs_global_id(0)];
  gs_barrier();
  for (uint s = n / 2; s > 0; s >>= 1) {
    if (t < s) {
      uint a = scratch[t];
      uint b = scratch[t + s];
      scratch[t] = a > b ? a : b;
    }
    gs_barrier();
  }
  if (t == 0)
    out[gs_group_id(0)] = scratch[0];
}
