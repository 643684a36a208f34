// double arithmetic, compares and literals (clang-19: v_add/mul/fma_f64,
// the v_div_scale_f64 ... v_div_fixup_f64 division, v_cmp_*_f64).
#include "gpusim_cl.h"

kernel void dbl_arith(global const double *a, global const double *b, global double *o) {
  uint i = gs_global_id(0);
  double x = a[i], y = b[i];
  o[i * 8 + 0] = x + y;
  o[i * 8 + 1] = x - y;
  o[i * 8 + 2] = x * y;
  o[i * 8 + 3] = x / y;
  o[i * 8 + 4] = x * y + 0.25; // contracted to v_fma_f64, as clang does
  o[i * 8 + 5] = -x + 1.0 / 3.0;
  o[i * 8 + 6] = x < y ? x : y * 2.0;
  o[i * 8 + 7] = (x >= y) + (x == y) * 2 + (x != y) * 4 + (x <= 0.5) * 8;
}
