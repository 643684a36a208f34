// double in LDS (a tree reduction) and in a private array indexed at run
// time (scratch), and a uniform double read from a __constant pointer.
#include "gpusim_cl.h"

kernel void dbl_memory(global const double *in, global double *out, __constant double *k) {
  __local double tile[64];
  double priv[4];
  uint l = gs_local_id(0), g = gs_global_id(0);
  tile[l] = in[g];
  for (int j = 0; j < 4; j++)
    priv[j] = in[(g + j) % 64] * (j + k[0]);
  gs_barrier();
  double s = tile[63 - l];
  gs_barrier();
  for (uint st = 32; st > 0; st >>= 1) {
    if (l < st)
      tile[l] += tile[l + st];
    gs_barrier();
  }
  out[g] = s + priv[in[g] > 0.0 ? l % 4 : 3 - l % 4] + tile[0];
}
