// Sub-dword memory traffic: uchar / char / short / ushort loads (zero- and
// sign-extending) and byte / short stores, including a neighbour byte read.
#include "gpusim_cl.h"

__kernel void bytes_shorts(__global const uchar *ub, __global const char *sb,
                           __global const short *ss, __global const ushort *us,
                           __global uchar *ob, __global short *os, __global int *oi) {
  uint i = gs_global_id(0);
  uchar u = ub[i];
  char c = sb[i];
  short s = ss[i];
  ushort w = us[i];
  ob[i] = (uchar)(u + (uchar)c + ub[i ^ 1]);
  os[i] = (short)(s * 3 + (short)u);
  oi[i] = (int)c * (int)w + (int)s;
}
