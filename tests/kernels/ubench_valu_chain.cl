// Calibration microbenchmark: dependent ALU chains. Each work-item runs
// `vsteps` dependent integer steps x = (x ^ a) + b (v_xor_b32, v_add), then
// `fsteps` dependent fused multiply-adds f = fma(f, fa, fb) (v_fma/v_fmac),
// and the work-group runs `ssteps` dependent uniform steps u = u * a + b on
// the scalar ALU (s_mul_i32, s_add). The multipliers and addends are kernel
// arguments so nothing folds; a chain length of 0 skips that chain, so one
// run measures one kind of latency (docs/calibration.md).
#include "gpusim_cl.h"

// Unrolled so that the loop counter and branch (SALU) are a small, fixed
// overhead per 32 dependent steps; chain lengths that are multiples of 32
// run the unrolled body only.
#define GS_UNROLL32 _Pragma("unroll 32")

__kernel void ubench_valu_chain(__global const uint *xseed, __global const float *fseed,
                                __global uint *xout, __global float *fout, __global uint *sout,
                                uint a, uint b, float fa, float fb, uint vsteps, uint fsteps,
                                uint ssteps) {
  uint gid = gs_global_id(0);
  uint x = xseed[gid];
  GS_UNROLL32
  for (uint s = 0; s < vsteps; ++s)
    x = (x ^ a) + b;
  xout[gid] = x;
  float f = fseed[gid];
  GS_UNROLL32
  for (uint s = 0; s < fsteps; ++s)
    f = gs_fma(f, fa, fb);
  fout[gid] = f;
  uint u = gs_group_id(0);
  GS_UNROLL32
  for (uint s = 0; s < ssteps; ++s)
    u = u * a + b;
  if (gs_local_id(0) == 0)
    sout[gs_group_id(0)] = u;
}
