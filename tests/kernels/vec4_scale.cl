// Vector types: float4 / uint4 loads and stores (dwordx4), swizzles and a
// vector-by-scalar multiply. Exact (one rounding per component).
#include "gpusim_cl.h"

__kernel void vec4_scale(__global const float4 *in, __global float4 *out,
                         __global const uint4 *iin, __global uint4 *iout, float s) {
  uint i = gs_global_id(0);
  out[i] = in[i].wzyx * s;
  uint4 u = iin[i];
  iout[i] = (uint4)(u.y, u.x + u.w, u.z ^ u.y, u.w << 3);
}
