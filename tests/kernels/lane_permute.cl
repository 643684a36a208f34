// Cross-lane data movement with ds_bpermute: every lane reads the value of
// lane ^ 31. The partner stays inside the same 32-lane half, so the result is
// the same in wave32 and wave64: out[g] = in[g ^ 31]. lane_out[g] records
// the lane id (mbcnt) modulo 32.
#include "gpusim_cl.h"

__kernel void lane_permute(__global const int *in, __global int *out, __global uint *lane_out) {
  uint g = gs_global_id(0);
  uint lane = gs_lane_id();
  out[g] = gs_bpermute((int)((lane ^ 31u) << 2), in[g]);
  lane_out[g] = lane & 31u;
}
