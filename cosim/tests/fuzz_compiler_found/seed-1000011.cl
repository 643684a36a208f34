// EXPECT: clang-wrong
// Seed 1000011 (inputs: cosim::fuzz::clgen::exec::inputs(1000011)), reduced
// by hand from cosim/tests/fuzz_compiler_open/seed-1000011.cl. clang-19 -O3
// miscompiles `~(ulong)x | y` for a uint x and a ulong y that is the bits of
// a double division: its IR is right (`or i64 %bits, (xor (zext x), -1)`),
// but the gfx1030 code ORs only the low dwords and stores the division's
// high dword as the high half (`v_mov_b32 v4, v4`), where every high bit
// must be 1 (the complement of a zero-extended uint). gpusim stores
// 0xffffffff there, as the host CPU does.
#include "gpusim_cl.h"
__kernel void clgen(__global ulong *out, __global const uint *in, __constant uint *cb, __global uint *gbuf, __global uint *acc) {
  size_t gid = gs_global_id(0);
  __global uint *gp = gbuf + gid * 8;
  ulong v6 = as_ulong(((double)gp[1]) / ((double)cb[15] + (double)gid));
  out[gid] = ~(ulong)gp[0] | v6;
}
