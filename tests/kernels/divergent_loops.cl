// Divergent control flow: a Collatz loop with a data-dependent trip count and
// an early exit at `limit` steps, then a three-way branch on the work-item id
// where one arm is another loop with a break.
#include "gpusim_cl.h"

__kernel void divergent_loops(__global const uint *in, __global uint *out, uint limit) {
  uint i = gs_global_id(0);
  uint x = in[i];
  uint steps = 0;
  while (x != 1) {
    if (x & 1)
      x = 3 * x + 1;
    else
      x >>= 1;
    steps++;
    if (steps >= limit)
      break;
  }
  uint v;
  uint sel = i % 3;
  if (sel == 0) {
    v = steps * 2;
  } else if (sel == 1) {
    v = x ^ steps;
  } else {
    v = 0;
    uint trips = in[i] & 15;
    for (uint k = 0; k < trips; k++) {
      v += k * k;
      if (v > 100)
        break;
    }
  }
  out[i] = v;
}
