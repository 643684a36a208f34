// Elementwise 32-bit integer ALU: add, sub, mul, signed div/rem (inline
// expansion, no library call), and/or/xor, arithmetic and logical shifts,
// compare-based min/max. Eight results per work-item.
#include "gpusim_cl.h"

__kernel void int_ops(__global const int *a, __global const int *b, __global int *out,
                      uint n) {
  uint i = gs_global_id(0);
  if (i >= n)
    return;
  int x = a[i];
  int y = b[i]; // the launch keeps y in [1, 1000], so / and % are defined
  __global int *o = out + 8 * i;
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = x / y;
  o[4] = x % y;
  o[5] = (x & y) | (x ^ (y << 3));
  o[6] = (x >> (y & 31)) + (int)((uint)x >> (y & 15));
  o[7] = (x > y ? x : y) - (x < y ? x : y);
}
