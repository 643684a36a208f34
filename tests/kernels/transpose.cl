// Matrix transpose through a padded 16x17 LDS tile (the padding avoids LDS
// bank conflicts on the column read). in is height x width, out is
// width x height; both must be multiples of 16.
#include "gpusim_cl.h"

#define T 16

__kernel __attribute__((reqd_work_group_size(T, T, 1))) void
transpose(__global const uint *in, __global uint *out, uint width, uint height) {
  __local uint tile[T][T + 1];
  uint lx = gs_local_id(0);
  uint ly = gs_local_id(1);
  uint x = gs_group_id(0) * T + lx;
  uint y = gs_group_id(1) * T + ly;
  tile[ly][lx] = in[y * width + x];
  gs_barrier();
  uint ox = gs_group_id(1) * T + lx;
  uint oy = gs_group_id(0) * T + ly;
  out[oy * height + ox] = tile[lx][ly];
}
