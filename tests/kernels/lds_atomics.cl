// LDS atomics: a per-work-group 32-bin histogram built with ds_add and a
// work-group maximum built with ds_max, then copied out (33 uints per group).
#include "gpusim_cl.h"

#define NB 32

__kernel __attribute__((reqd_work_group_size(256, 1, 1))) void
lds_atomics(__global const uint *in, __global uint *out) {
  __local uint bins[NB + 1];
  uint t = gs_local_id(0);
  if (t <= NB)
    bins[t] = 0;
  gs_barrier();
  uint v = in[gs_global_id(0)];
  gs_atomic_add_l(&bins[v % NB], 1u);
  gs_atomic_max_l(&bins[NB], v);
  gs_barrier();
  if (t <= NB)
    out[gs_group_id(0) * (NB + 1) + t] = bins[t];
}
