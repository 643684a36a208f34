// `case` labels inside nested statements of a `switch`, as clang accepts
// them: Duff's device (labels inside a `do`/`while` loop) with a uniform
// selector (clang-19 miscompiles a divergent one: docs/compiler.md), and
// with a divergent selector labels inside an `if`/`else` and a block,
// fall-through into and out of them, `break` from inside, a `default`
// inside an `if`, and labels inside a `for` loop with its own `break`.
#include "gpusim_cl.h"

static void duff(global int *to, global const int *from, int count) {
  int n = (count + 7) / 8;
  switch (count % 8) {
  case 0:
    do {
      *to++ = *from++ * 3;
    case 7:
      *to++ = *from++ * 3;
    case 6:
      *to++ = *from++ * 3;
    case 5:
      *to++ = *from++ * 3;
    case 4:
      *to++ = *from++ * 3;
    case 3:
      *to++ = *from++ * 3;
    case 2:
      *to++ = *from++ * 3;
    case 1:
      *to++ = *from++ * 3;
    } while (--n > 0);
  }
}

static int nested_if(int x, int y) {
  int r = 100;
  switch (x & 7) {
  case 0:
    r += 1;
    if (y > 0) {
      r *= 3;
    case 1:
      r += 5;
      if (y > 10)
        break;
    } else {
      r -= 7;
    case 2:
      r ^= 9;
    }
    r += 2;
    break;
  case 3: {
    r = -r;
  case 4:
    r += y;
  }
    /* fall through */
  case 5:
    if (y & 1) {
    default:
      r += 1000;
    }
    break;
  }
  return r;
}

static int in_for(int x, int y) {
  int s = 0;
  int i = 0;
  switch (x & 3) {
  case 0:
    for (i = 0; i < 6; i++) {
      s += i;
    case 1:
      s += 10;
      if (s > y)
        break;
    case 2:
      s *= 2;
    }
    break;
  case 3:
    s = -1;
  }
  return s * 100 + i;
}

kernel void nested_case(global const int *in, global const int *src, global int *dst,
                        global int *out, int count) {
  uint id = gs_global_id(0);
  if (id == 0)
    duff(dst, src, count);
  int x = in[id];
  int y = in[id + 64];
  out[id * 2] = nested_if(x, y);
  out[id * 2 + 1] = in_for(x, y);
}
