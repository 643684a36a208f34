// 3-component vectors (stored as 4: size and alignment of the 4-vector),
// narrow vectors, double2 and a union as by-value kernel arguments.
#include "gpusim_cl.h"

typedef union {
  int i;
  float f;
  uchar4 b;
} word_t;

kernel void vec3_args(float3 a, int3 b, uchar4 c, double2 d, char3 e, word_t u, global float *o,
                      global int *oi) {
  uint i = gs_global_id(0);
  o[i * 6 + 0] = a.x + a.y * a.z;
  o[i * 6 + 1] = (float)(b.x - b.y + b.z);
  o[i * 6 + 2] = c.x + c.y + c.z + c.w;
  o[i * 6 + 3] = (float)(d.x * d.y);
  o[i * 6 + 4] = e.x + e.y + e.z + (float)i;
  o[i * 6 + 5] = u.f;
  oi[i] = u.i + u.b.y;
}
