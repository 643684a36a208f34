// double across control flow: a loop-carried accumulator, a divergent
// branch, a uniform compare, double2 loads, a double kernel argument, and
// the usual arithmetic conversions of float, int and double operands.
#include "gpusim_cl.h"

kernel void dbl_mixed(global const double2 *v, global double *o, double scale, int n,
                      global const float *f) {
  uint i = gs_global_id(0);
  double acc = 0.0;
  for (int k = 0; k < n; k++) {
    double2 x = v[i + k];
    acc += x.x * scale - x.y / 3.0;
    if (acc > 100.0)
      acc = acc * 0.5;
  }
  double t = scale > 1.0 ? scale : 1.0;
  float g = f[i];
  o[i * 6 + 0] = acc;
  o[i * 6 + 1] = t + n;
  o[i * 6 + 2] = (double)(float)acc;
  o[i * 6 + 3] = g * 2 + acc;
  o[i * 6 + 4] = g / (double)n - (i & 1 ? g : -g);
  o[i * 6 + 5] = !acc + (acc != 0.0 ? 1.0 : 2.0) + (double)(g == 0.25);
}
