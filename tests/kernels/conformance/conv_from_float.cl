// float and double to every integer type (toward zero), and between float
// and double. Inputs are in range of every target type (out of range is
// undefined in OpenCL): `s` holds values in (-100, 100), `u` in [0, 250),
// `w` in (-1e12, 1e12).
#include "gpusim_cl.h"

kernel void conv_from_float(global const float *s, global const float *u, global const float *w,
                            global const double *ds, global const double *du,
                            global const double *dw, global int *oi, global long *ol,
                            global float *of, global double *od) {
  uint i = gs_global_id(0);
  oi[i * 8 + 0] = (int)s[i];
  oi[i * 8 + 1] = (uint)u[i];
  oi[i * 8 + 2] = (char)s[i];
  oi[i * 8 + 3] = (uchar)u[i];
  oi[i * 8 + 4] = (short)s[i];
  oi[i * 8 + 5] = (int)ds[i];
  oi[i * 8 + 6] = (uint)du[i];
  oi[i * 8 + 7] = (uchar)du[i];
  ol[i * 4 + 0] = (long)w[i];
  ol[i * 4 + 1] = (ulong)(w[i] < 0 ? -w[i] : w[i]);
  ol[i * 4 + 2] = (long)dw[i];
  ol[i * 4 + 3] = (ulong)(dw[i] < 0 ? -dw[i] : dw[i]);
  of[i] = (float)dw[i];
  od[i] = (double)w[i] * dw[i];
}
