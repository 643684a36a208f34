// half (cl_khr_fp16) as a storage and arithmetic type: loads and stores,
// + - * / on half (division is clang's f32-reciprocal sequence), a
// contracted a * b + c (one v_fma_f16), compares and selects, negation,
// constants (1.5h, and double constants rounded to half once), ++ and
// compound assignment, half2/half4 vectors, private and local half arrays,
// and every conversion: half <-> float (round to nearest even, denormals
// kept, overflow to infinity), double -> half (correctly rounded, not
// through float), half -> double, integers <-> half; half and half2
// kernel arguments by value.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#include "gpusim_cl.h"

kernel void half_arith(global const half *a, global const float *f,
                       global const double *d, global const int *n,
                       global const half4 *v4, global half *o,
                       global float *of, global double *od, global int *oi,
                       global long *ol, global half4 *o4, half hs,
                       half2 h2s) {
  uint i = gs_global_id(0);
  local half tile[64];
  half x = a[i], y = a[i + 1], z = a[i + 2];
  tile[gs_local_id(0)] = x;
  gs_barrier();
  half t = tile[gs_local_id(0) ^ 1];
  o[i * 24 + 0] = x + y;
  o[i * 24 + 1] = x - y;
  o[i * 24 + 2] = x * y;
  o[i * 24 + 3] = x / y;
  o[i * 24 + 4] = x * y + z;
  o[i * 24 + 5] = z - x * y;
  o[i * 24 + 6] = x < y ? x : y;
  o[i * 24 + 7] = (x >= z || x != x) ? -x : t;
  o[i * 24 + 8] = (half)f[i];
  o[i * 24 + 9] = (half)d[i];
  o[i * 24 + 10] = (half)n[i];
  o[i * 24 + 11] = (half)(short)n[i];
  o[i * 24 + 12] = (half)(char)n[i];
  o[i * 24 + 13] = x * 1.5h + (half)0.1;
  o[i * 24 + 14] = 2 * x + 1;
  half s = x;
  s += y;
  s *= 0.25h;
  s++;
  o[i * 24 + 15] = s;
  half p[4] = {x, y, z, t};
  half acc = 0.0h;
  for (int k = 0; k < 4; k++)
    acc = acc * p[(k + (int)i) & 3] + p[k];
  o[i * 24 + 16] = acc;
  o[i * 24 + 17] = (half)(f[i] * 3.0f) / (half)n[i];
  o[i * 24 + 18] = (x == y) + (half)(x > 0.0h) - (half)(y <= z);
  o[i * 24 + 19] = (half)1e-6f + (half)65519.0 + (half)-70000.0f;
  o[i * 24 + 20] = x * hs + h2s.y - h2s.x;
  of[i * 4 + 0] = (float)x;
  of[i * 4 + 1] = x * 2.0f;
  of[i * 4 + 2] = y + f[i];
  of[i * 4 + 3] = (float)(x * y);
  od[i * 2 + 0] = (double)x;
  od[i * 2 + 1] = x * d[i];
  oi[i * 3 + 0] = (int)(x * (half)8.0h);
  oi[i * 3 + 1] = (uint)(y < 0.0h ? -y : y);
  oi[i * 3 + 2] = (short)(z < 1000.0h && z > -1000.0h ? z : 0.0h) + (uchar)(half)3.75h;
  ol[i] = (long)(x * 64.0h);
  half4 u = v4[i], w = v4[i + 1];
  o4[i * 4 + 0] = u * w + (half4)(1.0h, -2.0h, 0.5h, 0.0h);
  o4[i * 4 + 1] = u / w - u;
  o4[i * 4 + 2] = -u + (half4)(x);
  half2 h2 = u.lo * w.hi;
  o4[i * 4 + 3] = (half4)(h2, u.s3 > w.s3 ? u.s3 : w.s3, (half)(float)h2.y);
}
