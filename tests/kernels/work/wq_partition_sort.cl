// Partition, then sort each part in a child launch. Parent work-item b owns
// bucket b (keys whose top bits, key >> shift, equal b): it counts the keys
// of lower buckets (its offset) and of its own, copies its keys in index
// order to tmp[offset ...], and launches a child of `count` work-items that
// ranks them into out[offset ...]. counts[b] = the bucket's size.
#include "gpusim_cl.h"
#include "gpusim_work.h"

#define CHILD_RANK 0u

__kernel void wq_partition_sort(gw_queue *wq, __global const uint *keys, __global uint *tmp,
                                __global uint *out, __global uint *counts, uint n, uint shift) {
  uint b = gs_global_id(0);
  uint offset = 0, count = 0;
  for (uint i = 0; i < n; i++) {
    uint k = keys[i] >> shift;
    offset += k < b;
    count += k == b;
  }
  uint at = offset;
  for (uint i = 0; i < n; i++)
    if (keys[i] >> shift == b)
      tmp[at++] = keys[i];
  counts[b] = count;
  if (count > 0) {
    __global uchar *ka = gw_kernarg(wq, CHILD_RANK, count, count);
    if (ka) {
      *(__global ulong *)(ka + 0) = (ulong)tmp;
      *(__global ulong *)(ka + 8) = (ulong)out;
      *(__global uint *)(ka + 16) = offset;
      *(__global uint *)(ka + 20) = count;
      gw_launch_1d(wq, CHILD_RANK, ka, count, count);
    }
  }
  gw_done(wq);
}

__kernel void wq_partition_sort_rank(__global const uint *tmp, __global uint *out, uint offset,
                                     uint count) {
  uint j = gs_global_id(0);
  uint v = tmp[offset + j], rank = 0;
  for (uint i = 0; i < count; i++) {
    uint w = tmp[offset + i];
    rank += w < v || (w == v && i < j);
  }
  out[offset + rank] = v;
}
