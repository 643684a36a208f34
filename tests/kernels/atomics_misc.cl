// Global atomics other than add: signed max / min, or, and, xor, sub and an
// increment built from a compare-and-swap retry loop. Every operation is
// commutative, so the final values are independent of the order.
// res: [0] max, [1] min, [2] or, [3] and, [4] xor, [5] cas-add, [6] sub.
#include "gpusim_cl.h"

__kernel void atomics_misc(__global const uint *in, __global uint *res) {
  uint i = gs_global_id(0);
  uint v = in[i];
  gs_atomic_max_g((volatile __global int *)&res[0], (int)v);
  gs_atomic_min_g((volatile __global int *)&res[1], (int)v);
  gs_atomic_or_g(&res[2], 1u << (v & 31));
  gs_atomic_and_g(&res[3], ~(1u << (v % 29)));
  gs_atomic_xor_g(&res[4], v);
  uint old = res[5];
  for (;;) {
    uint seen = gs_atomic_cmpxchg_g(&res[5], old, old + (v & 0xff));
    if (seen == old)
      break;
    old = seen;
  }
  gs_atomic_sub_g(&res[6], v & 0xffff);
}
