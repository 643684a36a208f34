// Subscripting an array member of a struct value (`f(x).arr[i]`), which
// has no address: constant and run-time (divergent) indices, arrays of
// scalars, of vectors and of structs, nested arrays, inside a loop, and
// an array in a union value.
#include "gpusim_cl.h"

typedef struct {
  float w[4];
  int2 v[3];
  struct {
    short a;
    uchar b;
  } s[2];
  int m[2][3];
} Box;

typedef union {
  uint words[2];
  ushort halves[4];
} Bits;

static Box make(int x) {
  Box b;
  for (int k = 0; k < 4; k++)
    b.w[k] = (float)(x * (k + 1)) * 0.5f;
  for (int k = 0; k < 3; k++)
    b.v[k] = (int2)(x + k, x - 7 * k);
  b.s[0].a = (short)(x * 3);
  b.s[0].b = (uchar)x;
  b.s[1].a = (short)(-x);
  b.s[1].b = (uchar)(x >> 2);
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < 3; c++)
      b.m[r][c] = x * 10 + r * 3 + c;
  return b;
}

static Bits bits(uint a, uint b) {
  Bits u;
  u.words[0] = a;
  u.words[1] = b;
  return u;
}

kernel void rvalue_arrays(global const int *in, global float *f, global int *out) {
  uint id = gs_global_id(0);
  int x = in[id];
  int i = (uint)x % 4;
  global int *r = out + id * 10;
  f[id * 2] = make(x).w[2];
  f[id * 2 + 1] = make(x).w[i];
  r[0] = make(x).v[i % 3].y;
  r[1] = make(x).v[1].x;
  r[2] = make(x).s[i & 1].a + make(x).s[1].b;
  r[3] = make(x).m[i & 1][i % 3];
  int acc = 0;
  for (int k = 0; k < 4; k++)
    acc += (int)make(x + k).w[(k + i) & 3];
  r[4] = acc;
  r[5] = bits((uint)x, (uint)x * 7u).halves[i];
  r[6] = bits((uint)x, 5u).words[i & 1];
}
