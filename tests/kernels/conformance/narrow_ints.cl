// Integer widths: 8/16-bit values extended to 64 bits ((long)c,
// (ulong)us), char/short vector arithmetic (wrapping on the element
// width, shifts modulo it, vector compares and selects), ++/-- and
// compound assignment on float, double, char, short and long counters.
#include "gpusim_cl.h"

kernel void narrow_ints(global const char *c, global const ushort *us,
                        global const char4 *c4, global const short2 *s2,
                        global const uchar4 *u4, global long *o64,
                        global char4 *oc, global short2 *os, global uchar4 *ou,
                        global float *of, global double *od, int n) {
  uint i = gs_global_id(0);
  char x = c[i];
  ushort y = us[i];
  o64[i * 4 + 0] = (long)x + (ulong)y;
  o64[i * 4 + 1] = (long)x * 100000000L - (long)(short)y;
  o64[i * 4 + 2] = (ulong)(uchar)x << 40;

  char4 a = c4[i], b = c4[i + 1];
  short2 p = s2[i], q = s2[i + 1];
  uchar4 u = u4[i], v = u4[i + 1];
  oc[i * 6 + 0] = a + b;
  oc[i * 6 + 1] = a * b - (char4)(3);
  oc[i * 6 + 2] = (a << (char4)(1, 3, 9, 15)) ^ ~b;
  oc[i * 6 + 3] = a >> (char4)(1, 2, 7, 8);
  oc[i * 6 + 4] = a > b;
  oc[i * 6 + 5] = (b != (char4)(0)) ? a / (b | (char4)(1)) : -a;
  os[i * 4 + 0] = p * q + (short2)(1000);
  os[i * 4 + 1] = p / (short2)(3, -7) + p % (short2)(5);
  os[i * 4 + 2] = p >= q;
  os[i * 4 + 3] = -p & (short2)(0x7ff0);
  ou[i * 3 + 0] = u + v;
  ou[i * 3 + 1] = u >> (uchar4)(1, 4, 7, 9);
  ou[i * 3 + 2] = as_uchar4(u < v) | (u / (uchar4)(7));

  float f = 0.25f;
  double d = -1.5;
  char ch = x;
  short sh = (short)y;
  uchar uc = (uchar)y;
  long l = x;
  char4 cv = a;
  for (int k = 0; k < (n & 7) + (int)(i & 3); k++) {
    f++;
    --f;
    f += 1.5f;
    f *= 0.75f;
    d++;
    d -= 0.25;
    d /= 2.0;
    ch++;
    ch <<= 1;
    ch += 3;
    sh--;
    sh *= 3;
    uc -= 7;
    ++uc;
    l += x;
    l--;
    cv++;
    cv *= (char4)(3);
  }
  of[i] = f;
  od[i] = d;
  o64[i * 4 + 3] = l * 1000 + ch * 100 + sh + uc;
  oc[i * 6 + 0] += cv;
}
