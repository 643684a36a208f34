// One relaxation sweep of a breadth-first search over a CSR graph, pulling
// from the neighbours: every vertex takes one more than the smallest known
// distance among its neighbours, and changed[0] is set when any distance
// dropped. Repeated with dist_in/dist_out swapped until nothing changes
// (workloads/programs/*/bfs.yaml), it computes hop distances from the
// vertices that start at 0. Unreached vertices hold 0xffffffff.
#include "gpusim_cl.h"

__kernel void bfs_relax(__global const uint *row_ptr, __global const uint *cols,
                        __global const uint *dist_in, __global uint *dist_out,
                        __global uint *changed, uint n) {
  uint v = gs_global_id(0);
  if (v >= n)
    return;
  uint old = dist_in[v];
  uint best = old;
  for (uint e = row_ptr[v]; e < row_ptr[v + 1]; e++) {
    uint d = dist_in[cols[e]];
    if (d != 0xffffffffu && d + 1 < best)
      best = d + 1;
  }
  dist_out[v] = best;
  if (best != old)
    changed[0] = 1;
}
