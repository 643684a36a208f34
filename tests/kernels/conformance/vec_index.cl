// Vector subscripts with a run-time index (v[i]): reading and writing a
// component of a private vector (a per-lane select), compound assignment
// and ++ through one, loops over the components, a vector in global
// memory subscripted through a pointer (an address), and .lo/.hi parts.
#include "gpusim_cl.h"

kernel void vec_index(global const int *in, global const float4 *fv,
                      global int4 *o, global float4 *of, global short8 *os) {
  uint i = gs_global_id(0);
  int4 v = (int4)(in[i], in[i + 1], in[i + 2], in[i + 3]);
  int k = in[i] & 3, m = in[i + 1] & 3;
  int r0 = v[k];
  v[(k + 1) & 3] = 100 + k;
  v[m] += 7;
  v[3 - m]++;
  o[i * 3 + 0] = v;
  o[i * 3 + 1] = (int4)(r0, v[m], v.odd[k & 1], v[k] * v[m]);
  float4 f = fv[i];
  float s = 0.0f;
  for (int j = 0; j < 4; j++)
    s += f[j] * (float)(j + 1);
  float8 w = (float8)(f, f * 2.0f);
  for (int j = k; j < 8; j += 3)
    w[j] = -w[j];
  of[i * 4 + 0] = w.lo;
  of[i * 4 + 1] = w.hi;
  of[i * 4 + 2] = (float4)(s, w[k + 4], w.hi[m], 0.0f);
  // In global memory: the component's address.
  global float4 *p = &of[i * 4 + 3];
  *p = f;
  (*p)[k] = 9.5f;
  p[0][m] += 1.0f;
  short8 h = (short8)(k, m, 3, 4, 5, 6, 7, 8);
  for (int j = 0; j < in[i + 2] % 9; j++)
    h[j & 7] = (short)(h[j & 7] * 3 + j);
  os[i] = h;
  // The index is any integer type.
  uchar u = (uchar)m;
  o[i * 3 + 2] = (int4)(v[u], v[(long)k], h[(ulong)(k + 4)], h[(short)m]);
}
