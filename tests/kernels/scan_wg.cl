// Work-group exclusive prefix sum (Blelloch up-sweep / down-sweep) over 256
// uints in LDS; each group also writes its total to sums[group].
#include "gpusim_cl.h"

#define WG 256

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
scan_wg(__global const uint *in, __global uint *out, __global uint *sums) {
  __local uint s[WG];
  uint t = gs_local_id(0);
  uint g = gs_global_id(0);
  s[t] = in[g];
  gs_barrier();
  for (uint d = 1; d < WG; d <<= 1) {
    uint idx = (t + 1) * (d << 1) - 1;
    if (idx < WG)
      s[idx] += s[idx - d];
    gs_barrier();
  }
  if (t == 0) {
    sums[gs_group_id(0)] = s[WG - 1];
    s[WG - 1] = 0;
  }
  gs_barrier();
  for (uint d = WG >> 1; d >= 1; d >>= 1) {
    uint idx = (t + 1) * (d << 1) - 1;
    if (idx < WG) {
      uint left = s[idx - d];
      s[idx - d] = s[idx];
      s[idx] += left;
    }
    gs_barrier();
  }
  out[g] = s[t];
}
