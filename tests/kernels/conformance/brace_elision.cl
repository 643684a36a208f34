// C's brace elision in initialisers: nested arrays and structs filled from
// a flat list (`float m[2][3] = {1, 2, 3, 4, 5}`), mixed with braced
// members, in __constant and private memory; missing members are zero.
#include "gpusim_cl.h"

struct pair_arr {
  float a[2];
  int b;
};

struct outer {
  struct pair_arr s;
  char c;
};

__constant float m[2][3] = {1.5f, 2, 3, 4, 5};
__constant struct outer tt[] = {1.0f, 2.0f, 3, 'x', {{4.0f}, 5}, 'y'};
__constant int cube[2][2][2] = {{1, 2, 3}, 4, 5, 6};

kernel void brace_elision(global const int *in, global float *f, global int *o) {
  uint i = gs_global_id(0);
  int v = in[i];
  float p[2][2] = {1, 2, (float)v};
  struct pair_arr s = {7, (float)v, 9};
  struct outer q[2] = {{{{0.5f}, 1}, 'a'}, 2.5f, 3.5f, v};

  f[i * 4 + 0] = m[i & 1][i % 3] + m[1][2];
  f[i * 4 + 1] = p[i & 1][i % 2] + p[1][0];
  f[i * 4 + 2] = s.a[i & 1] + (float)s.b + tt[i & 1].s.a[i % 2];
  f[i * 4 + 3] = q[i & 1].s.a[1] + q[1].s.a[0] + (float)q[1].s.b;
  o[i * 4 + 0] = tt[1].c + tt[0].c + tt[0].s.b + tt[1].s.b + (int)sizeof(tt);
  o[i * 4 + 1] = cube[i & 1][(i >> 1) & 1][(i >> 2) & 1] + cube[0][1][1];
  o[i * 4 + 2] = q[0].c + q[1].c + q[0].s.b;
  o[i * 4 + 3] = s.b * v;
}
