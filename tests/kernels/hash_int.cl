// Integer hashing: xor-shift, 32-bit multiply, mul_hi, rotate (v_alignbit),
// four unrolled rounds mixing in the round number.
#include "gpusim_cl.h"

__kernel void hash_int(__global const uint *in, __global uint *out, uint seed) {
  uint i = gs_global_id(0);
  uint x = in[i] ^ seed;
#pragma unroll
  for (uint r = 0; r < 4; r++) {
    x ^= x >> 16;
    x *= 0x85ebca6bu;
    x ^= x >> 13;
    x = gs_rotl(x, 7 + r);
    uint h = gs_mul_hi(x, 0x9e3779b9u);
    x ^= h + (x << 5) + r;
  }
  out[i] = x;
}
