// `__attribute__((packed))` records as clang lays them out: members
// without padding, alignment 1 (then `aligned(N)` raises it), arrays of
// them in global memory read and written member by member at unaligned
// addresses (a `double` at offset 7 of a 15-byte element), copied whole
// into private memory and back, nested in an ordinary struct, in a union,
// an array of them in local memory shared across lanes,
// and `sizeof`/`__alignof__`/`offsetof`-style address differences.
#include "gpusim_cl.h"

typedef struct __attribute__((packed)) {
  char c;
  int i;
  short s;
  double d;
} P; // 15 bytes, alignment 1

struct Q {
  char tag;
  float f;
  uchar u;
} __attribute__((packed)); // 6 bytes

typedef struct __attribute__((packed, aligned(4))) {
  uchar a;
  uint b;
} PA; // 5 bytes padded to 8, alignment 4

struct Outer {
  char head;
  struct Q q; // at 1: a packed member is not aligned
  int tail;   // at 8
};

union U {
  struct Q q;
  uchar raw[6];
} __attribute__((packed));

kernel void packed_records(global P *p, global struct Q *q, global struct Outer *o,
                           global PA *pa, global int *out) {
  uint id = gs_global_id(0);
  global int *r = out + id * 12;
  r[0] = p[id].i + p[id].s + p[id].c;
  r[1] = (int)(p[id].d * 16.0);
  r[2] = sizeof(P) * 10000 + __alignof__(P) * 1000 + sizeof(struct Q) * 100 +
         sizeof(PA) * 10 + __alignof__(PA);
  r[3] = sizeof(struct Outer) * 100 + __alignof__(struct Outer) * 10 + sizeof(union U);
  r[4] = (int)((global char *)&o[id].q.f - (global char *)&o[id]) * 100 +
         (int)((global char *)&o[id].tail - (global char *)&o[id]);
  P v = p[id];
  v.d += 1.5;
  v.i ^= 0x5a5a;
  v.c = (char)(v.s >> 3);
  p[id] = v;
  q[id].f = q[id].f * 2.0f + (float)q[id].u;
  q[id].u += 7;
  o[id].q.f += 0.25f;
  o[id].tail += o[id].q.tag;
  r[5] = pa[id].a + (int)pa[id].b;
  pa[id].b = pa[id].b * 3u + id;
  union U w;
  w.q = q[id];
  r[6] = w.raw[0] | w.raw[1] << 8 | w.raw[4] << 16 | w.raw[5] << 24;
  r[7] = (int)w.q.f;
  // Local memory: a packed array written by one lane, read by another.
  local P lp[32];
  uint l = gs_local_id(0);
  lp[l] = v;
  lp[l].s += (short)l;
  gs_barrier();
  P t = lp[(l + 1) & 31];
  r[8] = t.i + t.s;
  r[9] = (int)t.d;
}
