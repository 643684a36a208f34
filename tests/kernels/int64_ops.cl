// 64-bit integer arithmetic: wrapping multiply, unsigned division and
// remainder (expanded inline), shifts by a variable amount, signed compare,
// arithmetic shift right. Five results per work-item.
#include "gpusim_cl.h"

__kernel void int64_ops(__global const ulong *a, __global const ulong *b, __global ulong *out) {
  uint i = gs_global_id(0);
  ulong x = a[i];
  ulong y = b[i]; // the launch keeps y in [1, 2^40]
  __global ulong *o = out + 5 * i;
  o[0] = x * y + 0x0123456789abcdefUL;
  o[1] = x / y;
  o[2] = x % y;
  o[3] = (x >> (y & 63)) ^ (x << (x & 63));
  o[4] = ((long)x < (long)y ? (ulong)((long)x >> 7) : y - x) + (x >> 32) * (y & 0xffffffffUL);
}
