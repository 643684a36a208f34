// Many threads create work at once: every work-item of the parent launches
// one child dispatch (contention on soft GP_PUT: all reserve with one atomic
// add each, complete in any order, run in allocation order). Child c fills
// out[c * per_child + j] with a hash of (c, j); status[c] is the thread's
// GW_* code. The last work-item to call gw_done inserts the terminal block.
#include "gpusim_cl.h"
#include "gpusim_work.h"

#define CHILD_FILL 0u

__kernel void wq_producer(gw_queue *wq, __global uint *out, __global uint *status,
                          uint per_child) {
  uint c = gs_global_id(0);
  __global uchar *ka = gw_kernarg(wq, CHILD_FILL, per_child, per_child);
  int err = GW_ERR_HEAP;
  if (ka) {
    *(__global ulong *)(ka + 0) = (ulong)out; /* out */
    *(__global uint *)(ka + 8) = c;           /* child */
    *(__global uint *)(ka + 12) = per_child;  /* n */
    err = gw_launch_1d(wq, CHILD_FILL, ka, per_child, per_child);
  }
  status[c] = (uint)err;
  gw_done(wq);
}

__kernel void wq_producer_fill(__global uint *out, uint child, uint n) {
  uint j = gs_global_id(0);
  uint h = child * 0x9e3779b9u + j * 0x85ebca6bu;
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  h ^= h >> 12;
  out[child * n + j] = h;
}
