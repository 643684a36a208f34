// Ternary / select patterns on ints and floats (v_cndmask, compares with
// different predicates). All results are exact.
#include "gpusim_cl.h"

__kernel void select_ops(__global const int *a, __global const int *b, __global const float *f,
                         __global int *iout, __global float *fout) {
  uint i = gs_global_id(0);
  int x = a[i];
  int y = b[i];
  float z = f[i];
  iout[3 * i + 0] = x > y ? x - y : y - x;
  iout[3 * i + 1] = (x & 1) ? x : -y;
  iout[3 * i + 2] = (x >= 0 && y <= 0) ? 1 : ((x < 0) != (y < 0) ? 2 : 3);
  float neg = z * -0.5f;
  float pos = z + 1.0f;
  fout[i] = z < 0.0f ? neg : pos;
}
