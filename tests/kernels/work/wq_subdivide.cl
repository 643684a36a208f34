// Recursive subdivision: counting primes in [lo, hi) by splitting. Work-item
// i of a launch over G items takes the i-th of G equal parts of the launch's
// range; a part longer than `leaf` (and above depth max_depth) is handed to a
// child launch of this same kernel over 2 work-items, otherwise it is counted
// by trial division. result[0] = primes, result[1 + d] = leaves at depth d.
#include "gpusim_cl.h"
#include "gpusim_work.h"

#define CHILD_SELF 0u

static inline uint is_prime(uint x) {
  if (x < 2u)
    return 0u;
  for (uint d = 2u; d * d <= x; d++)
    if (x % d == 0u)
      return 0u;
  return 1u;
}

__kernel void wq_subdivide(gw_queue *wq, __global uint *result, uint lo, uint hi, uint depth,
                           uint leaf, uint max_depth) {
  uint i = gs_global_id(0), g = gs_global_size(0);
  uint len = hi - lo;
  uint a = lo + (uint)(((ulong)len * i) / g);
  uint b = lo + (uint)(((ulong)len * (i + 1u)) / g);
  int split = 0;
  if (b - a > leaf && depth < max_depth) {
    __global uchar *ka = gw_kernarg(wq, CHILD_SELF, 2u, 2u);
    if (ka) {
      *(__global ulong *)(ka + 0) = (ulong)wq;
      *(__global ulong *)(ka + 8) = (ulong)result;
      *(__global uint *)(ka + 16) = a;
      *(__global uint *)(ka + 20) = b;
      *(__global uint *)(ka + 24) = depth + 1u;
      *(__global uint *)(ka + 28) = leaf;
      *(__global uint *)(ka + 32) = max_depth;
      gw_add_pending(wq, 2u);
      if (gw_launch_1d(wq, CHILD_SELF, ka, 2u, 2u) == GW_OK)
        split = 1;
      else
        gw_atomic_add(&wq->pending, 0u - 2u);
    }
  }
  if (!split) {
    uint primes = 0;
    for (uint x = a; x < b; x++)
      primes += is_prime(x);
    gs_atomic_add_g(&result[0], primes);
    gs_atomic_add_g(&result[1 + depth], 1u);
  }
  gw_done(wq);
}
