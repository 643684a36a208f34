// Control flow and functions as other people write them: early returns
// inside loops (kernel and helper), a helper with several returns, a
// kernel calling another kernel's body as a function, `while (1)` left by
// `break`, `continue` from a nested if, a do-while, and a switch with
// fall-through inside a loop. Divergent: every lane takes its own path.
#include "gpusim_cl.h"

static int first_negative(global const int *p, int n) {
  for (int j = 0; j < n; j++) {
    if (p[j] < 0)
      return j;
  }
  return -1;
}

int classify(int v) {
  if (v < -100)
    return 0;
  if (v < 0)
    return 1;
  if (v == 0)
    return 2;
  return v > 100 ? 4 : 3;
}

kernel void scale3(global int *o, int n) {
  uint i = gs_global_id(0);
  if (i >= (uint)n)
    return;
  o[i] = o[i] * 3 + 1;
}

kernel void ctl_calls(global const int *in, global int *o, int n) {
  uint i = gs_global_id(0);
  int v = in[i];
  o[i * 8 + 0] = first_negative(in + i, 16);
  o[i * 8 + 1] = classify(v);

  int x = v & 1023, steps = 0;
  while (1) {
    if (x <= 1 || steps > 200)
      break;
    steps++;
    if (x & 1) {
      x = 3 * x + 1;
      continue;
    }
    x >>= 1;
  }
  o[i * 8 + 2] = steps;

  int acc = 0, k = 0;
  do {
    switch ((v >> k) & 3) {
    case 0:
      acc += 1;
    case 1:
      acc *= 3;
      break;
    case 2:
      if (acc > 50)
        continue;
      acc -= 7;
      break;
    default:
      acc ^= k;
    }
  } while (++k < 12);
  o[i * 8 + 3] = acc;

  o[i * 8 + 4] = v;
  o[i * 8 + 5] = (int)i;
  o[i * 8 + 6] = 0;
  o[i * 8 + 7] = 0;
  // The other kernel's body on this lane's slots (its guard uses n).
  scale3(o + i * 8 + 4, n);
  if (v % 5 == 0)
    return;
  o[i * 8 + 6] = -1;
}
