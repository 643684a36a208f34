// Study kernel for docs/variable-wavefront.md: every work-item walks its own
// row of LINES cache lines (128 bytes each) PASSES times, one dword of each
// line per pass, with no waitcnt in between: the reuse distance per lane is
// LINES lines, so a wave64 needs 64*LINES lines of L0 to hit on the second
// pass when both halves run together, a half only 32*LINES.
#include "gpusim_cl.h"
#ifndef LINES
#define LINES 4
#endif
#ifndef PASSES
#define PASSES 4
#endif
__kernel void subvec_thrash(__global const uint *a, __global uint *out) {
  uint gid = gs_global_id(0);
  __global const uint *row = a + gid * (LINES * 32);
  uint s = 0;
#pragma unroll
  for (int pass = 0; pass < PASSES; pass++) {
#pragma unroll
    for (int j = 0; j < LINES; j++) {
      s += row[j * 32 + pass] * (uint)(j + 1);
      // Keeps the loads in this order and uncombined (no instruction).
      __asm__ volatile("" ::: "memory");
    }
  }
  out[gid] = s;
}
