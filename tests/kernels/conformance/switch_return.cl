// A `return` inside a `switch` inside a loop (the lane leaves the switch,
// the loop and the function), in the kernel and in an inlined helper with
// a value, next to `continue` and `break` in the same switch, in a nested
// loop, and with a divergent and a uniform selector.
#include "gpusim_cl.h"

static int steps(int x, int limit) {
  int s = 0;
  for (int j = 0; j < 20; j++) {
    switch ((x + j) & 3) {
    case 0:
      s += 3;
      break;
    case 1:
      if (s > limit)
        return s * 100 + j;
      s++;
      break;
    case 2:
      s ^= 5;
      continue;
    default:
      for (int k = 0; k < 3; k++) {
        switch (k + x & 1) {
        case 1:
          if (s == limit)
            return -s;
          break;
        default:
          s += k;
        }
      }
    }
    s += 1;
  }
  return s;
}

kernel void switch_return(global const int *in, global int *o, int u) {
  uint i = gs_global_id(0);
  int x = in[i];
  o[i * 3 + 1] = steps(x, x & 15);
  o[i * 3 + 2] = steps(u, u + (int)(i & 7));
  int acc = 0;
  for (int j = 0; j < 8; j++) {
    switch (x >> j & 7) {
    case 5:
      o[i * 3] = acc + 1000 * j;
      return;
    case 3:
    case 6:
      acc += j;
      break;
    default:
      acc -= 1;
    }
  }
  o[i * 3] = acc;
}
