// Every integer type to float and to double (round to nearest even).
#include "gpusim_cl.h"

kernel void conv_to_float(global const uchar *u8, global const char *i8, global const ushort *u16,
                          global const short *i16, global const int *i32, global const uint *u32,
                          global const long *i64, global const ulong *u64, global float *of,
                          global double *od) {
  uint i = gs_global_id(0);
  of[i * 8 + 0] = u8[i];
  of[i * 8 + 1] = i8[i];
  of[i * 8 + 2] = u16[i];
  of[i * 8 + 3] = i16[i];
  of[i * 8 + 4] = i32[i];
  of[i * 8 + 5] = u32[i];
  of[i * 8 + 6] = i64[i];
  of[i * 8 + 7] = u64[i];
  od[i * 8 + 0] = u8[i];
  od[i * 8 + 1] = i8[i];
  od[i * 8 + 2] = u16[i];
  od[i * 8 + 3] = i16[i];
  od[i * 8 + 4] = i32[i];
  od[i * 8 + 5] = u32[i];
  od[i * 8 + 6] = i64[i];
  od[i * 8 + 7] = u64[i];
}
