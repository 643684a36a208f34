// Calibration microbenchmark: global atomic throughput. Work-item g adds
// vals[g] to counters[(g % naddr) * stride], `iters` times (no-return
// global_atomic_add; the address is not provably uniform, so LLVM's atomic
// optimizer leaves one atomic per lane). naddr = 1: every lane of every
// wave hits one address (serialised at the L2); naddr >= the grid with
// stride 32: every lane owns a different 128-byte line.
#include "gpusim_cl.h"

__kernel void ubench_atomics(__global uint *counters, __global const uint *vals, uint naddr,
                             uint stride, uint iters) {
  uint g = gs_global_id(0);
  volatile __global uint *p = &counters[(g % naddr) * stride];
  uint v = vals[g];
  for (uint j = 0; j < iters; ++j)
    gs_atomic_add_g(p, v);
}
