// Vector and struct kernel arguments by value: the kernarg layout and the
// `.args` metadata are clang-19's (size, alignment, offset, value_kind).
#include "gpusim_cl.h"

typedef struct {
  int a;
  float b;
  char c;
  double d;
  short2 e;
} params_t;

kernel void vec_struct_args(const uint2 dims, float4 scale, params_t p, char c, long2 l,
                            global float *o, global long *ol) {
  uint i = gs_global_id(0);
  o[i * 8 + 0] = (float)(dims.x * 10 + dims.y) * scale.x;
  o[i * 8 + 1] = scale.y + scale.z * scale.w;
  o[i * 8 + 2] = (float)p.a + p.b;
  o[i * 8 + 3] = (float)p.c;
  o[i * 8 + 4] = (float)p.d;
  o[i * 8 + 5] = (float)(p.e.x + p.e.y);
  o[i * 8 + 6] = (float)c;
  o[i * 8 + 7] = (float)i;
  ol[i * 2 + 0] = l.x + i;
  ol[i * 2 + 1] = l.y;
}
