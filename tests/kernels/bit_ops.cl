// Bit manipulation: popcount, count leading / trailing zeros (with the
// OpenCL value 32 for zero), bit reverse, and a shift-and-mask bit-field
// extract on x = (i % 256 == 0) ? 0 : in[i] >> (i % 32), so zero and small
// values occur. Five results per work-item.
#include "gpusim_cl.h"

__kernel void bit_ops(__global const uint *in, __global uint *out) {
  uint i = gs_global_id(0);
  uint x = (i & 255) == 0 ? 0u : in[i] >> (i & 31);
  __global uint *o = out + 5 * i;
  o[0] = gs_popcount(x);
  o[1] = gs_clz(x);
  o[2] = gs_ctz(x);
  o[3] = gs_bitrev(x);
  o[4] = (x >> (i & 15)) & 0x3ff;
}
