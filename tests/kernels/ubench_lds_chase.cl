// Calibration microbenchmark: LDS pointer chase. The work-group first fills
// a static LDS table of 64 rows x 32 dwords with byte offsets: entry (r, c)
// points to (perm[r], c), so every lane keeps its column (its bank, with 32
// banks of 4 bytes) and moves to another row. Work-item t starts at dword
// (t * stride) mod 2048 and follows off = lds[off] `steps` times (one
// ds_read_b32 + s_waitcnt lgkmcnt(0) per step: the table is static, so its
// base address is the constant 0 and no add is needed), then stores its
// final byte offset. stride 1: the 32 lanes of a half-wave read 32
// different banks (no conflict); stride 32: they read 32 different rows of
// one bank (a 32-way bank conflict). The fill does not depend on the
// stride, so a run with steps = 0 measures everything but the chase.
#include "gpusim_cl.h"

#define ROWS 64u
#define COLS 32u

__kernel void ubench_lds_chase(__global const uint *perm, __global uint *out, uint stride,
                               uint steps) {
  __local uint lds[ROWS * COLS];
  uint t = gs_local_id(0);
  for (uint e = t; e < ROWS * COLS; e += gs_local_size(0))
    lds[e] = (perm[e / COLS] % ROWS * COLS + e % COLS) * 4u;
  gs_barrier();
  uint off = (t * stride) % (ROWS * COLS) * 4u;
  _Pragma("unroll 8")
  for (uint s = 0; s < steps; ++s)
    off = *(__local uint *)((__local uchar *)lds + off);
  out[gs_global_id(0)] = off;
}
