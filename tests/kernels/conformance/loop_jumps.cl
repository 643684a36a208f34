// `continue` and `break` anywhere in a loop body: a continue inside a
// conditional whose other side may still break later in the body (the
// Collatz loop), breaks nested in conditionals, continue and break in one
// if/else, in for, while and do/while loops, divergent across lanes.
#include "gpusim_cl.h"

kernel void loop_jumps(global const int *in, global int *o) {
  uint i = gs_global_id(0);
  int x = in[i], s = 0;

  // Collatz steps, capped: a continue in an if, a break after it.
  int c = x & 0x3ff;
  while (1) {
    if (c <= 1)
      break;
    if (c & 1) {
      c = 3 * c + 1;
      s++;
      continue;
    }
    c >>= 1;
    s += 2;
    if (s > 200)
      break;
  }
  o[i * 6 + 0] = s * 10000 + c;

  // A break nested in a conditional.
  int t = 0;
  for (int j = 0; j < 10; j++) {
    if (x & j) {
      if (t > 5 + (x & 3))
        break;
      t++;
    }
    t ^= x & 0xf;
  }
  o[i * 6 + 1] = t;

  // continue in the then-arm, the else-arm falls through to a break.
  int u = 0, j = 0;
  for (; j < 12; j++) {
    if ((x >> (j & 7)) & 1) {
      u += j;
      continue;
    } else {
      u--;
    }
    u ^= x & 0x3f;
    if (u > 100)
      break;
  }
  o[i * 6 + 2] = u * 100 + j;

  // if (c) continue; then a break.
  int v = 0, k;
  for (k = 0; k < 10; k++) {
    if (k == (x & 7))
      continue;
    v += k;
    if (v > 12 + (x & 15))
      break;
  }
  o[i * 6 + 3] = v * 100 + k;

  // do/while with a break nested under a continue's if.
  int w = 0, m = 0;
  do {
    m++;
    if (x & m) {
      if (m > 3 + (x & 1))
        break;
      continue;
    }
    w += m;
  } while (m < 8);
  o[i * 6 + 4] = w * 100 + m;

  // Nested loops: the inner breaks from a conditional, the outer continues.
  int z = 0;
  for (int a = 0; a < 4; a++) {
    if (a == (x & 3))
      continue;
    for (int b = 0; b < 6; b++) {
      if (b > a) {
        if ((x ^ b) & 1)
          break;
        z += 3;
      }
      z++;
    }
    if (z > 20 + (x & 7))
      break;
  }
  o[i * 6 + 5] = z;
}
