// Program-scope __constant variables with initialisers (clang-19: .rodata
// after the kernel descriptors, reached PC-relatively with s_getpc_b64):
// lookup tables, filter coefficients, vectors, structs, nested aggregates,
// partial initialisation (zero-filled), an unsized array, constant
// expressions in the initialisers, read with constant, uniform and
// divergent indices and through a pointer passed to a helper.
#include "gpusim_cl.h"

__constant float coeff[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};
__constant int4 offsets = (int4)(1, -2, 3, -4);
__constant float2 scale2 = (float2)(1.5f, -0.5f);
__constant uint primes[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53};
__constant short partial[8] = {-7, 300};
__constant uchar bytes[6] = {255, 128, (uchar)300, 'a', 0x7f, 1 + 2 * 3};
__constant double dtab[3] = {1.0 / 3.0, -2.5e-300, 1e300};
__constant long ltab[2] = {-9000000000L, 0x123456789abcdefL};
__constant float folded[4] = {1.0f / 3.0f, 0.1 * 3.0, -(2.0f + 0.5f), (float)(7 / 2)};
__constant int grid[3][4] = {{1, 2, 3, 4}, {5, 6}, {9, 10, 11, 12}};

struct entry {
  char tag;
  float weight;
  short pair[2];
};
__constant struct entry table[3] = {{'x', 0.5f, {1, 2}}, {'y', -1.25f, {-3, 4}}, {'z'}};

struct outer {
  int id;
  struct entry e;
  float4 v;
};
__constant struct outer nested = {42, {'q', 2.0f, {7, -8}}, (float4)(1.0f, 2.0f, 3.0f, 4.0f)};

static float dot5(__constant float *w, __global const float *x) {
  float s = 0.0f;
  for (int j = 0; j < 5; j++)
    s += w[j] * x[j];
  return s;
}

kernel void const_tables(global const float *in, global float *f, global int *o,
                         global double *d, int n) {
  uint i = gs_global_id(0);
  f[i * 8 + 0] = dot5(coeff, in + i);
  f[i * 8 + 1] = coeff[i % 5] * in[i] + coeff[n % 5];
  f[i * 8 + 2] = scale2.x * in[i] + scale2.y;
  f[i * 8 + 3] = folded[i & 3] + folded[2];
  f[i * 8 + 4] = table[i % 3].weight + table[n % 3].weight;
  f[i * 8 + 5] = nested.v.z * (float)i + nested.e.weight;
  f[i * 8 + 6] = nested.v.y * (float)nested.e.pair[1];
  f[i * 8 + 7] = coeff[4] + coeff[0];

  int4 v = offsets * (int)i;
  o[i * 12 + 0] = v.x + v.y + v.z + v.w + offsets.w;
  o[i * 12 + 1] = (int)primes[i & 15] * (int)primes[n & 15];
  o[i * 12 + 2] = partial[i & 7] + partial[1];
  o[i * 12 + 3] = bytes[i % 6] + bytes[n % 6] * 1000;
  o[i * 12 + 4] = grid[i % 3][i & 3] + grid[1][3];
  o[i * 12 + 5] = table[i % 3].tag + table[i % 3].pair[i & 1];
  o[i * 12 + 6] = nested.id + nested.e.tag + nested.e.pair[0];
  o[i * 12 + 7] = (int)(ltab[i & 1] >> 8);
  o[i * 12 + 8] = (int)ltab[1];
  o[i * 12 + 9] = sizeof(primes) + sizeof(table) * 100;
  __constant uint *p = primes + (i & 7);
  o[i * 12 + 10] = p[1] + p[8];
  o[i * 12 + 11] = table[2].pair[1] + (int)table[2].weight;

  d[i * 2 + 0] = dtab[i % 3] * (double)in[i];
  d[i * 2 + 1] = dtab[0] + dtab[n % 3];
}
