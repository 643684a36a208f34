// A 128-entry private array indexed with data-dependent indices: too large
// for registers, so clang places it in scratch (private segment) memory.
#include "gpusim_cl.h"

#define P 128

__kernel void private_scratch(__global const uint *in, __global uint *out, uint rounds) {
  uint i = gs_global_id(0);
  uint v = in[i];
  uint priv[P];
  for (uint k = 0; k < P; k++)
    priv[k] = v * k + i;
  uint x = v;
  for (uint r = 0; r < rounds; r++) {
    uint idx = (x >> 9) & (P - 1);
    priv[idx] += x;
    x = x * 1664525u + 1013904223u;
  }
  out[i] = priv[v & (P - 1)] ^ priv[(v >> 7) & (P - 1)];
}
