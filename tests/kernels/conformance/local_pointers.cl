// Pointers to private variables and structs that the compiler cannot keep
// in registers access by access: a counter passed by address to a helper
// that bumps it in a loop (PyOpenCL's list builder: `APPEND(x)` is
// `++(*count)`), a pointer variable carried around a loop, a pointer
// stepped through a private struct's members, and a pointer chosen at run
// time between two locals.
#include "gpusim_cl.h"

typedef struct {
  int a;
  float b;
  int c[2];
} rec;

typedef struct {
  int lo;
  int hi;
} pair;

static void bump(int *count, int i) {
  int n = i % 5;
  for (int j = 0; j < n; ++j) {
    ++(*count);
  }
}

static void accumulate(pair *p, int x) {
  for (int j = 0; j < (x & 7); ++j) {
    if (j & 1)
      p->hi += j;
    else
      p->lo -= j;
  }
}

kernel void local_pointers(global const int *in, global int *o, int n) {
  int i = gs_global_id(0);
  for (int g = i; g < n; g += gs_global_size(0)) {
    int x = in[g];
    int count = 0;
    bump(&count, x);
    o[g * 6 + 0] = count;

    int acc = x;
    int *p = &acc;
    for (int j = 0; j < (x & 3); ++j) {
      *p += j * 3;
    }
    o[g * 6 + 1] = acc;

    pair q = {x, -x};
    accumulate(&q, x);
    o[g * 6 + 2] = q.lo ^ q.hi;

    rec r = {x, (float)x * 0.5f, {x + 1, x + 2}};
    int *m = r.c;
    int s = 0;
    for (int j = 0; j < 2; ++j) {
      s += *m++;
    }
    o[g * 6 + 3] = s + r.a + (int)r.b;

    int u = x, v = -x;
    int *w = (x & 1) ? &u : &v;
    for (int j = 0; j < 3; ++j) {
      *w += j;
    }
    o[g * 6 + 4] = u - v;
    o[g * 6 + 5] = *w;
  }
}
