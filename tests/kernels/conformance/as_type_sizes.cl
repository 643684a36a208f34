// as_T between element sizes: the same bits regrouped little-endian
// (as_uint(uchar4), as_uchar4(uint), as_ushort2(uchar4), as_ulong(uint2),
// as_uint2(double), as_float(short2), as_char8(long), as_short4(float2)).
#include "gpusim_cl.h"

kernel void as_type_sizes(global const uint *in, global uint *o, global ulong *l) {
  uint i = gs_global_id(0);
  uint x = in[i], y = in[i + 1];
  uchar4 b = as_uchar4(x);
  o[i * 8 + 0] = as_uint(b.wzyx);
  o[i * 8 + 1] = as_uint(as_ushort2(b) + (ushort2)(1, 0x8000));
  o[i * 8 + 2] = as_uint(as_float(as_short2(y)) * 0.5f);
  char8 c = as_char8(((long)x << 32) | y);
  o[i * 8 + 3] = as_uint(c.s0123 + c.s4567);
  short4 s = as_short4((float2)(as_float(x), 1.5f));
  o[i * 8 + 4] = as_uint((short2)(s.x + s.z, s.y ^ s.w));
  uint2 d = as_uint2((double)x * 1.25);
  o[i * 8 + 5] = d.x ^ d.y;
  o[i * 8 + 6] = as_uint((uchar4)(b.x + 1, b.y, b.z >> 1, 7));
  o[i * 8 + 7] = as_uint(as_uchar4(as_ushort2(x) >> (ushort2)(3)));
  l[i * 2 + 0] = as_ulong((uint2)(x, y));
  l[i * 2 + 1] = as_ulong(as_uchar8((uint2)(y, x)) + (uchar8)(3));
}
