// By-value vector arguments (float4, uint2, float3): not a corpus kernel
// (the corpus references take scalars only); the workload tests pass the
// vectors as YAML lists and check the results against files.
#include "gpusim_cl.h"

__kernel void vec_args(__global float4 *out, __global uint2 *uout, float4 scale,
                       uint2 offset, float3 bias) {
  uint i = gs_global_id(0);
  out[i] = (float4)((float)i) * scale + (float4)(bias, 1.0f);
  uout[i] = (uint2)(i, 2 * i) + offset;
}
