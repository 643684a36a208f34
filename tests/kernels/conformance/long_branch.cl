// Branches over more than 32 K dwords (the reach of a SOPP branch's
// simm16): a uniform loop, a divergent loop inside it and a divergent `if`,
// all around one body of 6144 xorshift steps (~36 K dwords, ~147 KiB, as
// PyOpenCL's unrolled double-precision threefry). Both compilers must turn
// the loops' and the `if`'s branches into long jumps (s_getpc_b64,
// s_add_u32/s_addc_u32 with the distance, s_setpc_b64): forward over the
// body (a uniform SCC exit and a divergent EXEC skip, each inverted around
// the jump) and backward to each loop's head.
#include "gpusim_cl.h"

#define R1 x ^= x << 13; x ^= x >> 17; x ^= x << 5;
#define R4 R1 R1 R1 R1
#define R16 R4 R4 R4 R4
#define R64 R16 R16 R16 R16
#define R256 R64 R64 R64 R64
#define R1024 R256 R256 R256 R256

kernel void long_branch(global const uint *in, global uint *out, int n) {
  uint id = gs_global_id(0);
  uint x = in[id];
  for (int j = 0; j < n; j++) {
    for (uint i = 0; i <= (in[id] >> 8 & 1); i++) {
      if (x & 2) {
        R1024 R1024 R1024 R1024 R1024 R1024
      }
      x += i + j;
    }
  }
  out[id] = x;
}
