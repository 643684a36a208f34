// __attribute__((aligned(N))) on struct and union definitions (N a
// constant expression with sizeof, as PyOpenCL's complex header writes
// it) and C11 anonymous struct/union members: layouts (sizeof, member
// offsets, array strides in global memory) and member access through the
// anonymous members, read, written and brace-initialized; pointer
// subtraction (element counts, as a long).
#include "gpusim_cl.h"

#define ALIGNMENT(T) 2 * sizeof(T)
typedef union {
  struct { float x, y; } __attribute__((aligned(ALIGNMENT(float))));
  struct { float real, imag; } __attribute__((aligned(ALIGNMENT(float))));
} cfloat_t;

typedef struct __attribute__((aligned(16))) {
  char tag;
  short s;
} padded_t;

struct outer {
  int a;
  struct {
    char c;
    union {
      int i;
      float f;
    };
  };
  padded_t p;
};

// PyOpenCL's complex helpers: a union returned by value, its members read
// from the value (the union's bits reinterpreted).
static cfloat_t cmake(float re, float im) {
  cfloat_t r;
  r.real = re;
  r.imag = im;
  return r;
}
static cfloat_t cmul(cfloat_t a, cfloat_t b) {
  return cmake(a.real * b.real - a.imag * b.imag, a.real * b.imag + a.imag * b.real);
}
typedef union {
  double d;
  uint u[2];
  uchar c[8];
} bits_t;
static bits_t from_uint(uint lo, uint hi) {
  bits_t b;
  b.u[0] = lo;
  b.u[1] = hi;
  return b;
}

kernel void aligned_records(global const cfloat_t *z, global cfloat_t *oz,
                            global padded_t *op, global struct outer *oo,
                            global int *sizes) {
  uint i = gs_global_id(0);
  cfloat_t a = z[i], b = z[i + 1];
  cfloat_t c;
  c.real = a.x * b.real - a.imag * b.y;
  c.imag = a.real * b.imag + a.y * b.x;
  oz[i] = c;
  cfloat_t d = {a.y, -a.x};
  oz[i + 64] = d;
  sizes[12 + i] = as_int(cmul(a, b).imag) ^ as_int(cmake(b.y, 2.0f).x);
  bits_t u = from_uint(as_uint(a.x), as_uint(b.y));
  ((global double *)op)[128 * 2 + i] = from_uint(as_uint(a.x), as_uint(b.y)).d + u.d;
  sizes[76 + i] = as_int((float)from_uint(i * 0x01020304u, 0x40000000u + i).d + cmul(b, a).real);
  padded_t p = {(char)i, (short)(i * 300)};
  op[i] = p;
  op[i + 64].s = (short)c.x;
  global struct outer *o = &oo[i];
  o->a = (int)i;
  o->c = (char)(i + 1);
  o->i = (int)(i * 7);
  if (i & 1)
    o->f = c.imag;
  o->p.tag = 'q';
  o->p.s = -3;
  if (i == 0) {
    sizes[0] = sizeof(cfloat_t);
    sizes[1] = __alignof__(cfloat_t);
    sizes[2] = sizeof(padded_t);
    sizes[3] = __alignof__(padded_t);
    sizes[4] = sizeof(struct outer);
    sizes[5] = __alignof__(struct outer);
    sizes[6] = (int)((global char *)&oo[0].p - (global char *)&oo[0]);
    sizes[7] = (int)((global char *)&oo[0].i - (global char *)&oo[0]);
  }
  // Pointer differences in elements: 8-, 32- and 12-byte elements.
  struct tri { int a, b, c; } t[5];
  sizes[140 + i] = (int)(&oz[i + 3] - &oz[i]) * 100 + (int)(&oo[i] - &oo[1]) * 10 +
                     (int)(&t[(i & 3) + 1] - &t[0]);
}
