// Calibration microbenchmark: streaming bandwidth. STREAM triad
// c[i] = s * b[i] + a[i] on float4 elements (global_load_dwordx4 /
// global_store_dwordx4, 48 bytes of traffic per element), grid-stride loop
// so any grid covers the n4 elements, repeated `reps` times (each repetition
// rewrites c with the same values; the compiler must reload a and b because
// c may alias them). The fused multiply-add is explicit so the result is
// exact on every target.
#include "gpusim_cl.h"

__kernel void ubench_stream(__global const float4 *a, __global const float4 *b, __global float4 *c,
                            float s, uint n4, uint reps) {
  uint stride = gs_global_size(0);
  for (uint r = 0; r < reps; ++r) {
    for (uint i = gs_global_id(0); i < n4; i += stride) {
      float4 x = a[i], y = b[i];
      c[i] = (float4)(gs_fma(s, y.x, x.x), gs_fma(s, y.y, x.y), gs_fma(s, y.z, x.z),
                      gs_fma(s, y.w, x.w));
    }
  }
}
