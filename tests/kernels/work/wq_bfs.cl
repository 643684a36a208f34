// Level-synchronous breadth-first search where each level launches the next:
// the parent seeds the frontier with the source and launches level 0; in
// every level the last work-item to arrive launches the next level over the
// frontier it found (nothing when it is empty). Distances are exact whatever
// the completion order; consumed frontier slots are reset to 0xffffffff.
//   ctl[0], ctl[1]: frontier sizes (ping-pong); ctl[2 + L]: arrivals at level L.
#include "gpusim_cl.h"
#include "gpusim_work.h"

#define CHILD_LEVEL 0u
#define INF 0xffffffffu
#define WG 64u

static inline int launch_level(gw_queue *wq, __global const uint *row_ptr,
                               __global const uint *cols, __global uint *dist,
                               __global uint *frontier, __global uint *ctl, uint n,
                               uint level, uint count) {
  uint grid = (count + WG - 1u) / WG * WG;
  __global uchar *ka = gw_kernarg(wq, CHILD_LEVEL, grid, WG);
  if (!ka)
    return GW_ERR_HEAP;
  *(__global ulong *)(ka + 8) = (ulong)row_ptr;
  *(__global ulong *)(ka + 16) = (ulong)cols;
  *(__global ulong *)(ka + 24) = (ulong)dist;
  *(__global ulong *)(ka + 32) = (ulong)frontier;
  *(__global ulong *)(ka + 40) = (ulong)ctl;
  *(__global uint *)(ka + 48) = n;
  *(__global uint *)(ka + 52) = level;
  *(__global ulong *)(ka + 0) = (ulong)wq;
  gw_add_pending(wq, grid);
  int err = gw_launch_1d(wq, CHILD_LEVEL, ka, grid, WG);
  if (err != GW_OK)
    gw_atomic_add(&wq->pending, 0u - grid); /* nobody will run them */
  return err;
}

__kernel void wq_bfs(gw_queue *wq, __global const uint *row_ptr, __global const uint *cols,
                     __global uint *dist, __global uint *frontier, __global uint *ctl, uint n,
                     uint source) {
  if (gs_global_id(0) == 0) {
    dist[source] = 0;
    frontier[0] = source;
    ctl[0] = 1;
    launch_level(wq, row_ptr, cols, dist, frontier, ctl, n, 0, 1);
  }
  gw_done(wq);
}

__kernel void wq_bfs_level(gw_queue *wq, __global const uint *row_ptr, __global const uint *cols,
                           __global uint *dist, __global uint *frontier, __global uint *ctl,
                           uint n, uint level) {
  uint i = gs_global_id(0);
  uint cur = level & 1u, nxt = cur ^ 1u;
  uint count = ctl[cur];
  if (i < count) {
    uint v = frontier[cur * n + i];
    frontier[cur * n + i] = INF;
    for (uint e = row_ptr[v]; e < row_ptr[v + 1]; e++) {
      uint u = cols[e];
      if (gs_atomic_cmpxchg_g(&dist[u], INF, level + 1u) == INF) {
        uint slot = gs_atomic_add_g(&ctl[nxt], 1u);
        frontier[nxt * n + slot] = u;
      }
    }
  }
  gw_fence();
  uint arrived = gs_atomic_add_g(&ctl[2 + level], 1u) + 1u;
  if (arrived == gs_global_size(0)) {
    uint next = gw_atomic_load(&ctl[nxt]);
    ctl[cur] = 0;
    if (next > 0)
      launch_level(wq, row_ptr, cols, dist, frontier, ctl, n, level + 1u, next);
  }
  gw_done(wq);
}
