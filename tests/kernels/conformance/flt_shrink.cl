// Float shrinking (clang's InstCombine): a float operation written in
// double through C's double literals or casts, `(float)((double)x * 0.5)`,
// is done in float when the result is the same; comparisons of widened
// floats with constants that are exactly floats likewise. Constants that
// are not floats (0.1) keep the double operation. The inputs include tiny
// and huge values, where a wrong rounding would show.
#include "gpusim_cl.h"

kernel void flt_shrink(global const float *x, global const float *y, global float *o,
                       global int *c) {
  uint i = gs_global_id(0);
  float a = x[i], b = y[i];
  o[i * 10 + 0] = a * 0.5;
  o[i * 10 + 1] = a + 1.0;
  o[i * 10 + 2] = a - 0.25;
  o[i * 10 + 3] = (double)a * (double)b;
  o[i * 10 + 4] = (double)a + (double)b;
  o[i * 10 + 5] = 3.0 - (double)b;
  o[i * 10 + 6] = -(double)a;
  o[i * 10 + 7] = a * 0.1;
  o[i * 10 + 8] = (float)((double)a * 1048576.0) - b;
  o[i * 10 + 9] = (double)a * (double)b * 0.75;
  c[i * 4 + 0] = a < 0.5;
  c[i * 4 + 1] = (double)a >= (double)b;
  c[i * 4 + 2] = a > 0.1;
  c[i * 4 + 3] = a == 2.0 ? 7 : -3;
}
