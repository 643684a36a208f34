// Calibration microbenchmark: global-memory pointer chase by one lane. The
// buffer `chain` is `lines` cache lines of 128 bytes (32 dwords); only the
// first dword of each line is used. The work-group first links the lines
// into one cycle in the random order given by the permutation `order`
// (line order[k] points to line order[k + 1], the last back to order[0];
// the links are byte offsets), then work-item 0 starts at line order[0]
// and follows off = chain[off] `steps` times: one global_load_dword with a
// scalar base and a VGPR offset + s_waitcnt vmcnt(0) per step, each to a
// different line, so the step time is the load-to-use latency of whichever
// level holds the footprint (lines x 128 bytes). It stores the final
// offset. The linking pass is identical for every `steps`, so a run with
// fewer steps measures everything but the extra chase. Launch exactly one
// work-group.
#include "gpusim_cl.h"

#define LINE_DWORDS 32u

__kernel void ubench_mem_chase(__global uint *chain, __global const uint *order,
                               __global uint *out, uint lines, uint steps) {
  uint t = gs_local_id(0);
  for (uint k = t; k < lines; k += gs_local_size(0)) {
    uint next = k + 1 < lines ? order[k + 1] : order[0];
    chain[order[k] * LINE_DWORDS] = next * LINE_DWORDS * 4u;
  }
  gs_barrier();
  if (t == 0) {
    uint off = order[0] * LINE_DWORDS * 4u;
    _Pragma("unroll 8")
    for (uint s = 0; s < steps; ++s)
      off = *(__global uint *)((__global uchar *)chain + off);
    out[gs_group_id(0)] = off;
  }
}
