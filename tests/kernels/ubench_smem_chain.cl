// Calibration microbenchmark: dependent scalar loads. `table` holds byte
// offsets into itself; starting at byte offset `start`, the work-group
// follows off = table[off] `steps` times. Everything is uniform, so each
// step is one s_load_dword with an SGPR offset followed by
// s_waitcnt lgkmcnt(0): the step time is the scalar-cache hit latency once
// the (small) table is resident. Lane 0 of each work-group stores the final
// offset.
#include "gpusim_cl.h"

__kernel void ubench_smem_chain(__constant uint *table, __global uint *out, uint start,
                                uint steps) {
  uint off = start;
  _Pragma("unroll 8")
  for (uint s = 0; s < steps; ++s)
    off = *(__constant uint *)((__constant uchar *)table + off);
  if (gs_local_id(0) == 0)
    out[gs_group_id(0)] = off;
}
