// Brace initialisers for private arrays, structs and nested aggregates
// (partial lists zero-fill, as C says), struct assignment and copies,
// structs returned by helpers and passed to them by value, a member of a
// returned struct, unions copied whole, structs loaded from and stored to
// global and local memory.
#include "gpusim_cl.h"

struct point {
  int x;
  float w;
};

struct shape {
  struct point p;
  short s[3];
  char tag;
};

union bits {
  float f;
  uint u;
};

static struct point make(int x, float w) {
  struct point r = {x * 3, w + 0.5f};
  return r;
}

static float weigh(struct point p, struct shape q) {
  return p.w * (float)p.x + q.p.w + (float)q.s[2];
}

kernel void aggregates(global const int *in, global float *f, global int *o,
                       global struct point *pts, int n) {
  local struct point lp[64];
  uint i = gs_global_id(0);
  uint l = gs_local_id(0);
  int v = in[i];

  float k[3] = {1.5f, -2.0f, 0.25f};
  int z[6] = {v, 7};
  double dd[2] = {0.5, (double)v};
  struct point a = {v, 2.5f};
  struct point b = {1};
  struct shape sh = {{v - 1, -0.75f}, {4, (short)v}};
  struct shape arr[2] = {{{1, 1.0f}, {1, 2, 3}, 'a'}, {{2, 2.0f}}};
  int grid[2][3] = {{1, 2, 3}, {v, 5}};

  b = a;
  b.x += 1;
  struct point c = make(v, k[i % 3]);
  struct shape t;
  t = sh;
  t.s[2] = 9;
  arr[1] = t;
  union bits u1 = {1.0f}, u2;
  u2 = u1;
  u2.u += (uint)v & 0xff;

  lp[l] = c;
  gs_barrier();
  struct point nb = lp[(l + 1) & 31];
  pts[i] = a;
  struct point g = pts[i];

  f[i * 8 + 0] = k[0] + k[i % 3] + k[n % 3];
  f[i * 8 + 1] = (float)(dd[0] + dd[1]);
  f[i * 8 + 2] = weigh(c, sh);
  f[i * 8 + 3] = make(n, 1.0f).w + make(v, 0.0f).w;
  f[i * 8 + 4] = arr[i & 1].p.w + arr[1].p.w + t.p.w;
  f[i * 8 + 5] = u2.f;
  f[i * 8 + 6] = nb.w + (float)nb.x;
  f[i * 8 + 7] = g.w + b.w;

  o[i * 8 + 0] = z[0] + z[1] + z[i % 6] + z[5];
  o[i * 8 + 1] = b.x + a.x + (int)b.w;
  o[i * 8 + 2] = sh.s[0] + sh.s[1] + sh.s[2] + sh.tag + sh.p.x;
  o[i * 8 + 3] = arr[i & 1].s[i % 3] + arr[1].s[2] + arr[1].tag + arr[0].tag;
  o[i * 8 + 4] = grid[i & 1][i % 3] + grid[1][2];
  o[i * 8 + 5] = make(v, 1.0f).x + c.x;
  o[i * 8 + 6] = t.s[2] + t.s[1] + g.x;
  o[i * 8 + 7] = (int)u2.u;
}
