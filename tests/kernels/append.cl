// Stream compaction ("append"): work-items whose value is divisible by
// `modulus` reserve an output slot with a global atomic increment. The slot
// order depends on scheduling, so out is compared as a multiset.
#include "gpusim_cl.h"

__kernel void append(__global const uint *in, __global uint *out, __global uint *counter,
                     uint modulus) {
  uint i = gs_global_id(0);
  uint v = in[i];
  if (v % modulus == 0) {
    uint slot = gs_atomic_inc_g(counter);
    out[slot] = v;
  }
}
