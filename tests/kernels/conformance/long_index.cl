// A size_t/long index live across a loop: 64-bit pointer offsets.
#include "gpusim_cl.h"

kernel void long_index(global const int *in, global int *out, int n, long stride) {
  size_t i = gs_global_id(0);
  int acc = 0;
  for (int k = 0; k < n; k++)
    acc += in[i + k];
  long j = (long)i * stride;
  out[i] = acc;
  out[j + 256] = (int)i;
  global const int *p = in + i;
  out[i + 512] = p[n - 1];
}
