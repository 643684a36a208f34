// OpenCL 2.0 program-scope __global variables (clang-19: .data in the
// read-write segment, reached PC-relatively): initialised, zero-initialised
// and const ones, read, written and updated atomically, each work-item on
// its own elements (so the result does not depend on the order of waves).
#include "gpusim_cl.h"

global int counter = 5;
global float acc[4] = {0.5f, 1.5f};
global int slots[64] = {1, 2, 3};
global uint zeroed[64];
global const short limits[3] = {-3, 40, 7};

kernel void global_vars(global const int *in, global int *o) {
  uint i = gs_global_id(0);
  int v = in[i];
  int old = __atomic_fetch_add(&slots[i], v, __ATOMIC_RELAXED);
  zeroed[i] += (uint)v * 3u;
  o[i * 4 + 0] = counter + limits[i % 3] + limits[2];
  o[i * 4 + 1] = (int)(acc[i & 1] * 4.0f) + (int)acc[3];
  o[i * 4 + 2] = old * 1000 + slots[i];
  o[i * 4 + 3] = (int)zeroed[i];
}
