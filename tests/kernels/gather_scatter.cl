// Indirect addressing: gather through one permutation, scatter through
// another: out[dst[i]] = in[src[i]] + i.
#include "gpusim_cl.h"

__kernel void gather_scatter(__global const uint *in, __global const uint *src,
                             __global const uint *dst, __global uint *out) {
  uint i = gs_global_id(0);
  out[dst[i]] = in[src[i]] + i;
}
