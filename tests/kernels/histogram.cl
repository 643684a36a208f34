// Histogram with global atomics: bin = (value >> 3) % nbins, one relaxed
// device-scope atomic increment per work-item.
#include "gpusim_cl.h"

__kernel void histogram(__global const uint *in, __global uint *hist, uint n, uint nbins) {
  uint i = gs_global_id(0);
  if (i < n)
    gs_atomic_inc_g(&hist[(in[i] >> 3) % nbins]);
}
